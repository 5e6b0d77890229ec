// The backward-filter kernels at the backward grid's sizes assemble for
// sm_90 with ptxas without spilling (0 bytes of spill stores and loads):
// the streaming kernel (3x3, f32 R = 3 and f16 R = 2, all 9 taps x 128 bits
// in f32 registers), the split-z kernel with f16 partial sums (7x7 and
// 13x13, TW = 7) and the f32 split-z kernel at its widest tap tile (51x51,
// TW = 17: 2 x 17 vectors of window and sums).
// REQUIRES: ptxas
// RUN: rm -rf %t && dwc-opt %s --dwc-to-nvvm=format=isa | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t > /dev/null
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/stream_f32_bwd_filter_stream.ptx -o %t/a.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/stream_f16_bwd_filter_stream.ptx -o %t/b.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/half_f16_7_bwd_filter_split_z.ptx -o %t/c.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/half_f16_13_bwd_filter_split_z.ptx -o %t/d.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/splitz_f32_51_bwd_filter_split_z.ptx -o %t/e.cubin 2>&1 | FileCheck %s

// CHECK: Compiling entry function
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Used {{[0-9]+}} registers

func.func @stream_f32(%x: tensor<128x64x64x256xf32>, %dy: tensor<128x64x64x256xf32>) -> tensor<3x3x256xf32> {
  %init = tensor.empty() : tensor<3x3x256xf32>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<128x64x64x256xf32>, tensor<128x64x64x256xf32>)
    outs(%init : tensor<3x3x256xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<3x3x256xf32>
  return %dw : tensor<3x3x256xf32>
}

func.func @stream_f16(%x: tensor<128x32x32x1024xf16>, %dy: tensor<128x32x32x1024xf16>) -> tensor<3x3x1024xf16> {
  %init = tensor.empty() : tensor<3x3x1024xf16>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<128x32x32x1024xf16>, tensor<128x32x32x1024xf16>)
    outs(%init : tensor<3x3x1024xf16>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_stream<>} -> tensor<3x3x1024xf16>
  return %dw : tensor<3x3x1024xf16>
}

func.func @half_f16_7(%x: tensor<128x64x64x256xf16>, %dy: tensor<128x64x64x256xf16>) -> tensor<7x7x256xf16> {
  %init = tensor.empty() : tensor<7x7x256xf16>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<128x64x64x256xf16>, tensor<128x64x64x256xf16>)
    outs(%init : tensor<7x7x256xf16>) strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] -> tensor<7x7x256xf16>
  return %dw : tensor<7x7x256xf16>
}

func.func @half_f16_13(%x: tensor<128x64x64x256xf16>, %dy: tensor<128x64x64x256xf16>) -> tensor<13x13x256xf16> {
  %init = tensor.empty() : tensor<13x13x256xf16>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<128x64x64x256xf16>, tensor<128x64x64x256xf16>)
    outs(%init : tensor<13x13x256xf16>) strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] -> tensor<13x13x256xf16>
  return %dw : tensor<13x13x256xf16>
}

func.func @splitz_f32_51(%x: tensor<128x64x64x256xf32>, %dy: tensor<128x64x64x256xf32>) -> tensor<51x51x256xf32> {
  %init = tensor.empty() : tensor<51x51x256xf32>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<128x64x64x256xf32>, tensor<128x64x64x256xf32>)
    outs(%init : tensor<51x51x256xf32>) strides = [1, 1] dilations = [1, 1] padding = [25, 25, 25, 25] -> tensor<51x51x256xf32>
  return %dw : tensor<51x51x256xf32>
}
