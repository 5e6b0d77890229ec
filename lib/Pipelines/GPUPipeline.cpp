//===- GPUPipeline.cpp - dwc to NVVM and a GPU binary ---------------------===//
//
// dwc -> bufferized -> direct/optimised GPU kernels -> NVVM -> cubin/fatbin,
// with host code lowered to LLVM calling the mgpu* runtime entry points.
//
// Host ABI of a compiled function. A tensor-level function
//
//   func.func @f(%a: tensor<A>, %b: tensor<B>) -> (tensor<R0>, tensor<R1>)
//
// becomes, after bufferization and buffer-results-to-out-params, the host
// function @f(memref<A>, memref<B>, memref<R0>, memref<R1>) (inputs first,
// then one caller-allocated output buffer per result, in result order), and
// LLVM's C interface wrapper
//
//   void _mlir_ciface_f(D<A> *a, D<B> *b, D<R0> *r0, D<R1> *r1);
//
// where D<T> is the standard ranked memref descriptor of rank r:
//   struct { T *allocated; T *aligned; int64_t offset;
//            int64_t sizes[r]; int64_t strides[r]; }
// Every buffer is device memory (a CUdeviceptr in both pointer fields); the
// layout is the identity (row-major, offset 0). The function launches its
// kernels on one stream created by mgpuStreamCreate and synchronises it
// before returning.
//
//===----------------------------------------------------------------------===//

#include "dwc/Pipelines/Pipelines.h"
#include "dwc/Conversion/Passes.h"
#include "dwc/Dialect/Dwc/Transforms/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/RequestCWrappers.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;

/// Adds `pass` after applying the extra textual `extra` options of pipeline
/// option `what` (tuning sweeps, ablations); invalid ones end the program
/// with a message (the pipeline builder cannot return an error).
static void addWithOptions(OpPassManager &pm, std::unique_ptr<Pass> pass,
                           StringRef extra, StringRef what) {
  if (!extra.empty() &&
      failed(pass->initializeOptions(extra, [&](const Twine &msg) {
        llvm::errs() << "dwc-to-nvvm: " << what << ": " << msg << "\n";
        return failure();
      })))
    llvm::report_fatal_error("dwc-to-nvvm: invalid " + Twine(what) + " '" +
                                 Twine(extra) + "'",
                             /*gen_crash_diag=*/false);
  pm.addPass(std::move(pass));
}

