//===- GemvSelection.cpp - configurations of the GEMV and row-tile kernels ---===//
//
// (evidence: docs/KernelSelection.md)
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/KernelSelection.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"

using namespace mlir;
using namespace mlir::dwc;

void dwc::appendGemvKernelFamilies(SmallVectorImpl<KernelFamily> &) {}
