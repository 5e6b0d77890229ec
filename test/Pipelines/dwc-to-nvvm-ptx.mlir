// The dwc-to-nvvm pipeline from tensor-level functions to PTX (format=isa):
// 128-bit global loads/stores for every element type when C allows them,
// conversions to f32 and f32 fma accumulation, scalar loads otherwise.
// RUN: dwc-opt %s --dwc-to-nvvm="format=isa" | %PYTHON %S/Inputs/extract_ptx.py | FileCheck %s

// CHECK-LABEL: // gpu.binary @dw_f32_direct
// CHECK: .target sm_90
// CHECK: .entry dw_f32_direct(
// CHECK: .maxntid 256, 1, 1
// CHECK: ld.global.v4.b32
// CHECK: fma.rn.f32
// CHECK: st.global.v4.b32
// CHECK: ret;
func.func @dw_f32(%x: tensor<2x16x16x32xf32>, %w: tensor<3x3x32xf32>, %b: tensor<32xf32>) -> tensor<2x16x16x32xf32> {
  %init = tensor.empty() : tensor<2x16x16x32xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<2x16x16x32xf32>, tensor<3x3x32xf32>) bias(%b : tensor<32xf32>)
    outs(%init : tensor<2x16x16x32xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.direct} -> tensor<2x16x16x32xf32>
  return %y : tensor<2x16x16x32xf32>
}

// 8 x f16 per 128-bit load (four b32 registers), widened to f32.
// CHECK-LABEL: // gpu.binary @dw_f16_direct
// CHECK: .entry dw_f16_direct(
// CHECK: ld.global.v4.b32
// CHECK: cvt.f32.f16
// CHECK: fma.rn.f32
// CHECK: cvt.rn.f16x2.f32
// CHECK: st.global.v4.b32
func.func @dw_f16(%x: tensor<2x16x16x64xf16>, %w: tensor<5x5x64xf16>) -> tensor<2x16x16x64xf16> {
  %init = tensor.empty() : tensor<2x16x16x64xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<2x16x16x64xf16>, tensor<5x5x64xf16>)
    outs(%init : tensor<2x16x16x64xf16>) strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.direct} -> tensor<2x16x16x64xf16>
  return %y : tensor<2x16x16x64xf16>
}

// CHECK-LABEL: // gpu.binary @dw_bf16_direct
// CHECK: .entry dw_bf16_direct(
// CHECK: ld.global.v4.b32
// CHECK: cvt.f32.bf16
// CHECK: fma.rn.f32
// CHECK: cvt.rn.bf16x2.f32
// CHECK: st.global.v4.b32
func.func @dw_bf16(%x: tensor<1x14x14x16xbf16>, %w: tensor<7x7x16xbf16>) -> tensor<1x7x7x16xbf16> {
  %init = tensor.empty() : tensor<1x7x7x16xbf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x14x14x16xbf16>, tensor<7x7x16xbf16>)
    outs(%init : tensor<1x7x7x16xbf16>) strides = [2, 2] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.direct} -> tensor<1x7x7x16xbf16>
  return %y : tensor<1x7x7x16xbf16>
}

// C = 3: scalar 32-bit loads, no vector access.
// CHECK-LABEL: // gpu.binary @dw_scalar_direct
// CHECK: .entry dw_scalar_direct(
// CHECK-NOT: .v4.
// CHECK: ld.global.b32
// CHECK-NOT: .v4.
// CHECK: fma.rn.f32
// CHECK-NOT: .v4.
// CHECK: st.global.b32
// CHECK-NOT: .v4.
func.func @dw_scalar(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3xf32>) -> tensor<1x8x8x3xf32> {
  %init = tensor.empty() : tensor<1x8x8x3xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x3xf32>, tensor<3x3x3xf32>)
    outs(%init : tensor<1x8x8x3xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.direct} -> tensor<1x8x8x3xf32>
  return %y : tensor<1x8x8x3xf32>
}

// Max pooling: NaN-propagating max over the window, no fma.
// CHECK-LABEL: // gpu.binary @pool_max_direct
// CHECK: ld.global.v4.b32
// CHECK: max.NaN.f32
// CHECK: st.global.v4.b32
func.func @pool_max(%x: tensor<1x16x16x32xf32>) -> tensor<1x8x8x32xf32> {
  %init = tensor.empty() : tensor<1x8x8x32xf32>
  %y = dwc.pool2d max ins(%x : tensor<1x16x16x32xf32>) outs(%init : tensor<1x8x8x32xf32>)
    window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.direct} -> tensor<1x8x8x32xf32>
  return %y : tensor<1x8x8x32xf32>
}
