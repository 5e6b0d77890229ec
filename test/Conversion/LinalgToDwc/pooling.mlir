// Raising linalg.pooling_nhwc_max to dwc.pool2d max and
// linalg.pooling_nhwc_sum followed by a division by the window size to
// dwc.pool2d avg, folding -inf / zero pads into the padding attribute.
// RUN: dwc-opt %s --raise-linalg-to-dwc --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @max_neg_inf
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<1x8x8x16xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x4x4x16xf32>
// CHECK-NOT: linalg
// CHECK: %[[Y:.*]] = dwc.pool2d max ins(%[[X]] : tensor<1x8x8x16xf32>) outs(%[[E]] : tensor<1x4x4x16xf32>)
// CHECK-SAME: window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x16xf32>
// CHECK: return %[[Y]]
func.func @max_neg_inf(%x: tensor<1x8x8x16xf32>) -> tensor<1x4x4x16xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %win = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x4x4x16xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %y = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %win : tensor<1x8x8x16xf32>, tensor<2x2xf32>) outs(%f : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  return %y : tensor<1x4x4x16xf32>
}

// -----

// The lowest finite value (what torch-mlir emits) is accepted as well, for
// the fill and for the pad; the pad folds into the padding.
// CHECK-LABEL: func.func @max_lowest_padded
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<1x8x8x16xf32>)
// CHECK-NOT: tensor.pad
// CHECK: dwc.pool2d max ins(%[[X]] : tensor<1x8x8x16xf32>)
// CHECK-SAME: window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] -> tensor<1x4x4x16xf32>
func.func @max_lowest_padded(%x: tensor<1x8x8x16xf32>) -> tensor<1x4x4x16xf32> {
  %low = arith.constant -3.40282347E+38 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %low : f32
  } : tensor<1x8x8x16xf32> to tensor<1x10x10x16xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x4x4x16xf32>
  %f = linalg.fill ins(%low : f32) outs(%e : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %y = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%p, %win : tensor<1x10x10x16xf32>, tensor<3x3xf32>) outs(%f : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  return %y : tensor<1x4x4x16xf32>
}

// -----

// f16 with an f16 -inf; asymmetric pad, non-square window.
// CHECK-LABEL: func.func @max_half
// CHECK: dwc.pool2d max ins(%{{.*}} : tensor<2x7x7x8xf16>)
// CHECK-SAME: window = [3, 2] strides = [2, 1] padding = [0, 1, 1, 0] -> tensor<2x3x7x8xf16>
func.func @max_half(%x: tensor<2x7x7x8xf16>) -> tensor<2x3x7x8xf16> {
  %ninf = arith.constant 0xFC00 : f16
  %p = tensor.pad %x low[0, 0, 1, 0] high[0, 1, 0, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %ninf : f16
  } : tensor<2x7x7x8xf16> to tensor<2x8x8x8xf16>
  %win = tensor.empty() : tensor<3x2xf16>
  %e = tensor.empty() : tensor<2x3x7x8xf16>
  %f = linalg.fill ins(%ninf : f16) outs(%e : tensor<2x3x7x8xf16>) -> tensor<2x3x7x8xf16>
  %y = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
         ins(%p, %win : tensor<2x8x8x8xf16>, tensor<3x2xf16>) outs(%f : tensor<2x3x7x8xf16>) -> tensor<2x3x7x8xf16>
  return %y : tensor<2x3x7x8xf16>
}

// -----

// A pad as wide as the window cannot fold (a window could hold only
// padding): the pad stays and the pooling is raised on the padded tensor.
// CHECK-LABEL: func.func @max_wide_pad_kept
// CHECK: %[[P:.*]] = tensor.pad
// CHECK: dwc.pool2d max ins(%[[P]] : tensor<1x10x10x4xf32>)
// CHECK-SAME: window = [2, 2] strides = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x9x9x4xf32>
func.func @max_wide_pad_kept(%x: tensor<1x6x6x4xf32>) -> tensor<1x9x9x4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %p = tensor.pad %x low[0, 2, 2, 0] high[0, 2, 2, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %ninf : f32
  } : tensor<1x6x6x4xf32> to tensor<1x10x10x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x9x9x4xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x9x9x4xf32>) -> tensor<1x9x9x4xf32>
  %y = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%p, %win : tensor<1x10x10x4xf32>, tensor<2x2xf32>) outs(%f : tensor<1x9x9x4xf32>) -> tensor<1x9x9x4xf32>
  return %y : tensor<1x9x9x4xf32>
}

// -----

// A zero pad before a max pooling is not "padding never wins": kept.
// CHECK-LABEL: func.func @max_zero_pad_kept
// CHECK: %[[P:.*]] = tensor.pad
// CHECK: dwc.pool2d max ins(%[[P]] : tensor<1x10x10x4xf32>)
// CHECK-SAME: padding = [0, 0, 0, 0]
func.func @max_zero_pad_kept(%x: tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x4xf32> to tensor<1x10x10x4xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x8x8x4xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %y = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%p, %win : tensor<1x10x10x4xf32>, tensor<3x3xf32>) outs(%f : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  return %y : tensor<1x8x8x4xf32>
}

// -----

