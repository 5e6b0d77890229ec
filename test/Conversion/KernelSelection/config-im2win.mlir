// dwc-select-kernels on dense conv2d ops: which im2win configuration each
// benchmark layer shape gets on sm_90 and sm_90a (each split carries its
// target), partial configurations completed, and the refusals
// (dwc-select-kernels{diagnose} remarks). Evidence: docs/KernelSelection.md,
// "dense conv2d".
// RUN: dwc-opt %s --dwc-select-kernels="diagnose=true" -split-input-file -verify-diagnostics | FileCheck %s

// f32 on CUDA cores: 128 x 128 tiles (OC > 64), 3 stages of 16 KB.
// CHECK-LABEL: func @cv8_f32
// CHECK: dwc.kernel = #dwc.im2win_simt<tile_n = 128, stages = 3, min_blocks_per_sm = 1, precompute = true, async_copy = true, im2win_tensor = false>
func.func @cv8_f32(%x: memref<128x112x112x64xf32>, %w: memref<3x3x64x128xf32>, %y: memref<128x110x110x128xf32>) {
  // expected-remark @+1 {{dwc.kernel = #dwc.im2win_simt<tile_n = 128, stages = 3, min_blocks_per_sm = 1, precompute = true, async_copy = true, im2win_tensor = false>: chosen; refused: }}
  dwc.conv2d ins(%x, %w : memref<128x112x112x64xf32>, memref<3x3x64x128xf32>) outs(%y : memref<128x110x110x128xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0]
  return
}

// -----

// OC <= 64: 256 x 64 tiles, 2 stages of 20 KB within 48 KB.
// CHECK-LABEL: func @cv9_f32
// CHECK: #dwc.im2win_simt<tile_n = 64, stages = 2,
func.func @cv9_f32(%x: memref<128x56x56x64xf32>, %w: memref<3x3x64x64xf32>, %y: memref<128x54x54x64xf32>) {
  // expected-remark @+1 {{refused: im2win_wgmma (target sm_90 has no wgmma (sm_90a has)); im2win_mma (element type is f32)}}
  dwc.conv2d ins(%x, %w : memref<128x56x56x64xf32>, memref<3x3x64x64xf32>) outs(%y : memref<128x54x54x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0]
  return
}

// -----

// f16 on sm_90: mma.sync (no wgmma), 128 x 128 tiles, 3 stages.
// CHECK-LABEL: func @cv8_f16_sm90
// CHECK: dwc.kernel = #dwc.im2win_mma<tile_n = 128, stages = 3, min_blocks_per_sm = 1, precompute = true, async_copy = true, im2win_tensor = false, swizzle = true>
func.func @cv8_f16_sm90(%x: memref<128x112x112x64xf16>, %w: memref<3x3x64x128xf16>, %y: memref<128x110x110x128xf16>) {
  // expected-remark @+1 {{refused: im2win_wgmma (target sm_90 has no wgmma (sm_90a has))}}
  dwc.conv2d ins(%x, %w : memref<128x112x112x64xf16>, memref<3x3x64x128xf16>) outs(%y : memref<128x110x110x128xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0]
  return
}

// -----

// f16 on sm_90a: wgmma, two warpgroups (12100 tiles of 128 rows >= 2048), 3
// stages of 32 KB in dynamic shared memory, both operands by TMA (C % 64 == 0,
// unit strides).
// CHECK-LABEL: func @cv8_f16
// CHECK: dwc.kernel = #dwc.im2win_wgmma<warpgroups = 2, n = 128, stages = 3, barriers = 2, min_blocks_per_sm = 1, overlap = false, specialize = false, tma_filter = true, tma_im2col = true, staged_stores = true, precompute = true, im2win_tensor = false>
module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @cv8_f16(%x: memref<128x112x112x64xf16>, %w: memref<3x3x64x128xf16>, %y: memref<128x110x110x128xf16>) {
    // expected-remark @+1 {{dwc.kernel = #dwc.im2win_wgmma<warpgroups = 2, n = 128, stages = 3}}
    dwc.conv2d ins(%x, %w : memref<128x112x112x64xf16>, memref<3x3x64x128xf16>) outs(%y : memref<128x110x110x128xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0]
    return
  }
}

// -----

// A small layer (100 tiles): one warpgroup, 2 static stages of 24 KB.
// CHECK-LABEL: func @cv12_f16
// CHECK: #dwc.im2win_wgmma<warpgroups = 1, n = 128, stages = 2, barriers = 2,
module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @cv12_f16(%x: memref<128x7x7x512xf16>, %w: memref<3x3x512x512xf16>, %y: memref<128x5x5x512xf16>) {
    // expected-remark @+1 {{im2win_wgmma<warpgroups = 1, n = 128, stages = 2}}
    dwc.conv2d ins(%x, %w : memref<128x7x7x512xf16>, memref<3x3x512x512xf16>) outs(%y : memref<128x5x5x512xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0]
    return
  }
}

// -----

