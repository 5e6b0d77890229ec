// The small-map (image) backward-filter lowering, #dwc.bwd_filter_image:
// the per-block f32 workspace slices, the image kernel (strip copies into
// shared memory between barriers, the fully unrolled output row of a
// thread: padding columns take no load and no FMA), the deterministic slice
// reduction with the rounding into dW, the dynamic shared memory of large
// strips and the copy = "thread" form without barriers.
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-backward-filter --canonicalize --cse -split-input-file | FileCheck %s

// 2 x 5 x 6 x 40 f16, 7x7, pad 3: 32 channels per block -> 2 channel groups
// (the second masked past C = 40), 7 x 16 = 112 threads; strips of 3 rows
// -> 2 per image, 4 strips, 2 per block -> 2 workspace slices, 2 x 2 = 4
// blocks. Shared memory: min(3 + 6, 5) = 5 input rows of 6 x 32 halves
// padded by 32 (row starts 64 bytes apart modulo 128) + 3 dY rows of 6 x 32
// = 5 x 224 + 576 = 1696 halves.
// CHECK-LABEL: func @f16_7x7
// CHECK: %[[WS:.*]] = memref.alloc() : memref<2x7x7x40xf32>
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c4, {{.*}}) threads({{.*}}) in ({{.*}} = %c112, {{.*}}) function(@f16_7x7_bwd_filter_image) workgroup(%[[SM:.*]] : memref<1696xf16, #gpu.address_space<workgroup>>)
// Strips of the block, carrying FW = 7 pairs of sums.
// CHECK: scf.for {{.*}} -> (vector<2xf32>, vector<2xf32>, vector<2xf32>, vector<2xf32>, vector<2xf32>, vector<2xf32>, vector<2xf32>)
// Several strips per block: the previous strip's reads end before the copy.
// CHECK: gpu.barrier
// 5 x 6 x 4 = 120 input vectors over 112 threads (2 per thread), loaded
// before they are stored; 3 x 6 x 4 = 72 dY vectors (1).
// CHECK: vector.load %arg0{{.*}} : memref<2x5x6x40xf16>, vector<8xf16>
// CHECK: vector.load %arg0{{.*}} : memref<2x5x6x40xf16>, vector<8xf16>
// CHECK-NOT: vector.store
// CHECK: vector.store {{.*}}, %[[SM]]
// CHECK-NEXT: vector.store {{.*}}, %[[SM]]
// CHECK: vector.load %arg1{{.*}} : memref<2x5x6x40xf16>, vector<8xf16>
// CHECK: vector.store {{.*}}, %[[SM]]
// CHECK-NEXT: gpu.barrier
// The strip's 3 rows; a row whose input row lies outside the image is
// skipped.
// CHECK: scf.for {{.*}} = %c0 to %c3
// CHECK: scf.if
// Output column 0: input columns 0..3 (taps 3..6; taps 0..2 read padding:
// no load, no FMA), 4 FMAs; column 1: one new input column, 5 FMAs.
// CHECK-COUNT-4: vector.load %[[SM]]{{.*}} : memref<1696xf16, #gpu.address_space<workgroup>>, vector<2xf16>
// CHECK: vector.load %[[SM]]
// CHECK-COUNT-4: vector.fma {{.*}} : vector<2xf32>
// CHECK: vector.load %[[SM]]
// CHECK: vector.load %[[SM]]
// CHECK-COUNT-5: vector.fma {{.*}} : vector<2xf32>
// CHECK-NOT: vector.fma
// CHECK: vector.load %[[SM]]
// The thread's sums into its block's workspace slice (channel pairs past C
// write nothing).
// CHECK: scf.if
// CHECK-COUNT-7: vector.store {{.*}}, %[[WS]][{{.*}}] {alignment = 8 : i64} : memref<2x7x7x40xf32>, vector<2xf32>
// CHECK: gpu.terminator
// The slice reduction: 7 x 7 x 40 / 4 = 490 vectors of 4 channels, the 2
// slices in order (fewer than 4: no loop), rounded once to f16.
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c2, {{.*}}) threads({{.*}}) in ({{.*}} = %c256, {{.*}}) function(@f16_7x7_bwd_filter_image_reduce)
// CHECK-NOT: scf.for
// CHECK: vector.load %[[WS]][%c0,
// CHECK: vector.load %[[WS]][%c1,
// CHECK: arith.truncf {{.*}} : vector<4xf32> to vector<4xf16>
// CHECK: vector.store {{.*}}, %arg2
// CHECK: memref.dealloc %[[WS]]
func.func @f16_7x7(%x: memref<2x5x6x40xf16>, %dy: memref<2x5x6x40xf16>, %dw: memref<7x7x40xf16>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<2x5x6x40xf16>, memref<2x5x6x40xf16>) outs(%dw : memref<7x7x40xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 3, units = 2, copy = "block">}
  return
}

