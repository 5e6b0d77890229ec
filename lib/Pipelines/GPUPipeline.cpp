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

#include "dwc/Conversion/Passes.h"
#include "dwc/Dialect/Dwc/IR/DwcTarget.h"
#include "dwc/Dialect/Dwc/Transforms/Passes.h"
#include "dwc/Pipelines/GPUTarget.h"
#include "dwc/Pipelines/GenericGPULowering.h"
#include "dwc/Pipelines/Pipelines.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/RequestCWrappers.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace {
using ErrorFn = function_ref<LogicalResult(const Twine &)>;

/// Adds `pass` after applying the extra textual `extra` options of pipeline
/// option `what` (tuning sweeps, ablations); fails on invalid ones.
LogicalResult addWithOptions(OpPassManager &pm, std::unique_ptr<Pass> pass,
                             StringRef extra, StringRef what,
                             ErrorFn emitError) {
  std::string why;
  if (!extra.empty() &&
      failed(pass->initializeOptions(extra, [&](const Twine &msg) {
        why = msg.str();
        return failure();
      })))
    return emitError("dwc-to-nvvm: invalid " + what + " '" + extra +
                     "': " + why);
  pm.addPass(std::move(pass));
  return success();
}

/// The canonicalizer of kernel code. Bottom-up: a kernel is one large
/// unrolled block, and the default top-down worklist revisits it so often
/// that canonicalization took 13 of 18 s for a 31x31 bf16 kernel; bottom-up
/// reaches the same fixpoint (the same IR, checked on the benchmark
/// kernels) in under a second.
std::unique_ptr<Pass> createKernelCanonicalizer() {
  GreedyRewriteConfig config;
  config.setUseTopDownTraversal(false);
  return createCanonicalizerPass(config);
}

/// 1. Tensors to buffers. Results become trailing out-params; a result
///    allocated in the function is written directly into the caller's
///    buffer (hoist-static-allocs), without a copy.
void addBufferization(OpPassManager &pm) {
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
}

/// The depthwise tensor-core kernels (f16/bf16).
LogicalResult addTensorCoreKernels(OpPassManager &pm,
                                   const dwc::DwcToNVVMPipelineOptions &options,
                                   const dwc::TargetDescription &target,
                                   ErrorFn emitError) {
  // Tensor cores from FW = 9 (narrower filters are faster on the CUDA-core
  // kernels), band packing with filter pairs, split copies and unrolled
  // slices; wide filters stream input rows through registers
  // (docs/KernelSelection.md, "tensor cores").
  pm.addPass(dwc::createConvertDwcToGPUMmaStream());
  dwc::ConvertDwcToGPUMmaOptions mmaOptions;
  mmaOptions.minFilterWidth = 9;
  mmaOptions.bandPacking = true;
  mmaOptions.bandFilterPairs = true;
  mmaOptions.bandCopySplit = true;
  mmaOptions.bandUnroll = true;
  // Band rows / one barrier / filter rows chosen per shape (band-auto=false
  // in mma-options gives the fixed default back); Hopper only, the rule was
  // measured there and its two-row blocks need Hopper's shared memory.
  mmaOptions.bandAuto = target.getSmVersion() == 90;
  return addWithOptions(pm, dwc::createConvertDwcToGPUMma(mmaOptions),
                        options.mmaOptions, "mma-options", emitError);
}

