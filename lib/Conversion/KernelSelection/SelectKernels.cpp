//===- SelectKernels.cpp - attach a kernel configuration to each op -------===//
//
// The one place that decides which kernel implements a dwc op: asks each
// family's selector in priority order and records the first complete
// configuration as `dwc.kernel`. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/KernelSelection.h"
#include "dwc/Conversion/Passes.h"
#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_DWCSELECTKERNELS
#include "dwc/Conversion/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;
using namespace mlir::dwc;

namespace {
/// #dwc.direct for every op it fits.
Attribute selectDirect(Operation *op, TargetAttr, Attribute,
                       std::string &why) {
  auto direct = DirectKernelAttr::get(op->getContext());
  why = direct.whyNotFor(op);
  return why.empty() ? direct : Attribute();
}

/// Adds "family (why)" to the `; `-separated list of refusals.
void appendRefusal(std::string &refusals, StringRef family, StringRef why) {
  refusals += (refusals.empty() ? "" : "; ") + family.str() + " (" +
              why.str() + ")";
}

/// The configuration `family` gives `op` (completing `given`), or null with
/// the reason in `why`.
Attribute selectWith(const KernelFamily &family, Operation *op,
                     TargetAttr target, KernelConfigAttrInterface given,
                     std::string &why) {
  Attribute config = family.select(op, target, given, why);
  if (!config && StringRef(why).starts_with("not a "))
    return config; // a family for other kinds of ops
  // A channel multiplier the family cannot take, whatever its own rules
  // (written for M = 1) said ...
  std::string multiplierWhy = multiplierIneligibility(op, family.name);
  if (!multiplierWhy.empty()) {
    why = multiplierWhy;
    return Attribute();
  }
  // ... or a fused prologue/epilogue it does not emit.
  if (config && !(why = fusionIneligibility(op, family.name)).empty())
    return Attribute();
  return config;
}

/// Whether `family` may be chosen on `target`: the fast paths need sm_80's
/// cp.async and mma.sync; older chips run the direct kernels.
bool availableOn(const KernelFamily &family, TargetAttr target) {
  return target.hasAmpereInstructions() ||
         family.name == DirectKernelAttr::getMnemonic();
}
} // namespace

ArrayRef<KernelFamily> dwc::selectableKernelFamilies() {
  // Priority order: the first family that takes an op implements it.
  static const SmallVector<KernelFamily> families = [] {
    SmallVector<KernelFamily> all;
    appendPoolKernelFamilies(all);
    appendIm2winKernelFamilies(all);
    // Before the tensor-core kernels: filters larger than the map.
    appendFullRowKernelFamilies(all);
    appendMmaStreamKernelFamilies(all);
    appendMmaKernelFamilies(all);
    appendGemvKernelFamilies(all);
    appendStridedKernelFamilies(all);
    appendBackwardFilterKernelFamilies(all);
    // Last: the direct kernels take what no other family takes.
    all.push_back({DirectKernelAttr::getMnemonic(), selectDirect});
    return all;
  }();
  return families;
}

bool dwc::hasOtherKernel(Operation *op, StringRef family) {
  auto config = op->getAttrOfType<KernelConfigAttrInterface>(kKernelAttrName);
  return config && config.getFamily() != family;
}

namespace {
struct DwcSelectKernelsPass
    : dwc::impl::DwcSelectKernelsBase<DwcSelectKernelsPass> {
  using Base::Base;

  /// Selects for one op; fails when a partial configuration the op carries
  /// cannot be completed.
  LogicalResult select(Operation *op, TargetAttr target) {
    auto given = op->getAttrOfType<KernelConfigAttrInterface>(kKernelAttrName);
    if (given && given.isComplete()) {
      if (diagnose)
        op->emitRemark() << "dwc.kernel = " << given << ": given";
      return success();
    }
    std::string refusals;
    for (const KernelFamily &family : selectableKernelFamilies()) {
      if (given && given.getFamily() != family.name)
        continue;
      std::string why;
      if (!given && !availableOn(family, target)) {
        appendRefusal(refusals, family.name, "needs sm_80 or newer");
        continue;
      }
      Attribute config = selectWith(family, op, target, given, why);
      if (config) {
        op->setAttr(kKernelAttrName, config);
        if (diagnose)
          op->emitRemark() << "dwc.kernel = " << config << ": chosen"
                           << (refusals.empty() ? "" : "; refused: ")
                           << refusals;
        return success();
      }
      // (Families for other kinds of ops are not worth a line.)
      if (!StringRef(why).starts_with("not a "))
        appendRefusal(refusals, family.name, why);
    }
    if (given)
      return op->emitError() << "dwc-select-kernels: cannot complete "
                             << given << ": " << refusals;
    if (diagnose)
      op->emitRemark() << "no kernel family takes this op (" << refusals
                       << ")";
    return success();
  }

  void runOnOperation() override {
    TargetAttr target = TargetAttr::lookup(getOperation());
    WalkResult result = getOperation().walk([&](Operation *op) {
      if (!isa<DwcDialect>(op->getDialect()))
        return WalkResult::advance();
      return failed(select(op, target)) ? WalkResult::interrupt()
                                        : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
