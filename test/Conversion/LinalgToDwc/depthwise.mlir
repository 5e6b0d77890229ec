// Raising linalg.depthwise_conv_2d_nhwc_hwc to dwc.depthwise_conv2d: zero
// fills, folded zero pads, strides/dilations, half types and bias broadcasts.
// RUN: dwc-opt %s --raise-linalg-to-dwc --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @plain
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<1x8x8x16xf32>, %[[W:[a-z0-9]+]]: tensor<3x3x16xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x6x6x16xf32>
// CHECK-NOT: linalg
// CHECK: %[[Y:.*]] = dwc.depthwise_conv2d ins(%[[X]], %[[W]] : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>)
// CHECK-SAME: outs(%[[E]] : tensor<1x6x6x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x6x6x16xf32>
// CHECK: return %[[Y]]
func.func @plain(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x6x6x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x6x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%f : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  return %y : tensor<1x6x6x16xf32>
}

// -----

// Default (absent) strides and dilations are 1.
// CHECK-LABEL: func.func @default_attrs
// CHECK: dwc.depthwise_conv2d
// CHECK-SAME: strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0]
func.func @default_attrs(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x6x6x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x6x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc
         ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%f : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  return %y : tensor<1x6x6x16xf32>
}

// -----

// A zero tensor.pad on H and W folds into the padding attribute.
// CHECK-LABEL: func.func @same_padding
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<1x8x8x16xf32>, %[[W:[a-z0-9]+]]: tensor<3x3x16xf32>)
// CHECK-NOT: tensor.pad
// CHECK: dwc.depthwise_conv2d ins(%[[X]], %[[W]] : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>)
// CHECK-SAME: strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf32>
func.func @same_padding(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x16xf32> to tensor<1x10x10x16xf32>
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%p, %w : tensor<1x10x10x16xf32>, tensor<3x3x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %y : tensor<1x8x8x16xf32>
}

// -----

// Asymmetric padding with stride 2; the padding order is [top, bottom, left, right].
// CHECK-LABEL: func.func @asymmetric_strided
// CHECK: dwc.depthwise_conv2d ins(%{{.*}}, %{{.*}} : tensor<2x9x9x8xf32>, tensor<3x3x8xf32>)
// CHECK-SAME: strides = [2, 2] dilations = [1, 1] padding = [1, 2, 2, 1] -> tensor<2x5x5x8xf32>
func.func @asymmetric_strided(%x: tensor<2x9x9x8xf32>, %w: tensor<3x3x8xf32>) -> tensor<2x5x5x8xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 2, 0] high[0, 2, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<2x9x9x8xf32> to tensor<2x12x12x8xf32>
  %e = tensor.empty() : tensor<2x5x5x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x5x8xf32>) -> tensor<2x5x5x8xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%p, %w : tensor<2x12x12x8xf32>, tensor<3x3x8xf32>) outs(%f : tensor<2x5x5x8xf32>) -> tensor<2x5x5x8xf32>
  return %y : tensor<2x5x5x8xf32>
}

// -----

// Dilation and a non-square filter.
// CHECK-LABEL: func.func @dilated_nonsquare
// CHECK: dwc.depthwise_conv2d ins(%{{.*}}, %{{.*}} : tensor<1x9x9x4xf32>, tensor<3x1x4xf32>)
// CHECK-SAME: strides = [1, 1] dilations = [2, 1] padding = [0, 0, 0, 0] -> tensor<1x5x9x4xf32>
func.func @dilated_nonsquare(%x: tensor<1x9x9x4xf32>, %w: tensor<3x1x4xf32>) -> tensor<1x5x9x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x5x9x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x9x4xf32>) -> tensor<1x5x9x4xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x9x9x4xf32>, tensor<3x1x4xf32>) outs(%f : tensor<1x5x9x4xf32>) -> tensor<1x5x9x4xf32>
  return %y : tensor<1x5x9x4xf32>
}

// -----

// f16 and bf16 are raised too: dwc accumulates in f32 (more accurate than
// linalg's element-type accumulation).
// CHECK-LABEL: func.func @half
// CHECK: dwc.depthwise_conv2d ins(%{{.*}}, %{{.*}} : tensor<1x8x8x16xf16>, tensor<3x3x16xf16>)
// CHECK-SAME: padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf16>
// CHECK-NOT: acc
func.func @half(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16xf16>) -> tensor<1x8x8x16xf16> {
  %zero = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f16
  } : tensor<1x8x8x16xf16> to tensor<1x10x10x16xf16>
  %e = tensor.empty() : tensor<1x8x8x16xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<1x8x8x16xf16>) -> tensor<1x8x8x16xf16>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%p, %w : tensor<1x10x10x16xf16>, tensor<3x3x16xf16>) outs(%f : tensor<1x8x8x16xf16>) -> tensor<1x8x8x16xf16>
  return %y : tensor<1x8x8x16xf16>
}

