// The image backward-filter kernels of the ConvNeXt 7x7 layers (batch 64)
// assemble for sm_90 with ptxas without spilling: whole 14 x 14 and 7 x 7
// images (f16 / bf16 / f32, the default completion of a request), strips
// of the 56 x 56 maps, runs of 4 strips per block (barrier before each
// copy), and 64 channels per block (dynamic shared memory).
// REQUIRES: ptxas
// RUN: rm -rf %t && dwc-opt %s --dwc-to-nvvm=format=isa | %PYTHON %S/../../Pipelines/Inputs/extract_ptx.py --out-dir %t > /dev/null
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c384_f16_bwd_filter_image.ptx -o %t/a.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c768_bf16_bwd_filter_image.ptx -o %t/b.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c96_f16_bwd_filter_image.ptx -o %t/c.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c384_f32_bwd_filter_image.ptx -o %t/d.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c512_units4_bwd_filter_image.ptx -o %t/e.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c512_ch64_bwd_filter_image.ptx -o %t/f.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c384_f16_bwd_filter_image_reduce.ptx -o %t/g.cubin 2>&1 | FileCheck %s

// CHECK: Compiling entry function
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Used {{[0-9]+}} registers

func.func @c384_f16(%x: tensor<64x14x14x384xf16>, %dy: tensor<64x14x14x384xf16>) -> tensor<7x7x384xf16> {
  %e = tensor.empty() : tensor<7x7x384xf16>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<64x14x14x384xf16>, tensor<64x14x14x384xf16>) outs(%e : tensor<7x7x384xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.bwd_filter_image<>} -> tensor<7x7x384xf16>
  return %dw : tensor<7x7x384xf16>
}

func.func @c768_bf16(%x: tensor<64x7x7x768xbf16>, %dy: tensor<64x7x7x768xbf16>) -> tensor<7x7x768xbf16> {
  %e = tensor.empty() : tensor<7x7x768xbf16>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<64x7x7x768xbf16>, tensor<64x7x7x768xbf16>) outs(%e : tensor<7x7x768xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.bwd_filter_image<>} -> tensor<7x7x768xbf16>
  return %dw : tensor<7x7x768xbf16>
}

func.func @c96_f16(%x: tensor<64x56x56x96xf16>, %dy: tensor<64x56x56x96xf16>) -> tensor<7x7x96xf16> {
  %e = tensor.empty() : tensor<7x7x96xf16>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<64x56x56x96xf16>, tensor<64x56x56x96xf16>) outs(%e : tensor<7x7x96xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.bwd_filter_image<>} -> tensor<7x7x96xf16>
  return %dw : tensor<7x7x96xf16>
}

func.func @c384_f32(%x: tensor<64x14x14x384xf32>, %dy: tensor<64x14x14x384xf32>) -> tensor<7x7x384xf32> {
  %e = tensor.empty() : tensor<7x7x384xf32>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<64x14x14x384xf32>, tensor<64x14x14x384xf32>) outs(%e : tensor<7x7x384xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.bwd_filter_image<>} -> tensor<7x7x384xf32>
  return %dw : tensor<7x7x384xf32>
}

func.func @c512_units4(%x: tensor<64x14x14x512xf16>, %dy: tensor<64x14x14x512xf16>) -> tensor<7x7x512xf16> {
  %e = tensor.empty() : tensor<7x7x512xf16>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<64x14x14x512xf16>, tensor<64x14x14x512xf16>) outs(%e : tensor<7x7x512xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.bwd_filter_image<units = 4>} -> tensor<7x7x512xf16>
  return %dw : tensor<7x7x512xf16>
}

func.func @c512_ch64(%x: tensor<64x14x14x512xf16>, %dy: tensor<64x14x14x512xf16>) -> tensor<7x7x512xf16> {
  %e = tensor.empty() : tensor<7x7x512xf16>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<64x14x14x512xf16>, tensor<64x14x14x512xf16>) outs(%e : tensor<7x7x512xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.bwd_filter_image<channels = 64>} -> tensor<7x7x512xf16>
  return %dw : tensor<7x7x512xf16>
}
