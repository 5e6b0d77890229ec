//===- ActivationMatch.cpp - recognise ReLU/ReLU6 linalg.generic ops ------===//
//
// See ActivationMatch.h.
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/Transforms/ActivationMatch.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

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
  return matchBody(g);
}
