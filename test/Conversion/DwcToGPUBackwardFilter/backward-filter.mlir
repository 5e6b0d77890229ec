// The split-z backward-filter lowering: zero-fill kernel, split-z kernel
// with the width-first register window and f32 atomics, the f32 workspace
// and conversion kernel for f16 filter gradients, the slice-count rule and
// requested fields, and the ops left to the direct kernel (the 3x3 ops
// request #dwc.bwd_filter_split_z, which dwc-select-kernels completes; the
// streaming kernel is tested in stream.mlir).
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-backward-filter --canonicalize --cse -split-input-file | FileCheck %s

// 2 x 8 rows of dY; 32 channels (one channel group), 3x3 filter: 3 tap
// tiles of TW = 3, 8 x 3 = 24 threads per slice. Z = ceil(4*132*2048 / 24)
// clamped to N*OH = 16 rows: 16 slices of one row, 48 work units -> 2
// blocks of 256 threads. Zero-fill: 3*3*32/4 = 72 vectors, one block.
// CHECK-LABEL: func @f32_3x3
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1, {{.*}}) threads({{.*}}) in ({{.*}} = %c256,
// CHECK: vector.store %cst, %arg2
// CHECK: gpu.terminator
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c2, {{.*}}) threads({{.*}}) in ({{.*}} = %c256,
// Rows of the slice, carrying TW = 3 sums.
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>)
// CHECK: scf.if
// Window prologue of TW - 1 = 2 input vectors (column -1 is padding: a
// constant zero after canonicalization), then the unrolled width loop
// (OW = 8: one chunk, no loop): per column one input vector, one dY vector
// and 3 FMAs.
// CHECK: vector.load %arg0[{{.*}}, %c0, {{.*}}]
// CHECK-NEXT: vector.load %arg0[{{.*}}, %c1, {{.*}}]
// CHECK-NEXT: vector.load %arg1[{{.*}}, %c0, {{.*}}]
// CHECK-COUNT-3: vector.fma
// CHECK-NEXT: vector.load %arg0[{{.*}}, %c2, {{.*}}]
// CHECK-NEXT: vector.load %arg1[{{.*}}, %c1, {{.*}}]
// CHECK-COUNT-3: vector.fma
// The 4 slices of a tile in a warp (lanes 8 and 16 apart) sum their
// results with butterfly shuffles; the first slot of each group adds the
// 3 x 4 sums with f32 atomics, straight into dW.
// CHECK: gpu.shuffle  xor %{{.*}}, %c8_i32, %c32_i32 : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK: arith.cmpi eq
// CHECK: scf.if
// CHECK-COUNT-12: memref.atomic_rmw addf {{.*}}, %arg2[
// CHECK-NOT: memref.alloc
func.func @f32_3x3(%x: memref<2x8x8x32xf32>, %dy: memref<2x8x8x32xf32>, %dw: memref<3x3x32xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<2x8x8x32xf32>, memref<2x8x8x32xf32>) outs(%dw : memref<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_split_z<>}
  return
}

// -----

// CHECK-LABEL: func @f32_3x3_opt
// z = 4: slices of 4 rows; TW = 2 -> 2 tap tiles per row, the second one
// with one tap past FW whose sums are dropped; warp_slices = 1: every
// thread adds its own sums.
// CHECK-NOT: gpu.shuffle
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<4xf32>, vector<4xf32>)
// CHECK: memref.atomic_rmw addf
// CHECK: arith.cmpi slt
// CHECK: scf.if
// CHECK: memref.atomic_rmw addf
func.func @f32_3x3_opt(%x: memref<2x8x8x32xf32>, %dy: memref<2x8x8x32xf32>, %dw: memref<3x3x32xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<2x8x8x32xf32>, memref<2x8x8x32xf32>) outs(%dw : memref<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_split_z<z = 4, tile_width = 2, warp_slices = 1>}
  return
}

// -----

// Wide rows: OW = 20 -> a loop of 2 chunks of 8 unrolled columns carrying
// the 3 sums and the 2-vector window, then 4 tail columns.
// CHECK-LABEL: func @wide_row
// CHECK: scf.for {{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>)
// CHECK: scf.for {{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// CHECK-COUNT-24: vector.fma
// CHECK: scf.yield
// CHECK-COUNT-12: vector.fma
func.func @wide_row(%x: memref<1x4x20x16xf32>, %dy: memref<1x4x20x16xf32>, %dw: memref<3x3x16xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<1x4x20x16xf32>, memref<1x4x20x16xf32>) outs(%dw : memref<3x3x16xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_split_z<>}
  return
}

// -----

