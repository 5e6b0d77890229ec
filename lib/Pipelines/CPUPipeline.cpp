//===- CPUPipeline.cpp - dwc to LLVM for the CPU reference ----------------===//
//
// dwc -> linalg (reference semantics) -> bufferized loops -> LLVM dialect,
// runnable with mlir-runner.
//
//===----------------------------------------------------------------------===//

#include "dwc/Pipelines/Pipelines.h"
#include "dwc/Conversion/Passes.h"
#include "dwc/Dialect/Dwc/Transforms/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void dwc::addOneShotBufferization(OpPassManager &pm) {
  bufferization::OneShotBufferizePassOptions bufOpts;
  bufOpts.bufferizeFunctionBoundaries = true;
  bufOpts.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufOpts));
}

void dwc::buildDwcToLLVMCPUPipeline(OpPassManager &pm) {
  pm.addPass(dwc::createDwcFuseActivation());
  pm.addPass(dwc::createDwcDecomposeConvPool());
  pm.addPass(dwc::createConvertDwcToLinalg());
  // (A module may carry #dwc.target; the CPU code does not read it, and
  // mlir-runner does not know the dwc dialect.)
  pm.addPass(dwc::createDwcDetachTarget());
  pm.addPass(createCanonicalizerPass());
  dwc::addOneShotBufferization(pm);
  bufferization::BufferDeallocationPipelineOptions deallocOpts;
  bufferization::buildBufferDeallocationPipeline(pm, deallocOpts);
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  // What has no LLVM intrinsic (math.erf of GELU, erfc, tan, ...) becomes a
  // libm call, which mlir-runner and a linked binary resolve.
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}
