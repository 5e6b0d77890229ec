// The fragment row ring (#dwc.mma_ring<ring = true>, fragments per stage
// completed by dwc-select-kernels): one stage per filter row, R + 1 input
// row slots renumbered circularly, the fragments of a row in an scf.for,
// padded 72-element positions (no swizzle), dynamic shared memory over
// 48 KB; the SMALL run: ring = false (one fragment per stage, static shared
// memory); the FPS run: two fragments per stage.
// RUN: sed 's/KERNEL/mma_ring<ring = true>/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-mma --canonicalize --cse -split-input-file | FileCheck %s
// RUN: sed 's/KERNEL/mma_ring<ring = false>/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-mma --canonicalize --cse -split-input-file | FileCheck %s --check-prefix=SMALL
// RUN: sed 's/KERNEL/mma_ring<ring = false, frags_per_stage = 2, warp_channels = 16>/' %s | dwc-opt --convert-dwc-to-gpu-mma --canonicalize --cse -split-input-file | FileCheck %s --check-prefix=FPS

// OW = 32 -> G = 4 groups x R = 4 rows; 31 taps -> 4 fragments. Slots:
// 5 x (32 + 36 - 1 = 67 columns + 9 gaps = 76 positions) x 72 elements
// (54720 bytes), then 2 x 4 x 23 compressed filter positions: 81216
// bytes of dynamic shared memory.
// CHECK-LABEL: func @ring31
// CHECK: gpu.launch {{.*}} dynamic_shared_memory_size %c81216_i32
// CHECK: %[[RAW:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: %[[IN:.*]] = memref.view %[[RAW]][%c0][] : {{.*}} to memref<1x380x72xf16, #gpu.address_space<workgroup>>
// CHECK: %[[Z:.*]] = memref.view %[[RAW]][%c54720][] : {{.*}} to memref<2x92x72xf16, #gpu.address_space<workgroup>>
// Prologue: input rows 0..3 (67 x 8 chunks = 536 copies, 4 or 5 per
// thread each), then filter row 0 (4 x 9 x 8 = 288 copies), one group.
// CHECK-COUNT-4: nvgpu.device_async_copy %arg0[{{.*}}], %[[IN]][%c0, {{.*}}], 8, %{{.*}} : memref<1x8x32x64xf16>
// CHECK: nvgpu.device_async_copy %arg1[{{.*}}], %[[Z]][{{.*}} {bypassL1}
// CHECK: nvgpu.device_async_create_group
// One stage per filter row.
// CHECK: scf.for %[[FH:.*]] = %c0 to %c31 step %c1
// The next stage copies one input row, t = fh + 4, into slot t mod 5 ...
// CHECK: scf.if
// CHECK: arith.remui %{{.*}}, %c5 : index
// CHECK: nvgpu.device_async_copy %arg0[{{.*}}], %[[IN]][%c0, {{.*}}]
// ... and filter row fh + 1.
// CHECK: nvgpu.device_async_copy %arg1[{{.*}}], %[[Z]][{{.*}} {bypassL1}
// CHECK: nvgpu.device_async_create_group
// CHECK-NEXT: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// CHECK-NEXT: gpu.barrier
// The 4 fragments of the row: GEMV row r reads slot (fh + r) mod 5.
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK: arith.remui %{{.*}}, %c5 : index
// CHECK-COUNT-8: vector.load %[[IN]][%c0, {{.*}}] {alignment = 16 : i64} : memref<1x380x72xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK-COUNT-4: vector.load %[[Z]]
// CHECK-COUNT-8: nvgpu.mma.sync
// CHECK-COUNT-8: vector.load %[[IN]]
// CHECK-COUNT-4: vector.load %[[Z]]
// CHECK-COUNT-8: nvgpu.mma.sync
// CHECK-NOT: nvgpu.mma.sync
// CHECK: scf.yield
// CHECK: gpu.barrier
// SMALL-LABEL: func @ring31
// SMALL-NOT: dynamic_shared_memory
// SMALL: workgroup({{.*}} : memref<2x160x64xf16, #gpu.address_space<workgroup>>, {{.*}} : memref<2x23x64xf16, #gpu.address_space<workgroup>>)
// SMALL: scf.for %{{.*}} = %c0 to %c124 step %c1
// FPS-LABEL: func @ring31
// Two fragments per stage: 2 x 4 rows x (32 + 18 - 1) positions and
// 2 x 46 filter positions, 61952 bytes (dynamic), 31 x 2 stages.
// FPS: dynamic_shared_memory_size %c61952_i32
// FPS: memref.view {{.*}} to memref<2x196x64xf16, #gpu.address_space<workgroup>>
// FPS: memref.view {{.*}} to memref<2x46x64xf16, #gpu.address_space<workgroup>>
// FPS: scf.for %{{.*}} = %c0 to %c62 step %c1
// FPS-COUNT-32: nvgpu.mma.sync
// FPS-NOT: nvgpu.mma.sync
func.func @ring31(%x: memref<1x8x32x64xf16>, %w: memref<31x31x64xf16>, %y: memref<1x8x32x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<31x31x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [15, 15, 15, 15] {dwc.kernel = #dwc.KERNEL}
  return
}

// -----

// One fragment (FW = 9), OW = 128 -> G = 16, R = 1: two slots of
// 128 + 8 = 136 columns + 17 gaps (44064 bytes) + 2 x 23 filter
// positions: 50688 bytes, dynamic; no fragment loop. bf16 through
// nvvm.mma.sync.
// CHECK-LABEL: func @ring9_bf16
// CHECK: dynamic_shared_memory_size %c50688_i32
// CHECK: memref.view {{.*}} to memref<1x306x72xbf16, #gpu.address_space<workgroup>>
// CHECK: memref.view {{.*}}[%c44064][] : {{.*}} to memref<2x23x72xbf16, #gpu.address_space<workgroup>>
// CHECK: scf.for %{{.*}} = %c0 to %c9 step %c1
// CHECK: arith.remui %{{.*}}, %c2 : index
// CHECK-NOT: scf.for
// CHECK-COUNT-16: nvvm.mma.sync
func.func @ring9_bf16(%x: memref<1x4x128x64xbf16>, %w: memref<9x9x64xbf16>, %y: memref<1x4x128x64xbf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x4x128x64xbf16>, memref<9x9x64xbf16>) outs(%y : memref<1x4x128x64xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] {dwc.kernel = #dwc.KERNEL}
  return
}
