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
  // Registered by hand rather than through PassPipelineRegistration so that
  // a bad option value fails the pipeline with a message instead of
  // aborting inside the builder.
  registerPassPipeline(
      "dwc-to-nvvm",
      "Lower a dwc program to GPU kernels, NVVM and a GPU binary, with host "
      "code in the LLVM dialect calling the dwc runtime (options: chip, "
      "features, opt-level, format=isa|bin|fatbin, toolkit)",
      [](OpPassManager &pm, StringRef optionString,
         function_ref<LogicalResult(const Twine &)> emitError) {
        DwcToNVVMPipelineOptions options;
        if (failed(options.parseFromString(optionString)))
          return failure();
        return buildDwcToNVVMPipeline(pm, options, emitError);
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) {
        optHandler(DwcToNVVMPipelineOptions());
      });
}
