// StableHLO's forms (torch-mlir output_type="stablehlo", then
// stablehlo-legalize-to-linalg): convolutions and reduce-window pools are
// linalg.generic ops recognised by their indexing maps and payloads.
// RUN: dwc-opt %s --raise-linalg-to-dwc --split-input-file | FileCheck %s

// A dense stride-2 convolution, loops in StableHLO's order (C, F, OH, KH,
// OW, KW, N), after a zero pad.
// CHECK-LABEL: func.func @conv_generic
// CHECK: dwc.conv2d {{.*}} strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x5x5x8xf32>
// CHECK-NOT: linalg.generic
#in = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d6, d0, d2 * 2 + d3, d4 * 2 + d5)>
#f = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d0, d3, d5)>
#out = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d6, d1, d2, d4)>
func.func @conv_generic(%x: tensor<1x3x9x9xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x3x9x9xf32> to tensor<1x3x11x11xf32>
  %e = tensor.empty() : tensor<1x8x5x5xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x5x5xf32>) -> tensor<1x8x5x5xf32>
  %y = linalg.generic {indexing_maps = [#in, #f, #out], iterator_types = ["reduction", "parallel", "parallel", "reduction", "parallel", "reduction", "parallel"]}
         ins(%p, %w : tensor<1x3x11x11xf32>, tensor<8x3x3x3xf32>) outs(%fill : tensor<1x8x5x5xf32>) {
  ^bb0(%in: f32, %wt: f32, %out: f32):
    %m = arith.mulf %in, %wt : f32
    %a = arith.addf %out, %m : f32
    linalg.yield %a : f32
  } -> tensor<1x8x5x5xf32>
  return %y : tensor<1x8x5x5xf32>
}

// -----

// The depthwise convolution as a grouped 5-D convolution (N x G x 1 x H x W,
// G x 1 x 1 x KH x KW filter) between expand/collapse_shape, initial value a
// broadcast of a 0-D constant.
// CHECK-LABEL: func.func @grouped_depthwise
// CHECK: dwc.depthwise_conv2d {{.*}} : tensor<1x6x6x8xf32>, tensor<3x3x8xf32>) {{.*}} padding = [1, 1, 1, 1] -> tensor<1x6x6x8xf32>
// CHECK-NOT: linalg.generic
#in = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d7, d0, d1, d3 + d4, d5 + d6)>
#f = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d2, d1, d4, d6)>
#out = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d7, d0, d2, d3, d5)>
#bc = affine_map<(d0, d1, d2, d3, d4) -> ()>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @grouped_depthwise(%x: tensor<1x8x6x6xf32>, %w: tensor<8x1x3x3xf32>) -> tensor<1x8x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %z0 = arith.constant dense<0.0> : tensor<f32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x8x6x6xf32> to tensor<1x8x8x8xf32>
  %x5 = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 8, 1, 8, 8] : tensor<1x8x8x8xf32> into tensor<1x8x1x8x8xf32>
  %w5 = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [8, 1, 1, 3, 3] : tensor<8x1x3x3xf32> into tensor<8x1x1x3x3xf32>
  %e = tensor.empty() : tensor<1x8x1x6x6xf32>
  %init = linalg.generic {indexing_maps = [#bc, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
            ins(%z0 : tensor<f32>) outs(%e : tensor<1x8x1x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x1x6x6xf32>
  %y = linalg.generic {indexing_maps = [#in, #f, #out], iterator_types = ["parallel", "reduction", "parallel", "parallel", "reduction", "parallel", "reduction", "parallel"]}
         ins(%x5, %w5 : tensor<1x8x1x8x8xf32>, tensor<8x1x1x3x3xf32>) outs(%init : tensor<1x8x1x6x6xf32>) {
  ^bb0(%in: f32, %wt: f32, %out: f32):
    %m = arith.mulf %in, %wt : f32
    %a = arith.addf %out, %m : f32
    linalg.yield %a : f32
  } -> tensor<1x8x1x6x6xf32>
  %c = tensor.collapse_shape %y [[0], [1, 2], [3], [4]] : tensor<1x8x1x6x6xf32> into tensor<1x8x6x6xf32>
  return %c : tensor<1x8x6x6xf32>
}

// -----

// reduce_window max with a -inf pad.
// CHECK-LABEL: func.func @maxpool_generic
// CHECK: dwc.pool2d max {{.*}} window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] -> tensor<1x4x4x8xf32>
#in = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
#k = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
#out = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
func.func @maxpool_generic(%x: tensor<1x8x8x8xf32>) -> tensor<1x8x4x4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %ninf : f32
  } : tensor<1x8x8x8xf32> to tensor<1x8x10x10xf32>
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %fill = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %y = linalg.generic {indexing_maps = [#in, #k, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
         ins(%p, %win : tensor<1x8x10x10xf32>, tensor<3x3xf32>) outs(%fill : tensor<1x8x4x4xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %m = arith.maximumf %out, %in : f32
    linalg.yield %m : f32
  } -> tensor<1x8x4x4xf32>
  return %y : tensor<1x8x4x4xf32>
}

// -----

// Global average: a sum to (d0, d1) divided by a broadcast of a scalar that
// a generic without inputs yields.
// CHECK-LABEL: func.func @mean_generic
// CHECK: dwc.global_avg_pool
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#nc = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#s = affine_map<(d0, d1) -> ()>
#one = affine_map<(d0) -> (d0)>
func.func @mean_generic(%x: tensor<1x8x2x2xf32>) -> tensor<1x8xf32> {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %e = tensor.empty() : tensor<1x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #nc], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
           ins(%x : tensor<1x8x2x2xf32>) outs(%f : tensor<1x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    linalg.yield %a : f32
  } -> tensor<1x8xf32>
  %e1 = tensor.empty() : tensor<1xf32>
  %n = linalg.generic {indexing_maps = [#one], iterator_types = ["parallel"]} outs(%e1 : tensor<1xf32>) {
  ^bb0(%out: f32):
    linalg.yield %four : f32
  } -> tensor<1xf32>
  %n0 = tensor.collapse_shape %n [] : tensor<1xf32> into tensor<f32>
  %nb = linalg.generic {indexing_maps = [#s, #id2], iterator_types = ["parallel", "parallel"]} ins(%n0 : tensor<f32>) outs(%e : tensor<1x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8xf32>
  %y = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
         ins(%sum, %nb : tensor<1x8xf32>, tensor<1x8xf32>) outs(%e : tensor<1x8xf32>) {
  ^bb0(%in: f32, %d: f32, %out: f32):
    %q = arith.divf %in, %d : f32
    linalg.yield %q : f32
  } -> tensor<1x8xf32>
  return %y : tensor<1x8xf32>
}

// -----

// count_include_pad = False: the sum is divided by the same window sum over
// a zero-padded tensor of ones (the count of in-input elements).
// CHECK-LABEL: func.func @avgpool_ones_count
// CHECK: dwc.pool2d{{ +}}avg {{.*}} window = [3, 3] strides = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x5x5x8xf32>
// CHECK-NOT: count_include_pad
// CHECK-NOT: linalg.pooling
#in = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 + d4, d3 + d5)>
#k = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
#out = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @avgpool_ones_count(%x: tensor<1x8x5x5xf32>) -> tensor<1x8x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<1x8x5x5xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %px = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x8x5x5xf32> to tensor<1x8x7x7xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x5x5xf32>) -> tensor<1x8x5x5xf32>
  %sum = linalg.generic {indexing_maps = [#in, #k, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
           ins(%px, %win : tensor<1x8x7x7xf32>, tensor<3x3xf32>) outs(%z1 : tensor<1x8x5x5xf32>) {
  ^bb0(%in: f32, %kk: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    linalg.yield %a : f32
  } -> tensor<1x8x5x5xf32>
  %ones = linalg.fill ins(%one : f32) outs(%e : tensor<1x8x5x5xf32>) -> tensor<1x8x5x5xf32>
  %po = tensor.pad %ones low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x8x5x5xf32> to tensor<1x8x7x7xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x5x5xf32>) -> tensor<1x8x5x5xf32>
  %cnt = linalg.generic {indexing_maps = [#in, #k, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
           ins(%po, %win : tensor<1x8x7x7xf32>, tensor<3x3xf32>) outs(%z2 : tensor<1x8x5x5xf32>) {
  ^bb0(%in: f32, %kk: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    linalg.yield %a : f32
  } -> tensor<1x8x5x5xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%sum, %cnt : tensor<1x8x5x5xf32>, tensor<1x8x5x5xf32>) outs(%e : tensor<1x8x5x5xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %q = arith.divf %a, %b : f32
    linalg.yield %q : f32
  } -> tensor<1x8x5x5xf32>
  return %y : tensor<1x8x5x5xf32>
}
