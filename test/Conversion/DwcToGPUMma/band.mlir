// #dwc.mma_band (band packing): ceil((FW + 7) / 16) K = 16 slices of each
// filter row's Toeplitz band on the row ring (gap position every 16
// columns), GEMV rows 2g and 2g + 1 sharing the lane's block registers,
// block 2p + 2 carried into slice p + 1; filter row v (7 zeros, taps,
// zeros) copied per stage with zero-fill. Fields: filter_pairs (workspace
// of (v[s], v[s+1]) pairs written by a first kernel), input_pairs
// (workspace of the input with column pairs interleaved per channel),
// warp_channels = 8 (8 warps), min_blocks_per_sm (marker for
// dwc-kernel-occupancy), unroll (no slice loop) and copy_split (copy i of
// a thread at position tid / P + i * threads / P, chunk tid mod P). The
// SMALL run: the per-fragment #dwc.mma_ring kernel dwc-select-kernels falls
// back to where the rings do not fit (config-mma.mlir); field ranges are
// verifier errors (kernel-configs-mma-invalid.mlir). The index math is
// checked by band-model.test. (KERNEL: the configuration each RUN line
// writes.)
// RUN: sed 's/KERNEL/mma_band<rows = 1, warp_channels = 16, filter_pairs = false, input_pairs = false, one_barrier = false, unroll = false, copy_split = false>/' %s | dwc-opt --convert-dwc-to-gpu-mma --canonicalize --cse -split-input-file | FileCheck %s
// RUN: sed 's/KERNEL/mma_band<rows = 1, warp_channels = 16, filter_pairs = true, input_pairs = false, one_barrier = false, unroll = false, copy_split = false>/' %s | dwc-opt --convert-dwc-to-gpu-mma --canonicalize --cse -split-input-file | FileCheck %s --check-prefix=FP
// RUN: sed 's/KERNEL/mma_band<rows = 1, warp_channels = 16, filter_pairs = false, input_pairs = true, one_barrier = false, unroll = false, copy_split = false>/' %s | dwc-opt --convert-dwc-to-gpu-mma --canonicalize --cse -split-input-file | FileCheck %s --check-prefix=IP
// RUN: sed 's/KERNEL/mma_band<rows = 1, warp_channels = 8, filter_pairs = false, input_pairs = false, one_barrier = false, unroll = false, copy_split = false, min_blocks_per_sm = 2>/' %s | dwc-opt --convert-dwc-to-gpu-mma --canonicalize --cse -split-input-file | FileCheck %s --check-prefix=W8
// RUN: sed 's/KERNEL/mma_ring<ring = false, frags_per_stage = 1, warp_channels = 16>/' %s | dwc-opt --convert-dwc-to-gpu-mma --canonicalize --cse -split-input-file | FileCheck %s --check-prefix=SMALL
// RUN: sed 's/KERNEL/mma_band<rows = 1, warp_channels = 16, filter_pairs = true, input_pairs = false, one_barrier = false, unroll = true, copy_split = true>/' %s | dwc-opt --convert-dwc-to-gpu-mma --canonicalize --cse -split-input-file | FileCheck %s --check-prefix=UNROLL

