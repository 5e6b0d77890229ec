// Raising linalg.conv_2d_nhwc_hwcf to dwc.conv2d, with the same fill, pad
// and bias rules as the depthwise convolution.
// RUN: dwc-opt %s --raise-linalg-to-dwc --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @plain
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<1x8x8x3xf32>, %[[W:[a-z0-9]+]]: tensor<3x3x3x16xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x6x6x16xf32>
// CHECK-NOT: linalg
// CHECK: %[[Y:.*]] = dwc.conv2d ins(%[[X]], %[[W]] : tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>)
// CHECK-SAME: outs(%[[E]] : tensor<1x6x6x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x6x6x16xf32>
// CHECK: return %[[Y]]
func.func @plain(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x6x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) outs(%f : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  return %y : tensor<1x6x6x16xf32>
}

// -----

// CHECK-LABEL: func.func @padded_strided
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<1x16x16x8xf32>
// CHECK-NOT: tensor.pad
// CHECK: dwc.conv2d ins(%[[X]], %{{.*}} : tensor<1x16x16x8xf32>, tensor<3x3x8x32xf32>)
// CHECK-SAME: strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x32xf32>
func.func @padded_strided(%x: tensor<1x16x16x8xf32>, %w: tensor<3x3x8x32xf32>) -> tensor<1x8x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x16x16x8xf32> to tensor<1x18x18x8xf32>
  %e = tensor.empty() : tensor<1x8x8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%p, %w : tensor<1x18x18x8xf32>, tensor<3x3x8x32xf32>) outs(%f : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  return %y : tensor<1x8x8x32xf32>
}

// -----

// The bias has OC (not C) elements.
// CHECK-LABEL: func.func @bias
// CHECK-SAME: %[[B:[a-z0-9]+]]: tensor<32xf16>)
// CHECK-NOT: linalg
// CHECK: dwc.conv2d ins(%{{.*}}, %{{.*}} : tensor<1x14x14x8xf16>, tensor<3x3x8x32xf16>)
// CHECK-SAME: bias(%[[B]] : tensor<32xf16>)
// CHECK-SAME: padding = [1, 1, 1, 1] -> tensor<1x14x14x32xf16>
func.func @bias(%x: tensor<1x14x14x8xf16>, %w: tensor<3x3x8x32xf16>, %b: tensor<32xf16>) -> tensor<1x14x14x32xf16> {
  %zero = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f16
  } : tensor<1x14x14x8xf16> to tensor<1x16x16x8xf16>
  %e = tensor.empty() : tensor<1x14x14x32xf16>
  %bb = linalg.broadcast ins(%b : tensor<32xf16>) outs(%e : tensor<1x14x14x32xf16>) dimensions = [0, 1, 2]
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%p, %w : tensor<1x16x16x8xf16>, tensor<3x3x8x32xf16>) outs(%bb : tensor<1x14x14x32xf16>) -> tensor<1x14x14x32xf16>
  return %y : tensor<1x14x14x32xf16>
}

// -----

// Dilated dense convolution.
// CHECK-LABEL: func.func @dilated
// CHECK: dwc.conv2d
// CHECK-SAME: strides = [1, 1] dilations = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x4xbf16>
func.func @dilated(%x: tensor<1x8x8x2xbf16>, %w: tensor<3x3x2x4xbf16>) -> tensor<1x4x4x4xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<1x4x4x4xbf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<1x4x4x4xbf16>) -> tensor<1x4x4x4xbf16>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x8x8x2xbf16>, tensor<3x3x2x4xbf16>) outs(%f : tensor<1x4x4x4xbf16>) -> tensor<1x4x4x4xbf16>
  return %y : tensor<1x4x4x4xbf16>
}

// -----

// Accumulating into a non-zero tensor is not a dwc.conv2d: untouched.
// CHECK-LABEL: func.func @accumulate
// CHECK-NOT: dwc.
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: dwc.
func.func @accumulate(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>, %acc: tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32> {
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) outs(%acc : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  return %y : tensor<1x6x6x16xf32>
}
