//===- DwcDialect.td - the dwc dialect definition ---------*- tablegen -*-===//
//
// Declares the dwc dialect: depthwise convolution, pooling, im2win and dense
// convolution on NHWC tensors, the input of the Flash-DWC code generators.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_DIALECT
#define DWC_DIALECT

include "mlir/IR/OpBase.td"

def Dwc_Dialect : Dialect {
  let name = "dwc";
  let cppNamespace = "::mlir::dwc";
  let summary = "Depthwise convolution, pooling and im2win convolution on NHWC tensors";
  let description = [{
    The `dwc` dialect holds the operations that the dwc compiler optimises:
    depthwise convolution (forward, backward-data, backward-filter), 2-D
    pooling (max, average, global average), the im2win layout transform and
    dense convolution.

    Conventions shared by every op:
    * Activations are NHWC (channel-last): `N x H x W x C`.
    * Depthwise filters are `FH x FW x C`; dense filters are `FH x FW x C x OC`.
      A depthwise op with `channel_multiplier = M` has `FH x FW x (C*M)`
      filters and `C*M` output channels; output channel `c*M + m` reads
      input channel `c` (PyTorch's `Conv2d(C, M*C, k, groups=C)`).
    * Shapes are static. Element types are `f32`, `f16` or `bf16`; every op
      that sums carries an accumulation type `acc` (default `f32`).
    * Ops are in destination-passing style: the `outs` operand supplies the
      shape and the storage of the result; its contents are not read, the
      result overwrites it completely.
    * Padding is `[top, bottom, left, right]`, zero padding for convolutions.
    * Output size: `OH = floor((IH + pt + pb - dh*(FH-1) - 1) / sh) + 1`,
      likewise for the width.
  }];
  // The fused activations (applyActivation) build math ops.
  let dependentDialects = ["::mlir::math::MathDialect"];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
}

#endif // DWC_DIALECT
