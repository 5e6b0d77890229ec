//===- Im2winSelection.cpp - configurations of the dense conv2d kernels ---===//
//
// (evidence: docs/KernelSelection.md)
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/KernelSelection.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"

using namespace mlir;
using namespace mlir::dwc;

void dwc::appendIm2winKernelFamilies(SmallVectorImpl<KernelFamily> &) {}
