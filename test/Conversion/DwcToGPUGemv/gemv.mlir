// The FP32 GEMV-dataflow lowering: tiling, register window, unrolled FW loop,
// predicated padding, the #dwc.gemv fields (filter rows from global memory
// or shared memory, outputs per thread), and the ops it must leave alone
// (no configuration of its family: the direct kernel's).
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-gemv --canonicalize --cse -split-input-file | FileCheck %s

// 64 channels -> 2 channel tiles; 1x8x16 outputs with TM = 8 -> 16 patches
// -> 1 patch tile. 128 threads per block.
// CHECK-LABEL: func @same_padding_3x3
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %[[C2]], {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %[[C128]],
// One loop over filter rows carrying 8 accumulators.
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// A row in the padding is skipped.
// CHECK: scf.if
// Width-first: 7 window loads, then per tap one new input vector and one
// filter vector feeding 8 FMAs (3 taps, unrolled).
// CHECK-COUNT-7: vector.load %arg0
// CHECK-NOT: vector.fma
// CHECK: vector.load %arg0
// CHECK: vector.load %arg1
// CHECK-COUNT-8: vector.fma
// CHECK: vector.load %arg0
// CHECK: vector.load %arg1
// CHECK-COUNT-8: vector.fma
// CHECK: vector.load %arg0
// CHECK: vector.load %arg1
// CHECK-COUNT-8: vector.fma
// CHECK-NOT: vector.load
// CHECK: scf.yield
// CHECK-COUNT-8: vector.store {{.*}}, %arg2
func.func @same_padding_3x3(%x: memref<1x8x16x64xf32>, %w: memref<3x3x64xf32>, %y: memref<1x8x16x64xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x16x64xf32>, memref<3x3x64xf32>) outs(%y : memref<1x8x16x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<filter = "global">}
  return
}

// -----

// Chosen for f32 (small grid: no row tiles): filter rows staged in shared
// memory (32 + 4 padding channels x 16 taps x 2 buffers) with cp.async.cg,
// the next row prefetched while the current one is used; kernel <func>_gemv.
// CHECK-LABEL: func @same_padding_3x3_smem
// CHECK: gpu.launch {{.*}} function(@same_padding_3x3_smem_gemv) workgroup(%[[S:.*]] : memref<2x16x36xf32, #gpu.address_space<workgroup>>)
// CHECK: nvgpu.device_async_copy %arg1[%c0, {{.*}}], %[[S]][%c0, {{.*}}], 4, {{.*}} {bypassL1}
// CHECK-NEXT: nvgpu.device_async_create_group
// CHECK: scf.for
// CHECK: nvgpu.device_async_copy %arg1[{{.*}}], %[[S]][{{.*}}], 4, {{.*}} {bypassL1}
// CHECK-NEXT: %[[G:.*]] = nvgpu.device_async_create_group
// CHECK-NEXT: nvgpu.device_async_wait %[[G]] {numGroups = 1 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK-NOT: vector.load %arg1
// CHECK: vector.load %[[S]][%{{.*}}, %c0, {{.*}}]
// CHECK: vector.load %[[S]][%{{.*}}, %c1, {{.*}}]
// CHECK: vector.load %[[S]][%{{.*}}, %c2, {{.*}}]
// CHECK: gpu.barrier
// CHECK: scf.yield
func.func @same_padding_3x3_smem(%x: memref<1x8x16x64xf32>, %w: memref<3x3x64xf32>, %y: memref<1x8x16x64xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x16x64xf32>, memref<3x3x64xf32>) outs(%y : memref<1x8x16x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// outputs = 4: 4 accumulators, 3 x 4 FMAs per row.
// CHECK-LABEL: func @same_padding_3x3_tm4
// CHECK: scf.for {{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// CHECK-COUNT-12: vector.fma
func.func @same_padding_3x3_tm4(%x: memref<1x8x16x64xf32>, %w: memref<3x3x64xf32>, %y: memref<1x8x16x64xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x16x64xf32>, memref<3x3x64xf32>) outs(%y : memref<1x8x16x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<outputs = 4, filter = "global">}
  return
}

// -----

