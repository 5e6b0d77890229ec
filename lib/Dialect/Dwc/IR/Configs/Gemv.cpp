//===- Gemv.cpp - the GEMV and row-tile depthwise kernels' configurations ---===//
//
// Which ops #dwc.gemv, #dwc.row_tile and #dwc.plane take (shared by their verifier,
// dwc-select-kernels and convert-dwc-to-gpu-gemv).
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include <limits>

using namespace mlir;
using namespace mlir::dwc;

namespace {

ArrayRef<int64_t> filterShape(Operation *op) {
  return cast<ShapedType>(op->getOperand(1).getType()).getShape();
}
ShapedType outType(Operation *op) {
  return cast<ShapedType>(depthwiseConvViewOf(op)->y.getType());
}

/// `value` is one of `allowed` (or "": chosen by dwc-select-kernels).
std::string choiceIneligibility(StringRef name, StringRef value,
                                ArrayRef<StringRef> allowed) {
  if (value.empty() || llvm::is_contained(allowed, value))
    return "";
  std::string list;
  for (StringRef a : allowed)
    list += (list.empty() ? "\"" : ", \"") + a.str() + "\"";
  return (name + " = \"" + value + "\" is not one of " + list).str();
}

/// The GEMV family's rules plus the filter bound of the row-tile and plane
/// kernels (<= 49 taps); `stridedForward`: a forward op may have strides.
std::string tapBoundedIneligibility(Operation *op,
                                    bool stridedForward = false) {
  std::string why = stridedForward ? planeIneligibility(op)
                                   : gemvIneligibility(op);
  if (!why.empty())
    return why;
  ArrayRef<int64_t> f = filterShape(op);
  // (Each extent bounded first: the product cannot overflow.)
  if (f[0] > kRowTileMaxTaps || f[1] > kRowTileMaxTaps ||
      f[0] * f[1] > kRowTileMaxTaps)
    return "filter of more than 49 taps";
  return "";
}
} // namespace

namespace {
/// gemvIneligibility, with strides other than 1 allowed on the forward op
/// where `stridedForward`.
std::string depthwiseIneligibility(Operation *op, bool stridedForward) {
  std::optional<DepthwiseConvView> c = depthwiseConvViewOf(op);
  if (!c)
    return "not a depthwise convolution forward or backward-data op";
  if (!hasConvOperandRanks(op) || c->strides.size() != 2 ||
      c->dilations.size() != 2 || c->padding.size() != 4)
    return "operands or attributes of the wrong rank";
  Type elem = cast<ShapedType>(c->y.getType()).getElementType();
  if (!elem.isF32() && !elem.isF16() && !elem.isBF16())
    return "element type is not f32, f16 or bf16";
  if (!c->acc.isF32())
    return "accumulation type is not f32";
  bool strided = llvm::any_of(c->strides, [](int64_t s) { return s != 1; });
  if (strided && !(stridedForward && isa<DepthwiseConv2DOp>(op)))
    return stridedForward ? "stride is not 1 (backward data)"
                          : "stride is not 1";
  if (llvm::any_of(c->strides, [](int64_t s) { return s < 1; }))
    return "stride is not positive";
  if (llvm::any_of(c->dilations, [](int64_t d) { return d != 1; }))
    return "dilation is not 1";
  if (llvm::any_of(c->padding, [](int64_t p) { return p < 0; }))
    return "negative padding";
  std::string why = operandsIneligibility(op, elem);
  if (!why.empty())
    return why;
  auto [pt, pl] = gemvPadding(op);
  if (pt < 0 || pl < 0)
    return "padding larger than the filter extent minus one (negative "
           "transposed padding)";
  return "";
}
} // namespace

std::string dwc::gemvIneligibility(Operation *op) {
  return depthwiseIneligibility(op, /*stridedForward=*/false);
}

std::string dwc::planeIneligibility(Operation *op) {
  return depthwiseIneligibility(op, /*stridedForward=*/true);
}

std::array<int64_t, 2> dwc::planeStrides(Operation *op) {
  if (auto fwd = dyn_cast<DepthwiseConv2DOp>(op))
    return {fwd.getStrides()[0], fwd.getStrides()[1]};
  return {1, 1};
}

