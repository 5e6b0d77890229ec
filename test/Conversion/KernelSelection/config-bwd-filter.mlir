// RUN: dwc-opt %s --split-input-file --dwc-select-kernels | FileCheck %s
// RUN: dwc-opt %s --split-input-file --dwc-select-kernels=diagnose 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY

// The backward-filter family's configurations (#dwc.bwd_filter_stream, then
// #dwc.bwd_filter_split_z; docs/KernelSelection.md, "backward filter") on
// the default target (132 SMs, 2048 threads and 64 Ki registers per SM),
// partial configurations completed, and the refusals.
// Streaming (filters of at most 9 taps, stride 1): R = 3 rows per step for
// f32, 2 for f16/bf16; 256 threads; the workers of one wave of resident
// blocks: 132 SMs x 1 block (about 156 / 232 registers per thread) x 32
// workers per block; the block reduction.
// CHECK-LABEL: func @stream
// CHECK: dwc.kernel = #dwc.bwd_filter_stream<rows = 3, threads = 256, workers = 4224, reduce = "block">
// CHECK: dwc.kernel = #dwc.bwd_filter_stream<rows = 2, threads = 256, workers = 4224, reduce = "block">
// WHY: remark: dwc.kernel = #dwc.bwd_filter_stream<rows = 3, threads = 256, workers = 4224, reduce = "block">: chosen
func.func @stream(%x0: memref<2x8x20x32xf32>, %w0: memref<2x8x20x32xf32>, %y0: memref<3x3x32xf32>, %x1: memref<2x56x56x64xf16>, %w1: memref<2x56x56x64xf16>, %y1: memref<3x3x64xf16>) {
  dwc.depthwise_conv2d_backward_filter ins(%x0, %w0 : memref<2x8x20x32xf32>, memref<2x8x20x32xf32>) outs(%y0 : memref<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%x1, %w1 : memref<2x56x56x64xf16>, memref<2x56x56x64xf16>) outs(%y1 : memref<3x3x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// Split-z: larger filters (and maps the image kernel leaves: f32 above 14
// output rows, 16-bit above 56); slices for four waves of resident threads,
// clamped to N x OH; tiles of at most 17 taps (f32) / 6 (f16/bf16); the warp
// reduction up to 64 taps (9x9 = 81: none).
// CHECK-LABEL: func @split_z
// CHECK: dwc.kernel = #dwc.bwd_filter_split_z<z = 32, tile_width = 17, warp_slices = 4>
// CHECK: dwc.kernel = #dwc.bwd_filter_split_z<z = 8, tile_width = 17, warp_slices = 1>
// CHECK: dwc.kernel = #dwc.bwd_filter_split_z<z = 64, tile_width = 6, warp_slices = 4>
// WHY: remark: dwc.kernel = #dwc.bwd_filter_split_z<z = 32, tile_width = 17, warp_slices = 4>: chosen; refused: bwd_filter_taps (a grid of fewer than sm_count / 4 blocks); bwd_filter_image (strided dY, a larger map or filter, or f32 3 x 3 (streaming / split-z are faster)); bwd_filter_stream (filter of more than 9 taps)
func.func @split_z(%x0: memref<1x32x32x32xf32>, %w0: memref<1x32x32x32xf32>, %y0: memref<5x5x32xf32>, %x1: memref<1x8x8x32xf32>, %w1: memref<1x8x8x32xf32>, %y1: memref<9x9x32xf32>, %x2: memref<1x64x40x64xf16>, %w2: memref<1x64x40x64xf16>, %y2: memref<7x7x64xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%x0, %w0 : memref<1x32x32x32xf32>, memref<1x32x32x32xf32>) outs(%y0 : memref<5x5x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d_backward_filter ins(%x1, %w1 : memref<1x8x8x32xf32>, memref<1x8x8x32xf32>) outs(%y1 : memref<9x9x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4]
  dwc.depthwise_conv2d_backward_filter ins(%x2, %w2 : memref<1x64x40x64xf16>, memref<1x64x40x64xf16>) outs(%y2 : memref<7x7x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
  return
}

// -----

// Strided dY: f16 3x3 streams only on grids of a quarter of the SMs (one
// block here): split-z, at most 256 slices for 16-bit data (10 rows).
// CHECK-LABEL: func @strided
// CHECK: dwc.kernel = #dwc.bwd_filter_split_z<z = 10, tile_width = 6, warp_slices = 4>
// WHY: remark: dwc.kernel = #dwc.bwd_filter_split_z<z = 10, tile_width = 6, warp_slices = 4>: chosen; refused: {{.*}}bwd_filter_stream (strided dY with f32 data or on a small grid (split-z is faster))
func.func @strided(%x0: memref<2x9x11x32xf16>, %w0: memref<2x5x6x32xf16>, %y0: memref<3x3x32xf16>) {
  dwc.depthwise_conv2d_backward_filter ins(%x0, %w0 : memref<2x9x11x32xf16>, memref<2x5x6x32xf16>) outs(%y0 : memref<3x3x32xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// Partial configurations completed: 64-thread stream blocks of one row
// (8 resident blocks per SM at about 124 registers: 132 x 8 x 8 workers);
// a 5x5 filter streaming without the block reduction; packed f16 partial
// sums (tiles of at most 9 taps).
// CHECK-LABEL: func @requested
// CHECK: dwc.kernel = #dwc.bwd_filter_stream<rows = 1, threads = 64, workers = 8448, reduce = "block">
// CHECK: dwc.kernel = #dwc.bwd_filter_stream<rows = 3, threads = 256, workers = 4224, reduce = "atomics">
// CHECK: dwc.kernel = #dwc.bwd_filter_split_z<z = 64, tile_width = 9, warp_slices = 4, half_steps = 16>
// WHY: remark: dwc.kernel = #dwc.bwd_filter_stream<rows = 1, threads = 64, workers = 8448, reduce = "block">: chosen
func.func @requested(%x0: memref<2x8x20x32xf32>, %w0: memref<2x8x20x32xf32>, %y0: memref<3x3x32xf32>, %x1: memref<1x8x8x32xf32>, %w1: memref<1x8x8x32xf32>, %y1: memref<5x5x32xf32>, %x2: memref<1x64x40x64xf16>, %w2: memref<1x64x40x64xf16>, %y2: memref<7x7x64xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%x0, %w0 : memref<2x8x20x32xf32>, memref<2x8x20x32xf32>) outs(%y0 : memref<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_stream<rows = 1, threads = 64>}
  dwc.depthwise_conv2d_backward_filter ins(%x1, %w1 : memref<1x8x8x32xf32>, memref<1x8x8x32xf32>) outs(%y1 : memref<5x5x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.bwd_filter_stream<reduce = "atomics">}
  dwc.depthwise_conv2d_backward_filter ins(%x2, %w2 : memref<1x64x40x64xf16>, memref<1x64x40x64xf16>) outs(%y2 : memref<7x7x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.bwd_filter_split_z<half_steps = 16>}
  return
}

// -----

// Refused (the direct kernel's): dilation 2, C not a multiple of 128 bits,
// f64.
// CHECK-LABEL: func @refused
// CHECK-NOT: dwc.kernel = #dwc.bwd_filter
// WHY: remark: dwc.kernel = #dwc.{{.*}}: chosen; refused: {{.*}}bwd_filter_stream (dilation is not 1){{.*}}bwd_filter_split_z (dilation is not 1)
// WHY: remark: dwc.kernel = #dwc.{{.*}}: chosen; refused: {{.*}}bwd_filter_stream (channel count is not a multiple of 128 bits){{.*}}bwd_filter_split_z (channel count is not a multiple of 128 bits)
// WHY: remark: dwc.kernel = #dwc.{{.*}}: chosen; refused: {{.*}}bwd_filter_stream (element type is not f32, f16 or bf16){{.*}}bwd_filter_split_z (element type is not f32, f16 or bf16)
func.func @refused(%x0: memref<1x8x8x32xf32>, %w0: memref<1x8x8x32xf32>, %y0: memref<3x3x32xf32>, %x1: memref<1x8x8x6xf32>, %w1: memref<1x8x8x6xf32>, %y1: memref<3x3x6xf32>, %x2: memref<1x8x8x32xf64>, %w2: memref<1x8x8x32xf64>, %y2: memref<3x3x32xf64>) {
  dwc.depthwise_conv2d_backward_filter ins(%x0, %w0 : memref<1x8x8x32xf32>, memref<1x8x8x32xf32>) outs(%y0 : memref<3x3x32xf32>)
    strides = [1, 1] dilations = [2, 2] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d_backward_filter ins(%x1, %w1 : memref<1x8x8x6xf32>, memref<1x8x8x6xf32>) outs(%y1 : memref<3x3x6xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%x2, %w2 : memref<1x8x8x32xf64>, memref<1x8x8x32xf64>) outs(%y2 : memref<3x3x32xf64>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// #dwc.bwd_filter_image, completed when requested (not chosen on its own:
// split-z takes the last op). Defaults: 32 channels per block for 16-bit
// data (16 for f32); the most output rows per strip whose shared memory
// fits 48 KB (whole 14 x 14 images: 25984 bytes; 56 x 56 bf16: 3 rows,
// 9 x 3648 + 3 x 3584 = 43584 bytes); strips per block for one wave of
// resident blocks: 56 x 56: 3 groups x 64 x 19 strips = 3648 / (132 SMs x
// 5 blocks, by shared memory) = 5; 14 x 14: 12 x 64 = 768 blocks, fewer
// than one wave -> 1. copy = "thread" takes one strip per block.
// CHECK-LABEL: func @image
// CHECK: dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 14, units = 1, copy = "block">
// CHECK: dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 3, units = 5, copy = "block">
// CHECK: dwc.kernel = #dwc.bwd_filter_image<channels = 16, rows = 7, units = 2, copy = "block">
// CHECK: dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 14, units = 1, copy = "thread">
// CHECK: dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 14, units = 1, copy = "block">
// WHY: remark: dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 14, units = 1, copy = "block">: chosen
// WHY: remark: dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 14, units = 1, copy = "block">: chosen
func.func @image(%x0: memref<64x14x14x384xf16>, %d0: memref<64x14x14x384xf16>, %w0: memref<7x7x384xf16>, %x1: memref<64x56x56x96xbf16>, %d1: memref<64x56x56x96xbf16>, %w1: memref<7x7x96xbf16>, %x2: memref<64x7x7x768xf32>, %d2: memref<64x7x7x768xf32>, %w2: memref<7x7x768xf32>, %x3: memref<1x14x14x384xf16>, %d3: memref<1x14x14x384xf16>, %w3: memref<7x7x384xf16>) {
  dwc.depthwise_conv2d_backward_filter ins(%x0, %d0 : memref<64x14x14x384xf16>, memref<64x14x14x384xf16>) outs(%w0 : memref<7x7x384xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.bwd_filter_image<>}
  dwc.depthwise_conv2d_backward_filter ins(%x1, %d1 : memref<64x56x56x96xbf16>, memref<64x56x56x96xbf16>) outs(%w1 : memref<7x7x96xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.bwd_filter_image<>}
  dwc.depthwise_conv2d_backward_filter ins(%x2, %d2 : memref<64x7x7x768xf32>, memref<64x7x7x768xf32>) outs(%w2 : memref<7x7x768xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.bwd_filter_image<units = 2>}
  dwc.depthwise_conv2d_backward_filter ins(%x3, %d3 : memref<1x14x14x384xf16>, memref<1x14x14x384xf16>) outs(%w3 : memref<7x7x384xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.bwd_filter_image<copy = "thread">}
  dwc.depthwise_conv2d_backward_filter ins(%x0, %d0 : memref<64x14x14x384xf16>, memref<64x14x14x384xf16>) outs(%w0 : memref<7x7x384xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
  return
}

// -----

// Where the image kernel is the default (measured: docs/KernelSelection.md,
// "backward filter"): 16-bit 3 x 3 on maps of up to 28 output rows, 56 x
// 56 x 144 3 x 3 too (48 channels per block, which divide C = 144, and 4
// column segments: 13,000+ blocks of one row, past 2 waves), 16-bit 5+ taps wide up to 56
// rows, f32 5+ taps wide up to 14 rows (28: split-z; f32 3 x 3:
// streaming); a 9 x 9 16-bit filter on 14 x 14 (past 7 x 7 filters only
// up to 7 rows): split-z.
// CHECK-LABEL: func @image_default
// CHECK: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 4, rows = 16, threads = 256, reduce = "block", prefetch = 1>
// CHECK: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 2, rows = 28, threads = 256, reduce = "block", prefetch = 1>
// CHECK: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 2, rows = 28, threads = 256, reduce = "block">
// CHECK: dwc.kernel = #dwc.bwd_filter_image<channels = 16, rows = 14, units = 1, copy = "block">
// CHECK: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 2, rows = 28, threads = 256, reduce = "block">
// CHECK: dwc.kernel = #dwc.bwd_filter_stream<rows = 3, threads = 256, workers = 132, reduce = "block">
// CHECK: dwc.kernel = #dwc.bwd_filter_split_z<z = 448, tile_width = 6, warp_slices = 1>
// WHY: remark: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 4, rows = 16, threads = 256, reduce = "block", prefetch = 1>: chosen
// WHY: remark: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 2, rows = 28, threads = 256, reduce = "block", prefetch = 1>: chosen
// WHY: remark: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 2, rows = 28, threads = 256, reduce = "block">: chosen
// WHY: remark: dwc.kernel = #dwc.bwd_filter_image<channels = 16, rows = 14, units = 1, copy = "block">: chosen
// WHY: remark: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 2, rows = 28, threads = 256, reduce = "block">: chosen
// WHY: remark: dwc.kernel = #dwc.bwd_filter_stream<rows = 3, threads = 256, workers = 132, reduce = "block">: chosen; refused: bwd_filter_taps ({{.*}}); bwd_filter_image (strided dY, a larger map or filter, or f32 3 x 3 (streaming / split-z are faster))
// WHY: remark: dwc.kernel = #dwc.bwd_filter_split_z<z = 448, tile_width = 6, warp_slices = 1>: chosen; refused: bwd_filter_taps ({{.*}}); bwd_filter_image (strided dY, a larger map or filter, or f32 3 x 3 (streaming / split-z are faster)); bwd_filter_stream (filter of more than 9 taps)
func.func @image_default(%a: memref<64x28x28x192xf16>, %b: memref<64x56x56x144xf16>, %c: memref<32x56x56x128xbf16>, %d: memref<64x14x14x480xf32>, %e: memref<64x28x28x240xf32>, %f: memref<64x7x7x960xf32>, %g: memref<32x14x14x384xf16>,
    %wa: memref<3x3x192xf16>, %wb: memref<3x3x144xf16>, %wc: memref<5x5x128xbf16>, %wd: memref<5x5x480xf32>, %we: memref<5x5x240xf32>, %wf: memref<3x3x960xf32>, %wg: memref<9x9x384xf16>) {
  dwc.depthwise_conv2d_backward_filter ins(%a, %a : memref<64x28x28x192xf16>, memref<64x28x28x192xf16>) outs(%wa : memref<3x3x192xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%b, %b : memref<64x56x56x144xf16>, memref<64x56x56x144xf16>) outs(%wb : memref<3x3x144xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%c, %c : memref<32x56x56x128xbf16>, memref<32x56x56x128xbf16>) outs(%wc : memref<5x5x128xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d_backward_filter ins(%d, %d : memref<64x14x14x480xf32>, memref<64x14x14x480xf32>) outs(%wd : memref<5x5x480xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d_backward_filter ins(%e, %e : memref<64x28x28x240xf32>, memref<64x28x28x240xf32>) outs(%we : memref<5x5x240xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d_backward_filter ins(%f, %f : memref<64x7x7x960xf32>, memref<64x7x7x960xf32>) outs(%wf : memref<3x3x960xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%g, %g : memref<32x14x14x384xf16>, memref<32x14x14x384xf16>) outs(%wg : memref<9x9x384xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4]
  return
}

// -----

// The image kernel's classes measured with the two-level slice reduction
// (batch 32 / 64; docs/KernelSelection.md): 16-bit 3 x 3 at 112 x 112 (32
// channels: C = 32; two strips of 1 row with cp.async, see
// @image_async_half_strips), stride 2 with filters up to 5 x 5 (64 channels and
// 256+ threads of column segments where the 64-channel strip stages at most
// 3 input rows per output row: 112 x 112 x 96 3 x 3 one row of 3; 56 x 56 x
// 144 5 x 5 would stage 5 rows for one: 32 channels), filters up to 13 x 13
// on 7 x 7 maps (13 x 5, 5 x 13); a grid of fewer than 2 x 132 blocks of
// one output row (batch 1: 112 blocks) keeps the streaming kernel; f32 on
// strided dY keeps split-z.
// CHECK-LABEL: func @image_new_classes
// CHECK: dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 1, units = 13, copy = "async">
// CHECK: dwc.kernel = #dwc.bwd_filter_image<channels = 64, rows = 1, units = 13, copy = "block", segments = 3>
// CHECK: dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 4, units = 4, copy = "block">
// CHECK: dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 7, units = 1, copy = "block">
// CHECK: dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 7, units = 1, copy = "block">
// CHECK: dwc.kernel = #dwc.bwd_filter_stream<
// CHECK: dwc.kernel = #dwc.bwd_filter_split_z<
// WHY-LABEL: remark: dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 1, units = 13, copy = "async">: chosen
// WHY: remark: dwc.kernel = #dwc.bwd_filter_stream<{{.*}}>: chosen; refused: bwd_filter_taps ({{.*}}); bwd_filter_image (a grid of fewer than 2 x sm_count blocks of one output row (streaming / split-z are faster))
// WHY: remark: dwc.kernel = #dwc.bwd_filter_split_z<{{.*}}>: chosen; refused: bwd_filter_taps (stride is not 1); bwd_filter_image (strided dY, a larger map or filter, or f32 3 x 3 (streaming / split-z are faster)); bwd_filter_stream (filter of more than 9 taps)
func.func @image_new_classes(%a: memref<64x112x112x32xf16>, %b: memref<64x112x112x96xbf16>, %b2: memref<64x56x56x96xbf16>, %c: memref<64x56x56x144xf16>, %c2: memref<64x28x28x144xf16>, %d: memref<32x7x7x768xf16>, %e: memref<1x112x112x32xf16>, %f: memref<64x28x28x240xf32>, %f2: memref<64x14x14x240xf32>,
    %wa: memref<3x3x32xf16>, %wb: memref<3x3x96xbf16>, %wc: memref<5x5x144xf16>, %wd: memref<13x5x768xf16>, %wd2: memref<5x13x768xf16>, %wf: memref<5x5x240xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%a, %a : memref<64x112x112x32xf16>, memref<64x112x112x32xf16>) outs(%wa : memref<3x3x32xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%b, %b2 : memref<64x112x112x96xbf16>, memref<64x56x56x96xbf16>) outs(%wb : memref<3x3x96xbf16>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%c, %c2 : memref<64x56x56x144xf16>, memref<64x28x28x144xf16>) outs(%wc : memref<5x5x144xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d_backward_filter ins(%d, %d : memref<32x7x7x768xf16>, memref<32x7x7x768xf16>) outs(%wd : memref<13x5x768xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 2, 2]
  dwc.depthwise_conv2d_backward_filter ins(%d, %d : memref<32x7x7x768xf16>, memref<32x7x7x768xf16>) outs(%wd2 : memref<5x13x768xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 6, 6]
  dwc.depthwise_conv2d_backward_filter ins(%e, %e : memref<1x112x112x32xf16>, memref<1x112x112x32xf16>) outs(%wa : memref<3x3x32xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%f, %f2 : memref<64x28x28x240xf32>, memref<64x14x14x240xf32>) outs(%wf : memref<5x5x240xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2]
  return
}

// -----

// The 32-channel (16-bit) / 16-channel (f32) blocks of maps cut into
// several strips take copy = "async" with half the 48 KB strip where that
// strip stages at most 3 input rows per output row: 28 x 28 x 192 7 x 7 (10
// -> 5 rows of 11 input rows), 56 x 56 x 96 5 x 5 at batch 32 (4 -> 2 rows
// of 6); f32 3 x 3 on 56+ rows takes the image kernel so (112 x 112 x 32:
// one row of 3, 56 x 56 x 144: 2 rows of 4) on grids of 2+ waves of
// one-row blocks. Kept: 56 x 56 x 96 7 x 7 16-bit (one row of 7 input rows:
// the block copy of 3 rows), 56 x 56 x 144 5 x 5 stride 2 (2 rows of 7),
// whole 14 x 14 images, f32 3 x 3 at batch 1 (224 blocks: streaming), on
// 28 x 28 maps, on a 64-row map two columns wide (one strip holds the
// image) and at C = 256 (64 x 64 x 64 x 256: the streaming block holds 64
// channel vectors; streaming).
// CHECK-LABEL: func @image_async_half_strips
// CHECK: dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 5, units = 5, copy = "async">
// CHECK: dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 2, units = 5, copy = "async">
// CHECK: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 2, rows = 16, threads = 128, reduce = "block", prefetch = 1>
// CHECK: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 2, rows = 32, threads = 256, reduce = "block">
// CHECK: dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 3, units = 5, copy = "block">
// CHECK: dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 4, units = 4, copy = "block">
// CHECK: dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 14, units = 1, copy = "block">
// CHECK: dwc.kernel = #dwc.bwd_filter_stream<rows = 3, threads = 256, workers = 4224, reduce = "block">
// CHECK: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 2, rows = 28, threads = 256, reduce = "block", prefetch = 1>
// CHECK: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 2, rows = 16, threads = 128, reduce = "block", prefetch = 1>
// CHECK: dwc.kernel = #dwc.bwd_filter_stream<rows = 3, threads = 256, workers = 528, reduce = "block">
// WHY-LABEL: remark: dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 5, units = 5, copy = "async">: chosen
// WHY: remark: dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 2, units = 5, copy = "async">: chosen
// WHY: remark: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 2, rows = 16, threads = 128, reduce = "block", prefetch = 1>: chosen
// WHY: remark: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 2, rows = 32, threads = 256, reduce = "block">: chosen
// WHY: remark: dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 3, units = 5, copy = "block">: chosen
// WHY: remark: dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 4, units = 4, copy = "block">: chosen; refused: bwd_filter_taps (stride is not 1)
// WHY: remark: dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 14, units = 1, copy = "block">: chosen
// WHY: remark: dwc.kernel = #dwc.bwd_filter_stream<rows = 3, threads = 256, workers = 4224, reduce = "block">: chosen; refused: bwd_filter_taps (a grid of fewer than sm_count / 4 blocks); bwd_filter_image (a grid of fewer than 2 x sm_count blocks of one output row (streaming / split-z are faster))
// WHY: remark: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 2, rows = 28, threads = 256, reduce = "block", prefetch = 1>: chosen
// WHY: remark: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 2, rows = 16, threads = 128, reduce = "block", prefetch = 1>: chosen
// WHY: remark: dwc.kernel = #dwc.bwd_filter_stream<rows = 3, threads = 256, workers = 528, reduce = "block">: chosen; refused: bwd_filter_taps ({{.*}}); bwd_filter_image (strided dY, a larger map or filter, or f32 3 x 3 (streaming / split-z are faster))
func.func @image_async_half_strips(%a: memref<64x28x28x192xf16>, %b: memref<32x56x56x96xf16>, %c: memref<64x112x112x32xf32>, %d: memref<64x56x56x144xf32>,
    %e: memref<64x56x56x96xf16>, %f: memref<64x56x56x144xf16>, %f2: memref<64x28x28x144xf16>, %g: memref<64x14x14x384xf16>, %h: memref<1x112x112x32xf32>, %i: memref<64x28x28x192xf32>,
    %j: memref<64x64x2x32xf32>, %k: memref<64x64x64x256xf32>, %wk: memref<3x3x256xf32>,
    %wa: memref<7x7x192xf16>, %wb: memref<5x5x96xf16>, %wc: memref<3x3x32xf32>, %wd: memref<3x3x144xf32>, %we: memref<7x7x96xf16>, %wf: memref<5x5x144xf16>, %wg: memref<7x7x384xf16>, %wi: memref<3x3x192xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%a, %a : memref<64x28x28x192xf16>, memref<64x28x28x192xf16>) outs(%wa : memref<7x7x192xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
  dwc.depthwise_conv2d_backward_filter ins(%b, %b : memref<32x56x56x96xf16>, memref<32x56x56x96xf16>) outs(%wb : memref<5x5x96xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d_backward_filter ins(%c, %c : memref<64x112x112x32xf32>, memref<64x112x112x32xf32>) outs(%wc : memref<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%d, %d : memref<64x56x56x144xf32>, memref<64x56x56x144xf32>) outs(%wd : memref<3x3x144xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%e, %e : memref<64x56x56x96xf16>, memref<64x56x56x96xf16>) outs(%we : memref<7x7x96xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
  dwc.depthwise_conv2d_backward_filter ins(%f, %f2 : memref<64x56x56x144xf16>, memref<64x28x28x144xf16>) outs(%wf : memref<5x5x144xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d_backward_filter ins(%g, %g : memref<64x14x14x384xf16>, memref<64x14x14x384xf16>) outs(%wg : memref<7x7x384xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
  dwc.depthwise_conv2d_backward_filter ins(%h, %h : memref<1x112x112x32xf32>, memref<1x112x112x32xf32>) outs(%wc : memref<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%i, %i : memref<64x28x28x192xf32>, memref<64x28x28x192xf32>) outs(%wi : memref<3x3x192xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%j, %j : memref<64x64x2x32xf32>, memref<64x64x2x32xf32>) outs(%wc : memref<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%k, %k : memref<64x64x64x256xf32>, memref<64x64x64x256xf32>) outs(%wk : memref<3x3x256xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// The register (taps) kernel: its default classes (docs/KernelSelection.md,
// "register kernel"): f32 3 x 3 on 56+ rows with C < 64 (2 x 16 bands in
// 128-thread blocks with prefetch) and C < 256 (2 x 32), on 28..55 rows
// (2 x 28 with prefetch), f32 5 x 5 on 28+ rows (2 x 28), a 5 x 13 f32
// filter (2 x 8 bands, 64-bit vectors: 128 bits would hold more than 192
// f32 values), 16-bit 3 x 3 on 29..56 rows with C >= 144 (64-bit vectors,
// 2 x 28 with prefetch) and on 14-row maps with C > 480 (4 x 16 with
// prefetch); a request
// completed (128-bit vectors where they fit, 2 x 8 bands, 256 threads,
// the block reduction). Refused: f32 3 x 3 at C = 256 (streaming), 16-bit
// 5 x 5 (image), 16-bit 3 x 3 on 112 rows (image), a batch-1 grid of
// fewer than sm_count / 4 blocks, strided dY.
// CHECK-LABEL: func @taps
// CHECK: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 2, rows = 16, threads = 128, reduce = "block", prefetch = 1>
// CHECK: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 2, rows = 32, threads = 256, reduce = "block">
// CHECK: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 2, rows = 28, threads = 256, reduce = "block", prefetch = 1>
// CHECK: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 2, rows = 28, threads = 256, reduce = "block">
// CHECK: dwc.kernel = #dwc.bwd_filter_taps<vector = 2, columns = 2, rows = 8, threads = 256, reduce = "block">
// CHECK: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 2, rows = 28, threads = 256, reduce = "block", prefetch = 1>
// CHECK: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 4, rows = 16, threads = 256, reduce = "block", prefetch = 1>
// CHECK: dwc.kernel = #dwc.bwd_filter_taps<vector = 8, columns = 2, rows = 8, threads = 256, reduce = "block">
// CHECK: dwc.kernel = #dwc.bwd_filter_stream<
// CHECK: dwc.kernel = #dwc.bwd_filter_image<
// CHECK: dwc.kernel = #dwc.bwd_filter_image<
// CHECK: dwc.kernel = #dwc.bwd_filter_image<
// CHECK: dwc.kernel = #dwc.bwd_filter_image<
// WHY: remark: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 2, rows = 16, threads = 128, reduce = "block", prefetch = 1>: chosen
// WHY: remark: dwc.kernel = #dwc.bwd_filter_taps<vector = 8, columns = 2, rows = 8, threads = 256, reduce = "block">: chosen
// WHY: remark: dwc.kernel = #dwc.bwd_filter_stream<{{.*}}>: chosen; refused: bwd_filter_taps (outside the measured classes (f32 3 x 3 / 5 x 5 on 28+ rows, f32 3 x 3 on 8..14 rows with 256 <= C < 512, f32 filters up to 5 x 13, 16-bit 3 x 3 on 28..56 rows with C >= 144, on 8..14 rows with C >= 384 or on up to 7 rows with C >= 480, 16-bit 5 x 5 on 28..56 rows in blocks of 30+ lanes): the image / streaming / split-z kernels are faster)
// WHY: remark: dwc.kernel = #dwc.bwd_filter_image<{{.*}}>: chosen; refused: bwd_filter_taps (outside the measured classes
// WHY: remark: dwc.kernel = #dwc.bwd_filter_image<{{.*}}>: chosen; refused: bwd_filter_taps (outside the measured classes
// WHY: remark: dwc.kernel = #dwc.bwd_filter_image<{{.*}}>: chosen; refused: bwd_filter_taps (a grid of fewer than sm_count / 4 blocks)
// WHY: remark: dwc.kernel = #dwc.bwd_filter_image<{{.*}}>: chosen; refused: bwd_filter_taps (stride is not 1)
func.func @taps(%a: memref<64x112x112x32xf32>, %b: memref<64x56x56x144xf32>, %c: memref<64x28x28x192xf32>, %d: memref<32x28x28x256xf32>,
    %e: memref<32x7x7x768xf32>, %f: memref<64x56x56x144xf16>, %g: memref<64x14x14x576xbf16>, %h: memref<2x8x9x32xf16>,
    %i: memref<64x56x56x256xf32>, %j: memref<32x56x56x96xf16>, %k: memref<64x112x112x32xf16>, %l: memref<1x56x56x144xf32>,
    %m: memref<64x56x56x144xf16>, %m2: memref<64x28x28x144xf16>,
    %w3: memref<3x3x32xf32>, %w144: memref<3x3x144xf32>, %w192: memref<3x3x192xf32>, %w256: memref<5x5x256xf32>, %w513: memref<5x13x768xf32>,
    %w144h: memref<3x3x144xf16>, %w576: memref<3x3x576xbf16>, %w32h: memref<3x3x32xf16>, %w256s: memref<3x3x256xf32>, %w96: memref<5x5x96xf16>) {
  dwc.depthwise_conv2d_backward_filter ins(%a, %a : memref<64x112x112x32xf32>, memref<64x112x112x32xf32>) outs(%w3 : memref<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%b, %b : memref<64x56x56x144xf32>, memref<64x56x56x144xf32>) outs(%w144 : memref<3x3x144xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%c, %c : memref<64x28x28x192xf32>, memref<64x28x28x192xf32>) outs(%w192 : memref<3x3x192xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%d, %d : memref<32x28x28x256xf32>, memref<32x28x28x256xf32>) outs(%w256 : memref<5x5x256xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d_backward_filter ins(%e, %e : memref<32x7x7x768xf32>, memref<32x7x7x768xf32>) outs(%w513 : memref<5x13x768xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 6, 6]
  dwc.depthwise_conv2d_backward_filter ins(%f, %f : memref<64x56x56x144xf16>, memref<64x56x56x144xf16>) outs(%w144h : memref<3x3x144xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%g, %g : memref<64x14x14x576xbf16>, memref<64x14x14x576xbf16>) outs(%w576 : memref<3x3x576xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%h, %h : memref<2x8x9x32xf16>, memref<2x8x9x32xf16>) outs(%w32h : memref<3x3x32xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_taps<>}
  dwc.depthwise_conv2d_backward_filter ins(%i, %i : memref<64x56x56x256xf32>, memref<64x56x56x256xf32>) outs(%w256s : memref<3x3x256xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%j, %j : memref<32x56x56x96xf16>, memref<32x56x56x96xf16>) outs(%w96 : memref<5x5x96xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d_backward_filter ins(%k, %k : memref<64x112x112x32xf16>, memref<64x112x112x32xf16>) outs(%w32h : memref<3x3x32xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%l, %l : memref<1x56x56x144xf32>, memref<1x56x56x144xf32>) outs(%w144 : memref<3x3x144xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%m, %m2 : memref<64x56x56x144xf16>, memref<64x28x28x144xf16>) outs(%w144h : memref<3x3x144xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// The taps classes of the backward-filter sweep on the H200 (2026-12-02): f32 3 x 3 on 14-row maps with 256 <=
// C < 512: 2 x 16 (clamped to 14 rows), 4 steps per loop iteration (C =
// 576 and 7-row maps keep streaming); 16-bit 3 x 3 on 14-row maps with
// C in [384, 480]: 2 x 16 in 128-thread blocks with prefetch (C = 288:
// image); 7-row maps with C >= 480: 4 x 16 without prefetch; 28-row maps
// with C >= 144: f16 4 x 16 with prefetch, bf16 without (not timed); 16-bit
// 5 x 5 on 28..56 rows whose blocks hold 30+ channel lanes (C = 240: 30):
// 2 x 28 (C = 192: 24 lanes, and 14-row maps: image). A request with
// prefetch whose 128-bit values would pass 192 (5 x 5 f32) takes 64-bit
// vectors; unroll / prefetch / min_blocks_per_sm are kept.
// CHECK-LABEL: func @taps_s17
// CHECK: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 2, rows = 16, threads = 256, reduce = "block", unroll = 4>
// CHECK: dwc.kernel = #dwc.bwd_filter_stream<
// CHECK: dwc.kernel = #dwc.bwd_filter_stream<
// CHECK: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 2, rows = 16, threads = 128, reduce = "block", prefetch = 1>
// CHECK: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 2, rows = 16, threads = 128, reduce = "block", prefetch = 1>
// CHECK: dwc.kernel = #dwc.bwd_filter_image<
// CHECK: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 4, rows = 16, threads = 256, reduce = "block">
// CHECK: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 4, rows = 16, threads = 256, reduce = "block">
// CHECK: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 2, rows = 28, threads = 256, reduce = "block">
// CHECK: dwc.kernel = #dwc.bwd_filter_image<
// CHECK: dwc.kernel = #dwc.bwd_filter_image<
// CHECK: dwc.kernel = #dwc.bwd_filter_taps<vector = 2, columns = 2, rows = 8, threads = 256, reduce = "block", unroll = 3, prefetch = 1, min_blocks_per_sm = 2>
// WHY-LABEL: remark: dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 2, rows = 16, threads = 256, reduce = "block", unroll = 4>: chosen
// WHY: remark: dwc.kernel = #dwc.bwd_filter_stream<{{.*}}>: chosen; refused: bwd_filter_taps (outside the measured classes
// WHY: remark: dwc.kernel = #dwc.bwd_filter_stream<{{.*}}>: chosen; refused: bwd_filter_taps (outside the measured classes
// WHY: remark: dwc.kernel = #dwc.bwd_filter_image<{{.*}}>: chosen; refused: bwd_filter_taps (outside the measured classes
// WHY: remark: dwc.kernel = #dwc.bwd_filter_image<{{.*}}>: chosen; refused: bwd_filter_taps (outside the measured classes
// WHY: remark: dwc.kernel = #dwc.bwd_filter_image<{{.*}}>: chosen; refused: bwd_filter_taps (outside the measured classes
func.func @taps_s17(%a: memref<64x14x14x384xf32>, %b: memref<64x14x14x576xf32>, %c: memref<64x7x7x960xf32>,
    %d: memref<64x14x14x384xf16>, %e: memref<64x14x14x480xbf16>, %f: memref<64x14x14x288xf16>, %g: memref<64x7x7x960xf16>,
    %h: memref<64x28x28x192xbf16>, %i: memref<64x28x28x240xf16>, %j: memref<64x28x28x192xf16>, %k: memref<64x14x14x480xf16>,
    %l: memref<32x28x28x256xf32>,
    %w384: memref<3x3x384xf32>, %w576: memref<3x3x576xf32>, %w960: memref<3x3x960xf32>, %w384h: memref<3x3x384xf16>,
    %w480b: memref<3x3x480xbf16>, %w288h: memref<3x3x288xf16>, %w960h: memref<3x3x960xf16>, %w192b: memref<3x3x192xbf16>,
    %w240h: memref<5x5x240xf16>, %w192h: memref<5x5x192xf16>, %w480h: memref<5x5x480xf16>, %w256: memref<5x5x256xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%a, %a : memref<64x14x14x384xf32>, memref<64x14x14x384xf32>) outs(%w384 : memref<3x3x384xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%b, %b : memref<64x14x14x576xf32>, memref<64x14x14x576xf32>) outs(%w576 : memref<3x3x576xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%c, %c : memref<64x7x7x960xf32>, memref<64x7x7x960xf32>) outs(%w960 : memref<3x3x960xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%d, %d : memref<64x14x14x384xf16>, memref<64x14x14x384xf16>) outs(%w384h : memref<3x3x384xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%e, %e : memref<64x14x14x480xbf16>, memref<64x14x14x480xbf16>) outs(%w480b : memref<3x3x480xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%f, %f : memref<64x14x14x288xf16>, memref<64x14x14x288xf16>) outs(%w288h : memref<3x3x288xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%g, %g : memref<64x7x7x960xf16>, memref<64x7x7x960xf16>) outs(%w960h : memref<3x3x960xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%h, %h : memref<64x28x28x192xbf16>, memref<64x28x28x192xbf16>) outs(%w192b : memref<3x3x192xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%i, %i : memref<64x28x28x240xf16>, memref<64x28x28x240xf16>) outs(%w240h : memref<5x5x240xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d_backward_filter ins(%j, %j : memref<64x28x28x192xf16>, memref<64x28x28x192xf16>) outs(%w192h : memref<5x5x192xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d_backward_filter ins(%k, %k : memref<64x14x14x480xf16>, memref<64x14x14x480xf16>) outs(%w480h : memref<5x5x480xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d_backward_filter ins(%l, %l : memref<32x28x28x256xf32>, memref<32x28x28x256xf32>) outs(%w256 : memref<5x5x256xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.bwd_filter_taps<unroll = 3, prefetch = 1, min_blocks_per_sm = 2>}
  return
}
