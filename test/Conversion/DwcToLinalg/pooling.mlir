// Lowering of dwc.pool2d and dwc.global_avg_pool to linalg.
// max: -inf tensor.pad (extended at the bottom/right for a ceil_mode
// overhang) and an arith.maximumf reduction; padding can never win.
// avg: zero pad, window sum in f32, then an epilogue that divides by the
// divisor computed from linalg.index: the window clipped to [0, IH) (or to
// [-pt, IH + pb) with count_include_pad), times the same along the width.
// RUN: dwc-opt --convert-dwc-to-linalg %s | FileCheck %s

// CHECK-DAG: #[[IN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 2 + d4, d2 * 2 + d5, d3)>
// CHECK-DAG: #[[WIN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[ID4:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[GAP_IN:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>
// CHECK-DAG: #[[GAP_SUM:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-DAG: #[[GAP_OUT_IN:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d3)>

// ceil_mode: OH = 4 needs 9 padded rows, one more than pt + IH + pb = 8.
// CHECK-LABEL: func.func @max_ceil
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<1x4x3x5xf16>
// CHECK: %[[NINF:.+]] = arith.constant 0xFC00 : f16
// CHECK: %[[P:.+]] = tensor.pad %arg0 low[0, 1, 0, 0] high[0, 1, 1, 0]
// CHECK: tensor.yield %[[NINF]] : f16
// CHECK: } : tensor<1x7x6x5xf16> to tensor<1x9x7x5xf16>
// CHECK: %[[F:.+]] = linalg.fill ins(%{{.*}} : f16) outs(%[[INIT]] : tensor<1x4x3x5xf16>)
// CHECK: %[[W:.+]] = tensor.empty() : tensor<3x2xf16>
// CHECK: %[[R:.+]] = linalg.generic {indexing_maps = [#[[IN]], #[[WIN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[P]], %[[W]] : tensor<1x9x7x5xf16>, tensor<3x2xf16>) outs(%[[F]] : tensor<1x4x3x5xf16>)
// CHECK: arith.maximumf
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
func.func @max_ceil(%x: tensor<1x7x6x5xf16>) -> tensor<1x4x3x5xf16> {
  %init = tensor.empty() : tensor<1x4x3x5xf16>
  %y = dwc.pool2d max ins(%x : tensor<1x7x6x5xf16>) outs(%init : tensor<1x4x3x5xf16>) window = [3, 2] strides = [2, 2] padding = [1, 0, 0, 1] ceil_mode -> tensor<1x4x3x5xf16>
  return %y : tensor<1x4x3x5xf16>
}

// Padding excluded from the count: extent = min(o*2 - 1 + 3, 7) - max(o*2 - 1, 0).
// CHECK-LABEL: func.func @avg_excl
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<1x4x4x5xf32>
// CHECK: tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: %[[S:.+]] = linalg.generic {indexing_maps = [#[[IN]], #[[WIN]], #[[OUT]]]
// CHECK: arith.addf
// CHECK: linalg.generic {indexing_maps = [#[[ID4]], #[[ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[S]] : tensor<1x4x4x5xf32>) outs(%[[INIT]] : tensor<1x4x4x5xf32>)
// CHECK: ^bb0(%[[SUM:.+]]: f32, %{{.*}}: f32):
// CHECK: linalg.index 1 : index
// CHECK: %[[START:.+]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK: %[[END:.+]] = arith.addi %[[START]], %{{.*}} : index
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK: %[[LO:.+]] = arith.maxsi %[[START]], %[[C0]] : index
// CHECK: %[[C7:.+]] = arith.constant 7 : index
// CHECK: %[[HI:.+]] = arith.minsi %[[END]], %[[C7]] : index
// CHECK: %[[ROWS:.+]] = arith.subi %[[HI]], %[[LO]] : index
// CHECK: linalg.index 2 : index
// CHECK: arith.minsi
// CHECK-NEXT: %[[COLS:.+]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK: %[[CNT:.+]] = arith.muli %[[ROWS]], %[[COLS]] : index
// CHECK: %[[CI:.+]] = arith.index_cast %[[CNT]] : index to i64
// CHECK: %[[CF:.+]] = arith.sitofp %[[CI]] : i64 to f32
// CHECK: %[[AVG:.+]] = arith.divf %[[SUM]], %[[CF]] : f32
// CHECK: linalg.yield %[[AVG]] : f32
func.func @avg_excl(%x: tensor<1x7x7x5xf32>) -> tensor<1x4x4x5xf32> {
  %init = tensor.empty() : tensor<1x4x4x5xf32>
  %y = dwc.pool2d avg ins(%x : tensor<1x7x7x5xf32>) outs(%init : tensor<1x4x4x5xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] -> tensor<1x4x4x5xf32>
  return %y : tensor<1x4x4x5xf32>
}

