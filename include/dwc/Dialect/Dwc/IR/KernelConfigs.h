//===- KernelConfigs.h - which ops a kernel family can implement -*- C++ -*-===//
//
// The shape rules of each kernel family, shared by the verifier of its
// configuration attribute, dwc-select-kernels and the pass that emits it, so
// that the three cannot disagree about which ops the family takes.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_DIALECT_DWC_IR_KERNELCONFIGS_H
#define DWC_DIALECT_DWC_IR_KERNELCONFIGS_H

#include "dwc/Dialect/Dwc/IR/Configs/BackwardFilter.h"
#include "dwc/Dialect/Dwc/IR/Configs/Gemv.h"
#include "dwc/Dialect/Dwc/IR/Configs/Im2win.h"
#include "dwc/Dialect/Dwc/IR/Configs/Mma.h"
#include "dwc/Dialect/Dwc/IR/Configs/MmaStream.h"
#include "dwc/Dialect/Dwc/IR/Configs/Pool.h"
#include "dwc/Dialect/Dwc/IR/Configs/Strided.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/Operation.h"
#include <optional>
#include <string>

namespace mlir {
namespace dwc {

/// The name of the op attribute holding a kernel configuration.
inline constexpr llvm::StringLiteral kKernelAttrName = "dwc.kernel";

/// Whether the operands of a convolution op are shaped (rank 4, a rank-3
/// filter second, a rank-1 bias): the op's own verifier may not have run yet
/// when the dwc.kernel attribute is verified.
bool hasConvOperandRanks(Operation *op);

/// Why kernel family `family` cannot implement `op` because of a fused
/// prologue or epilogue (a depthwise forward with input_bias, activation or
/// input_activation), or an empty string.
std::string fusionIneligibility(Operation *op, StringRef family);

/// Why kernel family `family` cannot implement `op` because of a channel
/// multiplier M > 1 (a depthwise forward, backward-data or backward-filter
/// op whose output or filter has M channels per input channel), or an empty
/// string. Only the direct kernels take M > 1.
std::string multiplierIneligibility(Operation *op, StringRef family);

/// The operands and attributes of a depthwise convolution forward op (x:
/// the input) or backward-data op (x: dY; backward), as the kernel families
/// of both read them.
struct DepthwiseConvView {
  Value x, w, y;
  Type acc;
  ArrayRef<int64_t> strides, dilations, padding;
  bool backward;
};
/// The view of a dwc.depthwise_conv2d or _backward_data op, else none.
std::optional<DepthwiseConvView> depthwiseConvViewOf(Operation *op);

/// The element type of the shaped value `v`.
inline Type elementTypeOf(Value v) {
  return cast<ShapedType>(v.getType()).getElementType();
}

/// The view of `op` for the rules of a depthwise kernel family: a depthwise
/// forward or backward-data op whose operands and attributes have the
/// expected ranks, whose element type (that of the view's operand `elemOf`)
/// `elemOk` accepts and whose accumulation type is f32. Otherwise none, and
/// `why` says the first of these that fails (`elemWhy` for the element
/// type).
std::optional<DepthwiseConvView>
depthwiseRuleView(Operation *op, Value DepthwiseConvView::*elemOf,
                  function_ref<bool(Type)> elemOk, StringRef elemWhy,
                  std::string &why);

/// Why the dilations or the padding of `c` do not suit a depthwise kernel
/// family that takes dilation 1 and non-negative padding only; or "".
std::string unitDilationIneligibility(const DepthwiseConvView &c);

/// Why the operands of `op` are not static, non-empty, identity-layout
/// buffers or tensors of element type `elem` (null: any) with at most
/// `maxElements` elements each (0: no bound); or "".
std::string operandsIneligibility(Operation *op, Type elem,
                                  int64_t maxElements = 0);

/// Why `v` (0: not set) is not in [lo, hi], naming it `name`; or "".
std::string rangeIneligibility(StringRef name, int64_t v, int64_t lo,
                               int64_t hi);

/// Why `blockThreads` (0: not set, the family's default) is not a power of
/// two in [32, `maxThreads`]; or "".
std::string blockThreadsIneligibility(int64_t blockThreads,
                                      int64_t maxThreads);

/// Why `channels` channels per thread do not suit element type `elem` and
/// `C` channels (a power of two of 32 to 128 bits, 16 bits and up for f32,
/// dividing C), or an empty string.
std::string channelsIneligibility(Type elem, int64_t C, int64_t channels);

} // namespace dwc
} // namespace mlir

#endif // DWC_DIALECT_DWC_IR_KERNELCONFIGS_H
