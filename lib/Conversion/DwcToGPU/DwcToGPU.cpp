//===- DwcToGPU.cpp - dwc ops to direct GPU kernels -----------------------===//

#include "dwc/Conversion/Passes.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_CONVERTDWCTOGPU
#include "dwc/Conversion/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;

namespace {
struct ConvertDwcToGPUPass
    : dwc::impl::ConvertDwcToGPUBase<ConvertDwcToGPUPass> {
  void runOnOperation() override {}
};
} // namespace
