//===- FuseActivation.cpp - ReLU/ReLU6 into dwc.pool2d epilogues ----------===//
//
// Folds an elementwise linalg.generic ReLU or ReLU6 applied to the result of
// a dwc.pool2d into the pool's `activation` attribute (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/Transforms/Passes.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_DWCFUSEACTIVATION
#include "dwc/Dialect/Dwc/Transforms/Passes.h.inc"
} // namespace mlir::dwc

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

struct FoldActivationIntoPool : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp g,
                                PatternRewriter &rewriter) const override {
    if (g.getNumDpsInputs() != 1 || g.getNumDpsInits() != 1 ||
        g.getNumResults() != 1)
      return rewriter.notifyMatchFailure(g, "not unary elementwise");
    if (g.getNumReductionLoops() != 0 ||
        !llvm::all_of(g.getIndexingMapsArray(),
                      [](AffineMap m) { return m.isIdentity(); }))
      return rewriter.notifyMatchFailure(g, "not an identity elementwise map");
    auto pool = g.getDpsInputs()[0].getDefiningOp<Pool2DOp>();
    if (!pool || !pool.getResult())
      return rewriter.notifyMatchFailure(g, "input is not a tensor dwc.pool2d");
    if (pool.getActivation())
      return rewriter.notifyMatchFailure(g, "pool already has an activation");
    if (!pool.getResult().hasOneUse())
      return rewriter.notifyMatchFailure(g, "pooled tensor has other uses");
    if (g.getResult(0).getType() != pool.getResult().getType())
      return rewriter.notifyMatchFailure(g, "type changes");
    std::optional<Activation> act = matchBody(g);
    if (!act)
      return rewriter.notifyMatchFailure(g, "body is not ReLU or ReLU6");
    rewriter.modifyOpInPlace(pool, [&] {
      pool.setActivationAttr(ActivationAttr::get(getContext(), *act));
    });
    rewriter.replaceOp(g, pool.getResult());
    return success();
  }
};

struct DwcFuseActivationPass
    : dwc::impl::DwcFuseActivationBase<DwcFuseActivationPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldActivationIntoPool>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
