//===- Gemv.h - rules of the GEMV-family kernels -*- C++ -*-===//
//
// Which ops the GEMV, row-tile, plane and full-row depthwise kernel configurations take: shared by their
// verifiers, dwc-select-kernels and the pass that emits them.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_DIALECT_DWC_IR_CONFIGS_GEMV_H
#define DWC_DIALECT_DWC_IR_CONFIGS_GEMV_H

#include "mlir/IR/Operation.h"
#include <algorithm>
#include <array>
#include <string>
#include <utility>

namespace mlir {
namespace dwc {

/// Most filter taps of the row-tile kernel (every tap is unrolled).
inline constexpr int64_t kRowTileMaxTaps = 49;
/// Most blocks per SM a row-tile launch bound may ask for (256-thread
/// blocks; no chip holds more than 2048 resident threads per SM).
inline constexpr int64_t kRowTileMaxBlocksPerSm = 8;
/// Threads per block of the row tiles: the default (`block_threads` = 0)
/// and the most a configuration may ask for.
inline constexpr int64_t kRowTileBlockThreads = 256;
inline constexpr int64_t kRowTileMaxBlockThreads = 1024;
/// Most input rows a row tile may load ahead of the row it feeds.
inline constexpr int64_t kRowTileMaxPrefetchRows = 4;

/// Why `op` (a depthwise convolution forward or backward-data op, on tensors
/// or buffers) cannot take the GEMV and row-tile kernels, whatever their
/// configuration: stride and dilation 1, f32/f16/bf16 with f32
/// accumulation, identity layouts, static non-empty shapes, and for
/// backward data a transposed padding that is not negative. Empty if it
/// can.
std::string gemvIneligibility(Operation *op);

/// The plane kernel's rules: gemvIneligibility's, with any positive stride
/// on the forward op (its staged rows are the strided windows' input rows).
std::string planeIneligibility(Operation *op);

/// The plane kernel's strides of `op` (height, width): the forward op's,
/// 1 x 1 for backward data.
std::array<int64_t, 2> planeStrides(Operation *op);

/// The padding the stride-1 forward kernels apply to `op`'s input (top,
/// left): the op's own, or for backward data the transposed padding
/// (FH - 1 - top, FW - 1 - left). Only for ops gemvIneligibility accepts.
std::pair<int64_t, int64_t> gemvPadding(Operation *op);

/// Most threads per block and staged bytes of the plane kernel (static
/// shared memory).
inline constexpr int64_t kPlaneMaxThreads = 1024;
inline constexpr int64_t kPlaneMaxSharedBytes = 48 * 1024;

/// How the plane kernel lays out one op under a complete #dwc.plane whose
/// fields are in range (shared by its rules, the selector and the
/// emitter): a block of `threads` = (CB / V) channel lanes x rowTiles x
/// colTiles strips owns CB channels of `band` output rows of one image and
/// stages `stagedRows` x `pitch` positions x CB channels of f32 (the band's
/// input rows with their halo: (band - 1) x sh + FH rows of (OW - 1) x sw +
/// FW positions under strides sh x sw; `stagedCols` of the `pitch`
/// positions are used, the rest pads the rows against shared-memory bank
/// conflicts).
struct PlaneLayout {
  int64_t V, CB, TH, TM, band, bands, rowTiles, colTiles, threads, sh, sw;
  int64_t stagedRows, stagedCols, pitch, stageVector;
  int64_t sharedBytes() const { return stagedRows * pitch * CB * 4; }
};
PlaneLayout planeLayoutOf(Operation *op, int64_t channels,
                          int64_t blockChannels, int64_t rows,
                          int64_t columns, int64_t band);

/// The full-row kernel's register budget: a thread's accumulators and
/// input vectors (of its part of the row), in f32 registers.
inline constexpr int64_t kFullRowMaxRegisters = 128;

/// Output columns [first, second) of part `part` of a full row of OW
/// outputs split into `parts` (#dwc.full_row's `columns`; 0 is 1 part):
/// balanced, sizes differ by at most one, none empty while parts <= OW.
inline std::pair<int64_t, int64_t> fullRowPart(int64_t OW, int64_t parts,
                                               int64_t part) {
  parts = std::max<int64_t>(1, parts);
  return {part * OW / parts, (part + 1) * OW / parts};
}
/// Most rows per loop step of the full-row kernel.
inline constexpr int64_t kFullRowMaxUnroll = 4;

} // namespace dwc
} // namespace mlir

#endif // DWC_DIALECT_DWC_IR_CONFIGS_GEMV_H
