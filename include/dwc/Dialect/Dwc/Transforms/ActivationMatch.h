//===- ActivationMatch.h - recognise activation linalg.generic ops -*- C++ -*-===//
//
// Shared by the fusion passes: which of dwc's activations an elementwise
// linalg.generic computes on its one input.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_DIALECT_DWC_TRANSFORMS_ACTIVATIONMATCH_H
#define DWC_DIALECT_DWC_TRANSFORMS_ACTIVATIONMATCH_H

#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include <optional>

namespace mlir::dwc {

/// The activation `g` computes, if it is a unary elementwise linalg.generic
/// (identity maps, parallel iterators, one input, one init, same type in and
/// out) whose body is max(x, 0) (ReLU) or min(max(x, 0), 6) (ReLU6) with
/// arith.maximumf/maxnumf/minimumf/minnumf in either operand order, or
/// whose body, built from arith add/sub/mul/div/neg/min/max and math
/// exp/erf/tanh/sqrt/rsqrt on the input and constants, has the values of
/// exactly one of silu, sigmoid, hardswish, hardsigmoid, gelu, gelu_tanh;
/// std::nullopt otherwise.
std::optional<Activation> matchElementwiseActivation(linalg::GenericOp g);

} // namespace mlir::dwc

#endif // DWC_DIALECT_DWC_TRANSFORMS_ACTIVATIONMATCH_H
