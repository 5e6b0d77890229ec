// The GEMV pass's plane kernel (#dwc.plane): the band of input rows staged
// once (zero halo, widened to f32) in shared memory, one barrier, then
// register row tiles from shared memory with the filter in registers;
// backward data on the rotated filter; ops without a plane configuration
// or in tensor form are left alone.
// RUN: dwc-opt %s --convert-dwc-to-gpu-gemv --canonicalize --cse -split-input-file | FileCheck %s

// f16 14 x 14 x 16, 2 channels x 2 rows x 7 outputs per thread, 16
// channels and the whole plane per block: 2 blocks (one per image) of 8
// lanes x 7 x 2 strips = 112 threads; a 20 x 20 x 16 f32 plane (800
// 128-bit input vectors, slot tid + k x 112: 8 copies per thread, all 8
// loads issued before the stores, the last store guarded; clamped loads
// zeroed as 32-bit words in the halo); the 49 filter vectors;
// 8 input rows of 13 window vectors each feeding 1 or 2 output rows (49 /
// 98 FMAs), output row 0 stored after its last filter row (input row 6),
// row 1 after input row 7.
// CHECK-LABEL: func @f16_14x14
// CHECK: gpu.launch blocks({{[^)]*}}) in ({{[^,]*}} = %c2{{[^,]*}}, {{[^)]*}}) threads({{[^)]*}}) in ({{[^,]*}} = %c112{{[^,]*}},
// CHECK-SAME: function(@f16_14x14_plane) workgroup(%[[P:.*]] : memref<20x20x16xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT: scf.for
// CHECK: arith.cmpi slt, %{{.*}}, %c800 : index
// CHECK: vector.load %arg0{{.*}} : memref<2x14x14x16xf16>, vector<8xf16>
// CHECK-NEXT: vector.bitcast {{.*}} : vector<8xf16> to vector<4xi32>
// CHECK-NEXT: arith.select
// CHECK-NEXT: vector.bitcast
// CHECK-NEXT: arith.extf {{.*}} : vector<8xf16> to vector<8xf32>
// CHECK-COUNT-7: vector.load %arg0{{.*}} : memref<2x14x14x16xf16>, vector<8xf16>
// CHECK-NOT: vector.load %arg0
// CHECK-COUNT-7: vector.store {{.*}}, %[[P]]{{.*}} : memref<20x20x16xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK-NEXT: scf.if
// CHECK-NEXT: vector.store {{.*}}, %[[P]]
// CHECK-NEXT: {{^ +[}]$}}
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-49: vector.load %arg1{{.*}} : memref<7x7x16xf16>, vector<2xf16>
// CHECK-NOT: vector.load %arg0
// CHECK-COUNT-13: vector.load %[[P]]{{.*}} : memref<20x20x16xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK-COUNT-49: vector.fma
// CHECK-COUNT-13: vector.load %[[P]]
// CHECK-COUNT-98: vector.fma
// CHECK-COUNT-13: vector.load %[[P]]
// CHECK-COUNT-98: vector.fma
// CHECK-COUNT-13: vector.load %[[P]]
// CHECK-COUNT-98: vector.fma
// CHECK-COUNT-13: vector.load %[[P]]
// CHECK-COUNT-98: vector.fma
// CHECK-COUNT-13: vector.load %[[P]]
// CHECK-COUNT-98: vector.fma
// CHECK-COUNT-13: vector.load %[[P]]
// CHECK-COUNT-49: vector.fma
// CHECK-COUNT-7: vector.store {{.*}}, %arg2{{.*}} : memref<2x14x14x16xf16>, vector<2xf16>
// CHECK-COUNT-49: vector.fma
// CHECK-COUNT-13: vector.load %[[P]]
// CHECK-COUNT-49: vector.fma
// CHECK-COUNT-7: vector.store {{.*}}, %arg2
// CHECK-NOT: vector.fma
// CHECK: gpu.terminator
func.func @f16_14x14(%x: memref<2x14x14x16xf16>, %w: memref<7x7x16xf16>, %y: memref<2x14x14x16xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<2x14x14x16xf16>, memref<7x7x16xf16>)
    outs(%y : memref<2x14x14x16xf16>) strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
    {dwc.kernel = #dwc.plane<channels = 2, block_channels = 16, rows = 2, columns = 7, band = 14>}
  return
}