void dwc::buildDwcToNVVMPipeline(OpPassManager &pm,
                                 const DwcToNVVMPipelineOptions &options) {
  // 1. Tensors to buffers. Results become trailing out-params; a result
  //    allocated in the function is written directly into the caller's
  //    buffer (hoist-static-allocs), without a copy.
  pm.addPass(dwc::createDwcFuseActivation());
  pm.addPass(dwc::createDwcFuseConvPool());
  pm.addPass(createCanonicalizerPass());
  bufferization::OneShotBufferizePassOptions bufOpts;
  bufOpts.bufferizeFunctionBoundaries = true;
  bufOpts.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufOpts));
  pm.addPass(bufferization::createDropEquivalentBufferResultsPass());
  bufferization::BufferResultsToOutParamsPassOptions outOpts;
  outOpts.hoistStaticAllocs = true;
  outOpts.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outOpts));
  pm.addPass(createCanonicalizerPass());
  bufferization::BufferDeallocationPipelineOptions deallocOpts;
  bufferization::buildBufferDeallocationPipeline(pm, deallocOpts);

  // 2. dwc ops to GPU kernels; host buffers are device buffers.
  // Pooling first: it takes the fused depthwise convolution + pooling ops
  // it has a kernel for; the rest are split into their two ops for the
  // passes below.
  if (options.fastPaths)
    addWithOptions(pm, dwc::createConvertDwcToGPUPool(), options.poolOptions,
                   "pool-options");
  pm.addPass(dwc::createDwcDecomposeConvPool());
  if (options.fastPaths) {
    // Dense conv2d: the im2win GEMM-like kernels (tensor cores for
    // f16/bf16 when allowed); the ablation switches come in conv-options.
    dwc::ConvertDwcToGPUIm2winOptions convOpts;
    convOpts.tensorCores = options.tensorCores;
    // Hopper warpgroup MMA where the target has it (chip=sm_90a; conv-options
    // wgmma=false turns it off): 1.35-1.92x faster than the mma.sync kernel
    // on the 8 f16 layers it takes (bench/results/2026-11-30-conv-wgmma.md).
    convOpts.wgmma = options.chip == "sm_90a";
    addWithOptions(pm, dwc::createConvertDwcToGPUIm2win(convOpts),
                   options.convOptions, "conv-options");
    if (options.tensorCores) {
      // Tensor cores from FW = 9 (the row-ring kernel); narrower filters
      // run faster on the CUDA-core GEMV kernel (measured on the H200,
      // bench/results/2026-11-30-fwd16-v3.md). Band packing with filter
      // pairs, split copies and unrolled slices: 1.15-2.6x the fragment
      // ring (bench/results/2026-11-30-fwd16-ldm.md).
      // Wide filters: the streaming band kernel (each input row loaded once
      // per row block into registers and multiplied with every filter row
      // it meets).
      addWithOptions(pm, dwc::createConvertDwcToGPUMmaStream(),
                     options.streamOptions, "stream-options");
      dwc::ConvertDwcToGPUMmaOptions mmaOptions;
      mmaOptions.minFilterWidth = 9;
      mmaOptions.bandPacking = true;
      mmaOptions.bandFilterPairs = true;
      mmaOptions.bandCopySplit = true;
      mmaOptions.bandUnroll = true;
      // Band rows / one barrier / filter rows per shape, as measured on the
      // H200 (bench/results/2026-11-30-fwd16-rows.md): 1.0-1.22x the
      // previous default, which band-auto=false in mma-options gives back.
      // Hopper only: its two-row blocks take up to 227 KB of shared memory.
      mmaOptions.bandAuto = StringRef(options.chip).starts_with("sm_90");
      addWithOptions(pm, dwc::createConvertDwcToGPUMma(mmaOptions),
                     options.mmaOptions, "mma-options");
    }
    // (Stride-1 depthwise backward-data ops take the tensor-core and GEMV
    // kernels too, on the rotated filter.)
    addWithOptions(pm, dwc::createConvertDwcToGPUGemv(), options.gemvOptions,
                   "gemv-options");
    // Strided forward and backward data: register-window and phase-decomposed
    // gather kernels (the direct backward-data kernel tests every tap of
    // every dX pixel for divisibility by the stride).
    addWithOptions(pm, dwc::createConvertDwcToGPUStrided(),
                   options.stridedOptions, "strided-options");
    dwc::ConvertDwcToGPUBackwardFilterOptions bwdFilterOptions;
    bwdFilterOptions.z = options.bwdFilterZ;
    bwdFilterOptions.smCount = options.smCount;
    addWithOptions(pm,
                   dwc::createConvertDwcToGPUBackwardFilter(bwdFilterOptions),
                   options.bwdFilterOptions, "bwd-filter-options");
  }
  pm.addPass(dwc::createConvertDwcToGPU());
  pm.addPass(dwc::createConvertHostBuffersToGPU());
  // (No canonicalization before outlining: it would hoist the kernels'
  // constants out of gpu.launch and turn them into kernel arguments.)
  pm.addPass(createGpuKernelOutliningPass());
  // Blocks-per-SM markers of the kernel generators become nvvm.minctasm.
  pm.addPass(dwc::createDwcKernelOccupancy());
  // Shared-memory buffers are accessed 128 bits at a time.
  pm.addPass(dwc::createDwcAlignWorkgroupBuffers());
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<func::FuncOp>(LLVM::createLLVMRequestCWrappersPass());
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());

  // 3. Device code to NVVM.
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertNVGPUToNVVMPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps());
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());

  // 4. Host code to LLVM (launches become mgpu* runtime calls).
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());

  // 5. Kernels to PTX / cubin / fatbin, embedded in the module.
  GpuModuleToBinaryPassOptions binOpts;
  binOpts.compilationTarget = options.format;
  binOpts.toolkitPath = options.toolkit;
  pm.addPass(createGpuModuleToBinaryPass(binOpts));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}
