//===- MmaSelection.cpp - configurations of the tensor-core ring/band kernels ---===//
//
// (evidence: docs/KernelSelection.md)
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/KernelSelection.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"

using namespace mlir;
using namespace mlir::dwc;

void dwc::appendMmaKernelFamilies(SmallVectorImpl<KernelFamily> &) {}
