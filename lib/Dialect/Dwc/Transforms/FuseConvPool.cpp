//===- FuseConvPool.cpp - dwc.pool2d into a depthwise conv's epilogue -----===//
//
// Rewrites dwc.pool2d(dwc.depthwise_conv2d(...)) -- optionally with an
// elementwise ReLU/ReLU6 between them under max pooling -- into one
// dwc.depthwise_conv2d_pool2d (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/Transforms/Passes.h"
#include "dwc/Dialect/Dwc/Transforms/ActivationMatch.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_DWCFUSECONVPOOL
#include "dwc/Dialect/Dwc/Transforms/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;
using namespace mlir::dwc;

namespace {

struct FoldPoolIntoConv : OpRewritePattern<Pool2DOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(Pool2DOp pool,
                                PatternRewriter &rewriter) const override {
    if (!pool.getResult())
      return rewriter.notifyMatchFailure(pool, "memref form");
    // A configuration on the pool asks for its own kernel (e.g. to time the
    // unfused pair).
    if (pool->hasAttr(kKernelAttrName))
      return rewriter.notifyMatchFailure(pool, "dwc.kernel chosen for the pool");
    Value src = pool.getInput();
    std::optional<Activation> act = pool.getActivation();
    linalg::GenericOp between = src.getDefiningOp<linalg::GenericOp>();
    if (between) {
      // max(relu(v)) == relu(max(v)): only max pooling commutes with the
      // (monotone) activation.
      std::optional<Activation> inner = matchElementwiseActivation(between);
      if (!inner)
        return rewriter.notifyMatchFailure(pool, "input is not a ReLU/ReLU6");
      if (pool.getKind() != PoolKind::Max)
        return rewriter.notifyMatchFailure(
            pool, "an activation before average pooling does not commute");
      if (act)
        return rewriter.notifyMatchFailure(pool,
                                           "pool already has an activation");
      if (!between.getResult(0).hasOneUse())
        return rewriter.notifyMatchFailure(pool, "activation has other uses");
      act = inner;
      src = between.getDpsInputs()[0];
    }
    auto conv = src.getDefiningOp<DepthwiseConv2DOp>();
    if (!conv || !conv.getResult())
      return rewriter.notifyMatchFailure(pool,
                                         "input is not a tensor depthwise conv");
    if (!conv.getResult().hasOneUse())
      return rewriter.notifyMatchFailure(pool, "conv result has other uses");
    if (conv.isFused())
      return rewriter.notifyMatchFailure(
          pool, "conv has a fused prologue or epilogue");
    if (conv.getMultiplier() > 1)
      return rewriter.notifyMatchFailure(
          pool, "conv has a channel multiplier (the fused op has none)");
    if (conv.getAccType() != pool.getAccType())
      return rewriter.notifyMatchFailure(pool, "different accumulation types");
    ActivationAttr attr =
        act ? ActivationAttr::get(getContext(), *act) : ActivationAttr();
    auto fused = DepthwiseConv2DPool2DOp::create(
        rewriter, pool.getLoc(), pool.getResult().getType(),
        pool.getKindAttr(), conv.getInput(), conv.getFilter(), conv.getBias(),
        pool.getInit(), conv.getStridesAttr(), conv.getDilationsAttr(),
        conv.getPaddingAttr(), pool.getWindowAttr(), pool.getStridesAttr(),
        pool.getPaddingAttr(), pool.getCeilModeAttr(),
        pool.getCountIncludePadAttr(), pool.getAccAttr(), attr);
    rewriter.replaceOp(pool, fused.getResult());
    if (between)
      rewriter.eraseOp(between);
    rewriter.eraseOp(conv);
    return success();
  }
};

struct DwcFuseConvPoolPass
    : dwc::impl::DwcFuseConvPoolBase<DwcFuseConvPoolPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldPoolIntoConv>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
