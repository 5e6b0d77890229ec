//===- Mma.h - rules of the depthwise tensor-core ring/band kernels -*- C++ -*-===//
//
// Which ops the depthwise tensor-core ring/band kernel configurations take: shared by their
// verifiers, dwc-select-kernels and the pass that emits them.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_DIALECT_DWC_IR_CONFIGS_MMA_H
#define DWC_DIALECT_DWC_IR_CONFIGS_MMA_H

#include "mlir/IR/Operation.h"
#include <string>

namespace mlir {
namespace dwc {

} // namespace dwc
} // namespace mlir

#endif // DWC_DIALECT_DWC_IR_CONFIGS_MMA_H
