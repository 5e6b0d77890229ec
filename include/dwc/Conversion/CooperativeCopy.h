//===- CooperativeCopy.h - a block's threads share a copy -------*- C++ -*-===//
//
// The cooperative loop of the generated kernels: `total` work items (16-byte
// copies, zero stores) spread over the `threads` threads of a block, item
// tid + i x threads in round i. The rounds are unrolled; only a last partial
// round is guarded by tid + i x threads < total, so full rounds carry no
// branch.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_CONVERSION_COOPERATIVECOPY_H
#define DWC_CONVERSION_COOPERATIVECOPY_H

#include "dwc/Conversion/IndexEmitter.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir {
namespace dwc {

/// Emits `body(builder, i)` for the rounds i of `total` items over
/// `threads` threads (`tid`: the thread's index in the block): rounds whose
/// items all exist unguarded, the last partial one (or, with `guardAll`,
/// every round) inside scf.if (tid + i x threads < total).
inline void
emitCooperativeRounds(OpBuilder &b, Location loc, Value tid, int64_t threads,
                      int64_t total,
                      llvm::function_ref<void(OpBuilder &, int64_t)> body,
                      bool guardAll = false) {
  IndexEmitter e{b, loc};
  for (int64_t i = 0; i * threads < total; ++i) {
    if (!guardAll && (i + 1) * threads <= total) {
      body(b, i);
      continue;
    }
    auto ifOp = scf::IfOp::create(b, loc, e.lt(e.add(tid, i * threads), total),
                                  /*withElseRegion=*/false);
    OpBuilder tb = ifOp.getThenBodyBuilder();
    body(tb, i);
  }
}

} // namespace dwc
} // namespace mlir

#endif // DWC_CONVERSION_COOPERATIVECOPY_H
