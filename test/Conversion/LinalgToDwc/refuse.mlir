// What raise-linalg-to-dwc must leave alone: every function here comes out
// unchanged (no dwc op anywhere, the linalg op still present).
// RUN: dwc-opt %s --raise-linalg-to-dwc --split-input-file | FileCheck %s
// RUN: dwc-opt %s --raise-linalg-to-dwc --split-input-file | FileCheck %s --check-prefix=NONE
// NONE-NOT: dwc.

// Dynamic shapes.
// CHECK-LABEL: func.func @dynamic
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
func.func @dynamic(%x: tensor<?x8x8x16xf32>, %w: tensor<3x3x16xf32>, %e: tensor<?x6x6x16xf32>) -> tensor<?x6x6x16xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x6x6x16xf32>) -> tensor<?x6x6x16xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<?x8x8x16xf32>, tensor<3x3x16xf32>) outs(%f : tensor<?x6x6x16xf32>) -> tensor<?x6x6x16xf32>
  return %y : tensor<?x6x6x16xf32>
}

// -----

// The accumulator starts at 1.0, not 0.
// CHECK-LABEL: func.func @fill_one
// CHECK: linalg.fill
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
func.func @fill_one(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x6x6x16xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<1x6x6x16xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%f : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  return %y : tensor<1x6x6x16xf32>
}

// -----

// -0.0 is not the +0.0 a dwc convolution starts from.
// CHECK-LABEL: func.func @fill_negative_zero
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
func.func @fill_negative_zero(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x6x6x16xf32> {
  %nz = arith.constant -0.0 : f32
  %e = tensor.empty() : tensor<1x6x6x16xf32>
  %f = linalg.fill ins(%nz : f32) outs(%e : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%f : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  return %y : tensor<1x6x6x16xf32>
}

// -----

// A fill of a value that is not a constant.
// CHECK-LABEL: func.func @fill_unknown
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
func.func @fill_unknown(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>, %v: f32) -> tensor<1x6x6x16xf32> {
  %e = tensor.empty() : tensor<1x6x6x16xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%f : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  return %y : tensor<1x6x6x16xf32>
}

// -----

// Accumulating into an arbitrary tensor.
// CHECK-LABEL: func.func @accumulate
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
func.func @accumulate(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>, %acc: tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32> {
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%acc : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  return %y : tensor<1x6x6x16xf32>
}

// -----

// Integer convolution.
// CHECK-LABEL: func.func @integer
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
func.func @integer(%x: tensor<1x8x8x16xi32>, %w: tensor<3x3x16xi32>) -> tensor<1x6x6x16xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x6x6x16xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<1x6x6x16xi32>) -> tensor<1x6x6x16xi32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x8x8x16xi32>, tensor<3x3x16xi32>) outs(%f : tensor<1x6x6x16xi32>) -> tensor<1x6x6x16xi32>
  return %y : tensor<1x6x6x16xi32>
}

// -----

// f16 operands accumulated into an f32 output (dwc needs one element type).
// CHECK-LABEL: func.func @mixed_types
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
func.func @mixed_types(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16xf16>) -> tensor<1x6x6x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x6x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x8x8x16xf16>, tensor<3x3x16xf16>) outs(%f : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  return %y : tensor<1x6x6x16xf32>
}

// -----

// linalg may leave trailing input rows unused (output 5x5 where the formula
// gives 8x8); dwc derives the output size from the input.
// CHECK-LABEL: func.func @short_output
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
func.func @short_output(%x: tensor<1x10x10x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x5x5x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x5x5x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x5x16xf32>) -> tensor<1x5x5x16xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x10x10x16xf32>, tensor<3x3x16xf32>) outs(%f : tensor<1x5x5x16xf32>) -> tensor<1x5x5x16xf32>
  return %y : tensor<1x5x5x16xf32>
}

// -----

// Buffer (memref) form: only tensors are raised.
// CHECK-LABEL: func.func @memref_form
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
func.func @memref_form(%x: memref<1x8x8x16xf32>, %w: memref<3x3x16xf32>, %y: memref<1x6x6x16xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<1x6x6x16xf32>)
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x8x8x16xf32>, memref<3x3x16xf32>) outs(%y : memref<1x6x6x16xf32>)
  return
}

// -----

// A "bias" broadcast along H instead of the channels.
// CHECK-LABEL: func.func @bias_wrong_dim
// CHECK: linalg.broadcast
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
func.func @bias_wrong_dim(%x: tensor<1x18x18x16xf32>, %w: tensor<3x3x16xf32>, %b: tensor<16xf32>) -> tensor<1x16x16x16xf32> {
  %e = tensor.empty() : tensor<1x16x16x16xf32>
  %bb = linalg.broadcast ins(%b : tensor<16xf32>) outs(%e : tensor<1x16x16x16xf32>) dimensions = [0, 2, 3]
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x18x18x16xf32>, tensor<3x3x16xf32>) outs(%bb : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  return %y : tensor<1x16x16x16xf32>
}

// -----

