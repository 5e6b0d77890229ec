// The backward kernels the dwc-to-nvvm pipeline selects, in PTX (format=isa
// stops at PTX text: no ptxas): backward filter -> zero-fill + the
// streaming kernel for 3x3 (128-bit loads, f32 FMAs, shared-memory block
// reduction with barriers, f32 atomic adds) or the split-z kernel for 7x7
// (f16: f32 FMAs on widened inputs by default; packed fma.rn.f16x2 partial
// sums flushed into f32 only when requested, half_steps > 0) (+ the
// conversion kernel for f16); stride-1 backward data -> the GEMV kernel
// (cp.async filter rows) for f32 and the tensor-core kernel (mma.sync) for
// f16 with FW >= 18; stride 2 -> the direct kernel (no cp.async, no mma).
// Kernels are named <func>_<family>[_<role>].
// RUN: sed "s/padding = \[9, 9, 9, 9\]/& {dwc.kernel = #dwc.mma_band<>}/" %s | dwc-opt --dwc-to-nvvm="format=isa" | FileCheck %s

// CHECK-LABEL: gpu.binary @bwd_filter_f32_bwd_filter_stream_zero 
// CHECK: st.global.v4.b32
// CHECK-LABEL: gpu.binary @bwd_filter_f32_bwd_filter_stream 
// CHECK: .shared .align {{[0-9]+}} .b8 {{.*}}[4096]
// CHECK: ld.global.v4.b32
// CHECK: fma.rn.f32
// CHECK: bar.sync
// CHECK: ld.shared.v4.b32
// CHECK: {{(atom|red)}}.global.add.f32
// CHECK: ret;
func.func @bwd_filter_f32(%x: tensor<2x8x16x32xf32>, %dy: tensor<2x8x16x32xf32>) -> tensor<3x3x32xf32> {
  %init = tensor.empty() : tensor<3x3x32xf32>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<2x8x16x32xf32>, tensor<2x8x16x32xf32>)
    outs(%init : tensor<3x3x32xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<3x3x32xf32>
  return %dw : tensor<3x3x32xf32>
}

// CHECK-LABEL: gpu.binary @bwd_filter_f16_bwd_filter_split_z 
// CHECK-NOT: {{bar.sync|fma.rn.f16x2}}
// CHECK: cvt.f32.f16
// CHECK-NOT: fma.rn.f16x2
// CHECK: fma.rn.f32
// CHECK-NOT: fma.rn.f16x2
// CHECK: {{(atom|red)}}.global.add.f32
// CHECK-NOT: fma.rn.f16x2
// CHECK-LABEL: gpu.binary @bwd_filter_f16_bwd_filter_split_z_convert 
// CHECK: cvt.rn.f16x2.f32
// CHECK: st.global.v4.b32
func.func @bwd_filter_f16(%x: tensor<2x8x16x64xf16>, %dy: tensor<2x8x16x64xf16>) -> tensor<7x7x64xf16> {
  %init = tensor.empty() : tensor<7x7x64xf16>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<2x8x16x64xf16>, tensor<2x8x16x64xf16>)
    outs(%init : tensor<7x7x64xf16>) strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
    {dwc.kernel = #dwc.bwd_filter_split_z<>} -> tensor<7x7x64xf16>
  return %dw : tensor<7x7x64xf16>
}

// Requested packed f16 partial sums.
// CHECK-LABEL: gpu.binary @bwd_filter_f16_half_bwd_filter_split_z 
// CHECK: fma.rn.f16x2
// CHECK: cvt.f32.f16
// CHECK: {{(atom|red)}}.global.add.f32
func.func @bwd_filter_f16_half(%x: tensor<2x8x16x64xf16>, %dy: tensor<2x8x16x64xf16>) -> tensor<7x7x64xf16> {
  %init = tensor.empty() : tensor<7x7x64xf16>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<2x8x16x64xf16>, tensor<2x8x16x64xf16>)
    outs(%init : tensor<7x7x64xf16>) strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
    {dwc.kernel = #dwc.bwd_filter_split_z<half_steps = 16>} -> tensor<7x7x64xf16>
  return %dw : tensor<7x7x64xf16>
}

// CHECK-LABEL: gpu.binary @bwd_data_f32_gemv 
// CHECK: cp.async.cg.shared.global
// CHECK: fma.rn.f32
func.func @bwd_data_f32(%dy: tensor<2x8x16x32xf32>, %w: tensor<3x3x32xf32>) -> tensor<2x8x16x32xf32> {
  %init = tensor.empty() : tensor<2x8x16x32xf32>
  %dx = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<2x8x16x32xf32>, tensor<3x3x32xf32>)
    outs(%init : tensor<2x8x16x32xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<2x8x16x32xf32>
  return %dx : tensor<2x8x16x32xf32>
}

// CHECK-LABEL: gpu.binary @bwd_data_f16_19_mma_band 
// CHECK: cp.async
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
func.func @bwd_data_f16_19(%dy: tensor<1x8x32x64xf16>, %w: tensor<19x19x64xf16>) -> tensor<1x8x32x64xf16> {
  %init = tensor.empty() : tensor<1x8x32x64xf16>
  %dx = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x8x32x64xf16>, tensor<19x19x64xf16>)
    outs(%init : tensor<1x8x32x64xf16>) strides = [1, 1] dilations = [1, 1] padding = [9, 9, 9, 9] -> tensor<1x8x32x64xf16>
  return %dx : tensor<1x8x32x64xf16>
}

// CHECK-LABEL: gpu.binary @bwd_data_stride2_strided_gather 
// CHECK-NOT: cp.async
// CHECK-NOT: mma.sync
// CHECK: ret;
func.func @bwd_data_stride2(%dy: tensor<1x4x8x32xf32>, %w: tensor<3x3x32xf32>) -> tensor<1x8x16x32xf32> {
  %init = tensor.empty() : tensor<1x8x16x32xf32>
  %dx = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x4x8x32xf32>, tensor<3x3x32xf32>)
    outs(%init : tensor<1x8x16x32xf32>) strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x16x32xf32>
  return %dx : tensor<1x8x16x32xf32>
}
