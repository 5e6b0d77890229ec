//===- ActivationMatch.h - recognise ReLU/ReLU6 linalg.generic ops -*- C++ -*-===//
//
// Shared by the fusion passes: whether a linalg.generic is exactly an
// elementwise ReLU or ReLU6 of its one input.
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
/// out) whose body is exactly max(x, 0) (ReLU) or min(max(x, 0), 6)
/// (ReLU6), with arith.maximumf/maxnumf/minimumf/minnumf in either operand
/// order; std::nullopt otherwise.
std::optional<Activation> matchElementwiseActivation(linalg::GenericOp g);

} // namespace mlir::dwc

#endif // DWC_DIALECT_DWC_TRANSFORMS_ACTIVATIONMATCH_H
