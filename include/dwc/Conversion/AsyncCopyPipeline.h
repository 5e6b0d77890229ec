//===- AsyncCopyPipeline.h - cp.async stage pipelines ------------*- C++ -*-===//
//
// The pipelined stage loops of the generated kernels: with S stages the
// prologue issues the copies of stages 0 .. S-2, each committed as one
// cp.async group; every steady-state iteration commits the copies of the
// stage S-1 ahead and waits until at most S-1 groups (the ones still ahead)
// are pending, so the stage it reads has landed; the epilogue (the last
// S-1 iterations) has nothing left to copy and waits the same way. Written
// with the upstream nvgpu ops (nvgpu.device_async_create_group /
// device_async_wait: cp.async.commit_group / wait_group N).
//
//===----------------------------------------------------------------------===//

#ifndef DWC_CONVERSION_ASYNCCOPYPIPELINE_H
#define DWC_CONVERSION_ASYNCCOPYPIPELINE_H

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace dwc {

/// Commits the cp.async copies issued so far by this thread as one group
/// (cp.async.commit_group); returns the group's token.
inline Value commitCopyGroup(OpBuilder &b, Location loc) {
  auto tokTy = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  return nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokTy, ValueRange{})
      .getResult();
}

/// Waits until at most `pending` of this thread's committed groups are
/// still in flight (cp.async.wait_group pending); `token` is the newest.
inline void waitCopyGroups(OpBuilder &b, Location loc, Value token,
                           int32_t pending) {
  nvgpu::DeviceAsyncWaitOp::create(b, loc, token,
                                   b.getI32IntegerAttr(pending));
}

/// Makes this thread's shared-memory writes (generic proxy: cp.async, plain
/// stores) visible to the async proxy that wgmma and TMA read through
/// (fence.proxy.async.shared::cta).
inline void fenceSharedToAsyncProxy(OpBuilder &b, Location loc) {
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
}

} // namespace dwc
} // namespace mlir

#endif // DWC_CONVERSION_ASYNCCOPYPIPELINE_H
