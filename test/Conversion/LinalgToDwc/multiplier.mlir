// Depthwise convolutions with a channel multiplier M > 1 (output channel
// c*M + m reads input channel c) in the three front-end forms: TOSA's
// linalg.depthwise_conv_2d_nhwc_hwcm, linalg.conv_2d_ngchw_gfchw on
// expanded operands (torch-mlir linalg-on-tensors, ONNX, IREE) and
// StableHLO's grouped generic; each raises to dwc.depthwise_conv2d with
// channel_multiplier = M.
// RUN: dwc-opt %s --raise-linalg-to-dwc --split-input-file | FileCheck %s

// TOSA: M = 2 into a 5-D result that is collapsed (the expand of the raised
// result folds with it), the pad with constant SSA amounts folded.
// CHECK-LABEL: func.func @hwcm_multiplier_2
// CHECK: %[[W:.*]] = tensor.collapse_shape %arg1 {{\[}}[0], [1], [2, 3]] : tensor<3x3x8x2xf32> into tensor<3x3x16xf32>
// CHECK: %[[Y:.*]] = dwc.depthwise_conv2d ins(%arg0, %[[W]] : tensor<1x6x6x8xf32>, tensor<3x3x16xf32>) outs(%{{.*}} : tensor<1x6x6x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2 -> tensor<1x6x6x16xf32>
// CHECK-NEXT: return %[[Y]]
func.func @hwcm_multiplier_2(%x: tensor<1x6x6x8xf32>, %w: tensor<3x3x8x2xf32>) -> tensor<1x6x6x16xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = tensor.pad %x low[%c0, %c1, %c1, %c0] high[%c0, %c1, %c1, %c0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x6x6x8xf32> to tensor<1x8x8x8xf32>
  %e = tensor.empty() : tensor<1x6x6x8x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x6x8x2xf32>) -> tensor<1x6x6x8x2xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%p, %w : tensor<1x8x8x8xf32>, tensor<3x3x8x2xf32>) outs(%f : tensor<1x6x6x8x2xf32>) -> tensor<1x6x6x8x2xf32>
  %c = tensor.collapse_shape %y [[0], [1], [2], [3, 4]] : tensor<1x6x6x8x2xf32> into tensor<1x6x6x16xf32>
  return %c : tensor<1x6x6x16xf32>
}

// -----

// M = 3, stride 2, dilation 2, f16, no padding, the 5-D result returned.
// CHECK-LABEL: func.func @hwcm_multiplier_3_f16
// CHECK: %[[Y:.*]] = dwc.depthwise_conv2d ins(%arg0, %{{.*}} : tensor<1x9x9x5xf16>, tensor<3x3x15xf16>) outs(%{{.*}} : tensor<1x3x3x15xf16>) strides = [2, 2] dilations = [2, 2] padding = [0, 0, 0, 0] channel_multiplier = 3 -> tensor<1x3x3x15xf16>
// CHECK: tensor.expand_shape %[[Y]] {{\[}}[0], [1], [2], [3, 4]] {{.*}} into tensor<1x3x3x5x3xf16>
func.func @hwcm_multiplier_3_f16(%x: tensor<1x9x9x5xf16>, %w: tensor<3x3x5x3xf16>) -> tensor<1x3x3x5x3xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<1x3x3x5x3xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<1x3x3x5x3xf16>) -> tensor<1x3x3x5x3xf16>
  %y = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %w : tensor<1x9x9x5xf16>, tensor<3x3x5x3xf16>) outs(%f : tensor<1x3x3x5x3xf16>) -> tensor<1x3x3x5x3xf16>
  return %y : tensor<1x3x3x5x3xf16>
}

// -----

// torch-mlir linalg-on-tensors: Conv2d(4, 8, 3, padding=1, groups=4) with a
// bias: padded input, filter and bias-broadcast init expanded to groups,
// linalg.conv_2d_ngchw_gfchw, result collapsed. The group reshapes fold;
// the input and output transposes are 4-D ones.
// CHECK-LABEL: func.func @ngchw_multiplier_2_bias
// CHECK-DAG: %[[X:.*]] = linalg.transpose ins(%arg0 : tensor<1x4x7x7xf32>) {{.*}} permutation = [0, 2, 3, 1]
// CHECK-DAG: %[[W:.*]] = tensor.collapse_shape {{.*}} into tensor<3x3x8xf32>
// CHECK: %[[Y:.*]] = dwc.depthwise_conv2d ins(%[[X]], %[[W]] : tensor<1x7x7x4xf32>, tensor<3x3x8xf32>) bias(%arg2 : tensor<8xf32>) outs(%{{.*}} : tensor<1x7x7x8xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2 -> tensor<1x7x7x8xf32>
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[Y]] : tensor<1x7x7x8xf32>) {{.*}} permutation = [0, 3, 1, 2]
// CHECK-NEXT: return %[[T]]
// CHECK-NOT: linalg.conv_2d_ngchw_gfchw
func.func @ngchw_multiplier_2_bias(%x: tensor<1x4x7x7xf32>, %w: tensor<8x1x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x8x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b2: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x4x7x7xf32> to tensor<1x4x9x9xf32>
  %e = tensor.empty() : tensor<1x8x7x7xf32>
  %bb = linalg.broadcast ins(%b : tensor<8xf32>) outs(%e : tensor<1x8x7x7xf32>) dimensions = [0, 2, 3]
  %x5 = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 4, 1, 9, 9] : tensor<1x4x9x9xf32> into tensor<1x4x1x9x9xf32>
  %w5 = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [4, 2, 1, 3, 3] : tensor<8x1x3x3xf32> into tensor<4x2x1x3x3xf32>
  %i5 = tensor.expand_shape %bb [[0], [1, 2], [3], [4]] output_shape [1, 4, 2, 7, 7] : tensor<1x8x7x7xf32> into tensor<1x4x2x7x7xf32>
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%x5, %w5 : tensor<1x4x1x9x9xf32>, tensor<4x2x1x3x3xf32>) outs(%i5 : tensor<1x4x2x7x7xf32>) -> tensor<1x4x2x7x7xf32>
  %c = tensor.collapse_shape %y [[0], [1, 2], [3], [4]] : tensor<1x4x2x7x7xf32> into tensor<1x8x7x7xf32>
  return %c : tensor<1x8x7x7xf32>
}

