//===- BackwardFilter.cpp - the depthwise backward-filter kernels' configurations ---===//
//
// Which ops #dwc.bwd_filter_stream, _split_z and _image take (shared
// by their verifier, dwc-select-kernels and
// convert-dwc-to-gpu-backward-filter).
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlir::dwc;

namespace {
/// Operand ranks (x and dY rank 4, dW rank 3) and attribute sizes: the op's
/// own verifier may not have run yet.
bool hasBackwardFilterRanks(DepthwiseConv2DBackwardFilterOp op) {
  for (auto [i, v] : llvm::enumerate(op->getOperands())) {
    auto t = dyn_cast<ShapedType>(v.getType());
    if (!t || !t.hasRank() || t.getRank() != (i == 2 ? 3 : 4))
      return false;
  }
  return op->getNumOperands() == 3 && op.getStrides().size() == 2 &&
         op.getDilations().size() == 2 && op.getPadding().size() == 4;
}

/// Layouts and shapes the kernels read.
std::string operandIneligibility(Operation *op) {
  return operandsIneligibility(op, Type());
}

ArrayRef<int64_t> dwShape(Operation *op) {
  return cast<ShapedType>(op->getOperand(2).getType()).getShape();
}
} // namespace

std::string dwc::backwardFilterIneligibility(Operation *op) {
  auto bwd = dyn_cast<DepthwiseConv2DBackwardFilterOp>(op);
  if (!bwd)
    return "not a dwc.depthwise_conv2d_backward_filter";
  if (!hasBackwardFilterRanks(bwd))
    return "operands or attributes of the wrong rank";
  auto in = cast<ShapedType>(bwd.getInput().getType());
  Type elem = in.getElementType();
  if (!elem.isF32() && !elem.isF16() && !elem.isBF16())
    return "element type is not f32, f16 or bf16";
  if (cast<ShapedType>(bwd.getOutputGrad().getType()).getElementType() != elem)
    return "output gradient type is not the input's";
  Type dwElem = cast<ShapedType>(bwd.getInit().getType()).getElementType();
  if (!dwElem.isF32() && dwElem != elem)
    return "filter gradient type is neither f32 nor the input's";
  if (llvm::any_of(bwd.getStrides(), [](int64_t s) { return s < 1; }))
    return "stride is not positive";
  if (llvm::any_of(bwd.getDilations(), [](int64_t d) { return d != 1; }))
    return "dilation is not 1";
  if (llvm::any_of(bwd.getPadding(), [](int64_t p) { return p < 0; }))
    return "negative padding";
  std::string why = operandIneligibility(op);
  if (!why.empty())
    return why;
  if (in.getDimSize(3) % (128 / elem.getIntOrFloatBitWidth()) != 0)
    return "channel count is not a multiple of 128 bits";
  return "";
}

//===----------------------------------------------------------------------===//
// #dwc.bwd_filter_stream
//===----------------------------------------------------------------------===//

StringRef BwdFilterStreamKernelAttr::getFamily() const { return getMnemonic(); }
bool BwdFilterStreamKernelAttr::isComplete() const {
  return getRows() && getThreads() && getWorkers() && !getReduce().empty();
}
std::string BwdFilterStreamKernelAttr::whyNotFor(Operation *op) const {
  std::string why = backwardFilterIneligibility(op);
  if (!why.empty())
    return why;
  ArrayRef<int64_t> f = dwShape(op);
  // (Each extent bounded first: the product cannot overflow.)
  if (f[0] > kBwdFilterStreamMaxTaps || f[1] > kBwdFilterStreamMaxTaps ||
      f[0] * f[1] > kBwdFilterStreamMaxTaps)
    return "filter of more than 49 taps";
  why = rangeIneligibility("rows", getRows(), 1, 16);
  if (why.empty())
    why = rangeIneligibility("threads", getThreads(), 32, 1024);
  if (why.empty())
    why = rangeIneligibility("workers", getWorkers(), 1,
                             std::numeric_limits<int32_t>::max());
  if (why.empty() && !getReduce().empty() && getReduce() != "block" &&
      getReduce() != "atomics")
    why = ("reduce = \"" + getReduce() + "\" is not one of \"block\", "
           "\"atomics\"").str();
  return why;
}

//===----------------------------------------------------------------------===//
// #dwc.bwd_filter_split_z
//===----------------------------------------------------------------------===//

