// What no im2win configuration takes (left to the direct kernel of
// convert-dwc-to-gpu): OC not a multiple of 128 bits, non-identity layouts;
// dwc-select-kernels{diagnose} reports each family's refusal. The pass
// leaves alone ops without an im2win dwc.kernel, with an incomplete one, and
// on tensors.
// RUN: dwc-opt %s --dwc-select-kernels="diagnose=true" --convert-dwc-to-gpu-im2win -split-input-file -verify-diagnostics | FileCheck %s
// (The tensor-form case makes convert-dwc-to-gpu fail, hence `not`.)
// RUN: not dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-im2win --convert-dwc-to-gpu -split-input-file 2>/dev/null | FileCheck %s --check-prefix=FALLBACK
// Without dwc-select-kernels nothing has a complete configuration:
// RUN: dwc-opt %s --convert-dwc-to-gpu-im2win -split-input-file | FileCheck %s --check-prefix=NOSELECT
// NOSELECT-NOT: gpu.launch

// CHECK-LABEL: func @oc6
// CHECK-NOT: gpu.launch
// CHECK: dwc.conv2d
// FALLBACK-LABEL: func @oc6
// FALLBACK: gpu.launch
// FALLBACK-NOT: dwc.conv2d
func.func @oc6(%x: memref<1x8x8x3xf32>, %w: memref<3x3x3x6xf32>, %y: memref<1x6x6x6xf32>) {
  // expected-remark @+1 {{im2win_simt (output channel count is not a multiple of 128 bits)}}
  dwc.conv2d ins(%x, %w : memref<1x8x8x3xf32>, memref<3x3x3x6xf32>) outs(%y : memref<1x6x6x6xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0]
  return
}

// -----

// On sm_90 the warpgroup kernel refuses f16 (no wgmma) and mma.sync takes it.
// CHECK-LABEL: func @f16
// CHECK: gpu.launch_func @f16_im2win_mma::@f16_im2win_mma
func.func @f16(%x: memref<1x8x8x16xf16>, %w: memref<3x3x16x8xf16>, %y: memref<1x6x6x8xf16>) {
  // expected-remark @+1 {{dwc.kernel = #dwc.im2win_mma<tile_n = 64, stages = 2, min_blocks_per_sm = 1, precompute = true, async_copy = true, im2win_tensor = false, swizzle = true>: chosen; refused: im2win_wgmma (target sm_90 has no wgmma (sm_90a has))}}
  dwc.conv2d ins(%x, %w : memref<1x8x8x16xf16>, memref<3x3x16x8xf16>) outs(%y : memref<1x6x6x8xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0]
  return
}

// -----

// CHECK-LABEL: func @f16_oc4
// CHECK-NOT: gpu.launch
// CHECK: dwc.conv2d
func.func @f16_oc4(%x: memref<1x8x8x16xf16>, %w: memref<3x3x16x4xf16>, %y: memref<1x6x6x4xf16>) {
  // expected-remark @+1 {{im2win_mma (output channel count is not a multiple of 128 bits)}}
  dwc.conv2d ins(%x, %w : memref<1x8x8x16xf16>, memref<3x3x16x4xf16>) outs(%y : memref<1x6x6x4xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0]
  return
}

// -----

// CHECK-LABEL: func @strided
// CHECK-NOT: gpu.launch
// CHECK: dwc.conv2d
func.func @strided(%x: memref<1x8x8x16xf32, strided<[4096, 512, 32, 1]>>, %w: memref<3x3x16x8xf32>, %y: memref<1x6x6x8xf32>) {
  // expected-remark @+1 {{im2win_simt (non-identity layout)}}
  dwc.conv2d ins(%x, %w : memref<1x8x8x16xf32, strided<[4096, 512, 32, 1]>>, memref<3x3x16x8xf32>) outs(%y : memref<1x6x6x8xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0]
  return
}

// -----

// Tensor form: configured (the attribute survives bufferization), not
// lowered.
// CHECK-LABEL: func @tensor
// CHECK-NOT: gpu.launch
// CHECK: dwc.conv2d {{.*}} {dwc.kernel = #dwc.im2win_simt<
func.func @tensor(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16x8xf32>) -> tensor<1x6x6x8xf32> {
  %i = tensor.empty() : tensor<1x6x6x8xf32>
  // expected-remark @+1 {{dwc.kernel = #dwc.im2win_simt<}}
  %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16x8xf32>) outs(%i : tensor<1x6x6x8xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x6x6x8xf32>
  return %y : tensor<1x6x6x8xf32>
}

// -----

// An incomplete configuration is left alone by the pass (NOSELECT) and
// completed by dwc-select-kernels.
// CHECK-LABEL: func @incomplete
// CHECK: gpu.launch_func @incomplete_im2win_simt
func.func @incomplete(%x: memref<1x8x8x16xf32>, %w: memref<3x3x16x8xf32>, %y: memref<1x6x6x8xf32>) {
  // expected-remark @+1 {{dwc.kernel = #dwc.im2win_simt<tile_n = 64, stages = 2, min_blocks_per_sm = 1, precompute = true, async_copy = true, im2win_tensor = false>: chosen}}
  dwc.conv2d ins(%x, %w : memref<1x8x8x16xf32>, memref<3x3x16x8xf32>) outs(%y : memref<1x6x6x8xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_simt<>}
  return
}
