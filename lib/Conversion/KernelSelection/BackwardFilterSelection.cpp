//===- BackwardFilterSelection.cpp - configurations of the backward filter kernels ---===//
//
// Register (taps), image, streaming or split-z kernel, bands, strips, rows
// per step, slices, tile widths of the depthwise filter gradient (evidence:
// docs/KernelSelection.md, "backward filter"; the work splitting:
// include/dwc/Conversion/BackwardFilterPlan.h).
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/BackwardFilterPlan.h"
#include "dwc/Conversion/KernelSelection.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include <limits>
#include <optional>

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
/// measured faster than the streaming / split-z kernels on
/// (docs/KernelSelection.md, "backward filter"). f32: stride 1, filters up
/// to 7 x 7 and 5+ taps wide on maps of up to 14 output rows (split-z /
/// streaming win on larger f32 maps and on f32 3 x 3). 16-bit: stride 1,
/// filters up to 7 x 7 5+ taps wide on up to 56 output rows, 3 x 3 on up
/// to 112; filters up to 13 x 13 on maps of up to 7 rows; stride 2, filters
/// up to 5 x 5 on any map. The classes first measured with the two-level
/// slice reduction (3 x 3 past 28 rows, filters past 7 x 7, stride 2; at
/// batch 32 / 64) also need at least kImageNewMinWaves x sm_count blocks of
/// 32 channels x one output row (small batches keep the streaming /
/// split-z kernels).
constexpr int64_t kImageDefaultMaxTaps = 7, kImageWideFilter = 5;
constexpr int64_t kImage16WideMaxRows = 56, kImage16NarrowMaxRows = 112;
constexpr int64_t kImageF32MaxRows = 14, kImageF32AsyncMinRows = 56;
constexpr int64_t kImage16LargeFilterTaps = 13, kImage16LargeFilterMaxRows = 7;
constexpr int64_t kImage16StridedMaxTaps = 5, kImage16NarrowOldMaxRows = 28;
constexpr int64_t kImageNewMinWaves = 2;
bool imageWideChannels(Operation *op, const Dims &d);
int64_t imageAsyncRows(Operation *op, const Dims &d, int64_t channels);

/// Why the image kernel is not chosen without a request (empty: it is).
std::string imageDefaultRefusal(Operation *op, const Dims &d,
                                TargetAttr target) {
  const std::string other = "strided dY, a larger map or filter, or f32 3 x 3 "
                            "(streaming / split-z are faster)";
  if (d.elem.isF32()) {
    bool stride1 = d.sh == 1 && d.sw == 1;
    // 3 x 3 on maps of 56+ rows whose streaming block holds fewer than
    // kStreamLanes channel vectors (C < 256: C = 32 / 144 measured; the
    // streaming kernel reads C = 256 at the copy bandwidth): the async half
    // strips (imageAsyncRows).
    if (stride1 && d.FH == 3 && d.FW == 3 && d.OH >= kImageF32AsyncMinRows &&
        d.C / channelsPerThread(d.elem) < kStreamLanes) {
      ImagePlan p = imagePlan(d, kImageChannelsF32, 1, 1);
      if (p.groups * p.units < kImageNewMinWaves * target.getSmCount())
        return "a grid of fewer than 2 x sm_count blocks of one output row "
               "(streaming / split-z are faster)";
      return imageAsyncRows(op, d, kImageChannelsF32)
                 ? ""
                 : "f32 3 x 3 without async half strips (the image fits one "
                   "strip) (streaming is faster)";
    }
    return stride1 && d.FH <= kImageDefaultMaxTaps &&
                   d.FW >= kImageWideFilter && d.FW <= kImageDefaultMaxTaps &&
                   d.OH <= kImageF32MaxRows
               ? ""
               : other;
  }
  bool stride1 = d.sh == 1 && d.sw == 1;
  bool small = d.FH <= kImageDefaultMaxTaps && d.FW <= kImageDefaultMaxTaps;
  bool wide = d.FW >= kImageWideFilter;
  // The classes measured before the two-level reduction: any grid.
  if (stride1 && small &&
      d.OH <= (wide ? kImage16WideMaxRows : kImage16NarrowOldMaxRows))
    return "";
  bool newClass =
      d.sh == 2 && d.sw == 2
          ? d.FH <= kImage16StridedMaxTaps && d.FW <= kImage16StridedMaxTaps
      : !stride1 ? false
      : small    ? !wide && d.OH <= kImage16NarrowMaxRows
                 : d.FH <= kImage16LargeFilterTaps &&
                    d.FW <= kImage16LargeFilterTaps &&
                    d.OH <= kImage16LargeFilterMaxRows;
  if (!newClass)
    return other;
  ImagePlan p = imagePlan(d, kImageChannels16, 1, 1);
  if (p.groups * p.units < kImageNewMinWaves * target.getSmCount())
    return "a grid of fewer than 2 x sm_count blocks of one output row "
           "(streaming / split-z are faster)";
  return "";
}