StringRef BwdFilterSplitZKernelAttr::getFamily() const {
  return getMnemonic();
}
bool BwdFilterSplitZKernelAttr::isComplete() const {
  // half_steps = 0 is a choice (f32 FMAs), not a field left open.
  return getZ() && getTileWidth() && getWarpSlices();
}
std::string BwdFilterSplitZKernelAttr::whyNotFor(Operation *op) const {
  std::string why = backwardFilterIneligibility(op);
  if (!why.empty())
    return why;
  why = rangeIneligibility("z", getZ(), 1, std::numeric_limits<int32_t>::max());
  if (why.empty())
    why = rangeIneligibility("tile_width", getTileWidth(), 1,
                             kBwdFilterMaxTileWidth);
  if (why.empty() && getWarpSlices() != 0 && getWarpSlices() != 1 &&
      getWarpSlices() != 4)
    why = ("warp_slices = " + Twine(getWarpSlices()) + " is not 1 or 4").str();
  if (why.empty())
    why = rangeIneligibility("half_steps", getHalfSteps(), 1, 16);
  Type elem = cast<ShapedType>(op->getOperand(0).getType()).getElementType();
  if (why.empty() && getHalfSteps() && !elem.isF16())
    why = "half_steps needs f16 inputs";
  return why;
}

//===----------------------------------------------------------------------===//
// #dwc.bwd_filter_image
//===----------------------------------------------------------------------===//

int64_t dwc::bwdFilterImageSharedBytes(Operation *op, int64_t channels,
                                       int64_t rows) {
  auto in = cast<ShapedType>(op->getOperand(0).getType());
  auto dy = cast<ShapedType>(op->getOperand(1).getType());
  ArrayRef<int64_t> f = dwShape(op);
  int64_t esize = in.getElementType().getIntOrFloatBitWidth() / 8;
  int64_t sh = cast<DepthwiseConv2DBackwardFilterOp>(op).getStrides()[0];
  rows = std::clamp<int64_t>(rows, 1, dy.getDimSize(1));
  // (rows <= OH <= (IH + padding) / sh: no overflow.)
  int64_t inRows = std::min((rows - 1) * sh + f[0], in.getDimSize(1));
  // (Extents below 2^31, channels at most 1024: the rows fit; their
  // products saturate.)
  int64_t xRow = in.getDimSize(2) * channels * esize;
  xRow += bwdFilterImageRowPadBytes(xRow);
  int64_t dyRow = dy.getDimSize(2) * channels * esize;
  uint64_t bytes = llvm::SaturatingAdd(
      llvm::SaturatingMultiply(uint64_t(inRows), uint64_t(xRow)),
      llvm::SaturatingMultiply(uint64_t(rows), uint64_t(dyRow)));
  return int64_t(
      std::min<uint64_t>(bytes, std::numeric_limits<int64_t>::max()));
}

int64_t dwc::bwdFilterImageBlockSharedBytes(Operation *op, int64_t channels,
                                            int64_t rows, StringRef copy) {
  int64_t strip = bwdFilterImageSharedBytes(op, channels, rows);
  // (Saturated like the strip's bytes.)
  const int64_t max = std::numeric_limits<int64_t>::max();
  if (copy != "async")
    return strip;
  return strip > max / 2 ? max : 2 * strip;
}

StringRef BwdFilterImageKernelAttr::getFamily() const { return getMnemonic(); }
bool BwdFilterImageKernelAttr::isComplete() const {
  return getChannels() && getRows() && getUnits() && !getCopy().empty() &&
         getSegments();
}
std::string BwdFilterImageKernelAttr::whyNotFor(Operation *op) const {
  std::string why = backwardFilterIneligibility(op);
  if (!why.empty())
    return why;
  ArrayRef<int64_t> f = dwShape(op);
  if (f[1] > kBwdFilterImageMaxRowTaps)
    return "filter row of more than 17 taps";
  Type elem = cast<ShapedType>(op->getOperand(0).getType()).getElementType();
  int64_t vec = 128 / elem.getIntOrFloatBitWidth();
  int64_t c = getChannels();
  if (c != 0 && (c < vec || c > 1024 || c % vec != 0))
    return ("channels = " + Twine(c) + " is not a multiple of " + Twine(vec) +
            " in [" + Twine(vec) + ", 1024]")
        .str();
  why = rangeIneligibility("segments", getSegments(), 1,
                           kBwdFilterImageMaxSegments);
  if (!why.empty())
    return why;
  // (segments <= 64, c <= 1024: only FH can make the product overflow.)
  uint64_t threads = llvm::SaturatingMultiply(
      uint64_t(f[0]), uint64_t(getSegments() * c / 2));
  if (c != 0 && threads > 1024)
    return ("segments x FH x channels / 2 = " + Twine(threads) +
            " threads is more than 1024")
        .str();
  why = rangeIneligibility("rows", getRows(), 1,
                           std::numeric_limits<int32_t>::max());
  if (why.empty())
    why = rangeIneligibility("units", getUnits(), 1,
                             std::numeric_limits<int32_t>::max());
  if (why.empty() && !getCopy().empty() && getCopy() != "block" &&
      getCopy() != "thread" && getCopy() != "async")
    why = ("copy = \"" + getCopy() +
           "\" is not one of \"block\", \"thread\", \"async\"")
              .str();
  if (why.empty() && getCopy() == "thread" && getUnits() > 1)
    why = "copy = \"thread\" needs units = 1";
  TargetAttr target = TargetAttr::lookup(op);
  if (why.empty() && getCopy() == "async" && !target.hasAmpereInstructions())
    why = "copy = \"async\" needs cp.async (sm_80 or newer)";
  if (why.empty() && c != 0 && getRows() != 0) {
    int64_t bytes = bwdFilterImageBlockSharedBytes(op, c, getRows(), getCopy());
    int64_t limit = target.getSharedMemoryPerBlock();
    if (bytes > limit)
      why = ("shared memory of " + Twine(bytes) +
             " bytes exceeds the target's " + Twine(limit))
                .str();
  }
  return why;
}