// Dense convolution accumulating into a non-zero splat.
// CHECK-LABEL: func.func @conv_splat_one
// CHECK: linalg.conv_2d_nhwc_hwcf
func.func @conv_splat_one(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32> {
  %one = arith.constant dense<1.0> : tensor<1x6x6x16xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) outs(%one : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  return %y : tensor<1x6x6x16xf32>
}

// -----

// Dilated pooling has no dwc equivalent.
// CHECK-LABEL: func.func @max_dilated
// CHECK: linalg.pooling_nhwc_max
func.func @max_dilated(%x: tensor<1x8x8x16xf32>) -> tensor<1x6x6x16xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %win = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x6x6x16xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %y = linalg.pooling_nhwc_max {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %win : tensor<1x8x8x16xf32>, tensor<2x2xf32>) outs(%f : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  return %y : tensor<1x6x6x16xf32>
}

// -----

// A max starting from 0 is a fused ReLU, not a plain max pooling.
// CHECK-LABEL: func.func @max_zero_fill
// CHECK: linalg.pooling_nhwc_max
func.func @max_zero_fill(%x: tensor<1x8x8x16xf32>) -> tensor<1x4x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %win = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x4x4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %y = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %win : tensor<1x8x8x16xf32>, tensor<2x2xf32>) outs(%f : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  return %y : tensor<1x4x4x16xf32>
}

// -----

// Integer max pooling.
// CHECK-LABEL: func.func @max_integer
// CHECK: linalg.pooling_nhwc_max
func.func @max_integer(%x: tensor<1x8x8x16xi32>) -> tensor<1x4x4x16xi32> {
  %min = arith.constant -2147483648 : i32
  %win = tensor.empty() : tensor<2x2xi32>
  %e = tensor.empty() : tensor<1x4x4x16xi32>
  %f = linalg.fill ins(%min : i32) outs(%e : tensor<1x4x4x16xi32>) -> tensor<1x4x4x16xi32>
  %y = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %win : tensor<1x8x8x16xi32>, tensor<2x2xi32>) outs(%f : tensor<1x4x4x16xi32>) -> tensor<1x4x4x16xi32>
  return %y : tensor<1x4x4x16xi32>
}

// -----

// A sum pooling that is not divided is not an average.
// CHECK-LABEL: func.func @sum_only
// CHECK: linalg.pooling_nhwc_sum
func.func @sum_only(%x: tensor<1x8x8x16xf32>) -> tensor<1x4x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %win = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x4x4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %win : tensor<1x8x8x16xf32>, tensor<2x2xf32>) outs(%f : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  return %s : tensor<1x4x4x16xf32>
}

// -----

// Division by something other than the window size (5 for a 2x2 window),
// by 1/9 as a multiplication (inexact), and the divisor as the dividend.
// CHECK-LABEL: func.func @avg_wrong_divisor
// CHECK: linalg.pooling_nhwc_sum
// CHECK: arith.divf
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @avg_wrong_divisor(%x: tensor<1x8x8x16xf32>) -> tensor<1x4x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %five = arith.constant 5.0 : f32
  %win = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x4x4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %win : tensor<1x8x8x16xf32>, tensor<2x2xf32>) outs(%f : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%s : tensor<1x4x4x16xf32>) outs(%e : tensor<1x4x4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %five : f32
    linalg.yield %d : f32
  } -> tensor<1x4x4x16xf32>
  return %y : tensor<1x4x4x16xf32>
}

// CHECK-LABEL: func.func @avg_inexact_reciprocal
// CHECK: linalg.pooling_nhwc_sum
// CHECK: arith.mulf
func.func @avg_inexact_reciprocal(%x: tensor<1x8x8x16xf32>) -> tensor<1x6x6x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninth = arith.constant 0.111111112 : f32
  %win = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x6x6x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %win : tensor<1x8x8x16xf32>, tensor<3x3xf32>) outs(%f : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%s : tensor<1x6x6x16xf32>) outs(%e : tensor<1x6x6x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.mulf %in, %ninth : f32
    linalg.yield %d : f32
  } -> tensor<1x6x6x16xf32>
  return %y : tensor<1x6x6x16xf32>
}

// CHECK-LABEL: func.func @avg_reversed_division
// CHECK: linalg.pooling_nhwc_sum
// CHECK: arith.divf
func.func @avg_reversed_division(%x: tensor<1x8x8x16xf32>) -> tensor<1x4x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %win = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x4x4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %win : tensor<1x8x8x16xf32>, tensor<2x2xf32>) outs(%f : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%s : tensor<1x4x4x16xf32>) outs(%e : tensor<1x4x4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %four, %in : f32
    linalg.yield %d : f32
  } -> tensor<1x4x4x16xf32>
  return %y : tensor<1x4x4x16xf32>
}

// -----