/// 16-bit ops whose image kernel takes 64 channels per block and column
/// segments for about kImageSegmentThreads threads (measured faster than 32
/// channels there; docs/KernelSelection.md): at least 64 channels, filters
/// of at most 5 rows; stride 1: maps of 15..28 output rows (3 x 3: up to
/// 56); strided dY: where the 64-channel strip stages at most 3 input rows
/// per output row (a one-row strip of a 5-row filter is slower).
constexpr int64_t kImageWideChannels = 64, kImageWideMaxFH = 5;
constexpr int64_t kImageWideMinRows = 15, kImageWideMaxRows = 28;
constexpr int64_t kImageWideMaxRows3 = 56, kImageWideMaxInputRowsPerRow = 3;
constexpr int64_t kImageSegmentThreads = 256;
bool imageWideChannels(Operation *op, const Dims &d) {
  if (d.elem.isF32() || d.C < kImageWideChannels || d.FH > kImageWideMaxFH)
    return false;
  if (d.sh == 1 && d.sw == 1)
    return d.OH >= kImageWideMinRows &&
           d.OH <= (d.FH <= 3 ? kImageWideMaxRows3 : kImageWideMaxRows);
  int64_t rows = imageRows(op, d, kImageWideChannels, kImageStripBytes);
  int64_t inRows = std::min((rows - 1) * d.sh + d.FH, d.IH);
  return inRows <= kImageWideMaxInputRowsPerRow * rows;
}

/// 16-bit 3 x 3 stride-1 ops of the 64-channel class whose C is a multiple
/// of 48 but not of 64 take 48 channels per block (no masked channel group;
/// 64 x 56 x 56 x 144 f16: 86 -> 73 us, docs/KernelSelection.md).
constexpr int64_t kImageDividingChannels = 48;
bool imageDividingChannels(Operation *op, const Dims &d) {
  return imageWideChannels(op, d) && d.sh == 1 && d.sw == 1 && d.FH == 3 &&
         d.FW == 3 && d.C % kImageWideChannels != 0 &&
         d.C % kImageDividingChannels == 0;
}

/// The default channels per block (no request).
int64_t imageChannels(Operation *op, const Dims &d) {
  if (d.elem.isF32())
    return kImageChannelsF32;
  if (imageDividingChannels(op, d))
    return kImageDividingChannels;
  return imageWideChannels(op, d) ? kImageWideChannels : kImageChannels16;
}

/// Column segments: for the 64- and 48-channel blocks of imageWideChannels,
/// about kImageSegmentThreads threads (FH x channels / 2 per segment); else
/// 1.
int64_t imageSegments(Operation *op, const Dims &d, int64_t channels) {
  if ((channels != kImageWideChannels &&
       channels != kImageDividingChannels) ||
      !imageWideChannels(op, d))
    return 1;
  int64_t perSegment = d.FH * channels / 2;
  int64_t segments = (kImageSegmentThreads + perSegment - 1) / perSegment;
  return std::clamp<int64_t>(segments, 1, 1024 / perSegment);
}

/// Without a request, the narrow-channel blocks (16-bit 32 channels, f32
/// 16) of maps cut into several strips take copy = "async" with half the
/// 48 KB strip (the two buffers in the shared memory one strip had), where
/// such a strip stages at most 3 input rows per output row; returns its
/// rows, 0 where the block copy stays (docs/KernelSelection.md: 64 x 112 x
/// 112 x 32 3x3 f16 62 -> 55 us, f32 114 -> 93 us; a one-row strip of a
/// 7-row filter is slower).
int64_t imageAsyncRows(Operation *op, const Dims &d, int64_t channels) {
  int64_t narrow = d.elem.isF32() ? kImageChannelsF32 : kImageChannels16;
  if (channels != narrow || imageWideChannels(op, d))
    return 0;
  int64_t full = imageRows(op, d, channels, kImageStripBytes);
  if (full >= d.OH)
    return 0;
  int64_t rows = std::max<int64_t>(1, full / 2);
  int64_t inRows = std::min((rows - 1) * d.sh + d.FH, d.IH);
  return inRows <= kImageWideMaxInputRowsPerRow * rows ? rows : 0;
}

