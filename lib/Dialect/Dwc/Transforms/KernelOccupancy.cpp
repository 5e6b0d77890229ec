//===- KernelOccupancy.cpp - blocks-per-SM hints of outlined kernels ------===//
//
// Turns the `dwc.min_blocks_per_sm` markers that kernel generators leave on
// ops inside a gpu.launch body (outlining drops the launch's own
// attributes) into `nvvm.minctasm` on the outlined gpu.func, which the NVVM
// lowering emits as `.minnctapersm` (ptxas then caps the registers so that
// that many blocks fit on one SM). See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_DWCKERNELOCCUPANCY
#include "dwc/Dialect/Dwc/Transforms/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;

namespace {

constexpr StringLiteral kMarker = "dwc.min_blocks_per_sm";
constexpr StringLiteral kNvvmMinCtas = "nvvm.minctasm";

struct DwcKernelOccupancyPass
    : dwc::impl::DwcKernelOccupancyBase<DwcKernelOccupancyPass> {
  using DwcKernelOccupancyBase::DwcKernelOccupancyBase;

  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](gpu::GPUFuncOp func) {
      int64_t blocks = 0;
      func.walk([&](Operation *op) {
        auto marker = op->getAttrOfType<IntegerAttr>(kMarker);
        if (!marker)
          return;
        op->removeAttr(kMarker);
        // (No GPU holds more than 32 resident blocks per SM.)
        if (marker.getInt() < 1 || marker.getInt() > 32) {
          op->emitError() << kMarker << " must be in [1, 32], got "
                          << marker.getInt();
          failed = true;
          return;
        }
        blocks = std::max(blocks, marker.getInt());
      });
      if (blocks == 0 || !func.isKernel())
        return;
      auto old = func->getAttrOfType<IntegerAttr>(kNvvmMinCtas);
      if (old && old.getInt() >= blocks)
        return;
      func->setAttr(kNvvmMinCtas,
                    IntegerAttr::get(IntegerType::get(&getContext(), 32),
                                     blocks));
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
