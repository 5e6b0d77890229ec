//===- GemvCommon.h - pieces shared by convert-dwc-to-gpu-gemv's kernels -*- C++ -*-===//
//
// The problem of a GEMV-family op (forward, or backward data on the rotated
// filter) with its configuration, and the f32 channel-vector emitter of the
// GEMV, row-tile and plane kernels.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_LIB_CONVERSION_DWCTOGPUGEMV_GEMVCOMMON_H
#define DWC_LIB_CONVERSION_DWCTOGPUGEMV_GEMVCOMMON_H

#include "dwc/Conversion/DepthwiseProblem.h"
#include "dwc/Conversion/IndexEmitter.h"
#include "dwc/Conversion/KernelPass.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir::dwc::gemv {

/// The stride-1 problem of a GEMV-family op (forward, or backward data on
/// the rotated filter) if it is in memref form and carries a complete
/// configuration of type ConfigAttr.
template <typename ConfigAttr>
FailureOr<std::pair<DepthwiseProblem, ConfigAttr>>
problemOf(Operation *op, PatternRewriter &rewriter) {
  FailureOr<ConfigAttr> config = emittableConfigOf<ConfigAttr>(op, rewriter);
  if (failed(config))
    return failure();
  std::string why;
  FailureOr<DepthwiseProblem> problem = depthwiseProblemOf(op, why);
  if (failed(problem))
    return rewriter.notifyMatchFailure(op, why);
  return std::make_pair(*problem, *config);
}

/// The lowering of the forward and backward-data ops to a GEMV-family
/// kernel: the op's problem and complete ConfigAttr, the KernelT built from
/// them (KernelT(op, problem, config)), refused where the kernel names a
/// reason (refusal()), emitted in place of the op.
template <typename OpTy, typename ConfigAttr, typename KernelT>
struct GemvFamilyLowering : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto problem = problemOf<ConfigAttr>(op, rewriter);
    if (failed(problem))
      return failure();
    KernelT kernel(op, problem->first, problem->second);
    if (std::optional<StringRef> why = kernel.refusal())
      return rewriter.notifyMatchFailure(op, *why);
    rewriter.setInsertionPoint(op);
    kernel.emit(rewriter);
    rewriter.eraseOp(op);
    return success();
  }
};

/// A GEMV-family kernel's patterns for the forward and backward-data ops.
template <typename ConfigAttr, typename KernelT>
void addGemvFamilyPatterns(RewritePatternSet &patterns) {
  patterns.add<
      GemvFamilyLowering<DepthwiseConv2DOp, ConfigAttr, KernelT>,
      GemvFamilyLowering<DepthwiseConv2DBackwardDataOp, ConfigAttr, KernelT>>(
      patterns.getContext());
}

/// What a GEMV-family kernel refuses after its config verified: nothing
/// unless the kernel says otherwise.
struct GemvFamilyKernel {
  std::optional<StringRef> refusal() const { return std::nullopt; }
};

/// Small IR-building helpers for index arithmetic and vectors: memory holds
/// `vw` elements of its element type per thread, arithmetic is f32.
struct Emitter : F32VectorEmitter {
  using F32VectorEmitter::F32VectorEmitter;
};

/// The plane kernel's lowering patterns (PlaneKernel.cpp).
void populatePlanePatterns(RewritePatternSet &patterns);
/// The full-row kernel's lowering patterns (FullRowKernel.cpp).
void populateFullRowPatterns(RewritePatternSet &patterns);

} // namespace mlir::dwc::gemv

#endif // DWC_LIB_CONVERSION_DWCTOGPUGEMV_GEMVCOMMON_H
