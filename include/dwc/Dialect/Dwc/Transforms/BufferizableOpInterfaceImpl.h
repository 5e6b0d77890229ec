//===- BufferizableOpInterfaceImpl.h - dwc bufferization --------*- C++ -*-===//
//
// One-Shot Bufferize support for the dwc ops (tensor form -> memref form).
//
//===----------------------------------------------------------------------===//

#ifndef DWC_DIALECT_DWC_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
#define DWC_DIALECT_DWC_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
namespace dwc {
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);
} // namespace dwc
} // namespace mlir

#endif
