// Stride-1 backward data on the GEMV kernel: dX = dY convolved with the
// 180-degree rotated filter under the transposed padding, the rotation fused
// into the filter loads; what is left to the other kernels.
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-gemv --canonicalize --cse -split-input-file | FileCheck %s

// 3x3, padding 1 -> transposed padding 1; filter taps read in the order
// (2 - fh, 2), (2 - fh, 1), (2 - fh, 0).
// CHECK-LABEL: func @bwd_data_3x3
// CHECK-NOT: dwc.depthwise_conv2d_backward_data
// CHECK: gpu.launch
// CHECK: scf.for %[[FH:.*]] = %c0 to %c3 step %c1
// CHECK: %[[ROW:.*]] = arith.subi %c2, %[[FH]] : index
// CHECK: vector.load %arg1[%[[ROW]], %c2, {{.*}}] {{.*}} : memref<3x3x64xf32>
// CHECK: vector.fma
// CHECK: vector.load %arg1[%[[ROW]], %c1, {{.*}}] {{.*}} : memref<3x3x64xf32>
// CHECK: vector.fma
// CHECK: vector.load %arg1[%[[ROW]], %c0, {{.*}}] {{.*}} : memref<3x3x64xf32>
// CHECK: vector.store {{.*}}, %arg2
// With shared memory (chosen for f32 on small grids): the cp.async of
// filter row fh reads row 2 - fh, taps 2 - t, rows prefetched in the order
// 2, 1, 0.
// CHECK-LABEL: func @bwd_data_3x3_smem
// CHECK: %[[T0:.*]] = arith.subi %c2, %{{.*}} : index
// CHECK: nvgpu.device_async_copy %arg1[%c2, %[[T0]], {{.*}}], {{.*}} {bypassL1}
// CHECK: scf.for
// CHECK: %[[R:.*]] = arith.subi %c2, %{{.*}} : index
// CHECK: nvgpu.device_async_copy %arg1[%[[R]], %[[T0]], {{.*}}], {{.*}} {bypassL1}
func.func @bwd_data_3x3(%dy: memref<1x8x16x64xf32>, %w: memref<3x3x64xf32>, %dx: memref<1x8x16x64xf32>) {
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<1x8x16x64xf32>, memref<3x3x64xf32>) outs(%dx : memref<1x8x16x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<filter = "global">}
  return
}
func.func @bwd_data_3x3_smem(%dy: memref<1x8x16x64xf32>, %w: memref<3x3x64xf32>, %dx: memref<1x8x16x64xf32>) {
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<1x8x16x64xf32>, memref<3x3x64xf32>) outs(%dx : memref<1x8x16x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// Asymmetric padding [2, 1, 0, 2] of a 5x3 filter: transposed top 4 - 2 = 2
// and left 2 - 0 = 2; dY is 1x8x11 for dX 1x9x11. Input row oh + fh - 2,
// input columns from ow0 - 2.
// CHECK-LABEL: func @bwd_data_asym
// CHECK: gpu.launch
// CHECK: scf.for %[[FH:.*]] = %c0 to %c5 step %c1
// CHECK: arith.addi %{{.*}}, %c-2 : index
// CHECK: arith.subi %c4, %[[FH]] : index
func.func @bwd_data_asym(%dy: memref<1x8x11x8xf32>, %w: memref<5x3x8xf32>, %dx: memref<1x9x11x8xf32>) {
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<1x8x11x8xf32>, memref<5x3x8xf32>) outs(%dx : memref<1x9x11x8xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 1, 0, 2] {dwc.kernel = #dwc.gemv<filter = "global">}
  return
}

// -----

// Left to the other kernels: stride 2 (strided), dilation 2, padding beyond
// FH - 1 (negative transposed padding), C % 4 != 0 (direct), tensor form.
// CHECK-LABEL: func @refused
// CHECK-NOT: gpu.launch
// CHECK-COUNT-4: dwc.depthwise_conv2d_backward_data
// CHECK: return
func.func @refused(%dy2: memref<1x4x4x32xf32>, %dy: memref<1x8x8x32xf32>, %dyp: memref<1x12x8x32xf32>,
                   %dy6: memref<1x8x8x6xf32>, %w: memref<3x3x32xf32>, %w6: memref<3x3x6xf32>,
                   %dx: memref<1x8x8x32xf32>, %dx6: memref<1x8x8x6xf32>) {
  dwc.depthwise_conv2d_backward_data ins(%dy2, %w : memref<1x4x4x32xf32>, memref<3x3x32xf32>) outs(%dx : memref<1x8x8x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<1x8x8x32xf32>, memref<3x3x32xf32>) outs(%dx : memref<1x8x8x32xf32>)
    strides = [1, 1] dilations = [2, 2] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d_backward_data ins(%dyp, %w : memref<1x12x8x32xf32>, memref<3x3x32xf32>) outs(%dx : memref<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 1, 1]
  dwc.depthwise_conv2d_backward_data ins(%dy6, %w6 : memref<1x8x8x6xf32>, memref<3x3x6xf32>) outs(%dx6 : memref<1x8x8x6xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// CHECK-LABEL: func @tensor_form
// CHECK: dwc.depthwise_conv2d_backward_data
func.func @tensor_form(%dy: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %dx: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  %r = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%dx : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}
