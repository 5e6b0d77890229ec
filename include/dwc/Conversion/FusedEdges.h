//===- FusedEdges.h - a depthwise forward's fused prologue and epilogue -*- C++ -*-===//
//
// A dwc.depthwise_conv2d may carry the neighbouring element-wise layers: a
// prologue x' = input_activation(x + input_bias[c]) applied to the input as
// it is loaded (zeros stay zeros: padding belongs to the activated tensor)
// and an epilogue activation applied to the sum before it is rounded and
// stored. The kernels that take fused ops (fusionIneligibility) apply both
// through this one emitter, on f32 channel vectors.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_CONVERSION_FUSEDEDGES_H
#define DWC_CONVERSION_FUSEDEDGES_H

#include "dwc/Conversion/IndexEmitter.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "mlir/IR/TypeUtilities.h"
#include <optional>

namespace mlir::dwc {

/// The fused edges of a depthwise op (none for ops without them).
struct DepthwiseFusion {
  Value inBias;
  std::optional<Activation> inAct, act;
  /// 16-bit input and output: sigmoid, silu and gelu_tanh through a fast
  /// tanh (applyActivation; on the GPU one tanh.approx, half the MUFU work
  /// of an exponential and a reciprocal: the MUFU pipe bounds a 16-bit
  /// kernel with SiLU on both edges, and the approximation's error is the
  /// size of the 16-bit rounding). f32 keeps the exact forms.
  bool approximate = false;

  static DepthwiseFusion of(Operation *op) {
    auto conv = dyn_cast<DepthwiseConv2DOp>(op);
    if (!conv)
      return {};
    bool narrow = !getElementTypeOrSelf(conv.getInput().getType()).isF32();
    return {conv.getInputBias(), conv.getInputActivation(),
            conv.getActivation(), narrow};
  }
  bool hasPrologue() const { return inBias || inAct; }
  /// `x` through `a` as this op's kernels compute it.
  Value activate(OpBuilder &b, Location loc, Value x,
                 std::optional<Activation> a) const {
    return applyActivation(b, loc, x, a, approximate);
  }
};

/// One thread's prologue and epilogue on the f32 vectors of its channels.
struct FusionEmitter {
  DepthwiseFusion fusion;
  /// input_bias of the thread's channels, loaded once (prepare()).
  Value inBiasVec;

  /// Loads what the prologue needs for the channels starting at `c` (an
  /// in-bounds channel index).
  void prepare(F32VectorEmitter &e, Value c) {
    if (fusion.inBias)
      inBiasVec = e.load(fusion.inBias, ValueRange{c});
  }
  /// The input vector as the convolution reads it: `x` loaded (f32) from a
  /// clamped address, through the prologue, zero where `ok` is false.
  Value input(F32VectorEmitter &e, Value x, Value ok) {
    if (inBiasVec)
      x = arith::AddFOp::create(e.b, e.loc, x, inBiasVec);
    x = fusion.activate(e.b, e.loc, x, fusion.inAct);
    return e.select(ok, x, e.zeros());
  }
  /// The sum as stored (before rounding).
  Value output(F32VectorEmitter &e, Value acc) {
    return fusion.activate(e.b, e.loc, acc, fusion.act);
  }
};

} // namespace mlir::dwc

#endif // DWC_CONVERSION_FUSEDEDGES_H
