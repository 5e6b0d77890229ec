// The register (taps) backward-filter lowering, #dwc.bwd_filter_taps: the
// per-block f32 workspace slices, the taps kernel (a thread owns one
// channel vector and all 9 taps of a band of output rows x columns, walks
// its input rows top to bottom with global loads: no shared memory in the
// walk), the block's band sums added tap by tap in shared memory in band
// order, the deterministic slice reduction with the rounding into dW, and
// the reduce = "band" form without shared memory or barriers.
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-backward-filter --canonicalize --cse -split-input-file | FileCheck %s

// 2 x 10 x 9 x 40 f16, 3x3, pad 1, rows = 8, the default 2 columns and
// 128-bit vectors: 5 channel vectors (one channel group of 5 lanes),
// ceil(9 / 2) = 5 column bands -> 25 threads, 2 row bands per image -> 4
// blocks, one workspace slice each; shared memory: 25 x 8 f32.
// CHECK-LABEL: func @f16_3x3
// CHECK: %[[WS:.*]] = memref.alloc() : memref<4x3x3x40xf32>
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c4, {{.*}}) threads({{.*}}) in ({{.*}} = %c25, {{.*}}) function(@f16_3x3_bwd_filter_taps) workgroup(%[[SM:.*]] : memref<200xf32, #gpu.address_space<workgroup>>)
// Bands inside the image without predicates, the others with them.
// CHECK: scf.if {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// Step 0: one input row segment of 2 + 3 - 1 = 4 vectors, one dY segment
// of 2, filter row 0 only (2 x 3 FMAs).
// CHECK-COUNT-4: vector.load %arg0{{.*}} : memref<2x10x9x40xf16>, vector<8xf16>
// CHECK-COUNT-2: vector.load %arg1{{.*}} : memref<2x10x9x40xf16>, vector<8xf16>
// CHECK-COUNT-6: vector.fma {{.*}} : vector<8xf32>
// CHECK-NOT: vector.fma
// Step 1: filter rows 0 and 1.
// CHECK-COUNT-4: vector.load %arg0
// CHECK-COUNT-2: vector.load %arg1
// CHECK-COUNT-12: vector.fma
// CHECK-NOT: vector.fma
// Steps 2..7 in a loop of 2 steps per iteration, carrying the 9 sums and
// the 2 newest dY segments (2 vectors each).
// CHECK: scf.for {{.*}} = %c0 to %c3 step %c1 iter_args({{[^)]*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK-COUNT-4: vector.load %arg0
// CHECK-COUNT-2: vector.load %arg1
// CHECK-COUNT-18: vector.fma
// CHECK-COUNT-4: vector.load %arg0
// CHECK-COUNT-2: vector.load %arg1
// CHECK-COUNT-18: vector.fma
// CHECK: scf.yield
// Steps 8 and 9: no dY row (filter rows 1 and 2, then 2).
// CHECK-COUNT-4: vector.load %arg0
// CHECK-NOT: vector.load %arg1
// CHECK-COUNT-12: vector.fma
// CHECK-COUNT-4: vector.load %arg0
// CHECK-COUNT-6: vector.fma
// CHECK: } else {
// The checked bands: clamped loads, 16-bit vectors selected as words.
// CHECK: arith.select {{.*}} : vector<4xi32>
// The block reduction, tap 0: every thread stores its sums, the threads of
// band 0 add the 5 bands in order into the block's slice.
// CHECK: vector.store {{.*}}, %[[SM]][{{.*}}] : memref<200xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.if
// CHECK-NEXT: scf.for {{.*}} = %c0 to %c5 step %c1 iter_args({{.*}}) -> (vector<8xf32>)
// CHECK: vector.load %[[SM]]
// CHECK: vector.store {{.*}}, %[[WS]][%{{.*}}, %c0, %c0, {{.*}}] {alignment = 16 : i64} : memref<4x3x3x40xf32>, vector<8xf32>
// CHECK: gpu.barrier
// CHECK-COUNT-8: vector.store {{.*}}, %[[WS]]
// CHECK: gpu.terminator
// The slice reduction: the 4 slices in order, rounded once to f16.
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1, {{.*}}) threads({{.*}}) in ({{.*}} = %c256, {{.*}}) function(@f16_3x3_bwd_filter_taps_reduce)
// CHECK: vector.load %[[WS]][%c0,
// CHECK: vector.load %[[WS]][%c1,
// CHECK: vector.load %[[WS]][%c2,
// CHECK: vector.load %[[WS]][%c3,
// CHECK: arith.truncf {{.*}} : vector<4xf32> to vector<4xf16>
// CHECK: vector.store {{.*}}, %arg2
// CHECK: memref.dealloc %[[WS]]
func.func @f16_3x3(%x: memref<2x10x9x40xf16>, %dy: memref<2x10x9x40xf16>, %dw: memref<3x3x40xf16>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<2x10x9x40xf16>, memref<2x10x9x40xf16>) outs(%dw : memref<3x3x40xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_taps<rows = 8>}
  return
}