// OW = 32 -> G = 4 groups x R = 4 rows; FW = 31 -> 3 slices (K = 48 >=
// 31 + 7). Ring: 5 slots x (32 + 48 - 8 = 72 columns + 5 gaps = 77
// positions) x 72 elements = 55440 bytes; filter rows 2 x (48 + 7 = 55)
// positions: 71280 bytes, dynamic.
// CHECK-LABEL: func @band31
// CHECK-NOT: memref.alloc
// CHECK: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c128, {{.*}} dynamic_shared_memory_size %c71280_i32
// CHECK: %[[IN:.*]] = memref.view {{.*}} to memref<1x385x72xf16, #gpu.address_space<workgroup>>
// CHECK: %[[Z:.*]] = memref.view {{.*}}[%c55440][] : {{.*}} to memref<2x55x72xf16, #gpu.address_space<workgroup>>
// Prologue: input rows 0..3, then filter row 0 (55 positions x 8 chunks,
// zero-filled outside the taps), one group.
// CHECK: nvgpu.device_async_copy %arg0[{{.*}}], %[[IN]][%c0, {{.*}}], 8, %{{.*}} : memref<1x8x32x64xf16>
// CHECK: nvgpu.device_async_copy %arg1[%c0, {{.*}}], %[[Z]][%c0, {{.*}}], 8, %{{.*}} {bypassL1} : memref<31x31x64xf16>
// CHECK: nvgpu.device_async_create_group
// CHECK: scf.for %{{.*}} = %c0 to %c31 step %c1
// CHECK: nvgpu.device_async_create_group
// CHECK-NEXT: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// CHECK-NEXT: gpu.barrier
// Block 0 of both chunks: 2 x 2 loads, 8 pairs each.
// CHECK-COUNT-2: vector.load %[[IN]]
// CHECK-COUNT-8: vector.from_elements %{{.*}}, %{{.*}} : vector<2xf16>
// CHECK-COUNT-2: vector.load %[[IN]]
// The slices carry 16 accumulators and 16 block registers.
// CHECK: %{{.*}}:32 = scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args({{.*}}) -> (vector<2x2xf32>, {{.*}}, vector<2x2xf32>, vector<2xf16>, {{.*}}, vector<2xf16>)
// Per chunk: blocks 2p + 1, 2p + 2 (4 loads), 4 filter loads, 8 mma.
// CHECK-COUNT-4: vector.load %[[IN]]
// CHECK-COUNT-4: vector.load %[[Z]]
// CHECK-COUNT-8: nvgpu.mma.sync
// CHECK-COUNT-4: vector.load %[[IN]]
// CHECK-COUNT-4: vector.load %[[Z]]
// CHECK-COUNT-8: nvgpu.mma.sync
// CHECK-NOT: nvgpu.mma.sync
// CHECK: scf.yield
// CHECK: gpu.barrier
// CHECK-COUNT-8: vector.store

// FP-LABEL: func @band31
// Workspace of the pairs: 31 rows x (48 + 6) pairs x 2 x 64 channels,
// written by a first kernel (31 x 54 x 8 = 13392 threads in 105 blocks).
// FP: %[[WS:.*]] = memref.alloc() : memref<31x54x128xf16>
// FP: gpu.launch {{.*}} in (%{{.*}} = %c105, {{.*}} threads({{.*}}) in (%{{.*}} = %c128,
// FP-COUNT-2: vector.load %arg1
// FP: vector.shuffle %{{.*}}, %{{.*}} [0, 8, 1, 9, 2, 10, 3, 11] : vector<8xf16>, vector<8xf16>
// FP: vector.store %{{.*}}, %[[WS]]
// FP: vector.shuffle %{{.*}}, %{{.*}} [4, 12, 5, 13, 6, 14, 7, 15] : vector<8xf16>, vector<8xf16>
// FP: vector.store %{{.*}}, %[[WS]]
// Main kernel: 55440 + 2 x 54 x 272 bytes.
// FP: gpu.launch {{.*}} dynamic_shared_memory_size %c84816_i32
// FP: %[[Z:.*]] = memref.view {{.*}}[%c55440][] : {{.*}} to memref<2x54x136xf16, #gpu.address_space<workgroup>>
// FP: nvgpu.device_async_copy %[[WS]][%c0, {{.*}}], %[[Z]][%c0, {{.*}}], 8, %c8 {bypassL1} : memref<31x54x128xf16>
// FP: scf.for %{{.*}} = %c0 to %c3 step %c1
// B registers straight from the pair loads: no B packing.
// FP-COUNT-4: vector.load %{{.*}} : memref<1x385x72xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// FP-COUNT-4: vector.load %[[Z]]
// FP: nvgpu.mma.sync
// FP: memref.dealloc %[[WS]] : memref<31x54x128xf16>

