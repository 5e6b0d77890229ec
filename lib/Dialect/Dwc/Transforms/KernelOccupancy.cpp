//===- KernelOccupancy.cpp - blocks-per-SM hints of outlined kernels ------===//
//
// Turns the `dwc.min_blocks_per_sm` markers that kernel generators leave on
// ops inside a gpu.launch body (outlining drops the launch's own
// attributes) into `nvvm.minctasm` on the outlined gpu.func, which the NVVM
// lowering emits as `.minnctapersm` (ptxas then caps the registers so that
// that many blocks fit on one SM), and the `dwc.max_registers` markers into
// `nvvm.maxnreg` (`.maxnreg`). See Passes.td.
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
constexpr StringLiteral kRegMarker = "dwc.max_registers";
constexpr StringLiteral kNvvmMaxNReg = "nvvm.maxnreg";

/// Removes the `name` markers inside `func` and folds their values with
/// `fold` (0: none); a value outside [lo, hi] is an error.
int64_t takeMarkers(gpu::GPUFuncOp func, StringRef name, int64_t lo,
                    int64_t hi, int64_t (*fold)(int64_t, int64_t),
                    bool &failed) {
  int64_t folded = 0;
  func.walk([&](Operation *op) {
    auto marker = op->getAttrOfType<IntegerAttr>(name);
    if (!marker)
      return;
    op->removeAttr(name);
    if (marker.getInt() < lo || marker.getInt() > hi) {
      op->emitError() << name << " must be in [" << lo << ", " << hi
                      << "], got " << marker.getInt();
      failed = true;
      return;
    }
    folded = folded ? fold(folded, marker.getInt()) : marker.getInt();
  });
  return folded;
}

int64_t largest(int64_t a, int64_t b) { return std::max(a, b); }
int64_t smallest(int64_t a, int64_t b) { return std::min(a, b); }

struct DwcKernelOccupancyPass
    : dwc::impl::DwcKernelOccupancyBase<DwcKernelOccupancyPass> {
  using DwcKernelOccupancyBase::DwcKernelOccupancyBase;

  /// Sets `name` on the kernel to `v` unless it holds a value at least as
  /// strong (`stronger(old, v)` is old).
  void setKernelAttr(gpu::GPUFuncOp func, StringRef name, int64_t v,
                     int64_t (*stronger)(int64_t, int64_t)) {
    if (v == 0 || !func.isKernel())
      return;
    if (auto old = func->getAttrOfType<IntegerAttr>(name))
      v = stronger(old.getInt(), v);
    func->setAttr(name, IntegerAttr::get(IntegerType::get(&getContext(), 32), v));
  }

  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](gpu::GPUFuncOp func) {
      // (No GPU holds more than 32 resident blocks per SM, nor gives a
      // thread more than 255 registers.)
      int64_t blocks = takeMarkers(func, kMarker, 1, 32, largest, failed);
      int64_t regs = takeMarkers(func, kRegMarker, 16, 255, smallest, failed);
      setKernelAttr(func, kNvvmMinCtas, blocks, largest);
      setKernelAttr(func, kNvvmMaxNReg, regs, smallest);
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