// -----

// reduce = "band", f32 1 x 6 x 7 x 8, 5 x 5, pad 2: 128-bit vectors
// ((25 + 5 x 2 + 2 + 4) x 4 = 164 f32 values fit), 2 lanes x 4 column bands
// of 2 columns = 8 threads, one row band of 6 rows, one block; every band
// writes its own slice (4): no shared memory, no barrier.
// CHECK-LABEL: func @f32_band
// CHECK: %[[WS:.*]] = memref.alloc() : memref<4x5x5x8xf32>
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1, {{.*}}) threads({{.*}}) in ({{.*}} = %c8, {{.*}}) function(@f32_band_bwd_filter_taps) {
// CHECK-NOT: gpu.barrier
// CHECK-NOT: workgroup
// CHECK-COUNT-25: vector.store {{.*}}, %[[WS]]
// CHECK: gpu.terminator
// CHECK: function(@f32_band_bwd_filter_taps_reduce)
func.func @f32_band(%x: memref<1x6x7x8xf32>, %dy: memref<1x6x7x8xf32>, %dw: memref<5x5x8xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<1x6x7x8xf32>, memref<1x6x7x8xf32>) outs(%dw : memref<5x5x8xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.bwd_filter_taps<reduce = "band">}
  return
}

// -----

// prefetch = 1 (2 x 10 x 9 x 40 f16, 8-row bands; 64-bit vectors: with the
// next step's 6 segments 128 bits would hold 200 f32 values): steps 0 and
// 1 as before, then step 2's loads before the loop; the loop (steps 2..5,
// ending before the last step with a dY row) issues step j + 1's loads
// before step j's FMAs and carries the 9 sums, the next step's 4 + 2
// segments and the 2 x 2 dY vectors; step 6 uses the loads of the loop's
// last step, step 7 loads its own. min_blocks_per_sm = 2 marks the first
// store of the sums (nvvm.minctasm after outlining).
// CHECK-LABEL: func @f16_3x3_prefetch
// CHECK: scf.if
// CHECK-COUNT-4: vector.load %arg0
// CHECK-COUNT-2: vector.load %arg1
// CHECK-COUNT-6: vector.fma
// CHECK-COUNT-4: vector.load %arg0
// CHECK-COUNT-2: vector.load %arg1
// CHECK-COUNT-12: vector.fma
// CHECK-COUNT-4: vector.load %arg0
// CHECK-COUNT-2: vector.load %arg1
// CHECK-NOT: vector.fma
// CHECK: scf.for {{.*}} = %c0 to %c2 step %c1 iter_args({{[^)]*}}) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// CHECK-COUNT-4: vector.load %arg0
// CHECK-COUNT-2: vector.load %arg1
// CHECK-COUNT-18: vector.fma
// CHECK-COUNT-4: vector.load %arg0
// CHECK-COUNT-2: vector.load %arg1
// CHECK-COUNT-18: vector.fma
// CHECK: scf.yield
// CHECK-NOT: vector.load
// CHECK-COUNT-18: vector.fma
// CHECK-COUNT-4: vector.load %arg0
// CHECK-COUNT-2: vector.load %arg1
// CHECK-COUNT-18: vector.fma
// CHECK: } else {
// CHECK: vector.store {{.*}} {dwc.min_blocks_per_sm = 2 : i64} : memref<200xf32, #gpu.address_space<workgroup>>
func.func @f16_3x3_prefetch(%x: memref<2x10x9x40xf16>, %dy: memref<2x10x9x40xf16>, %dw: memref<3x3x40xf16>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<2x10x9x40xf16>, memref<2x10x9x40xf16>) outs(%dw : memref<3x3x40xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_taps<rows = 8, prefetch = 1, min_blocks_per_sm = 2>}
  return
}
