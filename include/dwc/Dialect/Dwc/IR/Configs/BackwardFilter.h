//===- BackwardFilter.h - rules of the depthwise backward-filter kernels -*- C++ -*-===//
//
// Which ops the depthwise backward-filter kernel configurations take: shared by their
// verifiers, dwc-select-kernels and the pass that emits them.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_DIALECT_DWC_IR_CONFIGS_BACKWARDFILTER_H
#define DWC_DIALECT_DWC_IR_CONFIGS_BACKWARDFILTER_H

#include "mlir/IR/Operation.h"
#include <string>

namespace mlir {
namespace dwc {

/// Most filter taps of the streaming backward-filter kernel (its taps are
/// unrolled into registers).
inline constexpr int64_t kBwdFilterStreamMaxTaps = 49;
/// Most filter taps per thread of the split-z kernel along a row.
inline constexpr int64_t kBwdFilterMaxTileWidth = 17;

/// Why `op` (a dwc.depthwise_conv2d_backward_filter, on tensors or buffers)
/// cannot take the backward-filter kernels, whatever their configuration:
/// f32/f16/bf16 inputs, dW f32 or the inputs' type, positive strides,
/// dilation 1, C a multiple of 128 bits, identity layouts, static
/// non-empty shapes. Empty if it can.
std::string backwardFilterIneligibility(Operation *op);

} // namespace dwc
} // namespace mlir

#endif // DWC_DIALECT_DWC_IR_CONFIGS_BACKWARDFILTER_H