// 9x9 = 81 taps > 64: no warp reduction (the slots of a warp take different
// tap tiles of the same rows), one atomic add per thread and sum.
// CHECK-LABEL: func @no_warp_reduce_9x9
// CHECK-NOT: gpu.shuffle
// CHECK: memref.atomic_rmw addf
// CHECK-NOT: gpu.shuffle
// CHECK: return
func.func @no_warp_reduce_9x9(%x: memref<1x8x8x32xf32>, %dy: memref<1x8x8x32xf32>, %dw: memref<9x9x32xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<1x8x8x32xf32>, memref<1x8x8x32xf32>) outs(%dw : memref<9x9x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4]
  return
}

// -----

// f16 in, f16 out: sums in an f32 workspace (zeroed, atomics), rounded
// once by a conversion kernel, freed after it. 8 channels per thread.
// CHECK-LABEL: func @f16_to_f16
// CHECK: %[[WS:.*]] = memref.alloc() : memref<3x3x64xf32>
// CHECK: gpu.launch
// CHECK: vector.store {{.*}}, %[[WS]]
// CHECK: gpu.launch
// CHECK: vector.load %arg0{{.*}} vector<8xf16>
// CHECK: arith.extf {{.*}} : vector<8xf16> to vector<8xf32>
// CHECK-COUNT-8: memref.atomic_rmw addf {{.*}}, %[[WS]][
// CHECK: gpu.launch
// CHECK: vector.load %[[WS]]{{.*}} vector<8xf32>
// CHECK: arith.truncf {{.*}} : vector<8xf32> to vector<8xf16>
// CHECK: vector.store {{.*}}, %arg2
// CHECK: memref.dealloc %[[WS]]
func.func @f16_to_f16(%x: memref<2x8x8x64xf16>, %dy: memref<2x8x8x64xf16>, %dw: memref<3x3x64xf16>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<2x8x8x64xf16>, memref<2x8x8x64xf16>) outs(%dw : memref<3x3x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_split_z<>}
  return
}

// -----

// f16 in, f32 out: atomics straight into dW, no workspace.
// CHECK-LABEL: func @f16_to_f32
// CHECK-NOT: memref.alloc
// CHECK: memref.atomic_rmw addf {{.*}}, %arg2[
// CHECK-NOT: arith.truncf
func.func @f16_to_f32(%x: memref<2x8x8x64xf16>, %dy: memref<2x8x8x64xf16>, %dw: memref<3x3x64xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<2x8x8x64xf16>, memref<2x8x8x64xf16>) outs(%dw : memref<3x3x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_split_z<>}
  return
}

// -----

// Left to convert-dwc-to-gpu: dilation 2, C % 4 != 0 (f32), C % 8 != 0
// (f16), f64 (summed in f64 by the direct kernel), tensor form (strided
// ops: strided.mlir).
// CHECK-LABEL: func @refused
// CHECK-NOT: gpu.launch
// CHECK-COUNT-4: dwc.depthwise_conv2d_backward_filter
// CHECK: return
func.func @refused(%x: memref<1x8x8x32xf32>, %dy2: memref<1x4x4x32xf32>, %dy: memref<1x8x8x32xf32>,
                   %x5: memref<1x8x8x6xf32>, %dy5: memref<1x8x8x6xf32>,
                   %xh: memref<1x8x8x12xf16>, %dyh: memref<1x8x8x12xf16>,
                   %dw: memref<3x3x32xf32>, %dw5: memref<3x3x6xf32>, %dwh: memref<3x3x12xf16>,
                   %xd: memref<1x8x8x32xf64>, %dyd: memref<1x8x8x32xf64>, %dwd: memref<3x3x32xf64>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<1x8x8x32xf32>, memref<1x8x8x32xf32>) outs(%dw : memref<3x3x32xf32>)
    strides = [1, 1] dilations = [2, 2] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d_backward_filter ins(%x5, %dy5 : memref<1x8x8x6xf32>, memref<1x8x8x6xf32>) outs(%dw5 : memref<3x3x6xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%xh, %dyh : memref<1x8x8x12xf16>, memref<1x8x8x12xf16>) outs(%dwh : memref<3x3x12xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_filter ins(%xd, %dyd : memref<1x8x8x32xf64>, memref<1x8x8x32xf64>) outs(%dwd : memref<3x3x32xf64>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// CHECK-LABEL: func @tensor_form
// CHECK: dwc.depthwise_conv2d_backward_filter
func.func @tensor_form(%x: tensor<1x8x8x32xf32>, %dy: tensor<1x8x8x32xf32>, %dw: tensor<3x3x32xf32>) -> tensor<3x3x32xf32> {
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%dw : tensor<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<3x3x32xf32>
  return %r : tensor<3x3x32xf32>
}
