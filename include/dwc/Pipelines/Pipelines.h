//===- Pipelines.h - named dwc pass pipelines -------------------*- C++ -*-===//
//
// The pass pipelines users run from dwc-opt: dwc programs to LLVM for the CPU
// reference, and to GPU binaries.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_PIPELINES_PIPELINES_H
#define DWC_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include <string>

namespace mlir {
namespace dwc {

/// Builds the CPU reference pipeline: dwc -> linalg -> loops -> LLVM.
void buildDwcToLLVMCPUPipeline(OpPassManager &pm);

/// One-shot bufferization of whole modules as both pipelines run it:
/// function boundaries bufferized, identity layouts at the boundaries.
void addOneShotBufferization(OpPassManager &pm);

/// Options of the GPU pipeline (dwc -> NVVM -> GPU binary + host code): the
/// target and the output only. Which kernel implements each op is not an
/// option: dwc-select-kernels records it as the op's dwc.kernel
/// configuration, and a configuration written in the input is kept.
struct DwcToNVVMPipelineOptions
    : public PassPipelineOptions<DwcToNVVMPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("GPU architecture (sm_90a: Hopper warpgroup MMA in the "
                     "dense conv2d kernels)"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX ISA version, e.g. +ptx80 (default: +ptx80, or the "
                     "chip's minimum where that is higher)"),
      llvm::cl::init("")};
  PassOptions::Option<int> optLevel{*this, "opt-level",
                                    llvm::cl::desc("Device optimisation level: "
                                                   "ptxas -O<n>, LLVM's device "
                                                   "passes at min(n, 1)"),
                                    llvm::cl::init(3)};
  PassOptions::Option<std::string> format{
      *this, "format", llvm::cl::desc("Binary format: isa | bin | fatbin"),
      llvm::cl::init("fatbin")};
  PassOptions::Option<int64_t> smCount{
      *this, "sm-count",
      llvm::cl::desc("Streaming multiprocessors of the target GPU (for "
                     "work-splitting rules; 0: the chip's, see #dwc.target)"),
      llvm::cl::init(0)};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit directory holding bin/ptxas (default: "
                     "$CUDA_HOME, /usr/local/cuda or ptxas on PATH)"),
      llvm::cl::init("")};
};

/// Builds the GPU pipeline: dwc ops -> bufferized -> gpu kernels -> NVVM ->
/// binary, with host code that calls the mgpu* runtime entry points. Fails,
/// reporting through `emitError`, on a bad chip, PTX version, format,
/// toolkit or extra pass-option string.
LogicalResult
buildDwcToNVVMPipeline(OpPassManager &pm,
                       const DwcToNVVMPipelineOptions &options,
                       function_ref<LogicalResult(const Twine &)> emitError);

/// Registers every named dwc pipeline with the global pass registry.
void registerDwcPipelines();

} // namespace dwc
} // namespace mlir

#endif // DWC_PIPELINES_PIPELINES_H
