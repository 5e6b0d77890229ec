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
