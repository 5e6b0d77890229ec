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
// then one caller-allocated output buffer per result, in result order; a
// result that repeats another or is an argument is written as a copy of its
// own, dwc-copy-repeated-results), and
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
#include <atomic>
#include <memory>
#include <optional>

using namespace mlir;

namespace {
using ErrorFn = function_ref<LogicalResult(const Twine &)>;

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
  // One output buffer per result: buffer-results-to-out-params crashes on a
  // buffer returned twice, drop-equivalent-buffer-results drops a returned
  // argument from the ABI.
  pm.addPass(dwc::createDwcCopyRepeatedResults());
  dwc::addOneShotBufferization(pm);
  pm.addPass(bufferization::createDropEquivalentBufferResultsPass());
  bufferization::BufferResultsToOutParamsPassOptions outOpts;
  outOpts.hoistStaticAllocs = true;
  outOpts.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outOpts));
  pm.addPass(createCanonicalizerPass());
  bufferization::BufferDeallocationPipelineOptions deallocOpts;
  bufferization::buildBufferDeallocationPipeline(pm, deallocOpts);
}

/// 2. dwc ops to GPU kernels. dwc-select-kernels records the kernel of
///    every op as its dwc.kernel configuration (docs/KernelSelection.md);
///    each family's pass emits the ops configured for it, the direct
///    kernels the rest; the other linalg ops of a whole model become generic
///    kernels.
void addKernels(OpPassManager &pm) {
  // Selected before the split of the fused convolution + pooling ops, so
  // that those the fused kernel takes keep their configuration (and are not
  // split); a second run configures the split ops (given configurations are
  // kept).
  pm.addPass(dwc::createDwcSelectKernels());
  pm.addPass(dwc::createDwcDecomposeConvPool());
  pm.addPass(dwc::createDwcSelectKernels());
  pm.addPass(dwc::createConvertDwcToGPUGlobalPool());
  pm.addPass(dwc::createConvertDwcToGPUPool());
  pm.addPass(dwc::createConvertDwcToGPUIm2win());
  pm.addPass(dwc::createConvertDwcToGPUMmaStream());
  pm.addPass(dwc::createConvertDwcToGPUMma());
  pm.addPass(dwc::createConvertDwcToGPUGemv());
  pm.addPass(dwc::createConvertDwcToGPUStrided());
  pm.addPass(dwc::createConvertDwcToGPUBackwardFilter());
  pm.addPass(dwc::createConvertDwcToGPU());
  dwc::addGenericGPULowering(pm);
}

/// 3. Kernels outlined and prepared for NVVM; host code on its stream.
void addOutlining(OpPassManager &pm) {
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
}

/// Kernels of more than this many operations (after the NVVM lowering) get
/// LLVM -O1 instead of the requested level: the streaming tensor-core
/// kernels (25,000-45,000), whose -O2/-O3 IR took the NVPTX backend's
/// straight-line strength reduction 1.1 s (measured 2026-12-01); the others
/// (at most ~5,000: row tiles, band kernels, im2win) keep it - at -O1 some
/// of them spill.
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

/// Whether a diagnostic of error severity was reported while the pipeline
/// ran, shared by the passes that watch for one.
struct ErrorWatch {
  std::atomic<bool> sawError{false};
  MLIRContext *context = nullptr;
  std::optional<DiagnosticEngine::HandlerID> handler;

  /// Stops watching (a run that failed before FailOnErrors left it on).
  void stop() {
    if (handler)
      context->getDiagEngine().eraseHandler(*handler);
    handler.reset();
  }
};

/// Starts watching for error diagnostics. Some upstream passes report an
/// error without failing (gpu-module-to-binary on a bad CUDA path), which
/// would end in a zero exit status after an error message.
struct WatchErrors : PassWrapper<WatchErrors, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(WatchErrors)
  std::shared_ptr<ErrorWatch> watch;
  explicit WatchErrors(std::shared_ptr<ErrorWatch> watch)
      : watch(std::move(watch)) {}
  StringRef getArgument() const final { return "dwc-watch-errors"; }
  void runOnOperation() override {
    watch->stop();
    watch->sawError = false;
    watch->context = &getContext();
    std::shared_ptr<ErrorWatch> w = watch;
    watch->handler = getContext().getDiagEngine().registerHandler(
        [w](Diagnostic &d) {
          if (d.getSeverity() == DiagnosticSeverity::Error)
            w->sawError = true;
          return failure(); // the next handler prints it
        });
  }
};

/// Fails the pipeline if an error was reported since WatchErrors.
struct FailOnErrors : PassWrapper<FailOnErrors, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FailOnErrors)
  std::shared_ptr<ErrorWatch> watch;
  explicit FailOnErrors(std::shared_ptr<ErrorWatch> watch)
      : watch(std::move(watch)) {}
  StringRef getArgument() const final { return "dwc-fail-on-errors"; }
  void runOnOperation() override {
    watch->stop();
    if (watch->sawError.exchange(false))
      signalPassFailure();
  }
};

/// 4. Device code to NVVM.
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
  pm.addNestedPass<gpu::GPUModuleOp>(dwc::createDwcApproximateTanh());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps());
  pm.addNestedPass<gpu::GPUModuleOp>(createKernelCanonicalizer());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());
  pm.addPass(std::make_unique<LargeKernelOptLevel>());
}

/// 5. Host code to LLVM (launches become mgpu* runtime calls).
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
  // A toolkit that is given is checked for every format: for PTX text
  // gpu-module-to-binary reports a missing one but does not fail.
  std::string toolkit = options.toolkit;
  if ((format != "isa" || !toolkit.empty()) &&
      failed(resolveCudaToolkit(options.toolkit, toolkit, emitError)))
    return failure();

  auto watch = std::make_shared<ErrorWatch>();
  pm.addPass(std::make_unique<WatchErrors>(watch));
  pm.addPass(createDwcCheckReservedSymbols());
  DwcAttachTargetOptions attach;
  attach.chip = target->chip;
  attach.features = target->features;
  attach.smCount = target->smCount;
  pm.addPass(createDwcAttachTarget(attach));
  addBufferization(pm);
  addKernels(pm);
  addOutlining(pm);
  addDeviceToNVVM(pm, options, *target);
  addHostToLLVM(pm);

  // 6. Kernels to PTX / cubin / fatbin, embedded in the module. (Not
  //    before the host lowering, although its module passes walk every
  //    kernel: convert-to-llvm also finishes the wgmma kernels' lowering.)
  GpuModuleToBinaryPassOptions binOpts;
  binOpts.compilationTarget = options.format;
  binOpts.toolkitPath = toolkit;
  pm.addPass(createGpuModuleToBinaryPass(binOpts));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(std::make_unique<FailOnErrors>(watch));
  return success();
}
