// The plane kernels (#dwc.plane<>, fields completed by dwc-select-kernels) of
// the ConvNeXt small-map layers (7x7 filter, forward and backward data,
// f16 / bf16 / f32, batch 64 and 1, 28 x 28 / 14 x 14 / 7 x 7) assemble for
// sm_90 with ptxas without spilling, their staged planes within 48 KiB.
// REQUIRES: ptxas
// RUN: rm -rf %t && dwc-opt %s --dwc-to-nvvm=format=isa | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t > /dev/null
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/fwd14h_plane.ptx -o %t/fwd14h.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/bwd14h_plane.ptx -o %t/bwd14h.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/fwd7h_plane.ptx -o %t/fwd7h.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/fwd14b1_plane.ptx -o %t/fwd14b1.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/fwd28h_plane.ptx -o %t/fwd28h.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/bwd7f_plane.ptx -o %t/bwd7f.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/fwd14f_plane.ptx -o %t/fwd14f.cubin 2>&1 | FileCheck %s

// CHECK: Compiling entry function
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Used {{[0-9]+}} registers, used 1 barriers, {{[0-9]+}} bytes smem

func.func @fwd14h(%x: tensor<64x14x14x384xf16>, %w: tensor<7x7x384xf16>) -> tensor<64x14x14x384xf16> {
  %e = tensor.empty() : tensor<64x14x14x384xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<64x14x14x384xf16>, tensor<7x7x384xf16>) outs(%e : tensor<64x14x14x384xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.plane<>} -> tensor<64x14x14x384xf16>
  return %y : tensor<64x14x14x384xf16>
}
func.func @bwd14h(%x: tensor<64x14x14x384xf16>, %w: tensor<7x7x384xf16>) -> tensor<64x14x14x384xf16> {
  %e = tensor.empty() : tensor<64x14x14x384xf16>
  %y = dwc.depthwise_conv2d_backward_data ins(%x, %w : tensor<64x14x14x384xf16>, tensor<7x7x384xf16>) outs(%e : tensor<64x14x14x384xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.plane<>} -> tensor<64x14x14x384xf16>
  return %y : tensor<64x14x14x384xf16>
}
func.func @fwd7h(%x: tensor<64x7x7x768xbf16>, %w: tensor<7x7x768xbf16>) -> tensor<64x7x7x768xbf16> {
  %e = tensor.empty() : tensor<64x7x7x768xbf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<64x7x7x768xbf16>, tensor<7x7x768xbf16>) outs(%e : tensor<64x7x7x768xbf16>)
         strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.plane<>} -> tensor<64x7x7x768xbf16>
  return %y : tensor<64x7x7x768xbf16>
}
func.func @fwd14b1(%x: tensor<1x14x14x384xf16>, %w: tensor<7x7x384xf16>) -> tensor<1x14x14x384xf16> {
  %e = tensor.empty() : tensor<1x14x14x384xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x14x14x384xf16>, tensor<7x7x384xf16>) outs(%e : tensor<1x14x14x384xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.plane<>} -> tensor<1x14x14x384xf16>
  return %y : tensor<1x14x14x384xf16>
}
func.func @fwd28h(%x: tensor<64x28x28x192xf16>, %w: tensor<7x7x192xf16>) -> tensor<64x28x28x192xf16> {
  %e = tensor.empty() : tensor<64x28x28x192xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<64x28x28x192xf16>, tensor<7x7x192xf16>) outs(%e : tensor<64x28x28x192xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.plane<>} -> tensor<64x28x28x192xf16>
  return %y : tensor<64x28x28x192xf16>
}
func.func @bwd7f(%x: tensor<64x7x7x768xf32>, %w: tensor<7x7x768xf32>) -> tensor<64x7x7x768xf32> {
  %e = tensor.empty() : tensor<64x7x7x768xf32>
  %y = dwc.depthwise_conv2d_backward_data ins(%x, %w : tensor<64x7x7x768xf32>, tensor<7x7x768xf32>) outs(%e : tensor<64x7x7x768xf32>)
         strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.plane<>} -> tensor<64x7x7x768xf32>
  return %y : tensor<64x7x7x768xf32>
}
func.func @fwd14f(%x: tensor<64x14x14x512xf32>, %w: tensor<7x7x512xf32>) -> tensor<64x14x14x512xf32> {
  %e = tensor.empty() : tensor<64x14x14x512xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<64x14x14x512xf32>, tensor<7x7x512xf32>) outs(%e : tensor<64x14x14x512xf32>)
         strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.plane<>} -> tensor<64x14x14x512xf32>
  return %y : tensor<64x14x14x512xf32>
}
