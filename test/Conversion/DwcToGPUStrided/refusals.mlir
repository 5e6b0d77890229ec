// RUN: dwc-opt %s --split-input-file --convert-dwc-to-gpu-strided | FileCheck %s
// RUN: not dwc-opt %s --convert-dwc-to-gpu-strided=vector-bits=48 2>&1 | FileCheck %s --check-prefix=BITS
// RUN: not dwc-opt %s --convert-dwc-to-gpu-strided=tile-width=33 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: not dwc-opt %s --convert-dwc-to-gpu-strided=forward-rows=9 2>&1 | FileCheck %s --check-prefix=TILE

// BITS: error: convert-dwc-to-gpu-strided: vector-bits must be 0, 32, 64 or 128
// TILE: error: convert-dwc-to-gpu-strided: tile-width must be in [0, 32], forward-rows in [0, 8] and filter-regs >= 1

// Left to the other passes: stride 1 (the GEMV / tensor-core kernels),
// dilation 2, f64, f32 summed in f64, f16 with an odd channel count (no
// 32-bit vector divides it), a filter of more than 49 taps (9x9), a
// non-identity layout.
// CHECK-LABEL: func @refused
// CHECK-NOT: gpu.launch
// CHECK-COUNT-5: dwc.depthwise_conv2d_backward_data
// CHECK-COUNT-3: dwc.depthwise_conv2d ins
// CHECK: return
func.func @refused(%dy1: memref<1x8x8x32xf32>, %w: memref<3x3x32xf32>, %dx: memref<1x8x8x32xf32>,
                   %dy: memref<1x4x4x32xf32>, %dyd: memref<1x3x3x32xf32>,
                   %dy64: memref<1x4x4x32xf64>, %w64: memref<3x3x32xf64>, %dx64: memref<1x8x8x32xf64>,
                   %dyh: memref<1x4x4x5xf16>, %wh: memref<3x3x5xf16>, %dxh: memref<1x8x8x5xf16>,
                   %xs: memref<1x8x8x32xf32, strided<[4096, 512, 64, 1]>>, %y: memref<1x4x4x32xf32>,
                   %w9: memref<9x9x32xf32>) {
  dwc.depthwise_conv2d_backward_data ins(%dy1, %w : memref<1x8x8x32xf32>, memref<3x3x32xf32>) outs(%dx : memref<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_data ins(%dyd, %w : memref<1x3x3x32xf32>, memref<3x3x32xf32>) outs(%dx : memref<1x8x8x32xf32>)
    strides = [2, 2] dilations = [2, 2] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_data ins(%dy64, %w64 : memref<1x4x4x32xf64>, memref<3x3x32xf64>) outs(%dx64 : memref<1x8x8x32xf64>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] acc = f64
  dwc.depthwise_conv2d_backward_data ins(%dyh, %wh : memref<1x4x4x5xf16>, memref<3x3x5xf16>) outs(%dxh : memref<1x8x8x5xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_data ins(%dy, %w9 : memref<1x4x4x32xf32>, memref<9x9x32xf32>) outs(%dx : memref<1x8x8x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [4, 4, 4, 4]
  dwc.depthwise_conv2d ins(%dx, %w : memref<1x8x8x32xf32>, memref<3x3x32xf32>) outs(%dy1 : memref<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d ins(%dx, %w : memref<1x8x8x32xf32>, memref<3x3x32xf32>) outs(%y : memref<1x4x4x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] acc = f64
  dwc.depthwise_conv2d ins(%xs, %w : memref<1x8x8x32xf32, strided<[4096, 512, 64, 1]>>, memref<3x3x32xf32>) outs(%y : memref<1x4x4x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// Tensor form: bufferize first.
// CHECK-LABEL: func @tensor_form
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d_backward_data
func.func @tensor_form(%dy: tensor<1x4x4x32xf32>, %w: tensor<3x3x32xf32>, %dx: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  %r = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x4x4x32xf32>, tensor<3x3x32xf32>) outs(%dx : tensor<1x8x8x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}
