//===- Pool.cpp - the pooling and global-pooling kernels' configurations ---===//
//
// The KernelConfigAttrInterface methods of the pooling and global-pooling configurations
// and the rules of Configs/Pool.h.
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"

using namespace mlir;
using namespace mlir::dwc;
