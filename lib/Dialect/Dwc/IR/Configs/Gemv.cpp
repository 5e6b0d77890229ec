//===- Gemv.cpp - the GEMV and row-tile depthwise kernels' configurations ---===//
//
// The KernelConfigAttrInterface methods of the GEMV and row-tile depthwise configurations
// and the rules of Configs/Gemv.h.
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"

using namespace mlir;
using namespace mlir::dwc;
