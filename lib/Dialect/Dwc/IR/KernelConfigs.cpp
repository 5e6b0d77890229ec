//===- KernelConfigs.cpp - kernel configuration attributes ----------------===//
//
// The rules every kernel family shares, the #dwc.direct configuration and the
// dialect's verifier of the dwc.kernel and dwc.target attributes. Each
// family's own rules are in Configs/<Family>.cpp.
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::dwc;

/// Whether the operands are shaped (rank 4, a rank-3 filter second, a
/// rank-1 bias): the op's own verifier may not have run yet when the
/// dwc.kernel attribute is verified.
bool dwc::hasConvOperandRanks(Operation *op) {
  size_t n = op->getNumOperands();
  for (auto [i, v] : llvm::enumerate(op->getOperands())) {
    auto t = dyn_cast<ShapedType>(v.getType());
    // input, filter, per-channel vectors (bias, input_bias), output.
    int64_t rank = i == 1 ? 3 : (i >= 2 && i + 1 < n) ? 1 : 4;
    if (!t || !t.hasRank() || t.getRank() != rank)
      return false;
  }
  return op->getNumOperands() >= 3;
}

std::optional<DepthwiseConvView> dwc::depthwiseConvViewOf(Operation *op) {
  if (auto f = dyn_cast<DepthwiseConv2DOp>(op))
    return DepthwiseConvView{f.getInput(),      f.getFilter(),
                             f.getInit(),       f.getAccType(),
                             f.getStrides(),    f.getDilations(),
                             f.getPadding(),    false};
  if (auto b = dyn_cast<DepthwiseConv2DBackwardDataOp>(op))
    return DepthwiseConvView{b.getOutputGrad(), b.getFilter(),
                             b.getInit(),       b.getAccType(),
                             b.getStrides(),    b.getDilations(),
                             b.getPadding(),    true};
  return std::nullopt;
}

std::optional<DepthwiseConvView>
dwc::depthwiseRuleView(Operation *op, Value DepthwiseConvView::*elemOf,
                       function_ref<bool(Type)> elemOk, StringRef elemWhy,
                       std::string &why) {
  std::optional<DepthwiseConvView> c = depthwiseConvViewOf(op);
  if (!c) {
    why = "not a depthwise convolution forward or backward-data op";
    return std::nullopt;
  }
  if (!hasConvOperandRanks(op) || c->strides.size() != 2 ||
      c->dilations.size() != 2 || c->padding.size() != 4) {
    why = "operands or attributes of the wrong rank";
    return std::nullopt;
  }
  if (!elemOk(elementTypeOf((*c).*elemOf))) {
    why = elemWhy.str();
    return std::nullopt;
  }
  if (!c->acc.isF32()) {
    why = "accumulation type is not f32";
    return std::nullopt;
  }
  return c;
}

std::string dwc::unitDilationIneligibility(const DepthwiseConvView &c) {
  if (llvm::any_of(c.dilations, [](int64_t d) { return d != 1; }))
    return "dilation is not 1";
  if (llvm::any_of(c.padding, [](int64_t p) { return p < 0; }))
    return "negative padding";
  return "";
}

std::string dwc::operandsIneligibility(Operation *op, Type elem,
                                       int64_t maxElements) {
  for (Value v : op->getOperands()) {
    auto t = cast<ShapedType>(v.getType());
    if (elem && t.getElementType() != elem)
      return "operands of different element types";
    auto m = dyn_cast<MemRefType>(t);
    if (m && !m.getLayout().isIdentity())
      return "non-identity layout";
    if (!t.hasStaticShape() ||
        llvm::any_of(t.getShape(), [](int64_t d) { return d <= 0; }))
      return "empty or dynamic operand";
    int64_t count = 1;
    for (int64_t d : t.getShape())
      if (maxElements &&
          (llvm::MulOverflow(count, d, count) || count > maxElements))
        return ("operand of more than 2^" +
                Twine(llvm::Log2_64(maxElements)) + " elements")
            .str();
  }
  return "";
}

std::string dwc::rangeIneligibility(StringRef name, int64_t v, int64_t lo,
                               int64_t hi) {
  if (v == 0 || (v >= lo && v <= hi))
    return "";
  return (name + " = " + Twine(v) + " is not in [" + Twine(lo) + ", " +
          Twine(hi) + "]")
      .str();
}

std::string dwc::blockThreadsIneligibility(int64_t blockThreads,
                                           int64_t maxThreads) {
  if (blockThreads == 0 || (blockThreads >= 32 && blockThreads <= maxThreads &&
                            llvm::isPowerOf2_64(blockThreads)))
    return "";
  return ("block_threads = " + Twine(blockThreads) +
          " is not 0 or a power of two in [32, " + Twine(maxThreads) + "]")
      .str();
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
// #dwc.direct
//===----------------------------------------------------------------------===//

StringRef DirectKernelAttr::getFamily() const { return getMnemonic(); }
bool DirectKernelAttr::isComplete() const { return true; }
std::string DirectKernelAttr::whyNotFor(Operation *op) const {
  if (!isa<DwcDialect>(op->getDialect()))
    return "not a dwc op";
  if (isa<Pool2DBackwardOp>(op))
    return "dwc.pool2d_backward has no direct kernel (#dwc.pool_backward, "
           "on sm_80 or newer)";
  if (isa<DepthwiseConv2DPool2DOp>(op))
    return "a fused convolution + pooling op has no direct kernel (the "
           "pipeline splits the ones #dwc.conv_pool does not take)";
  return "";
}

std::string dwc::fusionIneligibility(Operation *op, StringRef family) {
  auto conv = dyn_cast<DepthwiseConv2DOp>(op);
  if (!conv || !conv.isFused())
    return "";
  // The kernels whose loads and stores apply the prologue and epilogue.
  static constexpr StringLiteral kFusingFamilies[] = {
      "row_tile", "gemv", "plane", "strided_forward", "direct"};
  if (llvm::is_contained(kFusingFamilies, family))
    return "";
  return "the family does not emit a fused prologue or epilogue";
}

/// The channel multiplier of a depthwise op (1 for other ops).
static int64_t channelMultiplierOf(Operation *op) {
  if (auto f = dyn_cast<DepthwiseConv2DOp>(op))
    return f.getMultiplier();
  if (auto d = dyn_cast<DepthwiseConv2DBackwardDataOp>(op))
    return d.getMultiplier();
  if (auto w = dyn_cast<DepthwiseConv2DBackwardFilterOp>(op))
    return w.getMultiplier();
  return 1;
}

std::string dwc::multiplierIneligibility(Operation *op, StringRef family) {
  int64_t m = channelMultiplierOf(op);
  // The other families load one filter channel per input channel and keep
  // input, filter and output on the same channel vectors.
  if (m == 1 || family == DirectKernelAttr::getMnemonic())
    return "";
  return ("channel_multiplier " + Twine(m) +
          ": the family pairs each input channel with one filter channel")
      .str();
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
  std::string why = multiplierIneligibility(op, config.getFamily());
  if (why.empty())
    why = fusionIneligibility(op, config.getFamily());
  if (why.empty())
    why = config.whyNotFor(op);
  if (!why.empty())
    return op->emitError() << "'dwc.kernel' " << attr.getValue()
                           << " does not fit this op: " << why;
  return success();
}
