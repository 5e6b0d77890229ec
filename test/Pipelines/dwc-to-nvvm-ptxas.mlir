// The baseline kernels assemble for sm_90 with ptxas and do not spill
// (ptxas -v reports 0 bytes of spill stores and loads), also with the
// largest fully unrolled window (7x7) and a long non-square filter (51x5).
// (7x7 f16 by default takes 8 x 8 row tiles of 2 channels and spills up
// to 24 bytes at 255 registers - 1.09-1.11x faster than the no-spill 4 x 8
// tiles on the H200, measured 2026-12-01; the no-spill
// form, #dwc.row_tile<rows = 4>, is checked here; the f32 7x7 GEMV kernel is
// requested: at batch 2 the full row in column parts is the default.)
// REQUIRES: ptxas
// RUN: rm -rf %t && dwc-opt %s --dwc-to-nvvm=format=isa | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t > /dev/null
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/dw7_f32_gemv.ptx -o %t/a.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/dw7_f16_row_tile.ptx -o %t/b.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/dw51x5_gemv.ptx -o %t/c.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/pool_avg_pool_forward.ptx -o %t/d.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/bwd_data_strided_gather.ptx -o %t/e.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/conv_im2win_mma.ptx -o %t/f.cubin 2>&1 | FileCheck %s

// CHECK: Compiling entry function
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Used {{[0-9]+}} registers

func.func @dw7_f32(%x: tensor<2x56x56x96xf32>, %w: tensor<7x7x96xf32>, %b: tensor<96xf32>) -> tensor<2x56x56x96xf32> {
  %init = tensor.empty() : tensor<2x56x56x96xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<2x56x56x96xf32>, tensor<7x7x96xf32>) bias(%b : tensor<96xf32>)
    outs(%init : tensor<2x56x56x96xf32>) strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
    {dwc.kernel = #dwc.gemv<>} -> tensor<2x56x56x96xf32>
  return %y : tensor<2x56x56x96xf32>
}

func.func @dw7_f16(%x: tensor<2x56x56x96xf16>, %w: tensor<7x7x96xf16>) -> tensor<2x56x56x96xf16> {
  %init = tensor.empty() : tensor<2x56x56x96xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<2x56x56x96xf16>, tensor<7x7x96xf16>)
    outs(%init : tensor<2x56x56x96xf16>) strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
    {dwc.kernel = #dwc.row_tile<rows = 4>} -> tensor<2x56x56x96xf16>
  return %y : tensor<2x56x56x96xf16>
}

func.func @dw51x5(%x: tensor<1x64x64x32xf32>, %w: tensor<51x5x32xf32>) -> tensor<1x64x64x32xf32> {
  %init = tensor.empty() : tensor<1x64x64x32xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x64x64x32xf32>, tensor<51x5x32xf32>)
    outs(%init : tensor<1x64x64x32xf32>) strides = [1, 1] dilations = [1, 1] padding = [25, 25, 2, 2] -> tensor<1x64x64x32xf32>
  return %y : tensor<1x64x64x32xf32>
}

func.func @pool_avg(%x: tensor<1x8x8x16xf16>) -> tensor<1x5x5x16xf16> {
  %init = tensor.empty() : tensor<1x5x5x16xf16>
  %y = dwc.pool2d avg ins(%x : tensor<1x8x8x16xf16>) outs(%init : tensor<1x5x5x16xf16>)
    window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] ceil_mode count_include_pad -> tensor<1x5x5x16xf16>
  return %y : tensor<1x5x5x16xf16>
}

func.func @bwd_data(%dy: tensor<2x8x8x32xf32>, %w: tensor<3x3x32xf32>) -> tensor<2x16x16x32xf32> {
  %init = tensor.empty() : tensor<2x16x16x32xf32>
  %y = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<2x8x8x32xf32>, tensor<3x3x32xf32>)
    outs(%init : tensor<2x16x16x32xf32>) strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<2x16x16x32xf32>
  return %y : tensor<2x16x16x32xf32>
}

func.func @conv(%x: tensor<1x14x14x16xf16>, %w: tensor<3x3x16x32xf16>, %b: tensor<32xf16>) -> tensor<1x14x14x32xf16> {
  %init = tensor.empty() : tensor<1x14x14x32xf16>
  %y = dwc.conv2d ins(%x, %w : tensor<1x14x14x16xf16>, tensor<3x3x16x32xf16>) bias(%b : tensor<32xf16>)
    outs(%init : tensor<1x14x14x32xf16>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x14x14x32xf16>
  return %y : tensor<1x14x14x32xf16>
}
