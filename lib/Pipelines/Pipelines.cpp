//===- Pipelines.cpp - registration of the named dwc pipelines ------------===//

#include "dwc/Pipelines/Pipelines.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void dwc::registerDwcPipelines() {
  PassPipelineRegistration<>(
      "dwc-to-llvm-cpu",
      "Lower a dwc program to the LLVM dialect for the CPU (reference "
      "semantics through linalg, bufferized, loops, LLVM)",
      buildDwcToLLVMCPUPipeline);
  PassPipelineRegistration<DwcToNVVMPipelineOptions>(
      "dwc-to-nvvm",
      "Lower a dwc program to GPU kernels, NVVM and a GPU binary, with host "
      "code in the LLVM dialect calling the dwc runtime (options: chip, "
      "features, opt-level, format=isa|bin|fatbin, toolkit)",
      buildDwcToNVVMPipeline);
}
