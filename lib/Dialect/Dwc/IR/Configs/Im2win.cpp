//===- Im2win.cpp - the dense conv2d im2win kernels' configurations ---===//
//
// The KernelConfigAttrInterface methods of the dense conv2d im2win configurations
// and the rules of Configs/Im2win.h.
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"

using namespace mlir;
using namespace mlir::dwc;
