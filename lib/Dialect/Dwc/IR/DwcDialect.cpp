//===- DwcDialect.cpp - dwc dialect registration --------------------------===//
//
// Registers the dwc dialect's operations and attributes.
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/IR/DwcDialect.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::dwc;

#include "dwc/Dialect/Dwc/IR/DwcOpsDialect.cpp.inc"
#include "dwc/Dialect/Dwc/IR/DwcEnums.cpp.inc"
#include "dwc/Dialect/Dwc/IR/DwcAttrInterfaces.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "dwc/Dialect/Dwc/IR/DwcAttrs.cpp.inc"

void DwcDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dwc/Dialect/Dwc/IR/DwcOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dwc/Dialect/Dwc/IR/DwcAttrs.cpp.inc"
      >();
}
