//===- AttachTarget.cpp - record the GPU target on the module -------------===//
//
// Sets `dwc.target` once, so that the kernel choices read the target's
// limits from the IR instead of constants of their own. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/IR/DwcTarget.h"
#include "dwc/Dialect/Dwc/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_DWCATTACHTARGET
#include "dwc/Dialect/Dwc/Transforms/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;

namespace {
struct DwcAttachTargetPass
    : dwc::impl::DwcAttachTargetBase<DwcAttachTargetPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<dwc::TargetDescription> target = dwc::resolveTarget(
        chip, features, smCount, [&](const Twine &msg) {
          return module.emitError("dwc-attach-target: ") << msg;
        });
    if (failed(target))
      return signalPassFailure();
    dwc::TargetAttr attr = target->toAttr(&getContext());
    auto existing =
        module->getAttrOfType<dwc::TargetAttr>(dwc::TargetAttr::kAttrName);
    if (existing && existing != attr) {
      module.emitError("dwc-attach-target: the module targets ")
          << existing << " but the pipeline compiles for " << attr;
      return signalPassFailure();
    }
    module->setAttr(dwc::TargetAttr::kAttrName, attr);
  }
};
} // namespace
