// The f16/bf16 tensor-core lowering without the row ring
// (#dwc.mma_ring<ring = false, frags_per_stage = 1>; ring.mlir has the ring): launch shape, shared tiles, the
// cp.async double-buffered pipeline, one mma.sync per channel and stage,
// 8-channel stores, masks for tails.
// RUN: sed 's/KERNEL/mma_ring<ring = false, frags_per_stage = 1, warp_channels = 16>/' %s | dwc-opt --convert-dwc-to-gpu-mma --canonicalize --cse -split-input-file | FileCheck %s

// OW = 32 -> G = 4 groups of 8 x R = 4 rows per tile: 8 x 32 outputs ->
// 2 tiles; 64 channels -> 1 channel block. Shared: 2 x (4 x 40) positions
// x 64 channels, 2 x 23 compressed filter positions x 64 channels.
// CHECK-LABEL: func @f16_3x3
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK: gpu.launch blocks({{[^)]*}}) in ({{[^,]*}} = %[[C2]], {{[^,]*}} = %c1{{[^,]*}}, {{[^)]*}}) threads({{[^)]*}}) in ({{[^,]*}} = %[[C128]], {{[^,]*}} = %c1{{[^,]*}}, {{[^)]*}})
// CHECK-SAME: workgroup(%[[IN:[^ ]*]] : memref<2x160x64xf16, #gpu.address_space<workgroup>>, %[[Z:[^ ]*]] : memref<2x23x64xf16, #gpu.address_space<workgroup>>)
// The zero borders of the compressed filter vectors, written once.
// CHECK: vector.store %{{.*}}, %[[Z]]
// Stage 0: 1280 input chunks = 10 per thread (zero-fill count), then 72
// filter chunks (L2 only), one group.
// CHECK-COUNT-10: nvgpu.device_async_copy %arg0[{{.*}}], %[[IN]][{{.*}}], 8, %{{.*}} : memref<1x8x32x64xf16> to
// CHECK: scf.if
// CHECK: nvgpu.device_async_copy %arg1[{{.*}}], %[[Z]][{{.*}}], 8, %{{.*}} {bypassL1}
// CHECK: nvgpu.device_async_create_group
// FH x ceil(FW/9) = 3 stages, 16 accumulators (channels) per warp.
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %[[C3]] step %c1{{.*}} iter_args({{.*}}) -> (vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>)
// Prefetch of the next stage into the other buffer, then wait for this one.
// CHECK: scf.if
// CHECK-COUNT-10: nvgpu.device_async_copy %arg0
// CHECK: nvgpu.device_async_copy %arg1
// CHECK: nvgpu.device_async_create_group
// CHECK-NEXT: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// CHECK-NEXT: gpu.barrier
// Per 8 channels: 8 A loads and 4 B loads of 16 bytes, 8 mma.sync.
// CHECK-COUNT-8: vector.load %[[IN]]
// CHECK-COUNT-4: vector.load %[[Z]]
// CHECK-COUNT-8: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-COUNT-8: vector.load %[[IN]]
// CHECK-COUNT-4: vector.load %[[Z]]
// CHECK-COUNT-8: nvgpu.mma.sync
// CHECK-NOT: nvgpu.mma.sync
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield
// Every tile is full: unguarded stores, 4 positions x 2 channel chunks.
// CHECK-NOT: scf.if
// CHECK-COUNT-8: vector.store %{{.*}}, %arg2[{{.*}}] {alignment = 16 : i64} : memref<1x8x32x64xf16>, vector<8xf16>
// CHECK-NOT: vector.store
// CHECK: gpu.terminator
func.func @f16_3x3(%x: memref<1x8x32x64xf16>, %w: memref<3x3x64xf16>, %y: memref<1x8x32x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<3x3x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.KERNEL}
  return
}

// -----

// bf16 goes through nvvm.mma.sync (bf16 x bf16 -> f32) on i32 registers;
// a bias initialises the accumulators. OW = 128 -> G = 16, R = 1: one
// output row of 128 per tile (20 tiles); C = 72 -> 2 channel blocks, the
// second masked. FW = 5 -> 1 fragment, 5 stages.
// CHECK-LABEL: func @bf16_bias_tail
// CHECK-DAG: %[[C20:.*]] = arith.constant 20 : index
// CHECK-DAG: %[[C5:.*]] = arith.constant 5 : index
// CHECK: gpu.launch blocks({{[^)]*}}) in ({{[^,]*}} = %[[C20]], {{[^,]*}} = %c2{{[^,]*}}, {{[^)]*}})
// CHECK-SAME: workgroup({{[^ ]*}} : memref<2x136x64xbf16, #gpu.address_space<workgroup>>, {{.*}} : memref<2x23x64xbf16, #gpu.address_space<workgroup>>)
// CHECK: vector.load %arg2{{.*}} : memref<72xbf16>, vector<8xbf16>
// CHECK: arith.extf {{.*}} : vector<8xbf16> to vector<8xf32>
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %[[C5]]
// CHECK: vector.bitcast {{.*}} : vector<2xbf16> to vector<1xi32>
// CHECK: nvvm.mma.sync A[{{.*}}]{{ +}}B[{{.*}}]{{ +}}C[{{.*}}]{{ +}}{layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvgpu.mma.sync
// Channel tail: stores are guarded.
// CHECK: arith.truncf {{.*}} : vector<8xf32> to vector<8xbf16>
// CHECK: scf.if
// CHECK: vector.store {{.*}} : memref<1x20x128x72xbf16>, vector<8xbf16>
func.func @bf16_bias_tail(%x: memref<1x20x128x72xbf16>, %w: memref<5x5x72xbf16>, %b: memref<72xbf16>, %y: memref<1x20x128x72xbf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x20x128x72xbf16>, memref<5x5x72xbf16>) bias(%b : memref<72xbf16>) outs(%y : memref<1x20x128x72xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.KERNEL}
  return
}

// -----

// Large filter: 51 x 51 -> 51 x 6 = 306 stages; OW = 64 -> G = 8, R = 2,
// 2 x (2 x 72) input positions per buffer.
// CHECK-LABEL: func @f16_51x51
// CHECK-DAG: %[[C306:.*]] = arith.constant 306 : index
// CHECK: workgroup({{.*}} : memref<2x144x64xf16, #gpu.address_space<workgroup>>
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %[[C306]]
// CHECK-COUNT-16: nvgpu.mma.sync
// CHECK-NOT: nvgpu.mma.sync
func.func @f16_51x51(%x: memref<2x64x64x256xf16>, %w: memref<51x51x256xf16>, %y: memref<2x64x64x256xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<2x64x64x256xf16>, memref<51x51x256xf16>) outs(%y : memref<2x64x64x256xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [25, 25, 25, 25] {dwc.kernel = #dwc.KERNEL}
  return
}

// -----

// Width and height tails (OW = 13 of 32, OH = 5 of 4 + 4) guard the stores.
// CHECK-LABEL: func @spatial_tails
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK: arith.cmpi slt
// CHECK: scf.if
// CHECK: vector.store {{.*}} : memref<1x5x13x16xf16>, vector<8xf16>
func.func @spatial_tails(%x: memref<1x5x13x16xf16>, %w: memref<3x3x16xf16>, %y: memref<1x5x13x16xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x5x13x16xf16>, memref<3x3x16xf16>) outs(%y : memref<1x5x13x16xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.KERNEL}
  return
}
