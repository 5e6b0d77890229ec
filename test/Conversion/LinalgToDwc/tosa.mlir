// TOSA's forms (torch-mlir output_type="tosa", then tosa-to-linalg-named,
// tosa-to-linalg, tosa-to-arith, tosa-to-tensor): F x H x W x C filters,
// depthwise with a channel multiplier of one into a 5-D result, and pads
// whose amounts are constant SSA values.
// RUN: dwc-opt %s --raise-linalg-to-dwc --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @conv_fhwc_ssa_pad
// CHECK: %[[W:.*]] = linalg.transpose ins(%arg1 : tensor<8x3x3x3xf32>) {{.*}} permutation = [1, 2, 3, 0]
// CHECK: dwc.conv2d ins(%arg0, %[[W]] : tensor<1x9x9x3xf32>, tensor<3x3x3x8xf32>) {{.*}} strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x5x5x8xf32>
// CHECK-NOT: tensor.pad
func.func @conv_fhwc_ssa_pad(%x: tensor<1x9x9x3xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x5x5x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = tensor.pad %x low[%c0, %c1, %c1, %c0] high[%c0, %c1, %c1, %c0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x9x9x3xf32> to tensor<1x11x11x3xf32>
  %e = tensor.empty() : tensor<1x5x5x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32>
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%p, %w : tensor<1x11x11x3xf32>, tensor<8x3x3x3xf32>) outs(%f : tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32>
  return %y : tensor<1x5x5x8xf32>
}

// -----

// CHECK-LABEL: func.func @depthwise_hwcm
// CHECK: %[[W:.*]] = tensor.collapse_shape %arg1 {{\[}}[0], [1], [2, 3]] : tensor<3x3x8x1xf32> into tensor<3x3x8xf32>
// CHECK: %[[Y:.*]] = dwc.depthwise_conv2d ins(%arg0, %[[W]] : tensor<1x6x6x8xf32>, tensor<3x3x8xf32>) {{.*}} padding = [1, 1, 1, 1] -> tensor<1x6x6x8xf32>
// CHECK-NEXT: return %[[Y]]
func.func @depthwise_hwcm(%x: tensor<1x6x6x8xf32>, %w: tensor<3x3x8x1xf32>) -> tensor<1x6x6x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = tensor.pad %x low[%c0, %c1, %c1, %c0] high[%c0, %c1, %c1, %c0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x6x6x8xf32> to tensor<1x8x8x8xf32>
  %e = tensor.empty() : tensor<1x6x6x8x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x6x8x1xf32>) -> tensor<1x6x6x8x1xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%p, %w : tensor<1x8x8x8xf32>, tensor<3x3x8x1xf32>) outs(%f : tensor<1x6x6x8x1xf32>) -> tensor<1x6x6x8x1xf32>
  %c = tensor.collapse_shape %y [[0], [1], [2], [3, 4]] : tensor<1x6x6x8x1xf32> into tensor<1x6x6x8xf32>
  return %c : tensor<1x6x6x8xf32>
}

// -----

// tosa.avg_pool2d: TOSA divides by the count of in-input elements, computed
// from the index in `index` arithmetic.
// CHECK-LABEL: func.func @tosa_avgpool
// CHECK: dwc.pool2d avg ins(%arg0 : tensor<1x5x5x8xf32>) {{.*}} window = [3, 3] strides = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x5x5x8xf32>
// CHECK-NOT: count_include_pad
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @tosa_avgpool(%x: tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x5x5x8xf32> to tensor<1x7x7x8xf32>
  %e = tensor.empty() : tensor<1x5x5x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32>
  %k = tensor.empty() : tensor<3x3xf32>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%p, %k : tensor<1x7x7x8xf32>, tensor<3x3xf32>) outs(%f : tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%s : tensor<1x5x5x8xf32>) outs(%e : tensor<1x5x5x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i1 = linalg.index 1 : index
    %a0 = arith.subi %i1, %c1 : index
    %a1 = arith.minsi %a0, %c0 : index
    %a2 = arith.addi %a1, %c3 : index
    %a3 = arith.subi %c3, %i1 : index
    %a4 = arith.minsi %a3, %c0 : index
    %a5 = arith.addi %a2, %a4 : index
    %hn = arith.maxsi %a5, %c1 : index
    %i2 = linalg.index 2 : index
    %b0 = arith.subi %i2, %c1 : index
    %b1 = arith.minsi %b0, %c0 : index
    %b2 = arith.addi %b1, %c3 : index
    %b3 = arith.subi %c3, %i2 : index
    %b4 = arith.minsi %b3, %c0 : index
    %b5 = arith.addi %b2, %b4 : index
    %wn = arith.maxsi %b5, %c1 : index
    %n = arith.muli %hn, %wn : index
    %ni = arith.index_cast %n : index to i32
    %nf = arith.sitofp %ni : i32 to f32
    %d = arith.divf %in, %nf : f32
    linalg.yield %d : f32
  } -> tensor<1x5x5x8xf32>
  return %y : tensor<1x5x5x8xf32>
}

