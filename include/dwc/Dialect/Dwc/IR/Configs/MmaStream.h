//===- MmaStream.h - rules of the streaming wide-filter tensor-core kernels -*- C++ -*-===//
//
// Which ops the streaming wide-filter tensor-core kernel configuration
// (#dwc.mma_stream) takes and the tile geometry and shared memory that
// decide it: shared by its verifier, dwc-select-kernels and the pass that
// emits it (convert-dwc-to-gpu-mma-stream).
//
//===----------------------------------------------------------------------===//

#ifndef DWC_DIALECT_DWC_IR_CONFIGS_MMASTREAM_H
#define DWC_DIALECT_DWC_IR_CONFIGS_MMASTREAM_H

#include "mlir/IR/Operation.h"
#include <string>

namespace mlir {
namespace dwc {

/// Channels of a streaming block (one warp each) and its threads.
inline constexpr int64_t kStreamWarps = 8;
inline constexpr int64_t kStreamThreads = 32 * kStreamWarps;
/// Outputs of a warp's tile along the width: 16 mma M groups x 8 (input
/// A) or 8 N groups x 16 (input B).
inline constexpr int64_t kStreamTileOutputs = 128;

/// A stride-1 depthwise op as the streaming kernels see it: y = x (*) w
/// with top/left padding pt/pl; x is N x IH x IW x C, w FH x FW x C, y
/// N x OH x OW x C (backward data: x = dY, y = dX, the transposed padding).
struct StreamShape {
  int64_t N, IH, IW, C, FH, FW, OH, OW, pt, pl;
};

/// The tile of one warp: groups of `groupWidth` outputs, `slices` K = 16
/// slices of a filter row's band, `words` 32-bit input words per lane and
/// row, `span` groups of one image, `images` images per tile, `colTiles`
/// tiles along the width.
struct StreamTile {
  bool inputB;
  int64_t groupWidth, slices, words, span, images, colTiles;
  /// Halves per band entry (4 for input A, 8 for input B) and entries per
  /// filter row and channel.
  int64_t entryHalves() const { return inputB ? 8 : 4; }
  int64_t bandEntries() const { return 16 * slices; }
  /// The last group a lane starts at (input A: lanes own groups 2g, 2g + 1).
  int64_t lastGroup() const { return inputB ? span - 1 : span - 2; }
  /// Halves of one image's part of an input row a warp reads.
  int64_t segmentLength() const { return groupWidth * lastGroup() + 8 * words; }
};

/// Why `op` cannot take the streaming kernels whatever the configuration
/// (op kind, ranks, f16/bf16 with f32 accumulation, unit strides and
/// dilations, C % 8 == 0, static identity-layout operands, a non-empty
/// output, a non-negative (transposed) padding), or "" with `shape` set.
std::string streamIneligibility(Operation *op, StreamShape &shape);

/// `s` with the height and width swapped (stream_columns: the kernel's
/// rows are the operands' columns).
StreamShape swapStreamAxes(const StreamShape &s);

/// The tile of `s` with the input as the B (else A) operand.
StreamTile streamTile(const StreamShape &s, bool inputB);

/// Shared memory of the filter band, the output stage of `rows` rows and
/// the two input buffers of smem-input / nhwc-input, in bytes.
int64_t streamBandBytes(const StreamShape &s, const StreamTile &t);
int64_t streamStageBytes(int64_t rows);
int64_t streamInputBytes(const StreamShape &s, const StreamTile &t,
                         int64_t rows);

/// The channel-major workspace's column of input column 0 and its row
/// pitch (a multiple of 8).
int64_t streamWorkspaceLead(const StreamShape &s, bool compact,
                            bool smemInput);
int64_t streamWorkspacePitch(const StreamShape &s, bool compact,
                             bool smemInput);

/// Producer blocks of one image set with overlap-workspace.
int64_t streamProducersPerSet(const StreamShape &s, const StreamTile &t,
                              int64_t pitch);

} // namespace dwc
} // namespace mlir

#endif // DWC_DIALECT_DWC_IR_CONFIGS_MMASTREAM_H
