//===- LinalgToDwc.cpp - raise linalg convolutions and pooling to dwc -----===//

#include "dwc/Conversion/Passes.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_RAISELINALGTODWC
#include "dwc/Conversion/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;

namespace {
struct RaiseLinalgToDwcPass
    : dwc::impl::RaiseLinalgToDwcBase<RaiseLinalgToDwcPass> {
  void runOnOperation() override {}
};
} // namespace
