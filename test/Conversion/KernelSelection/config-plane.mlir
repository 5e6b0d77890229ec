// RUN: dwc-opt %s --split-input-file --dwc-select-kernels | FileCheck %s
// RUN: dwc-opt %s --split-input-file --dwc-select-kernels=diagnose 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY

// #dwc.plane (docs/KernelSelection.md, "plane"): chosen without a request
// for f32 7x7 filters on maps of at most 14 output rows with at least 2^20
// outputs (where it was timed faster), else on request; a partial
// configuration completed from the shape and #dwc.target's SM count.

// 16-bit small maps keep the (fitted) row tiles, the plane refusal is
// reported; f32 7x7 at 14 x 14, batch 64: the plane; batch 1: the full row
// in column parts (config-full-row.mlir).
// CHECK-LABEL: func @default_row_tile
// CHECK: dwc.kernel = #dwc.row_tile<channels = 2, rows = 7, columns = 7, filter = "registers">
// CHECK: dwc.kernel = #dwc.plane<channels = 1, block_channels = 16, rows = 2, columns = 7, band = 14>
// CHECK: dwc.kernel = #dwc.full_row<
// WHY: remark: dwc.kernel = #dwc.row_tile<{{.*}}>: chosen; refused: {{.*}}plane (by default only f32 7x7 and 10-25-tap filters (f32: C a multiple of 32) on maps of at most 14 rows with 2^20+ outputs, and fused forwards with a transcendental prologue (the row tiles or the GEMV kernel are faster))
// WHY: remark: dwc.kernel = #dwc.plane<{{.*}}>: chosen
// WHY: remark: dwc.kernel = #dwc.full_row<{{.*}}>: chosen
func.func @default_row_tile(%x: memref<64x14x14x384xf16>, %w: memref<7x7x384xf16>, %y: memref<64x14x14x384xf16>,
    %x2: memref<64x14x14x384xf32>, %w2: memref<7x7x384xf32>, %y2: memref<64x14x14x384xf32>,
    %x3: memref<1x14x14x384xf32>, %y3: memref<1x14x14x384xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<64x14x14x384xf16>, memref<7x7x384xf16>) outs(%y : memref<64x14x14x384xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
  dwc.depthwise_conv2d ins(%x2, %w2 : memref<64x14x14x384xf32>, memref<7x7x384xf32>) outs(%y2 : memref<64x14x14x384xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
  dwc.depthwise_conv2d ins(%x3, %w2 : memref<1x14x14x384xf32>, memref<7x7x384xf32>) outs(%y3 : memref<1x14x14x384xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
  return
}

// -----

// 16-bit 14 x 14 at batch 64: 2 channels per thread, 2 x 7 tiles (7 x 2
// strips), 16 channels per block (8 lanes x 14 strips = 112 threads), the
// whole plane per block (1536 blocks); backward data the same.
// CHECK-LABEL: func @f16_14x14
// CHECK: dwc.kernel = #dwc.plane<channels = 2, block_channels = 16, rows = 2, columns = 7, band = 14>
// CHECK: dwc.kernel = #dwc.plane<channels = 2, block_channels = 16, rows = 2, columns = 7, band = 14>
// WHY: remark: dwc.kernel = #dwc.plane<channels = 2, block_channels = 16, rows = 2, columns = 7, band = 14>: chosen
func.func @f16_14x14(%x: memref<64x14x14x384xf16>, %w: memref<7x7x384xf16>, %y: memref<64x14x14x384xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<64x14x14x384xf16>, memref<7x7x384xf16>) outs(%y : memref<64x14x14x384xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.plane<>}
  dwc.depthwise_conv2d_backward_data ins(%x, %w : memref<64x14x14x384xf16>, memref<7x7x384xf16>) outs(%y : memref<64x14x14x384xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.plane<>}
  return
}

// -----

// Batch 1: channel groups narrowed to 2 channels and the plane split in 2
// bands of 7 rows to reach 2 waves of 132 SMs (384 blocks).
// CHECK-LABEL: func @f16_batch1
// CHECK: dwc.kernel = #dwc.plane<channels = 2, block_channels = 2, rows = 2, columns = 7, band = 7>
func.func @f16_batch1(%x: memref<1x14x14x384xf16>, %w: memref<7x7x384xf16>, %y: memref<1x14x14x384xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x14x14x384xf16>, memref<7x7x384xf16>) outs(%y : memref<1x14x14x384xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.plane<>}
  return
}

// -----

