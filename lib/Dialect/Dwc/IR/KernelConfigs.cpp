//===- KernelConfigs.cpp - kernel configuration attributes ----------------===//
//
// The KernelConfigAttrInterface methods of each #dwc.<family> attribute and
// the dialect's verifier of the dwc.kernel and dwc.target attributes.
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::dwc;

namespace {
struct ConvOperands {
  Value out;
  Type acc;
  ArrayRef<int64_t> strides, dilations, padding;
};

std::optional<ConvOperands> convOperandsOf(Operation *op) {
  if (auto fwd = dyn_cast<DepthwiseConv2DOp>(op))
    return ConvOperands{fwd.getInit(), fwd.getAccType(), fwd.getStrides(),
                        fwd.getDilations(), fwd.getPadding()};
  if (auto bwd = dyn_cast<DepthwiseConv2DBackwardDataOp>(op))
    return ConvOperands{bwd.getInit(), bwd.getAccType(), bwd.getStrides(),
                        bwd.getDilations(), bwd.getPadding()};
  return std::nullopt;
}

/// Whether the operands are shaped (rank 4, a rank-3 filter second, a
/// rank-1 bias): the op's own verifier may not have run yet when the
/// dwc.kernel attribute is verified.
bool hasConvOperandRanks(Operation *op) {
  for (auto [i, v] : llvm::enumerate(op->getOperands())) {
    auto t = dyn_cast<ShapedType>(v.getType());
    int64_t rank = i == 1 ? 3 : (i == 2 && op->getNumOperands() == 4) ? 1 : 4;
    if (!t || !t.hasRank() || t.getRank() != rank)
      return false;
  }
  return op->getNumOperands() >= 3;
}

/// Operand element types and layouts the strided kernels read.
std::string operandIneligibility(Operation *op, Type elem) {
  for (Value v : op->getOperands()) {
    auto t = cast<ShapedType>(v.getType());
    if (t.getElementType() != elem)
      return "operands of different element types";
    if (t.getRank() == 3 && t.getDimSize(0) * t.getDimSize(1) > kStridedMaxTaps)
      return "filter of more than 49 taps";
    auto m = dyn_cast<MemRefType>(t);
    if (m && !m.getLayout().isIdentity())
      return "non-identity layout";
    if (!t.hasStaticShape() ||
        llvm::any_of(t.getShape(), [](int64_t d) { return d <= 0; }))
      return "empty or dynamic operand";
  }
  return "";
}

std::string rangeIneligibility(StringRef name, int64_t v, int64_t lo,
                               int64_t hi) {
  if (v == 0 || (v >= lo && v <= hi))
    return "";
  return (name + " = " + Twine(v) + " is not in [" + Twine(lo) + ", " +
          Twine(hi) + "]")
      .str();
}

/// The rules a strided configuration's op and channel count must meet.
std::string stridedConfigIneligibility(Operation *op, int64_t channels) {
  std::string why = stridedIneligibility(op);
  if (!why.empty())
    return why;
  auto out = cast<ShapedType>(convOperandsOf(op)->out.getType());
  return channelsIneligibility(out.getElementType(), out.getDimSize(3),
                               channels);
}
} // namespace

std::string dwc::stridedIneligibility(Operation *op) {
  std::optional<ConvOperands> c = convOperandsOf(op);
  if (!c)
    return "not a depthwise convolution forward or backward-data op";
  if (!hasConvOperandRanks(op) || c->strides.size() != 2 ||
      c->dilations.size() != 2 || c->padding.size() != 4)
    return "operands or attributes of the wrong rank";
  Type elem = cast<ShapedType>(c->out.getType()).getElementType();
  if (!elem.isF32() && !elem.isF16() && !elem.isBF16())
    return "element type is not f32, f16 or bf16";
  if (!c->acc.isF32())
    return "accumulation type is not f32";
  if (llvm::all_of(c->strides, [](int64_t s) { return s == 1; }))
    return "stride 1 (the GEMV and tensor-core kernels take it)";
  if (llvm::any_of(c->strides, [](int64_t s) { return s < 1; }))
    return "stride is not positive";
  if (llvm::any_of(c->dilations, [](int64_t d) { return d != 1; }))
    return "dilation is not 1";
  if (llvm::any_of(c->padding, [](int64_t p) { return p < 0; }))
    return "negative padding";
  return operandIneligibility(op, elem);
}

