// What convert-dwc-to-gpu-im2win leaves to the direct kernel of
// convert-dwc-to-gpu: OC not a multiple of 128 bits, f16 without tensor
// cores, tensor form, non-identity layouts; each refusal
// is reported as a remark with diagnose-refusals.
// RUN: dwc-opt %s --convert-dwc-to-gpu-im2win="diagnose-refusals=true" -split-input-file -verify-diagnostics | FileCheck %s
// RUN: dwc-opt %s --convert-dwc-to-gpu-im2win="tensor-cores=false" -split-input-file | FileCheck %s --check-prefix=NOTC
// (The tensor-form case makes convert-dwc-to-gpu fail, hence `not`.)
// RUN: not dwc-opt %s --convert-dwc-to-gpu-im2win --convert-dwc-to-gpu -split-input-file 2>/dev/null | FileCheck %s --check-prefix=FALLBACK

// CHECK-LABEL: func @oc6
// CHECK-NOT: gpu.launch
// CHECK: dwc.conv2d
// FALLBACK-LABEL: func @oc6
// FALLBACK: gpu.launch
// FALLBACK-NOT: dwc.conv2d
func.func @oc6(%x: memref<1x8x8x3xf32>, %w: memref<3x3x3x6xf32>, %y: memref<1x6x6x6xf32>) {
  // expected-remark @+1 {{im2win kernel refused: output channel count is not a multiple of 128 bits}}
  dwc.conv2d ins(%x, %w : memref<1x8x8x3xf32>, memref<3x3x3x6xf32>) outs(%y : memref<1x6x6x6xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0]
  return
}

// -----

// NOTC-LABEL: func @f16
// NOTC-NOT: gpu.launch
// NOTC: dwc.conv2d
// CHECK-LABEL: func @f16
// CHECK: gpu.launch
func.func @f16(%x: memref<1x8x8x16xf16>, %w: memref<3x3x16x8xf16>, %y: memref<1x6x6x8xf16>) {
  dwc.conv2d ins(%x, %w : memref<1x8x8x16xf16>, memref<3x3x16x8xf16>) outs(%y : memref<1x6x6x8xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0]
  return
}

// -----

// CHECK-LABEL: func @f16_oc4
// CHECK-NOT: gpu.launch
// CHECK: dwc.conv2d
func.func @f16_oc4(%x: memref<1x8x8x16xf16>, %w: memref<3x3x16x4xf16>, %y: memref<1x6x6x4xf16>) {
  // expected-remark @+1 {{im2win kernel refused: output channel count is not a multiple of 128 bits}}
  dwc.conv2d ins(%x, %w : memref<1x8x8x16xf16>, memref<3x3x16x4xf16>) outs(%y : memref<1x6x6x4xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0]
  return
}

// -----

// CHECK-LABEL: func @strided
// CHECK-NOT: gpu.launch
// CHECK: dwc.conv2d
func.func @strided(%x: memref<1x8x8x16xf32, strided<[4096, 512, 32, 1]>>, %w: memref<3x3x16x8xf32>, %y: memref<1x6x6x8xf32>) {
  // expected-remark @+1 {{im2win kernel refused: non-identity layout}}
  dwc.conv2d ins(%x, %w : memref<1x8x8x16xf32, strided<[4096, 512, 32, 1]>>, memref<3x3x16x8xf32>) outs(%y : memref<1x6x6x8xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0]
  return
}

// -----

// CHECK-LABEL: func @tensor
// CHECK-NOT: gpu.launch
// CHECK: dwc.conv2d
func.func @tensor(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16x8xf32>) -> tensor<1x6x6x8xf32> {
  %i = tensor.empty() : tensor<1x6x6x8xf32>
  // expected-remark @+1 {{im2win kernel refused: tensor form (bufferize first)}}
  %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16x8xf32>) outs(%i : tensor<1x6x6x8xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x6x6x8xf32>
  return %y : tensor<1x6x6x8xf32>
}
