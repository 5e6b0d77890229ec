//===- FuseActivation.cpp - activations into dwc op prologues, epilogues ---===//
//
// Folds an elementwise linalg.generic activation applied to the result of a
// dwc.pool2d (ReLU/ReLU6) or dwc.depthwise_conv2d into the op's
// `activation`, and one feeding a depthwise convolution's input into its
// `input_activation` (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/Transforms/Passes.h"
#include "dwc/Dialect/Dwc/Transforms/ActivationMatch.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include <type_traits>

namespace mlir::dwc {
#define GEN_PASS_DEF_DWCFUSEACTIVATION
#include "dwc/Dialect/Dwc/Transforms/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;
using namespace mlir::dwc;

namespace {

/// An activation of the tensor result of an OpTy -> its `activation`
/// epilogue: dwc.pool2d takes ReLU/ReLU6 (which commute with the rounding
/// to the element type: the fused op computes what the pair did);
/// dwc.depthwise_conv2d takes every activation (the smooth ones on 16-bit
/// types then skip the pair's intermediate rounding: the fused result is
/// the more accurate one).
template <typename OpTy>
struct FoldActivationIntoResult : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern<linalg::GenericOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp g,
                                PatternRewriter &rewriter) const override {
    std::optional<Activation> act = matchElementwiseActivation(g);
    if (!act)
      return rewriter.notifyMatchFailure(g, "not an elementwise activation");
    if (std::is_same_v<OpTy, Pool2DOp> && !isClampActivation(*act))
      return rewriter.notifyMatchFailure(g, "a pool takes ReLU/ReLU6 only");
    auto op = g.getDpsInputs()[0].template getDefiningOp<OpTy>();
    if (!op || !op.getResult())
      return rewriter.notifyMatchFailure(g, "input is not a tensor-form op");
    if (op.getActivation())
      return rewriter.notifyMatchFailure(g, "op already has an activation");
    if (!op.getResult().hasOneUse())
      return rewriter.notifyMatchFailure(g, "op result has other uses");
    // A convolution's activation pooled next is dwc-fuse-conv-pool's (which
    // takes no channel multiplier).
    auto conv = dyn_cast<DepthwiseConv2DOp>(op.getOperation());
    if (conv && conv.getMultiplier() == 1 && g->hasOneUse() &&
        isa<Pool2DOp>(*g->getUsers().begin()))
      return rewriter.notifyMatchFailure(g, "pooled next (dwc-fuse-conv-pool)");
    rewriter.modifyOpInPlace(op, [&] {
      op.setActivationAttr(ActivationAttr::get(this->getContext(), *act));
    });
    rewriter.replaceOp(g, op.getResult());
    return success();
  }
};

/// An activation of a depthwise convolution's input -> its prologue (the
/// zero padding of the activated tensor is what the op pads with).
struct FoldActivationIntoConvInput : OpRewritePattern<DepthwiseConv2DOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(DepthwiseConv2DOp conv,
                                PatternRewriter &rewriter) const override {
    auto g = conv.getInput().getDefiningOp<linalg::GenericOp>();
    std::optional<Activation> act =
        g ? matchElementwiseActivation(g) : std::nullopt;
    if (!act)
      return rewriter.notifyMatchFailure(conv, "input is not an activation");
    if (conv.getInputActivation() || conv.getInputBias())
      return rewriter.notifyMatchFailure(conv, "conv already has a prologue");
    if (!g->getResult(0).hasOneUse())
      return rewriter.notifyMatchFailure(conv, "activation has other uses");
    rewriter.modifyOpInPlace(conv, [&] {
      conv.getInputMutable().assign(g.getDpsInputs()[0]);
      conv.setInputActivationAttr(ActivationAttr::get(getContext(), *act));
    });
    rewriter.eraseOp(g);
    return success();
  }
};

struct DwcFuseActivationPass
    : dwc::impl::DwcFuseActivationBase<DwcFuseActivationPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldActivationIntoResult<Pool2DOp>,
                 FoldActivationIntoResult<DepthwiseConv2DOp>,
                 FoldActivationIntoConvInput>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
