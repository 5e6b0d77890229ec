//===- DwcOps.h - dwc operations --------------------------------*- C++ -*-===//
//
// Declares the dwc operations and the shape helpers shared by their
// verifiers, builders and lowerings.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_DIALECT_DWC_IR_DWCOPS_H
#define DWC_DIALECT_DWC_IR_DWCOPS_H

#include "dwc/Dialect/Dwc/IR/DwcDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include <optional>

namespace mlir {
namespace dwc {

/// Output extent of a convolution along one spatial dimension:
/// floor((in + padBefore + padAfter - dilation*(window-1) - 1) / stride) + 1.
/// Returns a value < 1 when the (dilated) window does not fit.
int64_t convOutputSize(int64_t in, int64_t window, int64_t stride,
                       int64_t dilation, int64_t padBefore, int64_t padAfter);

/// Applies a fused activation (none: `value` itself) to a float scalar or
/// vector, in its type (see dwc.depthwise_conv2d for the definitions).
/// Shared by every lowering of ops with an `activation` attribute.
///
/// `fastTanh`: sigmoid, silu and gelu_tanh go through an f32 math.tanh
/// marked `afn` (sigmoid(x) = (1 + tanh(x / 2)) / 2), which the GPU
/// lowering turns into one tanh.approx (dwc-approximate-tanh) and a CPU
/// lowering computes exactly. For results rounded to 16 bits, whose
/// rounding is as large as the approximation's error.
Value applyActivation(OpBuilder &b, Location loc, Value value,
                      std::optional<Activation> activation,
                      bool fastTanh = false);

/// Whether an activation is built from arith min/max alone (relu, relu6):
/// monotonic, cheap, and what the pooling fusions accept.
bool isClampActivation(Activation activation);

} // namespace dwc
} // namespace mlir

#define GET_OP_CLASSES
#include "dwc/Dialect/Dwc/IR/DwcOps.h.inc"

#endif // DWC_DIALECT_DWC_IR_DWCOPS_H