// C = 3, 11 x 11 (363 elements): wgmma on channels padded to 4, cp.async
// gather (no im2col TMA for C = 3), stride 4.
// CHECK-LABEL: func @cv1_f16
// CHECK: #dwc.im2win_wgmma<warpgroups = 2, n = 128, stages = 3, barriers = 2, min_blocks_per_sm = 1, overlap = false, specialize = false, tma_filter = false, tma_im2col = false,
module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @cv1_f16(%x: memref<128x227x227x3xf16>, %w: memref<11x11x3x96xf16>, %y: memref<128x55x55x96xf16>) {
    // expected-remark @+1 {{im2win_wgmma<warpgroups = 2, n = 128, stages = 3}}
    dwc.conv2d ins(%x, %w : memref<128x227x227x3xf16>, memref<11x11x3x96xf16>) outs(%y : memref<128x55x55x96xf16>)
      strides = [4, 4] dilations = [1, 1] padding = [0, 0, 0, 0]
    return
  }
}

// -----

// C = 3, 3 x 3 (27 elements): padding costs more than it saves, mma.sync
// with the element-wise gather.
// CHECK-LABEL: func @cv7_f16
// CHECK: #dwc.im2win_mma<tile_n = 64, stages = 2,
module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @cv7_f16(%x: memref<128x224x224x3xf16>, %w: memref<3x3x3x64xf16>, %y: memref<128x222x222x64xf16>) {
    // expected-remark @+1 {{refused: im2win_wgmma (C % 4 != 0 with a window of fewer than 64 elements (the mma.sync gather is faster than padding the channels))}}
    dwc.conv2d ins(%x, %w : memref<128x224x224x3xf16>, memref<3x3x3x64xf16>) outs(%y : memref<128x222x222x64xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0]
    return
  }
}

// -----

// ... unless the op asks for the warpgroup kernel: completed, padded.
// CHECK-LABEL: func @asked_c3
// CHECK: #dwc.im2win_wgmma<warpgroups = 1, n = 64, stages = 3,
module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @asked_c3(%x: memref<1x16x16x3xf16>, %w: memref<3x3x3x64xf16>, %y: memref<1x14x14x64xf16>) {
    // expected-remark @+1 {{dwc.kernel = #dwc.im2win_wgmma<warpgroups = 1, n = 64, stages = 3}}
    dwc.conv2d ins(%x, %w : memref<1x16x16x3xf16>, memref<3x3x3x64xf16>) outs(%y : memref<1x14x14x64xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<>}
    return
  }
}

// -----

// A partial configuration keeps its fields; the rest are chosen (OC = 200
// with bias, bf16, padding).
// CHECK-LABEL: func @partial
// CHECK: #dwc.im2win_mma<tile_n = 128, stages = 2, min_blocks_per_sm = 1, precompute = false, async_copy = true, im2win_tensor = false, swizzle = true>
func.func @partial(%x: memref<2x17x19x24xbf16>, %w: memref<3x3x24x200xbf16>, %b: memref<200xbf16>, %y: memref<2x16x20x200xbf16>) {
  // expected-remark @+1 {{: chosen}}
  dwc.conv2d ins(%x, %w : memref<2x17x19x24xbf16>, memref<3x3x24x200xbf16>) bias(%b : memref<200xbf16>) outs(%y : memref<2x16x20x200xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 0, 2, 1] {dwc.kernel = #dwc.im2win_mma<stages = 2, precompute = false>}
  return
}

// -----

// A partial wgmma configuration: a given n above what OC needs is lowered
// to it, stages follow the tile.
// CHECK-LABEL: func @wgmma_partial
// CHECK: #dwc.im2win_wgmma<warpgroups = 2, n = 128, stages = 3, barriers = 1, min_blocks_per_sm = 1, overlap = false, specialize = false, tma_filter = false, tma_im2col = false,
module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @wgmma_partial(%x: memref<1x16x16x64xf16>, %w: memref<3x3x64x128xf16>, %y: memref<1x14x14x128xf16>) {
    // expected-remark @+1 {{: chosen}}
    dwc.conv2d ins(%x, %w : memref<1x16x16x64xf16>, memref<3x3x64x128xf16>) outs(%y : memref<1x14x14x128xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<warpgroups = 2, n = 256, barriers = 1>}
    return
  }
}

// -----

// A complete configuration is kept as given.
// CHECK-LABEL: func @complete
// CHECK: #dwc.im2win_simt<tile_n = 64, stages = 1, min_blocks_per_sm = 2, precompute = true, async_copy = false, im2win_tensor = true>
func.func @complete(%x: memref<1x8x8x16xf32>, %w: memref<3x3x16x128xf32>, %y: memref<1x6x6x128xf32>) {
  // expected-remark @+1 {{: given}}
  dwc.conv2d ins(%x, %w : memref<1x8x8x16xf32>, memref<3x3x16x128xf32>) outs(%y : memref<1x6x6x128xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_simt<tile_n = 64, stages = 1, min_blocks_per_sm = 2, precompute = true, async_copy = false, im2win_tensor = true>}
  return
}

// -----

// No im2win kernel for OC = 6 (not 128 bits): no configuration, the
// direct kernel takes it.
// CHECK-LABEL: func @oc6
// CHECK: dwc.conv2d
// CHECK-NOT: dwc.kernel = #dwc.im2win
func.func @oc6(%x: memref<1x8x8x3xf32>, %w: memref<3x3x3x6xf32>, %y: memref<1x6x6x6xf32>) {
  // expected-remark @+1 {{im2win_wgmma (output channel count is not a multiple of 128 bits); im2win_mma (output channel count is not a multiple of 128 bits); im2win_simt (output channel count is not a multiple of 128 bits)}}
  dwc.conv2d ins(%x, %w : memref<1x8x8x3xf32>, memref<3x3x3x6xf32>) outs(%y : memref<1x6x6x6xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0]
  return
}
