//===- BackwardFilter.cpp - the depthwise backward-filter kernels' configurations ---===//
//
// Which ops #dwc.bwd_filter_stream and #dwc.bwd_filter_split_z take (shared
// by their verifier, dwc-select-kernels and
// convert-dwc-to-gpu-backward-filter).
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "llvm/ADT/STLExtras.h"
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