/// 2. dwc ops to GPU kernels: the fast paths where they apply (they need
///    sm_80's cp.async and mma.sync), the direct kernels for the rest.
LogicalResult addKernels(OpPassManager &pm,
                         const dwc::DwcToNVVMPipelineOptions &options,
                         const dwc::TargetDescription &target, ErrorFn emitError) {
  bool fastPaths = options.fastPaths && target.hasAmpereInstructions();
  // Global average pooling and its gradient: the streaming kernels (before
  // the pooling pass, which has a slower block reduction of its own).
  if (fastPaths) {
    if (failed(addWithOptions(pm, dwc::createConvertDwcToGPUGlobalPool(),
                              options.globalPoolOptions, "global-pool-options",
                              emitError)))
      return failure();
  }
  // Pooling first: it takes the fused depthwise convolution + pooling ops
  // it has a kernel for; the rest are split into their two ops for the
  // passes below.
  if (fastPaths &&
      failed(addWithOptions(pm, dwc::createConvertDwcToGPUPool(),
                            options.poolOptions, "pool-options", emitError)))
    return failure();
  pm.addPass(dwc::createDwcDecomposeConvPool());
  // The kernel families selected as IR (docs/KernelSelection.md) get their
  // dwc.kernel configuration here; the passes below emit what it says.
  if (fastPaths)
    pm.addPass(dwc::createDwcSelectKernels());
  if (fastPaths) {
    // Dense conv2d: the im2win GEMM-like kernels (tensor cores for
    // f16/bf16 when allowed); the ablation switches come in conv-options.
    dwc::ConvertDwcToGPUIm2winOptions convOpts;
    convOpts.tensorCores = options.tensorCores;
    // Hopper warpgroup MMA where the target has it (chip=sm_90a; conv-options
    // wgmma=false turns it off): 1.35-1.92x faster than the mma.sync kernel
    // on the 8 f16 layers it takes (bench/results/2026-11-30-conv-wgmma.md).
    convOpts.wgmma = target.hasWgmma();
    if (failed(addWithOptions(pm, dwc::createConvertDwcToGPUIm2win(convOpts),
                              options.convOptions, "conv-options", emitError)))
      return failure();
    if (options.tensorCores &&
        failed(addTensorCoreKernels(pm, options, target, emitError)))
      return failure();
    // (Stride-1 depthwise backward-data ops take the tensor-core and GEMV
    // kernels too, on the rotated filter.)
    if (failed(addWithOptions(pm, dwc::createConvertDwcToGPUGemv(),
                              options.gemvOptions, "gemv-options", emitError)))
      return failure();
    // Strided forward and backward data: register-window and phase-decomposed
    // gather kernels (the direct backward-data kernel tests every tap of
    // every dX pixel for divisibility by the stride).
    pm.addPass(dwc::createConvertDwcToGPUStrided());
    dwc::ConvertDwcToGPUBackwardFilterOptions bwdFilterOptions;
    bwdFilterOptions.z = options.bwdFilterZ;
    if (failed(addWithOptions(
            pm, dwc::createConvertDwcToGPUBackwardFilter(bwdFilterOptions),
            options.bwdFilterOptions, "bwd-filter-options", emitError)))
      return failure();
  }
  pm.addPass(dwc::createConvertDwcToGPU());
  if (options.lowerOtherOps)
    dwc::addGenericGPULowering(pm);
  pm.addPass(dwc::createConvertHostBuffersToGPU());
  pm.addPass(dwc::createDwcCheckLaunchBounds());
  // (No canonicalization before outlining: it would hoist the kernels'
  // constants out of gpu.launch and turn them into kernel arguments.)
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(dwc::createDwcLegalizeKernelNames());
  // Blocks-per-SM markers of the kernel generators become nvvm.minctasm.
  pm.addPass(dwc::createDwcKernelOccupancy());
  // Shared-memory buffers are accessed 128 bits at a time.
  pm.addPass(dwc::createDwcAlignWorkgroupBuffers());
  pm.addNestedPass<gpu::GPUModuleOp>(createKernelCanonicalizer());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<func::FuncOp>(LLVM::createLLVMRequestCWrappersPass());
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  return success();
}

/// Kernels of more than this many operations (after the NVVM lowering) get
/// LLVM -O1 instead of the requested level: the streaming tensor-core
/// kernels (25,000-45,000), whose -O2/-O3 IR took the NVPTX backend's
/// straight-line strength reduction 1.1 s (bench/results/
/// 2026-12-01-compile-time.md); the others (at most ~5,000: row tiles,
/// band kernels, im2win) keep it - at -O1 some of them spill.
constexpr int64_t kLargeKernelOps = 10000;
constexpr int kLargeKernelLLVMOptLevel = 1;

