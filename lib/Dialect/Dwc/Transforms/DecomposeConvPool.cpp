//===- DecomposeConvPool.cpp - dwc.depthwise_conv2d_pool2d into two ops ---===//
//
// Rewrites each dwc.depthwise_conv2d_pool2d left by the fused GPU kernel (or
// on the CPU path) back into dwc.depthwise_conv2d + dwc.pool2d, through a
// tensor.empty (tensor form) or a memref.alloc/dealloc pair (memref form)
// holding the convolution's output (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/Transforms/Passes.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_DWCDECOMPOSECONVPOOL
#include "dwc/Dialect/Dwc/Transforms/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;
using namespace mlir::dwc;

namespace {

struct SplitConvPool : OpRewritePattern<DepthwiseConv2DPool2DOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(DepthwiseConv2DPool2DOp op,
                                PatternRewriter &rewriter) const override {
    // The fused kernel implements it (dwc-select-kernels chose it).
    if (op->getAttrOfType<ConvPoolKernelAttr>(kKernelAttrName))
      return rewriter.notifyMatchFailure(op, "dwc.kernel is #dwc.conv_pool");
    Location loc = op.getLoc();
    Type elem = cast<ShapedType>(op.getInit().getType()).getElementType();
    SmallVector<int64_t> convShape = op.getConvShape();
    // Keep an explicit accumulation type only where the op had one.
    TypeAttr acc = op.getAccAttr();
    if (op.getResult()) {
      Value convInit = tensor::EmptyOp::create(rewriter, loc, convShape, elem);
      auto convType = RankedTensorType::get(convShape, elem);
      auto conv = DepthwiseConv2DOp::create(
          rewriter, loc, convType, op.getInput(), op.getFilter(), op.getBias(),
          /*input_bias=*/Value(), convInit, op.getStridesAttr(),
          op.getDilationsAttr(), op.getPaddingAttr(),
          /*channel_multiplier=*/IntegerAttr(), acc,
          /*activation=*/ActivationAttr(), /*input_activation=*/ActivationAttr());
      auto pool = Pool2DOp::create(
          rewriter, loc, op.getResult().getType(), op.getKindAttr(),
          conv.getResult(), op.getInit(), op.getWindowAttr(),
          op.getPoolStridesAttr(), op.getPoolPaddingAttr(),
          op.getCeilModeAttr(), op.getCountIncludePadAttr(), acc,
          op.getActivationAttr());
      rewriter.replaceOp(op, pool.getResult());
      return success();
    }
    Value convBuf = memref::AllocOp::create(
        rewriter, loc, MemRefType::get(convShape, elem));
    DepthwiseConv2DOp::create(rewriter, loc, Type(), op.getInput(),
                              op.getFilter(), op.getBias(),
                              /*input_bias=*/Value(), convBuf,
                              op.getStridesAttr(), op.getDilationsAttr(),
                              op.getPaddingAttr(),
                              /*channel_multiplier=*/IntegerAttr(), acc,
                              /*activation=*/ActivationAttr(),
                              /*input_activation=*/ActivationAttr());
    Pool2DOp::create(rewriter, loc, Type(), op.getKindAttr(), convBuf,
                     op.getInit(), op.getWindowAttr(), op.getPoolStridesAttr(),
                     op.getPoolPaddingAttr(), op.getCeilModeAttr(),
                     op.getCountIncludePadAttr(), acc, op.getActivationAttr());
    memref::DeallocOp::create(rewriter, loc, convBuf);
    rewriter.eraseOp(op);
    return success();
  }
};

struct DwcDecomposeConvPoolPass
    : dwc::impl::DwcDecomposeConvPoolBase<DwcDecomposeConvPoolPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<SplitConvPool>(&getContext());
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
