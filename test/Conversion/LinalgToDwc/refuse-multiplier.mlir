// Channel-multiplier forms raise-linalg-to-dwc must leave alone: grouped
// convolutions whose groups are not the input channels, initial values
// other than zero, output sizes off the convolution formula.
// RUN: dwc-opt %s --raise-linalg-to-dwc --split-input-file | FileCheck %s
// RUN: dwc-opt %s --raise-linalg-to-dwc --split-input-file | FileCheck %s --check-prefix=NONE
// NONE-NOT: dwc.

// groups = 2 of 2 input channels each (C_in = 4): not depthwise.
// CHECK-LABEL: func.func @ngchw_group_size_2
// CHECK: linalg.conv_2d_ngchw_gfchw
func.func @ngchw_group_size_2(%x: tensor<1x2x2x9x9xf32>, %w: tensor<2x3x2x3x3xf32>) -> tensor<1x2x3x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x3x7x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x3x7x7xf32>) -> tensor<1x2x3x7x7xf32>
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%x, %w : tensor<1x2x2x9x9xf32>, tensor<2x3x2x3x3xf32>) outs(%f : tensor<1x2x3x7x7xf32>) -> tensor<1x2x3x7x7xf32>
  return %y : tensor<1x2x3x7x7xf32>
}

// -----

// One filter per group (M = 1): the front ends write that as a depthwise
// op; this form is left as it is.
// CHECK-LABEL: func.func @ngchw_multiplier_1
// CHECK: linalg.conv_2d_ngchw_gfchw
func.func @ngchw_multiplier_1(%x: tensor<1x4x1x9x9xf32>, %w: tensor<4x1x1x3x3xf32>) -> tensor<1x4x1x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x1x7x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x1x7x7xf32>) -> tensor<1x4x1x7x7xf32>
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%x, %w : tensor<1x4x1x9x9xf32>, tensor<4x1x1x3x3xf32>) outs(%f : tensor<1x4x1x7x7xf32>) -> tensor<1x4x1x7x7xf32>
  return %y : tensor<1x4x1x7x7xf32>
}

// -----

// An initial value of one is no bias dwc can take.
// CHECK-LABEL: func.func @hwcm_init_one
// CHECK: linalg.depthwise_conv_2d_nhwc_hwcm
func.func @hwcm_init_one(%x: tensor<1x6x6x8xf32>, %w: tensor<3x3x8x2xf32>) -> tensor<1x4x4x8x2xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<1x4x4x8x2xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<1x4x4x8x2xf32>) -> tensor<1x4x4x8x2xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x6x6x8xf32>, tensor<3x3x8x2xf32>) outs(%f : tensor<1x4x4x8x2xf32>) -> tensor<1x4x4x8x2xf32>
  return %y : tensor<1x4x4x8x2xf32>
}

// -----

// The output drops the last row and column the formula gives (linalg
// allows it; the dwc op's output is the formula's).
// CHECK-LABEL: func.func @hwcm_short_output
// CHECK: linalg.depthwise_conv_2d_nhwc_hwcm
func.func @hwcm_short_output(%x: tensor<1x6x6x8xf32>, %w: tensor<3x3x8x2xf32>) -> tensor<1x3x3x8x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x3x8x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x3x8x2xf32>) -> tensor<1x3x3x8x2xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x6x6x8xf32>, tensor<3x3x8x2xf32>) outs(%f : tensor<1x3x3x8x2xf32>) -> tensor<1x3x3x8x2xf32>
  return %y : tensor<1x3x3x8x2xf32>
}

// -----

// StableHLO's grouped generic with two input channels per group: left as
// a generic.
// CHECK-LABEL: func.func @stablehlo_group_size_2
// CHECK: linalg.generic
#in = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d7, d0, d1, d3 + d4, d5 + d6)>
#f = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d2, d1, d4, d6)>
#out = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d7, d0, d2, d3, d5)>
func.func @stablehlo_group_size_2(%x5: tensor<1x4x2x8x8xf32>, %w5: tensor<4x2x2x3x3xf32>) -> tensor<1x4x2x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x2x6x6xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x2x6x6xf32>) -> tensor<1x4x2x6x6xf32>
  %y = linalg.generic {indexing_maps = [#in, #f, #out], iterator_types = ["parallel", "reduction", "parallel", "parallel", "reduction", "parallel", "reduction", "parallel"]}
         ins(%x5, %w5 : tensor<1x4x2x8x8xf32>, tensor<4x2x2x3x3xf32>) outs(%init : tensor<1x4x2x6x6xf32>) {
  ^bb0(%in: f32, %wt: f32, %out: f32):
    %m = arith.mulf %in, %wt : f32
    %a = arith.addf %out, %m : f32
    linalg.yield %a : f32
  } -> tensor<1x4x2x6x6xf32>
  return %y : tensor<1x4x2x6x6xf32>
}
