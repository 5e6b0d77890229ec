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

/// Options of the GPU pipeline (dwc -> NVVM -> GPU binary + host code).
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
  PassOptions::Option<bool> fastPaths{
      *this, "fast-paths",
      llvm::cl::desc("Use the optimised kernels (GEMV dataflow, ...) where "
                     "they apply; false: direct kernels only"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> convOptions{
      *this, "conv-options",
      llvm::cl::desc("Extra options of convert-dwc-to-gpu-im2win (dense "
                     "conv2d), e.g. 'async-copy=false double-buffer=false' "
                     "for ablations"),
      llvm::cl::init("")};
  PassOptions::Option<bool> tensorCores{
      *this, "tensor-cores",
      llvm::cl::desc("Use the tensor-core (mma.sync) kernel for eligible "
                     "f16/bf16 depthwise convolutions (with fast-paths)"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> poolOptions{
      *this, "pool-options",
      llvm::cl::desc("Options of convert-dwc-to-gpu-pool, e.g. "
                     "'row-tile=4 tile-acc-regs=96' (tuning sweeps)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> globalPoolOptions{
      *this, "global-pool-options",
      llvm::cl::desc("Options of convert-dwc-to-gpu-global-pool, e.g. "
                     "'channel-tile=8 unroll=4' (tuning sweeps)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> gemvOptions{
      *this, "gemv-options",
      llvm::cl::desc("Extra options of convert-dwc-to-gpu-gemv, e.g. "
                     "'half-vector-bits=128 tm=4' (ablations, tuning)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> mmaOptions{
      *this, "mma-options",
      llvm::cl::desc("Extra options of convert-dwc-to-gpu-mma, e.g. "
                     "'frags-per-stage=1' (ablations, tuning)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> streamOptions{
      *this, "stream-options",
      llvm::cl::desc("Extra options of convert-dwc-to-gpu-mma-stream (the "
                     "streaming wide-filter tensor-core kernel), e.g. "
                     "'rows=4 prefetch=2'; 'max-filter-width=0' turns it off"),
      llvm::cl::init("")};
  PassOptions::Option<int64_t> bwdFilterZ{
      *this, "bwd-filter-z",
      llvm::cl::desc("Accumulation slices of the split-z backward-filter "
                     "kernel (0: chosen from the shape and sm-count)"),
      llvm::cl::init(0)};
  PassOptions::Option<std::string> bwdFilterOptions{
      *this, "bwd-filter-options",
      llvm::cl::desc("Extra options of convert-dwc-to-gpu-backward-filter, "
                     "e.g. 'rows-per-step=4 half-partial-steps=0' (sweeps)"),
      llvm::cl::init("")};
  PassOptions::Option<int64_t> smCount{
      *this, "sm-count",
      llvm::cl::desc("Streaming multiprocessors of the target GPU (for "
                     "work-splitting rules; 0: the chip's, see #dwc.target)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> lowerOtherOps{
      *this, "lower-other-ops",
      llvm::cl::desc("Lower the linalg ops that are not dwc ops (the rest of "
                     "a whole model) to generic GPU kernels; off: they are "
                     "an error"),
      llvm::cl::init(true)};
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
