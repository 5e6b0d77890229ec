// RUN: dwc-opt %s --split-input-file --dwc-select-kernels | FileCheck %s
// RUN: dwc-opt %s --split-input-file --dwc-select-kernels=diagnose 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY

// The windowed pooling configurations (docs/KernelSelection.md, "global
// pool / pool forward / pool backward / conv pool"). Forward: 128-bit
// vectors; windows overlapping in height as row tiles (3x3 stride 2: 8 rows
// halved to 4 for 128 loads x 4 outputs; 3x3 stride 1 f32: 8 x 4; f16
// averages 4 rows x 1 output), others as strips of 4 (width stride 2).
// CHECK-LABEL: func @forward
// CHECK: dwc.kernel = #dwc.pool_forward<vector_bits = 128, rows = 4, columns = 4>
// CHECK: dwc.kernel = #dwc.pool_forward<vector_bits = 128, rows = 1, columns = 4>
// CHECK: dwc.kernel = #dwc.pool_forward<vector_bits = 128, rows = 4, columns = 1>
// CHECK: dwc.kernel = #dwc.pool_forward<vector_bits = 128, rows = 8, columns = 4>
// A given field is kept, the others chosen.
// CHECK: dwc.kernel = #dwc.pool_forward<vector_bits = 64, rows = 4, columns = 4>
// CHECK: dwc.kernel = #dwc.pool_forward<vector_bits = 128, rows = 1, columns = 4>
// WHY: remark: dwc.kernel = #dwc.pool_forward<vector_bits = 128, rows = 4, columns = 4>: chosen
func.func @forward(%x: memref<2x112x112x64xf32>, %y: memref<2x56x56x64xf32>, %h: memref<2x56x56x64xf16>) {
  dwc.pool2d max ins(%x : memref<2x112x112x64xf32>) outs(%y : memref<2x56x56x64xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1]
  dwc.pool2d max ins(%x : memref<2x112x112x64xf32>) outs(%y : memref<2x56x56x64xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0]
  dwc.pool2d avg ins(%h : memref<2x56x56x64xf16>) outs(%h : memref<2x56x56x64xf16>) window = [3, 3] strides = [1, 1] padding = [1, 1, 1, 1]
  dwc.pool2d max ins(%y : memref<2x56x56x64xf32>) outs(%y : memref<2x56x56x64xf32>) window = [3, 3] strides = [1, 1] padding = [1, 1, 1, 1]
  dwc.pool2d max ins(%x : memref<2x112x112x64xf32>) outs(%y : memref<2x56x56x64xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.pool_forward<vector_bits = 64>}
  dwc.pool2d max ins(%x : memref<2x112x112x64xf32>) outs(%y : memref<2x56x56x64xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.pool_forward<rows = 1>}
  return
}

// -----

// Refused: channels that fill no 128-bit vector, a window wider than the
// register strip (no configuration: the direct kernel takes them).
// CHECK-LABEL: func @forward_refused
// CHECK-NOT: dwc.kernel = #dwc.pool_
// WHY: remark: dwc.kernel = #dwc.{{.*}}: chosen; refused: {{.*}}pool_forward (channels not a multiple of the vector width){{.*}}
// WHY: remark: dwc.kernel = #dwc.{{.*}}: chosen; refused: {{.*}}pool_forward (window too wide for the register strip){{.*}}
func.func @forward_refused(%c6: memref<1x8x8x6xf32>, %c6o: memref<1x4x4x6xf32>, %w: memref<1x4x80x4xf32>, %wo: memref<1x4x2x4xf32>) {
  dwc.pool2d max ins(%c6 : memref<1x8x8x6xf32>) outs(%c6o : memref<1x4x4x6xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0]
  dwc.pool2d avg ins(%w : memref<1x4x80x4xf32>) outs(%wo : memref<1x4x2x4xf32>) window = [1, 60] strides = [1, 20] padding = [0, 0, 0, 0]
  return
}

// -----

