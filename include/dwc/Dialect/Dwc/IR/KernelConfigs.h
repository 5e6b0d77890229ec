//===- KernelConfigs.h - which ops a kernel family can implement -*- C++ -*-===//
//
// The shape rules of each kernel family, shared by the verifier of its
// configuration attribute, dwc-select-kernels and the pass that emits it, so
// that the three cannot disagree about which ops the family takes.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_DIALECT_DWC_IR_KERNELCONFIGS_H
#define DWC_DIALECT_DWC_IR_KERNELCONFIGS_H

#include "mlir/IR/Operation.h"
#include <string>

namespace mlir {
namespace dwc {

/// The name of the op attribute holding a kernel configuration.
inline constexpr llvm::StringLiteral kKernelAttrName = "dwc.kernel";

/// Most filter taps of the strided kernels (every tap is unrolled and the
/// filter lives in registers).
inline constexpr int64_t kStridedMaxTaps = 49;

/// Why `op` (a depthwise convolution forward or backward-data op, on tensors
/// or buffers) cannot take the strided kernels, or an empty string.
std::string stridedIneligibility(Operation *op);

/// Why `channels` channels per thread do not suit element type `elem` and
/// `C` channels (a power of two of 32 to 128 bits, 16 bits and up for f32,
/// dividing C), or an empty string.
std::string channelsIneligibility(Type elem, int64_t C, int64_t channels);

} // namespace dwc
} // namespace mlir

#endif // DWC_DIALECT_DWC_IR_KERNELCONFIGS_H