// Width padding: only the window positions that can fall outside the input
// are clamped and selected; the others load directly.
// CHECK-LABEL: func @edges
// Positions 0 and 1 of the window can fall left of the input...
// CHECK: scf.if
// CHECK: arith.cmpi sge
// CHECK-NEXT: arith.maxsi
// CHECK-NEXT: arith.minsi
// CHECK-NEXT: vector.load %arg0
// CHECK-NEXT: arith.select
// CHECK: arith.cmpi sge
// CHECK-NEXT: arith.maxsi
// CHECK-NEXT: arith.minsi
// CHECK-NEXT: vector.load %arg0
// CHECK-NEXT: arith.select
// ... the middle ones cannot fall outside and load directly ...
// CHECK-NOT: arith.select
// CHECK: vector.load %arg1
// ... and positions 9 and 10 can fall right of it.
// CHECK: arith.cmpi slt
// CHECK-NEXT: arith.maxsi
// CHECK-NEXT: arith.minsi
// CHECK-NEXT: vector.load %arg0
// CHECK-NEXT: arith.select
func.func @edges(%x: memref<1x4x32x32xf32>, %w: memref<1x5x32xf32>, %y: memref<1x4x32x32xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x4x32x32xf32>, memref<1x5x32xf32>) outs(%y : memref<1x4x32x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 2, 2] {dwc.kernel = #dwc.gemv<filter = "global">}
  return
}

// -----

// Channel and width tails: C = 36 is not a multiple of 32 and OW = 10 not a
// multiple of TM = 8, so threads are guarded and the last stores predicated.
// CHECK-LABEL: func @tails
// CHECK: arith.cmpi slt
// CHECK: arith.cmpi slt
// CHECK: arith.andi
// CHECK: scf.for
// CHECK: scf.if
// CHECK: vector.store
// CHECK: arith.cmpi slt, %{{.*}}, %c10
// CHECK-NEXT: scf.if
// CHECK-NEXT: vector.store
func.func @tails(%x: memref<2x5x10x36xf32>, %w: memref<3x3x36xf32>, %b: memref<36xf32>, %y: memref<2x5x10x36xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<2x5x10x36xf32>, memref<3x3x36xf32>) bias(%b : memref<36xf32>) outs(%y : memref<2x5x10x36xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<filter = "global">}
  return
}

// -----

// Left to the direct kernel: stride 2 (the strided family's), dilation 2,
// f16 with C % 4 != 0 (64-bit f16 vectors by default), f32 with C % 4 != 0,
// tensors (configured, but the pass takes buffers only).
// CHECK-LABEL: func @refused
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d {{.*}} {dwc.kernel = #dwc.strided_forward
// CHECK-NOT: dwc.kernel
// CHECK-COUNT-3: dwc.depthwise_conv2d
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d {{.*}} {dwc.kernel = #dwc.gemv
func.func @refused(%x: memref<1x8x8x32xf32>, %w: memref<3x3x32xf32>, %y2: memref<1x4x4x32xf32>,
                   %y: memref<1x8x8x32xf32>, %xh: memref<1x8x8x10xf16>, %wh: memref<3x3x10xf16>,
                   %yh: memref<1x8x8x10xf16>, %x5: memref<1x8x8x5xf32>, %w5: memref<3x3x5xf32>,
                   %y5: memref<1x8x8x5xf32>, %xt: tensor<1x8x8x32xf32>, %wt: tensor<3x3x32xf32>,
                   %yt: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x8x32xf32>, memref<3x3x32xf32>) outs(%y2 : memref<1x4x4x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x8x32xf32>, memref<3x3x32xf32>) outs(%y : memref<1x8x8x32xf32>)
    strides = [1, 1] dilations = [2, 2] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%xh, %wh : memref<1x8x8x10xf16>, memref<3x3x10xf16>) outs(%yh : memref<1x8x8x10xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d ins(%x5, %w5 : memref<1x8x8x5xf32>, memref<3x3x5xf32>) outs(%y5 : memref<1x8x8x5xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  %r = dwc.depthwise_conv2d ins(%xt, %wt : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%yt : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

// f16 with 128-bit vectors and shared filter rows (#dwc.gemv<channels = 8,
// filter = "smem">; the defaults are in half-vectors.mlir): 8 channels per thread and 64 per block; loads
// widened to f32 once, f32 FMAs, one rounding before the 128-bit store.
// CHECK-LABEL: func @half
// CHECK: gpu.launch {{.*}} workgroup(%[[S:.*]] : memref<2x16x72xf16, #gpu.address_space<workgroup>>)
// CHECK: nvgpu.device_async_copy %arg1[{{.*}}], %[[S]][{{.*}}], 8, {{.*}} {bypassL1}
// CHECK: vector.load %arg0{{.*}} vector<8xf16>
// CHECK-NEXT: arith.extf {{.*}} : vector<8xf16> to vector<8xf32>
// CHECK: vector.fma {{.*}} : vector<8xf32>
// CHECK: arith.truncf {{.*}} : vector<8xf32> to vector<8xf16>
// CHECK-NEXT: vector.store
func.func @half(%x: memref<1x8x16x128xf16>, %w: memref<3x3x128xf16>, %y: memref<1x8x16x128xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x16x128xf16>, memref<3x3x128xf16>) outs(%y : memref<1x8x16x128xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<channels = 8, filter = "smem">}
  return
}