/// #dwc.bwd_filter_image: filter rows of at most 17 taps; chosen on its own
/// where imageByDefault says, else only when requested.
Attribute selectImage(Operation *op, TargetAttr target, Attribute given,
                      std::string &why) {
  why = backwardFilterIneligibility(op);
  if (!why.empty())
    return {};
  auto g = dyn_cast_or_null<BwdFilterImageKernelAttr>(given);
  Dims d = dimsOf(cast<DepthwiseConv2DBackwardFilterOp>(op));
  if (d.FW > kBwdFilterImageMaxRowTaps) {
    why = "a filter row of more than 17 taps";
    return {};
  }
  if (!g) {
    why = imageDefaultRefusal(op, d, target);
    if (!why.empty())
      return {};
  }
  int64_t channels =
      g && g.getChannels() ? g.getChannels() : imageChannels(op, d);
  int64_t halfRows = g ? 0 : imageAsyncRows(op, d, channels);
  StringRef copy = g && !g.getCopy().empty() ? g.getCopy()
                   : halfRows                 ? "async"
                                              : "block";
  int64_t rows = g && g.getRows() ? g.getRows()
                 : halfRows       ? halfRows
                                  : imageRows(op, d, channels, kImageStripBytes);
  int64_t bytes = bwdFilterImageBlockSharedBytes(op, channels, rows, copy);
  if (bytes > target.getSharedMemoryPerBlock()) {
    why = "strip of one row exceeds the shared memory";
    return {};
  }
  int64_t segments = g && g.getSegments() ? g.getSegments()
                                          : imageSegments(op, d, channels);
  ImagePlan p = imagePlan(d, channels, rows, 1, segments);
  int64_t units = g && g.getUnits() ? g.getUnits()
                  : copy == "thread" ? 1
                                     : imageUnits(d, p, bytes, target);
  p = imagePlan(d, channels, rows, units, segments);
  if (!gridFits(p.blocks)) {
    why = "grid too large";
    return {};
  }
  auto config = BwdFilterImageKernelAttr::get(op->getContext(), channels,
                                              rows, units, copy, segments);
  why = config.whyNotFor(op);
  return why.empty() ? config : Attribute();
}

/// The register (taps) kernel's fields of a request that leaves them open:
/// 128-bit channel vectors where the thread's f32 values fit (else 64
/// bits), bands of kTapsColumns columns x kTapsRows rows, kTapsThreads
/// threads per block.
constexpr int64_t kTapsColumns = 2, kTapsRows = 8, kTapsThreads = 256;

/// f32 values the taps kernel's thread holds (the verifier's bound;
/// prefetch: the next step's segments too).
int64_t tapsValues(const Dims &d, int64_t vector, int64_t columns,
                   bool prefetch) {
  int64_t perVector = d.FH * d.FW + d.FH * columns + columns + d.FW - 1;
  if (prefetch)
    perVector += 2 * columns + d.FW - 1;
  return perVector * vector;
}

