//===- ActivationMatch.cpp - recognise activation linalg.generic ops -------===//
//
// See ActivationMatch.h.
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/Transforms/ActivationMatch.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"
#include <cmath>

using namespace mlir;
using namespace mlir::dwc;

namespace {

/// `v` is a float constant equal to `expected`.
bool isFloatConstant(Value v, double expected) {
  APFloat c(0.0);
  if (!matchPattern(v, m_ConstantFloat(&c)))
    return false;
  bool lost = false;
  c.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return c.convertToDouble() == expected;
}

/// If `op` is max(`x`, 0) in either operand order, returns true.
bool isRelu(Operation *op, Value x) {
  if (!op || !isa<arith::MaximumFOp, arith::MaxNumFOp>(op))
    return false;
  Value a = op->getOperand(0), b = op->getOperand(1);
  return (a == x && isFloatConstant(b, 0.0)) ||
         (b == x && isFloatConstant(a, 0.0));
}

/// The activation computed by a generic's body on its input block argument,
/// if it is exactly ReLU or ReLU6.
std::optional<Activation> matchBody(linalg::GenericOp g) {
  Block &body = g.getRegion().front();
  Value in = body.getArgument(0);
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (yield.getNumOperands() != 1)
    return std::nullopt;
  Operation *top = yield.getOperand(0).getDefiningOp();
  // Only the activation's own ops (and constants) in the body.
  for (Operation &op : body.without_terminator())
    if (!isa<arith::MaximumFOp, arith::MaxNumFOp, arith::MinimumFOp,
             arith::MinNumFOp, arith::ConstantOp>(op))
      return std::nullopt;
  if (isRelu(top, in))
    return Activation::Relu;
  if (top && isa<arith::MinimumFOp, arith::MinNumFOp>(top)) {
    Value a = top->getOperand(0), b = top->getOperand(1);
    if (isFloatConstant(b, 6.0) && isRelu(a.getDefiningOp(), in))
      return Activation::Relu6;
    if (isFloatConstant(a, 6.0) && isRelu(b.getDefiningOp(), in))
      return Activation::Relu6;
  }
  return std::nullopt;
}

/// The value of `v` in a generic's body at input `x` (block argument 0), in
/// double, or nullopt for an operation or operand outside what the
/// activations are built from (a use of the init argument included).
std::optional<double> evaluate(Value v, Value in, double x, int depth = 0) {
  if (v == in)
    return x;
  Operation *op = v.getDefiningOp();
  if (!op || depth > 32)
    return std::nullopt;
  APFloat c(0.0);
  if (matchPattern(v, m_ConstantFloat(&c))) {
    bool lost = false;
    c.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
    return c.convertToDouble();
  }
  SmallVector<double, 2> a;
  for (Value operand : op->getOperands()) {
    std::optional<double> r = evaluate(operand, in, x, depth + 1);
    if (!r)
      return std::nullopt;
    a.push_back(*r);
  }
  return llvm::TypeSwitch<Operation *, std::optional<double>>(op)
      .Case([&](arith::AddFOp) { return a[0] + a[1]; })
      .Case([&](arith::SubFOp) { return a[0] - a[1]; })
      .Case([&](arith::MulFOp) { return a[0] * a[1]; })
      .Case([&](arith::DivFOp) { return a[0] / a[1]; })
      .Case([&](arith::NegFOp) { return -a[0]; })
      .Case<arith::MaximumFOp, arith::MaxNumFOp>(
          [&](Operation *) { return std::max(a[0], a[1]); })
      .Case<arith::MinimumFOp, arith::MinNumFOp>(
          [&](Operation *) { return std::min(a[0], a[1]); })
      .Case([&](math::ExpOp) { return std::exp(a[0]); })
      .Case([&](math::ErfOp) { return std::erf(a[0]); })
      .Case([&](math::TanhOp) { return std::tanh(a[0]); })
      .Case([&](math::SqrtOp) { return std::sqrt(a[0]); })
      .Case([&](math::RsqrtOp) { return 1.0 / std::sqrt(a[0]); })
      .Default([](Operation *) { return std::nullopt; });
}

/// The activations as dwc.depthwise_conv2d defines them, in double.
double reference(Activation act, double x) {
  auto relu6 = [](double v) { return std::min(std::max(v, 0.0), 6.0); };
  auto sigmoid = [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
  switch (act) {
  case Activation::Relu:
    return std::max(x, 0.0);
  case Activation::Relu6:
    return relu6(x);
  case Activation::Silu:
    return x * sigmoid(x);
  case Activation::Sigmoid:
    return sigmoid(x);
  case Activation::Hardswish:
    return x * relu6(x + 3.0) / 6.0;
  case Activation::Hardsigmoid:
    return relu6(x + 3.0) / 6.0;
  case Activation::Gelu:
    return 0.5 * x * (1.0 + std::erf(x * M_SQRT1_2));
  case Activation::GeluTanh:
    return 0.5 * x *
           (1.0 + std::tanh(M_2_SQRTPI * M_SQRT1_2 *
                            (x + 0.044715 * x * x * x)));
  }
  llvm_unreachable("unknown activation");
}

/// The smooth activations (ReLU and ReLU6 are matched by their form), by
/// value: the body, evaluated in double at points across both signs and
/// the clamps' corners, equals exactly one activation within the
/// rounding of its element type's constants (f32 1e-5, 16-bit 4e-3
/// relative). Front ends write them in many equivalent forms (a division
/// or a product by the reciprocal, the 1/2 before or after, erf's argument
/// scaled either way); the body may only use the ops `evaluate` models,
/// so the identified function is the body's. Two matches (erf- and
/// tanh-GELU in a 16-bit body) are refused.
std::optional<Activation> identifyByValue(linalg::GenericOp g) {
  static constexpr double kPoints[] = {-9.0, -5.5,  -3.25, -2.5, -1.1,
                                       -0.45, 0.0,  0.3,   0.8,  1.6,
                                       2.7,  3.5,   4.9,   7.5};
  Block &body = g.getRegion().front();
  Value in = body.getArgument(0);
  Value out = cast<linalg::YieldOp>(body.getTerminator()).getOperand(0);
  Type elem = in.getType();
  double tol = elem.isF32() ? 1e-5 : 4e-3;
  SmallVector<double> values;
  for (double x : kPoints) {
    std::optional<double> v = evaluate(out, in, x);
    if (!v || !std::isfinite(*v))
      return std::nullopt;
    values.push_back(*v);
  }
  std::optional<Activation> found;
  for (Activation act :
       {Activation::Silu, Activation::Sigmoid, Activation::Hardswish,
        Activation::Hardsigmoid, Activation::Gelu, Activation::GeluTanh}) {
    bool same = llvm::all_of(llvm::zip(kPoints, values), [&](auto p) {
      double r = reference(act, std::get<0>(p));
      return std::abs(std::get<1>(p) - r) <= tol * std::max(1.0, std::abs(r));
    });
    if (same && found)
      return std::nullopt; // ambiguous
    if (same)
      found = act;
  }
  return found;
}

} // namespace

std::optional<Activation>
mlir::dwc::matchElementwiseActivation(linalg::GenericOp g) {
  if (g.getNumDpsInputs() != 1 || g.getNumDpsInits() != 1 ||
      g.getNumResults() != 1 || g.getNumReductionLoops() != 0 ||
      !llvm::all_of(g.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isIdentity(); }))
    return std::nullopt;
  if (g.getDpsInputs()[0].getType() != g.getResult(0).getType())
    return std::nullopt;
  if (std::optional<Activation> clamp = matchBody(g))
    return clamp;
  if (cast<linalg::YieldOp>(g.getRegion().front().getTerminator())
          .getNumOperands() != 1)
    return std::nullopt;
  return identifyByValue(g);
}
