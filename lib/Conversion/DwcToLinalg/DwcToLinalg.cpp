//===- DwcToLinalg.cpp - dwc ops to linalg (CPU reference semantics) ------===//

#include "dwc/Conversion/Passes.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_CONVERTDWCTOLINALG
#include "dwc/Conversion/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;

namespace {
struct ConvertDwcToLinalgPass
    : dwc::impl::ConvertDwcToLinalgBase<ConvertDwcToLinalgPass> {
  void runOnOperation() override {}
};
} // namespace
