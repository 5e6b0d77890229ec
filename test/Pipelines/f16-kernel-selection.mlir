// Kernel selection of dwc-to-nvvm for f16 depthwise convolutions (issue 5,
// measured on the H200): 3x3 -> the GEMV kernel with 64-bit f16 vectors
// (ld.global.v4.b16), the three filter rows unrolled (30 input + 9 filter
// loads, 64-bit stores, no shared memory, no barrier); 5x5 -> the GEMV kernel with
// 128-bit vectors and filter rows staged by cp.async.cg; 9x9 -> the
// row-ring tensor-core kernel (mma.sync m16n8k16, f32 accumulators).
// RUN: dwc-opt %s --dwc-to-nvvm=format=isa | %PYTHON %S/Inputs/extract_ptx.py | FileCheck %s

// CHECK-LABEL: .entry f3_kernel(
// CHECK-NOT: .shared
// CHECK-COUNT-39: ld.global.v4.b16
// CHECK-NOT: ld.global
// CHECK-NOT: bar.sync
// CHECK-NOT: mma.sync
// CHECK: st.global.v2.b32
func.func @f3(%x: tensor<2x16x32x64xf16>, %w: tensor<3x3x64xf16>) -> tensor<2x16x32x64xf16> {
  %e = tensor.empty() : tensor<2x16x32x64xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<2x16x32x64xf16>, tensor<3x3x64xf16>) outs(%e : tensor<2x16x32x64xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<2x16x32x64xf16>
  return %y : tensor<2x16x32x64xf16>
}

// CHECK-LABEL: .entry f5_kernel(
// CHECK: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16
// CHECK: ld.global.v4.b32
// CHECK-NOT: mma.sync
// CHECK: st.global.v4.b32
func.func @f5(%x: tensor<2x16x32x64xf16>, %w: tensor<5x5x64xf16>) -> tensor<2x16x32x64xf16> {
  %e = tensor.empty() : tensor<2x16x32x64xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<2x16x32x64xf16>, tensor<5x5x64xf16>) outs(%e : tensor<2x16x32x64xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] -> tensor<2x16x32x64xf16>
  return %y : tensor<2x16x32x64xf16>
}

// CHECK-LABEL: .entry f9_kernel(
// CHECK: cp.async.ca.shared.global
// CHECK: cp.async.cg.shared.global
// CHECK-COUNT-16: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT: mma.sync
func.func @f9(%x: tensor<2x16x32x64xf16>, %w: tensor<9x9x64xf16>) -> tensor<2x16x32x64xf16> {
  %e = tensor.empty() : tensor<2x16x32x64xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<2x16x32x64xf16>, tensor<9x9x64xf16>) outs(%e : tensor<2x16x32x64xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] -> tensor<2x16x32x64xf16>
  return %y : tensor<2x16x32x64xf16>
}
