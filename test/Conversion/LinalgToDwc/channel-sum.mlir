// RUN: dwc-opt %s --split-input-file --raise-linalg-to-dwc | FileCheck %s
// RUN: dwc-opt %s --split-input-file --raise-linalg-to-dwc --dwc-to-llvm-cpu > /dev/null

// Channel sums (a convolution's bias gradient as front ends emit it: dY
// summed over N, H and W into C, from zero, in f32) become
// dwc.conv2d_backward_bias on the NHWC tensor.

// NCHW linalg.generic (torch-mlir's aten.sum.dim_IntList over [0, 2, 3]):
// transposed to NHWC first.
// CHECK-LABEL: func.func @nchw_generic
// CHECK: %[[T:.*]] = linalg.transpose ins(%{{.*}} : tensor<2x6x5x7xf32>) outs(%{{.*}} : tensor<2x5x7x6xf32>) permutation = [0, 2, 3, 1]
// CHECK: dwc.conv2d_backward_bias ins(%[[T]] : tensor<2x5x7x6xf32>) outs(%{{.*}} : tensor<6xf32>) -> tensor<6xf32>
// CHECK-NOT: linalg.generic
func.func @nchw_generic(%dy: tensor<2x6x5x7xf32>) -> tensor<6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (c)>],
                       iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%dy : tensor<2x6x5x7xf32>) outs(%init : tensor<6xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<6xf32>
  return %s : tensor<6xf32>
}

// -----

// NHWC linalg.reduce of f16, widened to f32 in the body: no transpose.
// CHECK-LABEL: func.func @nhwc_reduce_widened
// CHECK-NOT: linalg.transpose
// CHECK: dwc.conv2d_backward_bias ins(%{{.*}} : tensor<3x4x4x16xf16>) outs(%{{.*}} : tensor<16xf32>) -> tensor<16xf32>
// CHECK-NOT: linalg.reduce
func.func @nhwc_reduce_widened(%dy: tensor<3x4x4x16xf16>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.reduce ins(%dy : tensor<3x4x4x16xf16>) outs(%init : tensor<16xf32>) dimensions = [0, 1, 2]
    (%a: f16, %acc: f32) {
      %w = arith.extf %a : f16 to f32
      %r = arith.addf %acc, %w : f32
      linalg.yield %r : f32
    }
  return %s : tensor<16xf32>
}

// -----

// Refusals: 16-bit accumulation (the dwc op sums in f32: other rounding),
// a non-zero init, other reduced dims, a body that is not a sum.
// CHECK-LABEL: func.func @refused
// CHECK-NOT: dwc.conv2d_backward_bias
// CHECK-COUNT-4: linalg.reduce
func.func @refused(%dy: tensor<3x4x4x16xf16>, %x: tensor<3x4x4x16xf32>) -> (tensor<16xf16>, tensor<16xf32>, tensor<3xf32>, tensor<16xf32>) {
  %zh = arith.constant 0.0 : f16
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %eh = tensor.empty() : tensor<16xf16>
  %e = tensor.empty() : tensor<16xf32>
  %e3 = tensor.empty() : tensor<3xf32>
  %ih = linalg.fill ins(%zh : f16) outs(%eh : tensor<16xf16>) -> tensor<16xf16>
  %i1 = linalg.fill ins(%one : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %i0 = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %i3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3xf32>) -> tensor<3xf32>
  %a = linalg.reduce ins(%dy : tensor<3x4x4x16xf16>) outs(%ih : tensor<16xf16>) dimensions = [0, 1, 2]
    (%v: f16, %acc: f16) {
      %r = arith.addf %v, %acc : f16
      linalg.yield %r : f16
    }
  %b = linalg.reduce ins(%x : tensor<3x4x4x16xf32>) outs(%i1 : tensor<16xf32>) dimensions = [0, 1, 2]
    (%v: f32, %acc: f32) {
      %r = arith.addf %v, %acc : f32
      linalg.yield %r : f32
    }
  %c = linalg.reduce ins(%x : tensor<3x4x4x16xf32>) outs(%i3 : tensor<3xf32>) dimensions = [1, 2, 3]
    (%v: f32, %acc: f32) {
      %r = arith.addf %v, %acc : f32
      linalg.yield %r : f32
    }
  %d = linalg.reduce ins(%x : tensor<3x4x4x16xf32>) outs(%i0 : tensor<16xf32>) dimensions = [0, 1, 2]
    (%v: f32, %acc: f32) {
      %r = arith.mulf %v, %acc : f32
      linalg.yield %r : f32
    }
  return %a, %b, %c, %d : tensor<16xf16>, tensor<16xf32>, tensor<3xf32>, tensor<16xf32>
}