// -----

// f32, 1 channel x 8 channels per block: a warp spans 4 strips, whose
// window loads would hit the same banks with 20 positions per staged row;
// the rows are padded to 21.
// CHECK-LABEL: func @bank_pad
// CHECK: workgroup(%{{.*}} : memref<20x21x8xf32, #gpu.address_space<workgroup>>)
func.func @bank_pad(%x: memref<1x14x14x8xf32>, %w: memref<7x7x8xf32>, %y: memref<1x14x14x8xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x14x14x8xf32>, memref<7x7x8xf32>)
    outs(%y : memref<1x14x14x8xf32>) strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
    {dwc.kernel = #dwc.plane<channels = 1, block_channels = 8, rows = 2, columns = 7, band = 14>}
  return
}

// -----

// Backward data (bf16, 4 x 2 filter, transposed padding 2 / 1): bands of 5
// of the 7 rows (the second band moved back to rows 2..6), tiles of 3 rows
// (the last moved back to row 2 of the band) x 4 outputs (the last of 9
// moved back to column 5): the starts are selected by tile index; an 8 x
// 10 x 4 plane (80 slots: 7 copies per thread); the filter read rotated
// (tap (3, 1) first).
// CHECK-LABEL: func @bwd
// CHECK: gpu.launch blocks({{[^)]*}}) in ({{[^,]*}} = %c2{{[^,]*}}, {{[^)]*}}) threads({{[^)]*}}) in ({{[^,]*}} = %c12{{[^,]*}},
// CHECK-SAME: workgroup(%[[P:.*]] : memref<8x10x4xf32, #gpu.address_space<workgroup>>)
// CHECK: arith.select %{{.*}}, %c2, %{{.*}} : index
// CHECK-COUNT-7: vector.load %arg0{{.*}} : memref<1x7x9x4xbf16>, vector<4xbf16>
// CHECK: scf.if
// CHECK: gpu.barrier
// CHECK: arith.select %{{.*}}, %c2, %{{.*}} : index
// CHECK: arith.select %{{.*}}, %c5, %{{.*}} : index
// CHECK-NEXT: vector.load %arg1[%c3, %c1, %{{.*}}] {{.*}} : memref<4x2x4xbf16>, vector<2xbf16>
// CHECK: vector.load %arg1[%c3, %c0,
// CHECK-COUNT-5: vector.load %[[P]]
// CHECK-COUNT-8: vector.fma
func.func @bwd(%dy: memref<1x7x9x4xbf16>, %w: memref<4x2x4xbf16>, %dx: memref<1x7x9x4xbf16>) {
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<1x7x9x4xbf16>, memref<4x2x4xbf16>)
    outs(%dx : memref<1x7x9x4xbf16>) strides = [1, 1] dilations = [1, 1] padding = [1, 2, 1, 0]
    {dwc.kernel = #dwc.plane<channels = 2, block_channels = 4, rows = 3, columns = 4, band = 5>}
  return
}

// -----

// More than 16 copies per thread (4 threads, 400 slots): a copy loop.
// CHECK-LABEL: func @copy_loop
// CHECK: threads({{[^)]*}}) in ({{[^,]*}} = %c4{{[^,]*}},
// CHECK: scf.for %{{.*}} = %{{.*}} to %c400 step %c4 {
// CHECK: vector.load %arg0
// CHECK: vector.store
// CHECK-NEXT: {{^ +[}]$}}
// CHECK-NEXT: gpu.barrier
func.func @copy_loop(%x: memref<1x14x14x4xf16>, %w: memref<7x7x4xf16>, %y: memref<1x14x14x4xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x14x14x4xf16>, memref<7x7x4xf16>)
    outs(%y : memref<1x14x14x4xf16>) strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
    {dwc.kernel = #dwc.plane<channels = 4, block_channels = 4, rows = 4, columns = 16, band = 14>}
  return
}

// -----

