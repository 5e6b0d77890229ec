// f64 depthwise convolutions through dwc-to-nvvm with the fast paths on:
// every optimised kernel (forward and backward) must refuse f64, the direct
// kernel takes it: 128-bit loads of 2 x f64, f64 fma, no conversion to f32.
// The shapes are ones the fast kernels would otherwise take (stride 1,
// C a multiple of 128 bits), so a fast path that forgot the element-type
// check shows up here as f32 arithmetic.
// RUN: dwc-opt %s --dwc-to-nvvm="format=isa" | %PYTHON %S/Inputs/extract_ptx.py | FileCheck %s

// CHECK-LABEL: // gpu.binary @dw_f64_direct
// CHECK: .entry dw_f64_direct(
// CHECK: .maxntid 256, 1, 1
// CHECK-NOT: .f32
// CHECK: ld.global.v2.b64
// CHECK-NOT: .f32
// CHECK: fma.rn.f64
// CHECK-NOT: .f32
// CHECK: st.global.v2.b64
// CHECK: ret;
func.func @dw_f64(%x: tensor<2x16x16x32xf64>, %w: tensor<7x7x32xf64>, %b: tensor<32xf64>) -> tensor<2x16x16x32xf64> {
  %init = tensor.empty() : tensor<2x16x16x32xf64>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<2x16x16x32xf64>, tensor<7x7x32xf64>) bias(%b : tensor<32xf64>)
    outs(%init : tensor<2x16x16x32xf64>) strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] -> tensor<2x16x16x32xf64>
  return %y : tensor<2x16x16x32xf64>
}

// Backward filter in f64: sums in f64 (one thread per tap and channel pair).
// CHECK-LABEL: // gpu.binary @bwd_filter_f64_direct
// CHECK: .entry bwd_filter_f64_direct(
// CHECK-NOT: .f32
// CHECK: fma.rn.f64
// CHECK-NOT: .f32
// CHECK: st.global.v2.b64
func.func @bwd_filter_f64(%x: tensor<2x16x16x32xf64>, %dy: tensor<2x16x16x32xf64>) -> tensor<3x3x32xf64> {
  %init = tensor.empty() : tensor<3x3x32xf64>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<2x16x16x32xf64>, tensor<2x16x16x32xf64>)
    outs(%init : tensor<3x3x32xf64>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<3x3x32xf64>
  return %dw : tensor<3x3x32xf64>
}

// Backward data in f64, stride 1.
// CHECK-LABEL: // gpu.binary @bwd_data_f64_direct
// CHECK: .entry bwd_data_f64_direct(
// CHECK-NOT: .f32
// CHECK: fma.rn.f64
// CHECK-NOT: .f32
// CHECK: st.global.v2.b64
func.func @bwd_data_f64(%dy: tensor<2x16x16x32xf64>, %w: tensor<5x5x32xf64>) -> tensor<2x16x16x32xf64> {
  %init = tensor.empty() : tensor<2x16x16x32xf64>
  %dx = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<2x16x16x32xf64>, tensor<5x5x32xf64>)
    outs(%init : tensor<2x16x16x32xf64>) strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] -> tensor<2x16x16x32xf64>
  return %dx : tensor<2x16x16x32xf64>
}