// f32: 1 channel per thread; 7 x 7 maps: 64 channels per block (4 x 1
// tiles of 2 x 7), the 13 x 13 x 64 f32 plane (43264 bytes).
// CHECK-LABEL: func @f32_7x7
// CHECK: dwc.kernel = #dwc.plane<channels = 1, block_channels = 64, rows = 2, columns = 7, band = 7>
func.func @f32_7x7(%x: memref<64x7x7x768xf32>, %w: memref<7x7x768xf32>, %y: memref<64x7x7x768xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<64x7x7x768xf32>, memref<7x7x768xf32>) outs(%y : memref<64x7x7x768xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.plane<>}
  return
}

// -----

// Given fields kept (1 channel per thread, bands of 4 rows), the rest
// completed: 32 channels per block (64 would stage 51200 bytes, more than
// 48 KiB). C = 12 at batch 2: the channel groups narrowed to the 2
// channels of one thread and the bands to the tile's 2 rows (84 blocks,
// as many as the shape has).
// CHECK-LABEL: func @partial
// CHECK: dwc.kernel = #dwc.plane<channels = 1, block_channels = 32, rows = 2, columns = 7, band = 4>
// CHECK: dwc.kernel = #dwc.plane<channels = 2, block_channels = 2, rows = 2, columns = 7, band = 2>
func.func @partial(%x: memref<64x14x14x384xf16>, %w: memref<7x7x384xf16>, %y: memref<64x14x14x384xf16>, %x1: memref<2x14x14x12xf16>, %w1: memref<7x7x12xf16>, %y1: memref<2x14x14x12xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<64x14x14x384xf16>, memref<7x7x384xf16>) outs(%y : memref<64x14x14x384xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.plane<channels = 1, band = 4>}
  dwc.depthwise_conv2d ins(%x1, %w1 : memref<2x14x14x12xf16>, memref<7x7x12xf16>) outs(%y1 : memref<2x14x14x12xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.plane<>}
  return
}

// -----

