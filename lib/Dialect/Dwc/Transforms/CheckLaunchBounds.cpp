//===- CheckLaunchBounds.cpp - grids and blocks the GPU can launch --------===//
//
// Rejects constant gpu.launch sizes outside the CUDA limits, so that a shape
// whose grid overflows (or is empty) is a compile-time error rather than a
// launch failure or a kernel that silently does nothing. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Matchers.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_DWCCHECKLAUNCHBOUNDS
#include "dwc/Dialect/Dwc/Transforms/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;

namespace {

// CUDA's launch limits (compute capability 3.0 and later).
constexpr int64_t kMaxGridX = (int64_t(1) << 31) - 1;
constexpr int64_t kMaxGridYZ = 65535;
constexpr int64_t kMaxBlockXY = 1024, kMaxBlockZ = 64, kMaxBlockThreads = 1024;

/// Checks one constant size; dynamic sizes pass.
LogicalResult checkSize(gpu::LaunchOp launch, Value size, StringRef what,
                        int64_t limit) {
  APInt value;
  if (!matchPattern(size, m_ConstantInt(&value)))
    return success();
  int64_t v = value.getSExtValue();
  if (v >= 1 && v <= limit)
    return success();
  return launch.emitError() << "kernel launch with " << v << " " << what
                            << " (the GPU takes 1 to " << limit
                            << "): the op's shape is too large or empty for "
                               "this kernel";
}

LogicalResult checkLaunch(gpu::LaunchOp launch) {
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  if (failed(checkSize(launch, grid.x, "blocks along x", kMaxGridX)) ||
      failed(checkSize(launch, grid.y, "blocks along y", kMaxGridYZ)) ||
      failed(checkSize(launch, grid.z, "blocks along z", kMaxGridYZ)) ||
      failed(checkSize(launch, block.x, "threads along x", kMaxBlockXY)) ||
      failed(checkSize(launch, block.y, "threads along y", kMaxBlockXY)) ||
      failed(checkSize(launch, block.z, "threads along z", kMaxBlockZ)))
    return failure();
  APInt x, y, z;
  if (matchPattern(block.x, m_ConstantInt(&x)) &&
      matchPattern(block.y, m_ConstantInt(&y)) &&
      matchPattern(block.z, m_ConstantInt(&z)) &&
      x.getSExtValue() * y.getSExtValue() * z.getSExtValue() > kMaxBlockThreads)
    return launch.emitError() << "kernel launch with blocks of more than "
                              << kMaxBlockThreads << " threads";
  return success();
}

struct DwcCheckLaunchBoundsPass
    : dwc::impl::DwcCheckLaunchBoundsBase<DwcCheckLaunchBoundsPass> {
  using DwcCheckLaunchBoundsBase::DwcCheckLaunchBoundsBase;

  void runOnOperation() override {
    bool ok = true;
    getOperation()->walk(
        [&](gpu::LaunchOp launch) { ok &= succeeded(checkLaunch(launch)); });
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
