// The verifier branches of the fused forms: input_bias of the wrong length,
// rank or element type; activations pooling does not fuse.
// RUN: dwc-opt %s -split-input-file -verify-diagnostics

func.func @input_bias_length(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %s: tensor<5xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{input_bias has 5 elements but the input has 4 channels}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) input_bias(%s : tensor<5xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @input_bias_rank(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %s: tensor<2x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{input_bias}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) input_bias(%s : tensor<2x4xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @input_bias_type(%x: tensor<1x8x8x4xf16>, %w: tensor<3x3x4xf16>, %s: tensor<4xf32>, %i: tensor<1x8x8x4xf16>) {
  // expected-error @+1 {{input_bias element type differs from the input's}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf16>, tensor<3x3x4xf16>) input_bias(%s : tensor<4xf32>) outs(%i : tensor<1x8x8x4xf16>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x4xf16>
  return
}

// -----

func.func @pool_silu(%x: tensor<1x8x8x4xf32>, %i: tensor<1x4x4x4xf32>) {
  // expected-error @+1 {{fuses only the relu and relu6 activations, not silu}}
  %0 = dwc.pool2d max ins(%x : tensor<1x8x8x4xf32>) outs(%i : tensor<1x4x4x4xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] activation = silu -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @unknown_activation(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+2 {{expected ::mlir::dwc::Activation to be one of}}
  // expected-error @+1 {{failed to parse Dwc_ActivationAttr parameter 'value'}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] activation = swish -> tensor<1x8x8x4xf32>
  return
}
