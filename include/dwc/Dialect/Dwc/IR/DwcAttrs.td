//===- DwcAttrs.td - dwc enums and attributes -------------*- tablegen -*-===//
//
// Enumerations used by dwc ops (the pooling kind, fused activations).
//
//===----------------------------------------------------------------------===//

#ifndef DWC_ATTRS
#define DWC_ATTRS

include "dwc/Dialect/Dwc/IR/DwcDialect.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/AttrTypeBase.td"

def Dwc_PoolKind : I32EnumAttr<"PoolKind", "pooling reduction", [
    I32EnumAttrCase<"Max", 0, "max">,
    I32EnumAttrCase<"Avg", 1, "avg">
  ]> {
  let cppNamespace = "::mlir::dwc";
  let genSpecializedAttr = 0;
}

def Dwc_PoolKindAttr : EnumAttr<Dwc_Dialect, Dwc_PoolKind, "pool_kind"> {
  let assemblyFormat = "$value";
}

def Dwc_Activation : I32EnumAttr<"Activation", "fused elementwise activation", [
    I32EnumAttrCase<"Relu", 0, "relu">,
    I32EnumAttrCase<"Relu6", 1, "relu6">
  ]> {
  let cppNamespace = "::mlir::dwc";
  let genSpecializedAttr = 0;
}

def Dwc_ActivationAttr : EnumAttr<Dwc_Dialect, Dwc_Activation, "activation"> {
  let assemblyFormat = "$value";
}

#endif // DWC_ATTRS
