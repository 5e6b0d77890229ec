// The smooth activations, identified by value in the forms front ends
// write (torch-mlir's erf GELU with a division, SiLU as x / (1 + exp(-x)),
// hardswish with its clamps and a division by 6, tanh-GELU, sigmoid), fold
// into a depthwise convolution's epilogue and prologue; and what stays.
// RUN: dwc-opt %s --dwc-fuse-activation -split-input-file | FileCheck %s

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// torch-mlir (linalg): GELU after the convolution, SiLU before it.
// CHECK-LABEL: func @gelu_after_silu_before
// CHECK-NOT: linalg.generic
// CHECK: dwc.depthwise_conv2d {{.*}} activation = gelu input_activation = silu
// CHECK-NOT: linalg.generic
func.func @gelu_after_silu_before(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x8x8x16xf32> {
  %o = tensor.empty() : tensor<1x8x8x16xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x8x8x16xf32>) outs(%o : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %one = arith.constant 1.0 : f32
    %n = arith.negf %in : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %s = arith.divf %in, %d : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x16xf32>
  %i = tensor.empty() : tensor<1x8x8x16xf32>
  %c = dwc.depthwise_conv2d ins(%a, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%i : tensor<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x8x8x16xf32>) outs(%o : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sqrt2 = arith.constant 1.41421354 : f32
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %q = arith.divf %in, %sqrt2 : f32
    %e = math.erf %q : f32
    %p = arith.addf %e, %one : f32
    %h = arith.mulf %p, %half : f32
    %y = arith.mulf %in, %h : f32
    linalg.yield %y : f32
  } -> tensor<1x8x8x16xf32>
  return %r : tensor<1x8x8x16xf32>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// hardswish (clamps and a division by 6) after, tanh-GELU before.
// CHECK-LABEL: func @hardswish_after_gelu_tanh_before
// CHECK-NOT: linalg.generic
// CHECK: dwc.depthwise_conv2d {{.*}} activation = hardswish input_activation = gelu_tanh
func.func @hardswish_after_gelu_tanh_before(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x8x8x16xf32> {
  %o = tensor.empty() : tensor<1x8x8x16xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x8x8x16xf32>) outs(%o : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %k = arith.constant 0.797884583 : f32
    %c3 = arith.constant 0.044715 : f32
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %x2 = arith.mulf %in, %in : f32
    %x3 = arith.mulf %x2, %in : f32
    %t0 = arith.mulf %x3, %c3 : f32
    %t1 = arith.addf %in, %t0 : f32
    %t2 = arith.mulf %t1, %k : f32
    %t = math.tanh %t2 : f32
    %p = arith.addf %t, %one : f32
    %hx = arith.mulf %in, %half : f32
    %y = arith.mulf %hx, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x8x8x16xf32>
  %i = tensor.empty() : tensor<1x8x8x16xf32>
  %c = dwc.depthwise_conv2d ins(%a, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%i : tensor<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x8x8x16xf32>) outs(%o : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %three = arith.constant 3.0 : f32
    %zero = arith.constant 0.0 : f32
    %six = arith.constant 6.0 : f32
    %p3 = arith.addf %in, %three : f32
    %lo = arith.maximumf %p3, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    %m = arith.mulf %in, %hi : f32
    %y = arith.divf %m, %six : f32
    linalg.yield %y : f32
  } -> tensor<1x8x8x16xf32>
  return %r : tensor<1x8x8x16xf32>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// f16: sigmoid (1 / (1 + exp(-x))) folds; an erf GELU does not (in 16
// bits it is also within rounding of the tanh GELU: ambiguous).
// CHECK-LABEL: func @f16_sigmoid_and_gelu
// CHECK: dwc.depthwise_conv2d {{.*}} activation = sigmoid
// CHECK: linalg.generic
// CHECK: math.erf
// CHECK: dwc.depthwise_conv2d
// CHECK-NOT: activation =
func.func @f16_sigmoid_and_gelu(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16xf16>) -> (tensor<1x8x8x16xf16>, tensor<1x8x8x16xf16>) {
  %o = tensor.empty() : tensor<1x8x8x16xf16>
  %i = tensor.empty() : tensor<1x8x8x16xf16>
  %c = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x16xf16>, tensor<3x3x16xf16>) outs(%i : tensor<1x8x8x16xf16>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x8x8x16xf16>) outs(%o : tensor<1x8x8x16xf16>) {
  ^bb0(%in: f16, %out: f16):
    %one = arith.constant 1.0 : f16
    %n = arith.negf %in : f16
    %e = math.exp %n : f16
    %d = arith.addf %one, %e : f16
    %s = arith.divf %one, %d : f16
    linalg.yield %s : f16
  } -> tensor<1x8x8x16xf16>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x8x8x16xf16>) outs(%o : tensor<1x8x8x16xf16>) {
  ^bb0(%in: f16, %out: f16):
    %rs2 = arith.constant 0.7071 : f16
    %one = arith.constant 1.0 : f16
    %half = arith.constant 0.5 : f16
    %q = arith.mulf %in, %rs2 : f16
    %e = math.erf %q : f16
    %p = arith.addf %e, %one : f16
    %h = arith.mulf %p, %half : f16
    %y = arith.mulf %in, %h : f16
    linalg.yield %y : f16
  } -> tensor<1x8x8x16xf16>
  %c2 = dwc.depthwise_conv2d ins(%g, %w : tensor<1x8x8x16xf16>, tensor<3x3x16xf16>) outs(%i : tensor<1x8x8x16xf16>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf16>
  return %r, %c2 : tensor<1x8x8x16xf16>, tensor<1x8x8x16xf16>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// Refusals: x * sigmoid(2x) (no activation of the op), a body that reads
// the init value, an op outside the modelled ones (math.log), and SiLU
// after a pool (a pool takes ReLU/ReLU6 only).
// CHECK-LABEL: func @smooth_refusals
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT: activation =
func.func @smooth_refusals(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>)
    -> (tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x4x4x16xf32>) {
  %o = tensor.empty() : tensor<1x8x8x16xf32>
  %i = tensor.empty() : tensor<1x8x8x16xf32>
  %c1 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%i : tensor<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf32>
  %r1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1 : tensor<1x8x8x16xf32>) outs(%o : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %t = arith.mulf %in, %two : f32
    %n = arith.negf %t : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %s = arith.divf %in, %d : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x16xf32>
  %c2 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%i : tensor<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf32>
  %r2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c2 : tensor<1x8x8x16xf32>) outs(%o : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %one = arith.constant 1.0 : f32
    %n = arith.negf %in : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %out : f32
    %s = arith.divf %in, %d : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x16xf32>
  %c3 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%i : tensor<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf32>
  %r3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c3 : tensor<1x8x8x16xf32>) outs(%o : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %one = arith.constant 1.0 : f32
    %e = math.exp %in : f32
    %d = arith.addf %e, %one : f32
    %l = math.log %d : f32
    linalg.yield %l : f32
  } -> tensor<1x8x8x16xf32>
  %pi = tensor.empty() : tensor<1x4x4x16xf32>
  %po = tensor.empty() : tensor<1x4x4x16xf32>
  %p = dwc.pool2d max ins(%x : tensor<1x8x8x16xf32>) outs(%pi : tensor<1x4x4x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x16xf32>
  %r4 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p : tensor<1x4x4x16xf32>) outs(%po : tensor<1x4x4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %one = arith.constant 1.0 : f32
    %n = arith.negf %in : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %s = arith.divf %in, %d : f32
    linalg.yield %s : f32
  } -> tensor<1x4x4x16xf32>
  return %r1, %r2, %r3, %r4 : tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x4x4x16xf32>
}
