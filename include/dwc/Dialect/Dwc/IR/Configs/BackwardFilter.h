//===- BackwardFilter.h - rules of the depthwise backward-filter kernels -*- C++ -*-===//
//
// Which ops the depthwise backward-filter kernel configurations take: shared by their
// verifiers, dwc-select-kernels and the pass that emits them.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_DIALECT_DWC_IR_CONFIGS_BACKWARDFILTER_H
#define DWC_DIALECT_DWC_IR_CONFIGS_BACKWARDFILTER_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace mlir {
namespace dwc {

/// Most filter taps of the streaming backward-filter kernel (its taps are
/// unrolled into registers).
inline constexpr int64_t kBwdFilterStreamMaxTaps = 49;
/// Most filter taps per thread of the split-z kernel along a row.
inline constexpr int64_t kBwdFilterMaxTileWidth = 17;
/// Most taps along a filter row of the small-map (image) kernel (a thread
/// owns the row's taps x 2 channels and a window of as many inputs).
inline constexpr int64_t kBwdFilterImageMaxRowTaps = 17;
/// Static shared memory of one block (bytes) up to which the image kernel
/// takes workgroup attributions; larger strips take dynamic shared memory.
inline constexpr int64_t kBwdFilterImageStaticSmem = 48 * 1024;
/// Most column segments of the image kernel (each is unrolled once).
inline constexpr int64_t kBwdFilterImageMaxSegments = 64;

/// Most output columns per band of the register (taps) kernel (its
/// column loop is unrolled).
inline constexpr int64_t kBwdFilterTapsMaxColumns = 8;
/// Most f32 values the taps kernel's thread holds (sums, dY segments, one
/// input segment): more would spill.
inline constexpr int64_t kBwdFilterTapsMaxValues = 192;
/// Most steps per iteration of the taps kernel's row loop (unrolled).
inline constexpr int64_t kBwdFilterTapsMaxUnroll = 4;

/// Why `op` (a dwc.depthwise_conv2d_backward_filter, on tensors or buffers)
/// cannot take the backward-filter kernels, whatever their configuration:
/// f32/f16/bf16 inputs, dW f32 or the inputs' type, positive strides,
/// dilation 1, C a multiple of 128 bits, identity layouts, static
/// non-empty shapes. Empty if it can.
std::string backwardFilterIneligibility(Operation *op);

/// Bytes of padding after a shared input row of the image kernel of
/// `rowBytes` bytes (a multiple of 16): consecutive rows start 64 bytes
/// apart modulo 128, so the two filter rows of a warp (fewer than 32 channel
/// pairs per filter row) read opposite halves of the banks.
inline int64_t bwdFilterImageRowPadBytes(int64_t rowBytes) {
  return ((64 - rowBytes % 128) + 128) % 128;
}

/// Shared memory (bytes) of the image kernel's block: the strip's input rows
/// ((`rows` - 1) * stride + FH, at most IH; padded rows) and its `rows` dY
/// rows, `channels` channels of the inputs' type.
int64_t bwdFilterImageSharedBytes(Operation *op, int64_t channels,
                                  int64_t rows);

/// Shared memory (bytes) of the image kernel's block with copy mode `copy`:
/// one strip, or two for "async" (the next strip lands while the block
/// reads the current one).
int64_t bwdFilterImageBlockSharedBytes(Operation *op, int64_t channels,
                                       int64_t rows, llvm::StringRef copy);

} // namespace dwc
} // namespace mlir

#endif // DWC_DIALECT_DWC_IR_CONFIGS_BACKWARDFILTER_H
