// dwc-fuse-activation: an elementwise ReLU/ReLU6 linalg.generic on a
// dwc.pool2d result becomes the pool's activation epilogue; everything else
// is left alone.
// RUN: dwc-opt %s --dwc-fuse-activation -split-input-file | FileCheck %s

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// CHECK-LABEL: func @relu_after_max
// CHECK: %[[P:.*]] = dwc.pool2d max {{.*}} activation = relu -> tensor<1x4x4x16xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[P]]
func.func @relu_after_max(%x: tensor<1x8x8x16xf32>) -> tensor<1x4x4x16xf32> {
  %i = tensor.empty() : tensor<1x4x4x16xf32>
  %p = dwc.pool2d max ins(%x : tensor<1x8x8x16xf32>) outs(%i : tensor<1x4x4x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x16xf32>
  %o = tensor.empty() : tensor<1x4x4x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p : tensor<1x4x4x16xf32>) outs(%o : tensor<1x4x4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %zero = arith.constant 0.0 : f32
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4x16xf32>
  return %r : tensor<1x4x4x16xf32>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// ReLU6 with maxnumf (operands swapped) and minnumf, on an f16 average.
// CHECK-LABEL: func @relu6_after_avg
// CHECK: dwc.pool2d avg {{.*}} count_include_pad activation = relu6 -> tensor<1x8x8x8xf16>
// CHECK-NOT: linalg.generic
func.func @relu6_after_avg(%x: tensor<1x8x8x8xf16>) -> tensor<1x8x8x8xf16> {
  %zero = arith.constant 0.0 : f16
  %six = arith.constant 6.0 : f16
  %i = tensor.empty() : tensor<1x8x8x8xf16>
  %p = dwc.pool2d avg ins(%x : tensor<1x8x8x8xf16>) outs(%i : tensor<1x8x8x8xf16>) window = [3, 3] strides = [1, 1] padding = [1, 1, 1, 1] count_include_pad -> tensor<1x8x8x8xf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p : tensor<1x8x8x8xf16>) outs(%i : tensor<1x8x8x8xf16>) {
  ^bb0(%in: f16, %out: f16):
    %m = arith.maxnumf %zero, %in : f16
    %c = arith.minnumf %m, %six : f16
    linalg.yield %c : f16
  } -> tensor<1x8x8x8xf16>
  return %r : tensor<1x8x8x8xf16>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// Refused: a leaky bound (max with 0.5), the pooled tensor used twice, a
// pool that already has an activation, a clamp to 4 instead of 6.
// CHECK-LABEL: func @refused
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT: activation = relu6
func.func @refused(%x: tensor<1x8x8x16xf32>) -> (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %four = arith.constant 4.0 : f32
  %i = tensor.empty() : tensor<1x4x4x16xf32>
  %p0 = dwc.pool2d max ins(%x : tensor<1x8x8x16xf32>) outs(%i : tensor<1x4x4x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x16xf32>
  %r0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p0 : tensor<1x4x4x16xf32>) outs(%i : tensor<1x4x4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %half : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4x16xf32>
  %p1 = dwc.pool2d max ins(%x : tensor<1x8x8x16xf32>) outs(%i : tensor<1x4x4x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x16xf32>
  %r1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p1 : tensor<1x4x4x16xf32>) outs(%i : tensor<1x4x4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4x16xf32>
  %p2 = dwc.pool2d max ins(%x : tensor<1x8x8x16xf32>) outs(%i : tensor<1x4x4x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] activation = relu -> tensor<1x4x4x16xf32>
  %r2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p2 : tensor<1x4x4x16xf32>) outs(%i : tensor<1x4x4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4x16xf32>
  %p3 = dwc.pool2d avg ins(%x : tensor<1x8x8x16xf32>) outs(%i : tensor<1x4x4x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x16xf32>
  %r3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p3 : tensor<1x4x4x16xf32>) outs(%i : tensor<1x4x4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    %c = arith.minimumf %m, %four : f32
    linalg.yield %c : f32
  } -> tensor<1x4x4x16xf32>
  return %r0, %r1, %p1, %r2, %r3 : tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// A MobileNet-style ReLU6 -> depthwise conv -> ReLU6: both activations
// become the convolution's prologue and epilogue.
// CHECK-LABEL: func @relu6_around_depthwise
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x8x16xf32>
// CHECK-NOT: linalg.generic
// CHECK: %[[Y:.*]] = dwc.depthwise_conv2d ins(%[[X]], %{{.*}} : {{.*}}) outs({{.*}}) {{.*}} activation = relu6 input_activation = relu6
// CHECK-NOT: linalg.generic
// CHECK: return %[[Y]]
func.func @relu6_around_depthwise(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x8x8x16xf32> {
  %o = tensor.empty() : tensor<1x8x8x16xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x8x8x16xf32>) outs(%o : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %zero = arith.constant 0.0 : f32
    %six = arith.constant 6.0 : f32
    %m = arith.maximumf %in, %zero : f32
    %n = arith.minimumf %m, %six : f32
    linalg.yield %n : f32
  } -> tensor<1x8x8x16xf32>
  %i = tensor.empty() : tensor<1x8x8x16xf32>
  %c = dwc.depthwise_conv2d ins(%a, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%i : tensor<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x8x8x16xf32>) outs(%o : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %zero = arith.constant 0.0 : f32
    %six = arith.constant 6.0 : f32
    %m = arith.maximumf %in, %zero : f32
    %n = arith.minimumf %m, %six : f32
    linalg.yield %n : f32
  } -> tensor<1x8x8x16xf32>
  return %r : tensor<1x8x8x16xf32>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// Refusals: the activated input is also returned (other uses), the
// convolution's result is also returned, and a ReLU pooled next stays for
// dwc-fuse-conv-pool.
// CHECK-LABEL: func @depthwise_refusals
// CHECK: linalg.generic
// CHECK: dwc.depthwise_conv2d
// CHECK-NOT: activation
// CHECK: linalg.generic
// CHECK: dwc.depthwise_conv2d
// CHECK-NOT: activation =
// CHECK: linalg.generic
// CHECK: dwc.pool2d
func.func @depthwise_refusals(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>)
    -> (tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x4x4x16xf32>) {
  %o = tensor.empty() : tensor<1x8x8x16xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x8x8x16xf32>) outs(%o : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %zero = arith.constant 0.0 : f32
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x16xf32>
  %i = tensor.empty() : tensor<1x8x8x16xf32>
  %c = dwc.depthwise_conv2d ins(%a, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%i : tensor<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x8x8x16xf32>) outs(%o : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %zero = arith.constant 0.0 : f32
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x16xf32>
  %c2 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%i : tensor<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf32>
  %r2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c2 : tensor<1x8x8x16xf32>) outs(%o : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %zero = arith.constant 0.0 : f32
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x16xf32>
  %pi = tensor.empty() : tensor<1x4x4x16xf32>
  %p = dwc.pool2d max ins(%r2 : tensor<1x8x8x16xf32>) outs(%pi : tensor<1x4x4x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x16xf32>
  return %a, %r, %c, %p : tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x4x4x16xf32>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// A ReLU pooled next after a convolution with a channel multiplier becomes
// its epilogue: dwc-fuse-conv-pool does not take M > 1.
// CHECK-LABEL: func @multiplier_relu_pooled
// CHECK: dwc.depthwise_conv2d {{.*}} channel_multiplier = 2 activation = {{ *}}relu
// CHECK-NOT: linalg.generic
// CHECK: dwc.pool2d max
func.func @multiplier_relu_pooled(%x: tensor<1x8x8x8xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x4x4x16xf32> {
  %i = tensor.empty() : tensor<1x8x8x16xf32>
  %c = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x8xf32>, tensor<3x3x16xf32>) outs(%i : tensor<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2 -> tensor<1x8x8x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x8x8x16xf32>) outs(%i : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %zero = arith.constant 0.0 : f32
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x16xf32>
  %pi = tensor.empty() : tensor<1x4x4x16xf32>
  %p = dwc.pool2d max ins(%r : tensor<1x8x8x16xf32>) outs(%pi : tensor<1x4x4x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x16xf32>
  return %p : tensor<1x4x4x16xf32>
}
