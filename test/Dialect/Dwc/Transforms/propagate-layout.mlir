// dwc-propagate-layout: transposes sink through element-wise generics,
// inverse pairs cancel, transposes of constants fold; what must stay stays.
// RUN: dwc-opt %s --dwc-propagate-layout --split-input-file | FileCheck %s

// A transpose to NCHW, a ReLU and a transpose back to NHWC: nothing is left
// but the ReLU in NHWC.
// CHECK-LABEL: func.func @sink_and_cancel
// CHECK-NOT: linalg.transpose
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<1x4x4x8xf32>) outs(%{{.*}} : tensor<1x4x4x8xf32>)
// CHECK: return %[[R]]
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @sink_and_cancel(%y: tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %t = linalg.transpose ins(%y : tensor<1x4x4x8xf32>) outs(%e : tensor<1x8x4x4xf32>) permutation = [0, 3, 1, 2]
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%t : tensor<1x8x4x4xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x4x4xf32>
  %f = tensor.empty() : tensor<1x4x4x8xf32>
  %u = linalg.transpose ins(%r : tensor<1x8x4x4xf32>) outs(%f : tensor<1x4x4x8xf32>) permutation = [0, 2, 3, 1]
  return %u : tensor<1x4x4x8xf32>
}

// -----

// A per-channel operand (map (d1, 0, 0) in NCHW) is re-indexed to (d3, 0, 0)
// and linalg.index 1 (C) becomes linalg.index 3.
// CHECK-DAG: #[[CH:.*]] = affine_map<(d0, d1, d2, d3) -> (d3, 0, 0)>
// CHECK-LABEL: func.func @reindex
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[CH]], #{{.*}}]
// CHECK-SAME: ins(%arg0, %arg1 : tensor<1x4x4x8xf32>, tensor<8x1x1xf32>)
// CHECK: linalg.index 3
// CHECK: linalg.transpose {{.*}} permutation = [0, 3, 1, 2]
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
func.func @reindex(%y: tensor<1x4x4x8xf32>, %s: tensor<8x1x1xf32>) -> tensor<1x8x4x4xf32> {
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %t = linalg.transpose ins(%y : tensor<1x4x4x8xf32>) outs(%e : tensor<1x8x4x4xf32>) permutation = [0, 3, 1, 2]
  %r = linalg.generic {indexing_maps = [#id, #c, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%t, %s : tensor<1x8x4x4xf32>, tensor<8x1x1xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%in: f32, %sc: f32, %out: f32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %m = arith.mulf %in, %sc : f32
    %a = arith.addf %m, %f : f32
    linalg.yield %a : f32
  } -> tensor<1x8x4x4xf32>
  return %r : tensor<1x8x4x4xf32>
}

// -----

// A transpose of a constant (through a collapse_shape) folds.
// CHECK-LABEL: func.func @fold_constant
// CHECK: %[[C:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK-NOT: linalg.transpose
// CHECK: return %[[C]]
func.func @fold_constant() -> tensor<2x2xf32> {
  %c = arith.constant dense<[[[1.0, 2.0]], [[3.0, 4.0]]]> : tensor<2x1x2xf32>
  %r = tensor.collapse_shape %c [[0, 1], [2]] : tensor<2x1x2xf32> into tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %t = linalg.transpose ins(%r : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) permutation = [1, 0]
  return %t : tensor<2x2xf32>
}

// -----

// Refusals: a generic that reads its destination, a reduction, and a
// transpose that feeds a non-element-wise op stay as they are.
// CHECK-LABEL: func.func @refuse
// CHECK: %[[T:.*]] = linalg.transpose
// CHECK: linalg.generic {{.*}} ins(%[[T]] : tensor<1x8x4x4xf32>) outs(%arg1
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%[[T]] :
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#nc = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @refuse(%y: tensor<1x4x4x8xf32>, %acc: tensor<1x8x4x4xf32>, %z: tensor<1x8xf32>) -> (tensor<1x8x4x4xf32>, tensor<1x8xf32>) {
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %t = linalg.transpose ins(%y : tensor<1x4x4x8xf32>) outs(%e : tensor<1x8x4x4xf32>) permutation = [0, 3, 1, 2]
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%t : tensor<1x8x4x4xf32>) outs(%acc : tensor<1x8x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<1x8x4x4xf32>
  %s = linalg.generic {indexing_maps = [#id, #nc], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
         ins(%t : tensor<1x8x4x4xf32>) outs(%z : tensor<1x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<1x8xf32>
  return %r, %s : tensor<1x8x4x4xf32>, tensor<1x8xf32>
}

// -----

// A concatenation of transposed branches becomes a transpose of the
// concatenation (along the permuted dimension).
// CHECK-LABEL: func.func @concat
// CHECK: %[[C:.*]] = tensor.concat dim(3) %arg0, %arg1 : (tensor<1x4x4x8xf32>, tensor<1x4x4x3xf32>) -> tensor<1x4x4x11xf32>
// CHECK: linalg.transpose ins(%[[C]] : tensor<1x4x4x11xf32>) {{.*}} permutation = [0, 3, 1, 2]
func.func @concat(%a: tensor<1x4x4x8xf32>, %b: tensor<1x4x4x3xf32>) -> tensor<1x11x4x4xf32> {
  %ea = tensor.empty() : tensor<1x8x4x4xf32>
  %ta = linalg.transpose ins(%a : tensor<1x4x4x8xf32>) outs(%ea : tensor<1x8x4x4xf32>) permutation = [0, 3, 1, 2]
  %eb = tensor.empty() : tensor<1x3x4x4xf32>
  %tb = linalg.transpose ins(%b : tensor<1x4x4x3xf32>) outs(%eb : tensor<1x3x4x4xf32>) permutation = [0, 3, 1, 2]
  %c = tensor.concat dim(1) %ta, %tb : (tensor<1x8x4x4xf32>, tensor<1x3x4x4xf32>) -> tensor<1x11x4x4xf32>
  return %c : tensor<1x11x4x4xf32>
}

// -----

// TOSA's concatenation: insert_slice of transposed branches into an empty
// NCHW tensor becomes one NHWC chain and a single transpose at its end.
// CHECK-LABEL: func.func @insert_chain
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x4x4x11xf32>
// CHECK: %[[I0:.*]] = tensor.insert_slice %arg0 into %[[E]][0, 0, 0, 0] [1, 4, 4, 8] [1, 1, 1, 1]
// CHECK: %[[I1:.*]] = tensor.insert_slice %arg1 into %[[I0]][0, 0, 0, 8] [1, 4, 4, 3] [1, 1, 1, 1]
// CHECK: linalg.transpose ins(%[[I1]] : tensor<1x4x4x11xf32>) {{.*}} permutation = [0, 3, 1, 2]
// CHECK-NOT: linalg.transpose
func.func @insert_chain(%a: tensor<1x4x4x8xf32>, %b: tensor<1x4x4x3xf32>) -> tensor<1x11x4x4xf32> {
  %ea = tensor.empty() : tensor<1x8x4x4xf32>
  %ta = linalg.transpose ins(%a : tensor<1x4x4x8xf32>) outs(%ea : tensor<1x8x4x4xf32>) permutation = [0, 3, 1, 2]
  %eb = tensor.empty() : tensor<1x3x4x4xf32>
  %tb = linalg.transpose ins(%b : tensor<1x4x4x3xf32>) outs(%eb : tensor<1x3x4x4xf32>) permutation = [0, 3, 1, 2]
  %e = tensor.empty() : tensor<1x11x4x4xf32>
  %i0 = tensor.insert_slice %ta into %e[0, 0, 0, 0] [1, 8, 4, 4] [1, 1, 1, 1] : tensor<1x8x4x4xf32> into tensor<1x11x4x4xf32>
  %i1 = tensor.insert_slice %tb into %i0[0, 8, 0, 0] [1, 3, 4, 4] [1, 1, 1, 1] : tensor<1x3x4x4xf32> into tensor<1x11x4x4xf32>
  return %i1 : tensor<1x11x4x4xf32>
}

// -----

// A channel split of a transposed tensor slices the source instead.
// CHECK-LABEL: func.func @split
// CHECK: %[[S:.*]] = tensor.extract_slice %arg0[0, 0, 0, 2] [1, 4, 4, 3] [1, 1, 1, 1] : tensor<1x4x4x8xf32> to tensor<1x4x4x3xf32>
// CHECK: linalg.transpose ins(%[[S]] : tensor<1x4x4x3xf32>) {{.*}} permutation = [0, 3, 1, 2]
func.func @split(%a: tensor<1x4x4x8xf32>) -> tensor<1x3x4x4xf32> {
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %t = linalg.transpose ins(%a : tensor<1x4x4x8xf32>) outs(%e : tensor<1x8x4x4xf32>) permutation = [0, 3, 1, 2]
  %s = tensor.extract_slice %t[0, 2, 0, 0] [1, 3, 4, 4] [1, 1, 1, 1] : tensor<1x8x4x4xf32> to tensor<1x3x4x4xf32>
  return %s : tensor<1x3x4x4xf32>
}

// -----

// StableHLO's transpose is a copying generic with a permuted input map: it
// becomes a linalg.transpose and cancels with the inverse one.
// CHECK-LABEL: func.func @generic_transpose
// CHECK-NOT: linalg.transpose
// CHECK-NOT: linalg.generic
// CHECK: return %arg0
#nhwc = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @generic_transpose(%x: tensor<1x4x5x8xf32>) -> tensor<1x4x5x8xf32> {
  %e = tensor.empty() : tensor<1x8x4x5xf32>
  %t = linalg.generic {indexing_maps = [#nhwc, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%x : tensor<1x4x5x8xf32>) outs(%e : tensor<1x8x4x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x4x5xf32>
  %f = tensor.empty() : tensor<1x4x5x8xf32>
  %u = linalg.transpose ins(%t : tensor<1x8x4x5xf32>) outs(%f : tensor<1x4x5x8xf32>) permutation = [0, 2, 3, 1]
  return %u : tensor<1x4x5x8xf32>
}