/// The taps kernel's band where it is chosen without a request (the
/// classes it was measured faster on in the H200 sweeps of 2026-12-02;
/// docs/KernelSelection.md):
///  - f32 3 x 3 with C < 256 on maps of 56+ rows: 2 columns x 16 rows in
///    blocks of at most 128 threads with prefetch (C < 64), else 2 x 32;
///    on 28..55 rows: 2 x 28 with prefetch; with 256 <= C < 512 on maps of
///    8..14 rows: 2 x 16, 4 steps per loop iteration;
///  - f32 5 x 5 on maps of 28+ rows: 2 columns x 28 rows;
///  - f32 filters of at most 5 rows and 6..13 taps wide: 2 columns x 8
///    rows (the vector the registers allow);
///  - 16-bit (64-bit vectors) 3 x 3 with C >= 144 on 29..56 rows: 2 x 28
///    with prefetch; on 28 rows: 4 x 16 (f16: with prefetch); 3 x 3 on
///    8..14 rows with 384 <= C <= 480: 2 x 16 in blocks of at most 128
///    threads with prefetch, C > 480: 4 x 16 with prefetch; on up to 7
///    rows with C >= 480: 4 x 16;
///  - 16-bit 5 x 5 on 28..56 rows whose channel vectors fill blocks of 30+
///    lanes: 2 x 28.
/// Elsewhere (16-bit 112 x 112 x 32, 16-bit 5 x 5 of 24-lane blocks or
/// small maps, f32 14 x 14 x 576 and 7 x 7 maps of square filters) the
/// image / streaming / split-z kernels were faster.
struct TapsBand {
  int64_t vector, columns, rows;
  // 0: the request defaults (kTapsThreads threads) / the kernel's (2 steps
  // per iteration, no prefetch, no occupancy hint).
  int64_t threads = 0, unroll = 0, prefetch = 0, minBlocksPerSm = 0;
};
constexpr int64_t kTapsF32WideRows = 56, kTapsMinRows = 28;
constexpr int64_t kTapsF32NarrowC = 64, kTapsWideMaxFW = 13;
constexpr int64_t kTaps16MinC = 144, kTaps16MaxRows = 56;
constexpr int64_t kTapsSmallMapRows = 14, kTapsTinyMapRows = 7;
constexpr int64_t kTaps16SmallMapMinC = 384, kTaps16SmallMapNarrowC = 480;
constexpr int64_t kTaps16TinyMapMinC = 480, kTapsF32SmallMapMaxC = 512;
constexpr int64_t kTapsBandRows = 28, kTapsNarrowThreads = 128;
constexpr int64_t kTaps16Wide5MinLanes = 30;
std::optional<TapsBand> tapsF32Band(const Dims &d) {
  bool square3 = d.FH == 3 && d.FW == 3, square5 = d.FH == 5 && d.FW == 5;
  bool small = d.OH > kTapsTinyMapRows && d.OH <= kTapsSmallMapRows;
  // (3 x 3 at C >= 256 on larger maps: the streaming block holds 64 channel
  // vectors and reads at the copy bandwidth; not measured with this
  // kernel.)
  if (square3 && d.C / channelsPerThread(d.elem) >= kStreamLanes)
    return small && d.C < kTapsF32SmallMapMaxC
               ? std::optional<TapsBand>(TapsBand{4, 2, 16, 0, 4})
               : std::nullopt;
  if (square3 && d.OH >= kTapsF32WideRows)
    return d.C < kTapsF32NarrowC
               ? TapsBand{4, 2, 16, kTapsNarrowThreads, 0, 1}
               : TapsBand{4, 2, 32};
  if (square3 && d.OH >= kTapsMinRows)
    return TapsBand{4, 2, kTapsBandRows, 0, 0, 1};
  if (square5 && d.OH >= kTapsMinRows)
    return TapsBand{4, 2, kTapsBandRows};
  if (d.FH <= 5 && d.FW > 5 && d.FW <= kTapsWideMaxFW)
    return TapsBand{0, 2, 8};
  return std::nullopt;
}
std::optional<TapsBand> taps16Band(const Dims &d) {
  bool square3 = d.FH == 3 && d.FW == 3, square5 = d.FH == 5 && d.FW == 5;
  bool small = d.OH > kTapsTinyMapRows && d.OH <= kTapsSmallMapRows;
  if (square3 && d.OH > kTapsMinRows && d.OH <= kTaps16MaxRows &&
      d.C >= kTaps16MinC)
    return TapsBand{4, 2, kTapsBandRows, 0, 0, 1};
  // (bf16 28 x 28 with prefetch: not timed, the harness's bf16 tolerance
  // flagged every variant of that layer, main's too.)
  if (square3 && d.OH == kTapsMinRows && d.C >= kTaps16MinC)
    return TapsBand{4, 4, 16, 0, 0, d.elem.isF16() ? 1 : 0};
  if (square3 && small && d.C >= kTaps16SmallMapMinC)
    return d.C <= kTaps16SmallMapNarrowC
               ? TapsBand{4, 2, 16, kTapsNarrowThreads, 0, 1}
               : TapsBand{4, 4, 16, 0, 0, 1};
  if (square3 && d.OH <= kTapsTinyMapRows && d.C >= kTaps16TinyMapMinC)
    return TapsBand{4, 4, 16};
  if (square5 && d.OH >= kTapsMinRows && d.OH <= kTaps16MaxRows &&
      tapsLanes(d.C / 4) >= kTaps16Wide5MinLanes)
    return TapsBand{4, 2, kTapsBandRows};
  return std::nullopt;
}
std::optional<TapsBand> tapsDefaultBand(const Dims &d) {
  if (d.sh != 1 || d.sw != 1)
    return std::nullopt;
  return d.elem.isF32() ? tapsF32Band(d) : taps16Band(d);
}

