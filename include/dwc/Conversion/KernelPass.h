//===- KernelPass.h - the pattern walk of the dwc kernel passes -*- C++ -*-===//
//
// Every kernel pass rewrites the ops its patterns match in one walk, each op
// at most once (the emitted launch is not matched again); this is that walk.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_CONVERSION_KERNELPASS_H
#define DWC_CONVERSION_KERNELPASS_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir {
namespace dwc {

/// Applies the kernel patterns `Patterns...`, all with `benefit`, to the ops
/// nested in `root`, in one walk.
template <typename... Patterns>
void applyKernelPatterns(Operation *root, PatternBenefit benefit = 1) {
  MLIRContext *ctx = root->getContext();
  RewritePatternSet patterns(ctx);
  patterns.add<Patterns...>(ctx, benefit);
  walkAndApplyPatterns(root, std::move(patterns));
}

} // namespace dwc
} // namespace mlir

#endif // DWC_CONVERSION_KERNELPASS_H