// IP-LABEL: func @band31
// Input workspace: column pairs from -1 (padding 15 is odd): 17 pairs of
// 2 x 64 channels per row, written by a first kernel.
// IP: %[[XP:.*]] = memref.alloc() : memref<1x8x17x128xf16>
// IP: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c256,
// IP: vector.shuffle
// IP: vector.store %{{.*}}, %[[XP]]
// Ring: 5 slots x 36 pair positions x 256 bytes (46080) + filter rows.
// IP: gpu.launch {{.*}} dynamic_shared_memory_size %c61920_i32
// IP: %[[IN:.*]] = memref.view {{.*}} to memref<1x180x128xf16, #gpu.address_space<workgroup>>
// IP: arith.xori
// IP: nvgpu.device_async_copy %[[XP]][{{.*}}], %[[IN]][%c0, {{.*}}], 8, %{{.*}} : memref<1x8x17x128xf16>
// IP: scf.for %{{.*}} = %c0 to %c3 step %c1
// A registers straight from the pair loads (8-element loads, 2-element
// shuffles): no A packing.
// IP-NOT: vector.from_elements {{.*}} : vector<2xf16>
// IP: vector.load %[[IN]]
// IP: vector.shuffle %{{.*}}, %{{.*}} [0, 1] : vector<8xf16>, vector<8xf16>
// IP: nvgpu.mma.sync
// IP: memref.dealloc %[[XP]] : memref<1x8x17x128xf16>

// W8-LABEL: func @band31
// W8: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c256,
// W8: nvgpu.device_async_create_group {dwc.min_blocks_per_sm = 2 : i64}
// One chunk of 8 channels per warp: 8 accumulators, 8 block registers.
// W8: %{{.*}}:16 = scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args({{.*}}) -> (vector<2x2xf32>, {{.*}}, vector<2x2xf32>, vector<2xf16>, {{.*}}, vector<2xf16>)
// W8-COUNT-8: nvgpu.mma.sync
// W8-NOT: nvgpu.mma.sync
// W8: scf.yield

// UNROLL-LABEL: func @band31
// band-copy-split: the thread's chunk (tid mod 16 for pairs) and position
// part (tid / 16) once, copy i at + 8 i.
// UNROLL: gpu.launch {{.*}} dynamic_shared_memory_size %c84816_i32
// UNROLL: %[[TID:.*]] = arith.remui %{{.*}}, %c16 : index
// UNROLL: scf.for %{{.*}} = %c0 to %c31 step %c1
// UNROLL-NOT: scf.for
// 3 slices x 2 chunks x 8 mma, no slice loop.
// UNROLL-COUNT-48: nvgpu.mma.sync
// UNROLL-NOT: nvgpu.mma.sync
// UNROLL: scf.yield

// Over 60 KB: the fragment ring (4 width-9 fragments, 81216 bytes) does not
// fit either: per-fragment stages, static shared memory.
// SMALL-LABEL: func @band31
// SMALL-NOT: dynamic_shared_memory
// SMALL: scf.for %{{.*}} = %c0 to %c124 step %c1
func.func @band31(%x: memref<1x8x32x64xf16>, %w: memref<31x31x64xf16>, %y: memref<1x8x32x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<31x31x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [15, 15, 15, 15] {dwc.kernel = #dwc.KERNEL}
  return
}

// -----

// FW = 9: one slice (no slice loop), OW = 128 -> G = 16, R = 1; bf16
// through nvvm.mma.sync; backward data: the filter copies read the
// rotated taps, row 8 - fh and tap 8 - (s - 7) = 15 - s of position s.
// CHECK-LABEL: func @band9_bwd_bf16
// CHECK: %[[T:.*]] = arith.subi %c15, %{{.*}} : index
// CHECK: nvgpu.device_async_copy %arg1[%c8, {{.*}}]
// CHECK: scf.for %{{.*}} = %c0 to %c9 step %c1
// CHECK-NOT: scf.for
// CHECK: arith.subi %c7, %{{.*}} : index
// CHECK-COUNT-16: nvvm.mma.sync
// FP-LABEL: func @band9_bwd_bf16
// FP: memref.alloc() : memref<9x22x128xbf16>
// FP: arith.subi %c15, %{{.*}} : index
// FP: arith.subi %c8, %{{.*}} : index
// FP: vector.load %arg1
func.func @band9_bwd_bf16(%dy: memref<1x4x128x64xbf16>, %w: memref<9x9x64xbf16>, %dx: memref<1x4x128x64xbf16>) {
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<1x4x128x64xbf16>, memref<9x9x64xbf16>) outs(%dx : memref<1x4x128x64xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] {dwc.kernel = #dwc.KERNEL}
  return
}
