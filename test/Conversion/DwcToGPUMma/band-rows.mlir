// Band rows, one barrier per stage and the per-shape choice of
// dwc-select-kernels (#dwc.mma_band). rows = 2: each warp multiplies two
// spatial tiles stacked along the height with the B registers of a slice
// loaded once; the block owns 2R output rows and 2R + 1 ring slots.
// one_barrier: one more ring slot, a third filter buffer, no barrier after
// the multiplies. The AUTO run: what dwc-select-kernels picks per convolution on
// sm_90 (config-mma.mlir has the attributes; #dwc.mma_band<> names
// the family, which the streaming kernels would take otherwise). The index math and the
// refill hazards are checked by band-model.test. (KERNEL: the
// configuration each RUN line writes.)
// RUN: sed 's/KERNEL/mma_band<rows = 2, warp_channels = 16, filter_pairs = true, input_pairs = false, one_barrier = false, unroll = false, copy_split = false>/' %s | dwc-opt --convert-dwc-to-gpu-mma --canonicalize --cse -split-input-file | FileCheck %s --check-prefix=ROWS
// RUN: sed 's/KERNEL/mma_band<rows = 1, warp_channels = 16, filter_pairs = false, input_pairs = false, one_barrier = true, unroll = false, copy_split = false>/' %s | dwc-opt --convert-dwc-to-gpu-mma --canonicalize --cse -split-input-file | FileCheck %s --check-prefix=OB
// RUN: sed 's/KERNEL/mma_band<>/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-mma --canonicalize --cse -split-input-file | FileCheck %s --check-prefix=AUTO

// OW = 32 -> G = 4, R = 4; OH = 8: two tiles of 4 rows, one block. Ring:
// 2 x 4 + 1 = 9 slots x 77 positions (693), filter pairs 2 x 54; 129168
// bytes (dynamic).
// ROWS-LABEL: func @band31
// ROWS: gpu.launch blocks({{.*}}) in (%{{.*}} = %c1, {{.*}} threads({{.*}}) in (%{{.*}} = %c128, {{.*}} dynamic_shared_memory_size %c129168_i32
// ROWS: memref.view {{.*}} to memref<1x693x72xf16, #gpu.address_space<workgroup>>
// ROWS: memref.view {{.*}}[%c99792][] : {{.*}} to memref<2x54x136xf16, #gpu.address_space<workgroup>>
// 2 tiles x 2 chunks x 8 channels: 32 accumulators; the slices carry them
// and 32 block registers.
// ROWS: %{{.*}}:32 = scf.for %{{.*}} = %c0 to %c31 step %c1
// ROWS: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// ROWS-NEXT: gpu.barrier
// ROWS: %{{.*}}:64 = scf.for %{{.*}} = %c0 to %c3 step %c1
// Per chunk: tile 0's blocks (4 loads), the B pairs (4 loads, once for
// both tiles), 8 mma; tile 1's blocks, 8 mma.
// ROWS-COUNT-4: vector.load %{{.*}} : memref<1x693x72xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// ROWS-COUNT-4: vector.load %{{.*}} : memref<2x54x136xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// ROWS-COUNT-8: nvgpu.mma.sync
// ROWS-COUNT-4: vector.load %{{.*}} : memref<1x693x72xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// ROWS-NOT: memref<2x54x136xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// ROWS-COUNT-8: nvgpu.mma.sync
// ROWS: scf.yield
// ROWS: gpu.barrier
// Epilogue: 2 tiles x 2 chunks x 4 positions.
// ROWS-COUNT-16: vector.store %{{.*}}, %arg2
// ROWS-NOT: vector.store


// One barrier: R + 2 = 6 slots (462 positions), three filter buffers.
// OB-LABEL: func @band31
// OB: dynamic_shared_memory_size %c90288_i32
// OB: memref.view {{.*}} to memref<1x462x72xf16, #gpu.address_space<workgroup>>
// OB: memref.view {{.*}}[%c66528][] : {{.*}} to memref<3x55x72xf16, #gpu.address_space<workgroup>>
// OB: scf.for %{{.*}} = %c0 to %c31 step %c1
// OB: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// OB-NEXT: gpu.barrier
// OB: nvgpu.mma.sync
// OB-NOT: gpu.barrier
// OB: vector.store %{{.*}}, %arg2

