// What convert-dwc-to-gpu-mma-stream leaves to the later passes: filters
// narrower than min-filter-width (FW = 9: the ring kernel is faster there),
// f32, stride 2, C % 8 != 0, a band and stage over 227 KB of shared memory
// (FW = 60 with 8 rows), everything with max-filter-width=0; invalid options
// (rows, prefetch, input-operand, loop-order, overlap-lookahead,
// compact-workspace).
// RUN: dwc-opt %s --convert-dwc-to-gpu-mma-stream -split-input-file | FileCheck %s
// RUN: dwc-opt %s --convert-dwc-to-gpu-mma-stream="max-filter-width=0" -split-input-file | FileCheck %s --check-prefix=OFF
// RUN: not dwc-opt %s --convert-dwc-to-gpu-mma-stream="rows=33" -split-input-file 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: not dwc-opt %s --convert-dwc-to-gpu-mma-stream="prefetch=9" -split-input-file 2>&1 | FileCheck %s --check-prefix=PREFETCH
// RUN: not dwc-opt %s --convert-dwc-to-gpu-mma-stream="input-operand=c" -split-input-file 2>&1 | FileCheck %s --check-prefix=OPERAND
// ROWS: convert-dwc-to-gpu-mma-stream: rows must be in [0, 32], got 33
// PREFETCH: convert-dwc-to-gpu-mma-stream: prefetch must be in [-1, 8], got 9
// RUN: not dwc-opt %s --convert-dwc-to-gpu-mma-stream="loop-order=columns" -split-input-file 2>&1 | FileCheck %s --check-prefix=ORDER
// OPERAND: convert-dwc-to-gpu-mma-stream: input-operand must be a, b or auto, got 'c'
// RUN: not dwc-opt %s --convert-dwc-to-gpu-mma-stream="overlap-lookahead=0" -split-input-file 2>&1 | FileCheck %s --check-prefix=LOOKAHEAD
// LOOKAHEAD: convert-dwc-to-gpu-mma-stream: overlap-lookahead must be in [1, 64], got 0
// RUN: not dwc-opt %s --convert-dwc-to-gpu-mma-stream="compact-workspace=2" -split-input-file 2>&1 | FileCheck %s --check-prefix=COMPACT
// COMPACT: convert-dwc-to-gpu-mma-stream: compact-workspace must be -1, 0 or 1, got 2
// ORDER: convert-dwc-to-gpu-mma-stream: loop-order must be filter-rows, input-rows or auto, got 'columns'

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

// OFF-LABEL: func @f17
// OFF-NOT: gpu.launch
// OFF: dwc.depthwise_conv2d
// CHECK-LABEL: func @f17
// CHECK: gpu.launch
func.func @f17(%x: memref<1x8x32x64xf16>, %w: memref<17x17x64xf16>, %y: memref<1x8x32x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<17x17x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [8, 8, 8, 8]
  return
}
