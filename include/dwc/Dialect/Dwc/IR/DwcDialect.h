//===- DwcDialect.h - the dwc dialect ---------------------------*- C++ -*-===//
//
// Declares the dwc dialect class and its enums/attributes.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_DIALECT_DWC_IR_DWCDIALECT_H
#define DWC_DIALECT_DWC_IR_DWCDIALECT_H

#include "mlir/IR/Dialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include <string>

#include "dwc/Dialect/Dwc/IR/DwcOpsDialect.h.inc"
#include "dwc/Dialect/Dwc/IR/DwcEnums.h.inc"
#include "dwc/Dialect/Dwc/IR/DwcAttrInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dwc/Dialect/Dwc/IR/DwcAttrs.h.inc"

#endif // DWC_DIALECT_DWC_IR_DWCDIALECT_H
