//===- LaunchBuilder.h - gpu.launch creation for the dwc kernel passes -*- C++ -*-===//
//
// Every kernel pass replaces an op by a gpu.launch with static grid and
// block sizes and fills its body; this builds the launch (with optional
// workgroup buffers) and hands back a builder before its terminator.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_CONVERSION_LAUNCHBUILDER_H
#define DWC_CONVERSION_LAUNCHBUILDER_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include <string>
#include <utility>

namespace mlir {
namespace dwc {

/// A gpu.launch of gridX x gridY blocks of `threads` threads at the
/// rewriter's insertion point, with `workgroup` buffers attributed and
/// `dynamicSharedBytes` (an i32 value, may be null) of dynamic shared
/// memory, and a builder placed before its terminator.
inline std::pair<gpu::LaunchOp, OpBuilder>
createGridLaunch(RewriterBase &rewriter, Location loc, int64_t gridX,
                 int64_t gridY, int64_t threads, TypeRange workgroup = {},
                 Value dynamicSharedBytes = {}) {
  auto cst = [&](int64_t v) {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  Value one = cst(1);
  auto launch = gpu::LaunchOp::create(
      rewriter, loc, cst(gridX), gridY == 1 ? one : Value(cst(gridY)), one,
      cst(threads), one, one, dynamicSharedBytes,
      /*asyncTokenType=*/nullptr, /*asyncDependencies=*/{}, workgroup);
  Block &entry = launch.getBody().front();
  if (entry.empty() || !entry.back().hasTrait<OpTrait::IsTerminator>()) {
    OpBuilder tb = OpBuilder::atBlockEnd(&entry);
    gpu::TerminatorOp::create(tb, loc);
  }
  OpBuilder b(launch.getContext());
  b.setInsertionPoint(entry.getTerminator());
  return {launch, b};
}

/// A 1-D gpu.launch of `blocks` x `threads` threads for `total` work items:
/// the launch, each thread's linear id and a builder in which only threads
/// with an id below `total` run (the launch body itself when the grid holds
/// exactly `total` threads).
struct GuardedLaunch {
  gpu::LaunchOp launch;
  Value gid;
  OpBuilder body;
};
inline GuardedLaunch createGuardedLaunch(RewriterBase &rewriter, Location loc,
                                         int64_t blocks, int64_t threads,
                                         int64_t total) {
  auto [launch, b] = createGridLaunch(rewriter, loc, blocks, 1, threads);
  Value gid = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                            arith::ConstantIndexOp::create(b, loc, threads)),
      launch.getThreadIds().x);
  if (total % threads == 0)
    return {launch, gid, b};
  Value inRange = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::slt, gid,
      arith::ConstantIndexOp::create(b, loc, total));
  auto guard = scf::IfOp::create(b, loc, inRange, /*withElseRegion=*/false);
  return {launch, gid, guard.getThenBodyBuilder()};
}

/// Names the kernel `launch` is outlined to `<func>_<family>[_<role>]`
/// (func: the function holding the launch), so that profiles and logs say
/// which kernel ran; `role` tells a family's launches apart (e.g. a
/// reduction after the main kernel).
inline void nameKernel(gpu::LaunchOp launch, StringRef family,
                       StringRef role = "") {
  auto func = launch->getParentOfType<FunctionOpInterface>();
  std::string name = func ? func.getName().str() : std::string("kernel");
  name += "_" + family.str();
  if (!role.empty())
    name += "_" + role.str();
  launch.setFunctionAttr(FlatSymbolRefAttr::get(launch.getContext(), name));
}

} // namespace dwc
} // namespace mlir

#endif // DWC_CONVERSION_LAUNCHBUILDER_H
