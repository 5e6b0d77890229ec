//===- MmaStream.cpp - the streaming wide-filter tensor-core kernels' configurations ---===//
//
// The KernelConfigAttrInterface methods of the streaming wide-filter tensor-core configurations
// and the rules of Configs/MmaStream.h.
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"

using namespace mlir;
using namespace mlir::dwc;
