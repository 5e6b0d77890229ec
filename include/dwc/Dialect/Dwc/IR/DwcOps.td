//===- DwcOps.td - dwc operation definitions --------------*- tablegen -*-===//
//
// The operations of the dwc dialect. Semantics are given precisely in each
// description; the CPU reference lowering (dwc-to-linalg) implements them.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_OPS
#define DWC_OPS

include "dwc/Dialect/Dwc/IR/DwcDialect.td"
include "dwc/Dialect/Dwc/IR/DwcAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"

def Dwc_Float : AnyTypeOf<[F32, F16, BF16]>;
def Dwc_Tensor : StaticShapeTensorOf<[F32, F16, BF16]>;
def Dwc_MemRef : StaticShapeMemRefOf<[F32, F16, BF16]>;
// Operands are tensors before bufferization and memrefs after it.
def Dwc_Shaped : AnyTypeOf<[Dwc_Tensor, Dwc_MemRef],
    "statically shaped tensor or memref of f32, f16 or bf16">;
// The depthwise convolution ops also take f64 (float64 gradient checks of
// the training path); their sums are then taken in f64.
def Dwc_ConvTensor : StaticShapeTensorOf<[F64, F32, F16, BF16]>;
def Dwc_ConvMemRef : StaticShapeMemRefOf<[F64, F32, F16, BF16]>;
def Dwc_ConvShaped : AnyTypeOf<[Dwc_ConvTensor, Dwc_ConvMemRef],
    "statically shaped tensor or memref of f64, f32, f16 or bf16">;

class Dwc_Op<string mnemonic, list<Trait> traits = []>
    : Op<Dwc_Dialect, mnemonic, !listconcat(traits, [
        DestinationStyleOpInterface,
        DeclareOpInterfaceMethods<MemoryEffectsOpInterface>])> {
  let hasVerifier = 1;
  code dpsMethods = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getInitMutable(); }
  }];
  // Every op has the memory effects of its destination-style operands
  // (dpsEffects in DwcOps.cpp).
  let extraClassDefinition = [{
    void $cppClass::getEffects(::llvm::SmallVectorImpl<
        ::mlir::SideEffects::EffectInstance<::mlir::MemoryEffects::Effect>>
            &effects) {
      dpsEffects(getOperation(), effects);
    }
  }];
}

//===----------------------------------------------------------------------===//
// Depthwise convolution
//===----------------------------------------------------------------------===//

