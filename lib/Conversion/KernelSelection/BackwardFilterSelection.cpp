//===- BackwardFilterSelection.cpp - configurations of the backward filter kernels ---===//
//
// Streaming or split-z kernel, rows per step, slices, tile widths of the
// depthwise filter gradient (evidence: docs/KernelSelection.md, "backward
// filter"; the work splitting: include/dwc/Conversion/BackwardFilterPlan.h).
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/BackwardFilterPlan.h"
#include "dwc/Conversion/KernelSelection.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include <limits>

using namespace mlir;
using namespace mlir::dwc;
using namespace mlir::dwc::bwd_filter;

namespace {
/// Filters of at most this many taps stream (their gradient is bound by
/// reading X and dY once); larger ones take split-z.
constexpr int64_t kStreamMaxTaps = 9;
/// Streaming: output rows per step (f32, f16/bf16) and threads per block.
constexpr int64_t kStreamRowsF32 = 3, kStreamRows16 = 2;
constexpr int64_t kStreamBlockThreads = 256;
/// Split-z: most taps per thread along a row (f32, f16/bf16, f16 with half
/// partial sums: their window and sums take half the registers).
constexpr int64_t kTileWidthF32 = 17, kTileWidth16 = 6, kTileWidthHalfSums = 9;
/// Split-z: filters of at most this many taps sum the 4 slices of a tap
/// tile in a warp before the atomics (few FMAs per atomic).
constexpr int64_t kWarpReduceMaxTaps = 64;
/// Work-unit slots per warp.
constexpr int64_t kSlotsPerWarp = 32 / kLanes;

bool gridFits(int64_t blocks) {
  return blocks <= std::numeric_limits<int32_t>::max();
}

/// Whether strided dY (sh > 1) streams rather than taking split-z: its
/// N*ceil(OH/R) row blocks are the only parallelism, and it pays for
/// 16-bit inputs on grids of at least a quarter of the SMs.
bool streamsStrided(const StreamPlan &s, Type elem, int64_t smCount) {
  return !elem.isF32() && 4 * s.blocks >= smCount;
}

/// #dwc.bwd_filter_stream: filters of at most 9 taps (stride 1, or 16-bit
/// strided dY on grids of at least a quarter of the SMs).
Attribute selectStream(Operation *op, TargetAttr target, Attribute given,
                       std::string &why) {
  why = backwardFilterIneligibility(op);
  if (!why.empty())
    return {};
  auto g = dyn_cast_or_null<BwdFilterStreamKernelAttr>(given);
  Dims d = dimsOf(cast<DepthwiseConv2DBackwardFilterOp>(op));
  if (d.FH > kBwdFilterStreamMaxTaps || d.FW > kBwdFilterStreamMaxTaps ||
      d.FH * d.FW > (g ? kBwdFilterStreamMaxTaps : kStreamMaxTaps)) {
    why = g ? "filter of more than 49 taps" : "filter of more than 9 taps";
    return {};
  }
  int64_t rows = g && g.getRows() ? g.getRows()
                 : d.elem.isF32() ? kStreamRowsF32
                                  : kStreamRows16;
  int64_t threads =
      g && g.getThreads() ? g.getThreads() : kStreamBlockThreads;
  StreamPlan s =
      streamPlan(d, rows, threads, g ? g.getWorkers() : 0, target);
  if (!g && d.sh != 1 && !streamsStrided(s, d.elem, target.getSmCount())) {
    why = "strided dY with f32 data or on a small grid (split-z is faster)";
    return {};
  }
  if (!gridFits(s.blocks)) {
    why = "grid too large";
    return {};
  }
  StringRef reduce = g && !g.getReduce().empty() ? g.getReduce() : "block";
  return BwdFilterStreamKernelAttr::get(op->getContext(), rows, threads,
                                        s.maxWorkers, reduce);
}

/// #dwc.bwd_filter_split_z: the other backward-filter ops.
Attribute selectSplitZ(Operation *op, TargetAttr target, Attribute given,
                       std::string &why) {
  why = backwardFilterIneligibility(op);
  if (!why.empty())
    return {};
  auto g = dyn_cast_or_null<BwdFilterSplitZKernelAttr>(given);
  Dims d = dimsOf(cast<DepthwiseConv2DBackwardFilterOp>(op));
  int64_t halfSteps = g ? g.getHalfSteps() : 0;
  int64_t tileWidth = g && g.getTileWidth() ? g.getTileWidth()
                      : halfSteps > 0       ? kTileWidthHalfSums
                      : d.elem.isF32()      ? kTileWidthF32
                                            : kTileWidth16;
  int64_t warpSlices = g && g.getWarpSlices() ? g.getWarpSlices()
                       : d.FH * d.FW <= kWarpReduceMaxTaps ? kSlotsPerWarp
                                                           : 1;
  SplitZPlan p =
      splitZPlan(d, g ? g.getZ() : 0, tileWidth, warpSlices, target);
  if (!gridFits(p.blocks)) {
    why = "grid too large";
    return {};
  }
  int64_t z = g && g.getZ()
                  ? g.getZ()
                  : defaultSlices(d, p.groups * kLanes * p.tiles, target);
  return BwdFilterSplitZKernelAttr::get(op->getContext(), z, tileWidth,
                                        warpSlices, halfSteps);
}
} // namespace

void dwc::appendBackwardFilterKernelFamilies(
    SmallVectorImpl<KernelFamily> &families) {
  families.push_back(
      {BwdFilterStreamKernelAttr::getMnemonic(), selectStream});
  families.push_back(
      {BwdFilterSplitZKernelAttr::getMnemonic(), selectSplitZ});
}
