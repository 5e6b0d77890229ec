//===- HostBuffersToGPU.cpp - host buffer ops to gpu buffer ops -----------===//
//
// In the GPU pipeline every buffer a host function handles is device memory:
// function arguments are device pointers, and the buffers bufferization
// allocates between dwc ops must be device allocations. This pass rewrites
// the host-side memref.alloc/dealloc/copy/get_global into gpu.alloc/dealloc/
// memcpy and rejects any other host op that would read or write a buffer.
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_CONVERTHOSTBUFFERSTOGPU
#include "dwc/Conversion/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;

namespace {

/// True when `op` reads or writes (not just allocates/frees) a buffer.
bool accessesBuffer(Operation *op) {
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface)
    return false;
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  return llvm::any_of(effects, [](const MemoryEffects::EffectInstance &e) {
    if (!isa<MemoryEffects::Read, MemoryEffects::Write>(e.getEffect()))
      return false;
    Value v = e.getValue();
    return !v || isa<BaseMemRefType>(v.getType());
  });
}

struct ConvertHostBuffersToGPUPass
    : dwc::impl::ConvertHostBuffersToGPUBase<ConvertHostBuffersToGPUPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> worklist;
    bool failed = false;
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::LaunchOp, gpu::GPUModuleOp, gpu::BinaryOp>(op))
        return WalkResult::skip();
      if (isa<memref::AllocOp, memref::DeallocOp, memref::CopyOp,
              memref::GetGlobalOp>(op)) {
        worklist.push_back(op);
      } else if (isa<memref::AllocaOp>(op)) {
        op->emitError("memref.alloca in host code: the GPU pipeline keeps "
                      "every buffer in device memory (use memref.alloc)");
        failed = true;
      } else if (!isa<gpu::GPUDialect>(op->getDialect()) &&
                 accessesBuffer(op)) {
        op->emitError() << "'" << op->getName()
                        << "' reads or writes a buffer on the host, but in the "
                           "GPU pipeline every buffer is device memory";
        failed = true;
      }
      return WalkResult::advance();
    });
    if (failed)
      return signalPassFailure();

    IRRewriter rewriter(&getContext());
    for (Operation *op : worklist) {
      rewriter.setInsertionPoint(op);
      Location loc = op->getLoc();
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        rewriter.replaceOpWithNewOp<gpu::AllocOp>(
            alloc, alloc.getType(), /*asyncToken=*/Type(), ValueRange{},
            alloc.getDynamicSizes(), alloc.getSymbolOperands(),
            /*hostShared=*/false);
      } else if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        rewriter.replaceOpWithNewOp<gpu::DeallocOp>(
            dealloc, /*asyncToken=*/Type(), ValueRange{}, dealloc.getMemref());
      } else if (auto copy = dyn_cast<memref::CopyOp>(op)) {
        auto srcType = dyn_cast<MemRefType>(copy.getSource().getType());
        auto dstType = dyn_cast<MemRefType>(copy.getTarget().getType());
        if (!srcType || !dstType ||
            !memref::isStaticShapeAndContiguousRowMajor(srcType) ||
            !memref::isStaticShapeAndContiguousRowMajor(dstType)) {
          copy.emitError("memref.copy between non-contiguous buffers has no "
                         "GPU lowering");
          return signalPassFailure();
        }
        rewriter.replaceOpWithNewOp<gpu::MemcpyOp>(
            copy, /*asyncToken=*/Type(), ValueRange{}, copy.getTarget(),
            copy.getSource());
      } else if (auto global = dyn_cast<memref::GetGlobalOp>(op)) {
        // A device copy of the constant, made at function entry and freed
        // before every return.
        auto func = global->getParentOfType<func::FuncOp>();
        auto type = global.getType();
        if (!func || !memref::isStaticShapeAndContiguousRowMajor(type)) {
          global.emitError("memref.get_global outside a function or of a "
                           "non-contiguous type has no GPU lowering");
          return signalPassFailure();
        }
        rewriter.setInsertionPointToStart(&func.getBody().front());
        auto hostCopy = memref::GetGlobalOp::create(rewriter, loc, type,
                                                    global.getNameAttr());
        auto dev = gpu::AllocOp::create(rewriter, loc, type, Type(),
                                        ValueRange{}, ValueRange{},
                                        ValueRange{}, false);
        gpu::MemcpyOp::create(rewriter, loc, Type(), ValueRange{},
                              dev.getMemref(), hostCopy);
        for (Operation *user : llvm::make_early_inc_range(global->getUsers()))
          if (isa<func::ReturnOp>(user)) {
            user->emitError("returning a constant buffer is not supported by "
                            "the GPU pipeline");
            return signalPassFailure();
          }
        rewriter.replaceOp(global, dev.getMemref());
        func.walk([&](func::ReturnOp ret) {
          rewriter.setInsertionPoint(ret);
          gpu::DeallocOp::create(rewriter, loc, Type(), ValueRange{},
                                 dev.getMemref());
        });
      }
    }
  }
};
} // namespace
