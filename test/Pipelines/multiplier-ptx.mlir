// The dwc-to-nvvm pipeline on a depthwise convolution with a channel
// multiplier (FastViT's 7x7 stride-2 patch embedding, 48 -> 96 channels,
// f16): kernel selection gives it to the direct kernel, which loads one
// element per thread (16-bit scalar loads), sums in f32 and stores one
// element.
// RUN: dwc-opt %s --dwc-to-nvvm="format=isa" | %PYTHON %S/Inputs/extract_ptx.py | FileCheck %s

// CHECK-LABEL: // gpu.binary @patch_embed_direct
// CHECK: .entry patch_embed_direct(
// CHECK-NOT: ld.global.v4
// CHECK: ld.global.b16
// CHECK: cvt.f32.f16
// CHECK: fma.rn.f32
// CHECK: st.global.b16
// CHECK: ret;
func.func @patch_embed(%x: tensor<2x16x16x48xf16>, %w: tensor<7x7x96xf16>, %b: tensor<96xf16>) -> tensor<2x8x8x96xf16> {
  %i = tensor.empty() : tensor<2x8x8x96xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<2x16x16x48xf16>, tensor<7x7x96xf16>) bias(%b : tensor<96xf16>)
         outs(%i : tensor<2x8x8x96xf16>) strides = [2, 2] dilations = [1, 1] padding = [3, 3, 3, 3]
         channel_multiplier = 2 -> tensor<2x8x8x96xf16>
  return %y : tensor<2x8x8x96xf16>
}
