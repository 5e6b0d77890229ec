//===- BackwardFilter.cpp - the depthwise backward-filter kernels' configurations ---===//
//
// The KernelConfigAttrInterface methods of the depthwise backward-filter configurations
// and the rules of Configs/BackwardFilter.h.
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"

using namespace mlir;
using namespace mlir::dwc;
