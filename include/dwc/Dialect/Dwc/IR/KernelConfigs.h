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

/// Why the operands of `op` are not static, non-empty, identity-layout
/// buffers or tensors of element type `elem` (null: any) with at most
/// `maxElements` elements each (0: no bound); or "".
std::string operandsIneligibility(Operation *op, Type elem,
                                  int64_t maxElements = 0);

/// Why `v` (0: not set) is not in [lo, hi], naming it `name`; or "".
std::string rangeIneligibility(StringRef name, int64_t v, int64_t lo,
                               int64_t hi);

/// Why `channels` channels per thread do not suit element type `elem` and
/// `C` channels (a power of two of 32 to 128 bits, 16 bits and up for f32,
/// dividing C), or an empty string.
std::string channelsIneligibility(Type elem, int64_t C, int64_t channels);

} // namespace dwc
} // namespace mlir

#endif // DWC_DIALECT_DWC_IR_KERNELCONFIGS_H
