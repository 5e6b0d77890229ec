// Front-end forms raise-linalg-to-dwc must not raise: no dwc op anywhere.
// RUN: dwc-opt %s --raise-linalg-to-dwc --split-input-file | FileCheck %s
// RUN: dwc-opt %s --raise-linalg-to-dwc --split-input-file | FileCheck %s --check-prefix=NONE
// NONE-NOT: dwc.

// f64 NCHW ops are left in NCHW (dwc's raised ops take f32/f16/bf16).
// CHECK-LABEL: func.func @nchw_f64
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-NOT: linalg.transpose
func.func @nchw_f64(%x: tensor<1x3x8x8xf64>, %w: tensor<4x3x3x3xf64>) -> tensor<1x4x6x6xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<1x4x6x6xf64>
  %f = linalg.fill ins(%zero : f64) outs(%e : tensor<1x4x6x6xf64>) -> tensor<1x4x6x6xf64>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%x, %w : tensor<1x3x8x8xf64>, tensor<4x3x3x3xf64>) outs(%f : tensor<1x4x6x6xf64>) -> tensor<1x4x6x6xf64>
  return %y : tensor<1x4x6x6xf64>
}

// -----

// An index-computed divisor that is no dwc divisor (index + 1).
// CHECK-LABEL: func.func @odd_divisor
// CHECK: linalg.pooling_nhwc_sum
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @odd_divisor(%x: tensor<1x6x6x8xf32>) -> tensor<1x4x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<1x4x4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %k = tensor.empty() : tensor<3x3xf32>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%x, %k : tensor<1x6x6x8xf32>, tensor<3x3xf32>) outs(%f : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%s : tensor<1x4x4x8xf32>) outs(%e : tensor<1x4x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 1 : index
    %n = arith.addi %i, %c1 : index
    %ni = arith.index_cast %n : index to i32
    %nf = arith.sitofp %ni : i32 to f32
    %d = arith.divf %in, %nf : f32
    linalg.yield %d : f32
  } -> tensor<1x4x4x8xf32>
  return %y : tensor<1x4x4x8xf32>
}

// -----

// A divisor that depends on the channel is no pooling divisor.
// CHECK-LABEL: func.func @channel_divisor
// CHECK: linalg.pooling_nhwc_sum
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @channel_divisor(%x: tensor<1x4x4x8xf32>) -> tensor<1x2x2x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c4 = arith.constant 4 : index
  %e = tensor.empty() : tensor<1x2x2x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x8xf32>) -> tensor<1x2x2x8xf32>
  %k = tensor.empty() : tensor<2x2xf32>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
         ins(%x, %k : tensor<1x4x4x8xf32>, tensor<2x2xf32>) outs(%f : tensor<1x2x2x8xf32>) -> tensor<1x2x2x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%s : tensor<1x2x2x8xf32>) outs(%e : tensor<1x2x2x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c = linalg.index 3 : index
    %n = arith.maxsi %c, %c4 : index
    %ni = arith.index_cast %n : index to i32
    %nf = arith.sitofp %ni : i32 to f32
    %d = arith.divf %in, %nf : f32
    linalg.yield %d : f32
  } -> tensor<1x2x2x8xf32>
  return %y : tensor<1x2x2x8xf32>
}

// -----

// A mean divided by the wrong count (H*W = 15, divisor 16).
// CHECK-LABEL: func.func @mean_wrong_count
// CHECK: linalg.generic
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#nc = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @mean_wrong_count(%x: tensor<2x8x3x5xf32>) -> tensor<2x8xf32> {
  %zero = arith.constant 0.0 : f32
  %hw = arith.constant 16.0 : f32
  %e = tensor.empty() : tensor<2x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #nc], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
         ins(%x : tensor<2x8x3x5xf32>) outs(%f : tensor<2x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<2x8xf32>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
         ins(%s : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %hw : f32
    linalg.yield %d : f32
  } -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

// -----

// A generic whose input map is not a convolution window (d2 * d3 is not
// affine-linear in the way a window is: here a transposed read).
// CHECK-LABEL: func.func @not_a_window
// CHECK: linalg.generic
#in = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d6, d0, d3, d5)>
#f = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d0, d3, d5)>
#out = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d6, d1, d2, d4)>
func.func @not_a_window(%x: tensor<1x3x3x3xf32>, %w: tensor<8x3x3x3xf32>, %i: tensor<1x8x5x5xf32>) -> tensor<1x8x5x5xf32> {
  %y = linalg.generic {indexing_maps = [#in, #f, #out], iterator_types = ["reduction", "parallel", "parallel", "reduction", "parallel", "reduction", "parallel"]}
         ins(%x, %w : tensor<1x3x3x3xf32>, tensor<8x3x3x3xf32>) outs(%i : tensor<1x8x5x5xf32>) {
  ^bb0(%in: f32, %wt: f32, %out: f32):
    %m = arith.mulf %in, %wt : f32
    %a = arith.addf %out, %m : f32
    linalg.yield %a : f32
  } -> tensor<1x8x5x5xf32>
  return %y : tensor<1x8x5x5xf32>
}
