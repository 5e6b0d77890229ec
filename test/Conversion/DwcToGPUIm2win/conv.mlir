// convert-dwc-to-gpu-im2win on small memref-form conv2d ops configured by
// dwc-select-kernels: the f32 CUDA-core kernel, the f16 tensor-core kernel,
// the element-wise gather for C = 3, and the fields of the configuration
// (separate im2win tensor, no cp.async, one buffer, no precomputed offsets)
// given as partial configurations on copies of the f32 op.
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-im2win -split-input-file | FileCheck %s
// RUN: dwc-opt %s --dwc-select-kernels -split-input-file | FileCheck %s --check-prefix=CONFIG

// OC = 64: 256 x 64 tiles, 16 x 16 threads of 16 rows x 4 channels; K tiles
// of 16 (C = 32: two tiles per filter tap), cp.async into two buffers.
// The kernel is outlined by the pass (gpu.module @<func>_im2win_simt) to
// carry its launch bounds.
// CHECK-LABEL: func @f32
// CHECK: gpu.launch_func @f32_im2win_simt::@f32_im2win_simt blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%c256{{.*}}) args(%{{.*}} : memref<2x8x8x32xf32>, %{{.*}} : memref<3x3x32x64xf32>, %{{.*}} : memref<2x8x8x64xf32>)
// CHECK: gpu.module @f32_im2win_simt
// CHECK: gpu.func @f32_im2win_simt({{.*}}) workgroup(%{{.*}} : memref<2x256x16xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<2x16x64xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK: memref.collapse_shape %{{.*}} {{\[\[}}0, 1, 2, 3]] : memref<2x8x8x32xf32> into memref<4096xf32>
// CHECK: nvgpu.device_async_copy {{.*}} 4, %{{.*}} : memref<4096xf32> to memref<2x256x16xf32, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_create_group
// CHECK: scf.for
// CHECK: nvgpu.device_async_copy
// CHECK: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// CHECK: gpu.barrier
// CHECK-COUNT-64: vector.fma
// CHECK: gpu.barrier
// CHECK: scf.yield
// CHECK: vector.store %{{.*}} : memref<128x64xf32>, vector<4xf32>
// CHECK-NOT: dwc.conv2d
// CONFIG-LABEL: func @f32
// CONFIG: dwc.kernel = #dwc.im2win_simt<tile_n = 64, stages = 2, min_blocks_per_sm = 1, precompute = true, async_copy = true, im2win_tensor = false>
func.func @f32(%x: memref<2x8x8x32xf32>, %w: memref<3x3x32x64xf32>, %y: memref<2x8x8x64xf32>) {
  dwc.conv2d ins(%x, %w : memref<2x8x8x32xf32>, memref<3x3x32x64xf32>) outs(%y : memref<2x8x8x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// f16: mma.sync (no wgmma on the default sm_90 target), 128 x 128 tiles (OC = 128), K tiles of 32 in a
// 3-stage cp.async pipeline (48 KB; tiles t+1 and t+2 in flight); B
// fragments by ldmatrix.trans, 16 mma.sync per k16 step and warp.
// With a bias, one block per SM (no nvvm.minctasm; see the layers test).
// CHECK-LABEL: func @f16
// CONFIG-LABEL: func @f16
// CONFIG: dwc.kernel = #dwc.im2win_mma<tile_n = 128, stages = 3, min_blocks_per_sm = 1, precompute = true, async_copy = true, im2win_tensor = false, swizzle = true>
// CHECK: gpu.func @f16_im2win_mma({{.*}}) workgroup(%{{.*}} : memref<3x128x32xf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<3x32x128xf16, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK: nvgpu.device_async_copy {{.*}} 8, %{{.*}} : memref<{{.*}}xf16> to memref<3x128x32xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_create_group
// CHECK: nvgpu.device_async_create_group
// CHECK: scf.for
// CHECK: nvgpu.device_async_wait %{{.*}} {numGroups = 2 : i32}
// CHECK: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = true}
// CHECK-COUNT-32: nvgpu.mma.sync
// CHECK: scf.yield
// CHECK: arith.truncf %{{.*}} : vector<2xf32> to vector<2xf16>
func.func @f16(%x: memref<2x9x9x64xf16>, %w: memref<3x3x64x128xf16>, %b: memref<128xf16>, %y: memref<2x4x4x128xf16>) {
  dwc.conv2d ins(%x, %w : memref<2x9x9x64xf16>, memref<3x3x64x128xf16>) bias(%b : memref<128xf16>) outs(%y : memref<2x4x4x128xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [0, 0, 0, 0]
  return
}

// -----

// C = 3: the A tile is gathered element by element (no 16-byte chunk fits
// one pixel); B still by cp.async.
// CHECK-LABEL: func @c3
// CHECK: scf.for
// CHECK: memref.load %{{.*}} : memref<{{.*}}xf32>
// CHECK: nvgpu.device_async_copy
// CHECK: memref.store %{{.*}} : memref<2x256x16xf32, #gpu.address_space<workgroup>>
func.func @c3(%x: memref<1x15x15x3xf32>, %w: memref<3x3x3x64xf32>, %y: memref<1x7x7x64xf32>) {
  dwc.conv2d ins(%x, %w : memref<1x15x15x3xf32>, memref<3x3x3x64xf32>) outs(%y : memref<1x7x7x64xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [0, 0, 0, 0]
  return
}

// -----

// bf16: mma.sync through nvvm.mma.sync.
// CHECK-LABEL: func @bf16
// CHECK: nvgpu.ldmatrix
// CHECK: nvvm.mma.sync
func.func @bf16(%x: memref<1x8x8x32xbf16>, %w: memref<3x3x32x64xbf16>, %y: memref<1x8x8x64xbf16>) {
  dwc.conv2d ins(%x, %w : memref<1x8x8x32xbf16>, memref<3x3x32x64xbf16>) outs(%y : memref<1x8x8x64xbf16>)
    strides = [1, 1] dilations = [2, 2] padding = [2, 2, 2, 2]
  return
}

// -----

// im2win_tensor: the separate transform into a temporary.
// CHECK-LABEL: func @f32_tensor
// CHECK: %[[R:.*]] = memref.alloc() : memref<2x8x10x3x32xf32>
// CHECK: dwc.im2win ins(%{{.*}} : memref<2x8x8x32xf32>) outs(%[[R]] : memref<2x8x10x3x32xf32>) window = [3, 3] strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
// CHECK: gpu.launch_func {{.*}} args(%[[R]] : memref<2x8x10x3x32xf32>
// CHECK: memref.dealloc %[[R]]
// CHECK: memref.collapse_shape %{{.*}} {{\[\[}}0, 1, 2, 3, 4]] : memref<2x8x10x3x32xf32>
func.func @f32_tensor(%x: memref<2x8x8x32xf32>, %w: memref<3x3x32x64xf32>, %y: memref<2x8x8x64xf32>) {
  dwc.conv2d ins(%x, %w : memref<2x8x8x32xf32>, memref<3x3x32x64xf32>) outs(%y : memref<2x8x8x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.im2win_simt<im2win_tensor = true>}
  return
}

// -----

// One buffer and register-staged loads (stages = 1, async_copy = false).
// CHECK-LABEL: func @f32_plain
// CHECK: workgroup(%{{.*}} : memref<1x256x16xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<1x16x64xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: scf.for
// CHECK: vector.load %{{.*}} : memref<4096xf32>, vector<4xf32>
// CHECK: vector.store %{{.*}} : memref<1x256x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: gpu.barrier
// CHECK: vector.fma
func.func @f32_plain(%x: memref<2x8x8x32xf32>, %w: memref<3x3x32x64xf32>, %y: memref<2x8x8x64xf32>) {
  dwc.conv2d ins(%x, %w : memref<2x8x8x32xf32>, memref<3x3x32x64xf32>) outs(%y : memref<2x8x8x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.im2win_simt<stages = 1, async_copy = false>}
  return
}

// -----

// precompute = false: offsets recomputed from (m, k) for every copy.
// CHECK-LABEL: func @f32_nopre
// CHECK: scf.for
// CHECK: arith.divui
// CHECK: nvgpu.device_async_copy
func.func @f32_nopre(%x: memref<2x8x8x32xf32>, %w: memref<3x3x32x64xf32>, %y: memref<2x8x8x64xf32>) {
  dwc.conv2d ins(%x, %w : memref<2x8x8x32xf32>, memref<3x3x32x64xf32>) outs(%y : memref<2x8x8x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.im2win_simt<precompute = false>}
  return
}