// -----

// The same form with M = 4, stride 2, a zero-fill init and f16.
// CHECK-LABEL: func.func @ngchw_multiplier_4_s2
// CHECK: dwc.depthwise_conv2d ins(%{{.*}}, %{{.*}} : tensor<1x8x8x3xf16>, tensor<3x3x12xf16>) outs(%{{.*}} : tensor<1x4x4x12xf16>) strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 4 -> tensor<1x4x4x12xf16>
// CHECK-NOT: linalg.conv_2d_ngchw_gfchw
func.func @ngchw_multiplier_4_s2(%x: tensor<1x3x8x8xf16>, %w: tensor<12x1x3x3xf16>) -> tensor<1x12x4x4xf16> {
  %zero = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b2: index, %c: index, %d: index):
    tensor.yield %zero : f16
  } : tensor<1x3x8x8xf16> to tensor<1x3x10x10xf16>
  %e = tensor.empty() : tensor<1x12x4x4xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<1x12x4x4xf16>) -> tensor<1x12x4x4xf16>
  %x5 = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 3, 1, 10, 10] : tensor<1x3x10x10xf16> into tensor<1x3x1x10x10xf16>
  %w5 = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [3, 4, 1, 3, 3] : tensor<12x1x3x3xf16> into tensor<3x4x1x3x3xf16>
  %i5 = tensor.expand_shape %f [[0], [1, 2], [3], [4]] output_shape [1, 3, 4, 4, 4] : tensor<1x12x4x4xf16> into tensor<1x3x4x4x4xf16>
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
         ins(%x5, %w5 : tensor<1x3x1x10x10xf16>, tensor<3x4x1x3x3xf16>) outs(%i5 : tensor<1x3x4x4x4xf16>) -> tensor<1x3x4x4x4xf16>
  %c = tensor.collapse_shape %y [[0], [1, 2], [3], [4]] : tensor<1x3x4x4x4xf16> into tensor<1x12x4x4xf16>
  return %c : tensor<1x12x4x4xf16>
}

// -----

// StableHLO: the grouped 8-loop generic with a G x M x 1 x KH x KW filter
// (fg of extent M = 2), initial value a broadcast of a 0-D constant.
// CHECK-LABEL: func.func @stablehlo_multiplier_2
// CHECK: dwc.depthwise_conv2d ins(%{{.*}}, %{{.*}} : tensor<1x6x6x8xf32>, tensor<3x3x16xf32>) outs(%{{.*}} : tensor<1x6x6x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2 -> tensor<1x6x6x16xf32>
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.conv_2d_ngchw_gfchw
#in = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d7, d0, d1, d3 + d4, d5 + d6)>
#f = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d2, d1, d4, d6)>
#out = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d7, d0, d2, d3, d5)>
#bc = affine_map<(d0, d1, d2, d3, d4) -> ()>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @stablehlo_multiplier_2(%x: tensor<1x8x6x6xf32>, %w: tensor<16x1x3x3xf32>) -> tensor<1x16x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %z0 = arith.constant dense<0.0> : tensor<f32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x8x6x6xf32> to tensor<1x8x8x8xf32>
  %x5 = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 8, 1, 8, 8] : tensor<1x8x8x8xf32> into tensor<1x8x1x8x8xf32>
  %w5 = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [8, 2, 1, 3, 3] : tensor<16x1x3x3xf32> into tensor<8x2x1x3x3xf32>
  %e = tensor.empty() : tensor<1x8x2x6x6xf32>
  %init = linalg.generic {indexing_maps = [#bc, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
            ins(%z0 : tensor<f32>) outs(%e : tensor<1x8x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x2x6x6xf32>
  %y = linalg.generic {indexing_maps = [#in, #f, #out], iterator_types = ["parallel", "reduction", "parallel", "parallel", "reduction", "parallel", "reduction", "parallel"]}
         ins(%x5, %w5 : tensor<1x8x1x8x8xf32>, tensor<8x2x1x3x3xf32>) outs(%init : tensor<1x8x2x6x6xf32>) {
  ^bb0(%in: f32, %wt: f32, %out: f32):
    %m = arith.mulf %in, %wt : f32
    %a = arith.addf %out, %m : f32
    linalg.yield %a : f32
  } -> tensor<1x8x2x6x6xf32>
  %c = tensor.collapse_shape %y [[0], [1, 2], [3], [4]] : tensor<1x8x2x6x6xf32> into tensor<1x16x6x6xf32>
  return %c : tensor<1x16x6x6xf32>
}
