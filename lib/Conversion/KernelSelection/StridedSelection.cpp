//===- StridedSelection.cpp - configurations of the strided kernels -------===//
//
// Channels per thread and tile sizes of the strided forward and
// backward-data kernels (evidence: docs/KernelSelection.md, "strided").
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/KernelSelection.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::dwc;

namespace {
/// f32 registers the filter vectors may take when the channel count is
/// chosen (FH x FW x channels).
constexpr int64_t kFilterRegisters = 64;
/// Backward data: super columns per thread.
constexpr int64_t kGatherColumns = 4;

/// The widest of 128, 64, 32 (and for f32 16) bits that divides C and keeps
/// the filter within kFilterRegisters registers (the narrowest dividing one
/// otherwise); 0 if none divides C.
int64_t pickChannels(Type elem, int64_t C, int64_t taps) {
  int64_t bits = elem.getIntOrFloatBitWidth();
  int64_t minV = elem.isF32() ? 1 : 2;
  int64_t chosen = 0;
  for (int64_t v = 128 / bits; v >= minV; v /= 2) {
    if (C % v != 0)
      continue;
    chosen = v;
    if (taps * v <= kFilterRegisters)
      break;
  }
  return chosen;
}

/// Output rows from which f32 filters of at most 9 taps take the 1 x 4 tile
/// of the widest vector on big grids (below: kWindowFirstTileF32).
constexpr int64_t kTallOutputRows = 28;

/// Forward tile (rows x columns) on big grids: f32 filters of at most 9 taps
/// 1 x 4 on outputs of 28+ rows; up to 25 taps 4 x 16; more taps 1 x 8.
/// (16-bit filters of at most 9 taps: kNarrowTile16; f32 ones on fewer
/// output rows: kWindowFirstTileF32.)
std::pair<int64_t, int64_t> forwardTile(int64_t taps) {
  if (taps > 25)
    return {1, 8};
  if (taps > 9)
    return {4, 16};
  return {1, 4};
}

/// The tile of 16-bit filters of at most 9 taps on big grids (narrowTile16):
/// the narrowest vector (2 channels) in 2 x 2 tiles - four times the
/// threads of 4 channels in 2 x 4 / 2 x 8 tiles, each loaded input row of
/// the stride overlap still feeding two output rows: batch-64 3x3 stride-2
/// layers 1.1-1.6x faster (docs/KernelSelection.md, "strided").
constexpr std::pair<int64_t, int64_t> kNarrowTile16 = {2, 2};

/// Outputs below which a strided forward grid is small (batch 1: at most
/// 56 x 56 x 96 = 301056 outputs; the layer set's batch-64 ones have 1.8M+).
/// There one output per thread and the narrowest vector (f32 1 channel,
/// 16-bit 2) give the most threads, and filters of more than 9 taps (up to
/// 25) two output columns: batch-1 stride-2 layers 1.5-3.7x faster than
/// the big-grid tiles (docs/KernelSelection.md, "strided").
constexpr int64_t kSmallStridedOutputs = int64_t(1) << 20;
constexpr int64_t kSmallGridMaxTaps = 25, kSmallGridOneColumnTaps = 9;
bool smallStridedGrid(ShapedType out, int64_t taps) {
  if (taps > kSmallGridMaxTaps)
    return false;
  // (Multiplied while below the bound: huge static shapes cannot overflow.)
  int64_t outputs = 1;
  for (int64_t d : out.getShape()) {
    if (d >= kSmallStridedOutputs)
      return false;
    outputs *= d;
    if (outputs >= kSmallStridedOutputs)
      return false;
  }
  return true;
}

/// Whether a big-grid forward takes kNarrowTile16: 16-bit data, at most 9
/// taps.
bool narrowTile16(ShapedType out, int64_t taps) {
  return !out.getElementType().isF32() && taps <= kSmallGridOneColumnTaps;
}

/// The tile of f32 filters of at most 9 taps on big grids with outputs of
/// fewer than kTallOutputRows rows (the 14 x 14 / 7 x 7 stride-2 outputs of
/// MobileNetV2 / EfficientNet-B0 at batch 64): one row of 4 outputs of 64
/// bits (32 where C is odd) whose window is loaded before the first FMA
/// (loads_first; 54 inputs, 18 filter values, 8 accumulators). The 2 x 8 x
/// 128-bit tile before it left its loads 10-46 instructions ahead of their
/// first use under one wave of 16 warps per SM: H100, 1.07-1.15x faster,
/// from 0.84-0.94x PyTorch's best to 0.97-1.03x (docs/KernelSelection.md,
/// "strided forward").
constexpr std::pair<int64_t, int64_t> kWindowFirstTileF32 = {1, 4};
bool windowFirstTileF32(ShapedType out, int64_t taps) {
  return out.getElementType().isF32() && taps <= kSmallGridOneColumnTaps &&
         out.getDimSize(1) < kTallOutputRows;
}

/// 64 bits of f32 channels where C is even, else 32.
int64_t windowFirstChannels(ShapedType out) {
  return out.getDimSize(3) % 2 == 0 ? 2 : 1;
}

/// The narrowest channel vector (32 bits) if it divides C, else 0.
int64_t narrowChannels(ShapedType out) {
  int64_t v = out.getElementType().isF32() ? 1 : 2;
  return out.getDimSize(3) % v == 0 ? v : 0;
}

/// Small grids load the whole tile before the first FMA (a block or two
/// per SM hides no memory latency per window column) where the tile's
/// inputs, filter and accumulators fit this many f32 registers: batch-1
/// 5x5 f32 1 x 2 tiles waited for memory once per column in SASS.
constexpr int64_t kLoadsFirstMaxValues = 128;
bool loadsFirstFits(DepthwiseConv2DOp op, int64_t V, int64_t rows,
                    int64_t columns) {
  auto out = cast<ShapedType>(op.getInit().getType()).getShape();
  auto f = cast<ShapedType>(op.getFilter().getType()).getShape();
  auto st = op.getStrides();
  int64_t th = std::min(rows, out[1]), tq = std::min(columns, out[2]);
  int64_t inputs = ((th - 1) * st[0] + f[0]) * ((tq - 1) * st[1] + f[1]) * V;
  return inputs + f[0] * f[1] * V + th * tq * V <= kLoadsFirstMaxValues;
}

/// Channels of a strided op: `given` if set, else chosen; 0 with `why`.
int64_t channelsOf(Operation *op, int64_t given, std::string &why) {
  auto out = cast<ShapedType>(op->getOperands().back().getType());
  auto f = cast<ShapedType>(op->getOperand(1).getType()).getShape();
  int64_t V = given ? given
                    : pickChannels(out.getElementType(), out.getDimSize(3),
                                   f[0] * f[1]);
  if (V == 0)
    why = "channel count is not a multiple of the vector width";
  return V;
}

/// Threads per block: 128 on outputs of at most kHalfBlockMaxRows rows
/// outside the small grids: there the register-heavy tiles (5x5 16-bit 4 x
/// 16: 165 registers) leave one or two 256-thread blocks per SM and grids
/// of a few hundred blocks end in a partly filled wave; half-size blocks
/// halve that quantum (docs/KernelSelection.md, "strided forward").
/// Elsewhere 0 (256).
constexpr int64_t kHalfBlockMaxRows = 7, kHalfBlockThreads = 128;
int64_t forwardBlockThreads(ShapedType out, bool small) {
  return !small && out.getDimSize(1) <= kHalfBlockMaxRows ? kHalfBlockThreads
                                                          : 0;
}

/// #dwc.strided_forward for a strided dwc.depthwise_conv2d.
Attribute selectStridedForward(Operation *op, TargetAttr, Attribute given,
                               std::string &why) {
  if (!isa<DepthwiseConv2DOp>(op)) {
    why = "not a dwc.depthwise_conv2d";
    return {};
  }
  why = stridedIneligibility(op);
  if (!why.empty())
    return {};
  auto g = dyn_cast_or_null<StridedForwardKernelAttr>(given);
  auto f = cast<ShapedType>(op->getOperand(1).getType()).getShape();
  auto out = cast<ShapedType>(op->getOperands().back().getType());
  int64_t taps = f[0] * f[1];
  bool small = smallStridedGrid(out, taps);
  bool tile16 = !small && narrowTile16(out, taps);
  // (Where the window fits the loads-first register budget: strides far
  // wider than the filter keep the widest vector's 1 x 4 tile.)
  bool windowFirst =
      !small && windowFirstTileF32(out, taps) &&
      loadsFirstFits(cast<DepthwiseConv2DOp>(op), windowFirstChannels(out),
                     kWindowFirstTileF32.first, kWindowFirstTileF32.second);
  int64_t V = g && g.getChannels() ? g.getChannels()
              : small || tile16    ? narrowChannels(out)
              : windowFirst        ? windowFirstChannels(out)
                                   : 0;
  V = channelsOf(op, V, why);
  if (!V)
    return {};
  auto [rows, columns] =
      small ? std::pair<int64_t, int64_t>{1, taps <= kSmallGridOneColumnTaps
                                                 ? 1
                                                 : 2}
      : tile16      ? kNarrowTile16
      : windowFirst ? kWindowFirstTileF32
                    : forwardTile(taps);
  if (g && g.getRows())
    rows = g.getRows();
  if (g && g.getColumns())
    columns = g.getColumns();
  int64_t loadsFirst =
      g ? g.getLoadsFirst()
        : windowFirst || (small && loadsFirstFits(cast<DepthwiseConv2DOp>(op),
                                                  V, rows, columns));
  // (The window-first tile was measured with 256-thread blocks.)
  int64_t blockThreads = g             ? g.getBlockThreads()
                         : windowFirst ? 0
                                       : forwardBlockThreads(out, small);
  return StridedForwardKernelAttr::get(op->getContext(), V, rows, columns,
                                       loadsFirst, blockThreads);
}

/// #dwc.strided_gather for a strided dwc.depthwise_conv2d_backward_data.
Attribute selectStridedGather(Operation *op, TargetAttr, Attribute given,
                              std::string &why) {
  if (!isa<DepthwiseConv2DBackwardDataOp>(op)) {
    why = "not a dwc.depthwise_conv2d_backward_data";
    return {};
  }
  why = stridedIneligibility(op);
  if (!why.empty())
    return {};
  auto g = dyn_cast_or_null<StridedGatherKernelAttr>(given);
  int64_t V = channelsOf(op, g ? g.getChannels() : 0, why);
  if (!V)
    return {};
  int64_t columns = g && g.getColumns() ? g.getColumns() : kGatherColumns;
  return StridedGatherKernelAttr::get(op->getContext(), V, columns);
}
} // namespace

void dwc::appendStridedKernelFamilies(SmallVectorImpl<KernelFamily> &families) {
  families.push_back(
      {StridedForwardKernelAttr::getMnemonic(), selectStridedForward});
  families.push_back(
      {StridedGatherKernelAttr::getMnemonic(), selectStridedGather});
}
