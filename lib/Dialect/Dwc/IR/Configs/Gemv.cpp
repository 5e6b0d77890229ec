//===- Gemv.cpp - the GEMV and row-tile depthwise kernels' configurations ---===//
//
// Which ops #dwc.gemv and #dwc.row_tile take (shared by their verifier,
// dwc-select-kernels and convert-dwc-to-gpu-gemv).
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "llvm/ADT/STLExtras.h"

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
} // namespace

std::string dwc::gemvIneligibility(Operation *op) {
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
  if (llvm::any_of(c->strides, [](int64_t s) { return s != 1; }))
    return "stride is not 1";
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
  std::string why = gemvIneligibility(op);
  if (!why.empty())
    return why;
  ArrayRef<int64_t> f = filterShape(op);
  // (Each extent bounded first: the product cannot overflow.)
  if (f[0] > kRowTileMaxTaps || f[1] > kRowTileMaxTaps ||
      f[0] * f[1] > kRowTileMaxTaps)
    return "filter of more than 49 taps";
  ShapedType out = outType(op);
  why = channelsIneligibility(out.getElementType(), out.getDimSize(3),
                              getChannels());
  if (why.empty())
    why = rangeIneligibility("rows", getRows(), 2, 16);
  if (why.empty())
    why = rangeIneligibility("columns", getColumns(), 1, 8);
  if (why.empty())
    why = choiceIneligibility("filter", getFilter(), {"registers", "global"});
  return why;
}
