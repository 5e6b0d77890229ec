// torch-mlir's NCHW forms (fx.export_and_import, linalg-on-tensors): each
// function is one pattern as the front end emits it; raising gives the NHWC
// dwc op between transposes, the pad folded into `padding`.
// RUN: dwc-opt %s --raise-linalg-to-dwc --split-input-file | FileCheck %s

// Depthwise conv after a zero pad, bias as a broadcast over [0, 2, 3]; the
// CHW filter constant's transpose folds into a constant.
// CHECK-LABEL: func.func @depthwise_nchw
// CHECK-DAG: %[[W:.*]] = arith.constant dense<{{\[\[\[}}1.000000e+00, 1.000000e+00, {{.*}}> : tensor<3x3x8xf32>
// CHECK-DAG: %[[X:.*]] = linalg.transpose ins(%arg0 : tensor<1x8x10x10xf32>) {{.*}} permutation = [0, 2, 3, 1]
// CHECK: %[[Y:.*]] = dwc.depthwise_conv2d ins(%[[X]], %[[W]] : tensor<1x10x10x8xf32>, tensor<3x3x8xf32>) bias(%arg1 : tensor<8xf32>) {{.*}} strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
// CHECK: linalg.transpose ins(%[[Y]] : tensor<1x10x10x8xf32>) {{.*}} permutation = [0, 3, 1, 2]
// CHECK-NOT: linalg.depthwise
func.func @depthwise_nchw(%x: tensor<1x8x10x10xf32>, %b: tensor<8xf32>) -> tensor<1x8x10x10xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]], [[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]], [[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]], [[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]], [[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]], [[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]], [[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]], [[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<8x1x3x3xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b2: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x8x10x10xf32> to tensor<1x8x12x12xf32>
  %e = tensor.empty() : tensor<1x8x10x10xf32>
  %bb = linalg.broadcast ins(%b : tensor<8xf32>) outs(%e : tensor<1x8x10x10xf32>) dimensions = [0, 2, 3]
  %wc = tensor.collapse_shape %w [[0, 1], [2], [3]] : tensor<8x1x3x3xf32> into tensor<8x3x3xf32>
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%p, %wc : tensor<1x8x12x12xf32>, tensor<8x3x3xf32>) outs(%bb : tensor<1x8x10x10xf32>) -> tensor<1x8x10x10xf32>
  return %y : tensor<1x8x10x10xf32>
}

// -----

// Dense NCHW/FCHW conv, stride 2, with a filter argument (its transpose to
// HWCF stays).
// CHECK-LABEL: func.func @conv_nchw_fchw
// CHECK: %[[W:.*]] = linalg.transpose ins(%arg1 : tensor<16x3x3x3xf32>) {{.*}} permutation = [2, 3, 1, 0]
// CHECK: dwc.conv2d ins(%{{.*}}, %[[W]] : tensor<1x9x9x3xf32>, tensor<3x3x3x16xf32>) bias(%arg2 : tensor<16xf32>) {{.*}} strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x5x5x16xf32>
func.func @conv_nchw_fchw(%x: tensor<1x3x9x9xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) -> tensor<1x16x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b2: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x3x9x9xf32> to tensor<1x3x11x11xf32>
  %e = tensor.empty() : tensor<1x16x5x5xf32>
  %bb = linalg.broadcast ins(%b : tensor<16xf32>) outs(%e : tensor<1x16x5x5xf32>) dimensions = [0, 2, 3]
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
         ins(%p, %w : tensor<1x3x11x11xf32>, tensor<16x3x3x3xf32>) outs(%bb : tensor<1x16x5x5xf32>) -> tensor<1x16x5x5xf32>
  return %y : tensor<1x16x5x5xf32>
}

// -----

// Max pooling with ceil_mode = True: torch-mlir pads high by the stride with
// -inf.
// CHECK-LABEL: func.func @maxpool_ceil
// CHECK: dwc.pool2d max ins(%{{.*}} : tensor<1x10x10x8xf32>) {{.*}} window = [3, 3] strides = [2, 2] padding = [0, 2, 0, 2] -> tensor<1x5x5x8xf32>
func.func @maxpool_ceil(%x: tensor<1x8x10x10xf32>) -> tensor<1x8x5x5xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %p = tensor.pad %x low[0, 0, 0, 0] high[0, 0, 2, 2] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %ninf : f32
  } : tensor<1x8x10x10xf32> to tensor<1x8x12x12xf32>
  %e = tensor.empty() : tensor<1x8x5x5xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x8x5x5xf32>) -> tensor<1x8x5x5xf32>
  %k = tensor.empty() : tensor<3x3xf32>
  %y = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
         ins(%p, %k : tensor<1x8x12x12xf32>, tensor<3x3xf32>) outs(%f : tensor<1x8x5x5xf32>) -> tensor<1x8x5x5xf32>
  return %y : tensor<1x8x5x5xf32>
}