// Average pooling: sum, then an element-wise generic dividing by KH*KW.
// CHECK-LABEL: func.func @avg_generic
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<1x8x8x16xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x4x4x16xf32>
// CHECK-NOT: linalg
// CHECK: %[[Y:.*]] = dwc.pool2d avg ins(%[[X]] : tensor<1x8x8x16xf32>) outs(%[[E]] : tensor<1x4x4x16xf32>)
// CHECK-SAME: window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x16xf32>
// CHECK-NOT: linalg
// CHECK: return %[[Y]]
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @avg_generic(%x: tensor<1x8x8x16xf32>) -> tensor<1x4x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %win = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x4x4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %win : tensor<1x8x8x16xf32>, tensor<2x2xf32>) outs(%f : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %e2 = tensor.empty() : tensor<1x4x4x16xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%s : tensor<1x4x4x16xf32>) outs(%e2 : tensor<1x4x4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %four : f32
    linalg.yield %d : f32
  } -> tensor<1x4x4x16xf32>
  return %y : tensor<1x4x4x16xf32>
}

// -----

// A folded zero pad means the padding counts in the divisor:
// count_include_pad. The divisor constant may live in the body and the
// generic may divide its own outs.
// CHECK-LABEL: func.func @avg_padded
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<1x8x8x16xf16>)
// CHECK-NOT: linalg
// CHECK-NOT: tensor.pad
// CHECK: dwc.pool2d avg ins(%[[X]] : tensor<1x8x8x16xf16>)
// CHECK-SAME: window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] count_include_pad -> tensor<1x4x4x16xf16>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @avg_padded(%x: tensor<1x8x8x16xf16>) -> tensor<1x4x4x16xf16> {
  %zero = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f16
  } : tensor<1x8x8x16xf16> to tensor<1x10x10x16xf16>
  %win = tensor.empty() : tensor<3x3xf16>
  %e = tensor.empty() : tensor<1x4x4x16xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<1x4x4x16xf16>) -> tensor<1x4x4x16xf16>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%p, %win : tensor<1x10x10x16xf16>, tensor<3x3xf16>) outs(%f : tensor<1x4x4x16xf16>) -> tensor<1x4x4x16xf16>
  %y = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         outs(%s : tensor<1x4x4x16xf16>) {
  ^bb0(%out: f16):
    %nine = arith.constant 9.0 : f16
    %d = arith.divf %out, %nine : f16
    linalg.yield %d : f16
  } -> tensor<1x4x4x16xf16>
  return %y : tensor<1x4x4x16xf16>
}

// -----

// Multiplying by 1/(KH*KW) is the same as dividing when the window size is
// a power of two.
// CHECK-LABEL: func.func @avg_mul_reciprocal
// CHECK-NOT: linalg
// CHECK: dwc.pool2d avg
// CHECK-SAME: window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x16xbf16>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @avg_mul_reciprocal(%x: tensor<1x8x8x16xbf16>) -> tensor<1x4x4x16xbf16> {
  %zero = arith.constant 0.0 : bf16
  %quarter = arith.constant 0.25 : bf16
  %win = tensor.empty() : tensor<2x2xbf16>
  %e = tensor.empty() : tensor<1x4x4x16xbf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<1x4x4x16xbf16>) -> tensor<1x4x4x16xbf16>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %win : tensor<1x8x8x16xbf16>, tensor<2x2xbf16>) outs(%f : tensor<1x4x4x16xbf16>) -> tensor<1x4x4x16xbf16>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%s : tensor<1x4x4x16xbf16>) outs(%e : tensor<1x4x4x16xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %d = arith.mulf %quarter, %in : bf16
    linalg.yield %d : bf16
  } -> tensor<1x4x4x16xbf16>
  return %y : tensor<1x4x4x16xbf16>
}

// -----

// linalg.div by a splat constant or by a fill of the window size.
// CHECK-LABEL: func.func @avg_div_splat
// CHECK-NOT: linalg
// CHECK: dwc.pool2d avg
// CHECK-SAME: window = [3, 3] strides = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x6x6x8xf32>
func.func @avg_div_splat(%x: tensor<1x8x8x8xf32>) -> tensor<1x6x6x8xf32> {
  %zero = arith.constant 0.0 : f32
  %nine = arith.constant dense<9.0> : tensor<1x6x6x8xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x6x6x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %win : tensor<1x8x8x8xf32>, tensor<3x3xf32>) outs(%f : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  %y = linalg.div ins(%s, %nine : tensor<1x6x6x8xf32>, tensor<1x6x6x8xf32>) outs(%e : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  return %y : tensor<1x6x6x8xf32>
}

// CHECK-LABEL: func.func @avg_div_fill
// CHECK-NOT: linalg
// CHECK: dwc.pool2d avg
// CHECK-SAME: window = [3, 3] strides = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x6x6x8xf32>
func.func @avg_div_fill(%x: tensor<1x8x8x8xf32>) -> tensor<1x6x6x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c9 = arith.constant 9.0 : f32
  %win = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x6x6x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  %nine = linalg.fill ins(%c9 : f32) outs(%e : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %win : tensor<1x8x8x8xf32>, tensor<3x3xf32>) outs(%f : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  %y = linalg.div ins(%s, %nine : tensor<1x6x6x8xf32>, tensor<1x6x6x8xf32>) outs(%e : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  return %y : tensor<1x6x6x8xf32>
}