std::pair<int64_t, int64_t> dwc::gemvPadding(Operation *op) {
  ArrayRef<int64_t> pad = depthwiseConvViewOf(op)->padding;
  if (isa<DepthwiseConv2DOp>(op))
    return {pad[0], pad[2]};
  ArrayRef<int64_t> f = filterShape(op);
  return {f[0] - 1 - pad[0], f[1] - 1 - pad[2]};
}

//===----------------------------------------------------------------------===//
// #dwc.gemv
//===----------------------------------------------------------------------===//

StringRef GemvKernelAttr::getFamily() const { return getMnemonic(); }
bool GemvKernelAttr::isComplete() const {
  return getChannels() && getOutputs() && !getFilter().empty() &&
         !getRows().empty();
}

namespace {
/// The GEMV kernel's channel vectors: 128 bits (4 f32), or 64 bits (4
/// f16/bf16) with the filter read from global memory.
std::string gemvChannelsIneligibility(Operation *op, GemvKernelAttr config) {
  int64_t V = config.getChannels();
  if (V == 0)
    return "";
  Type elem = outType(op).getElementType();
  if (elem.isF32() ? V != 4 : V != 4 && V != 8)
    return ("channels = " + Twine(V) + " is not " +
            (elem.isF32() ? "4 (f32)" : "4 or 8 (f16/bf16)"))
        .str();
  int64_t C = outType(op).getDimSize(3);
  if (C % V != 0)
    return ("channels = " + Twine(V) + " does not divide C = " + Twine(C))
        .str();
  if (config.getFilter() == "smem" && V * elem.getIntOrFloatBitWidth() != 128)
    return "filter = \"smem\" needs 128-bit channel vectors";
  return "";
}
} // namespace

std::string GemvKernelAttr::whyNotFor(Operation *op) const {
  std::string why = gemvIneligibility(op);
  if (why.empty())
    why = choiceIneligibility("filter", getFilter(), {"smem", "global"});
  if (why.empty())
    why = choiceIneligibility("rows", getRows(), {"loop", "unrolled"});
  if (why.empty())
    why = gemvChannelsIneligibility(op, *this);
  if (why.empty())
    why = rangeIneligibility("outputs", getOutputs(), 1, 32);
  if (why.empty() && getRows() == "unrolled" &&
      (outType(op).getElementType().isF32() || getFilter() == "smem"))
    why = "rows = \"unrolled\" needs f16/bf16 data and filter = \"global\"";
  return why;
}

//===----------------------------------------------------------------------===//
// #dwc.row_tile
//===----------------------------------------------------------------------===//

StringRef RowTileKernelAttr::getFamily() const { return getMnemonic(); }
bool RowTileKernelAttr::isComplete() const {
  return getChannels() && getRows() && getColumns() && !getFilter().empty();
}
std::string RowTileKernelAttr::whyNotFor(Operation *op) const {
  std::string why = tapBoundedIneligibility(op);
  if (!why.empty())
    return why;
  ShapedType out = outType(op);
  why = channelsIneligibility(out.getElementType(), out.getDimSize(3),
                              getChannels());
  if (why.empty())
    why = rangeIneligibility("rows", getRows(), 1, 16);
  if (why.empty())
    why = rangeIneligibility("columns", getColumns(), 1, 8);
  if (why.empty())
    why = choiceIneligibility("filter", getFilter(), {"registers", "global"});
  // (At most 2048 resident threads per SM on any chip: 8 blocks of 256.)
  if (why.empty())
    why = rangeIneligibility("min_blocks_per_sm", getMinBlocksPerSm(), 0,
                             kRowTileMaxBlocksPerSm);
  if (why.empty())
    why = rangeIneligibility("loads_first", getLoadsFirst(), 0, 1);
  if (why.empty())
    why = blockThreadsIneligibility(getBlockThreads(),
                                    kRowTileMaxBlockThreads);
  if (why.empty())
    why = rangeIneligibility("prefetch_rows", getPrefetchRows(), 0,
                             kRowTileMaxPrefetchRows);
  if (why.empty() && getPrefetchRows() && getLoadsFirst())
    why = "prefetch_rows with loads_first (every row is loaded first)";
  return why;
}