// CHECK-LABEL: func.func @bfloat
// CHECK: dwc.depthwise_conv2d ins(%{{.*}}, %{{.*}} : tensor<1x8x8x16xbf16>, tensor<3x3x16xbf16>)
// CHECK-SAME: -> tensor<1x6x6x16xbf16>
func.func @bfloat(%x: tensor<1x8x8x16xbf16>, %w: tensor<3x3x16xbf16>) -> tensor<1x6x6x16xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<1x6x6x16xbf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<1x6x6x16xbf16>) -> tensor<1x6x6x16xbf16>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x8x8x16xbf16>, tensor<3x3x16xbf16>) outs(%f : tensor<1x6x6x16xbf16>) -> tensor<1x6x6x16xbf16>
  return %y : tensor<1x6x6x16xbf16>
}

// -----

// The filled tensor need not be empty: the dwc op overwrites its destination.
// CHECK-LABEL: func.func @fill_of_argument
// CHECK-SAME: %[[D:[a-z0-9]+]]: tensor<1x6x6x16xf32>)
// CHECK: dwc.depthwise_conv2d
// CHECK-SAME: outs(%[[D]] : tensor<1x6x6x16xf32>)
func.func @fill_of_argument(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>, %d: tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%d : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%f : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  return %y : tensor<1x6x6x16xf32>
}

// -----

// A splat zero constant as outs gets a fresh tensor.empty destination.
// CHECK-LABEL: func.func @splat_zero_init
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x6x6x16xf32>
// CHECK: dwc.depthwise_conv2d
// CHECK-SAME: outs(%[[E]] : tensor<1x6x6x16xf32>)
func.func @splat_zero_init(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x6x6x16xf32> {
  %z = arith.constant dense<0.0> : tensor<1x6x6x16xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%z : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  return %y : tensor<1x6x6x16xf32>
}

// -----

// A per-channel bias broadcast into outs becomes the bias operand.
// CHECK-LABEL: func.func @bias_broadcast
// CHECK-SAME: %[[B:[a-z0-9]+]]: tensor<16xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x6x6x16xf32>
// CHECK-NOT: linalg
// CHECK: dwc.depthwise_conv2d ins(%{{.*}}, %{{.*}} : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>)
// CHECK-SAME: bias(%[[B]] : tensor<16xf32>) outs(%[[E]] : tensor<1x6x6x16xf32>)
func.func @bias_broadcast(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>, %b: tensor<16xf32>) -> tensor<1x6x6x16xf32> {
  %e = tensor.empty() : tensor<1x6x6x16xf32>
  %bb = linalg.broadcast ins(%b : tensor<16xf32>) outs(%e : tensor<1x6x6x16xf32>) dimensions = [0, 1, 2]
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%bb : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  return %y : tensor<1x6x6x16xf32>
}

// -----

// The same bias broadcast written as a linalg.generic.
// CHECK-LABEL: func.func @bias_generic
// CHECK-SAME: %[[B:[a-z0-9]+]]: tensor<16xf32>)
// CHECK-NOT: linalg
// CHECK: dwc.depthwise_conv2d
// CHECK-SAME: bias(%[[B]] : tensor<16xf32>)
// CHECK-SAME: padding = [1, 1, 1, 1]
#bias = affine_map<(d0, d1, d2, d3) -> (d3)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @bias_generic(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>, %b: tensor<16xf32>) -> tensor<1x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x16xf32> to tensor<1x10x10x16xf32>
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %bb = linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
          ins(%b : tensor<16xf32>) outs(%e : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x8x16xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%p, %w : tensor<1x10x10x16xf32>, tensor<3x3x16xf32>) outs(%bb : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %y : tensor<1x8x8x16xf32>
}

// -----

// A pad that cannot be folded (non-zero value, or on the channels) stays;
// the convolution is still raised, on the padded tensor, with no padding.
// CHECK-LABEL: func.func @nonzero_pad_kept
// CHECK: %[[P:.*]] = tensor.pad
// CHECK: tensor.yield
// CHECK: dwc.depthwise_conv2d ins(%[[P]], %{{.*}} : tensor<1x10x10x16xf32>, tensor<3x3x16xf32>)
// CHECK-SAME: padding = [0, 0, 0, 0] -> tensor<1x8x8x16xf32>
func.func @nonzero_pad_kept(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %one : f32
  } : tensor<1x8x8x16xf32> to tensor<1x10x10x16xf32>
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%p, %w : tensor<1x10x10x16xf32>, tensor<3x3x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %y : tensor<1x8x8x16xf32>
}

// CHECK-LABEL: func.func @channel_pad_kept
// CHECK: %[[P:.*]] = tensor.pad
// CHECK: dwc.depthwise_conv2d ins(%[[P]], %{{.*}} : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>)
// CHECK-SAME: padding = [0, 0, 0, 0] -> tensor<1x6x6x16xf32>
func.func @channel_pad_kept(%x: tensor<1x8x8x12xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x6x6x16xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 0, 0] high[0, 0, 0, 4] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x12xf32> to tensor<1x8x8x16xf32>
  %e = tensor.empty() : tensor<1x6x6x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%p, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%f : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  return %y : tensor<1x6x6x16xf32>
}
