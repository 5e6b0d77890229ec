// Stride-1 f16/bf16 backward data on the tensor-core kernel: the filter
// fragments are copied from the 180-degree rotated filter (row FH-1-fh, tap
// FW-1-tap) under the transposed padding (#dwc.mma_ring, one fragment per
// stage); ops without a configuration stay for the other kernels.
// RUN: sed 's/KERNEL/mma_ring<ring = false, frags_per_stage = 1, warp_channels = 16>/' %s | dwc-opt --convert-dwc-to-gpu-mma --canonicalize --cse -split-input-file | FileCheck %s

// 19x19, padding 9 -> transposed padding 9. Stage s: fh = s / 3, fragment
// j = s % 3, taps 9j + t; the copy reads W[18 - fh, 18 - (9j + t)].
// CHECK-LABEL: func @bwd_data_19x19
// CHECK-NOT: dwc.depthwise_conv2d_backward_data
// CHECK: gpu.launch
// First stage (fh = 0, j = 0): row 18, taps 18 - t.
// CHECK: %[[T0:.*]] = arith.subi %c18, %{{.*}} : index
// CHECK: %[[S0:.*]] = arith.select %{{.*}}, %[[T0]], %c0 : index
// CHECK: nvgpu.device_async_copy %arg1[%c18, %[[S0]], {{.*}}], {{.*}} {bypassL1} : memref<19x19x64xf16>
// In the stage loop: the next stage's copy from the rotated filter, then
// the tensor-core products.
// CHECK: scf.for
// CHECK: %[[ROW:.*]] = arith.subi %c18, %{{.*}} : index
// CHECK: %[[TAP:.*]] = arith.subi %c18, %{{.*}} : index
// CHECK: nvgpu.device_async_copy %arg1[%[[ROW]], {{.*}}], {{.*}} {bypassL1} : memref<19x19x64xf16>
// CHECK: nvgpu.mma.sync
func.func @bwd_data_19x19(%dy: memref<1x8x32x64xf16>, %w: memref<19x19x64xf16>, %dx: memref<1x8x32x64xf16>) {
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<1x8x32x64xf16>, memref<19x19x64xf16>) outs(%dx : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [9, 9, 9, 9] {dwc.kernel = #dwc.KERNEL}
  return
}

// -----

// Left to the other kernels (no dwc.kernel; dwc-select-kernels refuses
// them, config-mma.mlir): a 3x3 filter, f32, stride 2, padding beyond
// FW - 1.
// CHECK-LABEL: func @refused
// CHECK-NOT: gpu.launch
// CHECK-COUNT-4: dwc.depthwise_conv2d_backward_data
// CHECK: return
func.func @refused(%dy: memref<1x8x32x64xf16>, %w3: memref<3x3x64xf16>, %dx: memref<1x8x32x64xf16>,
                   %dyf: memref<1x8x32x64xf32>, %wf: memref<19x19x64xf32>, %dxf: memref<1x8x32x64xf32>,
                   %w: memref<19x19x64xf16>, %dy2: memref<1x4x16x64xf16>, %dyw: memref<1x8x34x64xf16>) {
  dwc.depthwise_conv2d_backward_data ins(%dy, %w3 : memref<1x8x32x64xf16>, memref<3x3x64xf16>) outs(%dx : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_data ins(%dyf, %wf : memref<1x8x32x64xf32>, memref<19x19x64xf32>) outs(%dxf : memref<1x8x32x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [9, 9, 9, 9]
  dwc.depthwise_conv2d_backward_data ins(%dy2, %w : memref<1x4x16x64xf16>, memref<19x19x64xf16>) outs(%dx : memref<1x8x32x64xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [9, 9, 9, 9]
  dwc.depthwise_conv2d_backward_data ins(%dyw, %w : memref<1x8x34x64xf16>, memref<19x19x64xf16>) outs(%dx : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [9, 9, 19, 1]
  return
}
