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
/// Image kernel: channels per block (16-bit: 32 = 16 channel pairs per
/// filter row; f32: 16) and the most shared memory per block the default
/// strips take (several blocks per SM).
constexpr int64_t kImageChannels16 = 32, kImageChannelsF32 = 16;
constexpr int64_t kImageStripBytes = 48 * 1024;
/// Registers per thread the image kernel's occupancy estimate adds to its
/// 4 * FW sums and window values.
constexpr int64_t kImageRegisterOverhead = 40;

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
/// The image kernel's default channels per block (a last group past C is
/// masked).
int64_t imageChannels(const Dims &d) {
  return d.elem.isF32() ? kImageChannelsF32 : kImageChannels16;
}

/// The most output rows per strip whose shared memory fits `budget` (at
/// least 1): (R + FH - 1) padded input rows and R dY rows (fewer input rows
/// when the image has fewer).
int64_t imageRows(Operation *op, const Dims &d, int64_t channels,
                  int64_t budget) {
  if (bwdFilterImageSharedBytes(op, channels, d.OH) <= budget)
    return d.OH;
  int64_t one = bwdFilterImageSharedBytes(op, channels, 1);
  int64_t two = bwdFilterImageSharedBytes(op, channels, 2);
  // bytes(R) = one + (R - 1) * (two - one) while R + FH - 1 <= IH.
  int64_t step = std::max<int64_t>(two - one, 1);
  int64_t rows = budget >= one ? 1 + (budget - one) / step : 1;
  return std::clamp<int64_t>(rows, 1, d.OH);
}

/// Strips per block: one wave of resident blocks (by threads, shared
/// memory and an estimate of the registers), each taking an equal run.
int64_t imageUnits(const Dims &d, const ImagePlan &p, int64_t bytes,
                   TargetAttr target) {
  int64_t regs = (4 * d.FW + kImageRegisterOverhead + 7) / 8 * 8;
  int64_t perSm = std::min({target.getThreadsPerSm() / p.threads,
                            target.getSharedMemoryPerSm() / bytes,
                            target.getRegistersPerSm() / (regs * p.threads)});
  int64_t resident = std::max<int64_t>(1, perSm) * target.getSmCount();
  int64_t blocks = p.groups * p.units;
  return std::max<int64_t>(1, blocks / resident);
}

/// Where the image kernel is chosen without a request: the shapes it was
/// measured faster than the streaming / split-z kernels on (filters up to
/// 7 x 7; docs/KernelSelection.md, "backward filter"): 16-bit filters 5+
/// taps wide on maps of up to 56 output rows, 16-bit 3 x 3 on up to 28
/// rows (the streaming kernel wins at 56), f32 filters 5+ wide on up to 14
/// rows (split-z / streaming win on larger f32 maps and on f32 3 x 3).
constexpr int64_t kImageDefaultMaxTaps = 7, kImageWideFilter = 5;
constexpr int64_t kImage16WideMaxRows = 56, kImage16NarrowMaxRows = 28;
constexpr int64_t kImageF32MaxRows = 14;
bool imageByDefault(const Dims &d) {
  if (d.FH > kImageDefaultMaxTaps || d.FW > kImageDefaultMaxTaps)
    return false;
  bool wide = d.FW >= kImageWideFilter;
  if (d.elem.isF32())
    return wide && d.OH <= kImageF32MaxRows;
  return d.OH <= (wide ? kImage16WideMaxRows : kImage16NarrowMaxRows);
}

/// #dwc.bwd_filter_image: stride 1, filter rows of at most 17 taps; chosen
/// on its own where imageByDefault says, else only when requested.
Attribute selectImage(Operation *op, TargetAttr target, Attribute given,
                      std::string &why) {
  why = backwardFilterIneligibility(op);
  if (!why.empty())
    return {};
  auto g = dyn_cast_or_null<BwdFilterImageKernelAttr>(given);
  Dims d = dimsOf(cast<DepthwiseConv2DBackwardFilterOp>(op));
  if (d.sh != 1 || d.sw != 1 || d.FW > kBwdFilterImageMaxRowTaps) {
    why = "strided dY or a filter row of more than 17 taps";
    return {};
  }
  if (!g && !imageByDefault(d)) {
    why = "a larger map or filter, or f32 3 x 3 (streaming / split-z are "
          "faster)";
    return {};
  }
  int64_t channels = g && g.getChannels() ? g.getChannels() : imageChannels(d);
  int64_t rows = g && g.getRows() ? g.getRows()
                                  : imageRows(op, d, channels, kImageStripBytes);
  int64_t bytes = bwdFilterImageSharedBytes(op, channels, rows);
  if (bytes > target.getSharedMemoryPerBlock()) {
    why = "strip of one row exceeds the shared memory";
    return {};
  }
  ImagePlan p = imagePlan(d, channels, rows, 1);
  StringRef copy = g && !g.getCopy().empty() ? g.getCopy() : "block";
  int64_t units = g && g.getUnits() ? g.getUnits()
                  : copy == "thread" ? 1
                                     : imageUnits(d, p, bytes, target);
  p = imagePlan(d, channels, rows, units);
  if (!gridFits(p.blocks)) {
    why = "grid too large";
    return {};
  }
  auto config = BwdFilterImageKernelAttr::get(op->getContext(), channels,
                                              rows, units, copy);
  why = config.whyNotFor(op);
  return why.empty() ? config : Attribute();
}
} // namespace

void dwc::appendBackwardFilterKernelFamilies(
    SmallVectorImpl<KernelFamily> &families) {
  // The image kernel first: where its rule holds it beats both.
  families.push_back(
      {BwdFilterImageKernelAttr::getMnemonic(), selectImage});
  families.push_back(
      {BwdFilterStreamKernelAttr::getMnemonic(), selectStream});
  families.push_back(
      {BwdFilterSplitZKernelAttr::getMnemonic(), selectSplitZ});
}
