//===- GenericGPULowering.cpp - GPU kernels for non-dwc ops ---------------===//

#include "dwc/Pipelines/GenericGPULowering.h"
#include "dwc/Conversion/Passes.h"
#include "mlir/Conversion/SCFToGPU/SCFToGPUPass.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;

void dwc::addGenericGPULowering(OpPassManager &pm) {
  pm.addPass(dwc::createConvertHostLinalgToGPU());
  pm.addNestedPass<func::FuncOp>(createConvertParallelLoopToGpuPass());
}
