// What convert-dwc-to-gpu-mma leaves to the other kernels: f32, stride 2,
// dilation 2, C % 8 != 0, f64 accumulation, non-identity layouts, tensors.
// RUN: dwc-opt %s --convert-dwc-to-gpu-mma -split-input-file | FileCheck %s

// CHECK-LABEL: func @f32
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d
func.func @f32(%x: memref<1x8x32x64xf32>, %w: memref<3x3x64xf32>, %y: memref<1x8x32x64xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf32>, memref<3x3x64xf32>) outs(%y : memref<1x8x32x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// CHECK-LABEL: func @stride2
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d
func.func @stride2(%x: memref<1x8x32x64xf16>, %w: memref<3x3x64xf16>, %y: memref<1x4x16x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<3x3x64xf16>) outs(%y : memref<1x4x16x64xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// CHECK-LABEL: func @dilation2
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d
func.func @dilation2(%x: memref<1x8x32x64xbf16>, %w: memref<3x3x64xbf16>, %y: memref<1x8x32x64xbf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xbf16>, memref<3x3x64xbf16>) outs(%y : memref<1x8x32x64xbf16>)
    strides = [1, 1] dilations = [2, 2] padding = [2, 2, 2, 2]
  return
}

// -----

// CHECK-LABEL: func @c13
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d
func.func @c13(%x: memref<1x8x32x13xf16>, %w: memref<3x3x13xf16>, %y: memref<1x8x32x13xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x13xf16>, memref<3x3x13xf16>) outs(%y : memref<1x8x32x13xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// CHECK-LABEL: func @acc_f64
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d
func.func @acc_f64(%x: memref<1x8x32x64xf16>, %w: memref<3x3x64xf16>, %y: memref<1x8x32x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<3x3x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] acc = f64
  return
}

// -----

// CHECK-LABEL: func @strided_layout
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d
func.func @strided_layout(%x: memref<1x8x32x64xf16, strided<[32768, 4096, 128, 1]>>, %w: memref<3x3x64xf16>, %y: memref<1x8x32x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16, strided<[32768, 4096, 128, 1]>>, memref<3x3x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// CHECK-LABEL: func @tensor_form
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d
func.func @tensor_form(%x: tensor<1x8x32x64xf16>, %w: tensor<3x3x64xf16>) -> tensor<1x8x32x64xf16> {
  %e = tensor.empty() : tensor<1x8x32x64xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x32x64xf16>, tensor<3x3x64xf16>) outs(%e : tensor<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x32x64xf16>
  return %y : tensor<1x8x32x64xf16>
}