// ceil_mode with a 2x2 window: the extra padding (2) does not fit the window;
// its unread part is trimmed.
// CHECK-LABEL: func.func @maxpool_ceil_trim
// CHECK: dwc.pool2d max {{.*}} window = [2, 2] strides = [2, 2] padding = [0, 1, 0, 1] -> tensor<1x3x3x4xf32>
func.func @maxpool_ceil_trim(%x: tensor<1x4x5x5xf32>) -> tensor<1x4x3x3xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %p = tensor.pad %x low[0, 0, 0, 0] high[0, 0, 2, 2] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %ninf : f32
  } : tensor<1x4x5x5xf32> to tensor<1x4x7x7xf32>
  %e = tensor.empty() : tensor<1x4x3x3xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %k = tensor.empty() : tensor<2x2xf32>
  %y = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
         ins(%p, %k : tensor<1x4x7x7xf32>, tensor<2x2xf32>) outs(%f : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  return %y : tensor<1x4x3x3xf32>
}

// -----

// Average pooling, count_include_pad = True: sum + division by KH*KW.
// CHECK-LABEL: func.func @avgpool_nchw
// CHECK: dwc.pool2d avg {{.*}} window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x2x2x8xf32>
// CHECK-NOT: linalg.pooling
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @avgpool_nchw(%x: tensor<1x8x5x5xf32>) -> tensor<1x8x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %e = tensor.empty() : tensor<1x8x2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
  %k = tensor.empty() : tensor<2x2xf32>
  %s = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
         ins(%x, %k : tensor<1x8x5x5xf32>, tensor<2x2xf32>) outs(%f : tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%s : tensor<1x8x2x2xf32>) outs(%e : tensor<1x8x2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %four : f32
    linalg.yield %d : f32
  } -> tensor<1x8x2x2xf32>
  return %y : tensor<1x8x2x2xf32>
}

// -----

// count_include_pad = False: torch-mlir computes the divisor from the output
// index (clipped window); it is evaluated at every output position and
// matches dwc's count of in-input elements.
// CHECK-LABEL: func.func @avgpool_exclude_pad
// CHECK: dwc.pool2d avg ins(%{{.*}} : tensor<1x5x5x8xf32>) {{.*}} window = [3, 3] strides = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x5x5x8xf32>
// CHECK-NOT: count_include_pad
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @avgpool_exclude_pad(%x: tensor<1x8x5x5xf32>) -> tensor<1x8x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c5 = arith.constant 5 : i64
  %c6 = arith.constant 6 : i64
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x8x5x5xf32> to tensor<1x8x7x7xf32>
  %e = tensor.empty() : tensor<1x8x5x5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x5x5xf32>) -> tensor<1x8x5x5xf32>
  %k = tensor.empty() : tensor<3x3xf32>
  %s = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%p, %k : tensor<1x8x7x7xf32>, tensor<3x3xf32>) outs(%f : tensor<1x8x5x5xf32>) -> tensor<1x8x5x5xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%s : tensor<1x8x5x5xf32>) outs(%e : tensor<1x8x5x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i2 = linalg.index 2 : index
    %h = arith.index_cast %i2 : index to i64
    %h0 = arith.subi %h, %c1 : i64
    %h1 = arith.addi %h, %c2 : i64
    %h2 = arith.minsi %h1, %c6 : i64
    %h3 = arith.minsi %h2, %c5 : i64
    %h4 = arith.subi %c1, %h : i64
    %h5 = arith.maxsi %h4, %c0 : i64
    %h6 = arith.subi %h3, %h0 : i64
    %h7 = arith.subi %h6, %h5 : i64
    %hn = arith.maxsi %h7, %c0 : i64
    %i3 = linalg.index 3 : index
    %w = arith.index_cast %i3 : index to i64
    %w0 = arith.subi %w, %c1 : i64
    %w1 = arith.addi %w, %c2 : i64
    %w2 = arith.minsi %w1, %c6 : i64
    %w3 = arith.minsi %w2, %c5 : i64
    %w4 = arith.subi %c1, %w : i64
    %w5 = arith.maxsi %w4, %c0 : i64
    %w6 = arith.subi %w3, %w0 : i64
    %w7 = arith.subi %w6, %w5 : i64
    %wn = arith.maxsi %w7, %c0 : i64
    %n = arith.muli %hn, %wn : i64
    %nf = arith.sitofp %n : i64 to f32
    %d = arith.divf %in, %nf : f32
    linalg.yield %d : f32
  } -> tensor<1x8x5x5xf32>
  return %y : tensor<1x8x5x5xf32>
}

