// The image backward-filter kernel with cp.async double-buffered strips
// (copy = "async") assembles for sm_90 with ptxas without spilling: 56 x 56
// x 144 3x3 f16 (64 channels, 3 segments, 2 x 43 KB of dynamic shared
// memory), 32 x 56 x 56 x 96 5x5 f16, 112 x 112 x 96 3x3 stride 2 bf16 and
// 64 x 112 x 112 x 32 3x3 f32.
// REQUIRES: ptxas
// RUN: rm -rf %t && dwc-opt %s --dwc-to-nvvm=format=isa | %PYTHON %S/../../Pipelines/Inputs/extract_ptx.py --out-dir %t > /dev/null
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c144_f16_bwd_filter_image.ptx -o %t/a.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c96_5x5_f16_bwd_filter_image.ptx -o %t/b.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/s2_bf16_bwd_filter_image.ptx -o %t/c.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c32_f32_bwd_filter_image.ptx -o %t/d.cubin 2>&1 | FileCheck %s
// RUN: grep -c "cp.async.cg.shared.global" %t/c144_f16_bwd_filter_image.ptx | FileCheck %s --check-prefix=ASYNC

// CHECK: Compiling entry function
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Used {{[0-9]+}} registers
// ASYNC: {{[1-9][0-9]*}}

func.func @c144_f16(%x: tensor<64x56x56x144xf16>, %dy: tensor<64x56x56x144xf16>) -> tensor<3x3x144xf16> {
  %e = tensor.empty() : tensor<3x3x144xf16>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<64x56x56x144xf16>, tensor<64x56x56x144xf16>) outs(%e : tensor<3x3x144xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_image<channels = 64, rows = 2, segments = 3, copy = "async">} -> tensor<3x3x144xf16>
  return %dw : tensor<3x3x144xf16>
}

func.func @c96_5x5_f16(%x: tensor<32x56x56x96xf16>, %dy: tensor<32x56x56x96xf16>) -> tensor<5x5x96xf16> {
  %e = tensor.empty() : tensor<5x5x96xf16>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<32x56x56x96xf16>, tensor<32x56x56x96xf16>) outs(%e : tensor<5x5x96xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.bwd_filter_image<copy = "async">} -> tensor<5x5x96xf16>
  return %dw : tensor<5x5x96xf16>
}

func.func @s2_bf16(%x: tensor<64x112x112x96xbf16>, %dy: tensor<64x56x56x96xbf16>) -> tensor<3x3x96xbf16> {
  %e = tensor.empty() : tensor<3x3x96xbf16>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<64x112x112x96xbf16>, tensor<64x56x56x96xbf16>) outs(%e : tensor<3x3x96xbf16>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_image<copy = "async">} -> tensor<3x3x96xbf16>
  return %dw : tensor<3x3x96xbf16>
}

func.func @c32_f32(%x: tensor<64x112x112x32xf32>, %dy: tensor<64x112x112x32xf32>) -> tensor<3x3x32xf32> {
  %e = tensor.empty() : tensor<3x3x32xf32>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<64x112x112x32xf32>, tensor<64x112x112x32xf32>) outs(%e : tensor<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_image<copy = "async">} -> tensor<3x3x32xf32>
  return %dw : tensor<3x3x32xf32>
}
