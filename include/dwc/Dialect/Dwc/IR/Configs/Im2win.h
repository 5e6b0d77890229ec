//===- Im2win.h - rules of the dense conv2d im2win kernels -*- C++ -*-===//
//
// Which ops the dense conv2d im2win kernel configurations take: shared by their
// verifiers, dwc-select-kernels and the pass that emits them.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_DIALECT_DWC_IR_CONFIGS_IM2WIN_H
#define DWC_DIALECT_DWC_IR_CONFIGS_IM2WIN_H

#include "mlir/IR/Operation.h"
#include <string>

namespace mlir {
namespace dwc {

} // namespace dwc
} // namespace mlir

#endif // DWC_DIALECT_DWC_IR_CONFIGS_IM2WIN_H
