// RUN: dwc-opt %s --split-input-file --dwc-select-kernels | FileCheck %s
// RUN: dwc-opt %s --split-input-file --dwc-select-kernels=diagnose 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY

// The GEMV family's configurations (#dwc.row_tile, then #dwc.gemv) for
// stride-1 depthwise forward and backward-data ops (docs/KernelSelection.md,
// "row tile" and "GEMV"), partial configurations completed, and the
// refusals.
// Row tiles (chosen first): 16-bit filters of at most 9 taps 4 channels x
// 4 rows x 4 outputs, forward and backward data; the filter in registers
// (FH x FW x channels <= 200).
// CHECK-LABEL: func @f16_3x3
// CHECK: dwc.kernel = #dwc.row_tile<channels = 4, rows = 4, columns = 4, filter = "registers">
// CHECK: dwc.kernel = #dwc.row_tile<channels = 4, rows = 4, columns = 4, filter = "registers">
// WHY: remark: dwc.kernel = #dwc.row_tile<channels = 4, rows = 4, columns = 4, filter = "registers">: chosen
func.func @f16_3x3(%x0: memref<128x8x16x64xf16>, %w0: memref<3x3x64xf16>, %y0: memref<128x8x16x64xf16>, %x1: memref<128x8x16x64xf16>, %w1: memref<3x3x64xf16>, %y1: memref<128x8x16x64xf16>) {
  dwc.depthwise_conv2d ins(%x0, %w0 : memref<128x8x16x64xf16>, memref<3x3x64xf16>) outs(%y0 : memref<128x8x16x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_data ins(%x1, %w1 : memref<128x8x16x64xf16>, memref<3x3x64xf16>) outs(%y1 : memref<128x8x16x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// 16-bit filters of at most 9 taps on maps of at most 14 x 14 outputs: 2
// rows x the fewest strips of at most 8 columns of 32-bit vectors (64 x 14
// x 14 x 384 f16 -> 2 x 7, 64 x 7 x 7 x 960 bf16 -> 2 x 7, 256 x 13 x 11 x 24
// -> 2 x 6), backward data alike. Not: a map of 15 columns, the 28 x 28
// map, f32 (4 x 8 x 64 bits), batch 1 (the tiny-grid tile, counted with
// the default tile), a requested tile (only the fields left out are
// completed, with the default tile's).
// CHECK-LABEL: func @f16_3x3_small_maps
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 2, columns = 7, filter = "registers">
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 2, columns = 7, filter = "registers">
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 2, columns = 7, filter = "registers">
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 2, columns = 6, filter = "registers">
// CHECK: dwc.kernel = #dwc.row_tile<channels = 4, rows = 4, columns = 4, filter = "registers">
// CHECK: dwc.kernel = #dwc.row_tile<channels = 4, rows = 4, columns = 4, filter = "registers">
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 4, columns = 8, filter = "registers">
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 2, columns = 1, filter = "registers", loads_first = 1>
// CHECK: dwc.kernel = #dwc.row_tile<channels = 4, rows = 2, columns = 4, filter = "registers">
// WHY: remark: dwc.kernel = #dwc.row_tile<channels = 2, rows = 2, columns = 7, filter = "registers">: chosen
func.func @f16_3x3_small_maps(%x0: memref<64x14x14x384xf16>, %w0: memref<3x3x384xf16>, %x1: memref<64x7x7x960xbf16>, %w1: memref<3x3x960xbf16>, %x2: memref<256x13x11x24xf16>, %w2: memref<3x3x24xf16>, %x3: memref<64x14x15x384xf16>, %x4: memref<64x28x28x192xf16>, %w4: memref<3x3x192xf16>, %x5: memref<64x14x14x384xf32>, %w5: memref<3x3x384xf32>, %x6: memref<1x14x14x384xf16>) {
  dwc.depthwise_conv2d ins(%x0, %w0 : memref<64x14x14x384xf16>, memref<3x3x384xf16>) outs(%x0 : memref<64x14x14x384xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_data ins(%x0, %w0 : memref<64x14x14x384xf16>, memref<3x3x384xf16>) outs(%x0 : memref<64x14x14x384xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d ins(%x1, %w1 : memref<64x7x7x960xbf16>, memref<3x3x960xbf16>) outs(%x1 : memref<64x7x7x960xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d ins(%x2, %w2 : memref<256x13x11x24xf16>, memref<3x3x24xf16>) outs(%x2 : memref<256x13x11x24xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d ins(%x3, %w0 : memref<64x14x15x384xf16>, memref<3x3x384xf16>) outs(%x3 : memref<64x14x15x384xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d ins(%x4, %w4 : memref<64x28x28x192xf16>, memref<3x3x192xf16>) outs(%x4 : memref<64x28x28x192xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d ins(%x5, %w5 : memref<64x14x14x384xf32>, memref<3x3x384xf32>) outs(%x5 : memref<64x14x14x384xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d ins(%x6, %w0 : memref<1x14x14x384xf16>, memref<3x3x384xf16>) outs(%x6 : memref<1x14x14x384xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d ins(%x0, %w0 : memref<64x14x14x384xf16>, memref<3x3x384xf16>) outs(%x0 : memref<64x14x14x384xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.row_tile<rows = 2>}
  return
}

// -----

// 16-bit filters of 10 to 25 taps: 2 channels x 8 rows x 4 outputs, of 26
// to 49 taps 8 outputs, on grids of at least 4 waves of 132 SMs (2048
// blocks here); a grid of fewer blocks than a quarter of the SMs (1 x 16 x
// 16 x 64: one block) takes two output rows of one column of 2 channels
// per thread (batch 1, 10 to 25 taps), C = 6 too.
// CHECK-LABEL: func @f16_long
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 8, columns = 4, filter = "registers">
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 8, columns = 8, filter = "registers">
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 2, columns = 1, filter = "registers", loads_first = 1>
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 2, columns = 1, filter = "registers", loads_first = 1>
func.func @f16_long(%x0: memref<128x64x64x64xf16>, %w0: memref<5x5x64xf16>, %y0: memref<128x64x64x64xf16>, %x1: memref<128x64x64x64xf16>, %w1: memref<7x7x64xf16>, %y1: memref<128x64x64x64xf16>, %x2: memref<1x16x16x64xf16>, %w2: memref<5x5x64xf16>, %y2: memref<1x16x16x64xf16>, %x3: memref<1x16x16x6xf16>, %w3: memref<5x5x6xf16>, %y3: memref<1x16x16x6xf16>) {
  dwc.depthwise_conv2d ins(%x0, %w0 : memref<128x64x64x64xf16>, memref<5x5x64xf16>) outs(%y0 : memref<128x64x64x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%x1, %w1 : memref<128x64x64x64xf16>, memref<7x7x64xf16>) outs(%y1 : memref<128x64x64x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
  dwc.depthwise_conv2d ins(%x2, %w2 : memref<1x16x16x64xf16>, memref<5x5x64xf16>) outs(%y2 : memref<1x16x16x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%x3, %w3 : memref<1x16x16x6xf16>, memref<5x5x6xf16>) outs(%y3 : memref<1x16x16x6xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  return
}

// -----

// f32 row tiles on large grids: up to 9 taps 2 channels x 4 x 8, 10 to 25
// taps 1 channel x 8 x 8; 7x7 x 4 channels = 196 filter registers: still
// in registers; a small grid keeps the GEMV kernel (4 channels, 8 outputs,
// shared filter rows, a loop over the rows).
// CHECK-LABEL: func @f32
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 4, columns = 8, filter = "registers">
// CHECK: dwc.kernel = #dwc.row_tile<channels = 1, rows = 8, columns = 8, filter = "registers">
// CHECK: dwc.kernel = #dwc.gemv<channels = 4, outputs = 8, filter = "smem", rows = "loop">
// WHY: remark: dwc.kernel = #dwc.gemv<channels = 4, outputs = 8, filter = "smem", rows = "loop">: chosen; refused: {{.*}}row_tile (f32 on a small grid (the GEMV kernel is faster))
func.func @f32(%x0: memref<128x64x64x256xf32>, %w0: memref<3x3x256xf32>, %y0: memref<128x64x64x256xf32>, %x1: memref<128x64x64x256xf32>, %w1: memref<5x5x256xf32>, %y1: memref<128x64x64x256xf32>, %x2: memref<1x8x9x32xf32>, %w2: memref<3x3x32xf32>, %y2: memref<1x8x9x32xf32>) {
  dwc.depthwise_conv2d ins(%x0, %w0 : memref<128x64x64x256xf32>, memref<3x3x256xf32>) outs(%y0 : memref<128x64x64x256xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d ins(%x1, %w1 : memref<128x64x64x256xf32>, memref<5x5x256xf32>) outs(%y1 : memref<128x64x64x256xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%x2, %w2 : memref<1x8x9x32xf32>, memref<3x3x32xf32>) outs(%y2 : memref<1x8x9x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// f32 filters of 26+ taps: strips fitted to the output width, the fewest
// of at most 8 columns (28 -> 7: no partly idle last strip, and no spill at
// 255 registers; 56 -> 8), forward and backward data; a requested column
// count is kept.
// CHECK-LABEL: func @f32_7x7_fitted_strips
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 4, columns = 7, filter = "registers">
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 4, columns = 7, filter = "registers">
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 4, columns = 8, filter = "registers">
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 4, columns = 8, filter = "registers">
func.func @f32_7x7_fitted_strips(%x0: memref<64x28x28x192xf32>, %w0: memref<7x7x192xf32>, %x1: memref<64x56x56x96xf32>, %w1: memref<7x7x96xf32>) {
  dwc.depthwise_conv2d ins(%x0, %w0 : memref<64x28x28x192xf32>, memref<7x7x192xf32>) outs(%x0 : memref<64x28x28x192xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
  dwc.depthwise_conv2d_backward_data ins(%x0, %w0 : memref<64x28x28x192xf32>, memref<7x7x192xf32>) outs(%x0 : memref<64x28x28x192xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
  dwc.depthwise_conv2d ins(%x1, %w1 : memref<64x56x56x96xf32>, memref<7x7x96xf32>) outs(%x1 : memref<64x56x56x96xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
  dwc.depthwise_conv2d ins(%x0, %w0 : memref<64x28x28x192xf32>, memref<7x7x192xf32>) outs(%x0 : memref<64x28x28x192xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.row_tile<columns = 8>}
  return
}

// -----

// The GEMV kernel requested (#dwc.gemv<>, completed): 16-bit filters of at
// most 9 taps 64-bit vectors (4 channels) from global memory with the rows
// unrolled (at most 5), longer ones 128-bit vectors with shared filter rows
// and the row loop; outputs clamped to min(8, OW).
// CHECK-LABEL: func @gemv_requested
// CHECK: dwc.kernel = #dwc.gemv<channels = 4, outputs = 5, filter = "global", rows = "unrolled">
// CHECK: dwc.kernel = #dwc.gemv<channels = 8, outputs = 8, filter = "smem", rows = "loop">
// CHECK: dwc.kernel = #dwc.gemv<channels = 4, outputs = 8, filter = "global", rows = "loop">
// WHY: remark: dwc.kernel = #dwc.gemv<channels = 4, outputs = 5, filter = "global", rows = "unrolled">: chosen
func.func @gemv_requested(%x0: memref<1x8x5x64xf16>, %w0: memref<3x3x64xf16>, %y0: memref<1x8x5x64xf16>, %x1: memref<1x8x16x64xf16>, %w1: memref<7x7x64xf16>, %y1: memref<1x8x16x64xf16>, %x2: memref<1x8x16x64xbf16>, %w2: memref<7x3x64xbf16>, %y2: memref<1x8x16x64xbf16>) {
  dwc.depthwise_conv2d ins(%x0, %w0 : memref<1x8x5x64xf16>, memref<3x3x64xf16>) outs(%y0 : memref<1x8x5x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<>}
  dwc.depthwise_conv2d ins(%x1, %w1 : memref<1x8x16x64xf16>, memref<7x7x64xf16>) outs(%y1 : memref<1x8x16x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.gemv<>}
  dwc.depthwise_conv2d ins(%x2, %w2 : memref<1x8x16x64xbf16>, memref<7x3x64xbf16>) outs(%y2 : memref<1x8x16x64xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 1, 1] {dwc.kernel = #dwc.gemv<channels = 4>}
  return
}

// -----

// Partial row tiles completed: the f32 small-grid rule applies to chosen
// tiles only (given rows: 2 channels x 2 x 8); filter = "global" kept.
// CHECK-LABEL: func @row_tile_requested
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 2, columns = 8, filter = "registers">
// CHECK: dwc.kernel = #dwc.row_tile<channels = 4, rows = 4, columns = 4, filter = "global">
func.func @row_tile_requested(%x0: memref<1x8x9x32xf32>, %w0: memref<3x3x32xf32>, %y0: memref<1x8x9x32xf32>, %x1: memref<1x8x16x64xf16>, %w1: memref<3x3x64xf16>, %y1: memref<1x8x16x64xf16>) {
  dwc.depthwise_conv2d ins(%x0, %w0 : memref<1x8x9x32xf32>, memref<3x3x32xf32>) outs(%y0 : memref<1x8x9x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.row_tile<rows = 2>}
  dwc.depthwise_conv2d_backward_data ins(%x1, %w1 : memref<1x8x16x64xf16>, memref<3x3x64xf16>) outs(%y1 : memref<1x8x16x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.row_tile<filter = "global">}
  return
}

// -----

// Refused: 16-bit filters 9+ taps wide with C % 8 == 0 are the tensor-core
// kernels' (C = 12 is not theirs:
// the row tile, 1 x 1 tiles on this one-block grid); f32 C % 4 != 0 on a small grid; dilation; a backward-data
// padding beyond FH - 1; stride 2 (the strided family).
// CHECK-LABEL: func @refused
// CHECK: padding = [0, 0, 4, 4] {dwc.kernel = #dwc.mma_band
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 1, columns = 1, filter = "registers", loads_first = 1>
// CHECK: padding = [1, 1, 1, 1] {dwc.kernel = #dwc.direct}
// CHECK: padding = [2, 2, 2, 2] {dwc.kernel = #dwc.direct}
// CHECK: padding = [3, 3, 3, 3] {dwc.kernel = #dwc.direct}
// CHECK: dwc.kernel = #dwc.strided_forward
// WHY: remark: dwc.kernel = #dwc.mma_band<{{.*}}>: chosen
// WHY: remark: dwc.kernel = #dwc.row_tile<channels = 2, rows = 1, columns = 1, filter = "registers", loads_first = 1>: chosen
// WHY: remark: dwc.kernel = #dwc.{{.*}}: chosen; refused: {{.*}}row_tile (f32 on a small grid (the GEMV kernel is faster)){{.*}}gemv (channel count is not a multiple of 128 bits);
// WHY: remark: dwc.kernel = #dwc.{{.*}}: chosen; refused: {{.*}}row_tile (dilation is not 1){{.*}}gemv (dilation is not 1);
// WHY: remark: dwc.kernel = #dwc.{{.*}}: chosen; refused: {{.*}}row_tile (padding larger than the filter extent minus one (negative transposed padding)){{.*}}gemv (padding larger than the filter extent minus one (negative transposed padding));
// WHY: remark: dwc.kernel = #dwc.strided_forward<{{.*}}>: chosen; refused: {{.*}}row_tile (stride is not 1){{.*}}gemv (stride is not 1)
func.func @refused(%x0: memref<1x8x16x64xf16>, %w0: memref<1x9x64xf16>, %y0: memref<1x8x16x64xf16>, %x1: memref<1x8x16x12xf16>, %w1: memref<1x9x12xf16>, %y1: memref<1x8x16x12xf16>, %x2: memref<1x8x8x6xf32>, %w2: memref<3x3x6xf32>, %y2: memref<1x8x8x6xf32>, %x3: memref<1x8x8x32xf32>, %w3: memref<3x3x32xf32>, %y3: memref<1x8x8x32xf32>, %x4: memref<1x8x8x32xf32>, %w4: memref<3x3x32xf32>, %y4: memref<1x4x4x32xf32>, %x5: memref<1x8x8x32xf32>, %w5: memref<3x3x32xf32>, %y5: memref<1x4x4x32xf32>) {
  dwc.depthwise_conv2d ins(%x0, %w0 : memref<1x8x16x64xf16>, memref<1x9x64xf16>) outs(%y0 : memref<1x8x16x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 4, 4]
  dwc.depthwise_conv2d ins(%x1, %w1 : memref<1x8x16x12xf16>, memref<1x9x12xf16>) outs(%y1 : memref<1x8x16x12xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 4, 4]
  dwc.depthwise_conv2d ins(%x2, %w2 : memref<1x8x8x6xf32>, memref<3x3x6xf32>) outs(%y2 : memref<1x8x8x6xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d ins(%x3, %w3 : memref<1x8x8x32xf32>, memref<3x3x32xf32>) outs(%y3 : memref<1x8x8x32xf32>)
    strides = [1, 1] dilations = [2, 2] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d_backward_data ins(%x4, %w4 : memref<1x8x8x32xf32>, memref<3x3x32xf32>) outs(%y4 : memref<1x4x4x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
  dwc.depthwise_conv2d ins(%x5, %w5 : memref<1x8x8x32xf32>, memref<3x3x32xf32>) outs(%y5 : memref<1x4x4x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// f32 grids under a quarter of the SMs (batch 1): tiles of one channel on
// maps of 14+ rows, or smaller maps of 512+ channels, with filters of at
// most 25 taps, 1 x 2 up to 9 taps (14 x 14 x 384 3x3, 7 x 7 x 960 3x3),
// else 2 x 2 (28 x 28 x 192 5x5); a 7 x 7 map of 256 channels keeps the
// GEMV kernel (the row-tile refusal reported); a 7x7 filter is the full
// row's in column parts (config-full-row.mlir).
// CHECK-LABEL: func @f32_tiny_grid
// CHECK: dwc.kernel = #dwc.row_tile<channels = 1, rows = 1, columns = 2, filter = "registers", loads_first = 1>
// CHECK: dwc.kernel = #dwc.row_tile<channels = 1, rows = 2, columns = 2, filter = "registers", loads_first = 1>
// CHECK: dwc.kernel = #dwc.row_tile<channels = 1, rows = 1, columns = 2, filter = "registers", loads_first = 1>
// CHECK: dwc.kernel = #dwc.full_row<channels = 1, threads = 128, unroll = 2, columns = 8, max_registers = 255>
// CHECK: dwc.kernel = #dwc.gemv<
// WHY: remark: dwc.kernel = #dwc.row_tile<channels = 1, rows = 1, columns = 2, filter = "registers", loads_first = 1>: chosen
// WHY: remark: dwc.kernel = #dwc.row_tile<channels = 1, rows = 2, columns = 2, filter = "registers", loads_first = 1>: chosen
// WHY: remark: dwc.kernel = #dwc.row_tile<channels = 1, rows = 1, columns = 2, filter = "registers", loads_first = 1>: chosen
// WHY: remark: dwc.kernel = #dwc.full_row<{{.*}}>: chosen
// WHY: remark: dwc.kernel = #dwc.gemv<{{.*}}>: chosen; refused: {{.*}}row_tile (f32 on a small grid (the GEMV kernel is faster))
func.func @f32_tiny_grid(%x0: memref<1x14x14x384xf32>, %w0: memref<3x3x384xf32>, %y0: memref<1x14x14x384xf32>,
    %x1: memref<1x28x28x192xf32>, %w1: memref<5x5x192xf32>, %y1: memref<1x28x28x192xf32>,
    %x2: memref<1x7x7x960xf32>, %w2: memref<3x3x960xf32>, %y2: memref<1x7x7x960xf32>,
    %w3: memref<7x7x384xf32>,
    %x4: memref<1x7x7x256xf32>, %w4: memref<3x3x256xf32>, %y4: memref<1x7x7x256xf32>) {
  dwc.depthwise_conv2d ins(%x0, %w0 : memref<1x14x14x384xf32>, memref<3x3x384xf32>) outs(%y0 : memref<1x14x14x384xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d ins(%x1, %w1 : memref<1x28x28x192xf32>, memref<5x5x192xf32>) outs(%y1 : memref<1x28x28x192xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%x2, %w2 : memref<1x7x7x960xf32>, memref<3x3x960xf32>) outs(%y2 : memref<1x7x7x960xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d ins(%x0, %w3 : memref<1x14x14x384xf32>, memref<7x7x384xf32>) outs(%y0 : memref<1x14x14x384xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
  dwc.depthwise_conv2d ins(%x4, %w4 : memref<1x7x7x256xf32>, memref<3x3x256xf32>) outs(%y4 : memref<1x7x7x256xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// 16-bit filters of 10-25 taps on maps of 15-56 output rows: 32-bit tiles
// with two 256-thread blocks per SM (min_blocks_per_sm = 2), 4 x 4 up to 28
// rows (the 32 x 28 x 28 x 192 small grid, which took the spilling 4 x 4 x
// 64-bit tile before), 7 x 4 on 28-row maps whose 7-row grid has 3+ waves of
// 2 blocks per SM (64 x 28 x 28 x 240: 840 blocks, 792 needed; the batch-32
// grid of 336 keeps 4 x 4), 8 x 4 above (32 x 56 x 56 x 96), backward data
// alike; 64-row maps and batch 1 keep their tiles (8 x 4 without the bound;
// one output per thread). A requested tile gets no bound; requested
// prefetch_rows (never chosen) are kept with the fields left out completed.
// CHECK-LABEL: func @f16_bounded
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 7, columns = 4, filter = "registers", min_blocks_per_sm = 2>
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 4, columns = 4, filter = "registers", min_blocks_per_sm = 2>
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 8, columns = 4, filter = "registers", min_blocks_per_sm = 2>
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 7, columns = 4, filter = "registers", min_blocks_per_sm = 2>
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 8, columns = 4, filter = "registers">
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 2, columns = 1, filter = "registers", loads_first = 1>
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 8, columns = 4, filter = "registers">
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 8, columns = 4, filter = "registers", min_blocks_per_sm = 2, prefetch_rows = 2>
// WHY: remark: dwc.kernel = #dwc.row_tile<channels = 2, rows = 7, columns = 4, filter = "registers", min_blocks_per_sm = 2>: chosen
func.func @f16_bounded(%x0: memref<64x28x28x240xf16>, %w0: memref<5x5x240xf16>, %x1: memref<32x28x28x192xf16>, %w1: memref<5x5x192xf16>, %x2: memref<32x56x56x96xbf16>, %w2: memref<5x5x96xbf16>, %x3: memref<128x64x64x64xf16>, %w3: memref<5x5x64xf16>, %x4: memref<1x28x28x256xf16>, %w4: memref<5x5x256xf16>) {
  dwc.depthwise_conv2d ins(%x0, %w0 : memref<64x28x28x240xf16>, memref<5x5x240xf16>) outs(%x0 : memref<64x28x28x240xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%x1, %w1 : memref<32x28x28x192xf16>, memref<5x5x192xf16>) outs(%x1 : memref<32x28x28x192xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%x2, %w2 : memref<32x56x56x96xbf16>, memref<5x5x96xbf16>) outs(%x2 : memref<32x56x56x96xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d_backward_data ins(%x0, %w0 : memref<64x28x28x240xf16>, memref<5x5x240xf16>) outs(%x0 : memref<64x28x28x240xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%x3, %w3 : memref<128x64x64x64xf16>, memref<5x5x64xf16>) outs(%x3 : memref<128x64x64x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%x4, %w4 : memref<1x28x28x256xf16>, memref<5x5x256xf16>) outs(%x4 : memref<1x28x28x256xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%x0, %w0 : memref<64x28x28x240xf16>, memref<5x5x240xf16>) outs(%x0 : memref<64x28x28x240xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.row_tile<rows = 8>}
  dwc.depthwise_conv2d ins(%x2, %w2 : memref<32x56x56x96xbf16>, memref<5x5x96xbf16>) outs(%x2 : memref<32x56x56x96xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.row_tile<prefetch_rows = 2, min_blocks_per_sm = 2>}
  return
}

// -----

// f32 filters of at most 9 taps on grids of 1-4 waves (64 x 14 x 14 x 384,
// 64 x 7 x 7 x 960): the default 4 x 8 x 64-bit row tile (the GEMV kernel
// before); under one wave (8 x 7 x 7 x 128) still the GEMV kernel.
// CHECK-LABEL: func @f32_short_mid_grid
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 4, columns = 8, filter = "registers">
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 4, columns = 8, filter = "registers">
// CHECK: dwc.kernel = #dwc.gemv<
// WHY: remark: dwc.kernel = #dwc.row_tile<channels = 2, rows = 4, columns = 8, filter = "registers">: chosen
// WHY: remark: dwc.kernel = #dwc.row_tile<channels = 2, rows = 4, columns = 8, filter = "registers">: chosen
// WHY: remark: dwc.kernel = #dwc.gemv<{{.*}}>: chosen; refused: {{.*}}row_tile (f32 on a small grid (the GEMV kernel is faster))
func.func @f32_short_mid_grid(%x0: memref<64x14x14x384xf32>, %w0: memref<3x3x384xf32>, %x1: memref<64x7x7x960xf32>, %w1: memref<3x3x960xf32>, %x2: memref<8x7x7x128xf32>, %w2: memref<3x3x128xf32>) {
  dwc.depthwise_conv2d ins(%x0, %w0 : memref<64x14x14x384xf32>, memref<3x3x384xf32>) outs(%x0 : memref<64x14x14x384xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d ins(%x1, %w1 : memref<64x7x7x960xf32>, memref<3x3x960xf32>) outs(%x1 : memref<64x7x7x960xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d ins(%x2, %w2 : memref<8x7x7x128xf32>, memref<3x3x128xf32>) outs(%x2 : memref<8x7x7x128xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// loads_first on tiny grids only where the tile's inputs, filter and
// accumulators fit 128 f32 registers: a 16-bit 7x5 filter's 2 x 2 tile of
// 2 channels (8 x 6 x 2 inputs + 70 filter values + 8 accumulators) loads
// row by row; a requested tile keeps what it says (here: nothing, 0).
// CHECK-LABEL: func @loads_first_refused
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 2, columns = 2, filter = "registers">}
// CHECK: dwc.kernel = #dwc.row_tile<channels = 1, rows = 4, columns = 4, filter = "registers">}
func.func @loads_first_refused(%x0: memref<1x28x28x64xf16>, %w0: memref<7x5x64xf16>, %y0: memref<1x28x28x64xf16>, %x1: memref<1x28x28x64xf32>, %w1: memref<5x5x64xf32>, %y1: memref<1x28x28x64xf32>) {
  dwc.depthwise_conv2d ins(%x0, %w0 : memref<1x28x28x64xf16>, memref<7x5x64xf16>) outs(%y0 : memref<1x28x28x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 2, 2]
  dwc.depthwise_conv2d ins(%x1, %w1 : memref<1x28x28x64xf32>, memref<5x5x64xf32>) outs(%y1 : memref<1x28x28x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.row_tile<rows = 4, columns = 4>}
  return
}

// -----

// Batch-1 16-bit filters of at most 25 taps: 2 x 1 outputs on maps of 14+
// rows (5x5 and 3x3), one output on smaller maps (7 x 7 x 768).
// CHECK-LABEL: func @f16_tiny_rows
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 2, columns = 1, filter = "registers", loads_first = 1>
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 1, columns = 1, filter = "registers", loads_first = 1>
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 2, columns = 1, filter = "registers", loads_first = 1>
func.func @f16_tiny_rows(%x0: memref<1x14x14x384xf16>, %w0: memref<5x5x384xf16>, %x1: memref<1x7x7x768xf16>, %w1: memref<5x5x768xf16>, %w2: memref<3x3x384xf16>) {
  dwc.depthwise_conv2d ins(%x0, %w0 : memref<1x14x14x384xf16>, memref<5x5x384xf16>) outs(%x0 : memref<1x14x14x384xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%x1, %w1 : memref<1x7x7x768xf16>, memref<5x5x768xf16>) outs(%x1 : memref<1x7x7x768xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%x0, %w2 : memref<1x14x14x384xf16>, memref<3x3x384xf16>) outs(%x0 : memref<1x14x14x384xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}
