// What convert-dwc-to-gpu-mma leaves alone: ops without a dwc.kernel
// configuration, with another family's, or with a partial #dwc.mma_band /
// #dwc.mma_ring (dwc-select-kernels completes those), and tensor-form ops.
// (Configurations that do not fit their op are verifier errors:
// test/Dialect/Dwc/kernel-configs-mma-invalid.mlir.)
// RUN: dwc-opt %s --convert-dwc-to-gpu-mma -split-input-file | FileCheck %s

// CHECK-LABEL: func @no_config
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d
func.func @no_config(%x: memref<1x8x32x64xf16>, %w: memref<9x9x64xf16>, %y: memref<1x8x32x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<9x9x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4]
  return
}

// -----

// CHECK-LABEL: func @other_family
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d {{.*}} {dwc.kernel = #dwc.direct}
func.func @other_family(%x: memref<1x8x32x64xf16>, %w: memref<9x9x64xf16>, %y: memref<1x8x32x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<9x9x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] {dwc.kernel = #dwc.direct}
  return
}

// -----

// CHECK-LABEL: func @partial
// CHECK-NOT: gpu.launch
// CHECK: dwc.kernel = #dwc.mma_band<rows = 2>
// CHECK: dwc.kernel = #dwc.mma_ring<ring = true>
func.func @partial(%x: memref<1x8x32x64xf16>, %w: memref<9x9x64xf16>, %y: memref<1x8x32x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<9x9x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] {dwc.kernel = #dwc.mma_band<rows = 2>}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<9x9x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] {dwc.kernel = #dwc.mma_ring<ring = true>}
  return
}

// -----

// CHECK-LABEL: func @tensor_form
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d
func.func @tensor_form(%x: tensor<1x8x32x64xf16>, %w: tensor<9x9x64xf16>) -> tensor<1x8x32x64xf16> {
  %e = tensor.empty() : tensor<1x8x32x64xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x32x64xf16>, tensor<9x9x64xf16>) outs(%e : tensor<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] {dwc.kernel = #dwc.mma_ring<ring = true, frags_per_stage = 1, warp_channels = 16>} -> tensor<1x8x32x64xf16>
  return %y : tensor<1x8x32x64xf16>
}
