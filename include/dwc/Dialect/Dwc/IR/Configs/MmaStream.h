//===- MmaStream.h - rules of the streaming wide-filter tensor-core kernels -*- C++ -*-===//
//
// Which ops the streaming wide-filter tensor-core kernel configurations take: shared by their
// verifiers, dwc-select-kernels and the pass that emits them.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_DIALECT_DWC_IR_CONFIGS_MMASTREAM_H
#define DWC_DIALECT_DWC_IR_CONFIGS_MMASTREAM_H

#include "mlir/IR/Operation.h"
#include <string>

namespace mlir {
namespace dwc {

} // namespace dwc
} // namespace mlir

#endif // DWC_DIALECT_DWC_IR_CONFIGS_MMASTREAM_H
