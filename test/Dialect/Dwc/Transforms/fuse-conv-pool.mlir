// dwc-fuse-conv-pool: a dwc.pool2d on a single-use depthwise convolution
// (optionally through a ReLU/ReLU6 under max pooling) becomes one
// dwc.depthwise_conv2d_pool2d; everything else is left alone.
// RUN: dwc-opt %s --dwc-fuse-conv-pool -split-input-file | FileCheck %s

// CHECK-LABEL: func @conv_then_max
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x8x16xf32>, %[[W:.*]]: tensor<3x3x16xf32>, %[[B:.*]]: tensor<16xf32>)
// CHECK-NOT: dwc.depthwise_conv2d ins
// CHECK-NOT: dwc.pool2d
// CHECK: %[[F:.*]] = dwc.depthwise_conv2d_pool2d max ins(%[[X]], %[[W]] : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) bias(%[[B]] : tensor<16xf32>)
// CHECK-SAME: strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [3, 3] pool_strides = [2, 2] pool_padding = [1, 1, 1, 1] -> tensor<1x4x4x16xf32>
// CHECK: return %[[F]]
func.func @conv_then_max(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>, %b: tensor<16xf32>) -> tensor<1x4x4x16xf32> {
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %c = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) bias(%b : tensor<16xf32>) outs(%e : tensor<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf32>
  %i = tensor.empty() : tensor<1x4x4x16xf32>
  %p = dwc.pool2d max ins(%c : tensor<1x8x8x16xf32>) outs(%i : tensor<1x4x4x16xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] -> tensor<1x4x4x16xf32>
  return %p : tensor<1x4x4x16xf32>
}

// -----

// The pool's own attributes (ceil_mode, count_include_pad, activation) and
// an avg pool carry over.
// CHECK-LABEL: func @conv_then_avg_relu6
// CHECK: dwc.depthwise_conv2d_pool2d avg {{.*}} window = [3, 3] pool_strides = [2, 2] pool_padding = [0, 1, 0, 1] ceil_mode count_include_pad activation = relu6 -> tensor<1x4x4x8xf16>
func.func @conv_then_avg_relu6(%x: tensor<1x8x8x8xf16>, %w: tensor<5x5x8xf16>) -> tensor<1x4x4x8xf16> {
  %e = tensor.empty() : tensor<1x8x8x8xf16>
  %c = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x8xf16>, tensor<5x5x8xf16>) outs(%e : tensor<1x8x8x8xf16>) strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] -> tensor<1x8x8x8xf16>
  %i = tensor.empty() : tensor<1x4x4x8xf16>
  %p = dwc.pool2d avg ins(%c : tensor<1x8x8x8xf16>) outs(%i : tensor<1x4x4x8xf16>) window = [3, 3] strides = [2, 2] padding = [0, 1, 0, 1] ceil_mode count_include_pad activation = relu6 -> tensor<1x4x4x8xf16>
  return %p : tensor<1x4x4x8xf16>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// conv -> ReLU -> max pool: the ReLU commutes with the max and becomes the
// fused op's epilogue.
// CHECK-LABEL: func @conv_relu_max
// CHECK-NOT: linalg.generic
// CHECK: dwc.depthwise_conv2d_pool2d max {{.*}} window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0] activation = relu -> tensor<1x4x4x16xf32>
func.func @conv_relu_max(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x4x4x16xf32> {
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %c = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%e : tensor<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x8x8x16xf32>) outs(%e : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %zero = arith.constant 0.0 : f32
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x16xf32>
  %i = tensor.empty() : tensor<1x4x4x16xf32>
  %p = dwc.pool2d max ins(%r : tensor<1x8x8x16xf32>) outs(%i : tensor<1x4x4x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x16xf32>
  return %p : tensor<1x4x4x16xf32>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// Refused: an activation before an average does not commute with it.
// CHECK-LABEL: func @conv_relu_avg
// CHECK: dwc.depthwise_conv2d ins
// CHECK: linalg.generic
// CHECK: dwc.pool2d avg
// CHECK-NOT: dwc.depthwise_conv2d_pool2d
func.func @conv_relu_avg(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x4x4x16xf32> {
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %c = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%e : tensor<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x8x8x16xf32>) outs(%e : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %zero = arith.constant 0.0 : f32
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x16xf32>
  %i = tensor.empty() : tensor<1x4x4x16xf32>
  %p = dwc.pool2d avg ins(%r : tensor<1x8x8x16xf32>) outs(%i : tensor<1x4x4x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x16xf32>
  return %p : tensor<1x4x4x16xf32>
}

// -----

// Refused: the convolution's output is needed elsewhere too.
// CHECK-LABEL: func @conv_other_use
// CHECK: dwc.depthwise_conv2d ins
// CHECK: dwc.pool2d max
// CHECK-NOT: dwc.depthwise_conv2d_pool2d
func.func @conv_other_use(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>) -> (tensor<1x4x4x16xf32>, tensor<1x8x8x16xf32>) {
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %c = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%e : tensor<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf32>
  %i = tensor.empty() : tensor<1x4x4x16xf32>
  %p = dwc.pool2d max ins(%c : tensor<1x8x8x16xf32>) outs(%i : tensor<1x4x4x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x16xf32>
  return %p, %c : tensor<1x4x4x16xf32>, tensor<1x8x8x16xf32>
}

// -----

// Refused: different accumulation types (the fused op has one).
// CHECK-LABEL: func @acc_mismatch
// CHECK: dwc.depthwise_conv2d ins
// CHECK-NOT: dwc.depthwise_conv2d_pool2d
func.func @acc_mismatch(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x4x4x16xf32> {
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %c = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%e : tensor<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] acc = f64 -> tensor<1x8x8x16xf32>
  %i = tensor.empty() : tensor<1x4x4x16xf32>
  %p = dwc.pool2d avg ins(%c : tensor<1x8x8x16xf32>) outs(%i : tensor<1x4x4x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x16xf32>
  return %p : tensor<1x4x4x16xf32>
}

// -----

// Refused: a channel multiplier (dwc.depthwise_conv2d_pool2d has none).
// CHECK-LABEL: func @multiplier
// CHECK: dwc.depthwise_conv2d ins{{.*}} channel_multiplier = 2
// CHECK: dwc.pool2d max
// CHECK-NOT: dwc.depthwise_conv2d_pool2d
func.func @multiplier(%x: tensor<1x8x8x8xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x4x4x16xf32> {
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %c = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x8xf32>, tensor<3x3x16xf32>) outs(%e : tensor<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2 -> tensor<1x8x8x16xf32>
  %i = tensor.empty() : tensor<1x4x4x16xf32>
  %p = dwc.pool2d max ins(%c : tensor<1x8x8x16xf32>) outs(%i : tensor<1x4x4x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x16xf32>
  return %p : tensor<1x4x4x16xf32>
}

// -----

// Refused: memref form (the pass runs before bufferization).
// CHECK-LABEL: func @memrefs
// CHECK: dwc.depthwise_conv2d ins
// CHECK: dwc.pool2d max
func.func @memrefs(%x: memref<1x8x8x16xf32>, %w: memref<3x3x16xf32>, %c: memref<1x8x8x16xf32>, %y: memref<1x4x4x16xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x8x16xf32>, memref<3x3x16xf32>) outs(%c : memref<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.pool2d max ins(%c : memref<1x8x8x16xf32>) outs(%y : memref<1x4x4x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0]
  return
}
