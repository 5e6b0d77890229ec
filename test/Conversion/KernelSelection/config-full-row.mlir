// RUN: dwc-opt %s --split-input-file --dwc-select-kernels | FileCheck %s
// RUN: dwc-opt %s --split-input-file --dwc-select-kernels=diagnose 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY

// #dwc.full_row (docs/KernelSelection.md, "full row"): chosen without a
// request for filters larger than the map (ahead of the tensor-core
// kernels), else on request; a partial configuration completed from the
// shape and #dwc.target's SM count (132 on sm_90).

// Filters larger than the map: the narrowest channel vector (f32 1, 16-bit
// 2), blocks of 256 threads halved down to 64 while the grid has fewer than
// 2 x 132 blocks, 2 rows per step. 7 x 7 x 1024 f16 13 x 13 at batch 1:
// 3584 rows -> 56 blocks of 64; at batch 32: 448 blocks of 256; 14 x 14 x
// 512 f32 27 x 27: 7168 rows, 64 threads; 47 x 5 on 14 x 14 bf16 batch 32:
// 336 blocks of 256; backward data of a 5 x 13 filter on 7 x 7 (f32). The
// batch-1 grids are split into column parts (small_grid_parts below):
// 13 x 13 f16 in 2, 27 x 27 f32 in 8 (57344 row parts, 128 threads), 5 x 13
// f32 in 4.
// CHECK-LABEL: func @larger_than_map
// CHECK: dwc.kernel = #dwc.full_row<channels = 2, threads = 64, unroll = 2, columns = 2, max_registers = 255>
// CHECK: dwc.kernel = #dwc.full_row<channels = 2, threads = 256, unroll = 2>
// CHECK: dwc.kernel = #dwc.full_row<channels = 1, threads = 128, unroll = 2, columns = 8, max_registers = 255>
// CHECK: dwc.kernel = #dwc.full_row<channels = 2, threads = 256, unroll = 2>
// CHECK: dwc.kernel = #dwc.full_row<channels = 1, threads = 64, unroll = 2, columns = 4, max_registers = 255>
// WHY-COUNT-5: remark: dwc.kernel = #dwc.full_row<{{.*}}>: chosen{{$}}
func.func @larger_than_map(%x0: memref<1x7x7x1024xf16>, %w0: memref<13x13x1024xf16>, %y0: memref<1x7x7x1024xf16>,
    %x1: memref<32x7x7x1024xf16>, %y1: memref<32x7x7x1024xf16>,
    %x2: memref<1x14x14x512xf32>, %w2: memref<27x27x512xf32>, %y2: memref<1x14x14x512xf32>,
    %x3: memref<32x14x14x384xbf16>, %w3: memref<47x5x384xbf16>, %y3: memref<32x14x14x384xbf16>,
    %x4: memref<1x7x7x768xf32>, %w4: memref<5x13x768xf32>, %y4: memref<1x7x7x768xf32>) {
  dwc.depthwise_conv2d ins(%x0, %w0 : memref<1x7x7x1024xf16>, memref<13x13x1024xf16>) outs(%y0 : memref<1x7x7x1024xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6]
  dwc.depthwise_conv2d ins(%x1, %w0 : memref<32x7x7x1024xf16>, memref<13x13x1024xf16>) outs(%y1 : memref<32x7x7x1024xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6]
  dwc.depthwise_conv2d ins(%x2, %w2 : memref<1x14x14x512xf32>, memref<27x27x512xf32>) outs(%y2 : memref<1x14x14x512xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [13, 13, 13, 13]
  dwc.depthwise_conv2d ins(%x3, %w3 : memref<32x14x14x384xbf16>, memref<47x5x384xbf16>) outs(%y3 : memref<32x14x14x384xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [23, 23, 2, 2]
  dwc.depthwise_conv2d_backward_data ins(%x4, %w4 : memref<1x7x7x768xf32>, memref<5x13x768xf32>) outs(%y4 : memref<1x7x7x768xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 6, 6]
  return
}

// -----

// A filter within the map: refused by default (the row tiles / GEMV take it).
// CHECK-LABEL: func @within_map
// CHECK-NOT: full_row
// WHY: remark: dwc.kernel = {{.*}}: chosen; refused: {{.*}}full_row (by default only filters larger than the map (16-bit: on maps of at most 14 columns, or covering the map on a small grid) and, on small grids, f32 7x7 and 16-bit tall filters on up to 28 columns)
func.func @within_map(%x: memref<1x14x14x384xf32>, %w: memref<3x3x384xf32>, %y: memref<1x14x14x384xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x14x14x384xf32>, memref<3x3x384xf32>) outs(%y : memref<1x14x14x384xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// Refusals of a filter larger than the map: a 16-bit C that 2 does not
// divide (no kernel but the direct one takes it), a row of more than 128
// f32 registers on a grid too big for column parts (the GEMV kernel takes
// it), a strided op.
// CHECK-LABEL: func @refused
// CHECK: dwc.kernel = #dwc.direct
// CHECK: dwc.kernel = #dwc.gemv<
// CHECK-NOT: full_row
// WHY: remark: dwc.kernel = #dwc.direct: chosen; refused: {{.*}}full_row (channels = 2 does not divide C = 7)
// WHY: remark: dwc.kernel = #dwc.gemv<{{.*}}>: chosen; refused: {{.*}}full_row (a row part of 100 outputs and 100 inputs x 1 channels (more than 128 f32 registers))
// WHY: remark: dwc.kernel = {{.*}}: chosen; refused: {{.*}}full_row (stride is not 1)
func.func @refused(%x0: memref<1x7x7x7xf16>, %w0: memref<13x13x7xf16>, %y0: memref<1x7x7x7xf16>,
    %x1: memref<4x100x100x64xf32>, %w1: memref<101x3x64xf32>, %y1: memref<4x100x100x64xf32>,
    %x2: memref<1x7x7x16xf32>, %w2: memref<9x9x16xf32>, %y2: memref<1x2x2x16xf32>) {
  dwc.depthwise_conv2d ins(%x0, %w0 : memref<1x7x7x7xf16>, memref<13x13x7xf16>) outs(%y0 : memref<1x7x7x7xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6]
  dwc.depthwise_conv2d ins(%x1, %w1 : memref<4x100x100x64xf32>, memref<101x3x64xf32>) outs(%y1 : memref<4x100x100x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [50, 50, 1, 1]
  dwc.depthwise_conv2d ins(%x2, %w2 : memref<1x7x7x16xf32>, memref<9x9x16xf32>) outs(%y2 : memref<1x2x2x16xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2]
  return
}

// -----

// A partial configuration is completed (the given fields kept), also for a
// filter within the map; a complete one is kept.
// CHECK-LABEL: func @partial
// CHECK: dwc.kernel = #dwc.full_row<channels = 1, threads = 64, unroll = 4>
// CHECK: dwc.kernel = #dwc.full_row<channels = 4, threads = 64, unroll = 2>
// CHECK: dwc.kernel = #dwc.full_row<channels = 2, threads = 96, unroll = 1>
// WHY: remark: dwc.kernel = #dwc.full_row<channels = 1, threads = 64, unroll = 4>: chosen{{$}}
// WHY: remark: dwc.kernel = #dwc.full_row<channels = 4, threads = 64, unroll = 2>: chosen{{$}}
// WHY: remark: dwc.kernel = #dwc.full_row<channels = 2, threads = 96, unroll = 1>: given
func.func @partial(%x: memref<1x14x14x384xf32>, %w: memref<3x3x384xf32>, %y: memref<1x14x14x384xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x14x14x384xf32>, memref<3x3x384xf32>) outs(%y : memref<1x14x14x384xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.full_row<unroll = 4>}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x14x14x384xf32>, memref<3x3x384xf32>) outs(%y : memref<1x14x14x384xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.full_row<channels = 4>}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x14x14x384xf32>, memref<3x3x384xf32>) outs(%y : memref<1x14x14x384xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.full_row<channels = 2, threads = 96, unroll = 1>}
  return
}

// -----

// Column parts on request (`columns`): kept, and counted in the grid the
// block size is chosen from. 4 x 14 x 14 x 768 f32, 27 x 27: 43008 rows
// -> 168 blocks of 256 (< 2 x 132), so 128 threads; in 2 parts 86016 row
// parts -> 336 blocks of 256.
// CHECK-LABEL: func @column_parts
// CHECK: dwc.kernel = #dwc.full_row<channels = 1, threads = 128, unroll = 2>
// CHECK: dwc.kernel = #dwc.full_row<channels = 1, threads = 256, unroll = 2, columns = 2>
func.func @column_parts(%x: memref<4x14x14x768xf32>, %w: memref<27x27x768xf32>, %y: memref<4x14x14x768xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<4x14x14x768xf32>, memref<27x27x768xf32>) outs(%y : memref<4x14x14x768xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [13, 13, 13, 13]
  dwc.depthwise_conv2d ins(%x, %w : memref<4x14x14x768xf32>, memref<27x27x768xf32>) outs(%y : memref<4x14x14x768xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [13, 13, 13, 13] {dwc.kernel = #dwc.full_row<columns = 2>}
  return
}

// -----

// Column parts by default on small grids (fewer rows than 2 x 132 x 64 of
// the narrowest vector; docs/KernelSelection.md, "full row"): f32 about two
// output columns per part, a power of two up to 8 (49 x 5 on 28 x 28: 8;
// 13 x 13 on 7 x 7: 4), and now also f32 7 x 7 (56 x 56 x 96: 8 parts,
// 5376 x 8 rows -> 128-thread blocks); 16-bit: 8 parts of a filter taller
// than the map on 14+ columns (49 x 5 on 28 x 28, which the full row now
// takes; 2688 x 8 rows -> 64-thread blocks), 2 of one taller on fewer (13 x 13 on 7 x 7) or wider on 14+
// (5 x 47 on 14 x 14); a 16-bit filter covering the map exactly stays whole.
// CHECK-LABEL: func @small_grid_parts
// CHECK: dwc.kernel = #dwc.full_row<channels = 1, threads = 128, unroll = 2, columns = 8, max_registers = 255>
// CHECK: dwc.kernel = #dwc.full_row<channels = 1, threads = 64, unroll = 2, columns = 4, max_registers = 255>
// CHECK: dwc.kernel = #dwc.full_row<channels = 1, threads = 128, unroll = 2, columns = 8, max_registers = 255>
// CHECK: dwc.kernel = #dwc.full_row<channels = 2, threads = 64, unroll = 2, columns = 8, max_registers = 255>
// CHECK: dwc.kernel = #dwc.full_row<channels = 2, threads = 64, unroll = 2, columns = 2, max_registers = 255>
// CHECK: dwc.kernel = #dwc.full_row<channels = 2, threads = 64, unroll = 2, columns = 2, max_registers = 255>
// CHECK: dwc.kernel = #dwc.full_row<channels = 2, threads = 64, unroll = 2, max_registers = 255>
func.func @small_grid_parts(%x0: memref<1x28x28x192xf32>, %w0: memref<49x5x192xf32>, %y0: memref<1x28x28x192xf32>,
    %x1: memref<1x7x7x1024xf32>, %w1: memref<13x13x1024xf32>, %y1: memref<1x7x7x1024xf32>,
    %x2: memref<1x56x56x96xf32>, %w2: memref<7x7x96xf32>, %y2: memref<1x56x56x96xf32>,
    %x3: memref<1x28x28x192xf16>, %w3: memref<49x5x192xf16>, %y3: memref<1x28x28x192xf16>,
    %x4: memref<1x7x7x1024xbf16>, %w4: memref<13x13x1024xbf16>, %y4: memref<1x7x7x1024xbf16>,
    %x5: memref<1x14x14x384xf16>, %w5: memref<5x47x384xf16>, %y5: memref<1x14x14x384xf16>,
    %x6: memref<1x7x7x768xf16>, %w6: memref<7x7x768xf16>, %y6: memref<1x7x7x768xf16>) {
  dwc.depthwise_conv2d ins(%x0, %w0 : memref<1x28x28x192xf32>, memref<49x5x192xf32>) outs(%y0 : memref<1x28x28x192xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [24, 24, 2, 2]
  dwc.depthwise_conv2d ins(%x1, %w1 : memref<1x7x7x1024xf32>, memref<13x13x1024xf32>) outs(%y1 : memref<1x7x7x1024xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6]
  dwc.depthwise_conv2d ins(%x2, %w2 : memref<1x56x56x96xf32>, memref<7x7x96xf32>) outs(%y2 : memref<1x56x56x96xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
  dwc.depthwise_conv2d ins(%x3, %w3 : memref<1x28x28x192xf16>, memref<49x5x192xf16>) outs(%y3 : memref<1x28x28x192xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [24, 24, 2, 2]
  dwc.depthwise_conv2d ins(%x4, %w4 : memref<1x7x7x1024xbf16>, memref<13x13x1024xbf16>) outs(%y4 : memref<1x7x7x1024xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6]
  dwc.depthwise_conv2d ins(%x5, %w5 : memref<1x14x14x384xf16>, memref<5x47x384xf16>) outs(%y5 : memref<1x14x14x384xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 23, 23]
  dwc.depthwise_conv2d ins(%x6, %w6 : memref<1x7x7x768xf16>, memref<7x7x768xf16>) outs(%y6 : memref<1x7x7x768xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
  return
}

// -----

// Not on big grids or outside the measured classes: 47 x 5 on 14 x 14 bf16
// at batch 32 (one part), f32 7 x 7 at batch 64 (the row tiles), 16-bit 49 x
// 5 wider than 28 columns and 16-bit 29 x 29 on 28 x 28 (tensor cores /
// GEMV).
// CHECK-LABEL: func @no_parts
// CHECK: dwc.kernel = #dwc.full_row<channels = 2, threads = 256, unroll = 2>
// CHECK-NOT: full_row
func.func @no_parts(%x0: memref<32x14x14x384xbf16>, %w0: memref<47x5x384xbf16>, %y0: memref<32x14x14x384xbf16>,
    %x1: memref<64x56x56x96xf32>, %w1: memref<7x7x96xf32>, %y1: memref<64x56x56x96xf32>,
    %x2: memref<1x56x56x96xf16>, %w2: memref<51x5x96xf16>, %y2: memref<1x56x56x96xf16>,
    %x3: memref<1x28x28x256xf16>, %w3: memref<29x29x256xf16>, %y3: memref<1x28x28x256xf16>) {
  dwc.depthwise_conv2d ins(%x0, %w0 : memref<32x14x14x384xbf16>, memref<47x5x384xbf16>) outs(%y0 : memref<32x14x14x384xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [23, 23, 2, 2]
  dwc.depthwise_conv2d ins(%x1, %w1 : memref<64x56x56x96xf32>, memref<7x7x96xf32>) outs(%y1 : memref<64x56x56x96xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
  dwc.depthwise_conv2d ins(%x2, %w2 : memref<1x56x56x96xf16>, memref<51x5x96xf16>) outs(%y2 : memref<1x56x56x96xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [25, 25, 2, 2]
  dwc.depthwise_conv2d ins(%x3, %w3 : memref<1x28x28x256xf16>, memref<29x29x256xf16>) outs(%y3 : memref<1x28x28x256xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [14, 14, 14, 14]
  return
}

// -----

// f32 filters wider than the map stay whole on rows of more than 14 outputs
// (also taller than the map: 29 x 29 on 28 x 28) or 7 (wider only: 5 x 47
// on 14 x 14): every part would load the whole input row (measured 1.8x /
// 1.2x slower in 8 parts).
// CHECK-LABEL: func @wide_f32_whole
// CHECK: dwc.kernel = #dwc.full_row<channels = 1, threads = 64, unroll = 2, max_registers = 255>
// CHECK: dwc.kernel = #dwc.full_row<channels = 1, threads = 64, unroll = 2, max_registers = 255>
func.func @wide_f32_whole(%x0: memref<1x28x28x256xf32>, %w0: memref<29x29x256xf32>, %y0: memref<1x28x28x256xf32>,
    %x1: memref<1x14x14x384xf32>, %w1: memref<5x47x384xf32>, %y1: memref<1x14x14x384xf32>) {
  dwc.depthwise_conv2d ins(%x0, %w0 : memref<1x28x28x256xf32>, memref<29x29x256xf32>) outs(%y0 : memref<1x28x28x256xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [14, 14, 14, 14]
  dwc.depthwise_conv2d ins(%x1, %w1 : memref<1x14x14x384xf32>, memref<5x47x384xf32>) outs(%y1 : memref<1x14x14x384xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 23, 23]
  return
}
