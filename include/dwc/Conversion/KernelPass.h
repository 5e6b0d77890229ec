//===- KernelPass.h - the pattern walk of the dwc kernel passes -*- C++ -*-===//
//
// Every kernel pass rewrites the ops its patterns match in one walk, each op
// at most once (the emitted launch is not matched again); this is that walk.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_CONVERSION_KERNELPASS_H
#define DWC_CONVERSION_KERNELPASS_H

#include "dwc/Dialect/Dwc/IR/DwcDialect.h"
#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "mlir/IR/BuiltinTypes.h"
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

/// A kernel pass that applies its patterns `Patterns...` with `benefit` (it
/// orders the kernel families where several passes run on one op kind):
/// `Generated` is the pass's TableGen base (dwc::impl::Convert...Base).
template <typename Derived, template <typename> class Generated,
          unsigned benefit, typename... Patterns>
struct PatternKernelPass : Generated<Derived> {
  using GeneratedBase = Generated<Derived>;
  using GeneratedBase::GeneratedBase;
  void runOnOperation() override {
    applyKernelPatterns<Patterns...>(this->getOperation(), benefit);
  }
};

/// Whether a kernel pattern emits `op` with `config` (null: the op has none
/// of the pattern's families): complete, fitting the op, memref form.
inline LogicalResult checkEmittable(Operation *op,
                                    KernelConfigAttrInterface config,
                                    PatternRewriter &rewriter) {
  if (!config || !config.isComplete())
    return rewriter.notifyMatchFailure(
        op, "no complete dwc.kernel of this family (run dwc-select-kernels)");
  std::string why = config.whyNotFor(op);
  if (!why.empty())
    return rewriter.notifyMatchFailure(op, why);
  if (op->getNumResults() != 0 ||
      !llvm::all_of(op->getOperandTypes(), llvm::IsaPred<MemRefType>))
    return rewriter.notifyMatchFailure(op, "tensor form (bufferize first)");
  return success();
}

/// The op's complete configuration of kind `ConfigAttr` if a kernel pattern
/// emits it: set by dwc-select-kernels, fitting the op, memref form.
template <typename ConfigAttr>
FailureOr<ConfigAttr> emittableConfigOf(Operation *op,
                                        PatternRewriter &rewriter) {
  auto config = op->getAttrOfType<ConfigAttr>(kKernelAttrName);
  if (failed(checkEmittable(op, config, rewriter)))
    return failure();
  return config;
}

/// As emittableConfigOf, for a pattern that emits any of the families
/// `ConfigAttrs...`.
template <typename... ConfigAttrs>
FailureOr<KernelConfigAttrInterface>
emittableConfigOfAny(Operation *op, PatternRewriter &rewriter) {
  auto config = op->getAttrOfType<KernelConfigAttrInterface>(kKernelAttrName);
  if (config && !isa<ConfigAttrs...>(config))
    config = nullptr;
  if (failed(checkEmittable(op, config, rewriter)))
    return failure();
  return config;
}

/// A kernel pattern of the family `ConfigAttr` for `OpTy`: matches the ops
/// whose configuration it emits (emittableConfigOf) and emits them.
template <typename OpTy, typename ConfigAttr>
struct KernelPattern : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const final {
    FailureOr<ConfigAttr> config = emittableConfigOf<ConfigAttr>(op, rewriter);
    if (failed(config))
      return failure();
    return emit(op, *config, rewriter);
  }
  virtual LogicalResult emit(OpTy op, ConfigAttr config,
                             PatternRewriter &rewriter) const = 0;
};

} // namespace dwc
} // namespace mlir

#endif // DWC_CONVERSION_KERNELPASS_H