// count_include_pad with ceil_mode, f16: the window is clipped to the padded
// input [-1, 5) along W and [-1, 7) along H (not to the extra ceil rows),
// f32 sum, one truncf.
// CHECK-LABEL: func.func @avg_incl_ceil_f16
// CHECK: tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: } : tensor<1x7x5x5xf16> to tensor<1x9x7x5xf16>
// CHECK: tensor.empty() : tensor<1x4x3x5xf32>
// CHECK: linalg.generic
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: linalg.generic
// CHECK: linalg.index 1 : index
// CHECK: %[[M1:.+]] = arith.constant -1 : index
// CHECK: arith.maxsi %{{.*}}, %[[M1]] : index
// CHECK: %[[C7:.+]] = arith.constant 7 : index
// CHECK: arith.minsi %{{.*}}, %[[C7]] : index
// CHECK: linalg.index 2 : index
// CHECK: arith.maxsi %{{.*}}, %[[M1]]
// CHECK: %[[C5:.+]] = arith.constant 5 : index
// CHECK: arith.minsi %{{.*}}, %[[C5]] : index
// CHECK: arith.divf
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @avg_incl_ceil_f16(%x: tensor<1x7x5x5xf16>) -> tensor<1x4x3x5xf16> {
  %init = tensor.empty() : tensor<1x4x3x5xf16>
  %y = dwc.pool2d avg ins(%x : tensor<1x7x5x5xf16>) outs(%init : tensor<1x4x3x5xf16>) window = [3, 3] strides = [2, 2] padding = [1, 0, 1, 0] ceil_mode count_include_pad -> tensor<1x4x3x5xf16>
  return %y : tensor<1x4x3x5xf16>
}

// Global average: an N x C f32 sum over (h, w), then divide by H*W = 49.
// CHECK-LABEL: func.func @gap
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<2x1x1x5xf16>
// CHECK: %[[E:.+]] = tensor.empty() : tensor<2x5xf32>
// CHECK: %[[Z:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<2x5xf32>)
// CHECK: %[[S:.+]] = linalg.generic {indexing_maps = [#[[GAP_IN]], #[[GAP_SUM]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%arg0 : tensor<2x7x7x5xf16>) outs(%[[Z]] : tensor<2x5xf32>)
// CHECK: %[[N:.+]] = arith.constant 4.900000e+01 : f32
// CHECK: linalg.generic {indexing_maps = [#[[GAP_OUT_IN]], #[[ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[S]] : tensor<2x5xf32>) outs(%[[INIT]] : tensor<2x1x1x5xf16>)
// CHECK: arith.divf %{{.*}}, %[[N]] : f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @gap(%x: tensor<2x7x7x5xf16>) -> tensor<2x1x1x5xf16> {
  %init = tensor.empty() : tensor<2x1x1x5xf16>
  %y = dwc.global_avg_pool ins(%x : tensor<2x7x7x5xf16>) outs(%init : tensor<2x1x1x5xf16>) -> tensor<2x1x1x5xf16>
  return %y : tensor<2x1x1x5xf16>
}