//===----------------------------------------------------------------------===//
// #dwc.plane
//===----------------------------------------------------------------------===//

namespace {
/// Shared-memory wavefronts of a warp's first window load (warp 0, tap
/// (0, 0)) with `pitch` positions per staged row: the most distinct words
/// any of the 32 banks serves.
int64_t firstLoadWavefronts(const PlaneLayout &l, int64_t pitch) {
  llvm::SmallDenseMap<int64_t, llvm::SmallDenseSet<int64_t, 4>, 32> banks;
  int64_t lanes = l.CB / l.V;
  for (int64_t t = 0; t < std::min<int64_t>(32, l.threads); ++t) {
    int64_t s = t / lanes, sr = s / l.colTiles, sc = s % l.colTiles;
    int64_t word = (sr * l.TH * l.sh * pitch + sc * l.TM * l.sw) * l.CB +
                   t % lanes * l.V;
    for (int64_t k = 0; k < l.V; ++k)
      banks[(word + k) % 32].insert(word + k);
  }
  int64_t most = 0;
  for (auto &b : banks)
    most = std::max<int64_t>(most, b.second.size());
  return most;
}
} // namespace

PlaneLayout dwc::planeLayoutOf(Operation *op, int64_t channels,
                               int64_t blockChannels, int64_t rows,
                               int64_t columns, int64_t band) {
  ArrayRef<int64_t> f = filterShape(op);
  ShapedType out = outType(op);
  int64_t OH = out.getDimSize(1), OW = out.getDimSize(2);
  PlaneLayout l;
  l.V = channels;
  l.CB = blockChannels;
  l.band = std::min(band, OH);
  l.TH = std::min(rows, l.band);
  l.TM = std::min(columns, OW);
  l.bands = llvm::divideCeil(OH, l.band);
  l.rowTiles = llvm::divideCeil(l.band, l.TH);
  l.colTiles = llvm::divideCeil(OW, l.TM);
  l.threads = l.CB / l.V * l.rowTiles * l.colTiles;
  auto [sh, sw] = planeStrides(op);
  l.sh = sh;
  l.sw = sw;
  l.stagedRows = (l.band - 1) * sh + f[0];
  l.stagedCols = (OW - 1) * sw + f[1];
  // Staging vectors: up to 128 bits of the input, dividing CB.
  int64_t bits = out.getElementType().getIntOrFloatBitWidth();
  l.stageVector = 1;
  while (l.stageVector * 2 * bits <= 128 && l.CB % (l.stageVector * 2) == 0)
    l.stageVector *= 2;
  // Row pitch: the fewest bank conflicts of the window loads (the first
  // of 8 candidates that reaches the fewest).
  l.pitch = l.stagedCols;
  int64_t best = firstLoadWavefronts(l, l.pitch);
  for (int64_t extra = 1; extra < 8 && best > l.V; ++extra) {
    int64_t w = firstLoadWavefronts(l, l.stagedCols + extra);
    if (w < best)
      best = w, l.pitch = l.stagedCols + extra;
  }
  return l;
}

StringRef PlaneKernelAttr::getFamily() const { return getMnemonic(); }
bool PlaneKernelAttr::isComplete() const {
  return getChannels() && getBlockChannels() && getRows() && getColumns() &&
         getBand();
}

namespace {
/// The channel fields: V in {1, 2, 4} dividing C, CB a multiple of V
/// dividing C (with at most 49 taps the filter takes at most 196 f32
/// registers).
std::string planeChannelsIneligibility(Operation *op, PlaneKernelAttr config) {
  int64_t C = outType(op).getDimSize(3), V = config.getChannels();
  int64_t CB = config.getBlockChannels();
  if (V && V != 1 && V != 2 && V != 4)
    return ("channels = " + Twine(V) + " is not 1, 2 or 4").str();
  if (V && C % V != 0)
    return ("channels = " + Twine(V) + " does not divide C = " + Twine(C))
        .str();
  if (CB < 0 || (CB && C % CB != 0))
    return ("block_channels = " + Twine(CB) + " does not divide C = " +
            Twine(C))
        .str();
  if (CB && V && CB % V != 0)
    return ("block_channels = " + Twine(CB) +
            " is not a multiple of channels = " + Twine(V))
        .str();
  return "";
}
} // namespace

