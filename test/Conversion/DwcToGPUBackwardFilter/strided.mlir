// RUN: dwc-opt %s --split-input-file --dwc-select-kernels --convert-dwc-to-gpu-backward-filter | FileCheck %s
// RUN: dwc-opt %s --split-input-file --dwc-attach-target=sm-count=1 --dwc-select-kernels --convert-dwc-to-gpu-backward-filter | FileCheck %s --check-prefix=STREAM

// Strided dY, streaming kernel (requested; 16-bit strided dY takes the
// image kernel by default on grids of 2 x sm-count blocks, else streams
// where the streaming grid has at least sm-count / 4 blocks): 3x3 s2 f16:
// R = 2 output rows per step, (R-1)*2 + 3 = 5 input rows. The input row of
// a row block is oh0 * 2 - pt; per output column 2 new input columns (FW -
// sw = 1 column is shared with the next output column) x 5 rows and 2 dY
// vectors enter the window, and R x 9 = 18 FMAs accumulate: OW = 6
// columns, interior and checked row blocks, 2 x 6 x 18 = 216 FMAs.
// CHECK-LABEL: func @f16_s2_stream
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK-SAME: workgroup(
// CHECK: scf.for
// CHECK: arith.muli %{{.*}}, %c2
// CHECK-COUNT-216: vector.fma
// CHECK-NOT: vector.fma
// CHECK: gpu.barrier
// CHECK: memref.atomic_rmw addf
// CHECK-NOT: dwc.depthwise_conv2d_backward_filter
// Without a request: at the default sm-count (132) every grid is too small
// (2 images): split-z; with sm-count=1 the image kernel's 10 blocks of one
// output row are 2 waves.
// CHECK-LABEL: func @f16_s2
// CHECK-NOT: workgroup
// CHECK: memref.atomic_rmw addf
// CHECK-NOT: dwc.depthwise_conv2d_backward_filter
// STREAM-LABEL: func @f16_s2
// STREAM: function(@f16_s2_bwd_filter_image)
// STREAM-NOT: memref.atomic_rmw
// STREAM: function(@f16_s2_bwd_filter_image_reduce)
func.func @f16_s2_stream(%x: memref<2x9x11x32xf16>, %dy: memref<2x5x6x32xf16>, %dw: memref<3x3x32xf16>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<2x9x11x32xf16>, memref<2x5x6x32xf16>) outs(%dw : memref<3x3x32xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_stream<>}
  return
}
func.func @f16_s2(%x: memref<2x9x11x32xf16>, %dy: memref<2x5x6x32xf16>, %dw: memref<3x3x32xf16>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<2x9x11x32xf16>, memref<2x5x6x32xf16>) outs(%dw : memref<3x3x32xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// f32 with a stride: split-z even for 3x3 (and even with sm-count=1).
// CHECK-LABEL: func @f32_s2
// CHECK-NOT: workgroup
// CHECK: arith.muli %{{.*}}, %c2
// CHECK: memref.atomic_rmw addf
// CHECK-NOT: dwc.depthwise_conv2d_backward_filter
// STREAM-LABEL: func @f32_s2
// STREAM-NOT: workgroup
// STREAM: memref.atomic_rmw addf
func.func @f32_s2(%x: memref<2x9x11x32xf32>, %dy: memref<2x5x6x32xf32>, %dw: memref<3x3x32xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<2x9x11x32xf32>, memref<2x5x6x32xf32>) outs(%dw : memref<3x3x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// Strided dY, split-z kernel (5x5 s2): the input row of dY row oh is
// oh * 2 + fh - pt; per output column 2 new input vectors (TW - sw = 3 are
// shared with the next column), one dY vector, 5 FMAs.
// CHECK-LABEL: func @splitz_s2
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK-NOT: workgroup
// CHECK: scf.for
// CHECK: arith.muli %{{.*}}, %c2
// CHECK: scf.if
// CHECK-COUNT-10: vector.fma
// CHECK: memref.atomic_rmw addf
// CHECK-NOT: dwc.depthwise_conv2d_backward_filter
func.func @splitz_s2(%x: memref<1x7x4x32xf32>, %dy: memref<1x4x2x32xf32>, %dw: memref<5x5x32xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<1x7x4x32xf32>, memref<1x4x2x32xf32>) outs(%dw : memref<5x5x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2]
  return
}

// -----

// Stride 3 x 1 with a 3x2 filter (f16, a small grid: split-z, workspace and
// conversion kernel).
// CHECK-LABEL: func @s3x1_f16
// CHECK: memref.alloc() : memref<3x2x16xf32>
// CHECK: arith.muli %{{.*}}, %c3
// CHECK: memref.atomic_rmw addf
// CHECK: arith.truncf {{.*}} : vector<8xf32> to vector<8xf16>
// CHECK-NOT: dwc.depthwise_conv2d_backward_filter
func.func @s3x1_f16(%x: memref<1x10x9x16xf16>, %dy: memref<1x4x9x16xf16>, %dw: memref<3x2x16xf16>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<1x10x9x16xf16>, memref<1x4x9x16xf16>) outs(%dw : memref<3x2x16xf16>)
    strides = [3, 1] dilations = [1, 1] padding = [2, 0, 0, 1]
  return
}

// -----

// Still left to convert-dwc-to-gpu with a stride: dilation 2, C % 4 != 0.
// CHECK-LABEL: func @strided_refused
// CHECK-NOT: gpu.launch
// CHECK-COUNT-2: dwc.depthwise_conv2d_backward_filter
func.func @strided_refused(%x: memref<1x9x9x32xf32>, %dy: memref<1x3x3x32xf32>, %dw: memref<3x3x32xf32>,
                           %x6: memref<1x8x8x6xf32>, %dy6: memref<1x4x4x6xf32>, %dw6: memref<3x3x6xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<1x9x9x32xf32>, memref<1x3x3x32xf32>) outs(%dw : memref<3x3x32xf32>)
    strides = [2, 2] dilations = [2, 2] padding = [0, 0, 0, 0]
  dwc.depthwise_conv2d_backward_filter ins(%x6, %dy6 : memref<1x8x8x6xf32>, memref<1x4x4x6xf32>) outs(%dw6 : memref<3x3x6xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// 16-bit split-z on strided dY (requested: the image kernel is the
// default there): at most 256 slices (N * OH = 896 rows ->
// 4 rows per slice, Z = 224: 5 tap tiles x 56 slice groups x 4 slots = 35
// slot blocks x 4 channel groups = 140 blocks; one row per slice would be
// 560). f32 keeps the four-wave rule (896 slices, 8 channel groups x 140
// slot blocks = 1120 blocks).
// CHECK-LABEL: func @f16_slices_s2
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c140,
// CHECK-LABEL: func @f32_slices_s2
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1120,
func.func @f16_slices_s2(%x: memref<64x28x28x240xf16>, %dy: memref<64x14x14x240xf16>, %dw: memref<5x5x240xf16>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<64x28x28x240xf16>, memref<64x14x14x240xf16>) outs(%dw : memref<5x5x240xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.bwd_filter_split_z<>}
  return
}
func.func @f32_slices_s2(%x: memref<64x28x28x240xf32>, %dy: memref<64x14x14x240xf32>, %dw: memref<5x5x240xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<64x28x28x240xf32>, memref<64x14x14x240xf32>) outs(%dw : memref<5x5x240xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2]
  return
}
