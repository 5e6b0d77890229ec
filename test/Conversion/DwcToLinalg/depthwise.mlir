// Lowering of dwc.depthwise_conv2d to linalg: zero tensor.pad, one
// multiply-accumulate linalg.generic in the accumulation type whose input map
// is (n, oh*sh + fh*dh, ow*sw + fw*dw, c), and an element-wise epilogue that
// adds the bias and rounds once to the element type.
// RUN: dwc-opt --convert-dwc-to-linalg %s | FileCheck %s

// CHECK-DAG: #[[IN_S2:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 2 + d4, d2 * 2 + d5, d3)>
// CHECK-DAG: #[[FILTER:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5, d3)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[ID4:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[CHAN:.+]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-DAG: #[[IN_D2:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 + d4 * 2, d2 + d5, d3)>

// f32 with bias, stride 2 and asymmetric padding: the sum accumulates in the
// destination itself and the bias is added in place.
// CHECK-LABEL: func.func @dw_f32_bias
// CHECK-SAME: (%[[X:.+]]: tensor<1x8x8x16xf32>, %[[W:.+]]: tensor<3x3x16xf32>, %[[B:.+]]: tensor<16xf32>)
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<1x4x4x16xf32>
// CHECK: %[[PAD:.+]] = tensor.pad %[[X]] low[0, 1, 0, 0] high[0, 0, 1, 0]
// CHECK: tensor.yield %{{.*}} : f32
// CHECK: } : tensor<1x8x8x16xf32> to tensor<1x9x9x16xf32>
// CHECK: %[[ZERO:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%[[INIT]] : tensor<1x4x4x16xf32>)
// CHECK: %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[IN_S2]], #[[FILTER]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[PAD]], %[[W]] : tensor<1x9x9x16xf32>, tensor<3x3x16xf32>) outs(%[[ZERO]] : tensor<1x4x4x16xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: %[[RES:.+]] = linalg.generic {indexing_maps = [#[[CHAN]], #[[ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[B]] : tensor<16xf32>) outs(%[[SUM]] : tensor<1x4x4x16xf32>)
// CHECK: ^bb0(%[[BV:.+]]: f32, %[[SV:.+]]: f32):
// CHECK: %[[ADD:.+]] = arith.addf %[[SV]], %[[BV]] : f32
// CHECK: linalg.yield %[[ADD]]
// CHECK: return %[[RES]]
func.func @dw_f32_bias(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>, %b: tensor<16xf32>) -> tensor<1x4x4x16xf32> {
  %init = tensor.empty() : tensor<1x4x4x16xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) bias(%b : tensor<16xf32>) outs(%init : tensor<1x4x4x16xf32>) strides = [2, 2] dilations = [1, 1] padding = [1, 0, 0, 1] -> tensor<1x4x4x16xf32>
  return %y : tensor<1x4x4x16xf32>
}

// No padding, no bias, dilation 2 along H: no tensor.pad, no epilogue.
// CHECK-LABEL: func.func @dw_f32_nopad
// CHECK-NOT: tensor.pad
// CHECK: %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[IN_D2]], #[[FILTER]], #[[OUT]]]
// CHECK-SAME: ins(%arg0, %arg1 : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>)
// CHECK-NOT: linalg.generic
// CHECK: return %[[SUM]]
func.func @dw_f32_nopad(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x4x6x16xf32> {
  %init = tensor.empty() : tensor<1x4x6x16xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%init : tensor<1x4x6x16xf32>) strides = [1, 1] dilations = [2, 1] padding = [0, 0, 0, 0] -> tensor<1x4x6x16xf32>
  return %y : tensor<1x4x6x16xf32>
}

// f16 with a 5x1 filter: products and sums in f32, bias added in f32, one
// truncf at the end.
// CHECK-LABEL: func.func @dw_f16
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<2x6x6x5xf16>
// CHECK: tensor.pad %arg0 low[0, 2, 0, 0] high[0, 2, 0, 0]
// CHECK: } : tensor<2x6x6x5xf16> to tensor<2x10x6x5xf16>
// CHECK: %[[ACC:.+]] = tensor.empty() : tensor<2x6x6x5xf32>
// CHECK: %[[ZERO:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%[[ACC]] : tensor<2x6x6x5xf32>)
// CHECK: %[[SUM:.+]] = linalg.generic
// CHECK-SAME: outs(%[[ZERO]] : tensor<2x6x6x5xf32>)
// CHECK: ^bb0(%[[A:.+]]: f16, %[[B:.+]]: f16, %[[O:.+]]: f32):
// CHECK: %[[AE:.+]] = arith.extf %[[A]] : f16 to f32
// CHECK: %[[BE:.+]] = arith.extf %[[B]] : f16 to f32
// CHECK: %[[M:.+]] = arith.mulf %[[AE]], %[[BE]] : f32
// CHECK: arith.addf %[[O]], %[[M]] : f32
// CHECK: linalg.generic {indexing_maps = [#[[ID4]], #[[CHAN]], #[[ID4]]]
// CHECK-SAME: ins(%[[SUM]], %arg2 : tensor<2x6x6x5xf32>, tensor<5xf16>) outs(%[[INIT]] : tensor<2x6x6x5xf16>)
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.addf
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @dw_f16(%x: tensor<2x6x6x5xf16>, %w: tensor<5x1x5xf16>, %b: tensor<5xf16>) -> tensor<2x6x6x5xf16> {
  %init = tensor.empty() : tensor<2x6x6x5xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<2x6x6x5xf16>, tensor<5x1x5xf16>) bias(%b : tensor<5xf16>) outs(%init : tensor<2x6x6x5xf16>) strides = [1, 1] dilations = [1, 1] padding = [2, 2, 0, 0] -> tensor<2x6x6x5xf16>
  return %y : tensor<2x6x6x5xf16>
}

// f32 data with an f64 accumulator.
// CHECK-LABEL: func.func @dw_acc_f64
// CHECK: tensor.empty() : tensor<1x4x4x3xf64>
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK: arith.truncf %{{.*}} : f64 to f32
func.func @dw_acc_f64(%x: tensor<1x4x4x3xf32>, %w: tensor<3x3x3xf32>) -> tensor<1x4x4x3xf32> {
  %init = tensor.empty() : tensor<1x4x4x3xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x4x4x3xf32>, tensor<3x3x3xf32>) outs(%init : tensor<1x4x4x3xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] acc = f64 -> tensor<1x4x4x3xf32>
  return %y : tensor<1x4x4x3xf32>
}
