//===- GemvSelection.cpp - configurations of the GEMV and row-tile kernels ---===//
//
// Plane, row tile or GEMV kernel, channel vectors, tile sizes and filter staging of
// the stride-1 depthwise forward and backward-data ops (evidence:
// docs/KernelSelection.md, "plane", "row tile" and "GEMV").
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/KernelSelection.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "llvm/Support/MathExtras.h"
#include <limits>

using namespace mlir;
using namespace mlir::dwc;

namespace {
/// The problem's sizes (strides: the plane kernel's strided forward ops;
/// 1 x 1 for the others).
struct Sizes {
  int64_t N, C, FH, FW, OH, OW;
  Type elem;
  int64_t sh = 1, sw = 1;
  bool strided() const { return sh != 1 || sw != 1; }
  int64_t bits() const { return elem.getIntOrFloatBitWidth(); }
};
Sizes sizesOf(Operation *op) {
  // The output (dX for backward data) is the last operand (a bias comes
  // before it).
  auto out = cast<ShapedType>(op->getOperands().back().getType());
  auto f = cast<ShapedType>(op->getOperand(1).getType()).getShape();
  auto [sh, sw] = planeStrides(op);
  return Sizes{out.getDimSize(0), out.getDimSize(3), f[0],
               f[1],              out.getDimSize(1), out.getDimSize(2),
               out.getElementType(), sh, sw};
}

/// The tensor-core families (mma_stream, mma_band / mma_ring), ahead of this
/// one in dwc-select-kernels' priority order, take the f16/bf16 ops of
/// filters at least 9 taps wide with C % 8 == 0: this family leaves them
/// those unless its configuration is requested (a partial #dwc.gemv<> or
/// #dwc.row_tile<> sends one here) or the op is fused (the tensor-core
/// kernels emit no prologue or epilogue).
constexpr int64_t kTensorCoreMinFilterWidth = 9;
bool tensorCoresTake(Operation *op, const Sizes &s) {
  auto conv = dyn_cast<DepthwiseConv2DOp>(op);
  return !s.elem.isF32() && s.FW >= kTensorCoreMinFilterWidth &&
         s.C % 8 == 0 && !(conv && conv.isFused());
}

/// Why the family leaves `op` to an earlier one or to the direct kernel
/// (`plane`: the plane kernel's rules, which take strided forward ops; the
/// tensor-core kernels take no strided op).
std::string familyIneligibility(Operation *op, Attribute given,
                                bool plane = false) {
  std::string why = plane ? planeIneligibility(op) : gemvIneligibility(op);
  if (why.empty() && !given && !sizesOf(op).strided() &&
      tensorCoresTake(op, sizesOf(op)))
    why = "f16/bf16 filter of 9+ taps wide (the tensor-core kernels take it)";
  return why;
}

//===----------------------------------------------------------------------===//
// Row tiles
//===----------------------------------------------------------------------===//

/// Default tiles (vector bits x rows x columns; the measurements behind each
/// are in docs/KernelSelection.md, "row tile"): the kernel is issue-bound,
/// so taller and wider tiles widen each loaded word for more FMAs until the
/// filter and the window no longer fit in registers. 16-bit data: up to 9
/// taps 4 x 4 x 64 bits; from 10 taps 8 rows x 32 bits (half the filter
/// registers), 8 outputs from 26 taps. f32: 4 x 8 x 64 bits for up to 9 and
/// from 26 taps, else 8 x 8 x 32.
constexpr int64_t kShortRows = 4, kShortColumns = 4, kShortBits = 64;
constexpr int64_t kShortFilterMaxTaps = 9, kWideStripMinTaps = 26;
struct Tile {
  int64_t bits, rows, columns;
};
Tile defaultTile(bool narrow, int64_t taps) {
  if (narrow && taps <= kShortFilterMaxTaps)
    return {kShortBits, kShortRows, kShortColumns};
  if (narrow)
    return {32, 8, taps >= kWideStripMinTaps ? 8 : 4};
  if (taps <= kShortFilterMaxTaps || taps >= kWideStripMinTaps)
    return {64, 4, 8};
  return {32, 8, 8};
}
/// Threads per block of the row-tile kernel's 1-D launch.
constexpr int64_t kRowTileBlock = 256;
/// The long-filter and f32 tiles hold 2-4x the work of a short tile per
/// thread, which leaves SMs idle on small grids: below 4 waves of the
/// target's SMs, 16-bit data takes the short-filter tile and f32 the GEMV
/// kernel.
constexpr int64_t kMinTileWaves = 4;
/// f32 registers the filter may take (FH x FW x channels); above, filter
/// vectors are loaded at each use.
constexpr int64_t kFilterRegisters = 200;
/// 16-bit filters of more than 25 taps on small grids (the ConvNeXt 28 x 28
/// to 7 x 7 maps at batch 64) take 32-bit vectors and tiles that divide the
/// map into the fewest strips of at most 8 (7 x 7 there): the 4 x 4 x
/// 64-bit short tile spills (ptxas: 255 registers) and wastes tile rows;
/// 1.2-1.9x faster (docs/KernelSelection.md, "row tile").
constexpr int64_t kFittedMinTaps = 26, kFittedMaxExtent = 8, kFittedBits = 32;
/// 16-bit grids of fewer blocks than a quarter of the SMs (batch 1) take
/// 2 x 2 tiles of 32-bit vectors: 4-8x the threads (the 3x3 to 7x7 batch-1
/// layers of the real networks: 1.2-3x faster); filters of at most 25 taps
/// one output per thread (1 x 1: every load of a thread independent,
/// 1.0-1.2x the 2 x 2 tile), f32 filters of at most 9 taps 1 x 2 (1.1-1.3x).
/// Since tiles load their inputs first (loads_first), 16-bit filters of
/// at most 25 taps take 2 x 1 on maps of 14+ rows (the second output row
/// reuses FH - 1 of its input rows: 5x5 1.1-1.36x, 3x3 1.08-1.18x the 1 x 1
/// tile; 5x5 on 7 x 7 maps 0.95-1.0x, kept 1 x 1; docs/KernelSelection.md,
/// "row tile").
constexpr int64_t kTinyRows = 2, kTinyColumns = 2, kTinyBits = 32;
constexpr int64_t kTinyGridFraction = 4;
constexpr int64_t kOneColumnMaxTaps16 = 25, kTwoRowMinRows16 = 14;
/// The tile extent that cuts `extent` outputs into the fewest strips of at
/// most kFittedMaxExtent (14 -> 7, 28 -> 7, 7 -> 7).
int64_t fittedExtent(int64_t extent) {
  return llvm::divideCeil(extent, llvm::divideCeil(extent, kFittedMaxExtent));
}

/// Blocks of the row-tile grid (saturating: INT64_MAX if it overflows).
uint64_t rowTileBlocks(const Sizes &s, int64_t V, int64_t TH, int64_t TM) {
  uint64_t tiles = llvm::SaturatingMultiply<uint64_t>(
      llvm::SaturatingMultiply<uint64_t>(
          s.N, llvm::divideCeil(s.OH, std::min(TH, s.OH))),
      llvm::SaturatingMultiply<uint64_t>(
          llvm::divideCeil(s.OW, std::min(TM, s.OW)), s.C / V));
  return llvm::divideCeil(tiles, kRowTileBlock);
}

/// 16-bit data on a grid of fewer than kMinTileWaves waves: fitted 32-bit
/// tiles for filters of 26+ taps, else the short-filter tile.
void smallGridTile(const Sizes &s, int64_t &V, int64_t &TH, int64_t &TM) {
  if (s.FH * s.FW >= kFittedMinTaps && s.C % (kFittedBits / s.bits()) == 0) {
    V = kFittedBits / s.bits();
    TH = fittedExtent(s.OH);
    TM = fittedExtent(s.OW);
    return;
  }
  TH = kShortRows;
  TM = kShortColumns;
  if (s.C % (kShortBits / s.bits()) == 0)
    V = kShortBits / s.bits();
}

/// On a grid of fewer blocks than a quarter of the SMs: 2 x 2 tiles of
/// 32-bit vectors (false: the grid is not that small, nothing changed).
bool tinyGridTile(const Sizes &s, TargetAttr target, int64_t &V, int64_t &TH,
                  int64_t &TM) {
  if (s.C % (kTinyBits / s.bits()) != 0 ||
      rowTileBlocks(s, V, TH, TM) >=
          uint64_t(target.getSmCount() / kTinyGridFraction))
    return false;
  V = kTinyBits / s.bits();
  int64_t taps = s.FH * s.FW;
  if (s.elem.isF32()) {
    TH = taps <= kShortFilterMaxTaps ? 1 : kTinyRows;
    TM = kTinyColumns;
  } else if (taps <= kOneColumnMaxTaps16 && s.OH < kTwoRowMinRows16) {
    TH = TM = 1;
  } else {
    TH = kTinyRows;
    TM = taps <= kOneColumnMaxTaps16 ? 1 : kTinyColumns;
  }
  return true;
}
/// f32 takes the tiny-grid tile (one channel) with filters of at most 25
/// taps on maps of at least 14 rows (batch-1 3x3 / 5x5 layers 1.2-1.9x the
/// GEMV kernel), and, since the tile loads its inputs first (loads_first),
/// on smaller maps with many channels (7 x 7 x 768-1152: 1.3-1.6x); with
/// 7 x 7 filters the GEMV / full-row kernels (docs/KernelSelection.md, "row
/// tile"). Small maps of few channels were not measured.
constexpr int64_t kTinyF32MinRows = 14, kTinyF32MaxTaps = 25;
constexpr int64_t kTinyF32SmallMapMinChannels = 512;
bool f32TinyGridTile(const Sizes &s, TargetAttr target, int64_t &V,
                     int64_t &TH, int64_t &TM) {
  return (s.OH >= kTinyF32MinRows || s.C >= kTinyF32SmallMapMinChannels) &&
         s.FH * s.FW <= kTinyF32MaxTaps && tinyGridTile(s, target, V, TH, TM);
}

/// 16-bit filters of 10-25 taps on maps of 15-56 output rows: the 8 x 4 (28
/// rows and fewer: 4 x 4) tile of 32-bit vectors with two 256-thread blocks
/// per SM (ptxas: 148 -> 128 registers, no spills; 8 -> 16 warps per SM);
/// also on small grids (the short tile spills there). 1.1-1.5x the 8 x 4 /
/// 4 x 4 x 64-bit tiles at 56 x 56 and 28 x 28 (docs/KernelSelection.md).
constexpr int64_t kBoundedMinRows = 15, kBoundedMaxRows = 56;
constexpr int64_t kBoundedShortRows = 28, kBoundedBlocksPerSm = 2;
/// On the maps of up to 28 rows that 7-row strips divide (21, 28), 7 rows
/// where that grid still has kTallStripMinWaves waves of 2 blocks per SM:
/// each input row feeds 7 output rows instead of 4, and the many waves hide
/// the tail (64 x 28 x 28 x 240: 1.05-1.07x; the batch-32 28 x 28 grids of
/// 1.3-1.7 waves were 0.98-1.0x, docs/KernelSelection.md, "row tile").
constexpr int64_t kTallStripRows = 7, kTallStripMinWaves = 3;
bool boundedMidTile(const Sizes &s, TargetAttr target, int64_t &V,
                    int64_t &TH, int64_t &TM, int64_t &minBlocks) {
  int64_t taps = s.FH * s.FW;
  if (s.elem.isF32() || taps <= kShortFilterMaxTaps ||
      taps >= kWideStripMinTaps || s.OH < kBoundedMinRows ||
      s.OH > kBoundedMaxRows || s.C % (32 / s.bits()) != 0)
    return false;
  V = 32 / s.bits();
  TH = s.OH <= kBoundedShortRows ? 4 : 8;
  TM = 4;
  minBlocks = kBoundedBlocksPerSm;
  if (s.OH <= kBoundedShortRows && s.OH % kTallStripRows == 0 &&
      rowTileBlocks(s, V, kTallStripRows, TM) >=
          uint64_t(kTallStripMinWaves * kBoundedBlocksPerSm *
                   target.getSmCount()))
    TH = kTallStripRows;
  return true;
}

/// 16-bit filters of at most 9 taps on maps of at most 14 x 14 outputs
/// (the 14 x 14 and 7 x 7 layers of MobileNetV2 / EfficientNet-B0): 2 rows
/// x the fewest strips of at most 8 columns (14 -> 7, 7 -> 7) of 32-bit
/// vectors. The 4 x 4 x 64-bit short tile overlaps its neighbours by 2 rows
/// and columns on 14-wide maps, and its 126 registers (2 blocks per SM)
/// leave 1.45 waves at 64 x 14 x 14 x 384; this tile takes 64 registers (4
/// blocks) and twice the threads: 1.12-1.27x (docs/KernelSelection.md,
/// "row tile").
constexpr int64_t kSmallMapMaxExtent = 14, kSmallMapRows = 2;
constexpr int64_t kSmallMapBits = 32;
bool smallMapTile(const Sizes &s, int64_t &V, int64_t &TH, int64_t &TM) {
  if (s.elem.isF32() || s.FH * s.FW > kShortFilterMaxTaps ||
      s.OH > kSmallMapMaxExtent || s.OW > kSmallMapMaxExtent ||
      s.C % (kSmallMapBits / s.bits()) != 0)
    return false;
  V = kSmallMapBits / s.bits();
  TH = kSmallMapRows;
  TM = fittedExtent(s.OW);
  return true;
}
/// Tiny grids (batch 1) load the whole tile before the first FMA: with a
/// block or two per SM nothing hides a memory latency per input row, and a
/// row-by-row tile waits TH + FH - 1 times (ptxas does not hoist the later
/// rows' loads above the earlier rows' FMAs). Where the tile's inputs,
/// filter and accumulators fit this many f32 registers.
constexpr int64_t kLoadsFirstMaxValues = 128;
bool loadsFirstFits(const Sizes &s, int64_t V, int64_t TH, int64_t TM) {
  int64_t th = std::min(TH, s.OH), tm = std::min(TM, s.OW);
  int64_t inputs = (th + s.FH - 1) * (tm + s.FW - 1) * V;
  return inputs + s.FH * s.FW * V + th * tm * V <= kLoadsFirstMaxValues;
}

/// f32 filters of 26+ taps take strips fitted to the output width (the
/// fewest of at most 8 columns: 28 -> 7, 56 -> 8): a width that is not a
/// multiple of the strip leaves a last strip partly idle, and its second
/// copy of the column loop pushed the 4 x 8 x 64-bit tile over 255
/// registers on 28-wide maps (ptxas sm_90: 68-80 bytes spilled, the only
/// f32 spills of the real networks' layer set, dwcbench ptxas-audit); 4 x 7
/// takes 179 registers and no spill, the same threads and at most the work.
bool fittedF32Strips(const Sizes &s, int64_t &TM) {
  if (!s.elem.isF32() || s.FH * s.FW < kWideStripMinTaps)
    return false;
  TM = fittedExtent(s.OW);
  return true;
}

/// f32 filters of at most 9 taps keep the default 4 x 8 x 64-bit tile on
/// grids of 1-4 waves (14 x 14 / 7 x 7 maps at batch 64: 1.16-1.35x the
/// GEMV kernel); below one wave the tiny-grid tile or GEMV.
constexpr int64_t kShortF32MinWaves = 1;

/// #dwc.row_tile: filters of at most 49 taps, the default tile of the
/// filter size (small grids: see kMinTileWaves) or the given fields.
Attribute selectRowTile(Operation *op, TargetAttr target, Attribute given,
                        std::string &why) {
  auto g = dyn_cast_or_null<RowTileKernelAttr>(given);
  why = familyIneligibility(op, given);
  if (!why.empty())
    return {};
  Sizes s = sizesOf(op);
  bool narrow = !s.elem.isF32();
  // (Each extent bounded first: the product cannot overflow.)
  if (s.FH > kRowTileMaxTaps || s.FW > kRowTileMaxTaps ||
      s.FH * s.FW > kRowTileMaxTaps) {
    why = "filter of more than 49 taps";
    return {};
  }
  Tile tile = defaultTile(narrow, s.FH * s.FW);
  int64_t V = g && g.getChannels() ? g.getChannels() : tile.bits / s.bits();
  int64_t TH = g && g.getRows() ? g.getRows() : tile.rows;
  int64_t TM = g && g.getColumns() ? g.getColumns() : tile.columns;
  if (!g)
    fittedF32Strips(s, TM);
  if (s.C % V != 0) {
    why = "channel count is not a multiple of " +
          std::to_string(V * s.bits()) + " bits";
    return {};
  }
  int64_t minBlocks = g ? g.getMinBlocksPerSm() : 0;
  bool shortTile = narrow && s.FH * s.FW <= kShortFilterMaxTaps;
  bool bounded = !g && boundedMidTile(s, target, V, TH, TM, minBlocks);
  int64_t minWaves = !narrow && s.FH * s.FW <= kShortFilterMaxTaps
                         ? kShortF32MinWaves
                         : kMinTileWaves;
  bool tiny = false;
  if (!g && !shortTile && !bounded &&
      rowTileBlocks(s, V, TH, TM) <
          uint64_t(minWaves * target.getSmCount())) {
    tiny = !narrow && f32TinyGridTile(s, target, V, TH, TM);
    if (!narrow && !tiny) {
      why = "f32 on a small grid (the GEMV kernel is faster)";
      return {};
    }
    if (narrow)
      smallGridTile(s, V, TH, TM);
  }
  // (The tiny-grid test counts the blocks of the default tile.)
  if (!g && narrow && tinyGridTile(s, target, V, TH, TM)) {
    minBlocks = 0;
    tiny = true;
  } else if (!g && smallMapTile(s, V, TH, TM)) {
    minBlocks = 0;
  }
  if (rowTileBlocks(s, V, TH, TM) > std::numeric_limits<int32_t>::max()) {
    why = "grid too large";
    return {};
  }
  StringRef filter = g && !g.getFilter().empty() ? g.getFilter()
                     : s.FH * s.FW * V <= kFilterRegisters ? "registers"
                                                           : "global";
  int64_t loadsFirst = g ? g.getLoadsFirst()
                         : tiny && loadsFirstFits(s, V, TH, TM);
  int64_t blockThreads = g ? g.getBlockThreads() : 0;
  // (prefetch_rows: on request; the bounded tiles ran 1.03-1.11x faster
  // with 2 but ptxas parks 8-24 bytes of them in local memory,
  // docs/KernelSelection.md, "row tile".)
  int64_t prefetchRows = g ? g.getPrefetchRows() : 0;
  auto config =
      RowTileKernelAttr::get(op->getContext(), V, TH, TM, filter, minBlocks,
                             loadsFirst, blockThreads, prefetchRows);
  why = config.whyNotFor(op);
  return why.empty() ? config : Attribute();
}

//===----------------------------------------------------------------------===//
// Planes
//===----------------------------------------------------------------------===//

/// Outputs per thread along the width: the fewest strips of at most 8.
constexpr int64_t kPlaneMaxColumns = 8;
/// Output rows per thread (each staged row read feeds 2 output rows).
constexpr int64_t kPlaneRows = 2;
/// Filters of 10-25 taps (5 x 5): 16-bit data on maps of at least 8
/// output rows 4 rows per thread (each staged row read feeds 4 output
/// rows; 14 x 14 maps 1.02-1.04x, 7 x 7 maps 0.86-0.95x,
/// docs/KernelSelection.md, "plane"), f32 data 2 channels per thread
/// (0.97-1.21x the speed of one channel there, 1.06x in geomean).
constexpr int64_t kPlaneMidMinTaps = 10, kPlaneMidMaxTaps = 25;
constexpr int64_t kPlaneTallRows = 4, kPlaneTallMinRows = 8;
/// Threads per block the channel split aims at, and the waves of the
/// target's SMs the grid should fill (narrower channel groups, then row
/// bands, below that).
constexpr int64_t kPlaneThreads = 256;
constexpr int64_t kPlaneMinWaves = 2;

/// The largest power of two dividing `c`, at most `cap`.
int64_t powerOfTwoDividing(int64_t c, int64_t cap) {
  int64_t p = 1;
  while (p * 2 <= cap && c % (p * 2) == 0)
    p *= 2;
  return p;
}

/// Strided planes: channel groups of kPlaneStridedGroupBytes of input per
/// staged position where C allows (whole 32-byte sectors per position; the
/// stride-1 rule's narrow groups fetch a sector for 4 bytes), bands of
/// fewer rows rather than narrower groups for the staged bytes, the
/// threads and the waves.
constexpr int64_t kPlaneStridedGroupBytes = 64;
int64_t stridedBlockChannels(const Sizes &s, int64_t V) {
  int64_t perGroup = kPlaneStridedGroupBytes / (s.bits() / 8);
  return std::max(V, powerOfTwoDividing(s.C, perGroup));
}

bool fusedPlaneByDefault(Operation *op);
bool planeByDefault(const Sizes &s);

/// Block channels and band of a fused forward's plane on any map: at least
/// a 32-byte sector of channels per staged position where C allows, then
/// the band (the taller, the less halo re-staged) and the sector waste
/// traded against each other (staged rows per output row x sectors per
/// useful byte), within the staged bytes and threads. 0 when nothing fits.
std::pair<int64_t, int64_t>
fusedPlaneShape(const Sizes &s, int64_t V,
                function_ref<PlaneLayout(int64_t, int64_t)> layout) {
  int64_t sector = std::max<int64_t>(V, 256 / s.bits());
  int64_t best = 0, bestBand = 0;
  double bestCost = 0;
  for (int64_t cb = powerOfTwoDividing(s.C, sector); cb >= V; cb /= 2) {
    for (int64_t band = s.OH;; band = llvm::divideCeil(band, 2)) {
      PlaneLayout l = layout(cb, band);
      if (l.sharedBytes() <= kPlaneMaxSharedBytes && l.threads <= 1024) {
        // Staged input rows per output row x sectors fetched per useful one.
        double cost = double(l.stagedRows) / double(std::min(band, s.OH)) *
                      double(sector) / double(cb);
        if (!best || cost < bestCost)
          best = cb, bestBand = band, bestCost = cost;
        break; // the tallest band that fits this width
      }
      if (band == 1)
        break;
    }
    if (cb == V)
      break;
  }
  return {best, bestBand};
}

/// The default #dwc.plane fields for `s`, honouring the given ones.
SmallVector<int64_t, 5> planeFields(Operation *op, const Sizes &s,
                                    TargetAttr target, PlaneKernelAttr g) {
  auto pick = [&](int64_t given, int64_t dflt) { return given ? given : dflt; };
  // 16-bit data: 2 channels (one 32-bit word) per thread where C allows;
  // f32 filters of 10-25 taps too (kPlaneMidMinTaps).
  int64_t taps = s.FH * s.FW;
  bool midTaps = taps >= kPlaneMidMinTaps && taps <= kPlaneMidMaxTaps;
  int64_t V = pick(g ? g.getChannels() : 0,
                   (!s.elem.isF32() || midTaps) && s.C % 2 == 0 ? 2 : 1);
  int64_t TM = pick(g ? g.getColumns() : 0,
                    llvm::divideCeil(s.OW, llvm::divideCeil(s.OW, kPlaneMaxColumns)));
  int64_t TH = pick(g ? g.getRows() : 0,
                    !s.elem.isF32() && midTaps && s.OH >= kPlaneTallMinRows
                        ? kPlaneTallRows
                        : kPlaneRows);
  int64_t band = pick(g ? g.getBand() : 0, s.OH);
  auto layout = [&](int64_t CB, int64_t B) {
    return planeLayoutOf(op, V, CB, TH, TM, B);
  };
  int64_t CB = g && g.getBlockChannels() ? g.getBlockChannels() : 0;
  if (CB)
    return {V, CB, TH, TM, band};
  bool bandGiven = g && g.getBand();
  if (!bandGiven && !planeByDefault(s) && fusedPlaneByDefault(op)) {
    auto [cb, b] = fusedPlaneShape(s, V, layout);
    if (cb)
      return {V, cb, TH, TM, b};
  }
  if (s.strided()) {
    CB = stridedBlockChannels(s, V);
  } else {
    CB = powerOfTwoDividing(s.C, 1024);
    while (CB > V && (layout(CB, band).threads > kPlaneThreads ||
                      layout(CB, band).sharedBytes() > kPlaneMaxSharedBytes))
      CB /= 2;
  }
  // Bands of fewer rows where the plane does not fit the staged bytes (or,
  // strided, the block's threads).
  auto tooLarge = [&](int64_t b) {
    PlaneLayout l = layout(CB, b);
    return l.sharedBytes() > kPlaneMaxSharedBytes ||
           (s.strided() && l.threads > kPlaneThreads);
  };
  while (!bandGiven && band > TH && tooLarge(band))
    band = llvm::divideCeil(band, 2);
  while (CB > V && tooLarge(band))
    CB /= 2;
  uint64_t want = kPlaneMinWaves * target.getSmCount();
  auto blocks = [&](int64_t cb, int64_t b) {
    return uint64_t(s.N) * layout(cb, b).bands * uint64_t(s.C / cb);
  };
  while (!s.strided() && CB > V && blocks(CB, band) < want)
    CB /= 2;
  while (!bandGiven && band > TH && blocks(CB, band) < want)
    band = llvm::divideCeil(band, 2);
  return {V, CB, TH, TM, band};
}

/// #dwc.plane, on request only (a partial #dwc.plane<> is completed): its
/// GPU timing against the row tiles on the small maps is still to be
/// measured (docs/KernelSelection.md, "plane").
/// Where the plane kernel is chosen without a request (measured:
/// docs/KernelSelection.md, "plane"): f32 7x7 filters on maps of at most 14
/// output rows with at least 2^20 outputs (ConvNeXt batch 64: 1.1-1.6x the
/// GEMV kernel; at batch 1 it is slower).
constexpr int64_t kPlaneF32MaxRows = 14, kPlaneF32Taps = 49;
constexpr int64_t kPlaneF32MinOutputs = int64_t(1) << 20;
/// Also filters of 10-25 taps (5 x 5) on such maps: 16-bit 1.2-1.85x the
/// row tiles; f32 (2 channels per thread) 1.1-1.7x the GEMV kernel and the
/// 8 x 8 row tile, with C a multiple of kPlaneF32MidChannelQuantum (the
/// measured layers; blocks of at least 32 channels) (docs/KernelSelection.md,
/// "plane").
constexpr int64_t kPlaneF32MidChannelQuantum = 32;
bool planeByDefault(const Sizes &s) {
  using llvm::SaturatingMultiply;
  uint64_t outputs = SaturatingMultiply<uint64_t>(
      SaturatingMultiply<uint64_t>(s.N, s.OH),
      SaturatingMultiply<uint64_t>(s.OW, s.C));
  int64_t taps = s.FH * s.FW;
  bool mid = taps >= kPlaneMidMinTaps && taps <= kPlaneMidMaxTaps;
  bool filter = s.elem.isF32()
                    ? taps == kPlaneF32Taps ||
                          (mid && s.C % kPlaneF32MidChannelQuantum == 0)
                    : mid;
  return filter && s.OH <= kPlaneF32MaxRows &&
         outputs >= uint64_t(kPlaneF32MinOutputs);
}

/// Fused forwards whose prologue is transcendental (sigmoid, SiLU, GELU):
/// the row tiles and strided tiles compute it once per tile that reads an
/// input element (2-6x for 3x3 and 5x5 tiles), and it bounds them
/// (EfficientNet-B0's SiLU layers at 4-21 % of their byte floor); the
/// plane stages each element once.
bool fusedPlaneByDefault(Operation *op) {
  auto conv = dyn_cast<DepthwiseConv2DOp>(op);
  if (!conv || !conv.getInputActivation())
    return false;
  return !isClampActivation(*conv.getInputActivation()) &&
         *conv.getInputActivation() != Activation::Hardswish &&
         *conv.getInputActivation() != Activation::Hardsigmoid;
}

Attribute selectPlane(Operation *op, TargetAttr target, Attribute given,
                      std::string &why) {
  auto g = dyn_cast_or_null<PlaneKernelAttr>(given);
  why = familyIneligibility(op, given, /*plane=*/true);
  if (!why.empty())
    return {};
  Sizes s = sizesOf(op);
  if (s.FH > kRowTileMaxTaps || s.FW > kRowTileMaxTaps ||
      s.FH * s.FW > kRowTileMaxTaps) {
    why = "filter of more than 49 taps";
    return {};
  }
  bool fused = fusedPlaneByDefault(op);
  if (!g && s.strided() && !fused) {
    why = "strided: on request only, or with a transcendental fused prologue "
          "(the strided forward kernel is chosen)";
    return {};
  }
  if (!g && !planeByDefault(s) && !fused) {
    why = "by default only f32 7x7 and 10-25-tap filters (f32: C a multiple "
          "of 32) on maps of at most 14 rows with 2^20+ outputs, and fused "
          "forwards with a transcendental prologue (the row tiles or the GEMV "
          "kernel are faster)";
    return {};
  }
  // The given fields first (the completion divides by them).
  why = g ? g.whyNotFor(op) : std::string();
  if (!why.empty())
    return {};
  SmallVector<int64_t, 5> f = planeFields(op, s, target, g);
  auto config =
      PlaneKernelAttr::get(op->getContext(), f[0], f[1], f[2], f[3], f[4]);
  why = config.whyNotFor(op);
  return why.empty() ? config : Attribute();
}

//===----------------------------------------------------------------------===//
// Full rows
//===----------------------------------------------------------------------===//

/// Threads per block the full-row grid starts from, halved (down to
/// kFullRowMinThreads) while it has fewer blocks than kFullRowMinWaves
/// waves of the target's SMs: batch-1 grids spread over every SM.
constexpr int64_t kFullRowThreads = 256, kFullRowMinThreads = 64;
constexpr int64_t kFullRowMinWaves = 2;
/// Input rows per loop step (two rows' loads in flight together).
constexpr int64_t kFullRowUnroll = 2;
/// Small grids give ptxas a register budget (all a thread may have): without
/// one ptxas 13 interleaves a step's loads with the previous FMAs to save
/// registers (7x7 f32 on 14 x 14: 8 loads in flight, 32 registers; with it
/// 16, 55 registers), and a block or two per SM hides no latency.
constexpr int64_t kFullRowSmallGridRegisters = 255;

/// Rows of the full-row grid of the narrowest channel vector (f32 1, 16-bit
/// 2) below kFullRowMinWaves waves of kFullRowMinThreads-thread blocks: a
/// grid that leaves SMs idle or nearly so (batch 1).
bool smallFullRowGrid(const Sizes &s, TargetAttr target) {
  uint64_t rows = uint64_t(s.N) * uint64_t(s.OH) *
                  uint64_t(s.C / std::max<int64_t>(1, 32 / s.bits()));
  return rows < uint64_t(kFullRowMinWaves * target.getSmCount() *
                         kFullRowMinThreads);
}

/// Where the full-row kernel is chosen without a request (measured:
/// docs/KernelSelection.md, "full row"): a filter larger than the map in a
/// direction (most of the other kernels' taps read padding there: 1.2-3x
/// faster); 16-bit data only on maps of at most 14 input and output columns
/// (on 28 x 28 the tensor-core kernels are faster), and there also a filter that
/// covers the whole map on a small grid (7 x 7 on 7 x 7 at batch 1: 1.5-2x
/// the row tiles). On small grids, in column parts: f32 7 x 7 filters, and
/// 16-bit filters taller than the map and at most 7 wide on maps of up to
/// 28 columns (49 x 5 on 28 x 28: 12.3 against 29.0 us).
constexpr int64_t kFullRow16MaxColumns = 14;
constexpr int64_t kFullRowSplitMaxColumns = 28, kFullRowSplitMaxWidth = 7;
bool fullRowByDefault(Operation *op, const Sizes &s, TargetAttr target) {
  auto in = cast<ShapedType>(op->getOperand(0).getType());
  int64_t IH = in.getDimSize(1), IW = in.getDimSize(2);
  bool larger = s.FH > IH || s.FW > IW;
  bool small = smallFullRowGrid(s, target);
  if (s.elem.isF32())
    return larger || (small && s.FH == 7 && s.FW == 7);
  if (s.OW > kFullRow16MaxColumns || IW > kFullRow16MaxColumns)
    return small && s.FH > IH && s.FW <= kFullRowSplitMaxWidth &&
           s.OW <= kFullRowSplitMaxColumns && IW <= kFullRowSplitMaxColumns;
  return larger || (small && s.FH >= IH && s.FW >= IW);
}

/// Column parts of a default full row (0: one part): on small grids about
/// two output columns per part for f32 (up to 8 parts; filters wider than
/// the map only on short rows, below); for 16-bit data 8
/// parts of a filter taller than the map on 14+ columns, else 2 of one
/// taller or wider than the map. Measured at batch 1
/// (docs/KernelSelection.md, "full row": column parts); unmeasured
/// classes keep one part.
constexpr int64_t kFullRowMaxParts = 8;
int64_t fullRowColumnsByDefault(Operation *op, const Sizes &s,
                                TargetAttr target) {
  auto in = cast<ShapedType>(op->getOperand(0).getType());
  int64_t IH = in.getDimSize(1), IW = in.getDimSize(2);
  if (!smallFullRowGrid(s, target))
    return 0;
  int64_t parts = 1;
  // f32 filters wider than the map load the whole input row in every
  // part: split only rows of at most 14 outputs (filters also taller than
  // the map) or 7 (wider only); 29 x 29 on 28 x 28 and 5 x 47 on 14 x 14
  // were 1.8x / 1.2x slower in 8 parts.
  bool wide = s.FW > IW;
  int64_t wideMaxColumns = s.FH > IH ? kFullRow16MaxColumns : 7;
  if (s.elem.isF32()) {
    if (!wide || s.OW <= wideMaxColumns)
      parts = std::min<int64_t>(kFullRowMaxParts,
                                llvm::PowerOf2Ceil(llvm::divideCeil(s.OW, 2)));
  } else if (s.FH > IH)
    parts = s.OW >= kFullRow16MaxColumns ? kFullRowMaxParts : 2;
  else if (s.FW > IW && s.OW >= kFullRow16MaxColumns)
    parts = 2;
  return parts > 1 && parts <= s.OW ? parts : 0;
}

/// #dwc.full_row: the narrowest channel vector (the most threads), blocks
/// of up to 256 threads, two rows per step; the given fields kept.
Attribute selectFullRow(Operation *op, TargetAttr target, Attribute given,
                        std::string &why) {
  auto g = dyn_cast_or_null<FullRowKernelAttr>(given);
  why = gemvIneligibility(op);
  if (!why.empty())
    return {};
  Sizes s = sizesOf(op);
  if (!g && !fullRowByDefault(op, s, target)) {
    why = "by default only filters larger than the map (16-bit: on maps of "
          "at most 14 columns, or covering the map on a small grid) and, on "
          "small grids, f32 7x7 and 16-bit tall filters on up to 28 columns";
    return {};
  }
  // The given fields first (the completion divides by them).
  why = g ? g.whyNotFor(op) : std::string();
  if (!why.empty())
    return {};
  int64_t V = g && g.getChannels() ? g.getChannels()
                                   : std::max<int64_t>(1, 32 / s.bits());
  int64_t unroll = g && g.getUnroll() ? g.getUnroll() : kFullRowUnroll;
  int64_t columns = g ? g.getColumns() : fullRowColumnsByDefault(op, s, target);
  int64_t threads = g && g.getThreads() ? g.getThreads() : 0;
  if (!threads && s.C % V == 0) {
    threads = kFullRowThreads;
    uint64_t rows = uint64_t(s.N) * uint64_t(s.OH) * uint64_t(s.C / V) *
                    uint64_t(std::max<int64_t>(1, columns));
    while (threads > kFullRowMinThreads &&
           llvm::divideCeil(rows, threads) <
               uint64_t(kFullRowMinWaves * target.getSmCount()))
      threads /= 2;
  }
  int64_t maxRegisters = g                              ? g.getMaxRegisters()
                         : smallFullRowGrid(s, target) ? kFullRowSmallGridRegisters
                                                       : 0;
  auto config =
      FullRowKernelAttr::get(op->getContext(), V, std::max<int64_t>(threads, 32),
                             unroll, columns, maxRegisters);
  why = config.whyNotFor(op);
  return why.empty() ? config : Attribute();
}

//===----------------------------------------------------------------------===//
// GEMV
//===----------------------------------------------------------------------===//

/// f16/bf16: 64-bit vectors (4 channels) for filters of at most 9 taps
/// (memory-bound: twice the threads, half the registers), 128-bit ones
/// above (fewer instructions per FMA); f32 always 128 bits. See
/// docs/KernelSelection.md, "GEMV".
constexpr int64_t kSmallFilterTaps = 9;
/// Outputs per thread along the width (8 amortise each filter vector over
/// 8 FMAs while keeping 2 x 8 vectors of registers).
constexpr int64_t kOutputs = 8;
/// f16/bf16 filters read from global memory of at most this many rows
/// unroll the row loop (all rows' loads in flight together).
constexpr int64_t kUnrollMaxRows = 5;

/// #dwc.gemv: the stride-1 ops the row tiles leave.
Attribute selectGemv(Operation *op, TargetAttr, Attribute given,
                     std::string &why) {
  auto g = dyn_cast_or_null<GemvKernelAttr>(given);
  why = familyIneligibility(op, given);
  if (!why.empty())
    return {};
  Sizes s = sizesOf(op);
  int64_t V = g && g.getChannels()                ? g.getChannels()
              : s.elem.isF32()                    ? 4
              : s.FH * s.FW <= kSmallFilterTaps ? 4
                                                  : 8;
  if (s.C % V != 0) {
    why = "channel count is not a multiple of " +
          std::to_string(V * s.bits()) + " bits";
    return {};
  }
  int64_t outputs =
      g && g.getOutputs() ? g.getOutputs() : std::min(kOutputs, s.OW);
  StringRef filter = g && !g.getFilter().empty() ? g.getFilter()
                     : V * s.bits() == 128       ? "smem"
                                                 : "global";
  StringRef rows = g && !g.getRows().empty() ? g.getRows()
                   : !s.elem.isF32() && filter == "global" &&
                           s.FH <= kUnrollMaxRows
                       ? "unrolled"
                       : "loop";
  auto config =
      GemvKernelAttr::get(op->getContext(), V, outputs, filter, rows);
  why = config.whyNotFor(op);
  return why.empty() ? config : Attribute();
}
} // namespace

void dwc::appendFullRowKernelFamilies(
    SmallVectorImpl<KernelFamily> &families) {
  families.push_back({FullRowKernelAttr::getMnemonic(), selectFullRow});
}

void dwc::appendGemvKernelFamilies(SmallVectorImpl<KernelFamily> &families) {
  // Planes first (small maps), then row tiles: they take the short filters
  // they fit.
  families.push_back({PlaneKernelAttr::getMnemonic(), selectPlane});
  families.push_back({RowTileKernelAttr::getMnemonic(), selectRowTile});
  families.push_back({GemvKernelAttr::getMnemonic(), selectGemv});
}
