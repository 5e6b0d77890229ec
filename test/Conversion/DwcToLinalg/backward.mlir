// Lowering of the depthwise backward ops to linalg.
// backward_data: dY is placed in a zero tensor P (tensor.pad for unit
// strides; tensor.insert_slice with the strides as its step otherwise, after
// an extract_slice dropping rows that only reach outside dX) and correlated
// with the 180-degree rotated filter: map (n, ih + (FH-1)*dh - fh*dh, ...).
// backward_filter: one generic reducing over (n, oh, ow) in f32.
// RUN: dwc-opt --convert-dwc-to-linalg %s | FileCheck %s

// CHECK-DAG: #[[ROT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 - d4 + 2, d2 - d5 + 2, d3)>
// CHECK-DAG: #[[FILTER:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5, d3)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[ID4:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[BF_X:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4 * 2 + d0, d5 * 2 + d1, d2)>
// CHECK-DAG: #[[BF_DY:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4, d5, d2)>
// CHECK-DAG: #[[BF_DW:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>

// Stride 1, padding 1 with a 3x3 filter: P = dY padded by FH-1-pt = 1.
// CHECK-LABEL: func.func @bwd_data_s1
// CHECK: %[[P:.+]] = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: } : tensor<1x6x6x5xf32> to tensor<1x8x8x5xf32>
// CHECK: %[[Z:.+]] = linalg.fill
// CHECK: %[[R:.+]] = linalg.generic {indexing_maps = [#[[ROT]], #[[FILTER]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[P]], %arg1 : tensor<1x8x8x5xf32>, tensor<3x3x5xf32>) outs(%[[Z]] : tensor<1x6x6x5xf32>)
// CHECK: return %[[R]]
func.func @bwd_data_s1(%dy: tensor<1x6x6x5xf32>, %w: tensor<3x3x5xf32>) -> tensor<1x6x6x5xf32> {
  %init = tensor.empty() : tensor<1x6x6x5xf32>
  %y = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x6x6x5xf32>, tensor<3x3x5xf32>) outs(%init : tensor<1x6x6x5xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x6x6x5xf32>
  return %y : tensor<1x6x6x5xf32>
}

// Stride 2, f16: dY spread with step 2 into zeros, f32 accumulation, one
// truncf.
// CHECK-LABEL: func.func @bwd_data_s2_f16
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<1x8x7x5xf16>
// CHECK: %[[E:.+]] = tensor.empty() : tensor<1x10x9x5xf16>
// CHECK: %[[Z:.+]] = linalg.fill ins(%{{.*}} : f16) outs(%[[E]] : tensor<1x10x9x5xf16>)
// CHECK: %[[P:.+]] = tensor.insert_slice %arg0 into %[[Z]][0, 1, 1, 0] [1, 4, 4, 5] [1, 2, 2, 1] : tensor<1x4x4x5xf16> into tensor<1x10x9x5xf16>
// CHECK: %[[ACC:.+]] = tensor.empty() : tensor<1x8x7x5xf32>
// CHECK: %[[AZ:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%[[ACC]]
// CHECK: %[[S:.+]] = linalg.generic {indexing_maps = [#[[ROT]], #[[FILTER]], #[[OUT]]]
// CHECK-SAME: ins(%[[P]], %arg1 : tensor<1x10x9x5xf16>, tensor<3x3x5xf16>) outs(%[[AZ]] : tensor<1x8x7x5xf32>)
// CHECK-COUNT-2: arith.extf
// CHECK: linalg.generic {indexing_maps = [#[[ID4]], #[[ID4]]]
// CHECK-SAME: ins(%[[S]] : tensor<1x8x7x5xf32>) outs(%[[INIT]] : tensor<1x8x7x5xf16>)
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @bwd_data_s2_f16(%dy: tensor<1x4x4x5xf16>, %w: tensor<3x3x5xf16>) -> tensor<1x8x7x5xf16> {
  %init = tensor.empty() : tensor<1x8x7x5xf16>
  %y = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x4x4x5xf16>, tensor<3x3x5xf16>) outs(%init : tensor<1x8x7x5xf16>) strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x7x5xf16>
  return %y : tensor<1x8x7x5xf16>
}

// Top padding 3 > FH-1: the first row of dY only reaches dX row -1, so it is
// sliced off; the right padding 3 drops the last column the same way.
// CHECK-LABEL: func.func @bwd_data_big_pad
// CHECK: %[[Z:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x6x7x5xf32>)
// CHECK: %[[SL:.+]] = tensor.extract_slice %arg0[0, 1, 0, 0] [1, 4, 5, 5] [1, 1, 1, 1] : tensor<1x5x6x5xf32> to tensor<1x4x5x5xf32>
// CHECK: %[[P:.+]] = tensor.insert_slice %[[SL]] into %[[Z]][0, 0, 2, 0] [1, 4, 5, 5] [1, 1, 1, 1]
// CHECK: linalg.generic {indexing_maps = [#[[ROT]], #[[FILTER]], #[[OUT]]]
// CHECK-SAME: ins(%[[P]], %arg1
func.func @bwd_data_big_pad(%dy: tensor<1x5x6x5xf32>, %w: tensor<3x3x5xf32>) -> tensor<1x4x5x5xf32> {
  %init = tensor.empty() : tensor<1x4x5x5xf32>
  %y = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x5x6x5xf32>, tensor<3x3x5xf32>) outs(%init : tensor<1x4x5x5xf32>) strides = [1, 1] dilations = [1, 1] padding = [3, 0, 0, 3] -> tensor<1x4x5x5xf32>
  return %y : tensor<1x4x5x5xf32>
}

// f16 operands, f32 filter gradient: loops (fh, fw, c, n, oh, ow), the last
// three reduced, accumulated straight into the destination.
// CHECK-LABEL: func.func @bwd_filter
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<3x3x5xf32>
// CHECK: %[[X:.+]] = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 0, 0, 0]
// CHECK: %[[Z:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%[[INIT]] : tensor<3x3x5xf32>)
// CHECK: %[[R:.+]] = linalg.generic {indexing_maps = [#[[BF_X]], #[[BF_DY]], #[[BF_DW]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[X]], %arg1 : tensor<2x7x7x5xf16>, tensor<2x3x3x5xf16>) outs(%[[Z]] : tensor<3x3x5xf32>)
// CHECK-COUNT-2: arith.extf
// CHECK: return %[[R]]
func.func @bwd_filter(%x: tensor<2x6x6x5xf16>, %dy: tensor<2x3x3x5xf16>) -> tensor<3x3x5xf32> {
  %init = tensor.empty() : tensor<3x3x5xf32>
  %y = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<2x6x6x5xf16>, tensor<2x3x3x5xf16>) outs(%init : tensor<3x3x5xf32>) strides = [2, 2] dilations = [1, 1] padding = [1, 0, 1, 0] -> tensor<3x3x5xf32>
  return %y : tensor<3x3x5xf32>
}

// f16 filter gradient: still summed in f32, then rounded.
// CHECK-LABEL: func.func @bwd_filter_f16
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<3x3x5xf32>)
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @bwd_filter_f16(%x: tensor<1x4x4x5xf16>, %dy: tensor<1x4x4x5xf16>) -> tensor<3x3x5xf16> {
  %init = tensor.empty() : tensor<3x3x5xf16>
  %y = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x4x4x5xf16>, tensor<1x4x4x5xf16>) outs(%init : tensor<3x3x5xf16>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<3x3x5xf16>
  return %y : tensor<3x3x5xf16>
}