// 16-bit filters of 10-25 taps (5x5) on maps of at most 14 output rows with
// 2^20+ outputs take the plane too (64 x 14 x 14 x 672 f16, 32 x 7 x 7 x 768
// bf16, backward data alike), 4 rows per thread on maps of 8+ rows (14 x
// 14), 2 on 7 x 7; batch 1 (1 x 14 x 14 x 384: 75k outputs) keeps the row
// tile.
// CHECK-LABEL: func @plane_16bit_5x5
// CHECK: dwc.kernel = #dwc.plane<channels = 2, block_channels = 32, rows = 4, columns = 7, band = 14>
// CHECK: dwc.kernel = #dwc.plane<channels = 2, block_channels = 64, rows = 2, columns = 7, band = 7>
// CHECK: dwc.kernel = #dwc.plane<channels = 2, block_channels = 32, rows = 4, columns = 7, band = 14>
// CHECK: dwc.kernel = #dwc.row_tile<
func.func @plane_16bit_5x5(%x0: memref<64x14x14x672xf16>, %w0: memref<5x5x672xf16>, %x1: memref<32x7x7x768xbf16>, %w1: memref<5x5x768xbf16>, %x2: memref<1x14x14x384xf16>, %w2: memref<5x5x384xf16>) {
  dwc.depthwise_conv2d ins(%x0, %w0 : memref<64x14x14x672xf16>, memref<5x5x672xf16>) outs(%x0 : memref<64x14x14x672xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%x1, %w1 : memref<32x7x7x768xbf16>, memref<5x5x768xbf16>) outs(%x1 : memref<32x7x7x768xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d_backward_data ins(%x0, %w0 : memref<64x14x14x672xf16>, memref<5x5x672xf16>) outs(%x0 : memref<64x14x14x672xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%x2, %w2 : memref<1x14x14x384xf16>, memref<5x5x384xf16>) outs(%x2 : memref<1x14x14x384xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  return
}

// -----

// f32 filters of 10-25 taps (5x5) on maps of at most 14 output rows with
// 2^20+ outputs: the plane with 2 channels per thread (64 x 14 x 14 x 480,
// 32 x 7 x 7 x 768, backward data alike; the ConvNeXt f32 7x7 planes keep
// 1 channel); not: batch 1 (1 x 14 x 14 x 480: the tiny-grid row tile),
// the 28 x 28 map (GEMV), C not a multiple of 32 (C = 496: GEMV).
// CHECK-LABEL: func @plane_f32_5x5
// CHECK: dwc.kernel = #dwc.plane<channels = 2, block_channels = 32, rows = 2, columns = 7, band = 14>
// CHECK: dwc.kernel = #dwc.plane<channels = 2, block_channels = 64, rows = 2, columns = 7, band = 7>
// CHECK: dwc.kernel = #dwc.plane<channels = 2, block_channels = 32, rows = 2, columns = 7, band = 14>
// CHECK: dwc.kernel = #dwc.plane<channels = 1, block_channels = 16, rows = 2, columns = 7, band = 14>
// CHECK: dwc.kernel = #dwc.row_tile<channels = 1, rows = 2, columns = 2, filter = "registers", loads_first = 1>
// CHECK: dwc.kernel = #dwc.gemv<
// CHECK: dwc.kernel = #dwc.gemv<
// WHY: remark: dwc.kernel = #dwc.plane<channels = 2, block_channels = 32, rows = 2, columns = 7, band = 14>: chosen
func.func @plane_f32_5x5(%x0: memref<64x14x14x480xf32>, %w0: memref<5x5x480xf32>, %x1: memref<32x7x7x768xf32>, %w1: memref<5x5x768xf32>, %x2: memref<64x14x14x384xf32>, %w2: memref<7x7x384xf32>, %x3: memref<1x14x14x480xf32>, %x4: memref<32x28x28x256xf32>, %w4: memref<5x5x256xf32>, %x5: memref<64x14x14x496xf32>, %w5: memref<5x5x496xf32>) {
  dwc.depthwise_conv2d ins(%x0, %w0 : memref<64x14x14x480xf32>, memref<5x5x480xf32>) outs(%x0 : memref<64x14x14x480xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%x1, %w1 : memref<32x7x7x768xf32>, memref<5x5x768xf32>) outs(%x1 : memref<32x7x7x768xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d_backward_data ins(%x0, %w0 : memref<64x14x14x480xf32>, memref<5x5x480xf32>) outs(%x0 : memref<64x14x14x480xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%x2, %w2 : memref<64x14x14x384xf32>, memref<7x7x384xf32>) outs(%x2 : memref<64x14x14x384xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
  dwc.depthwise_conv2d ins(%x3, %w0 : memref<1x14x14x480xf32>, memref<5x5x480xf32>) outs(%x3 : memref<1x14x14x480xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%x4, %w4 : memref<32x28x28x256xf32>, memref<5x5x256xf32>) outs(%x4 : memref<32x28x28x256xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%x5, %w5 : memref<64x14x14x496xf32>, memref<5x5x496xf32>) outs(%x5 : memref<64x14x14x496xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  return
}

// -----

// Strided forward ops: the plane only on request (the strided forward
// kernel is chosen, the plane's refusal reported); #dwc.plane<> completed
// with channel groups of 64 bytes per position (16-bit: 32 channels, f32:
// 16), bands of fewer rows where the staged windows exceed 48 KiB (56 x 56
// outputs of 2 rows), the whole 7-row plane at 14 x 14.
// CHECK-LABEL: func @strided
// CHECK: dwc.kernel = #dwc.strided_forward<
// CHECK: dwc.kernel = #dwc.plane<channels = 2, block_channels = 32, rows = 2, columns = 7, band = 7>
// CHECK: dwc.kernel = #dwc.plane<channels = 1, block_channels = 16, rows = 2, columns = 7, band = 7>
// CHECK: dwc.kernel = #dwc.plane<channels = 2, block_channels = 16, rows = 2, columns = 8, band = 2>
// WHY: remark: dwc.kernel = #dwc.strided_forward<{{.*}}>: chosen; refused: {{.*}}plane (strided: on request only, or with a transcendental fused prologue (the strided forward kernel is chosen))
func.func @strided(%x: memref<64x14x14x672xf16>, %w: memref<5x5x672xf16>, %y: memref<64x7x7x672xf16>,
    %x2: memref<64x14x14x576xf32>, %w2: memref<3x3x576xf32>, %y2: memref<64x7x7x576xf32>,
    %x3: memref<64x112x112x96xf16>, %w3: memref<3x3x96xf16>, %y3: memref<64x56x56x96xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<64x14x14x672xf16>, memref<5x5x672xf16>) outs(%y : memref<64x7x7x672xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%x, %w : memref<64x14x14x672xf16>, memref<5x5x672xf16>) outs(%y : memref<64x7x7x672xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.plane<>}
  dwc.depthwise_conv2d ins(%x2, %w2 : memref<64x14x14x576xf32>, memref<3x3x576xf32>) outs(%y2 : memref<64x7x7x576xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.plane<>}
  dwc.depthwise_conv2d ins(%x3, %w3 : memref<64x112x112x96xf16>, memref<3x3x96xf16>) outs(%y3 : memref<64x56x56x96xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.plane<>}
  return
}