/// Lowers the LLVM level of large kernels' NVVM targets (ptxas keeps its
/// level through the target's ptxas-cmd-options).
struct LargeKernelOptLevel
    : PassWrapper<LargeKernelOptLevel, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LargeKernelOptLevel)
  StringRef getArgument() const final { return "dwc-large-kernel-opt-level"; }
  void runOnOperation() override {
    for (auto module : getOperation().getOps<gpu::GPUModuleOp>()) {
      ArrayAttr targets = module.getTargetsAttr();
      int64_t ops = 0;
      module.walk([&](Operation *) { ++ops; });
      if (!targets || ops <= kLargeKernelOps)
        continue;
      SmallVector<Attribute> lowered;
      for (Attribute a : targets) {
        auto t = dyn_cast<NVVM::NVVMTargetAttr>(a);
        if (t && t.getO() > kLargeKernelLLVMOptLevel)
          a = NVVM::NVVMTargetAttr::get(
              &getContext(), kLargeKernelLLVMOptLevel, t.getTriple(),
              t.getChip(), t.getFeatures(), t.getFlags(), t.getLink(),
              t.getVerifyTarget());
        lowered.push_back(a);
      }
      module.setTargetsAttr(ArrayAttr::get(&getContext(), lowered));
    }
  }
};

/// 3. Device code to NVVM.
void addDeviceToNVVM(OpPassManager &pm,
                     const dwc::DwcToNVVMPipelineOptions &options,
                     const dwc::TargetDescription &target) {
  pm.addPass(dwc::createDwcDetachTarget());
  GpuNVVMAttachTargetOptions attach;
  attach.chip = target.chip;
  attach.features = target.features;
  // ptxas gets the requested level explicitly (the later --opt-level wins
  // over the one the target's O gives it), so that large kernels can take
  // a lower LLVM level below.
  attach.optLevel = options.optLevel;
  attach.cmdOptions = "--opt-level " + std::to_string(options.optLevel);
  pm.addPass(createGpuNVVMAttachTarget(attach));
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertNVGPUToNVVMPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps());
  pm.addNestedPass<gpu::GPUModuleOp>(createKernelCanonicalizer());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());
  pm.addPass(std::make_unique<LargeKernelOptLevel>());
}

/// 4. Host code to LLVM (launches become mgpu* runtime calls).
void addHostToLLVM(OpPassManager &pm) {
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}
} // namespace

LogicalResult
dwc::buildDwcToNVVMPipeline(OpPassManager &pm,
                            const DwcToNVVMPipelineOptions &options,
                            ErrorFn emitError) {
  FailureOr<TargetDescription> target = resolveTarget(
      options.chip, options.features, options.smCount, emitError);
  if (failed(target))
    return failure();
  StringRef format = options.format;
  if (format != "isa" && format != "bin" && format != "fatbin")
    return emitError("dwc-to-nvvm: format '" + format +
                     "' is not one of isa (PTX text), bin (cubin), fatbin");
  if (options.optLevel < 0 || options.optLevel > 3)
    return emitError("dwc-to-nvvm: opt-level " + Twine(options.optLevel) +
                     " is not in [0, 3]");
  std::string toolkit = options.toolkit;
  if (format != "isa" &&
      failed(resolveCudaToolkit(options.toolkit, toolkit, emitError)))
    return failure();

  DwcAttachTargetOptions attach;
  attach.chip = target->chip;
  attach.features = target->features;
  attach.smCount = target->smCount;
  pm.addPass(createDwcAttachTarget(attach));
  addBufferization(pm);
  if (failed(addKernels(pm, options, *target, emitError)))
    return failure();
  addDeviceToNVVM(pm, options, *target);
  addHostToLLVM(pm);

  // 5. Kernels to PTX / cubin / fatbin, embedded in the module. (Not
  //    before the host lowering, although its module passes walk every
  //    kernel: convert-to-llvm also finishes the wgmma kernels' lowering.)
  GpuModuleToBinaryPassOptions binOpts;
  binOpts.compilationTarget = options.format;
  binOpts.toolkitPath = toolkit;
  pm.addPass(createGpuModuleToBinaryPass(binOpts));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  return success();
}