// -----

// Whole 14 x 14 images of 64 f16 channels: 14 x (14 x 64 + 32) + 14 x 14 x
// 64 = 25536 halves = 51072 bytes, past the 48 KB of static shared memory:
// dynamic shared memory. One strip per block: no barrier before the copy.
// An f32 dW takes the sums without rounding.
// CHECK-LABEL: func @dynamic_smem
// CHECK: gpu.launch {{.*}} dynamic_shared_memory_size %c51072_i32
// CHECK: gpu.dynamic_shared_memory
// CHECK: memref.view {{.*}} to memref<25536xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: gpu.barrier
// CHECK: vector.load %arg0
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: gpu.terminator
// CHECK: function(@dynamic_smem_bwd_filter_image_reduce)
// CHECK-NOT: arith.truncf
// CHECK: vector.store {{.*}}, %arg2{{.*}} : memref<7x7x64xf32>, vector<4xf32>
func.func @dynamic_smem(%x: memref<4x14x14x64xf16>, %dy: memref<4x14x14x64xf16>, %dw: memref<7x7x64xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<4x14x14x64xf16>, memref<4x14x14x64xf16>) outs(%dw : memref<7x7x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.bwd_filter_image<channels = 64, rows = 14, units = 1, copy = "block">}
  return
}

// -----

// copy = "thread": every thread copies its strip itself, in a loop over all
// 3 x 7 x 1 = 21 vectors (f32, 4 channels per block, 3x3), no barriers.
// CHECK-LABEL: func @thread_copy
// CHECK-NOT: gpu.barrier
// CHECK: scf.for {{.*}} = %c0 to %c21
// CHECK: vector.load %arg0{{.*}} : memref<1x3x7x4xf32>, vector<4xf32>
// CHECK-NOT: gpu.barrier
// CHECK: function(@thread_copy_bwd_filter_image_reduce)
func.func @thread_copy(%x: memref<1x3x7x4xf32>, %dy: memref<1x3x7x4xf32>, %dw: memref<3x3x4xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<1x3x7x4xf32>, memref<1x3x7x4xf32>) outs(%dw : memref<3x3x4xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_image<channels = 4, copy = "thread">}
  return
}

// -----

