// What convert-dwc-to-gpu-mma-stream leaves alone: the ops dwc-select-kernels
// does not configure #dwc.mma_stream (filters narrower than 10: the band
// kernel is faster at FW = 9; f32; stride 2; C % 8 != 0; a band and stage
// over the 227 KB of shared memory, FW = 60 with 8 rows), ops configured for
// another family, ops with no configuration (the pass alone does not
// choose) and tensor-form ops.
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-mma-stream -split-input-file | FileCheck %s
// RUN: dwc-opt %s --convert-dwc-to-gpu-mma-stream -split-input-file | FileCheck %s --check-prefix=NONE

// CHECK-LABEL: func @f9
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d
func.func @f9(%x: memref<1x8x32x64xf16>, %w: memref<9x9x64xf16>, %y: memref<1x8x32x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<9x9x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4]
  return
}

// -----

// CHECK-LABEL: func @f32
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d
func.func @f32(%x: memref<1x8x32x64xf32>, %w: memref<13x13x64xf32>, %y: memref<1x8x32x64xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf32>, memref<13x13x64xf32>) outs(%y : memref<1x8x32x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6]
  return
}

// -----

// CHECK-LABEL: func @stride2
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d
func.func @stride2(%x: memref<1x16x32x64xf16>, %w: memref<13x13x64xf16>, %y: memref<1x8x16x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x16x32x64xf16>, memref<13x13x64xf16>) outs(%y : memref<1x8x16x64xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [6, 6, 6, 6]
  return
}

// -----

// CHECK-LABEL: func @c12
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d
func.func @c12(%x: memref<1x8x32x12xf16>, %w: memref<13x13x12xf16>, %y: memref<1x8x32x12xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x12xf16>, memref<13x13x12xf16>) outs(%y : memref<1x8x32x12xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6]
  return
}

// -----

// CHECK-LABEL: func @f60
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d
func.func @f60(%x: memref<1x60x60x8xf16>, %w: memref<60x60x8xf16>, %y: memref<1x1x1x8xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x60x60x8xf16>, memref<60x60x8xf16>) outs(%y : memref<1x1x1x8xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0]
  return
}

// -----

// CHECK-LABEL: func @other_family
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d {{.*}} {dwc.kernel = #dwc.direct}
func.func @other_family(%x: memref<1x8x32x64xf16>, %w: memref<17x17x64xf16>, %y: memref<1x8x32x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<17x17x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [8, 8, 8, 8] {dwc.kernel = #dwc.direct}
  return
}

// -----

// CHECK-LABEL: func @tensor_form
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d {{.*}}#dwc.mma_stream
func.func @tensor_form(%x: tensor<1x8x32x64xf16>, %w: tensor<17x17x64xf16>, %y: tensor<1x8x32x64xf16>) -> tensor<1x8x32x64xf16> {
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x32x64xf16>, tensor<17x17x64xf16>) outs(%y : tensor<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [8, 8, 8, 8] -> tensor<1x8x32x64xf16>
  return %r : tensor<1x8x32x64xf16>
}

// -----

// Configured (FW = 17): converted; without dwc-select-kernels left alone.
// CHECK-LABEL: func @f17
// CHECK: gpu.launch
// CHECK-NOT: dwc.depthwise_conv2d
// NONE-LABEL: func @f17
// NONE-NOT: gpu.launch
// NONE: dwc.depthwise_conv2d
func.func @f17(%x: memref<1x8x32x64xf16>, %w: memref<17x17x64xf16>, %y: memref<1x8x32x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<17x17x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [8, 8, 8, 8]
  return
}
