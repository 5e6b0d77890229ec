//===- Gemv.h - rules of the GEMV and row-tile depthwise kernels -*- C++ -*-===//
//
// Which ops the GEMV and row-tile depthwise kernel configurations take: shared by their
// verifiers, dwc-select-kernels and the pass that emits them.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_DIALECT_DWC_IR_CONFIGS_GEMV_H
#define DWC_DIALECT_DWC_IR_CONFIGS_GEMV_H

#include "mlir/IR/Operation.h"
#include <string>

namespace mlir {
namespace dwc {

/// Most filter taps of the row-tile kernel (every tap is unrolled).
inline constexpr int64_t kRowTileMaxTaps = 49;

/// Why `op` (a depthwise convolution forward or backward-data op, on tensors
/// or buffers) cannot take the GEMV and row-tile kernels, whatever their
/// configuration: stride and dilation 1, f32/f16/bf16 with f32
/// accumulation, identity layouts, static non-empty shapes, and for
/// backward data a transposed padding that is not negative. Empty if it
/// can.
std::string gemvIneligibility(Operation *op);

/// The padding the stride-1 forward kernels apply to `op`'s input (top,
/// left): the op's own, or for backward data the transposed padding
/// (FH - 1 - top, FW - 1 - left). Only for ops gemvIneligibility accepts.
std::pair<int64_t, int64_t> gemvPadding(Operation *op);

} // namespace dwc
} // namespace mlir

#endif // DWC_DIALECT_DWC_IR_CONFIGS_GEMV_H