def Dwc_DepthwiseConv2DOp : Dwc_Op<"depthwise_conv2d",
                                    [AttrSizedOperandSegments]> {
  let summary = "2-D depthwise convolution, forward, with optional fused "
                "prologue and epilogue";
  let description = [{
    Depthwise (one filter per channel) 2-D cross-correlation of an NHWC input
    with an `FH x FW x C` filter, plus an optional per-channel bias:

    ```
    Y[n, oh, ow, c] = bias[c] + sum_{fh, fw}
        Xpad[n, oh*sh + fh*dh, ow*sw + fw*dw, c] * W[fh, fw, c]
    ```

    where `Xpad` is the input zero-padded by `padding = [pt, pb, pl, pr]`.
    Sums are taken in the accumulation type `acc` (default `f32`; `f64` for
    `f64` elements, which only accept `acc = f64`) and rounded once to the
    element type. Element types: `f32`, `f16`, `bf16` and `f64` (the
    optimised GPU kernels take `f32`/`f16`/`bf16`; `f64` runs on the direct
    kernel). The output has
    `OH = floor((IH + pt + pb - dh*(FH-1) - 1) / sh) + 1` (likewise `OW`).
    Non-square filters (e.g. 51x5) are legal.

    With `channel_multiplier = M` (absent: 1) each input channel feeds `M`
    output channels, each with its own filter: the filter is
    `FH x FW x (C*M)`, the bias and the output have `C*M` channels, and
    output channel `c*M + m` reads input channel `c` with filter channel
    `c*M + m` (the order of PyTorch's `Conv2d(C, M*C, k, groups=C)`, of
    TOSA's `depthwise_conv2d` and of TensorFlow's `depth_multiplier`):

    ```
    Y[n, oh, ow, c*M + m] = bias[c*M + m] + sum_{fh, fw}
        Xpad[n, oh*sh + fh*dh, ow*sw + fw*dw, c] * W[fh, fw, c*M + m]
    ```

    `M` is an attribute, not inferred from the filter's channel count, so
    that a filter of the wrong size is an error rather than a different
    convolution, and so that the passes and kernels written for `M = 1`
    (which size outputs and channel vectors from the input) see at once
    that an op is not theirs. Kernel selection gives `M > 1` to the direct
    kernel only. The fused prologue and epilogue below apply with any `M`;
    `dwc-fuse-conv-pool` leaves `M > 1` alone
    (`dwc.depthwise_conv2d_pool2d` has no multiplier).

    Fusion with the neighbouring element-wise layers (a network's
    BatchNorm and activations, folded by the front end or by `dwc_torch`):

    * a prologue applied to the input as it is read: with `input_bias` (a
      per-input-channel `C` vector, also when `M > 1`) and/or
      `input_activation`,
      `X'[n, h, w, c] = input_activation(X[n, h, w, c] + input_bias[c])`
      computed in the accumulation type, and `Xpad` pads `X'` with zeros
      (the padding is that of the activated tensor, as when the two layers
      run apart);
    * an epilogue: `activation` is applied to the sum (bias included) in
      the accumulation type before the rounding to the element type.

    Activations: `relu`, `relu6`, `silu` (x * sigmoid(x)), `sigmoid`,
    `hardswish` (x * relu6(x + 3) / 6), `hardsigmoid` (relu6(x + 3) / 6),
    `gelu` (x * Phi(x), exact erf form) and `gelu_tanh` (tanh approximation).

    Example:

    ```mlir
    %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x56x56x96xf32>, tensor<7x7x96xf32>)
           bias(%b : tensor<96xf32>) outs(%init : tensor<1x56x56x96xf32>)
           strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] -> tensor<1x56x56x96xf32>
    ```

    A MobileNetV2 block's depthwise layer with the expansion's BatchNorm
    shift + ReLU6 before it and its own BatchNorm (folded into `%w`, `%b`)
    + ReLU6 after it:

    ```mlir
    %y = dwc.depthwise_conv2d ins(%x, %w : tensor<64x56x56x144xf16>, tensor<3x3x144xf16>)
           bias(%b : tensor<144xf16>) input_bias(%s : tensor<144xf16>)
           outs(%init : tensor<64x56x56x144xf16>)
           strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
           activation = relu6 input_activation = relu6 -> tensor<64x56x56x144xf16>
    ```

    FastViT's patch embedding, `Conv2d(48, 96, 7, stride=2, padding=3,
    groups=48)`:

    ```mlir
    %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x64x64x48xf32>, tensor<7x7x96xf32>)
           bias(%b : tensor<96xf32>) outs(%init : tensor<1x32x32x96xf32>)
           strides = [2, 2] dilations = [1, 1] padding = [3, 3, 3, 3]
           channel_multiplier = 2 -> tensor<1x32x32x96xf32>
    ```
  }];
  let arguments = (ins Dwc_ConvShaped:$input, Dwc_ConvShaped:$filter,
                       Optional<Dwc_ConvShaped>:$bias,
                       Optional<Dwc_ConvShaped>:$input_bias,
                       Dwc_ConvShaped:$init,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$dilations,
                       DenseI64ArrayAttr:$padding,
                       OptionalAttr<I64Attr>:$channel_multiplier,
                       OptionalAttr<TypeAttr>:$acc,
                       OptionalAttr<Dwc_ActivationAttr>:$activation,
                       OptionalAttr<Dwc_ActivationAttr>:$input_activation);
  let results = (outs Optional<Dwc_ConvTensor>:$result);
  let assemblyFormat = [{
    `ins` `(` $input `,` $filter `:` type($input) `,` type($filter) `)`
    (`bias` `(` $bias^ `:` type($bias) `)`)?
    (`input_bias` `(` $input_bias^ `:` type($input_bias) `)`)?
    `outs` `(` $init `:` type($init) `)`
    `strides` `=` $strides `dilations` `=` $dilations `padding` `=` $padding
    (`channel_multiplier` `=` $channel_multiplier^)?
    (`acc` `=` $acc^)? (`activation` `=` $activation^)?
    (`input_activation` `=` $input_activation^)? attr-dict
    (`->` type($result)^)?
  }];
  let builders = [
    // Infers the output shape, creates the destination with tensor.empty.
    OpBuilder<(ins "::mlir::Value":$input, "::mlir::Value":$filter,
                   "::mlir::Value":$bias, "::llvm::ArrayRef<int64_t>":$strides,
                   "::llvm::ArrayRef<int64_t>":$dilations,
                   "::llvm::ArrayRef<int64_t>":$padding,
                   CArg<"int64_t", "1">:$channelMultiplier)>
  ];
  let extraClassDeclaration = dpsMethods # [{
    /// The accumulation type (f32 when not given).
    ::mlir::Type getAccType();
    /// The channel multiplier M (1 when not given).
    int64_t getMultiplier() { return getChannelMultiplier().value_or(1); }
    /// Whether a prologue or an epilogue is fused into the convolution.
    bool isFused() {
      return getInputBias() || getActivation() || getInputActivation();
    }
    /// The result type implied by the operand types and attributes.
    static ::mlir::RankedTensorType inferResultType(
        ::mlir::RankedTensorType input, ::mlir::RankedTensorType filter,
        ::llvm::ArrayRef<int64_t> strides, ::llvm::ArrayRef<int64_t> dilations,
        ::llvm::ArrayRef<int64_t> padding);
  }];
}

def Dwc_DepthwiseConv2DBackwardDataOp
    : Dwc_Op<"depthwise_conv2d_backward_data"> {
  let summary = "2-D depthwise convolution, gradient with respect to the input";
  let description = [{
    Given the output gradient `dY` (`N x OH x OW x C`) and the filter
    (`FH x FW x C`) of a forward `dwc.depthwise_conv2d` with the same
    strides, dilations and padding, computes the input gradient `dX`, whose
    type (given by `outs`) carries `IH` and `IW`:

    ```
    dX[n, ih, iw, c] = sum over (oh, ow, fh, fw) with
        oh*sh + fh*dh - pt == ih and ow*sw + fw*dw - pl == iw of
        dY[n, oh, ow, c] * W[fh, fw, c]
    ```

    `OH` and `OW` must be what the forward formula gives for `IH`, `IW`.
    Sums in `acc` as for the forward op (`f32` by default, `f64` for `f64`
    elements).

    With `channel_multiplier = M` (the forward op's), `dY` and the filter
    have `C*M` channels and each input channel gathers its `M` outputs:

    ```
    dX[n, ih, iw, c] = sum_m sum over (oh, ow, fh, fw) as above of
        dY[n, oh, ow, c*M + m] * W[fh, fw, c*M + m]
    ```

    Example:

    ```mlir
    %dx = dwc.depthwise_conv2d_backward_data
            ins(%dy, %w : tensor<2x16x16x32xf32>, tensor<3x3x32xf32>)
            outs(%init : tensor<2x16x16x32xf32>)
            strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<2x16x16x32xf32>
    ```
  }];
  let arguments = (ins Dwc_ConvShaped:$output_grad, Dwc_ConvShaped:$filter,
                       Dwc_ConvShaped:$init,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$dilations,
                       DenseI64ArrayAttr:$padding,
                       OptionalAttr<I64Attr>:$channel_multiplier,
                       OptionalAttr<TypeAttr>:$acc);
  let results = (outs Optional<Dwc_ConvTensor>:$result);
  let assemblyFormat = [{
    `ins` `(` $output_grad `,` $filter `:` type($output_grad) `,` type($filter) `)`
    `outs` `(` $init `:` type($init) `)`
    `strides` `=` $strides `dilations` `=` $dilations `padding` `=` $padding
    (`channel_multiplier` `=` $channel_multiplier^)?
    (`acc` `=` $acc^)? attr-dict (`->` type($result)^)?
  }];
  let extraClassDeclaration = dpsMethods # [{
    ::mlir::Type getAccType();
    /// The channel multiplier M (1 when not given).
    int64_t getMultiplier() { return getChannelMultiplier().value_or(1); }
  }];
}

def Dwc_DepthwiseConv2DBackwardFilterOp
    : Dwc_Op<"depthwise_conv2d_backward_filter"> {
  let summary = "2-D depthwise convolution, gradient with respect to the filter";
  let description = [{
    Given the forward input `X` (`N x IH x IW x C`) and the output gradient
    `dY` (`N x OH x OW x C`), computes the filter gradient (`FH x FW x C`):

    ```
    dW[fh, fw, c] = sum_{n, oh, ow} Xpad[n, oh*sh + fh*dh, ow*sw + fw*dw, c]
                                    * dY[n, oh, ow, c]
    ```

    The sum is taken in `f32` (`f64` when `X` is `f64`). `dW` has the
    element type of `X` or `f32`.

    With `channel_multiplier = M` (the forward op's), `dY` and `dW` have
    `C*M` channels and filter channel `c*M + m` pairs input channel `c`
    with output channel `c*M + m`:

    ```
    dW[fh, fw, c*M + m] = sum_{n, oh, ow} Xpad[n, oh*sh + fh*dh, ow*sw + fw*dw, c]
                                          * dY[n, oh, ow, c*M + m]
    ```

    Example:

    ```mlir
    %dw = dwc.depthwise_conv2d_backward_filter
            ins(%x, %dy : tensor<2x16x16x32xf16>, tensor<2x16x16x32xf16>)
            outs(%init : tensor<3x3x32xf32>)
            strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<3x3x32xf32>
    ```
  }];
  let arguments = (ins Dwc_ConvShaped:$input, Dwc_ConvShaped:$output_grad,
                       Dwc_ConvShaped:$init,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$dilations,
                       DenseI64ArrayAttr:$padding,
                       OptionalAttr<I64Attr>:$channel_multiplier);
  let results = (outs Optional<Dwc_ConvTensor>:$result);
  let assemblyFormat = [{
    `ins` `(` $input `,` $output_grad `:` type($input) `,` type($output_grad) `)`
    `outs` `(` $init `:` type($init) `)`
    `strides` `=` $strides `dilations` `=` $dilations `padding` `=` $padding
    (`channel_multiplier` `=` $channel_multiplier^)?
    attr-dict (`->` type($result)^)?
  }];
  let extraClassDeclaration = dpsMethods # [{
    /// The accumulation type: f64 for f64 inputs, else f32.
    ::mlir::Type getAccType();
    /// The channel multiplier M (1 when not given).
    int64_t getMultiplier() { return getChannelMultiplier().value_or(1); }
  }];
}

def Dwc_Conv2DBackwardBiasOp : Dwc_Op<"conv2d_backward_bias"> {
  let summary = "Gradient of a convolution's bias: dY summed over N, H and W";
  let description = [{
    Given the output gradient `dY` (`N x OH x OW x C`) of a convolution
    (depthwise or dense) with a per-channel bias, computes the bias gradient
    (`C`):

    ```
    dB[c] = sum_{n, oh, ow} dY[n, oh, ow, c]
    ```

    The sum is taken in `f32` (`f64` when `dY` is `f64`). `dB` has the
    element type of `dY` or `f32`. A training step computes it next to the
    filter gradient from the same `dY`.

    Example:

    ```mlir
    %db = dwc.conv2d_backward_bias ins(%dy : tensor<64x56x56x96xf16>)
            outs(%init : tensor<96xf32>) -> tensor<96xf32>
    ```
  }];
  let arguments = (ins Dwc_ConvShaped:$output_grad, Dwc_ConvShaped:$init);
  let results = (outs Optional<Dwc_ConvTensor>:$result);
  let assemblyFormat = [{
    `ins` `(` $output_grad `:` type($output_grad) `)`
    `outs` `(` $init `:` type($init) `)`
    attr-dict (`->` type($result)^)?
  }];
  let extraClassDeclaration = dpsMethods # [{
    /// The accumulation type: f64 for f64 output gradients, else f32.
    ::mlir::Type getAccType();
  }];
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

def Dwc_Pool2DOp : Dwc_Op<"pool2d"> {
  let summary = "2-D max or average pooling over NHWC";
  let description = [{
    Window reduction over `window = [KH, KW]` at `strides = [sh, sw]` with
    `padding = [pt, pb, pl, pr]`. Output height:

    ```
    OH = floor((IH + pt + pb - KH) / sh) + 1            (ceil_mode = false)
    OH = ceil ((IH + pt + pb - KH) / sh) + 1            (ceil_mode = true)
         minus one if that last window starts at or beyond IH + pt
    ```

    (likewise the width). `max` takes the maximum of the window's elements
    that lie inside the input (padding never wins). `avg` sums those
    elements in `acc` (default f32) and divides by: the number of elements
    inside the input when `count_include_pad` is false; otherwise the
    window's extent clipped to the padded input `[-pt, IH + pb)`, so padding
    counts and the overhang of a `ceil_mode` window does not. Each padding
    amount must be smaller than the window (every window then holds at least
    one element of the input).

    An optional `activation` (`relu`: max(y, 0), `relu6`: min(max(y, 0), 6))
    is applied to each pooled value before it is stored (after the division
    of `avg`, before rounding to the element type); `dwc-fuse-activation`
    folds a following elementwise ReLU/ReLU6 into it. It is an inference
    epilogue: `dwc.pool2d_backward` is the gradient of the pooling alone.

    Example:

    ```mlir
    %y = dwc.pool2d max ins(%x : tensor<1x112x112x64xf32>)
           outs(%init : tensor<1x56x56x64xf32>)
           window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] -> tensor<1x56x56x64xf32>
    ```
  }];
  let arguments = (ins Dwc_PoolKindAttr:$kind, Dwc_Shaped:$input,
                       Dwc_Shaped:$init,
                       DenseI64ArrayAttr:$window, DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$padding, UnitAttr:$ceil_mode,
                       UnitAttr:$count_include_pad, OptionalAttr<TypeAttr>:$acc,
                       OptionalAttr<Dwc_ActivationAttr>:$activation);
  let results = (outs Optional<Dwc_Tensor>:$result);
  let assemblyFormat = [{
    $kind `ins` `(` $input `:` type($input) `)`
    `outs` `(` $init `:` type($init) `)`
    `window` `=` $window `strides` `=` $strides `padding` `=` $padding
    (`ceil_mode` $ceil_mode^)? (`count_include_pad` $count_include_pad^)?
    (`acc` `=` $acc^)? (`activation` `=` $activation^)? attr-dict
    (`->` type($result)^)?
  }];
  let extraClassDeclaration = dpsMethods # [{
    ::mlir::Type getAccType();
    /// Output extent along one spatial dimension (the formula above).
    static int64_t outputSize(int64_t in, int64_t window, int64_t stride,
                              int64_t padBefore, int64_t padAfter, bool ceilMode);
  }];
}

def Dwc_DepthwiseConv2DPool2DOp : Dwc_Op<"depthwise_conv2d_pool2d"> {
  let summary = "2-D depthwise convolution with a pooling epilogue";
  let description = [{
    The composition `pool2d(depthwise_conv2d(X, W, bias))` as one op, so that
    the convolution's output never goes to memory: the fused kernels compute
    each pooling window's convolution outputs in registers and store only the
    pooled result. It is what `dwc-fuse-conv-pool` makes of a
    `dwc.depthwise_conv2d` whose result only feeds a `dwc.pool2d`.

    Semantics, exactly those of the two ops: the convolution (`strides`,
    `dilations`, `padding`, bias, sums in `acc`) is rounded to the element
    type, then pooled (`kind`, `window`, `pool_strides`, `pool_padding`,
    `ceil_mode`, `count_include_pad`; averages summed in `acc`), then the
    optional `activation` is applied. Shapes: input `N x IH x IW x C`, filter
    `FH x FW x C`, optional bias `C`, output `N x PH x PW x C` where
    `PH x PW` is the pooled size of the convolution's `OH x OW`. Element
    types `f32`, `f16`, `bf16`.

    Lowering: `convert-dwc-to-gpu-pool` emits one fused kernel for stride-1
    undilated convolutions with at most 49 taps (9 for f16/bf16) and
    128-bit channel vectors;
    `dwc-decompose-conv-pool` rewrites it back into the two ops otherwise
    (and on the CPU path).

    Example:

    ```mlir
    %y = dwc.depthwise_conv2d_pool2d max ins(%x, %w : tensor<1x112x112x64xf32>, tensor<3x3x64xf32>)
           outs(%init : tensor<1x56x56x64xf32>)
           strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
           window = [3, 3] pool_strides = [2, 2] pool_padding = [1, 1, 1, 1] -> tensor<1x56x56x64xf32>
    ```
  }];
  let arguments = (ins Dwc_PoolKindAttr:$kind, Dwc_Shaped:$input,
                       Dwc_Shaped:$filter, Optional<Dwc_Shaped>:$bias,
                       Dwc_Shaped:$init,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$dilations,
                       DenseI64ArrayAttr:$padding,
                       DenseI64ArrayAttr:$window, DenseI64ArrayAttr:$pool_strides,
                       DenseI64ArrayAttr:$pool_padding, UnitAttr:$ceil_mode,
                       UnitAttr:$count_include_pad, OptionalAttr<TypeAttr>:$acc,
                       OptionalAttr<Dwc_ActivationAttr>:$activation);
  let results = (outs Optional<Dwc_Tensor>:$result);
  let assemblyFormat = [{
    $kind `ins` `(` $input `,` $filter `:` type($input) `,` type($filter) `)`
    (`bias` `(` $bias^ `:` type($bias) `)`)?
    `outs` `(` $init `:` type($init) `)`
    `strides` `=` $strides `dilations` `=` $dilations `padding` `=` $padding
    `window` `=` $window `pool_strides` `=` $pool_strides
    `pool_padding` `=` $pool_padding
    (`ceil_mode` $ceil_mode^)? (`count_include_pad` $count_include_pad^)?
    (`acc` `=` $acc^)? (`activation` `=` $activation^)? attr-dict
    (`->` type($result)^)?
  }];
  let extraClassDeclaration = dpsMethods # [{
    ::mlir::Type getAccType();
    /// Shape of the (unmaterialized) convolution output, N x OH x OW x C.
    ::llvm::SmallVector<int64_t> getConvShape();
  }];
}

def Dwc_Pool2DBackwardOp : Dwc_Op<"pool2d_backward"> {
  let summary = "Gradient of 2-D max or average pooling with respect to its input";
  let description = [{
    Given the forward input `X` (`N x IH x IW x C`) and the gradient `dY` of
    a `dwc.pool2d` with the same kind, window, strides, padding, `ceil_mode`
    and `count_include_pad`, computes `dX` (the type of `X`):

    * `max`: each `dY[n, oh, ow, c]` flows to the position of the maximum of
      its window over the elements inside the input; on ties, the first in
      row-major window order (`fh` outer, `fw` inner) wins. The argmax is
      recomputed from `X`, nothing is stored by the forward op.
    * `avg`: each `dY[n, oh, ow, c] / divisor(oh, ow)` flows to every
      element of its window that lies inside the input, with the divisor of
      the forward op (see `dwc.pool2d`).

    Contributions of overlapping windows add up (in `acc`, default f32).

    ```mlir
    %dx = dwc.pool2d_backward max ins(%x, %dy : tensor<1x112x112x64xf32>, tensor<1x56x56x64xf32>)
            outs(%init : tensor<1x112x112x64xf32>)
            window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] -> tensor<1x112x112x64xf32>
    ```
  }];
  let arguments = (ins Dwc_PoolKindAttr:$kind, Dwc_Shaped:$input,
                       Dwc_Shaped:$output_grad, Dwc_Shaped:$init,
                       DenseI64ArrayAttr:$window, DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$padding, UnitAttr:$ceil_mode,
                       UnitAttr:$count_include_pad, OptionalAttr<TypeAttr>:$acc);
  let results = (outs Optional<Dwc_Tensor>:$result);
  let assemblyFormat = [{
    $kind `ins` `(` $input `,` $output_grad `:` type($input) `,` type($output_grad) `)`
    `outs` `(` $init `:` type($init) `)`
    `window` `=` $window `strides` `=` $strides `padding` `=` $padding
    (`ceil_mode` $ceil_mode^)? (`count_include_pad` $count_include_pad^)?
    (`acc` `=` $acc^)? attr-dict (`->` type($result)^)?
  }];
  let extraClassDeclaration = dpsMethods # [{
    ::mlir::Type getAccType();
  }];
}

def Dwc_GlobalAvgPoolOp : Dwc_Op<"global_avg_pool"> {
  let summary = "Global average pooling: mean over H and W";
  let description = [{
    `Y[n, 0, 0, c] = (sum_{h, w} X[n, h, w, c]) / (H * W)`, summed in `acc`
    (default f32). The output is `N x 1 x 1 x C`.

    ```mlir
    %y = dwc.global_avg_pool ins(%x : tensor<8x7x7x768xf16>)
           outs(%init : tensor<8x1x1x768xf16>) -> tensor<8x1x1x768xf16>
    ```
  }];
  let arguments = (ins Dwc_Shaped:$input, Dwc_Shaped:$init,
                       OptionalAttr<TypeAttr>:$acc);
  let results = (outs Optional<Dwc_Tensor>:$result);
  let assemblyFormat = [{
    `ins` `(` $input `:` type($input) `)` `outs` `(` $init `:` type($init) `)`
    (`acc` `=` $acc^)? attr-dict (`->` type($result)^)?
  }];
  let extraClassDeclaration = dpsMethods # [{
    ::mlir::Type getAccType();
  }];
}

//===----------------------------------------------------------------------===//
// im2win and dense convolution
//===----------------------------------------------------------------------===//

def Dwc_Im2winOp : Dwc_Op<"im2win"> {
  let summary = "im2win layout transform of an NHWC input";
  let description = [{
    Rearranges an NHWC input so that every sliding window of a
    `window = [FH, FW]` convolution with the given strides, dilations and
    padding is one contiguous run of memory, without im2col's duplication
    along the width. The result is rank 5, `N x OH x IWp x FH x C`, with
    `IWp = IW + pl + pr` and `OH` the convolution output height:

    ```
    R[n, oh, w, fh, c] = Xpad[n, oh*sh + fh*dh, w, c]
    ```

    For output row `oh`, the `FH` input rows the windows touch are
    interleaved column by column; the window of output column `ow` (with
    `dw = 1`) is the contiguous block `R[n, oh, ow*sw : ow*sw + FW, :, :]`
    of `FW*FH*C` elements. Width dilation is applied by the consumer.

    ```mlir
    %r = dwc.im2win ins(%x : tensor<1x8x8x3xf32>)
           outs(%init : tensor<1x6x8x3x3xf32>)
           window = [3, 3] strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x6x8x3x3xf32>
    ```
  }];
  let arguments = (ins Dwc_Shaped:$input, Dwc_Shaped:$init,
                       DenseI64ArrayAttr:$window, DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$dilations, DenseI64ArrayAttr:$padding);
  let results = (outs Optional<Dwc_Tensor>:$result);
  let assemblyFormat = [{
    `ins` `(` $input `:` type($input) `)` `outs` `(` $init `:` type($init) `)`
    `window` `=` $window `strides` `=` $strides `dilations` `=` $dilations
    `padding` `=` $padding attr-dict (`->` type($result)^)?
  }];
  let extraClassDeclaration = dpsMethods;
}

def Dwc_Conv2DOp : Dwc_Op<"conv2d"> {
  let summary = "Dense 2-D convolution, NHWC input, FH x FW x C x OC filter";
  let description = [{
    ```
    Y[n, oh, ow, oc] = bias[oc] + sum_{fh, fw, c}
        Xpad[n, oh*sh + fh*dh, ow*sw + fw*dw, c] * W[fh, fw, c, oc]
    ```

    summed in `acc` (default f32); output size as for the depthwise op.
    The GPU path computes it through the im2win layout.

    ```mlir
    %y = dwc.conv2d ins(%x, %w : tensor<1x14x14x256xf16>, tensor<3x3x256x256xf16>)
           outs(%init : tensor<1x14x14x256xf16>)
           strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x14x14x256xf16>
    ```
  }];
  let arguments = (ins Dwc_ConvShaped:$input, Dwc_ConvShaped:$filter,
                       Optional<Dwc_ConvShaped>:$bias, Dwc_ConvShaped:$init,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$dilations,
                       DenseI64ArrayAttr:$padding, OptionalAttr<TypeAttr>:$acc);
  let results = (outs Optional<Dwc_ConvTensor>:$result);
  let assemblyFormat = [{
    `ins` `(` $input `,` $filter `:` type($input) `,` type($filter) `)`
    (`bias` `(` $bias^ `:` type($bias) `)`)?
    `outs` `(` $init `:` type($init) `)`
    `strides` `=` $strides `dilations` `=` $dilations `padding` `=` $padding
    (`acc` `=` $acc^)? attr-dict (`->` type($result)^)?
  }];
  let extraClassDeclaration = dpsMethods # [{
    ::mlir::Type getAccType();
  }];
}

#endif // DWC_OPS