//===----------------------------------------------------------------------===//
// #dwc.bwd_filter_taps
//===----------------------------------------------------------------------===//

StringRef BwdFilterTapsKernelAttr::getFamily() const { return getMnemonic(); }
bool BwdFilterTapsKernelAttr::isComplete() const {
  return getVector() && getColumns() && getRows() && getThreads() &&
         !getReduce().empty();
}
std::string BwdFilterTapsKernelAttr::whyNotFor(Operation *op) const {
  std::string why = backwardFilterIneligibility(op);
  if (!why.empty())
    return why;
  auto bwd = cast<DepthwiseConv2DBackwardFilterOp>(op);
  if (bwd.getStrides()[0] != 1 || bwd.getStrides()[1] != 1)
    return "stride is not 1";
  Type elem = cast<ShapedType>(op->getOperand(0).getType()).getElementType();
  int64_t bits = elem.getIntOrFloatBitWidth(), v = getVector();
  if (v != 0 && v * bits != 64 && v * bits != 128)
    return ("vector = " + Twine(v) + " is not 64 or 128 bits of " +
            Twine(bits) + "-bit elements")
        .str();
  why = rangeIneligibility("columns", getColumns(), 1, kBwdFilterTapsMaxColumns);
  if (why.empty())
    why = rangeIneligibility("rows", getRows(), 1,
                             std::numeric_limits<int32_t>::max());
  if (why.empty())
    why = rangeIneligibility("threads", getThreads(), 32, 1024);
  if (why.empty() && !getReduce().empty() && getReduce() != "block" &&
      getReduce() != "band")
    why = ("reduce = \"" + getReduce() + "\" is not one of \"block\", "
           "\"band\"").str();
  if (why.empty())
    why = rangeIneligibility("unroll", getUnroll(), 1, kBwdFilterTapsMaxUnroll);
  if (why.empty())
    why = rangeIneligibility("prefetch", getPrefetch(), 1, 1);
  if (why.empty())
    why = rangeIneligibility("min_blocks_per_sm", getMinBlocksPerSm(), 1, 32);
  if (!why.empty())
    return why;
  // The sums, the FH dY segments and one input segment stay in f32
  // registers: at most kBwdFilterTapsMaxValues of them. (Extents bounded
  // first: no overflow.)
  ArrayRef<int64_t> f = dwShape(op);
  if (f[0] > kBwdFilterTapsMaxValues || f[1] > kBwdFilterTapsMaxValues)
    return "filter of more than " + std::to_string(kBwdFilterTapsMaxValues) +
           " taps along a side";
  // (Fields left open: the narrowest choice the selector can make.)
  int64_t cols = getColumns() ? getColumns() : 1;
  // (prefetch: the next step's input and dY segments as well.)
  int64_t perVector = f[0] * f[1] + f[0] * cols + cols + f[1] - 1;
  if (getPrefetch())
    perVector += 2 * cols + f[1] - 1;
  int64_t values = perVector * (v ? v : 64 / bits);
  if (values > kBwdFilterTapsMaxValues)
    return ((getPrefetch() ? "(FH x FW + FH x columns + 3 x columns + 2 x "
                             "(FW - 1)) x vector = "
                           : "(FH x FW + FH x columns + columns + FW - 1) x "
                             "vector = ") +
            Twine(values) + " f32 registers is more than " +
            Twine(kBwdFilterTapsMaxValues))
        .str();
  return "";
}
