//===- GPUPipeline.cpp - dwc to NVVM and a GPU binary ---------------------===//
//
// dwc -> bufferized -> direct/optimised GPU kernels -> NVVM -> cubin/fatbin,
// with host code lowered to LLVM calling the mgpu* runtime entry points.
//
//===----------------------------------------------------------------------===//

#include "dwc/Pipelines/Pipelines.h"
#include "dwc/Conversion/Passes.h"

using namespace mlir;

void dwc::buildDwcToNVVMPipeline(OpPassManager &pm,
                                 const DwcToNVVMPipelineOptions &options) {
  pm.addPass(dwc::createConvertDwcToGPU());
}