std::string dwc::channelsIneligibility(Type elem, int64_t C,
                                       int64_t channels) {
  if (channels == 0)
    return "";
  // (channels <= 128 first: the product below cannot overflow.)
  int64_t bits = channels > 0 && channels <= 128
                     ? channels * elem.getIntOrFloatBitWidth()
                     : 0;
  if (!llvm::isPowerOf2_64(channels) || bits < 32 || bits > 128)
    return ("channels = " + Twine(channels) + " is not a 32- to 128-bit " +
            "vector of the element type")
        .str();
  if (C % channels != 0)
    return ("channels = " + Twine(channels) + " does not divide C = " +
            Twine(C))
        .str();
  return "";
}

//===----------------------------------------------------------------------===//
// KernelConfigAttrInterface of each family
//===----------------------------------------------------------------------===//

StringRef DirectKernelAttr::getFamily() const { return getMnemonic(); }
bool DirectKernelAttr::isComplete() const { return true; }
std::string DirectKernelAttr::whyNotFor(Operation *op) const {
  return isa<DwcDialect>(op->getDialect()) ? "" : "not a dwc op";
}

StringRef StridedForwardKernelAttr::getFamily() const { return getMnemonic(); }
bool StridedForwardKernelAttr::isComplete() const {
  return getChannels() && getRows() && getColumns();
}
std::string StridedForwardKernelAttr::whyNotFor(Operation *op) const {
  if (!isa<DepthwiseConv2DOp>(op))
    return "not a dwc.depthwise_conv2d";
  std::string why = stridedConfigIneligibility(op, getChannels());
  if (why.empty())
    why = rangeIneligibility("rows", getRows(), 1, 8);
  if (why.empty())
    why = rangeIneligibility("columns", getColumns(), 1, 32);
  return why;
}

StringRef StridedGatherKernelAttr::getFamily() const { return getMnemonic(); }
bool StridedGatherKernelAttr::isComplete() const {
  return getChannels() && getColumns();
}
std::string StridedGatherKernelAttr::whyNotFor(Operation *op) const {
  if (!isa<DepthwiseConv2DBackwardDataOp>(op))
    return "not a dwc.depthwise_conv2d_backward_data";
  std::string why = stridedConfigIneligibility(op, getChannels());
  if (why.empty())
    why = rangeIneligibility("columns", getColumns(), 1, 32);
  return why;
}

//===----------------------------------------------------------------------===//
// Dialect attribute verifier
//===----------------------------------------------------------------------===//

LogicalResult DwcDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  if (attr.getName() == TargetAttr::kAttrName) {
    if (!isa<TargetAttr>(attr.getValue()))
      return op->emitError() << "'dwc.target' must be a #dwc.target, got "
                             << attr.getValue();
    if (!isa<ModuleOp>(op))
      return op->emitError() << "'dwc.target' belongs on a builtin.module";
    return success();
  }
  if (attr.getName() != kKernelAttrName)
    return success(); // other dwc.* markers of the kernel generators
  auto config = dyn_cast<KernelConfigAttrInterface>(attr.getValue());
  if (!config)
    return op->emitError() << "'dwc.kernel' must be a kernel configuration "
                              "(#dwc.direct, #dwc.strided_forward, ...), got "
                           << attr.getValue();
  std::string why = config.whyNotFor(op);
  if (!why.empty())
    return op->emitError() << "'dwc.kernel' " << attr.getValue()
                           << " does not fit this op: " << why;
  return success();
}
