//===- AlignWorkgroupBuffers.cpp - 16-byte aligned shared-memory buffers --===//
//
// Gives every workgroup (shared-memory) attribution of the outlined GPU
// kernels an `llvm.align` of at least the widest vector access the dwc
// kernels make (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_DWCALIGNWORKGROUPBUFFERS
#include "dwc/Dialect/Dwc/Transforms/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;

namespace {

struct DwcAlignWorkgroupBuffersPass
    : dwc::impl::DwcAlignWorkgroupBuffersBase<DwcAlignWorkgroupBuffersPass> {
  using DwcAlignWorkgroupBuffersBase::DwcAlignWorkgroupBuffersBase;

  void runOnOperation() override {
    if (alignment <= 0 || (alignment & (alignment - 1)) != 0) {
      getOperation()->emitError()
          << "dwc-align-workgroup-buffers: alignment must be a power of two";
      return signalPassFailure();
    }
    StringRef name = LLVM::LLVMDialect::getAlignAttrName();
    Builder b(&getContext());
    getOperation()->walk([&](gpu::GPUFuncOp func) {
      for (unsigned i = 0, e = func.getNumWorkgroupAttributions(); i < e;
           ++i) {
        auto old = dyn_cast_or_null<IntegerAttr>(
            func.getWorkgroupAttributionAttr(i, name));
        if (old && old.getInt() >= alignment)
          continue;
        func.setWorkgroupAttributionAttr(i, name,
                                         b.getI64IntegerAttr(alignment));
      }
    });
  }
};

} // namespace
