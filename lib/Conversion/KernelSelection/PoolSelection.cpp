//===- PoolSelection.cpp - configurations of the pooling kernels ----------===//
//
// Global pooling first (its streaming kernels beat the windowed ones on
// whole-input windows), then the fused convolution + pooling kernel, then
// the windowed forward and backward kernels: strip widths, row tiles and
// the max gradient's argmax strategy (evidence: docs/KernelSelection.md,
// "pooling" and "global average pooling").
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/KernelSelection.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"
#include <numeric>

using namespace mlir;
using namespace mlir::dwc;

namespace {

//===----------------------------------------------------------------------===//
// Global pooling
//===----------------------------------------------------------------------===//

constexpr int64_t kWarp = 32;
constexpr int64_t kGlobalPoolUnroll = 8;

/// Channel tile: the widest power of two <= 32 vectors up to C, narrowed
/// (not below 64 bytes per row) only while the grid has fewer blocks than
/// SMs: wide rows win even with idle lanes.
int64_t globalChannelTile(const GlobalPoolPlan &p, int64_t elemBytes,
                          int64_t smCount) {
  int64_t minCT = std::max<int64_t>(1, 64 / (p.vw * elemBytes));
  int64_t ct = std::min<int64_t>(kWarp, llvm::PowerOf2Ceil(p.CV));
  while (ct / 2 >= minCT &&
         p.N * static_cast<int64_t>(llvm::divideCeil(p.CV, ct)) < smCount)
    ct /= 2;
  return ct;
}

/// The gradient's channel tile: the widest divisor of the vectors up to 32,
/// so that no lane idles (a power-of-two tile over the 18 vectors of 144
/// f16 channels idles 14 of 32 lanes and wrote at 66 % of copy bandwidth),
/// where its rows hold >= 128 bytes and the map fills the rows a whole
/// number of warps needs; else the reduction's tile. 0: none.
int64_t exactGradientTile(const GlobalPoolPlan &p, int64_t elemBytes) {
  int64_t d = std::min<int64_t>(kWarp, p.CV);
  while (p.CV % d != 0)
    --d;
  int64_t rowsPerWarpMultiple = kWarp / std::gcd(d, kWarp);
  if (d * p.vw * elemBytes < 128 || p.P < rowsPerWarpMultiple ||
      llvm::isPowerOf2_64(d))
    return 0;
  return d;
}

/// Rows of a block of CT-vector tiles: about 256 threads (fewer for small
/// maps), a multiple of the rows that make whole warps.
int64_t globalRows(const GlobalPoolPlan &p) {
  int64_t step = kWarp / std::gcd(p.CT, kWarp);
  int64_t want = std::min<int64_t>(256 / p.CT,
                                   int64_t(llvm::bit_floor(uint64_t(p.P))));
  return std::max(step, (want + step / 2) / step * step);
}

/// The tiling of a global pooling kernel; the given fields (0: chosen) are
/// kept. 256 threads (fewer for small maps), doubled up to 1024 while the
/// grid holds less than half of the GPU's threads; the gradient, with no
/// reduction to keep in one block, spreads a grid of fewer blocks than SMs
/// over ~2 blocks per SM per image.
GlobalPoolPlan globalPoolTiling(GlobalPoolPlan p, Type elem, int64_t smCount,
                                int64_t givenCT, int64_t givenThreads,
                                int64_t givenS, bool gradient) {
  int64_t bytes = elem.getIntOrFloatBitWidth() / 8;
  int64_t exact = gradient && !givenCT ? exactGradientTile(p, bytes) : 0;
  p.CT = givenCT ? givenCT
                 : (exact ? exact : globalChannelTile(p, bytes, smCount));
  p.tiles = llvm::divideCeil(p.CV, p.CT);
  int64_t minR = std::max<int64_t>(1, kWarp / p.CT);
  p.R = givenThreads ? std::max(minR, givenThreads / p.CT) : globalRows(p);
  if (gradient && (givenS || p.N * p.tiles < smCount)) {
    int64_t s = givenS ? givenS
                       : llvm::divideCeil(2 * smCount, p.N * p.tiles);
    p.S = std::clamp<int64_t>(s, 1, llvm::divideCeil(p.P, p.R));
  }
  while (!givenThreads && p.blocks() * p.threads() < smCount * 1024 &&
         p.threads() * 2 <= 1024 && p.rowStride() * 2 * 4 <= p.P)
    p.R *= 2;
  return p;
}

Type elemOfOperand0(Operation *op) {
  return cast<ShapedType>(op->getOperand(0).getType()).getElementType();
}

/// #dwc.global_pool for a global average (global_avg_pool, or a pool2d avg
/// over the whole input).
Attribute selectGlobalPool(Operation *op, TargetAttr target, Attribute given,
                           std::string &why) {
  if (!isa<GlobalAvgPoolOp, Pool2DOp>(op)) {
    why = "not a dwc.global_avg_pool or dwc.pool2d";
    return {};
  }
  std::optional<GlobalPoolPlan> shape = globalPoolShapeOf(op, why);
  if (!shape)
    return {};
  auto g = dyn_cast_or_null<GlobalPoolKernelAttr>(given);
  GlobalPoolPlan p = globalPoolTiling(
      *shape, elemOfOperand0(op), target.getSmCount(),
      g ? g.getChannelTile() : 0, g ? g.getThreads() : 0, 0, false);
  auto config = GlobalPoolKernelAttr::get(
      op->getContext(), p.CT, p.threads(),
      g && g.getUnroll() ? g.getUnroll() : kGlobalPoolUnroll);
  why = config.whyNotFor(op);
  return why.empty() ? config : Attribute();
}

/// #dwc.global_pool_backward for the gradient of a global average.
Attribute selectGlobalPoolBackward(Operation *op, TargetAttr target,
                                   Attribute given, std::string &why) {
  if (!isa<Pool2DBackwardOp>(op)) {
    why = "not a dwc.pool2d_backward";
    return {};
  }
  std::optional<GlobalPoolPlan> shape = globalPoolShapeOf(op, why);
  if (!shape)
    return {};
  auto g = dyn_cast_or_null<GlobalPoolBackwardKernelAttr>(given);
  GlobalPoolPlan p = globalPoolTiling(
      *shape, elemOfOperand0(op), target.getSmCount(),
      g ? g.getChannelTile() : 0, g ? g.getThreads() : 0,
      g ? g.getPositionBlocks() : 0, true);
  auto config = GlobalPoolBackwardKernelAttr::get(
      op->getContext(), p.CT, p.threads(),
      g && g.getUnroll() ? g.getUnroll() : kGlobalPoolUnroll,
      g && g.getPositionBlocks() ? g.getPositionBlocks() : p.S);
  why = config.whyNotFor(op);
  return why.empty() ? config : Attribute();
}

//===----------------------------------------------------------------------===//
// Bias gradient
//===----------------------------------------------------------------------===//

/// Threads of a bias-gradient block: 512 (two 256-thread blocks' worth of
/// loads in flight per block), fewer when dY has fewer rows.
constexpr int64_t kBackwardBiasThreads = 512;
/// Rows a thread of the first kernel visits at least.
constexpr int64_t kBackwardBiasMinRowsPerThread = 4;

/// Threads of the sum over `slices` workspace rows of CV f32 vectors: the
/// tile's rows up to 256 threads, no more rows than slices, whole warps.
int64_t totalThreads(int64_t slices, int64_t CV) {
  int64_t CT = std::min<int64_t>(kWarp, llvm::PowerOf2Ceil(CV));
  int64_t rows = std::min<int64_t>(256 / CT,
                                   int64_t(llvm::bit_floor(uint64_t(slices))));
  return std::max<int64_t>(kWarp, CT * rows);
}

/// The largest divisor of `n` in [1, limit].
int64_t largestDivisorUpTo(int64_t n, int64_t limit) {
  for (int64_t d = std::clamp<int64_t>(limit, 1, n); d > 1; --d)
    if (n % d == 0)
      return d;
  return 1;
}

/// #dwc.backward_bias: tiles of all channel vectors up to one warp; about
/// two blocks per SM, as slices that divide the rows (the second kernel,
/// one block per tile, adds 2 x SMs workspace rows); each thread at least
/// kBackwardBiasMinRowsPerThread rows.
Attribute selectBackwardBias(Operation *op, TargetAttr target, Attribute given,
                             std::string &why) {
  std::optional<std::pair<int64_t, int64_t>> shape =
      backwardBiasShapeOf(op, why);
  if (!shape)
    return {};
  auto [rows, C] = *shape;
  Type elem = elemOfOperand0(op);
  auto g = dyn_cast_or_null<BackwardBiasKernelAttr>(given);
  BackwardBiasPlan p = backwardBiasPlan(rows, C, elem, 1, 1, 32, 32);
  int64_t CV = p.slices.CV;
  int64_t CT = g && g.getChannelTile()
                   ? g.getChannelTile()
                   : std::min<int64_t>(kWarp, llvm::PowerOf2Ceil(CV));
  int64_t step = kWarp / std::gcd(CT, kWarp);
  int64_t R = std::min<int64_t>(kBackwardBiasThreads / CT,
                                int64_t(llvm::bit_floor(uint64_t(rows))));
  R = std::max(step, R / step * step);
  int64_t threads = g && g.getThreads() ? g.getThreads() : CT * R;
  R = std::max<int64_t>(1, threads / CT);
  int64_t tiles = llvm::divideCeil(CV, CT);
  int64_t want = std::min<int64_t>(
      llvm::divideCeil(2 * target.getSmCount(), tiles),
      rows / (R * kBackwardBiasMinRowsPerThread));
  int64_t Z = g && g.getSlices() ? g.getSlices()
                                 : largestDivisorUpTo(rows, want);
  auto config = BackwardBiasKernelAttr::get(
      op->getContext(), Z, CT, threads,
      g && g.getUnroll() ? g.getUnroll() : kGlobalPoolUnroll,
      g && g.getTotalThreads() ? g.getTotalThreads()
                               : totalThreads(Z, p.total.CV));
  why = config.whyNotFor(op);
  return why.empty() ? config : Attribute();
}

//===----------------------------------------------------------------------===//
// Windowed pooling
//===----------------------------------------------------------------------===//

/// Row tiles: output rows per thread, and the 32-bit registers the live
/// partial results may take.
constexpr int64_t kRowTile = 8;
constexpr int64_t kTileAccRegs = 48;
/// f32 lanes the fused convolution + pooling kernel may keep live (conv
/// columns + a filter row): wider strips spill.
constexpr int64_t kFusedAccLanes = 96;

/// Outputs per thread along the width of a strip.
int64_t forwardStrip(int64_t ow, int64_t sw) {
  return std::min<int64_t>(ow, sw == 1 ? 8 : 4);
}

/// A row tile of TH output rows x TM outputs along the width, or nullopt
/// for single-row strips. `request`: 0 = 8 rows whenever the windows
/// overlap in height (KH > sh: each input row then serves several output
/// rows), 1 = never, >= 2 = that many rows.
///
/// While input row t is folded in, ceil(KH/sh) rows of TM accumulators are
/// live. TM is the widest of the strip width, 4, 2, 1 keeping
/// ceil(KH/sh) * TM * (vw * bits(accumulator) / 32) within `accRegs` (3x3
/// stride 1: f32 TM = 4, f16/bf16 max 4, f16/bf16 avg with f32 sums 2;
/// ptxas then stays at <= 128 registers, no spills; a budget of 96 gave
/// ~175). TH = min(OH, 8 or the request), halved while the tile's input
/// rows x columns exceed 128 loads.
std::optional<std::pair<int64_t, int64_t>>
rowTile(int64_t request, int64_t accRegs, int64_t OH, int64_t OW, int64_t KH,
        int64_t KW, int64_t sh, int64_t sw, int64_t vw, Type cty) {
  if (request == 1 || KH <= sh)
    return std::nullopt;
  int64_t live = llvm::divideCeil(KH, sh);
  int64_t regs = std::max<int64_t>(1, vw * cty.getIntOrFloatBitWidth() / 32);
  int64_t tm = forwardStrip(OW, sw);
  while (tm > 1 && live * tm * regs > accRegs)
    tm /= 2;
  int64_t th = std::min<int64_t>(OH, request == 0 ? kRowTile : request);
  int64_t cols = (tm - 1) * sw + KW;
  while (th > 2 && ((th - 1) * sh + KH) * cols > kPoolMaxTileLoads)
    th /= 2;
  if (th < 2 || ((th - 1) * sh + KH) * cols > kPoolMaxTileLoads)
    return std::nullopt;
  return std::make_pair(th, tm);
}

/// #dwc.conv_pool: the pooling strip, halved until the live conv columns
/// and filter row fit kFusedAccLanes.
Attribute selectConvPool(Operation *op, TargetAttr, Attribute given,
                         std::string &why) {
  why = convPoolIneligibility(op, 0);
  if (!why.empty())
    return {};
  auto cp = cast<DepthwiseConv2DPool2DOp>(op);
  auto g = dyn_cast_or_null<ConvPoolKernelAttr>(given);
  int64_t tm = g ? g.getColumns() : 0;
  if (!tm) {
    auto out = cast<ShapedType>(cp.getInit().getType());
    int64_t sw = cp.getPoolStrides()[1], KW = cp.getWindow()[1];
    int64_t FW = cast<ShapedType>(cp.getFilter().getType()).getDimSize(1);
    int64_t vw = poolVectorWidth(out.getElementType(), out.getDimSize(3));
    tm = forwardStrip(out.getDimSize(2), sw);
    while (tm > 1 && ((tm - 1) * sw + KW + FW) * vw > kFusedAccLanes)
      tm /= 2;
  }
  auto config = ConvPoolKernelAttr::get(op->getContext(), tm);
  why = config.whyNotFor(op);
  return why.empty() ? config : Attribute();
}

/// #dwc.pool_forward: 128-bit vectors; row tiles where the windows overlap
/// in height (stride-1 averages of 16-bit data, 8 f32 sums per vector: 4
/// rows of one output within 24 registers, whose lower register use keeps
/// more threads resident), single-row strips of 8 (width stride 1) or 4
/// outputs otherwise.
Attribute selectPoolForward(Operation *op, TargetAttr, Attribute given,
                            std::string &why) {
  if (!isa<Pool2DOp>(op)) {
    why = "not a dwc.pool2d";
    return {};
  }
  std::optional<PoolShape> s = poolShapeOf(op, why);
  if (!s)
    return {};
  auto g = dyn_cast_or_null<PoolForwardKernelAttr>(given);
  int64_t bits = g && g.getVectorBits() ? g.getVectorBits() : 128;
  int64_t rows = g ? g.getRows() : 0, columns = g ? g.getColumns() : 0;
  int64_t vw = poolVectorWidth(s->elem, s->C, bits);
  if ((forwardStrip(s->OW, s->sw) - 1) * s->sw + s->KW > kPoolMaxColumns) {
    why = "window too wide for the register strip";
    return {};
  }
  Type acc = cast<Pool2DOp>(op).getAccType();
  int64_t request = rows, regs = kTileAccRegs;
  if (!s->isMax && s->sh == 1 && s->sw == 1 && rows == 0 &&
      vw * acc.getIntOrFloatBitWidth() / 32 == 8) {
    request = 4;
    regs = 24;
  }
  auto tile = rowTile(request, regs, s->OH, s->OW, s->KH, s->KW, s->sh,
                      s->sw, vw, s->isMax ? s->elem : acc);
  auto withTile = PoolForwardKernelAttr::get(
      op->getContext(), bits, rows ? rows : (tile ? tile->first : 1),
      columns ? columns : (tile ? tile->second : forwardStrip(s->OW, s->sw)));
  // A row tile whose grid is too large falls back to strips.
  if (tile && !rows && !withTile.whyNotFor(op).empty())
    withTile = PoolForwardKernelAttr::get(
        op->getContext(), bits, 1,
        columns ? columns : forwardStrip(s->OW, s->sw));
  why = withTile.whyNotFor(op);
  return why.empty() ? withTile : Attribute();
}

/// The argmax strategy of a max gradient (given, or: stored where windows
/// overlap, as every window's argmax would otherwise be recomputed by each
/// dX strip it covers, 3x3 stride 2 ~4.5 times; packed pairs for 16-bit
/// data) and the windows per thread of the stored-argmax kernel (1 for
/// 16-bit data, else the forward strip).
std::pair<StringRef, int64_t> chooseArgmax(const PoolShape &s,
                                           StringRef given,
                                           int64_t givenColumns) {
  if (!s.isMax)
    return {"none", 0};
  bool overlap = s.KH > s.sh || s.KW > s.sw;
  bool narrow = s.elem.getIntOrFloatBitWidth() == 16;
  bool narrowStored = narrow && overlap && given != "recompute";
  int64_t ta = givenColumns ? std::min(givenColumns, s.OW)
               : narrowStored ? 1
                              : forwardStrip(s.OW, s.sw);
  bool fits = s.KH * s.KW <= 127 && (ta - 1) * s.sw + s.KW <= kPoolMaxColumns;
  if (!given.empty())
    return {given, given == "recompute" ? 0 : ta};
  if (!overlap || !fits)
    return {"recompute", 0};
  bool packed = narrow && poolVectorWidth(s.elem, s.C) % 2 == 0;
  return {packed ? "packed" : "stored", ta};
}

/// Rows of a backward tile: stride-1 averages (vectorised) as box-sum row
/// tiles (with their own width), strided gradients as tiles of one stride
/// of rows (avg, max with the stored argmax, and max whose recomputed argmax
/// was asked for with overlapping windows) where they stay within 32
/// windows and 16 positions; 1 (strips)
/// otherwise. Returns (rows, columns).
std::pair<int64_t, int64_t> backwardTile(const PoolShape &s, Type acc,
                                         StringRef argmax, bool argmaxGiven,
                                         int64_t rows, int64_t columns) {
  int64_t vw = poolVectorWidth(s.elem, s.C);
  if (vw == 1 || rows == 1)
    return {1, columns};
  auto tooLarge = [&](int64_t th, int64_t tm) {
    return poolGridTooLarge(s.N * llvm::divideCeil(s.IH, th) *
                            llvm::divideCeil(s.IW, tm) * (s.C / vw));
  };
  if (s.sh == 1 && s.sw == 1) {
    auto tile = s.isMax ? std::nullopt
                        : rowTile(rows, kTileAccRegs, s.IH, s.IW, s.KH, s.KW,
                                  1, 1, vw, acc);
    if (!rows && (!tile || tooLarge(tile->first, tile->second)))
      return {1, columns};
    return {rows ? rows : tile->first, tile ? tile->second : columns};
  }
  // Max gradients recompute the argmax in the tiles only where that was
  // asked for (with overlapping windows).
  bool overlap = s.KH > s.sh || s.KW > s.sw;
  if (s.isMax && argmax == "recompute" && !(overlap && argmaxGiven))
    return {1, columns};
  int64_t th = rows ? rows : s.sh;
  int64_t nr = llvm::divideCeil(th + s.KH - 1, s.sh) + 1;
  int64_t nw = llvm::divideCeil(columns + s.KW - 1, s.sw) + 1;
  if (!rows && (nr * nw > kPoolMaxTileWindows ||
                th * columns > kPoolMaxTilePositions || tooLarge(th, columns)))
    return {1, columns};
  return {th, columns};
}

/// #dwc.pool_backward: gather strips of 4 dX columns (2 for 16-bit max
/// with the stored argmax: fewer live registers, more resident threads),
/// rounded up to a multiple of the width stride, then the tile and argmax
/// rules above.
Attribute selectPoolBackward(Operation *op, TargetAttr, Attribute given,
                             std::string &why) {
  if (!isa<Pool2DBackwardOp>(op)) {
    why = "not a dwc.pool2d_backward";
    return {};
  }
  std::optional<PoolShape> s = poolShapeOf(op, why);
  if (!s)
    return {};
  auto g = dyn_cast_or_null<PoolBackwardKernelAttr>(given);
  StringRef givenArgmax = g ? g.getArgmax() : "";
  auto [argmax, argmaxColumns] =
      chooseArgmax(*s, givenArgmax, g ? g.getArgmaxColumns() : 0);
  bool narrowStored = s->isMax && givenArgmax != "recompute" &&
                      s->elem.getIntOrFloatBitWidth() == 16 &&
                      (s->KH > s->sh || s->KW > s->sw);
  int64_t columns = g ? g.getColumns() : 0;
  if (!columns)
    columns = s->sw * llvm::divideCeil(
                          std::min<int64_t>(narrowStored ? 2 : 4, s->IW),
                          s->sw);
  auto [rows, tileColumns] =
      backwardTile(*s, cast<Pool2DBackwardOp>(op).getAccType(), argmax,
                   givenArgmax == "recompute", g ? g.getRows() : 0, columns);
  if (g && g.getColumns())
    tileColumns = g.getColumns();
  auto config = PoolBackwardKernelAttr::get(op->getContext(), rows,
                                            tileColumns, argmax, argmaxColumns);
  why = config.whyNotFor(op);
  return why.empty() ? config : Attribute();
}
} // namespace

void dwc::appendPoolKernelFamilies(SmallVectorImpl<KernelFamily> &families) {
  families.push_back(
      {GlobalPoolKernelAttr::getMnemonic(), selectGlobalPool});
  families.push_back({GlobalPoolBackwardKernelAttr::getMnemonic(),
                      selectGlobalPoolBackward});
  families.push_back(
      {BackwardBiasKernelAttr::getMnemonic(), selectBackwardBias});
  families.push_back({ConvPoolKernelAttr::getMnemonic(), selectConvPool});
  families.push_back(
      {PoolForwardKernelAttr::getMnemonic(), selectPoolForward});
  families.push_back(
      {PoolBackwardKernelAttr::getMnemonic(), selectPoolBackward});
}
