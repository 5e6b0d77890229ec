//===- DwcPlugin.cpp - dwc as an mlir-opt dialect and pass plugin ---------===//
//
// One shared library that upstream mlir-opt (linked against libMLIR.so)
// loads with --load-dialect-plugin (the dwc dialect and its bufferization
// models) and --load-pass-plugin (every dwc pass and pipeline):
//
//   mlir-opt --load-dialect-plugin=libDwcPlugin.so \
//            --load-pass-plugin=libDwcPlugin.so x.mlir --raise-linalg-to-dwc
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/Passes.h"
#include "dwc/Dialect/Dwc/IR/DwcDialect.h"
#include "dwc/Dialect/Dwc/Transforms/BufferizableOpInterfaceImpl.h"
#include "dwc/Dialect/Dwc/Transforms/Passes.h"
#include "dwc/Pipelines/Pipelines.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

#ifndef DWC_VERSION_STRING
#error "DWC_VERSION_STRING must be defined by the build"
#endif

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "dwc", DWC_VERSION_STRING,
          [](DialectRegistry *registry) {
            registry->insert<dwc::DwcDialect>();
            dwc::registerBufferizableOpInterfaceExternalModels(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "dwc", DWC_VERSION_STRING, []() {
            dwc::registerDwcConversionPasses();
            dwc::registerDwcTransformsPasses();
            dwc::registerDwcPipelines();
          }};
}