// band-auto on a small grid (2 blocks): one row, filter rows (no pair
// workspace, no first kernel), one barrier.
// AUTO-LABEL: func @band31
// AUTO-NOT: memref.alloc
// AUTO: threads({{.*}}) in (%{{.*}} = %c128, {{.*}} dynamic_shared_memory_size %c90288_i32
// AUTO: memref<3x55x72xf16, #gpu.address_space<workgroup>>
// AUTO-NOT: gpu.barrier
// AUTO: nvgpu.device_async_wait
// AUTO-NEXT: gpu.barrier
// AUTO-NOT: gpu.barrier
// AUTO: vector.store %{{.*}}, %arg2
func.func @band31(%x: memref<1x8x32x64xf16>, %w: memref<31x31x64xf16>, %y: memref<1x8x32x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<31x31x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [15, 15, 15, 15] {dwc.kernel = #dwc.KERNEL}
  return
}

// -----

// OH = 4 = R: a requested rows = 2 is kept (dwc-select-kernels halves only
// rows it chose), the second tile wholly below the output: one block of 8
// rows, its stores masked.
// ROWS-LABEL: func @short31
// ROWS: gpu.launch blocks({{.*}}) in (%{{.*}} = %c1, {{.*}} threads({{.*}}) in (%{{.*}} = %c128, {{.*}} dynamic_shared_memory_size %c129168_i32
// ROWS: memref<1x693x72xf16, #gpu.address_space<workgroup>>
// ROWS: %{{.*}}:32 = scf.for %{{.*}} = %c0 to %c31 step %c1
// ROWS: arith.cmpi slt, %{{.*}}, %c4 : index
func.func @short31(%x: memref<1x4x32x64xf16>, %w: memref<31x31x64xf16>, %y: memref<1x4x32x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x4x32x64xf16>, memref<31x31x64xf16>) outs(%y : memref<1x4x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [15, 15, 15, 15] {dwc.kernel = #dwc.KERNEL}
  return
}

// -----

// band-auto on 4096 x 4 blocks of two rows, FW = 31 (3 slices): two rows,
// 8 warps of 8 channels, filter rows, two barriers; 5 slots x 111
// positions + 2 x 55 filter positions.
// AUTO-LABEL: func @auto31
// AUTO-NOT: memref.alloc
// AUTO: gpu.launch blocks({{.*}}) in (%{{.*}} = %c2048, %{{.*}} = %c4, {{.*}} threads({{.*}}) in (%{{.*}} = %c256, {{.*}} dynamic_shared_memory_size %c95760_i32
// AUTO: memref<1x555x72xf16, #gpu.address_space<workgroup>>
// AUTO: memref<2x55x72xf16, #gpu.address_space<workgroup>>
// 2 tiles x 8 channels.
// AUTO: %{{.*}}:16 = scf.for %{{.*}} = %c0 to %c31 step %c1
// AUTO: gpu.barrier
// AUTO-COUNT-48: nvgpu.mma.sync
// AUTO-NOT: nvgpu.mma.sync
// AUTO: gpu.barrier
func.func @auto31(%x: memref<128x64x64x256xf16>, %w: memref<31x31x256xf16>, %y: memref<128x64x64x256xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<128x64x64x256xf16>, memref<31x31x256xf16>) outs(%y : memref<128x64x64x256xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [15, 15, 15, 15] {dwc.kernel = #dwc.mma_band<>}
  return
}

// -----

// FW = 51 (4 slices) on tiles of 2 rows: two rows and one barrier (6
// slots x 128 positions, three filter buffers of 71 positions).
// AUTO-LABEL: func @auto51
// AUTO: threads({{.*}}) in (%{{.*}} = %c256, {{.*}} dynamic_shared_memory_size %c141264_i32
// AUTO: memref<1x768x72xf16, #gpu.address_space<workgroup>>
// AUTO: memref<3x71x72xf16, #gpu.address_space<workgroup>>
// AUTO: gpu.barrier
// AUTO-COUNT-64: nvgpu.mma.sync
// AUTO-NOT: gpu.barrier
// AUTO: vector.store %{{.*}}, %arg2
func.func @auto51(%x: memref<128x64x64x256xf16>, %w: memref<51x51x256xf16>, %y: memref<128x64x64x256xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<128x64x64x256xf16>, memref<51x51x256xf16>) outs(%y : memref<128x64x64x256xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [25, 25, 25, 25] {dwc.kernel = #dwc.mma_band<>}
  return
}

// -----

// FW = 17 (2 slices) on tiles of 2 rows: one row, 16 channels per warp,
// filter pairs (workspace written by a first kernel), one barrier.
// AUTO-LABEL: func @auto17
// AUTO: memref.alloc() : memref<17x38x512xf16>
// AUTO: threads({{.*}}) in (%{{.*}} = %c128, {{.*}} dynamic_shared_memory_size %c85152_i32
// AUTO: memref<3x38x136xf16, #gpu.address_space<workgroup>>
// AUTO: gpu.barrier
// AUTO-COUNT-32: nvgpu.mma.sync
// AUTO-NOT: gpu.barrier
// AUTO: vector.store %{{.*}}, %arg2
func.func @auto17(%x: memref<128x64x64x256xf16>, %w: memref<17x17x256xf16>, %y: memref<128x64x64x256xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<128x64x64x256xf16>, memref<17x17x256xf16>) outs(%y : memref<128x64x64x256xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [8, 8, 8, 8] {dwc.kernel = #dwc.mma_band<>}
  return
}