// Left alone: no configuration of this family, or tensor form.
// CHECK-LABEL: func @left_alone
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d
// CHECK: dwc.depthwise_conv2d
func.func @left_alone(%x: memref<1x7x7x8xf16>, %w: memref<7x7x8xf16>, %y: memref<1x7x7x8xf16>, %t: tensor<1x7x7x8xf16>, %tw: tensor<7x7x8xf16>) -> tensor<1x7x7x8xf16> {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x7x7x8xf16>, memref<7x7x8xf16>)
    outs(%y : memref<1x7x7x8xf16>) strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
  %e = tensor.empty() : tensor<1x7x7x8xf16>
  %r = dwc.depthwise_conv2d ins(%t, %tw : tensor<1x7x7x8xf16>, tensor<7x7x8xf16>)
    outs(%e : tensor<1x7x7x8xf16>) strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
    {dwc.kernel = #dwc.plane<channels = 2, block_channels = 8, rows = 2, columns = 7, band = 7>} -> tensor<1x7x7x8xf16>
  return %r : tensor<1x7x7x8xf16>
}

// -----

// Strided forward (2 x 2, 5x5, f16 2 x 14 x 14 x 16): the band of 7 output
// rows stages its windows' 6 x 2 + 5 = 17 rows of 17 positions (16 channels
// in 128-bit vectors); a 1 x 7 tile (8 lanes x 7 strips = 56 threads) reads
// 5 input rows of a 6 x 2 + 5 = 17-vector window each, output i taking
// vectors 2i .. 2i + 4: 35 FMAs per row, the row stored after the last.
// CHECK-LABEL: func @f16_s2
// CHECK: gpu.launch blocks({{[^)]*}}) in ({{[^,]*}} = %c2{{[^,]*}}, {{[^)]*}}) threads({{[^)]*}}) in ({{[^,]*}} = %c56{{[^,]*}},
// CHECK-SAME: function(@f16_s2_plane) workgroup(%[[P:.*]] : memref<17x17x16xf32, #gpu.address_space<workgroup>>)
// CHECK: gpu.barrier
// CHECK-COUNT-25: vector.load %arg1{{.*}} : memref<5x5x16xf16>, vector<2xf16>
// CHECK-COUNT-17: vector.load %[[P]]
// CHECK-COUNT-35: vector.fma
// CHECK-COUNT-17: vector.load %[[P]]
// CHECK-COUNT-35: vector.fma
// CHECK-COUNT-17: vector.load %[[P]]
// CHECK-COUNT-35: vector.fma
// CHECK-COUNT-17: vector.load %[[P]]
// CHECK-COUNT-35: vector.fma
// CHECK-COUNT-17: vector.load %[[P]]
// CHECK-COUNT-35: vector.fma
// CHECK-COUNT-7: vector.store {{.*}}, %arg2
// CHECK-NOT: vector.load %[[P]]
func.func @f16_s2(%x: memref<2x14x14x16xf16>, %w: memref<5x5x16xf16>, %y: memref<2x7x7x16xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<2x14x14x16xf16>, memref<5x5x16xf16>) outs(%y : memref<2x7x7x16xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.plane<channels = 2, block_channels = 16, rows = 1, columns = 7, band = 7>}
  return
}

// -----

// A stride larger than the filter (3 x 3 on 2x2): of the tile's (2 - 1) x
// 3 + 2 = 5 input rows the third feeds no output and is not read; of each
// 8-vector window the columns 2 and 5 feed none (4 rows x 6 loads, 2 x 2
// FMAs per output row and column); an 11 x 9 staged band of 4 rows.
// CHECK-LABEL: func @f32_s3_2x2
// CHECK: function(@f32_s3_2x2_plane) workgroup(%[[P:.*]] : memref<11x9x4xf32, #gpu.address_space<workgroup>>)
// CHECK: gpu.barrier
// CHECK-COUNT-24: vector.load %[[P]]
// CHECK-NOT: vector.load %[[P]]
func.func @f32_s3_2x2(%x: memref<1x10x8x4xf32>, %w: memref<2x2x4xf32>, %y: memref<1x4x3x4xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x10x8x4xf32>, memref<2x2x4xf32>) outs(%y : memref<1x4x3x4xf32>)
    strides = [3, 3] dilations = [1, 1] padding = [0, 1, 1, 0] {dwc.kernel = #dwc.plane<channels = 1, block_channels = 4, rows = 2, columns = 3, band = 4>}
  return
}
