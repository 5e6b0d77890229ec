//===- BackwardFilterPlan.h - work splitting of the backward-filter kernels -*- C++ -*-===//
//
// How the streaming and split-z backward-filter kernels split a problem over
// the grid, from its shape, the kernel configuration's fields and the
// target: shared by dwc-select-kernels (which picks the fields from the
// plans) and convert-dwc-to-gpu-backward-filter (which emits them). The
// rules are documented in include/dwc/Conversion/Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_CONVERSION_BACKWARDFILTERPLAN_H
#define DWC_CONVERSION_BACKWARDFILTERPLAN_H

#include "dwc/Dialect/Dwc/IR/DwcDialect.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "dwc/Dialect/Dwc/IR/Configs/BackwardFilter.h"
#include "mlir/IR/BuiltinTypes.h"
#include <algorithm>

namespace mlir {
namespace dwc {
namespace bwd_filter {

/// Threads along the channels: 8 x 128 bits = one 128-byte transaction.
inline constexpr int64_t kLanes = 8;
/// Work-unit slots per block (each slot is kLanes threads): 256 threads.
inline constexpr int64_t kSlots = 32;
inline constexpr int64_t kThreads = kLanes * kSlots;
/// Waves of fully resident threads the slice count aims at: more, shorter
/// slices balance the SMs better than the extra atomics cost
/// (docs/KernelSelection.md, "backward filter").
inline constexpr int64_t kTargetWaves = 4;
/// Most slices of a 16-bit split-z problem on strided dY.
inline constexpr int64_t kStridedMaxSlices = 256;
/// Streaming kernel: channel vectors per block at most (64 x 128 bits = 1
/// KiB of a position, f32) and the registers the estimate adds for
/// addresses and loop state.
inline constexpr int64_t kStreamLanes = 64;
inline constexpr int64_t kStreamRegisterOverhead = 48;

inline int64_t channelsPerThread(Type elem) {
  return 128 / elem.getIntOrFloatBitWidth();
}

/// The shapes of a backward-filter problem.
struct Dims {
  int64_t N, IH, IW, C, FH, FW, OH, OW, pt, pl, sh, sw;
  Type elem;
};

inline Dims dimsOf(DepthwiseConv2DBackwardFilterOp op) {
  auto in = cast<ShapedType>(op.getInput().getType()).getShape();
  auto og = cast<ShapedType>(op.getOutputGrad().getType()).getShape();
  auto f = cast<ShapedType>(op.getInit().getType()).getShape();
  return Dims{in[0], in[1], in[2], in[3], f[0], f[1], og[1], og[2],
              op.getPadding()[0], op.getPadding()[2], op.getStrides()[0],
              op.getStrides()[1],
              cast<ShapedType>(op.getInput().getType()).getElementType()};
}

/// How the split-z kernel splits the work.
struct SplitZPlan {
  int64_t V;        // channels per thread (128 bits)
  int64_t groups;   // channel groups of kLanes * V channels
  int64_t TW;       // filter taps per thread (one filter row)
  int64_t tilesW;   // tap tiles per filter row
  int64_t tiles;    // FH * tilesW
  int64_t rows;     // N * OH accumulation rows
  int64_t rowsPerZ; // rows per slice
  int64_t Z;        // slices
  int64_t units;    // work units incl. the padding of the last slice group
  int64_t slotBlocks;
  int64_t blocks;
};

/// The slices that give kTargetWaves waves of resident threads at full
/// occupancy (16-bit strided dY: at most kStridedMaxSlices, 64 atomic adds
/// per dW element after the warp reduction; one row per slice made the
/// atomics the bottleneck), clamped to [1, N * OH].
inline int64_t defaultSlices(const Dims &d, int64_t threadsPerSlice,
                             TargetAttr target) {
  int64_t resident =
      kTargetWaves * target.getSmCount() * target.getThreadsPerSm();
  int64_t z = (resident + threadsPerSlice - 1) / threadsPerSlice;
  if (d.sh * d.sw > 1 && !d.elem.isF32())
    z = std::min(z, kStridedMaxSlices);
  return std::clamp<int64_t>(z, 1, d.N * d.OH);
}

/// The split-z plan for `z` slices (0: defaultSlices) of filter rows cut
/// into tiles of at most `maxTW` taps, `slicesPerWarp` slices of a tile
/// per warp.
inline SplitZPlan splitZPlan(const Dims &d, int64_t z, int64_t maxTW,
                             int64_t slicesPerWarp, TargetAttr target) {
  SplitZPlan p;
  p.V = channelsPerThread(d.elem);
  p.groups = (d.C + kLanes * p.V - 1) / (kLanes * p.V);
  p.tilesW = (d.FW + maxTW - 1) / maxTW;
  p.TW = (d.FW + p.tilesW - 1) / p.tilesW;
  p.tiles = d.FH * p.tilesW;
  p.rows = d.N * d.OH;
  if (z <= 0)
    z = defaultSlices(d, p.groups * kLanes * p.tiles, target);
  z = std::clamp<int64_t>(z, 1, p.rows);
  p.rowsPerZ = (p.rows + z - 1) / z;
  p.Z = (p.rows + p.rowsPerZ - 1) / p.rowsPerZ;
  // Work units: groups of `slicesPerWarp` consecutive slices of one tap
  // tile (adjacent slots of a warp), tiles fastest.
  int64_t zGroups = (p.Z + slicesPerWarp - 1) / slicesPerWarp;
  p.units = p.tiles * zGroups * slicesPerWarp;
  p.slotBlocks = (p.units + kSlots - 1) / kSlots;
  p.blocks = p.groups * p.slotBlocks;
  return p;
}

/// How the streaming kernel splits the work.
struct StreamPlan {
  int64_t V;            // channels per thread (128 bits)
  int64_t vectors;      // C / V channel vectors
  int64_t lanes;        // channel vectors per block
  int64_t groups;       // channel groups (blocks along the channels)
  int64_t workersPerBlock;
  int64_t threads;      // lanes * workersPerBlock
  int64_t R;            // output rows per step
  int64_t rowBlocksPerImage;
  int64_t rowBlocks;    // N * ceil(OH / R)
  int64_t regs;         // estimated registers per thread
  int64_t blocksPerSM;  // resident blocks per SM at that estimate
  int64_t maxWorkers;   // the grid stride before rounding (configuration)
  int64_t workers;      // row-block workers per channel group (grid stride)
  int64_t blocksPerGroup;
  int64_t blocks;
};

/// The streaming plan for R = `rows` rows per step and `blockThreads`
/// threads per block; `maxWorkers` workers per channel group at most (0:
/// one wave of resident blocks at the estimated registers per thread).
inline StreamPlan streamPlan(const Dims &d, int64_t rows, int64_t blockThreads,
                             int64_t maxWorkers, TargetAttr target) {
  StreamPlan s;
  s.V = channelsPerThread(d.elem);
  s.vectors = d.C / s.V;
  s.lanes = std::min({s.vectors, kStreamLanes, blockThreads});
  s.groups = (s.vectors + s.lanes - 1) / s.lanes;
  s.workersPerBlock = blockThreads / s.lanes;
  s.threads = s.lanes * s.workersPerBlock;
  s.R = std::clamp<int64_t>(rows, 1, d.OH);
  s.rowBlocksPerImage = (d.OH + s.R - 1) / s.R;
  s.rowBlocks = d.N * s.rowBlocksPerImage;
  // Registers: FH*FW accumulators, the FW-column window of (R-1)*sh+FH
  // input vectors, R dY vectors (all f32), plus addresses and loop state.
  s.regs = (d.FH * d.FW + d.FW * ((s.R - 1) * d.sh + d.FH) + s.R) * s.V +
           kStreamRegisterOverhead;
  int64_t perBlock = (s.regs + 7) / 8 * 8 * s.threads;
  s.blocksPerSM =
      std::clamp<int64_t>(target.getRegistersPerSm() / perBlock, 1,
                          target.getThreadsPerSm() / s.threads);
  // One wave of resident blocks (every worker streams at the same time),
  // then as many workers as keep the row blocks per worker equal.
  s.maxWorkers =
      maxWorkers > 0 ? maxWorkers
                     : std::max<int64_t>(1, target.getSmCount() *
                                                s.blocksPerSM / s.groups) *
                           s.workersPerBlock;
  int64_t W0 = std::clamp<int64_t>(s.maxWorkers, 1, s.rowBlocks);
  int64_t iters = (s.rowBlocks + W0 - 1) / W0;
  s.workers = (s.rowBlocks + iters - 1) / iters;
  s.blocksPerGroup = (s.workers + s.workersPerBlock - 1) / s.workersPerBlock;
  s.blocks = s.groups * s.blocksPerGroup;
  return s;
}


/// How the small-map (image) kernel splits the work: blocks of `Cb`
/// channels x a run of `perBlock` strips of R output rows (all strips of
/// all images, strips fastest), S * FH * Cb / 2 threads (thread t: column
/// segment t / (FH * pairs), filter row (t / pairs) % FH, channel pair t %
/// pairs).
struct ImagePlan {
  int64_t Cb;       // channels per block
  int64_t pairs;    // Cb / 2 channel pairs (one per thread and filter row)
  int64_t S;        // column segments
  int64_t segW;     // output columns per segment: ceil(OW / S)
  int64_t segThreads; // FH * pairs: the threads of one segment
  int64_t threads;  // S * segThreads
  int64_t groups;   // channel groups: ceil(C / Cb)
  int64_t R;        // output rows per strip
  int64_t strips;   // strips per image: ceil(OH / R)
  int64_t units;    // N * strips
  int64_t perBlock; // strips per block
  int64_t chunks;   // blocks along the batch
  int64_t blocks;   // groups * chunks
  int64_t slices;   // workspace slices: chunks * S
  int64_t inRows;   // shared input rows: min((R - 1) * sh + FH, IH)
  int64_t xPitch;   // elements per shared input row (padded)
  int64_t dyPitch;  // elements per shared dY row
  int64_t smemElems;
};

inline ImagePlan imagePlan(const Dims &d, int64_t channels, int64_t rows,
                           int64_t perBlock, int64_t segments = 1) {
  ImagePlan p;
  int64_t esize = d.elem.getIntOrFloatBitWidth() / 8;
  p.Cb = channels;
  p.pairs = channels / 2;
  p.S = std::clamp<int64_t>(segments, 1, d.OW);
  p.segW = (d.OW + p.S - 1) / p.S;
  p.S = (d.OW + p.segW - 1) / p.segW;
  p.segThreads = d.FH * p.pairs;
  p.threads = p.S * p.segThreads;
  p.groups = (d.C + p.Cb - 1) / p.Cb;
  p.R = std::clamp<int64_t>(rows, 1, d.OH);
  p.strips = (d.OH + p.R - 1) / p.R;
  p.units = d.N * p.strips;
  p.perBlock = std::clamp<int64_t>(perBlock, 1, p.units);
  p.chunks = (p.units + p.perBlock - 1) / p.perBlock;
  p.perBlock = (p.units + p.chunks - 1) / p.chunks;
  p.blocks = p.groups * p.chunks;
  p.slices = p.chunks * p.S;
  p.inRows = std::min((p.R - 1) * d.sh + d.FH, d.IH);
  int64_t xRow = d.IW * p.Cb * esize;
  p.xPitch = (xRow + bwdFilterImageRowPadBytes(xRow)) / esize;
  p.dyPitch = d.OW * p.Cb;
  p.smemElems = p.inRows * p.xPitch + p.R * p.dyPitch;
  return p;
}

/// How the register (taps) kernel splits the work: a thread owns channel
/// vector `lane` of its block's channel group and one band of `R` output
/// rows x `cols` output columns; a block holds `lanes` x `bands` threads
/// (lanes fastest) of one row band of one image and `bands` consecutive
/// column bands (a width chunk). Blocks: groups x (N * rowBands *
/// widthChunks), channel groups fastest; workspace slices: one per block
/// of a group (reduce = "block") or per band.
struct TapsPlan {
  int64_t V;          // channels per thread
  int64_t vectors;    // C / V
  int64_t lanes;      // channel vectors per block
  int64_t groups;     // ceil(vectors / lanes)
  int64_t cols;       // output columns per band
  int64_t colBands;   // ceil(OW / cols)
  int64_t bands;      // column bands per block
  int64_t widthChunks; // ceil(colBands / bands)
  int64_t threads;    // lanes * bands
  int64_t R;          // output rows per band
  int64_t rowBands;   // ceil(OH / R)
  int64_t chunks;     // N * rowBands * widthChunks: blocks per group
  int64_t blocks;     // groups * chunks
  int64_t slices;     // chunks (block reduction) or chunks * bands
};

/// Most channel vectors per block of the taps kernel (a warp spans at
/// least one pixel of up to 32 vectors).
inline constexpr int64_t kTapsMaxLanes = 32;

/// Channel vectors per block: the largest divisor of `vectors` up to
/// kTapsMaxLanes when it is at least a quarter of that (no masked channel
/// group), else min(vectors, kTapsMaxLanes).
inline int64_t tapsLanes(int64_t vectors) {
  int64_t cap = std::min(vectors, kTapsMaxLanes);
  for (int64_t l = cap; l >= kTapsMaxLanes / 4; --l)
    if (vectors % l == 0)
      return l;
  return cap;
}

inline TapsPlan tapsPlan(const Dims &d, int64_t vector, int64_t columns,
                         int64_t rows, int64_t maxThreads, bool perBand) {
  TapsPlan p;
  p.V = std::max<int64_t>(vector, 1);
  p.vectors = d.C / p.V;
  p.lanes = tapsLanes(p.vectors);
  p.groups = (p.vectors + p.lanes - 1) / p.lanes;
  p.cols = std::clamp<int64_t>(columns, 1, d.OW);
  p.colBands = (d.OW + p.cols - 1) / p.cols;
  int64_t most = std::max<int64_t>(1, maxThreads / p.lanes);
  p.widthChunks = (p.colBands + most - 1) / most;
  p.bands = (p.colBands + p.widthChunks - 1) / p.widthChunks;
  p.threads = p.lanes * p.bands;
  p.R = std::clamp<int64_t>(rows, 1, d.OH);
  p.rowBands = (d.OH + p.R - 1) / p.R;
  p.chunks = d.N * p.rowBands * p.widthChunks;
  p.blocks = p.groups * p.chunks;
  p.slices = perBand ? p.chunks * p.bands : p.chunks;
  return p;
}

} // namespace bwd_filter
} // namespace dwc
} // namespace mlir

#endif // DWC_CONVERSION_BACKWARDFILTERPLAN_H
