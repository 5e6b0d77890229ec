//===- PoolSelection.cpp - configurations of the pooling and global pooling (the fused convolution + pooling ops first) kernels ---===//
//
// (evidence: docs/KernelSelection.md)
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/KernelSelection.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"

using namespace mlir;
using namespace mlir::dwc;

void dwc::appendPoolKernelFamilies(SmallVectorImpl<KernelFamily> &) {}
