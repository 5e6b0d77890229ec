// RUN: dwc-opt %s --split-input-file --dwc-select-kernels | FileCheck %s
// RUN: dwc-opt %s --split-input-file --dwc-select-kernels=diagnose 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY

// The global pooling configurations (docs/KernelSelection.md): the widest
// channel tile (32 vectors, or C rounded up to a power of two) narrowed,
// not below 64 bytes per row, while the grid has fewer blocks than the
// target's SMs (132 on the default sm_90 target); 256 threads (fewer rows
// for small maps), doubled while the grid holds less than half of the
// GPU's threads; 8 positions per loop step.
// CHECK-LABEL: func @forward
// 128 x 6 tiles of 32 vectors of 768 f32 channels, 8 rows.
// CHECK: dwc.kernel = #dwc.global_pool<channel_tile = 32, threads = 256, unroll = 8>
// Batch 1, f16: tiles narrowed to 4 vectors (24 blocks), 32 rows.
// CHECK: dwc.kernel = #dwc.global_pool<channel_tile = 4, threads = 128, unroll = 8>
// C = 13 bf16: scalar channels, a tile of 16 (C rounded up), 16 rows.
// CHECK: dwc.kernel = #dwc.global_pool<channel_tile = 16, threads = 256, unroll = 8>
// A pool2d avg over the whole input is a global average.
// CHECK: dwc.kernel = #dwc.global_pool<channel_tile = 32, threads = 256, unroll = 8>
// Given fields are kept (threads given: not doubled).
// CHECK: dwc.kernel = #dwc.global_pool<channel_tile = 8, threads = 64, unroll = 3>
// WHY: remark: dwc.kernel = #dwc.global_pool<channel_tile = 32, threads = 256, unroll = 8>: chosen
func.func @forward(%x: memref<128x7x7x768xf32>, %y: memref<128x1x1x768xf32>, %x1: memref<1x7x7x768xf16>, %y1: memref<1x1x1x768xf16>,
                   %xo: memref<4x5x5x13xbf16>, %yo: memref<4x1x1x13xbf16>) {
  dwc.global_avg_pool ins(%x : memref<128x7x7x768xf32>) outs(%y : memref<128x1x1x768xf32>)
  dwc.global_avg_pool ins(%x1 : memref<1x7x7x768xf16>) outs(%y1 : memref<1x1x1x768xf16>)
  dwc.global_avg_pool ins(%xo : memref<4x5x5x13xbf16>) outs(%yo : memref<4x1x1x13xbf16>)
  dwc.pool2d avg ins(%x : memref<128x7x7x768xf32>) outs(%y : memref<128x1x1x768xf32>) window = [7, 7] strides = [1, 1] padding = [0, 0, 0, 0]
  dwc.global_avg_pool ins(%x : memref<128x7x7x768xf32>) outs(%y : memref<128x1x1x768xf32>) {dwc.kernel = #dwc.global_pool<channel_tile = 8, threads = 64, unroll = 3>}
  return
}

// -----

// The gradient: the same tiling; a grid of fewer blocks than SMs spreads
// each image's positions over ~2 blocks per SM, at most one per row of
// positions (batch 1, 49 positions of 32 rows: 2).
// CHECK-LABEL: func @backward
// CHECK: dwc.kernel = #dwc.global_pool_backward<channel_tile = 32, threads = 256, unroll = 8, position_blocks = 1>
// CHECK: dwc.kernel = #dwc.global_pool_backward<channel_tile = 4, threads = 128, unroll = 8, position_blocks = 2>
// CHECK: dwc.kernel = #dwc.global_pool_backward<channel_tile = 4, threads = 128, unroll = 8, position_blocks = 5>
// The exact tile: 144 f16 channels are 18 vectors, one tile of 18 (no idle
// lane; the forward's power-of-two tile of 32 idles 14), rows a multiple of
// 16 (whole warps), 576 threads, 3 blocks per image (128 blocks < 132 SMs).
// CHECK: dwc.kernel = #dwc.global_pool_backward<channel_tile = 18, threads = 576, unroll = 8, position_blocks = 3>
// 96 f32 channels: 24 vectors, one exact tile of 24 (288 threads doubled to
// 576, 5 blocks per image). Not exact: a power-of-two vector count is the
// forward's rule (64 f32: 16 vectors, narrowed to 4 on a grid under the
// SMs), and so are rows under 128 bytes (20 f32: 5 vectors of 16 bytes).
// CHECK: dwc.kernel = #dwc.global_pool_backward<channel_tile = 24, threads = 576, unroll = 8, position_blocks = 5>
// CHECK: dwc.kernel = #dwc.global_pool_backward<channel_tile = 4, threads = 512, unroll = 8, position_blocks = 1>
// CHECK: dwc.kernel = #dwc.global_pool_backward<channel_tile = 4, threads = 256, unroll = 8, position_blocks = 3>
// WHY: remark: dwc.kernel = #dwc.global_pool_backward<channel_tile = 32, threads = 256, unroll = 8, position_blocks = 1>: chosen
func.func @backward(%x: memref<128x7x7x768xf32>, %y: memref<128x1x1x768xf32>, %x1: memref<1x7x7x768xf16>, %y1: memref<1x1x1x768xf16>,
                    %se: memref<128x56x56x144xf16>, %sy: memref<128x1x1x144xf16>, %a: memref<64x28x28x96xf32>, %ay: memref<64x1x1x96xf32>,
                    %b: memref<64x28x28x64xf32>, %by: memref<64x1x1x64xf32>, %c: memref<64x28x28x20xf32>, %cy: memref<64x1x1x20xf32>) {
  dwc.pool2d_backward avg ins(%x, %y : memref<128x7x7x768xf32>, memref<128x1x1x768xf32>) outs(%x : memref<128x7x7x768xf32>) window = [7, 7] strides = [1, 1] padding = [0, 0, 0, 0]
  dwc.pool2d_backward avg ins(%x1, %y1 : memref<1x7x7x768xf16>, memref<1x1x1x768xf16>) outs(%x1 : memref<1x7x7x768xf16>) window = [7, 7] strides = [1, 1] padding = [0, 0, 0, 0]
  dwc.pool2d_backward avg ins(%x1, %y1 : memref<1x7x7x768xf16>, memref<1x1x1x768xf16>) outs(%x1 : memref<1x7x7x768xf16>) window = [7, 7] strides = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.global_pool_backward<position_blocks = 5>}
  dwc.pool2d_backward avg ins(%se, %sy : memref<128x56x56x144xf16>, memref<128x1x1x144xf16>) outs(%se : memref<128x56x56x144xf16>) window = [56, 56] strides = [1, 1] padding = [0, 0, 0, 0]
  dwc.pool2d_backward avg ins(%a, %ay : memref<64x28x28x96xf32>, memref<64x1x1x96xf32>) outs(%a : memref<64x28x28x96xf32>) window = [28, 28] strides = [1, 1] padding = [0, 0, 0, 0]
  dwc.pool2d_backward avg ins(%b, %by : memref<64x28x28x64xf32>, memref<64x1x1x64xf32>) outs(%b : memref<64x28x28x64xf32>) window = [28, 28] strides = [1, 1] padding = [0, 0, 0, 0]
  dwc.pool2d_backward avg ins(%c, %cy : memref<64x28x28x20xf32>, memref<64x1x1x20xf32>) outs(%c : memref<64x28x28x20xf32>) window = [28, 28] strides = [1, 1] padding = [0, 0, 0, 0]
  return
}