/// #dwc.bwd_filter_taps: stride 1; chosen on its own where tapsDefaultBand
/// says, else only when requested.
Attribute selectTaps(Operation *op, TargetAttr target, Attribute given,
                     std::string &why) {
  why = backwardFilterIneligibility(op);
  if (!why.empty())
    return {};
  auto g = dyn_cast_or_null<BwdFilterTapsKernelAttr>(given);
  Dims d = dimsOf(cast<DepthwiseConv2DBackwardFilterOp>(op));
  if (d.sh != 1 || d.sw != 1) {
    why = "stride is not 1";
    return {};
  }
  std::optional<TapsBand> band =
      g ? TapsBand{0, kTapsColumns, kTapsRows} : tapsDefaultBand(d);
  if (!band) {
    why = "outside the measured classes (f32 3 x 3 / 5 x 5 on 28+ rows, f32 "
          "3 x 3 on 8..14 rows with 256 <= C < 512, f32 filters up to 5 x "
          "13, 16-bit 3 x 3 on 28..56 rows with C >= 144, on 8..14 rows with "
          "C >= 384 or on up to 7 rows with C >= 480, 16-bit 5 x 5 on 28..56 "
          "rows in blocks of 30+ lanes): the image / streaming / split-z "
          "kernels are faster";
    return {};
  }
  int64_t columns = g && g.getColumns() ? g.getColumns() : band->columns;
  int64_t prefetch = g ? g.getPrefetch() : band->prefetch;
  int64_t wide = channelsPerThread(d.elem);
  int64_t vector =
      g && g.getVector() ? g.getVector()
      : band->vector     ? band->vector
      : tapsValues(d, wide, columns, prefetch) <= kBwdFilterTapsMaxValues
          ? wide
          : wide / 2;
  int64_t rows = g && g.getRows() ? g.getRows() : band->rows;
  int64_t threads = g && g.getThreads() ? g.getThreads()
                    : band->threads        ? band->threads
                                           : kTapsThreads;
  StringRef reduce = g && !g.getReduce().empty() ? g.getReduce() : "block";
  TapsPlan p = tapsPlan(d, vector, columns, rows, threads, reduce == "band");
  // (The classes were measured at batch 32 / 64, on grids of 64+ blocks;
  // small batches keep the other kernels.)
  if (!g && 4 * p.blocks < target.getSmCount()) {
    why = "a grid of fewer than sm_count / 4 blocks";
    return {};
  }
  if (!gridFits(p.blocks)) {
    why = "grid too large";
    return {};
  }
  int64_t unroll = g ? g.getUnroll() : band->unroll;
  int64_t minBlocks = g ? g.getMinBlocksPerSm() : band->minBlocksPerSm;
  auto config = BwdFilterTapsKernelAttr::get(op->getContext(), vector,
                                             columns, rows, threads, reduce,
                                             unroll, prefetch, minBlocks);
  why = config.whyNotFor(op);
  return why.empty() ? config : Attribute();
}
} // namespace

void dwc::appendBackwardFilterKernelFamilies(
    SmallVectorImpl<KernelFamily> &families) {
  // The taps kernel first, then the image kernel: where their rules hold
  // they beat the others.
  families.push_back(
      {BwdFilterTapsKernelAttr::getMnemonic(), selectTaps});
  families.push_back(
      {BwdFilterImageKernelAttr::getMnemonic(), selectImage});
  families.push_back(
      {BwdFilterStreamKernelAttr::getMnemonic(), selectStream});
  families.push_back(
      {BwdFilterSplitZKernelAttr::getMnemonic(), selectSplitZ});
}
