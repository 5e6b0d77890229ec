//===- DetachTarget.cpp - drop #dwc.target after kernel generation --------===//
//
// See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/IR/DwcDialect.h"
#include "dwc/Dialect/Dwc/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_DWCDETACHTARGET
#include "dwc/Dialect/Dwc/Transforms/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;

namespace {
struct DwcDetachTargetPass
    : dwc::impl::DwcDetachTargetBase<DwcDetachTargetPass> {
  void runOnOperation() override {
    getOperation()->removeAttr(dwc::TargetAttr::kAttrName);
  }
};
} // namespace
