// RUN: dwc-opt %s --split-input-file --convert-dwc-to-gpu-strided | FileCheck %s
// RUN: dwc-opt %s --split-input-file --convert-dwc-to-gpu-strided=forward=false | FileCheck %s --check-prefix=NOFWD

// Backward data, 3x3 stride 2, 8x8 dX: super rows t = 0..4 (t0 = pt / 2 = 0),
// Q = 5 super columns in segments of 4 (the last one cut at the edge). 9
// filter vectors, one warm-up dY column and per super column one new column
// of ceil(3/2) = 2 dY vectors: 9 + 2 + 4 x 2 = 19 loads; per super column
// the 2 x 2 phases take 4 + 2 + 2 + 1 = 9 FMAs (36) and 4 stores (16). No
// divisibility test.
// CHECK-LABEL: func @bwd_data_3x3_s2
// CHECK: gpu.launch
// CHECK-SAME: threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c256,
// CHECK-NOT: arith.remsi
// CHECK-NOT: arith.divsi
// CHECK-COUNT-9: vector.load %arg1
// CHECK-COUNT-2: vector.load %arg0
// CHECK-COUNT-4: vector.fma
// CHECK-NOT: vector.fma
// CHECK: vector.store %{{.*}}, %arg2
// CHECK-COUNT-32: vector.fma
// CHECK-NOT: dwc.depthwise_conv2d_backward_data
// NOFWD-LABEL: func @bwd_data_3x3_s2
// NOFWD: gpu.launch
func.func @bwd_data_3x3_s2(%dy: memref<2x4x4x32xf32>, %w: memref<3x3x32xf32>, %dx: memref<2x8x8x32xf32>) {
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<2x4x4x32xf32>, memref<3x3x32xf32>) outs(%dx : memref<2x8x8x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// Forward, 3x3 stride 2 with bias, 5x5 output: TH = 2 output rows (5 input
// rows), TQ = 5 columns; one warm-up column (FW - sw = 1 shared) and 2 new
// columns per output column: 5 + 5 x 10 = 55 input loads, 2 x 9 FMAs per
// column (90: 9 before the first store), 10 stores (the last row tile's
// second row guarded).
// CHECK-LABEL: func @fwd_3x3_s2
// CHECK: gpu.launch
// CHECK-COUNT-9: vector.load %arg1
// CHECK: vector.load %arg2
// CHECK-COUNT-5: vector.load %arg0
// CHECK-COUNT-10: vector.load %arg0
// CHECK-COUNT-9: vector.fma
// CHECK: vector.store %{{.*}}, %arg3
// CHECK-COUNT-81: vector.fma
// CHECK-NOT: dwc.depthwise_conv2d
// NOFWD-LABEL: func @fwd_3x3_s2
// NOFWD-NOT: gpu.launch
// NOFWD: dwc.depthwise_conv2d ins
func.func @fwd_3x3_s2(%x: memref<1x9x9x32xf32>, %w: memref<3x3x32xf32>, %b: memref<32xf32>, %y: memref<1x5x5x32xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x9x9x32xf32>, memref<3x3x32xf32>) bias(%b : memref<32xf32>) outs(%y : memref<1x5x5x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// Vector widths: the widest of 128/64/32 bits dividing C with FH*FW*V <= 64
// filter registers: 3x3 f16 4 channels (64 bits), 5x5 f32 2 channels, f32
// C = 13 one channel, f16 C = 10 two channels.
// CHECK-LABEL: func @widths
// CHECK: vector.load %arg0{{.*}} : memref<1x4x4x64xf16>, vector<4xf16>
// CHECK: vector.load %arg3{{.*}} : memref<1x4x4x32xf32>, vector<2xf32>
// CHECK: vector.load %arg6{{.*}} : memref<1x4x4x13xf32>, vector<1xf32>
// CHECK: vector.load %arg9{{.*}} : memref<1x4x4x10xf16>, vector<2xf16>
func.func @widths(%dy: memref<1x4x4x64xf16>, %w: memref<3x3x64xf16>, %dx: memref<1x8x8x64xf16>,
                  %dy5: memref<1x4x4x32xf32>, %w5: memref<5x5x32xf32>, %dx5: memref<1x8x8x32xf32>,
                  %dy13: memref<1x4x4x13xf32>, %w13: memref<3x3x13xf32>, %dx13: memref<1x8x8x13xf32>,
                  %dy10: memref<1x4x4x10xf16>, %w10: memref<3x3x10xf16>, %dx10: memref<1x8x8x10xf16>) {
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<1x4x4x64xf16>, memref<3x3x64xf16>) outs(%dx : memref<1x8x8x64xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_data ins(%dy5, %w5 : memref<1x4x4x32xf32>, memref<5x5x32xf32>) outs(%dx5 : memref<1x8x8x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d_backward_data ins(%dy13, %w13 : memref<1x4x4x13xf32>, memref<3x3x13xf32>) outs(%dx13 : memref<1x8x8x13xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_data ins(%dy10, %w10 : memref<1x4x4x10xf16>, memref<3x3x10xf16>) outs(%dx10 : memref<1x8x8x10xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}