// The body does more than divide.
// CHECK-LABEL: func.func @avg_extra_work
// CHECK: linalg.pooling_nhwc_sum
// CHECK: arith.divf
// CHECK: arith.addf
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @avg_extra_work(%x: tensor<1x8x8x16xf32>) -> tensor<1x4x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %win = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x4x4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %win : tensor<1x8x8x16xf32>, tensor<2x2xf32>) outs(%f : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%s : tensor<1x4x4x16xf32>) outs(%e : tensor<1x4x4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %four : f32
    %a = arith.addf %d, %out : f32
    linalg.yield %a : f32
  } -> tensor<1x4x4x16xf32>
  return %y : tensor<1x4x4x16xf32>
}

// -----

// The sum is also used elsewhere (raising would compute it twice).
// CHECK-LABEL: func.func @avg_sum_reused
// CHECK: linalg.pooling_nhwc_sum
// CHECK: linalg.div
func.func @avg_sum_reused(%x: tensor<1x8x8x16xf32>) -> (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant dense<4.0> : tensor<1x4x4x16xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x4x4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %win : tensor<1x8x8x16xf32>, tensor<2x2xf32>) outs(%f : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %y = linalg.div ins(%s, %four : tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) outs(%e : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  return %y, %s : tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>
}

// -----

// The sum starts from a non-zero value.
// CHECK-LABEL: func.func @avg_sum_fill_one
// CHECK: linalg.pooling_nhwc_sum
// CHECK: linalg.div
func.func @avg_sum_fill_one(%x: tensor<1x8x8x16xf32>) -> tensor<1x4x4x16xf32> {
  %one = arith.constant 1.0 : f32
  %four = arith.constant dense<4.0> : tensor<1x4x4x16xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x4x4x16xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %win : tensor<1x8x8x16xf32>, tensor<2x2xf32>) outs(%f : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %y = linalg.div ins(%s, %four : tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) outs(%e : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  return %y : tensor<1x4x4x16xf32>
}

// -----

// A 17x17 window: 289 is not exact in bf16 (the constant rounds to 288), so
// the linalg code does not divide by the window size.
// CHECK-LABEL: func.func @avg_bf16_inexact_count
// CHECK: linalg.pooling_nhwc_sum
// CHECK: linalg.div
func.func @avg_bf16_inexact_count(%x: tensor<1x17x17x4xbf16>) -> tensor<1x1x1x4xbf16> {
  %zero = arith.constant 0.0 : bf16
  %n = arith.constant dense<289.0> : tensor<1x1x1x4xbf16>
  %win = tensor.empty() : tensor<17x17xbf16>
  %e = tensor.empty() : tensor<1x1x1x4xbf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<1x1x1x4xbf16>) -> tensor<1x1x1x4xbf16>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %win : tensor<1x17x17x4xbf16>, tensor<17x17xbf16>) outs(%f : tensor<1x1x1x4xbf16>) -> tensor<1x1x1x4xbf16>
  %y = linalg.div ins(%s, %n : tensor<1x1x1x4xbf16>, tensor<1x1x1x4xbf16>) outs(%e : tensor<1x1x1x4xbf16>) -> tensor<1x1x1x4xbf16>
  return %y : tensor<1x1x1x4xbf16>
}

// -----

// Degenerate windows (valid linalg, no dwc equivalent): no crash, untouched.
// CHECK-LABEL: func.func @empty_pool_window
// CHECK: linalg.pooling_nhwc_max
func.func @empty_pool_window(%x: tensor<1x8x8x16xf32>) -> tensor<1x9x9x16xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %win = tensor.empty() : tensor<0x0xf32>
  %e = tensor.empty() : tensor<1x9x9x16xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x9x9x16xf32>) -> tensor<1x9x9x16xf32>
  %y = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %win : tensor<1x8x8x16xf32>, tensor<0x0xf32>) outs(%f : tensor<1x9x9x16xf32>) -> tensor<1x9x9x16xf32>
  return %y : tensor<1x9x9x16xf32>
}

// CHECK-LABEL: func.func @empty_filter
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
func.func @empty_filter(%x: tensor<1x8x8x16xf32>, %w: tensor<0x3x16xf32>) -> tensor<1x9x6x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x9x6x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x9x6x16xf32>) -> tensor<1x9x6x16xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc ins(%x, %w : tensor<1x8x8x16xf32>, tensor<0x3x16xf32>) outs(%f : tensor<1x9x6x16xf32>) -> tensor<1x9x6x16xf32>
  return %y : tensor<1x9x6x16xf32>
}

// -----

// A dynamically padded input: the pad does not fold and the shapes are
// dynamic, so nothing is raised.
// CHECK-LABEL: func.func @dynamic_pad
// CHECK: tensor.pad
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
func.func @dynamic_pad(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>, %l: index) -> tensor<1x?x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, %l, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x16xf32> to tensor<1x?x10x16xf32>
  %e = tensor.empty(%l) : tensor<1x?x8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x?x8x16xf32>) -> tensor<1x?x8x16xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc ins(%p, %w : tensor<1x?x10x16xf32>, tensor<3x3x16xf32>) outs(%f : tensor<1x?x8x16xf32>) -> tensor<1x?x8x16xf32>
  return %y : tensor<1x?x8x16xf32>
}