// Backward: max with overlapping windows stores the argmax (16-bit: packed
// pairs, one window per argmax thread, 2-wide gathers), non-overlapping
// windows recompute it; strided gradients as tiles of one stride of rows,
// stride-1 averages as box-sum row tiles, scalar channels (C = 5) and
// stride-1 max as strips.
// CHECK-LABEL: func @backward
// CHECK: dwc.kernel = #dwc.pool_backward<rows = 2, columns = 4, argmax = "stored", argmax_columns = 4>
// CHECK: dwc.kernel = #dwc.pool_backward<rows = 2, columns = 2, argmax = "packed", argmax_columns = 1>
// CHECK: dwc.kernel = #dwc.pool_backward<rows = 1, columns = 4, argmax = "recompute">
// CHECK: dwc.kernel = #dwc.pool_backward<rows = 2, columns = 4, argmax = "none">
// CHECK: dwc.kernel = #dwc.pool_backward<rows = 8, columns = 4, argmax = "none">
// CHECK: dwc.kernel = #dwc.pool_backward<rows = 1, columns = 4, argmax = "stored", argmax_columns = 8>
// CHECK: dwc.kernel = #dwc.pool_backward<rows = 1, columns = 4, argmax = "none">
// Given fields kept: the argmax recomputed (tiles allowed: the windows
// overlap), single-row strips.
// CHECK: dwc.kernel = #dwc.pool_backward<rows = 2, columns = 4, argmax = "recompute">
// CHECK: dwc.kernel = #dwc.pool_backward<rows = 1, columns = 2, argmax = "packed", argmax_columns = 1>
func.func @backward(%x: memref<2x112x112x64xf32>, %dy: memref<2x56x56x64xf32>, %xh: memref<2x112x112x64xf16>, %dyh: memref<2x56x56x64xf16>,
                    %x5: memref<1x6x6x5xf32>, %dy5: memref<1x3x3x5xf32>) {
  dwc.pool2d_backward max ins(%x, %dy : memref<2x112x112x64xf32>, memref<2x56x56x64xf32>) outs(%x : memref<2x112x112x64xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1]
  dwc.pool2d_backward max ins(%xh, %dyh : memref<2x112x112x64xf16>, memref<2x56x56x64xf16>) outs(%xh : memref<2x112x112x64xf16>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1]
  dwc.pool2d_backward max ins(%x, %dy : memref<2x112x112x64xf32>, memref<2x56x56x64xf32>) outs(%x : memref<2x112x112x64xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0]
  dwc.pool2d_backward avg ins(%x, %dy : memref<2x112x112x64xf32>, memref<2x56x56x64xf32>) outs(%x : memref<2x112x112x64xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1]
  dwc.pool2d_backward avg ins(%dy, %dy : memref<2x56x56x64xf32>, memref<2x56x56x64xf32>) outs(%dy : memref<2x56x56x64xf32>) window = [3, 3] strides = [1, 1] padding = [1, 1, 1, 1]
  dwc.pool2d_backward max ins(%dy, %dy : memref<2x56x56x64xf32>, memref<2x56x56x64xf32>) outs(%dy : memref<2x56x56x64xf32>) window = [3, 3] strides = [1, 1] padding = [1, 1, 1, 1]
  dwc.pool2d_backward avg ins(%x5, %dy5 : memref<1x6x6x5xf32>, memref<1x3x3x5xf32>) outs(%x5 : memref<1x6x6x5xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0]
  dwc.pool2d_backward max ins(%x, %dy : memref<2x112x112x64xf32>, memref<2x56x56x64xf32>) outs(%x : memref<2x112x112x64xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.pool_backward<argmax = "recompute">}
  dwc.pool2d_backward max ins(%xh, %dyh : memref<2x112x112x64xf16>, memref<2x56x56x64xf16>) outs(%xh : memref<2x112x112x64xf16>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.pool_backward<rows = 1>}
  return
}

// -----

// Overlapping windows of more than 127 taps (no i8 tap index): the argmax
// is recomputed, in single-row strips (tiles recompute it only on request:
// @backward).
// CHECK-LABEL: func @backward_wide_windows
// CHECK: dwc.kernel = #dwc.pool_backward<rows = 1, columns = 4, argmax = "recompute">
func.func @backward_wide_windows(%x: memref<1x24x24x16xf32>, %dy: memref<1x7x7x16xf32>) {
  dwc.pool2d_backward max ins(%x, %dy : memref<1x24x24x16xf32>, memref<1x7x7x16xf32>) outs(%x : memref<1x24x24x16xf32>) window = [12, 12] strides = [2, 2] padding = [0, 0, 0, 0]
  return
}

// -----

// Refused: a stride wider than 64 strip columns.
// CHECK-LABEL: func @backward_refused
// CHECK-NOT: dwc.kernel = #dwc.pool_
// WHY: remark: no kernel family takes this op ({{.*}}pool_backward (columns = 65536 is not in [1, 64]){{.*}})
func.func @backward_refused(%x: memref<1x8x131072x8xf32>, %dy: memref<1x4x2x8xf32>) {
  dwc.pool2d_backward max ins(%x, %dy : memref<1x8x131072x8xf32>, memref<1x4x2x8xf32>) outs(%x : memref<1x8x131072x8xf32>) window = [2, 3] strides = [2, 65536] padding = [0, 0, 1, 1]
  return
}

// -----

// The fused convolution + pooling kernel: strips of 4 pooled outputs (f32
// 3x3 + 3x3 stride 2: (3 * 2 + 3 + 3) x 4 = 48 of the 96 live lanes);
// 16-bit 5x5 filters are refused (split by dwc-decompose-conv-pool).
// CHECK-LABEL: func @conv_pool
// CHECK: dwc.kernel = #dwc.conv_pool<columns = 4>
// CHECK-NOT: dwc.kernel = #dwc.pool_
// WHY: remark: dwc.kernel = #dwc.conv_pool<columns = 4>: chosen
// WHY: remark: no kernel family takes this op (conv_pool (16-bit filter larger than 9 taps); direct (a fused convolution + pooling op has no direct kernel
func.func @conv_pool(%x: memref<1x56x56x64xf32>, %w: memref<3x3x64xf32>, %y: memref<1x28x28x64xf32>,
                     %xh: memref<1x56x56x64xf16>, %wh: memref<5x5x64xf16>, %yh: memref<1x28x28x64xf16>) {
  dwc.depthwise_conv2d_pool2d max ins(%x, %w : memref<1x56x56x64xf32>, memref<3x3x64xf32>) outs(%y : memref<1x28x28x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [3, 3] pool_strides = [2, 2] pool_padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_pool2d max ins(%xh, %wh : memref<1x56x56x64xf16>, memref<5x5x64xf16>) outs(%yh : memref<1x28x28x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] window = [3, 3] pool_strides = [2, 2] pool_padding = [1, 1, 1, 1]
  return
}
