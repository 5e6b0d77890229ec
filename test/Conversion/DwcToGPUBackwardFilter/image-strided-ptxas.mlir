// The image backward-filter kernels of the new default classes assemble
// for sm_90 with ptxas without spilling (chosen by dwc-select-kernels, no
// request): strided dY with 64 channels and 3 column segments (112 x 112 x
// 96 3x3 stride 2, bf16), a 13 x 5 filter on 7 x 7 maps (f16), and, as
// requested configurations (their layers take #dwc.bwd_filter_taps by
// default now), 3x3 at 112 x 112 x 32 (f16, async one-row strips) and
// 56 x 56 x 144 3x3 with 48 channels and segments (f16), and the two
// levels of the slice reduction.
// REQUIRES: ptxas
// RUN: rm -rf %t && dwc-opt %s --dwc-to-nvvm=format=isa | %PYTHON %S/../../Pipelines/Inputs/extract_ptx.py --out-dir %t > /dev/null
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/s2_bf16_bwd_filter_image.ptx -o %t/a.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c32_f16_bwd_filter_image.ptx -o %t/b.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/f13x5_f16_bwd_filter_image.ptx -o %t/c.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c144_f16_bwd_filter_image.ptx -o %t/d.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c144_f16_bwd_filter_image_partial.ptx -o %t/e.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c144_f16_bwd_filter_image_reduce.ptx -o %t/f.cubin 2>&1 | FileCheck %s

// CHECK: Compiling entry function
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Used {{[0-9]+}} registers

func.func @s2_bf16(%x: tensor<64x112x112x96xbf16>, %dy: tensor<64x56x56x96xbf16>) -> tensor<3x3x96xbf16> {
  %e = tensor.empty() : tensor<3x3x96xbf16>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<64x112x112x96xbf16>, tensor<64x56x56x96xbf16>) outs(%e : tensor<3x3x96xbf16>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<3x3x96xbf16>
  return %dw : tensor<3x3x96xbf16>
}

func.func @c32_f16(%x: tensor<64x112x112x32xf16>, %dy: tensor<64x112x112x32xf16>) -> tensor<3x3x32xf16> {
  %e = tensor.empty() : tensor<3x3x32xf16>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<64x112x112x32xf16>, tensor<64x112x112x32xf16>) outs(%e : tensor<3x3x32xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 1, units = 13, copy = "async">} -> tensor<3x3x32xf16>
  return %dw : tensor<3x3x32xf16>
}

func.func @f13x5_f16(%x: tensor<32x7x7x768xf16>, %dy: tensor<32x7x7x768xf16>) -> tensor<13x5x768xf16> {
  %e = tensor.empty() : tensor<13x5x768xf16>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<32x7x7x768xf16>, tensor<32x7x7x768xf16>) outs(%e : tensor<13x5x768xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 2, 2] -> tensor<13x5x768xf16>
  return %dw : tensor<13x5x768xf16>
}

func.func @c144_f16(%x: tensor<64x56x56x144xf16>, %dy: tensor<64x56x56x144xf16>) -> tensor<3x3x144xf16> {
  %e = tensor.empty() : tensor<3x3x144xf16>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<64x56x56x144xf16>, tensor<64x56x56x144xf16>) outs(%e : tensor<3x3x144xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_image<channels = 48, rows = 3, units = 6, copy = "block", segments = 4>} -> tensor<3x3x144xf16>
  return %dw : tensor<3x3x144xf16>
}