std::string PlaneKernelAttr::whyNotFor(Operation *op) const {
  std::string why = tapBoundedIneligibility(op, /*stridedForward=*/true);
  if (!why.empty())
    return why;
  why = planeChannelsIneligibility(op, *this);
  if (why.empty())
    why = rangeIneligibility("rows", getRows(), 1, 16);
  if (why.empty())
    why = rangeIneligibility("columns", getColumns(), 1, 16);
  if (why.empty())
    why = rangeIneligibility("band", getBand(), 1,
                             std::numeric_limits<int32_t>::max());
  if (!why.empty() || !isComplete())
    return why;
  PlaneLayout l = planeLayoutOf(op, getChannels(), getBlockChannels(),
                                getRows(), getColumns(), getBand());
  if (l.threads > kPlaneMaxThreads)
    return ("blocks of " + Twine(l.threads) + " threads (more than 1024)")
        .str();
  if (l.sharedBytes() > kPlaneMaxSharedBytes)
    return ("a staged plane of " + Twine(l.sharedBytes()) +
            " bytes (more than 48 KiB)")
        .str();
  int64_t N = outType(op).getDimSize(0), C = outType(op).getDimSize(3);
  if (N * l.bands * (C / l.CB) > std::numeric_limits<int32_t>::max())
    return "grid too large";
  return "";
}

//===----------------------------------------------------------------------===//
// #dwc.full_row
//===----------------------------------------------------------------------===//

StringRef FullRowKernelAttr::getFamily() const { return getMnemonic(); }
bool FullRowKernelAttr::isComplete() const {
  return getChannels() && getThreads() && getUnroll();
}

std::string FullRowKernelAttr::whyNotFor(Operation *op) const {
  std::string why = gemvIneligibility(op);
  if (!why.empty())
    return why;
  ShapedType out = outType(op);
  int64_t C = out.getDimSize(3), OW = out.getDimSize(2);
  int64_t IW = cast<ShapedType>(op->getOperand(0).getType()).getDimSize(2);
  why = channelsIneligibility(out.getElementType(), C, getChannels());
  if (why.empty())
    why = rangeIneligibility("threads", getThreads(), 32, 1024);
  if (why.empty() && getThreads() % 32 != 0)
    why = ("threads = " + Twine(getThreads()) + " is not a multiple of 32")
              .str();
  if (why.empty() && getUnroll() && getUnroll() != 1 && getUnroll() != 2 &&
      getUnroll() != kFullRowMaxUnroll)
    why = ("unroll = " + Twine(getUnroll()) + " is not 1, 2 or 4").str();
  if (why.empty())
    why = rangeIneligibility("columns", getColumns(), 1, OW);
  if (why.empty())
    why = rangeIneligibility("max_registers", getMaxRegisters(), 16, 255);
  if (!why.empty())
    return why;
  // A part's accumulators and the input columns it reads (at most its
  // outputs plus the filter's overlap). (Extents are bounded first: the
  // sums cannot overflow.)
  int64_t V = std::max<int64_t>(1, getChannels());
  int64_t parts = std::max<int64_t>(1, getColumns());
  int64_t OWp = llvm::divideCeil(OW, parts);
  int64_t FW = filterShape(op)[1];
  int64_t IWp = std::min(IW, FW > kFullRowMaxRegisters ? IW : OWp + FW - 1);
  if (OWp > kFullRowMaxRegisters || IWp > kFullRowMaxRegisters ||
      (OWp + IWp) * V > kFullRowMaxRegisters)
    return ("a row part of " + Twine(OWp) + " outputs and " + Twine(IWp) +
            " inputs x " + Twine(V) +
            " channels (more than 128 f32 registers)")
        .str();
  if (!isComplete())
    return "";
  int64_t N = out.getDimSize(0), OH = out.getDimSize(1);
  // N, OH, C and the parts (<= OW) are positive int64 values of a static
  // shape; the grid is checked in 128-bit arithmetic against int32.
  __int128 threads = __int128(N) * OH * parts * (C / V);
  if ((threads + getThreads() - 1) / getThreads() >
      std::numeric_limits<int32_t>::max())
    return "grid too large";
  return "";
}
