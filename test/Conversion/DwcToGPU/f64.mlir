// f64 depthwise ops on the direct kernels: f64 accumulation (no conversion
// to f32 anywhere), 2 x f64 (128-bit) vectors when C is even, scalar
// otherwise; backward-filter sums in f64 too.
// RUN: dwc-opt %s --convert-dwc-to-gpu -cse -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @dw_f64_vec
// CHECK: gpu.launch
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<2x8x8x6xf64>, vector<2xf64>
// CHECK: vector.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<2xf64>
// CHECK-NOT: f32
// CHECK: vector.store %{{.*}} : memref<2x8x8x6xf64>, vector<2xf64>
func.func @dw_f64_vec(%x: memref<2x8x8x6xf64>, %w: memref<3x3x6xf64>, %b: memref<6xf64>, %y: memref<2x8x8x6xf64>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<2x8x8x6xf64>, memref<3x3x6xf64>) bias(%b : memref<6xf64>)
    outs(%y : memref<2x8x8x6xf64>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// C = 5: scalar loads (vector<1xf64>).
// CHECK-LABEL: func.func @bwd_data_f64_scalar
// CHECK: gpu.launch
// CHECK: memref.load %{{.*}} : memref<2x5x4x5xf64>
// CHECK: vector.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<1xf64>
// CHECK-NOT: f32
// CHECK: memref.store %{{.*}} : memref<2x9x8x5xf64>
func.func @bwd_data_f64_scalar(%dy: memref<2x5x4x5xf64>, %w: memref<3x3x5xf64>, %dx: memref<2x9x8x5xf64>) {
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<2x5x4x5xf64>, memref<3x3x5xf64>)
    outs(%dx : memref<2x9x8x5xf64>) strides = [2, 2] dilations = [1, 1] padding = [1, 2, 0, 1]
  return
}

// -----

// CHECK-LABEL: func.func @bwd_filter_f64(
// CHECK: gpu.launch
// CHECK: arith.constant dense<0.000000e+00> : vector<2xf64>
// CHECK: scf.for
// CHECK: vector.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<2xf64>
// CHECK-NOT: f32
// CHECK: vector.store %{{.*}} : memref<5x7x6xf64>, vector<2xf64>
func.func @bwd_filter_f64(%x: memref<1x8x7x6xf64>, %dy: memref<1x4x4x6xf64>, %dw: memref<5x7x6xf64>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<1x8x7x6xf64>, memref<1x4x4x6xf64>)
    outs(%dw : memref<5x7x6xf64>) strides = [2, 2] dilations = [1, 1] padding = [1, 3, 2, 4]
  return
}

// -----

// f64 inputs, f32 filter gradient: summed in f64, rounded once.
// CHECK-LABEL: func.func @bwd_filter_f64_to_f32
// CHECK: vector.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<2xf64>
// CHECK: arith.truncf %{{.*}} : vector<2xf64> to vector<2xf32>
func.func @bwd_filter_f64_to_f32(%x: memref<1x8x8x6xf64>, %dy: memref<1x8x8x6xf64>, %dw: memref<3x3x6xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<1x8x8x6xf64>, memref<1x8x8x6xf64>)
    outs(%dw : memref<3x3x6xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}
