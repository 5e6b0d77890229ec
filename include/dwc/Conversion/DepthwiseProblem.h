//===- DepthwiseProblem.h - a depthwise conv as the forward kernels see it -*- C++ -*-===//
//
// The stride-1 forward kernels (CUDA-core GEMV, tensor cores) compute
// y = x (*) w with top/left padding pt/pl. Backward data is the same
// computation on dY with the 180-degree rotated filter and the transposed
// padding (top' = FH-1-top, left' = FW-1-left; bottom/right follow from the
// shapes), the rotation fused into the filter loads (tap (FH-1-i, FW-1-j)).
// These builders give both ops that one form; eligibility checks stay with
// each pass.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_CONVERSION_DEPTHWISEPROBLEM_H
#define DWC_CONVERSION_DEPTHWISEPROBLEM_H

#include "dwc/Conversion/FusedEdges.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include <limits>
#include <string>

namespace mlir {
namespace dwc {

struct DepthwiseProblem {
  Value x, w, bias, y;
  int64_t pt = 0, pl = 0;
  bool rotateFilter = false;
  /// The forward op's strides (1 for backward data; the kernels that take
  /// only stride 1 refuse other strides in their eligibility rules).
  int64_t sh = 1, sw = 1;
  /// The forward op's fused prologue and epilogue (FusedEdges.h).
  DepthwiseFusion fusion;
};

inline DepthwiseProblem forwardProblem(DepthwiseConv2DOp op) {
  auto pad = op.getPadding();
  return DepthwiseProblem{op.getInput(),  op.getFilter(), op.getBias(),
                          op.getInit(),   pad[0],         pad[2],
                          /*rotateFilter=*/false,
                          op.getStrides()[0], op.getStrides()[1],
                          DepthwiseFusion::of(op)};
}

/// The sizes of a problem: x is N x IH x IW x C, w FH x FW x C, y
/// N x OH x OW x C.
/// Why a depthwise convolution with these operands cannot take the mma.sync
/// kernels (memref form, min <= FW <= max, f16/bf16 with f32 accumulation,
/// unit strides and dilations, C % 8 == 0, identity layouts, a non-empty
/// output), or an empty string.
inline std::string
mmaIneligibility(Operation *op, Value x, Value w, Value y, Type acc,
                 ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                 int64_t minFilterWidth,
                 int64_t maxFilterWidth = std::numeric_limits<int64_t>::max()) {
  auto init = dyn_cast<MemRefType>(y.getType());
  if (!init)
    return "tensor form (bufferize first)";
  int64_t FW = cast<MemRefType>(w.getType()).getShape()[1];
  if (FW < minFilterWidth)
    return "filter narrower than min-filter-width";
  if (FW > maxFilterWidth)
    return "filter wider than max-filter-width";
  auto in = cast<MemRefType>(x.getType());
  Type et = in.getElementType();
  if (!et.isF16() && !et.isBF16())
    return "element type is not f16 or bf16";
  if (!acc.isF32())
    return "accumulation type is not f32";
  if (llvm::any_of(strides, [](int64_t s) { return s != 1; }))
    return "stride is not 1";
  if (llvm::any_of(dilations, [](int64_t d) { return d != 1; }))
    return "dilation is not 1";
  if (in.getShape()[3] % 8 != 0)
    return "channel count is not a multiple of 8";
  for (Value v : op->getOperands())
    if (!cast<MemRefType>(v.getType()).getLayout().isIdentity())
      return "non-identity layout";
  if (llvm::any_of(init.getShape(), [](int64_t d) { return d <= 0; }))
    return "empty output";
  return "";
}

struct DepthwiseSizes {
  int64_t N, IH, IW, C, FH, FW, OH, OW;
};

inline DepthwiseSizes sizesOf(const DepthwiseProblem &p) {
  auto in = cast<MemRefType>(p.x.getType()).getShape();
  auto f = cast<MemRefType>(p.w.getType()).getShape();
  auto out = cast<MemRefType>(p.y.getType()).getShape();
  return DepthwiseSizes{in[0], in[1], in[2], in[3], f[0], f[1], out[1], out[2]};
}

/// Fails (with `why`) when the transposed padding would be negative.
inline FailureOr<DepthwiseProblem>
backwardDataProblem(DepthwiseConv2DBackwardDataOp op, std::string &why) {
  auto f = cast<MemRefType>(op.getFilter().getType()).getShape();
  auto pad = op.getPadding();
  int64_t pt = f[0] - 1 - pad[0], pl = f[1] - 1 - pad[2];
  if (pt < 0 || pl < 0) {
    why = "padding larger than the filter extent minus one (negative "
          "transposed padding)";
    return failure();
  }
  return DepthwiseProblem{op.getOutputGrad(), op.getFilter(), Value(),
                          op.getInit(), pt, pl, /*rotateFilter=*/true};
}

/// The stride-1 problem of a forward or a backward-data op (the latter on
/// the rotated filter; it fails with `why` as backwardDataProblem).
inline FailureOr<DepthwiseProblem> depthwiseProblemOf(Operation *op,
                                                      std::string &why) {
  if (auto fwd = dyn_cast<DepthwiseConv2DOp>(op))
    return forwardProblem(fwd);
  return backwardDataProblem(cast<DepthwiseConv2DBackwardDataOp>(op), why);
}

} // namespace dwc
} // namespace mlir

#endif // DWC_CONVERSION_DEPTHWISEPROBLEM_H
