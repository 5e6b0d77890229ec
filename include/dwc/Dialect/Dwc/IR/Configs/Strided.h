//===- Strided.h - rules of the strided forward and backward-data kernels -*- C++ -*-===//
//
// Which ops the strided forward and backward-data kernel configurations take: shared by their
// verifiers, dwc-select-kernels and the pass that emits them.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_DIALECT_DWC_IR_CONFIGS_STRIDED_H
#define DWC_DIALECT_DWC_IR_CONFIGS_STRIDED_H

#include "mlir/IR/Operation.h"
#include <string>

namespace mlir {
namespace dwc {

/// Most filter taps of the strided kernels (every tap is unrolled and the
/// filter lives in registers).
inline constexpr int64_t kStridedMaxTaps = 49;

/// Threads per block of the strided kernels: the default (a configuration's
/// `block_threads` = 0) and the most a configuration may ask for.
inline constexpr int64_t kStridedBlockThreads = 256;
inline constexpr int64_t kStridedMaxBlockThreads = 1024;

/// Why `op` (a depthwise convolution forward or backward-data op, on tensors
/// or buffers) cannot take the strided kernels, or an empty string.
std::string stridedIneligibility(Operation *op);

} // namespace dwc
} // namespace mlir

#endif // DWC_DIALECT_DWC_IR_CONFIGS_STRIDED_H
