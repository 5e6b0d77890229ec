//===- Pool.h - rules of the pooling and global-pooling kernels -*- C++ -*-===//
//
// Which ops the pooling and global-pooling kernel configurations take: shared by their
// verifiers, dwc-select-kernels and the pass that emits them.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_DIALECT_DWC_IR_CONFIGS_POOL_H
#define DWC_DIALECT_DWC_IR_CONFIGS_POOL_H

#include "mlir/IR/Operation.h"
#include <string>

namespace mlir {
namespace dwc {

} // namespace dwc
} // namespace mlir

#endif // DWC_DIALECT_DWC_IR_CONFIGS_POOL_H
