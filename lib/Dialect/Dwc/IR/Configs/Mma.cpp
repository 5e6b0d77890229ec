//===- Mma.cpp - the depthwise tensor-core ring/band kernels' configurations ---===//
//
// The KernelConfigAttrInterface methods of the depthwise tensor-core ring/band configurations
// and the rules of Configs/Mma.h.
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"

using namespace mlir;
using namespace mlir::dwc;