// -----

// Refused (left to the windowed kernels or the direct one): a fused
// activation, padding, max pooling, a max gradient, non-identity layouts.
// CHECK-LABEL: func @refused
// CHECK: dwc.pool2d avg {{.*}} activation = relu {dwc.kernel = #dwc.pool_forward<
// CHECK: dwc.pool2d avg {{.*}} {dwc.kernel = #dwc.pool_forward<
// CHECK: dwc.pool2d max {{.*}} {dwc.kernel = #dwc.pool_forward<
// CHECK: dwc.pool2d_backward max {{.*}} {dwc.kernel = #dwc.pool_backward<
// CHECK: dwc.global_avg_pool
// CHECK-NOT: dwc.kernel = #dwc.global_pool
// WHY: remark: dwc.kernel = #dwc.pool_forward<{{.*}}>: chosen
// WHY: remark: dwc.kernel = #dwc.{{.*}}: chosen; refused: {{.*}}global_pool (non-identity layout){{.*}}
func.func @refused(%x: memref<2x7x7x64xf32>, %y: memref<2x1x1x64xf32>, %dy: memref<2x1x1x64xf32>,
                   %s: memref<2x7x7x64xf32, strided<[6272, 896, 128, 1]>>) {
  dwc.pool2d avg ins(%x : memref<2x7x7x64xf32>) outs(%y : memref<2x1x1x64xf32>) window = [7, 7] strides = [7, 7] padding = [0, 0, 0, 0] activation = relu
  dwc.pool2d avg ins(%x : memref<2x7x7x64xf32>) outs(%y : memref<2x1x1x64xf32>) window = [7, 7] strides = [7, 7] padding = [1, 1, 1, 1] count_include_pad
  dwc.pool2d max ins(%x : memref<2x7x7x64xf32>) outs(%y : memref<2x1x1x64xf32>) window = [7, 7] strides = [7, 7] padding = [0, 0, 0, 0]
  dwc.pool2d_backward max ins(%x, %dy : memref<2x7x7x64xf32>, memref<2x1x1x64xf32>) outs(%x : memref<2x7x7x64xf32>) window = [7, 7] strides = [7, 7] padding = [0, 0, 0, 0]
  dwc.global_avg_pool ins(%s : memref<2x7x7x64xf32, strided<[6272, 896, 128, 1]>>) outs(%y : memref<2x1x1x64xf32>)
  return
}
