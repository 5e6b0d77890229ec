//===- dwc-opt.cpp - the dwc optimizer driver -----------------------------===//
//
// mlir-opt with the dwc dialect, every dwc pass and pipeline, all upstream
// dialects/passes/extensions, and the NVVM target and LLVM IR translations
// that gpu-module-to-binary needs.
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/Passes.h"
#include "dwc/Dialect/Dwc/Transforms/Passes.h"
#include "dwc/Dialect/Dwc/IR/DwcDialect.h"
#include "dwc/Dialect/Dwc/Transforms/BufferizableOpInterfaceImpl.h"
#include "dwc/Pipelines/Pipelines.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::dwc::registerDwcConversionPasses();
  mlir::dwc::registerDwcTransformsPasses();
  mlir::dwc::registerDwcPipelines();

  mlir::DialectRegistry registry;
  registry.insert<mlir::dwc::DwcDialect>();
  mlir::dwc::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  mlir::registerAllToLLVMIRTranslations(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "dwc optimizer driver\n", registry));
}
