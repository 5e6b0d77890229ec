// RUN: dwc-opt %s --split-input-file --dwc-select-kernels | FileCheck %s
// RUN: dwc-opt %s --split-input-file --dwc-select-kernels=diagnose 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY

// The tensor-core ring/band family (docs/KernelSelection.md, "tensor
// cores"): #dwc.mma_band from FW = 9 where the band ring fits 112 KB, with
// unrolled slices and split copies; on sm_90 (the default target) rows,
// warp channels, filter pairs and barriers per shape:
// * small grids (under 1024 blocks): one row, filter rows, one barrier;
// * 1024+ blocks of two rows with 3+ slices (FW >= 26): two rows, 8
//   channels per warp, filter rows, one barrier only with 4+ slices;
// * other large grids: one row of 16 channels; one-row tiles (OW > 64):
//   filter pairs, two barriers; taller tiles: one barrier, filter pairs
//   from 2 slices on.
// (Filters of 10 to 64 taps name the family, #dwc.mma_band<>: the streaming
// kernels, ahead in priority order, take those widths otherwise.)
// CHECK-LABEL: func @band_auto
// CHECK: dwc.kernel = #dwc.mma_band<rows = 1, warp_channels = 16, filter_pairs = false, input_pairs = false, one_barrier = true, unroll = true, copy_split = true>
// CHECK: dwc.kernel = #dwc.mma_band<rows = 2, warp_channels = 8, filter_pairs = false, input_pairs = false, one_barrier = false, unroll = true, copy_split = true>
// CHECK: dwc.kernel = #dwc.mma_band<rows = 2, warp_channels = 8, filter_pairs = false, input_pairs = false, one_barrier = true, unroll = true, copy_split = true>
// CHECK: dwc.kernel = #dwc.mma_band<rows = 1, warp_channels = 16, filter_pairs = true, input_pairs = false, one_barrier = true, unroll = true, copy_split = true>
// CHECK: dwc.kernel = #dwc.mma_band<rows = 1, warp_channels = 16, filter_pairs = false, input_pairs = false, one_barrier = true, unroll = true, copy_split = true>
// CHECK: dwc.kernel = #dwc.mma_band<rows = 1, warp_channels = 16, filter_pairs = true, input_pairs = false, one_barrier = false, unroll = true, copy_split = true>
// WHY: remark: dwc.kernel = #dwc.mma_band<rows = 1, warp_channels = 16, filter_pairs = false, input_pairs = false, one_barrier = true, unroll = true, copy_split = true>: chosen
func.func @band_auto(%xs: memref<1x8x32x64xf16>, %w31: memref<31x31x64xf16>, %ys: memref<1x8x32x64xf16>,
                     %x: memref<128x64x64x256xf16>, %w31b: memref<31x31x256xf16>, %w51: memref<51x51x256xf16>,
                     %w17: memref<17x17x256xf16>, %w9: memref<9x9x256xf16>, %y: memref<128x64x64x256xf16>,
                     %x128: memref<64x32x128x256xf16>, %y128: memref<64x32x128x256xf16>) {
  dwc.depthwise_conv2d ins(%xs, %w31 : memref<1x8x32x64xf16>, memref<31x31x64xf16>) outs(%ys : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [15, 15, 15, 15] {dwc.kernel = #dwc.mma_band<>}
  dwc.depthwise_conv2d ins(%x, %w31b : memref<128x64x64x256xf16>, memref<31x31x256xf16>) outs(%y : memref<128x64x64x256xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [15, 15, 15, 15] {dwc.kernel = #dwc.mma_band<>}
  dwc.depthwise_conv2d ins(%x, %w51 : memref<128x64x64x256xf16>, memref<51x51x256xf16>) outs(%y : memref<128x64x64x256xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [25, 25, 25, 25] {dwc.kernel = #dwc.mma_band<>}
  dwc.depthwise_conv2d ins(%x, %w17 : memref<128x64x64x256xf16>, memref<17x17x256xf16>) outs(%y : memref<128x64x64x256xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [8, 8, 8, 8] {dwc.kernel = #dwc.mma_band<>}
  dwc.depthwise_conv2d ins(%x, %w9 : memref<128x64x64x256xf16>, memref<9x9x256xf16>) outs(%y : memref<128x64x64x256xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4]
  dwc.depthwise_conv2d ins(%x128, %w9 : memref<64x32x128x256xf16>, memref<9x9x256xf16>) outs(%y128 : memref<64x32x128x256xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4]
  return
}

// -----

// Stride-1 backward data takes the same kernels (bf16, rotated filter).
// CHECK-LABEL: func @band_backward_data
// CHECK: dwc.depthwise_conv2d_backward_data {{.*}} {dwc.kernel = #dwc.mma_band<rows = 1, warp_channels = 16, filter_pairs = false, input_pairs = false, one_barrier = true, unroll = true, copy_split = true>}
func.func @band_backward_data(%dy: memref<1x4x128x64xbf16>, %w: memref<9x9x64xbf16>, %dx: memref<1x4x128x64xbf16>) {
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<1x4x128x64xbf16>, memref<9x9x64xbf16>) outs(%dx : memref<1x4x128x64xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4]
  return
}

// -----

// Other chips: the fixed configuration (one row of 16 channels per warp,
// filter pairs, two barriers).
// CHECK-LABEL: func @band_sm80
// CHECK: dwc.kernel = #dwc.mma_band<rows = 1, warp_channels = 16, filter_pairs = true, input_pairs = false, one_barrier = false, unroll = true, copy_split = true>
module attributes {dwc.target = #dwc.target<chip = "sm_80", features = "+ptx80", sm_count = 108, shared_memory_per_block = 166912, shared_memory_per_sm = 167936, threads_per_sm = 2048, registers_per_sm = 65536>} {
func.func @band_sm80(%x: memref<128x64x64x256xf16>, %w: memref<31x31x256xf16>, %y: memref<128x64x64x256xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<128x64x64x256xf16>, memref<31x31x256xf16>) outs(%y : memref<128x64x64x256xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [15, 15, 15, 15] {dwc.kernel = #dwc.mma_band<>}
  return
}
}

// -----

// FW = 99 on 4-row tiles: the band ring (138672 bytes without pairs) and
// the fragment row ring (178704) exceed 112 KB: one width-9 fragment per
// stage.
// CHECK-LABEL: func @fragment_stages
// CHECK: dwc.kernel = #dwc.mma_ring<ring = false, frags_per_stage = 1, warp_channels = 16>
// WHY: remark: dwc.kernel = #dwc.mma_ring<ring = false, frags_per_stage = 1, warp_channels = 16>: chosen; refused: {{.*}}mma_band (the band ring exceeds the 112 KB budget of shared memory)
func.func @fragment_stages(%x: memref<1x8x32x64xf16>, %w: memref<99x99x64xf16>, %y: memref<1x8x32x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<99x99x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [49, 49, 49, 49]
  return
}

// -----

// Partial configurations: the fields given stay, the others are chosen
// (given, the family takes filters narrower than 9 too).
// CHECK-LABEL: func @partial
// CHECK: dwc.kernel = #dwc.mma_band<rows = 2, warp_channels = 16, filter_pairs = false, input_pairs = false, one_barrier = true, unroll = true, copy_split = true>
// CHECK: dwc.kernel = #dwc.mma_band<rows = 1, warp_channels = 16, filter_pairs = false, input_pairs = true, one_barrier = true, unroll = false, copy_split = true, min_blocks_per_sm = 1>
// CHECK: dwc.kernel = #dwc.mma_ring<ring = true, frags_per_stage = 1, warp_channels = 8>
// CHECK: dwc.kernel = #dwc.mma_ring<ring = false, frags_per_stage = 1, warp_channels = 16>
// CHECK: dwc.kernel = #dwc.mma_ring<ring = true, frags_per_stage = 4, warp_channels = 16>
// WHY: remark: dwc.kernel = #dwc.mma_band<rows = 2, warp_channels = 16, filter_pairs = false, input_pairs = false, one_barrier = true, unroll = true, copy_split = true>: chosen
func.func @partial(%x: memref<1x8x32x64xf16>, %w31: memref<31x31x64xf16>, %w3: memref<3x3x64xf16>, %y: memref<1x8x32x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w31 : memref<1x8x32x64xf16>, memref<31x31x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [15, 15, 15, 15] {dwc.kernel = #dwc.mma_band<rows = 2>}
  dwc.depthwise_conv2d ins(%x, %w31 : memref<1x8x32x64xf16>, memref<31x31x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [15, 15, 15, 15] {dwc.kernel = #dwc.mma_band<input_pairs = true, unroll = false, min_blocks_per_sm = 1>}
  dwc.depthwise_conv2d ins(%x, %w3 : memref<1x8x32x64xf16>, memref<3x3x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.mma_ring<warp_channels = 8>}
  dwc.depthwise_conv2d ins(%x, %w31 : memref<1x8x32x64xf16>, memref<31x31x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [15, 15, 15, 15] {dwc.kernel = #dwc.mma_ring<ring = false>}
  dwc.depthwise_conv2d ins(%x, %w31 : memref<1x8x32x64xf16>, memref<31x31x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [15, 15, 15, 15] {dwc.kernel = #dwc.mma_ring<>}
  return
}

// -----

// Refusals: the family leaves narrow filters to the GEMV kernel, and takes
// no f32, strided, dilated, C % 8 != 0 or tensor-form op, nor a padding
// whose transposed padding is negative.
// CHECK-LABEL: func @refusals
// CHECK-NOT: dwc.kernel = #dwc.mma
// CHECK: return
// WHY: mma_band (filter narrower than 9 (the GEMV kernel is faster)); mma_ring (filter narrower than 9 (the GEMV kernel is faster))
// WHY: mma_band (element type is not f16 or bf16)
// WHY: mma_band (stride is not 1)
// WHY: mma_band (dilation is not 1)
// WHY: mma_band (channel count is not a multiple of 8)
// WHY: mma_band (padding larger than the filter extent minus one (negative transposed padding))
func.func @refusals(%x: memref<1x8x32x64xf16>, %w3: memref<3x3x64xf16>, %y: memref<1x8x32x64xf16>,
                    %xf: memref<1x16x32x64xf32>, %wf: memref<9x9x64xf32>, %yf: memref<1x16x32x64xf32>,
                    %w9: memref<9x9x64xf16>, %y2: memref<1x4x16x64xf16>,
                    %x13: memref<1x8x32x13xf16>, %w13: memref<9x9x13xf16>, %y13: memref<1x8x32x13xf16>,
                    %dyw: memref<1x8x42x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w3 : memref<1x8x32x64xf16>, memref<3x3x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d ins(%xf, %wf : memref<1x16x32x64xf32>, memref<9x9x64xf32>) outs(%yf : memref<1x16x32x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4]
  dwc.depthwise_conv2d ins(%x, %w9 : memref<1x8x32x64xf16>, memref<9x9x64xf16>) outs(%y2 : memref<1x4x16x64xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [4, 4, 4, 4]
  dwc.depthwise_conv2d ins(%x, %w9 : memref<1x8x32x64xf16>, memref<9x9x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [2, 2] padding = [8, 8, 8, 8]
  dwc.depthwise_conv2d ins(%x13, %w13 : memref<1x8x32x13xf16>, memref<9x9x13xf16>) outs(%y13 : memref<1x8x32x13xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4]
  dwc.depthwise_conv2d_backward_data ins(%dyw, %w9 : memref<1x8x42x64xf16>, memref<9x9x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 9, 9]
  return
}
