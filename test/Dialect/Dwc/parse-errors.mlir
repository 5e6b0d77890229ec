// Malformed syntax gives a diagnostic and a non-zero exit, never a crash.
// RUN: dwc-opt %s -split-input-file -verify-diagnostics

func.func @unknown_pool_kind(%x: tensor<1x8x8x4xf32>, %i: tensor<1x4x4x4xf32>) {
  // expected-error @+2 {{expected ::mlir::dwc::PoolKind to be one of: max, avg}}
  // expected-error @+1 {{failed to parse Dwc_PoolKindAttr parameter 'value'}}
  %0 = dwc.pool2d min ins(%x : tensor<1x8x8x4xf32>) outs(%i : tensor<1x4x4x4xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @unknown_activation(%x: tensor<1x8x8x4xf32>, %i: tensor<1x4x4x4xf32>) {
  // expected-error @+2 {{expected ::mlir::dwc::Activation to be one of: relu, relu6, silu, sigmoid, hardswish, hardsigmoid, gelu, gelu_tanh}}
  // expected-error @+1 {{failed to parse Dwc_ActivationAttr parameter 'value'}}
  %0 = dwc.pool2d max ins(%x : tensor<1x8x8x4xf32>) outs(%i : tensor<1x4x4x4xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] activation = swish -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @missing_outs(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>) {
  // expected-error @+1 {{expected 'outs'}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @missing_padding(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{expected 'padding'}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [1, 1] dilations = [1, 1] -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @acc_not_a_type(%x: tensor<1x8x8x4xf32>, %i: tensor<1x1x1x4xf32>) {
  // expected-error @+1 {{integer literal not valid for specified type}}
  %0 = dwc.global_avg_pool ins(%x : tensor<1x8x8x4xf32>) outs(%i : tensor<1x1x1x4xf32>) acc = 3 -> tensor<1x1x1x4xf32>
  return
}