// -----

// A window over the whole image (TOSA's adaptive_avg_pool2d(1)).
// CHECK-LABEL: func.func @tosa_global_avg
// CHECK: dwc.global_avg_pool ins(%arg0 : tensor<1x7x7x8xf32>) outs(%{{.*}} : tensor<1x1x1x8xf32>)
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @tosa_global_avg(%x: tensor<1x7x7x8xf32>) -> tensor<1x1x1x8xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 49.0 : f32
  %e = tensor.empty() : tensor<1x1x1x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x1x8xf32>) -> tensor<1x1x1x8xf32>
  %k = tensor.empty() : tensor<7x7xf32>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%x, %k : tensor<1x7x7x8xf32>, tensor<7x7xf32>) outs(%f : tensor<1x1x1x8xf32>) -> tensor<1x1x1x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%s : tensor<1x1x1x8xf32>) outs(%e : tensor<1x1x1x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %n : f32
    linalg.yield %d : f32
  } -> tensor<1x1x1x8xf32>
  return %y : tensor<1x1x1x8xf32>
}

// -----

// linalg.reduce over H, W (NCHW) multiplied by 1/(H*W), rounded.
// CHECK-LABEL: func.func @reduce_mean
// CHECK: dwc.global_avg_pool
// CHECK: tensor.collapse_shape {{.*}} into tensor<1x8xf32>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @reduce_mean(%x: tensor<1x8x7x7xf32>) -> tensor<1x8xf32> {
  %zero = arith.constant 0.0 : f32
  %r = arith.constant 0.0204081628 : f32
  %e = tensor.empty() : tensor<1x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  %s = linalg.reduce ins(%x : tensor<1x8x7x7xf32>) outs(%f : tensor<1x8xf32>) dimensions = [2, 3]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
         ins(%s : tensor<1x8xf32>) outs(%e : tensor<1x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %r : f32
    linalg.yield %m : f32
  } -> tensor<1x8xf32>
  return %y : tensor<1x8xf32>
}

// -----

// TOSA's mean over (2, 3): a reduce over W, an expand, a reduce over H, an
// expand, then a multiplication by a splat 1x1x1x1 constant of 1/(H*W).
// CHECK-LABEL: func.func @tosa_reduce_chain
// CHECK: %[[T:.*]] = linalg.transpose ins(%arg0 : tensor<1x8x7x7xf32>)
// CHECK: dwc.global_avg_pool ins(%[[T]] : tensor<1x7x7x8xf32>)
// CHECK-NOT: linalg.reduce
// CHECK: tensor.expand_shape {{.*}} into tensor<1x8x1x1xf32>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#z = affine_map<(d0, d1, d2, d3) -> (0, 0, 0, 0)>
func.func @tosa_reduce_chain(%x: tensor<1x8x7x7xf32>) -> tensor<1x8x1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %r = arith.constant dense<0.0204081628> : tensor<1x1x1x1xf32>
  %e1 = tensor.empty() : tensor<1x8x7xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x8x7xf32>) -> tensor<1x8x7xf32>
  %s1 = linalg.reduce ins(%x : tensor<1x8x7x7xf32>) outs(%f1 : tensor<1x8x7xf32>) dimensions = [3]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %x1 = tensor.expand_shape %s1 [[0], [1], [2, 3]] output_shape [1, 8, 7, 1] : tensor<1x8x7xf32> into tensor<1x8x7x1xf32>
  %e2 = tensor.empty() : tensor<1x8x1xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x8x1xf32>) -> tensor<1x8x1xf32>
  %s2 = linalg.reduce ins(%x1 : tensor<1x8x7x1xf32>) outs(%f2 : tensor<1x8x1xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %x2 = tensor.expand_shape %s2 [[0], [1], [2, 3]] output_shape [1, 8, 1, 1] : tensor<1x8x1xf32> into tensor<1x8x1x1xf32>
  %e = tensor.empty() : tensor<1x8x1x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #z, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%x2, %r : tensor<1x8x1x1xf32>, tensor<1x1x1x1xf32>) outs(%e : tensor<1x8x1x1xf32>) {
  ^bb0(%in: f32, %c: f32, %out: f32):
    %m = arith.mulf %in, %c : f32
    linalg.yield %m : f32
  } -> tensor<1x8x1x1xf32>
  return %y : tensor<1x8x1x1xf32>
}
