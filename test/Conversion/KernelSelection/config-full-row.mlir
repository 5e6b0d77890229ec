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
// 336 blocks of 256; backward data of a 5 x 13 filter on 7 x 7 (f32).
// CHECK-LABEL: func @larger_than_map
// CHECK: dwc.kernel = #dwc.full_row<channels = 2, threads = 64, unroll = 2>
// CHECK: dwc.kernel = #dwc.full_row<channels = 2, threads = 256, unroll = 2>
// CHECK: dwc.kernel = #dwc.full_row<channels = 1, threads = 64, unroll = 2>
// CHECK: dwc.kernel = #dwc.full_row<channels = 2, threads = 256, unroll = 2>
// CHECK: dwc.kernel = #dwc.full_row<channels = 1, threads = 64, unroll = 2>
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
// WHY: remark: dwc.kernel = {{.*}}: chosen; refused: {{.*}}full_row (by default only filters larger than the map (16-bit: on maps of at most 14 columns, or covering the map on a small grid))
func.func @within_map(%x: memref<1x14x14x384xf32>, %w: memref<3x3x384xf32>, %y: memref<1x14x14x384xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x14x14x384xf32>, memref<3x3x384xf32>) outs(%y : memref<1x14x14x384xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// Refusals of a filter larger than the map: a 16-bit C that 2 does not
// divide (no kernel but the direct one takes it), a row of more than 128
// f32 registers (the GEMV kernel takes it), a strided op.
// CHECK-LABEL: func @refused
// CHECK: dwc.kernel = #dwc.direct
// CHECK: dwc.kernel = #dwc.gemv<
// CHECK-NOT: full_row
// WHY: remark: dwc.kernel = #dwc.direct: chosen; refused: {{.*}}full_row (channels = 2 does not divide C = 7)
// WHY: remark: dwc.kernel = #dwc.gemv<{{.*}}>: chosen; refused: {{.*}}full_row (a row part of 100 outputs and 100 inputs x 1 channels (more than 128 f32 registers))
// WHY: remark: dwc.kernel = {{.*}}: chosen; refused: {{.*}}full_row (stride is not 1)
func.func @refused(%x0: memref<1x7x7x7xf16>, %w0: memref<13x13x7xf16>, %y0: memref<1x7x7x7xf16>,
    %x1: memref<1x100x100x8xf32>, %w1: memref<101x3x8xf32>, %y1: memref<1x100x100x8xf32>,
    %x2: memref<1x7x7x16xf32>, %w2: memref<9x9x16xf32>, %y2: memref<1x2x2x16xf32>) {
  dwc.depthwise_conv2d ins(%x0, %w0 : memref<1x7x7x7xf16>, memref<13x13x7xf16>) outs(%y0 : memref<1x7x7x7xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6]
  dwc.depthwise_conv2d ins(%x1, %w1 : memref<1x100x100x8xf32>, memref<101x3x8xf32>) outs(%y1 : memref<1x100x100x8xf32>)
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