// -----

// Global average (x.mean((2, 3))): a generic sum to (d0, d1) divided by H*W.
// CHECK-LABEL: func.func @global_avg
// CHECK: %[[T:.*]] = linalg.transpose ins(%arg0 : tensor<2x8x3x5xf32>) {{.*}} permutation = [0, 2, 3, 1]
// CHECK: %[[G:.*]] = dwc.global_avg_pool ins(%[[T]] : tensor<2x3x5x8xf32>) outs(%{{.*}} : tensor<2x1x1x8xf32>)
// CHECK: tensor.collapse_shape %[[G]] {{\[}}[0, 1, 2], [3]] : tensor<2x1x1x8xf32> into tensor<2x8xf32>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#nc = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @global_avg(%x: tensor<2x8x3x5xf32>) -> tensor<2x8xf32> {
  %zero = arith.constant 0.0 : f32
  %hw = arith.constant 15.0 : f32
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

// adaptive_avg_pool2d(1): the sum keeps (d0, d1, 0, 0); the result is
// reshaped back to N x C x 1 x 1.
// CHECK-LABEL: func.func @global_avg_keepdim
// CHECK: dwc.global_avg_pool
// CHECK: tensor.expand_shape {{.*}} into tensor<1x8x1x1xf32>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#nc11 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
func.func @global_avg_keepdim(%x: tensor<1x8x7x7xf32>) -> tensor<1x8x1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %hw = arith.constant 49.0 : f32
  %e = tensor.empty() : tensor<1x8x1x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x1x1xf32>) -> tensor<1x8x1x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #nc11], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
         ins(%x : tensor<1x8x7x7xf32>) outs(%f : tensor<1x8x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<1x8x1x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%s : tensor<1x8x1x1xf32>) outs(%e : tensor<1x8x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %hw : f32
    linalg.yield %d : f32
  } -> tensor<1x8x1x1xf32>
  return %y : tensor<1x8x1x1xf32>
}

// -----

// Two convolutions joined by a batch-norm-like scale and a ReLU: after the
// layout propagation no transpose is left between the two dwc ops.
// CHECK-LABEL: func.func @chain
// CHECK: linalg.transpose ins(%arg0
// CHECK: dwc.conv2d
// CHECK-NOT: linalg.transpose ins(%{{[0-9]+}} :
// CHECK: dwc.depthwise_conv2d
// CHECK-NEXT: tensor.empty
// CHECK-NEXT: linalg.transpose ins(%{{[0-9]+}} : tensor<1x6x6x8xf32>) {{.*}} permutation = [0, 3, 1, 2]
// CHECK-NEXT: return
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c11 = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
func.func @chain(%x: tensor<1x4x6x6xf32>, %w: tensor<8x4x1x1xf32>, %dw: tensor<8x3x3xf32>, %scale: tensor<8x1x1xf32>) -> tensor<1x8x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x6x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%x, %w : tensor<1x4x6x6xf32>, tensor<8x4x1x1xf32>) outs(%f : tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %bn = linalg.generic {indexing_maps = [#id, #c11, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%c, %scale : tensor<1x8x6x6xf32>, tensor<8x1x1xf32>) outs(%e : tensor<1x8x6x6xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.mulf %in, %s : f32
    linalg.yield %m : f32
  } -> tensor<1x8x6x6xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%bn : tensor<1x8x6x6xf32>) outs(%e : tensor<1x8x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x6x6xf32>
  %p = tensor.pad %r low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %cc: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x8x6x6xf32> to tensor<1x8x8x8xf32>
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%p, %dw : tensor<1x8x8x8xf32>, tensor<8x3x3xf32>) outs(%f : tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  return %y : tensor<1x8x6x6xf32>
}

// -----

// ceil_mode with stride 1 (GoogLeNet's branch pools): torch-mlir pads high by
// pad + stride = 2, one more row than any window reads; linalg leaves it
// unused and the raising trims it.
// CHECK-LABEL: func.func @maxpool_ceil_unused_rows
// CHECK: dwc.pool2d{{ +}}max {{.*}} window = [3, 3] strides = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x6x6x4xf32>
func.func @maxpool_ceil_unused_rows(%x: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 2, 2] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %ninf : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x9x9xf32>
  %e = tensor.empty() : tensor<1x4x6x6xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %k = tensor.empty() : tensor<3x3xf32>
  %y = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%p, %k : tensor<1x4x9x9xf32>, tensor<3x3xf32>) outs(%f : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %y : tensor<1x4x6x6xf32>
}
