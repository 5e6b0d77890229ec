// RUN: dwc-opt %s --split-input-file --dwc-select-kernels | FileCheck %s
// RUN: dwc-opt %s --split-input-file --dwc-select-kernels=diagnose 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY

// The #dwc.mma_stream configurations dwc-select-kernels attaches to the
// wide-filter f16/bf16 convolutions (docs/KernelSelection.md, "streaming
// tensor-core kernel") and the ops it leaves to the other families.

// Widths: FW = 13 (input B, 2 slices: filter rows outer, 8 rows, compact
// workspace, 2 blocks per SM; FH x 2 x 4 = 104 filter registers > 68: the
// filter from shared memory), FW = 21 bf16 with a bias (input B would take
// 3 slices: input A, input rows outer, prefetch 4, FH = 3: the filter in
// registers), FW = 31 (input B, 3 slices: 16 rows, whole padded rows, no
// occupancy hint), backward data (FW = 11, input B).
// CHECK-LABEL: func @widths
// CHECK: dwc.kernel = #dwc.mma_stream<input_operand = b, loop_order = filter_rows, rows = 8, prefetch = 2, compact_workspace = true, filter_in_registers = false, row_blocks_per_chunk = 1, min_blocks_per_sm = 2>
// CHECK: dwc.kernel = #dwc.mma_stream<input_operand = a, loop_order = input_rows, rows = 8, prefetch = 4, compact_workspace = true, filter_in_registers = true, row_blocks_per_chunk = 1, min_blocks_per_sm = 0>
// CHECK: dwc.kernel = #dwc.mma_stream<input_operand = b, loop_order = filter_rows, rows = 16, prefetch = 2, compact_workspace = false, filter_in_registers = false, row_blocks_per_chunk = 1, min_blocks_per_sm = 0>
// CHECK: dwc.depthwise_conv2d_backward_data {{.*}} {dwc.kernel = #dwc.mma_stream<input_operand = b, loop_order = filter_rows, rows = 8, prefetch = 2, compact_workspace = true, filter_in_registers = false, row_blocks_per_chunk = 1, min_blocks_per_sm = 2>}
// WHY: remark: dwc.kernel = #dwc.mma_stream<input_operand = b, loop_order = filter_rows, rows = 8, prefetch = 2, compact_workspace = true, filter_in_registers = false, row_blocks_per_chunk = 1, min_blocks_per_sm = 2>: chosen
func.func @widths(%x13: memref<1x6x128x16xf16>, %w13: memref<13x13x16xf16>, %y13: memref<1x6x128x16xf16>,
                  %x21: memref<2x5x40x8xbf16>, %w21: memref<3x21x8xbf16>, %b21: memref<8xbf16>, %y21: memref<2x5x40x8xbf16>,
                  %x31: memref<1x4x40x8xf16>, %w31: memref<31x31x8xf16>, %y31: memref<1x4x40x8xf16>,
                  %dy: memref<2x12x12x8xf16>, %w11: memref<11x11x8xf16>, %dx: memref<2x12x12x8xf16>) {
  dwc.depthwise_conv2d ins(%x13, %w13 : memref<1x6x128x16xf16>, memref<13x13x16xf16>) outs(%y13 : memref<1x6x128x16xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6]
  dwc.depthwise_conv2d ins(%x21, %w21 : memref<2x5x40x8xbf16>, memref<3x21x8xbf16>) bias(%b21 : memref<8xbf16>) outs(%y21 : memref<2x5x40x8xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 10, 10]
  dwc.depthwise_conv2d ins(%x31, %w31 : memref<1x4x40x8xf16>, memref<31x31x8xf16>) outs(%y31 : memref<1x4x40x8xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [15, 15, 15, 15]
  dwc.depthwise_conv2d_backward_data ins(%dy, %w11 : memref<2x12x12x8xf16>, memref<11x11x8xf16>) outs(%dx : memref<2x12x12x8xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [5, 5, 5, 5]
  return
}

// -----

// Grid split: 1 x 56 x 56 x 64, FW = 13 has 8 channel blocks of 7 row
// blocks, far below 4 blocks per SM: one row block per block; at batch 32
// x 256 channels, FW = 17, 16 image sets of 2 x 32 channel blocks give
// block); with a one-SM target the batch-1 op is not split either.
// CHECK-LABEL: func @split
// CHECK: row_blocks_per_chunk = 1, min_blocks_per_sm = 2>
// CHECK: dwc.kernel = #dwc.mma_stream<input_operand = b, loop_order = filter_rows, rows = 8, prefetch = 2, compact_workspace = true, filter_in_registers = false, row_blocks_per_chunk = 4, min_blocks_per_sm = 2>
func.func @split(%x: memref<1x56x56x64xf16>, %w: memref<13x13x64xf16>, %y: memref<1x56x56x64xf16>,
                 %xb: memref<32x64x64x256xf16>, %wb: memref<17x17x256xf16>, %yb: memref<32x64x64x256xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x56x56x64xf16>, memref<13x13x64xf16>) outs(%y : memref<1x56x56x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6]
  dwc.depthwise_conv2d ins(%xb, %wb : memref<32x64x64x256xf16>, memref<17x17x256xf16>) outs(%yb : memref<32x64x64x256xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [8, 8, 8, 8]
  return
}

// -----

// Refused (no configuration; the band/ring kernels choose): FW = 9 (the
// band kernel is faster), FW = 65, f32, stride 2, C % 8 != 0, FW = 60 whose
// band and stage exceed 227 KB.
// CHECK-LABEL: func @refused
// CHECK-NOT: dwc.kernel = #dwc.mma_stream
// WHY: remark: dwc.kernel = #dwc.{{.*}}: chosen; refused: {{.*}}mma_stream (filter narrower than 10 (the band kernel is faster))
// WHY: remark: dwc.kernel = #dwc.{{.*}}: chosen; refused: {{.*}}mma_stream (filter wider than 64)
// WHY: remark: dwc.kernel = #dwc.{{.*}}: chosen; refused: {{.*}}mma_stream (element type is not f16 or bf16)
// WHY: remark: dwc.kernel = #dwc.{{.*}}: chosen; refused: {{.*}}mma_stream (stride is not 1)
// WHY: remark: dwc.kernel = #dwc.{{.*}}: chosen; refused: {{.*}}mma_stream (channel count is not a multiple of 8)
// WHY: remark: dwc.kernel = #dwc.{{.*}}: chosen; refused: {{.*}}mma_stream (filter band and output stage exceed the target's 227 KB of shared memory)
func.func @refused(%x9: memref<1x8x32x64xf16>, %w9: memref<9x9x64xf16>, %y9: memref<1x8x32x64xf16>,
                   %x65: memref<1x70x70x8xf16>, %w65: memref<65x65x8xf16>, %y65: memref<1x6x6x8xf16>,
                   %xf: memref<1x16x32x64xf32>, %wf: memref<13x13x64xf32>, %yf: memref<1x16x32x64xf32>,
                   %xs: memref<1x16x32x64xf16>, %ws: memref<13x13x64xf16>, %ys: memref<1x8x16x64xf16>,
                   %xc: memref<1x8x32x12xf16>, %wc: memref<13x13x12xf16>, %yc: memref<1x8x32x12xf16>,
                   %x60: memref<1x60x60x8xf16>, %w60: memref<60x60x8xf16>, %y60: memref<1x1x1x8xf16>) {
  dwc.depthwise_conv2d ins(%x9, %w9 : memref<1x8x32x64xf16>, memref<9x9x64xf16>) outs(%y9 : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4]
  dwc.depthwise_conv2d ins(%x65, %w65 : memref<1x70x70x8xf16>, memref<65x65x8xf16>) outs(%y65 : memref<1x6x6x8xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0]
  dwc.depthwise_conv2d ins(%xf, %wf : memref<1x16x32x64xf32>, memref<13x13x64xf32>) outs(%yf : memref<1x16x32x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6]
  dwc.depthwise_conv2d ins(%xs, %ws : memref<1x16x32x64xf16>, memref<13x13x64xf16>) outs(%ys : memref<1x8x16x64xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [6, 6, 6, 6]
  dwc.depthwise_conv2d ins(%xc, %wc : memref<1x8x32x12xf16>, memref<13x13x12xf16>) outs(%yc : memref<1x8x32x12xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6]
  dwc.depthwise_conv2d ins(%x60, %w60 : memref<1x60x60x8xf16>, memref<60x60x8xf16>) outs(%y60 : memref<1x1x1x8xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0]
  return
}

// -----

// Filters taller than wide stream along the columns where the given
// configuration asks (stream_columns = true; not chosen by default until
// measured on a GPU): SLaK's 51 x 5 on 32 x 56 x 56 x 96 left to the other
// families by default; asked, it gets the fields of the 5 x 51 it turns into
// (input A, input rows outer, 3 row blocks a block); backward data of 49 x 5
// bf16 on 28 x 28 x 192; a partial configuration with rows; a given
// stream_columns = false is kept (the 5-wide rows).
// CHECK-LABEL: func @columns
// CHECK-NOT: dwc.kernel = #dwc.mma_stream
// CHECK: dwc.depthwise_conv2d ins
// CHECK: dwc.kernel = #dwc.mma_stream<input_operand = a, loop_order = input_rows, rows = 8, prefetch = 4, compact_workspace = false, filter_in_registers = true, row_blocks_per_chunk = 3, min_blocks_per_sm = 0, stream_columns = true>
// CHECK: dwc.depthwise_conv2d_backward_data {{.*}} {dwc.kernel = #dwc.mma_stream<input_operand = a, loop_order = input_rows, rows = 8, prefetch = 4, compact_workspace = false, filter_in_registers = true, row_blocks_per_chunk = 2, min_blocks_per_sm = 0, stream_columns = true>}
// CHECK: dwc.kernel = #dwc.mma_stream<input_operand = a, loop_order = input_rows, rows = 4, {{.*}}, stream_columns = true>
// CHECK: dwc.kernel = #dwc.mma_stream<input_operand = a, loop_order = input_rows, rows = 8, prefetch = 4, compact_workspace = true, filter_in_registers = false, row_blocks_per_chunk = 3, min_blocks_per_sm = 0, stream_columns = false>
// WHY: remark: dwc.kernel = #dwc.{{.*}}: chosen; refused: {{.*}}mma_stream (filter narrower than 10 (the band kernel is faster))
// WHY: remark: dwc.kernel = #dwc.mma_stream<{{.*}}stream_columns = true>: chosen
func.func @columns(%x: memref<32x56x56x96xf16>, %w: memref<51x5x96xf16>, %y: memref<32x56x56x96xf16>,
                   %dy: memref<32x28x28x192xbf16>, %w49: memref<49x5x192xbf16>, %dx: memref<32x28x28x192xbf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<32x56x56x96xf16>, memref<51x5x96xf16>) outs(%y : memref<32x56x56x96xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [25, 25, 2, 2]
  dwc.depthwise_conv2d ins(%x, %w : memref<32x56x56x96xf16>, memref<51x5x96xf16>) outs(%y : memref<32x56x56x96xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [25, 25, 2, 2] {dwc.kernel = #dwc.mma_stream<stream_columns = true>}
  dwc.depthwise_conv2d_backward_data ins(%dy, %w49 : memref<32x28x28x192xbf16>, memref<49x5x192xbf16>) outs(%dx : memref<32x28x28x192xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [24, 24, 2, 2] {dwc.kernel = #dwc.mma_stream<stream_columns = true>}
  dwc.depthwise_conv2d ins(%x, %w : memref<32x56x56x96xf16>, memref<51x5x96xf16>) outs(%y : memref<32x56x56x96xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [25, 25, 2, 2] {dwc.kernel = #dwc.mma_stream<rows = 4, stream_columns = true>}
  dwc.depthwise_conv2d ins(%x, %w : memref<32x56x56x96xf16>, memref<51x5x96xf16>) outs(%y : memref<32x56x56x96xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [25, 25, 2, 2] {dwc.kernel = #dwc.mma_stream<stream_columns = false>}
  return
}

// -----

// Given: a complete configuration is kept; a partial one is completed from
// the fields given (input A: input rows outer, prefetch 4; nhwc_input: the
// filter-row order), also outside 10 <= FW <= 64 (FW = 9); another family's
// configuration is kept.
// CHECK-LABEL: func @given
// CHECK: dwc.kernel = #dwc.mma_stream<input_operand = b, loop_order = input_rows, rows = 3, prefetch = 0, compact_workspace = false, filter_in_registers = true, row_blocks_per_chunk = 2, min_blocks_per_sm = 1>
// CHECK: dwc.kernel = #dwc.mma_stream<input_operand = a, loop_order = input_rows, rows = 8, prefetch = 4, compact_workspace = true, filter_in_registers = true, row_blocks_per_chunk = 1, min_blocks_per_sm = 0>
// CHECK: dwc.kernel = #dwc.mma_stream<input_operand = a, loop_order = filter_rows, rows = 8, prefetch = 2, compact_workspace = true, filter_in_registers = true, row_blocks_per_chunk = 1, min_blocks_per_sm = 0, nhwc_input = true>
// CHECK: dwc.kernel = #dwc.mma_stream<input_operand = a, loop_order = input_rows, rows = 4, prefetch = 4, compact_workspace = true, filter_in_registers = true, row_blocks_per_chunk = 1, min_blocks_per_sm = 0>
// CHECK: dwc.kernel = #dwc.direct
// WHY: remark: dwc.kernel = #dwc.mma_stream<input_operand = b, loop_order = input_rows, {{.*}}>: given
// WHY: remark: dwc.kernel = #dwc.mma_stream<input_operand = a, {{.*}}>: chosen
func.func @given(%x: memref<1x6x128x16xf16>, %w: memref<13x13x16xf16>, %y: memref<1x6x128x16xf16>,
                 %x9: memref<1x8x32x64xf16>, %w9: memref<9x9x64xf16>, %y9: memref<1x8x32x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x6x128x16xf16>, memref<13x13x16xf16>) outs(%y : memref<1x6x128x16xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6]
    {dwc.kernel = #dwc.mma_stream<input_operand = b, loop_order = input_rows, rows = 3, prefetch = 0, compact_workspace = false, filter_in_registers = true, row_blocks_per_chunk = 2, min_blocks_per_sm = 1>}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x6x128x16xf16>, memref<13x13x16xf16>) outs(%y : memref<1x6x128x16xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.mma_stream<input_operand = a>}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x6x128x16xf16>, memref<13x13x16xf16>) outs(%y : memref<1x6x128x16xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.mma_stream<input_operand = a, nhwc_input = true>}
  dwc.depthwise_conv2d ins(%x9, %w9 : memref<1x8x32x64xf16>, memref<9x9x64xf16>) outs(%y9 : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] {dwc.kernel = #dwc.mma_stream<rows = 4>}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x6x128x16xf16>, memref<13x13x16xf16>) outs(%y : memref<1x6x128x16xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.direct}
  return
}

// -----

// A target of one SM with 99 KB a block: the batch-1 op is not split (7 row
// blocks a block) and gets no occupancy hint (its 68 KB do not fit twice);
// FW = 31's 186 KB band does not fit.
// CHECK-LABEL: func @small_target
// CHECK: dwc.kernel = #dwc.mma_stream<input_operand = b, loop_order = filter_rows, rows = 8, prefetch = 2, compact_workspace = true, filter_in_registers = false, row_blocks_per_chunk = 7, min_blocks_per_sm = 0>
// CHECK-NOT: dwc.kernel = #dwc.mma_stream
// WHY: remark: dwc.kernel = #dwc.{{.*}}: chosen; refused: {{.*}}mma_stream (filter band and output stage exceed the target's 99 KB of shared memory)
module attributes {dwc.target = #dwc.target<chip = "sm_80", features = "+ptx80", sm_count = 1, shared_memory_per_block = 101376, shared_memory_per_sm = 167936, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @small_target(%x: memref<1x56x56x64xf16>, %w: memref<13x13x64xf16>, %y: memref<1x56x56x64xf16>,
                          %x31: memref<1x4x40x8xf16>, %w31: memref<31x31x8xf16>, %y31: memref<1x4x40x8xf16>) {
    dwc.depthwise_conv2d ins(%x, %w : memref<1x56x56x64xf16>, memref<13x13x64xf16>) outs(%y : memref<1x56x56x64xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6]
    dwc.depthwise_conv2d ins(%x31, %w31 : memref<1x4x40x8xf16>, memref<31x31x8xf16>) outs(%y31 : memref<1x4x40x8xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [15, 15, 15, 15]
    return
  }
}
