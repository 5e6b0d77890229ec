// convert-dwc-to-gpu-pool, dwc.depthwise_conv2d_pool2d: one kernel computes
// each pooling window's convolution outputs in registers and stores only
// the pooled values. 3x3 conv + max 3x3 stride 2 on 8x8: a thread owns a
// strip of 4 pooled outputs x 4 channels; per pooling window row (one conv
// row, skipped outside [0, OH)) the 9 conv columns of the strip take 3 x 11
// input loads and 3 x 3 x 9 FMAs (each input column feeds the FW columns
// holding it); the conv output never goes to memory. Refused (left to
// dwc-decompose-conv-pool): strided or dilated convs, more than 49 taps
// (9 for f16/bf16), C % 4 != 0 (dwc-select-kernels attaches no
// #dwc.conv_pool), and any op without the configuration (OFF).
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-pool -split-input-file | FileCheck %s
// RUN: dwc-opt %s --convert-dwc-to-gpu-pool -split-input-file | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: func @max_3x3_s2_relu
// CHECK-COUNT-1: gpu.launch
// CHECK: vector.load %arg2{{.*}} : memref<16xf32>, vector<4xf32>
// CHECK: scf.if %{{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// CHECK-COUNT-3: vector.load %arg1{{.*}} : memref<3x3x16xf32>, vector<4xf32>
// CHECK: vector.load %arg0{{.*}} : memref<1x8x8x16xf32>, vector<4xf32>
// CHECK: vector.fma
// CHECK: arith.maximumf
// CHECK: scf.yield
// CHECK: arith.maximumf %{{.*}}, %cst{{.*}} : vector<4xf32>
// CHECK: vector.store %{{.*}}, %arg3
// CHECK-NOT: memref.alloc
// CHECK-NOT: dwc.
// OFF-LABEL: func @max_3x3_s2_relu
// OFF: dwc.depthwise_conv2d_pool2d
func.func @max_3x3_s2_relu(%x: memref<1x8x8x16xf32>, %w: memref<3x3x16xf32>, %b: memref<16xf32>, %y: memref<1x4x4x16xf32>) {
  dwc.depthwise_conv2d_pool2d max ins(%x, %w : memref<1x8x8x16xf32>, memref<3x3x16xf32>) bias(%b : memref<16xf32>) outs(%y : memref<1x4x4x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [3, 3] pool_strides = [2, 2] pool_padding = [1, 1, 1, 1] activation = relu
  return
}

// -----

// f16 average: conv sums in f32, rounded to f16 and widened again (the
// unfused op's rounding), pooled in f32, divided, stored as f16.
// CHECK-LABEL: func @avg_f16
// CHECK: gpu.launch
// CHECK: vector.fma %{{.*}} : vector<8xf32>
// CHECK: arith.truncf %{{.*}} : vector<8xf32> to vector<8xf16>
// CHECK-NEXT: arith.extf %{{.*}} : vector<8xf16> to vector<8xf32>
// CHECK: arith.divf
// CHECK: vector.store %{{.*}}, %arg2{{.*}} : memref<1x4x4x16xf16>, vector<8xf16>
func.func @avg_f16(%x: memref<1x8x8x16xf16>, %w: memref<3x3x16xf16>, %y: memref<1x4x4x16xf16>) {
  dwc.depthwise_conv2d_pool2d avg ins(%x, %w : memref<1x8x8x16xf16>, memref<3x3x16xf16>) outs(%y : memref<1x4x4x16xf16>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0]
  return
}

// -----

// Refused: 16-bit filters over 9 taps (GEMV convolution + pooling kernel
// are faster apart).
// CHECK-LABEL: func @f16_5x5
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d_pool2d
func.func @f16_5x5(%x: memref<1x8x8x16xf16>, %w: memref<5x5x16xf16>, %y: memref<1x4x4x16xf16>) {
  dwc.depthwise_conv2d_pool2d avg ins(%x, %w : memref<1x8x8x16xf16>, memref<5x5x16xf16>) outs(%y : memref<1x4x4x16xf16>) strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0]
  return
}

// -----

// Refused: strided convolution.
// CHECK-LABEL: func @conv_stride_2
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d_pool2d
func.func @conv_stride_2(%x: memref<1x8x8x16xf32>, %w: memref<3x3x16xf32>, %y: memref<1x2x2x16xf32>) {
  dwc.depthwise_conv2d_pool2d max ins(%x, %w : memref<1x8x8x16xf32>, memref<3x3x16xf32>) outs(%y : memref<1x2x2x16xf32>) strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0]
  return
}

// -----

// Refused: 9x9 = 81 taps.
// CHECK-LABEL: func @filter_9x9
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d_pool2d
func.func @filter_9x9(%x: memref<1x12x12x16xf32>, %w: memref<9x9x16xf32>, %y: memref<1x6x6x16xf32>) {
  dwc.depthwise_conv2d_pool2d max ins(%x, %w : memref<1x12x12x16xf32>, memref<9x9x16xf32>) outs(%y : memref<1x6x6x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0]
  return
}

// -----

// Refused: C = 6 is not a multiple of the 4-lane f32 vector.
// CHECK-LABEL: func @channels_6
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d_pool2d
func.func @channels_6(%x: memref<1x8x8x6xf32>, %w: memref<3x3x6xf32>, %y: memref<1x4x4x6xf32>) {
  dwc.depthwise_conv2d_pool2d max ins(%x, %w : memref<1x8x8x6xf32>, memref<3x3x6xf32>) outs(%y : memref<1x4x4x6xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0]
  return
}

// -----

// Refused: tensor form (bufferize first).
// CHECK-LABEL: func @tensors
// CHECK: dwc.depthwise_conv2d_pool2d
func.func @tensors(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>, %i: tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> {
  %0 = dwc.depthwise_conv2d_pool2d max ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%i : tensor<1x4x4x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0] -> tensor<1x4x4x16xf32>
  return %0 : tensor<1x4x4x16xf32>
}
