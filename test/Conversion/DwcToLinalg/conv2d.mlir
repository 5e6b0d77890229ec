// Lowering of dwc.conv2d: zero pad, one generic over
// (n, oh, ow, oc, fh, fw, c) reducing the last three in the accumulation
// type, then an epilogue adding the bias and rounding once.
// RUN: dwc-opt --convert-dwc-to-linalg %s | FileCheck %s

// CHECK-DAG: #[[IN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d4, d2 + d5, d6)>
// CHECK-DAG: #[[FILTER:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[ID4:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[CHAN:.+]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-DAG: #[[IN_S2:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 * 2 + d4, d2 * 2 + d5 * 2, d6)>

// CHECK-LABEL: func.func @conv2d_bf16_bias
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<1x6x6x8xbf16>
// CHECK: %[[P:.+]] = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: %[[ACC:.+]] = tensor.empty() : tensor<1x6x6x8xf32>
// CHECK: %[[Z:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%[[ACC]] : tensor<1x6x6x8xf32>)
// CHECK: %[[S:.+]] = linalg.generic {indexing_maps = [#[[IN]], #[[FILTER]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[P]], %arg1 : tensor<1x8x8x4xbf16>, tensor<3x3x4x8xbf16>) outs(%[[Z]] : tensor<1x6x6x8xf32>)
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: linalg.generic {indexing_maps = [#[[ID4]], #[[CHAN]], #[[ID4]]]
// CHECK-SAME: ins(%[[S]], %arg2 : tensor<1x6x6x8xf32>, tensor<8xbf16>) outs(%[[INIT]] : tensor<1x6x6x8xbf16>)
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @conv2d_bf16_bias(%x: tensor<1x6x6x4xbf16>, %w: tensor<3x3x4x8xbf16>, %b: tensor<8xbf16>) -> tensor<1x6x6x8xbf16> {
  %init = tensor.empty() : tensor<1x6x6x8xbf16>
  %y = dwc.conv2d ins(%x, %w : tensor<1x6x6x4xbf16>, tensor<3x3x4x8xbf16>) bias(%b : tensor<8xbf16>) outs(%init : tensor<1x6x6x8xbf16>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x6x6x8xbf16>
  return %y : tensor<1x6x6x8xbf16>
}

// f32 without bias: the sum is the result, computed in the destination.
// CHECK-LABEL: func.func @conv2d_f32_s2
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<2x3x3x5xf32>
// CHECK-NOT: tensor.pad
// CHECK: %[[Z:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%[[INIT]]
// CHECK: %[[S:.+]] = linalg.generic {indexing_maps = [#[[IN_S2]], #[[FILTER]], #[[OUT]]]
// CHECK-SAME: outs(%[[Z]] : tensor<2x3x3x5xf32>)
// CHECK-NOT: linalg.generic
// CHECK: return %[[S]]
func.func @conv2d_f32_s2(%x: tensor<2x7x7x3xf32>, %w: tensor<3x2x3x5xf32>) -> tensor<2x3x3x5xf32> {
  %init = tensor.empty() : tensor<2x3x3x5xf32>
  %y = dwc.conv2d ins(%x, %w : tensor<2x7x7x3xf32>, tensor<3x2x3x5xf32>) outs(%init : tensor<2x3x3x5xf32>) strides = [2, 2] dilations = [1, 2] padding = [0, 0, 0, 0] -> tensor<2x3x3x5xf32>
  return %y : tensor<2x3x3x5xf32>
}