// Strided dY and column segments: 2 x 9 x 10 x 16 f16, 3x3, stride 2, pad
// 1 -> 5 x 5 outputs. 16 channels per block (8 pairs x 3 filter rows = 24
// threads a segment), 2 segments of 3 output columns -> 48 threads; strips
// of 2 rows -> 3 per image, 6 strips, 3 per block -> 2 blocks, 2 x 2 = 4
// workspace slices (block x segment). A strip stages (2 - 1) x 2 + 3 = 5
// input rows of 10 x 16 halves (320 bytes: no padding) and 2 dY rows of 5 x
// 16: 5 x 160 + 2 x 80 = 960 halves.
// CHECK-LABEL: func @strided_segments
// CHECK: %[[WS:.*]] = memref.alloc() : memref<4x3x3x16xf32>
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c2, {{.*}}) threads({{.*}}) in ({{.*}} = %c48, {{.*}}) function(@strided_segments_bwd_filter_image) workgroup(%[[SM:.*]] : memref<960xf16, #gpu.address_space<workgroup>>)
// The thread's segment and filter row: tid / 24, (tid % 24) / 8.
// CHECK-DAG: arith.divui %{{.*}}, %c24
// CHECK-DAG: arith.remui %{{.*}}, %c24
// The strip's first input row: 2 x its first output row - 1, at least 0.
// CHECK: arith.muli {{.*}}, %c2
// CHECK: scf.index_switch
// Segment 0, output columns 0..2 (input columns 2 x ow - 1 + fw): column 0
// reads input columns 0, 1 (tap 0 is padding), column 1 adds 2, 3 (input
// column 1 is kept), column 2 adds 4, 5.
// CHECK: case 0 {
// CHECK-COUNT-3: vector.load %[[SM]]{{.*}} : memref<960xf16, #gpu.address_space<workgroup>>, vector<2xf16>
// CHECK-COUNT-2: vector.fma
// CHECK-NOT: vector.fma
// CHECK-COUNT-3: vector.load %[[SM]]
// CHECK-COUNT-3: vector.fma
// CHECK-COUNT-3: vector.load %[[SM]]
// CHECK-COUNT-3: vector.fma
// CHECK-NOT: vector.fma
// CHECK: scf.yield
// Segment 1, columns 3, 4: input columns 5..7, then 8, 9.
// CHECK: case 1 {
// CHECK-COUNT-4: vector.load %[[SM]]
// CHECK-COUNT-3: vector.fma
// CHECK-COUNT-3: vector.load %[[SM]]
// CHECK-COUNT-3: vector.fma
// CHECK-NOT: vector.fma
// CHECK: scf.yield
// CHECK: default {
// Each thread's sums into slice 2 x block + segment.
// CHECK: vector.store {{.*}}, %[[WS]][{{.*}}] {alignment = 8 : i64} : memref<4x3x3x16xf32>, vector<2xf32>
// The reduction adds the 4 slices in order.
// CHECK: function(@strided_segments_bwd_filter_image_reduce)
// CHECK: vector.load %[[WS]][%c0,
// CHECK: vector.load %[[WS]][%c1,
// CHECK: vector.load %[[WS]][%c2,
// CHECK: vector.load %[[WS]][%c3,
func.func @strided_segments(%x: memref<2x9x10x16xf16>, %dy: memref<2x5x5x16xf16>, %dw: memref<3x3x16xf16>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<2x9x10x16xf16>, memref<2x5x5x16xf16>) outs(%dw : memref<3x3x16xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_image<channels = 16, rows = 2, units = 3, copy = "block", segments = 2>}
  return
}

// -----

// More than 64 workspace slices: two ordered levels. 70 images of 4 x 4 x
// 8 f32, one per block -> 70 slices; runs of ceil(sqrt(70)) = 9 -> 8 runs
// (the last of 7 slices) into a second workspace, then the 8 runs into dW.
// A thread of a level adds 4 slices per step (loads first), in order.
// CHECK-LABEL: func @two_level
// CHECK: %[[WS:.*]] = memref.alloc() : memref<70x3x3x8xf32>
// CHECK: function(@two_level_bwd_filter_image)
// CHECK: %[[PART:.*]] = memref.alloc() : memref<8x3x3x8xf32>
// CHECK: function(@two_level_bwd_filter_image_partial)
// A run of 9: two steps of 4 loads (a loop), then the ninth; the last run
// of 7.
// CHECK: scf.if
// CHECK: scf.for
// CHECK-COUNT-4: vector.load %[[WS]]
// CHECK-COUNT-4: arith.addf
// CHECK: vector.load %[[WS]]
// CHECK: arith.addf
// CHECK: } else {
// CHECK: vector.store {{.*}}, %[[PART]]
// CHECK: function(@two_level_bwd_filter_image_reduce)
// CHECK: vector.load %[[PART]]
// CHECK: vector.store {{.*}}, %arg2
// CHECK: memref.dealloc %[[PART]]
func.func @two_level(%x: memref<70x4x4x8xf32>, %dy: memref<70x4x4x8xf32>, %dw: memref<3x3x8xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<70x4x4x8xf32>, memref<70x4x4x8xf32>) outs(%dw : memref<3x3x8xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_image<channels = 8, rows = 4, units = 1, copy = "block">}
  return
}
