//===- BackwardFilter.h - rules of the depthwise backward-filter kernels -*- C++ -*-===//
//
// Which ops the depthwise backward-filter kernel configurations take: shared by their
// verifiers, dwc-select-kernels and the pass that emits them.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_DIALECT_DWC_IR_CONFIGS_BACKWARDFILTER_H
#define DWC_DIALECT_DWC_IR_CONFIGS_BACKWARDFILTER_H

#include "mlir/IR/Operation.h"
#include <string>

namespace mlir {
namespace dwc {

} // namespace dwc
} // namespace mlir

#endif // DWC_DIALECT_DWC_IR_CONFIGS_BACKWARDFILTER_H
