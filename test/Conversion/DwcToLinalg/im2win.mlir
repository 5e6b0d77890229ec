// Lowering of dwc.im2win: zero-pad all four sides, then one all-parallel
// copy generic R[n, oh, w, fh, c] = Xpad[n, oh*sh + fh*dh, w, c].
// RUN: dwc-opt --convert-dwc-to-linalg %s | FileCheck %s

// CHECK-DAG: #[[SRC:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * 2 + d3 * 2, d2, d4)>
// CHECK-DAG: #[[DST:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-DAG: #[[SRC1:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 + d3, d2, d4)>

// CHECK-LABEL: func.func @im2win_s2_d2
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<1x3x10x3x3xf32>
// CHECK: %[[P:.+]] = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 0, 1, 0]
// CHECK: } : tensor<1x8x8x3xf32> to tensor<1x9x10x3xf32>
// CHECK: %[[R:.+]] = linalg.generic {indexing_maps = [#[[SRC]], #[[DST]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[P]] : tensor<1x9x10x3xf32>) outs(%[[INIT]] : tensor<1x3x10x3x3xf32>)
// CHECK: ^bb0(%[[IN:.+]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
// CHECK: return %[[R]]
func.func @im2win_s2_d2(%x: tensor<1x8x8x3xf32>) -> tensor<1x3x10x3x3xf32> {
  %init = tensor.empty() : tensor<1x3x10x3x3xf32>
  %r = dwc.im2win ins(%x : tensor<1x8x8x3xf32>) outs(%init : tensor<1x3x10x3x3xf32>) window = [3, 3] strides = [2, 1] dilations = [2, 1] padding = [1, 0, 1, 1] -> tensor<1x3x10x3x3xf32>
  return %r : tensor<1x3x10x3x3xf32>
}

// No padding: the input is read directly; f16 stays f16 (a pure copy).
// CHECK-LABEL: func.func @im2win_f16
// CHECK-NOT: tensor.pad
// CHECK: linalg.generic {indexing_maps = [#[[SRC1]], #[[DST]]]
// CHECK-SAME: ins(%arg0 : tensor<2x6x5x4xf16>) outs(%{{.*}} : tensor<2x4x5x3x4xf16>)
// CHECK-NOT: arith.
func.func @im2win_f16(%x: tensor<2x6x5x4xf16>) -> tensor<2x4x5x3x4xf16> {
  %init = tensor.empty() : tensor<2x4x5x3x4xf16>
  %r = dwc.im2win ins(%x : tensor<2x6x5x4xf16>) outs(%init : tensor<2x4x5x3x4xf16>) window = [3, 3] strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] -> tensor<2x4x5x3x4xf16>
  return %r : tensor<2x4x5x3x4xf16>
}
