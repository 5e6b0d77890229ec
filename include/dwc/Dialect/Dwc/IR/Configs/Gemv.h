//===- Gemv.h - rules of the GEMV and row-tile depthwise kernels -*- C++ -*-===//
//
// Which ops the GEMV and row-tile depthwise kernel configurations take: shared by their
// verifiers, dwc-select-kernels and the pass that emits them.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_DIALECT_DWC_IR_CONFIGS_GEMV_H
#define DWC_DIALECT_DWC_IR_CONFIGS_GEMV_H

#include "mlir/IR/Operation.h"
#include <string>

namespace mlir {
namespace dwc {

} // namespace dwc
} // namespace mlir

#endif // DWC_DIALECT_DWC_IR_CONFIGS_GEMV_H
