// RUN: dwc-opt %s --split-input-file --dwc-select-kernels | FileCheck %s
// RUN: dwc-opt %s --split-input-file --dwc-select-kernels=diagnose 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY

// #dwc.plane (docs/KernelSelection.md, "plane"): chosen on request only
// (not yet timed on the GPU), a partial configuration completed from the
// shape and #dwc.target's SM count.

// Not requested: the small maps keep the row tiles, the plane refusal is
// reported.
// CHECK-LABEL: func @default_row_tile
// CHECK: dwc.kernel = #dwc.row_tile<
// WHY: remark: dwc.kernel = #dwc.row_tile<{{.*}}>: chosen; refused: {{.*}}plane (not requested (no GPU measurement yet))
func.func @default_row_tile(%x: memref<64x14x14x384xf16>, %w: memref<7x7x384xf16>, %y: memref<64x14x14x384xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<64x14x14x384xf16>, memref<7x7x384xf16>) outs(%y : memref<64x14x14x384xf16>)
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
