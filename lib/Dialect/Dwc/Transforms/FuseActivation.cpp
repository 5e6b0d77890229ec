//===- FuseActivation.cpp - ReLU/ReLU6 into dwc.pool2d epilogues ----------===//
//
// Folds an elementwise linalg.generic ReLU or ReLU6 applied to the result of
// a dwc.pool2d into the pool's `activation` attribute (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/Transforms/Passes.h"
#include "dwc/Dialect/Dwc/Transforms/ActivationMatch.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_DWCFUSEACTIVATION
#include "dwc/Dialect/Dwc/Transforms/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;
using namespace mlir::dwc;

namespace {

struct FoldActivationIntoPool : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp g,
                                PatternRewriter &rewriter) const override {
    std::optional<Activation> act = matchElementwiseActivation(g);
    if (!act)
      return rewriter.notifyMatchFailure(g, "not an elementwise ReLU/ReLU6");
    auto pool = g.getDpsInputs()[0].getDefiningOp<Pool2DOp>();
    if (!pool || !pool.getResult())
      return rewriter.notifyMatchFailure(g, "input is not a tensor dwc.pool2d");
    if (pool.getActivation())
      return rewriter.notifyMatchFailure(g, "pool already has an activation");
    if (!pool.getResult().hasOneUse())
      return rewriter.notifyMatchFailure(g, "pooled tensor has other uses");
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
