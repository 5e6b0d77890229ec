// The streaming backward-filter kernel (#dwc.bwd_filter_stream, chosen for
// filters of at most 9 taps): one 128-bit channel vector and all FH*FW taps per thread, blocks of
// R output rows streamed grid-stride, a register window of FW columns x
// R+FH-1 input rows, interior row blocks without predicates, the block
// reduction in shared memory and one atomic per tap and channel; requested
// fields (rows per step, block threads, workers, no block reduction) and
// what it leaves to the split-z kernel.
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-backward-filter --canonicalize --cse -split-input-file | FileCheck %s

// 2 x 8 x 20 x 32 f32, 3x3: 8 channel vectors = 8 lanes x 32 workers (256
// threads). R = 3 (f32): 3 row blocks per image (the last one partial), 6
// in all; one wave allows far more workers, so 6 workers of one row block
// each, in one block (workers 6..31 stream nothing). Zero-fill first.
// CHECK-LABEL: func @f32_3x3
// CHECK: gpu.launch
// CHECK: vector.store %cst, %arg2
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1, {{.*}}) threads({{.*}}) in ({{.*}} = %c256, {{.*}}) workgroup(%[[SMEM:.*]] : memref<256x4xf32, #gpu.address_space<workgroup>>)
// Row blocks w, w + 6, ... carrying the 9 tap sums.
// CHECK: scf.for {{.*}} step %c6 iter_args({{.*}}) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// Interior row block (input rows oh0-1 .. oh0+3 and output rows inside):
// CHECK: scf.if
// Window prologue: input column 0 of the 5 rows (column -1 is padding).
// CHECK-COUNT-5: vector.load %arg0[{{.*}}, %c0, %{{.*}}]
// Columns 0..15 in a loop of 4 chunks of 4 unrolled columns carrying the
// 9 sums and the 2 x 5 window vectors; per column 5 input vectors, 3 dY
// vectors and 3 x 9 FMAs, no selects.
// CHECK: scf.for {{.*}} = %c0 to %c4 step %c1 iter_args({{.*}}) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// CHECK-COUNT-5: vector.load %arg0
// CHECK-COUNT-3: vector.load %arg1
// CHECK-NOT: arith.select
// CHECK-COUNT-27: vector.fma
// CHECK: scf.yield
// Border row blocks: clamped rows and selects.
// CHECK: } else {
// CHECK: arith.select
// CHECK: vector.fma
// Block reduction, tap by tap: store, barrier, the first worker of each
// lane sums the 32 workers and adds 4 channels atomically, barrier.
// CHECK: vector.store %{{.*}}, %[[SMEM]][%{{.*}}, %c0]
// CHECK-NEXT: gpu.barrier
// CHECK: scf.for {{.*}} = %c0 to %c32 step %c1
// CHECK: vector.load %[[SMEM]]
// CHECK-COUNT-4: memref.atomic_rmw addf {{.*}}, %arg2[%c0, %c0,
// CHECK: gpu.barrier
// CHECK-COUNT-32: memref.atomic_rmw addf
// CHECK-NOT: memref.atomic_rmw
// CHECK: return
func.func @f32_3x3(%x: memref<2x8x20x32xf32>, %dy: memref<2x8x20x32xf32>, %dw: memref<3x3x32xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<2x8x20x32xf32>, memref<2x8x20x32xf32>) outs(%dw : memref<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// CHECK-LABEL: func @f32_3x3_opt
// 64 threads = 8 lanes x 8 workers; R = 1: 16 row blocks; workers = 2: 2 workers
// of 8 row blocks each; per column 3 input vectors, 1 dY vector, 9 FMAs.
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1, {{.*}}) threads({{.*}}) in ({{.*}} = %c64, {{.*}}) workgroup({{.*}} : memref<64x4xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for {{.*}} step %c2 iter_args
// CHECK: scf.for {{.*}} = %c0 to %c4 step %c1
// CHECK-COUNT-3: vector.load %arg0
// CHECK-NEXT: vector.load %arg1
// CHECK-COUNT-9: vector.fma
// CHECK: vector.load %arg0
func.func @f32_3x3_opt(%x: memref<2x8x20x32xf32>, %dy: memref<2x8x20x32xf32>, %dw: memref<3x3x32xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<2x8x20x32xf32>, memref<2x8x20x32xf32>) outs(%dw : memref<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_stream<rows = 1, threads = 64, workers = 2>}
  return
}

// -----

// CHECK-LABEL: func @f32_3x3_atomics
// reduce = "atomics": no shared memory, no barriers: every streaming thread adds its 9 x 4 sums.
// CHECK-NOT: workgroup
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-36: memref.atomic_rmw addf
// CHECK: return
func.func @f32_3x3_atomics(%x: memref<2x8x20x32xf32>, %dy: memref<2x8x20x32xf32>, %dw: memref<3x3x32xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<2x8x20x32xf32>, memref<2x8x20x32xf32>) outs(%dw : memref<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_stream<reduce = "atomics">}
  return
}

// -----

// f16 in, f16 out (requested: on a map this small the image kernel is the
// default, config-bwd-filter.mlir): 8 channels per thread widened to f32 on load, R = 2,
// the f32 workspace (zeroed, block sums added atomically) rounded by the
// conversion kernel.
// CHECK-LABEL: func @f16_3x3
// CHECK: %[[WS:.*]] = memref.alloc() : memref<3x3x64xf32>
// CHECK: gpu.launch
// CHECK: gpu.launch {{.*}} workgroup({{.*}} : memref<256x8xf32, #gpu.address_space<workgroup>>)
// CHECK: vector.load %arg0{{.*}} vector<8xf16>
// CHECK-NEXT: arith.extf {{.*}} : vector<8xf16> to vector<8xf32>
// CHECK: gpu.barrier
// CHECK-COUNT-8: memref.atomic_rmw addf {{.*}}, %[[WS]][
// CHECK: gpu.launch
// CHECK: arith.truncf {{.*}} : vector<8xf32> to vector<8xf16>
// CHECK: memref.dealloc %[[WS]]
func.func @f16_3x3(%x: memref<2x8x8x64xf16>, %dy: memref<2x8x8x64xf16>, %dw: memref<3x3x64xf16>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<2x8x8x64xf16>, memref<2x8x8x64xf16>) outs(%dw : memref<3x3x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_stream<>}
  return
}

// -----

// 5x5 = 25 taps > 9: not streamed; a 64 x 64 map (larger f32 maps are
// not the image kernel's) takes the split-z kernel (no shared memory).
// (Strided dY: strided.mlir.)
// CHECK-LABEL: func @not_streamed
// CHECK-NOT: workgroup
// CHECK: memref.atomic_rmw addf
// CHECK-NOT: workgroup
// CHECK-NOT: dwc.depthwise_conv2d_backward_filter
func.func @not_streamed(%x: memref<1x64x64x32xf32>, %dy: memref<1x64x64x32xf32>, %dw: memref<5x5x32xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<1x64x64x32xf32>, memref<1x64x64x32xf32>) outs(%dw : memref<5x5x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  return
}
