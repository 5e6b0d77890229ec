//===- Strided.cpp - the strided kernels' configurations ------------------===//
//
// Which ops #dwc.strided_forward and #dwc.strided_gather take (shared by
// their verifier, dwc-select-kernels and convert-dwc-to-gpu-strided).
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::dwc;

namespace {

/// Largest stride (per dimension) of the strided kernels: the backward-data
/// gather unrolls one phase per unit of stride (sh * sw stores per super
/// pixel) and the forward tile loads (TH - 1) * sh + FH rows of
/// (TQ - 1) * sw + FW columns, so their code grows with the stride; larger
/// strides take the direct kernels, whose code does not.
constexpr int64_t kStridedMaxStride = 8;

/// Operand element types and layouts the strided kernels read; at most
/// kStridedMaxTaps taps.
std::string operandIneligibility(Operation *op, Type elem) {
  std::string why = operandsIneligibility(op, elem);
  if (!why.empty())
    return why;
  auto f = cast<ShapedType>(op->getOperand(1).getType());
  // (Each extent bounded first: the product cannot overflow.)
  if (f.getDimSize(0) > kStridedMaxTaps || f.getDimSize(1) > kStridedMaxTaps ||
      f.getDimSize(0) * f.getDimSize(1) > kStridedMaxTaps)
    return "filter of more than 49 taps";
  return "";
}

/// Most values a forward tile's unrolled code may compute (FMAs and loaded
/// column vectors): the rows x columns tiles of the widest strides took
/// 8-20 s to compile (a 7x7 stride-8 tile of 8 x 32 outputs, loaded first);
/// the largest stride-2 tile (8 x 32, 7x7) stays below it.
constexpr int64_t kStridedMaxTileValues = 16384;

/// The unrolled values of a forward tile of `rows` x `columns` outputs
/// (clamped to the output, as emitted): TH * TQ * FH * FW FMAs, the input
/// columns loaded per output column, and with `loadsFirst` every column of
/// the tile's span.
int64_t forwardTileValues(DepthwiseConv2DOp op, int64_t rows, int64_t columns,
                          bool loadsFirst) {
  auto f = cast<ShapedType>(op.getFilter().getType()).getShape();
  auto out = cast<ShapedType>(op.getInit().getType()).getShape();
  auto st = op.getStrides();
  int64_t th = std::min(rows, out[1]), tq = std::min(columns, out[2]);
  int64_t inRows = (th - 1) * st[0] + f[0];
  int64_t loaded = loadsFirst ? (tq - 1) * st[1] + f[1]
                              : tq * std::min(st[1], f[1]) + f[1];
  return th * tq * f[0] * f[1] + loaded * inRows;
}

/// The rules a strided configuration's op and channel count must meet.
std::string stridedConfigIneligibility(Operation *op, int64_t channels) {
  std::string why = stridedIneligibility(op);
  if (!why.empty())
    return why;
  auto out = cast<ShapedType>(depthwiseConvViewOf(op)->y.getType());
  return channelsIneligibility(out.getElementType(), out.getDimSize(3),
                               channels);
}
} // namespace

std::string dwc::stridedIneligibility(Operation *op) {
  std::string why;
  std::optional<DepthwiseConvView> c = depthwiseRuleView(
      op, &DepthwiseConvView::y,
      [](Type t) { return t.isF32() || t.isF16() || t.isBF16(); },
      "element type is not f32, f16 or bf16", why);
  if (!c)
    return why;
  if (llvm::all_of(c->strides, [](int64_t s) { return s == 1; }))
    return "stride 1 (the GEMV and tensor-core kernels take it)";
  if (llvm::any_of(c->strides, [](int64_t s) { return s < 1; }))
    return "stride is not positive";
  if (llvm::any_of(c->strides, [](int64_t s) { return s > kStridedMaxStride; }))
    return "stride above " + std::to_string(kStridedMaxStride) +
           " (the kernels unroll per unit of stride)";
  why = unitDilationIneligibility(*c);
  if (!why.empty())
    return why;
  return operandIneligibility(op, elementTypeOf(c->y));
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
  if (why.empty())
    why = rangeIneligibility("loads_first", getLoadsFirst(), 0, 1);
  if (why.empty())
    why = blockThreadsIneligibility(getBlockThreads(),
                                    kStridedMaxBlockThreads);
  if (why.empty() && getRows() && getColumns() &&
      forwardTileValues(cast<DepthwiseConv2DOp>(op), getRows(), getColumns(),
                        getLoadsFirst()) > kStridedMaxTileValues)
    why = "tile of more than " + std::to_string(kStridedMaxTileValues) +
          " unrolled FMAs and loads (compile time)";
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
