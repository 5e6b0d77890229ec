// The full-row kernels (#dwc.full_row, fields completed by dwc-select-kernels
// or requested) of the narrow-map layers: filters larger than the map (13 x 13
// on 7 x 7, 27 x 27 on 14 x 14, 47 x 5 / 5 x 47 on 14 x 14, 29 x 29 on 28 x 28,
// forward and backward data, f32 / f16 / bf16, batch 1 and 32), the widest
// rows the register budget admits (56 x 56 f32, 28 x 28 x 2 channels, 14 x 14 x
// 4 f32 channels, 7 x 7 x 8 16-bit channels) and rows split into column parts
// (49 x 5 on 28 x 28 f32 in 4, 51 x 5 on 56 x 56 f16 in 4, 31 x 31 on 56 x 56
// f16 in 4) assemble for sm_90 with ptxas without spilling.
// REQUIRES: ptxas
// RUN: rm -rf %t && dwc-opt %s --dwc-to-nvvm=format=isa | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t > /dev/null
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/fwd27f_full_row.ptx -o %t/fwd27f.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/fwd13h_full_row.ptx -o %t/fwd13h.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/fwd47b_full_row.ptx -o %t/fwd47b.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/fwd5x47f_full_row.ptx -o %t/fwd5x47f.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/fwd56f_full_row.ptx -o %t/fwd56f.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/bwd29h_full_row.ptx -o %t/bwd29h.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/fwd14c4_full_row.ptx -o %t/fwd14c4.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/bwd13c8_full_row.ptx -o %t/bwd13c8.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/fwd49x5p4f_full_row.ptx -o %t/fwd49x5p4f.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/fwd51x5p4h_full_row.ptx -o %t/fwd51x5p4h.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/fwd31p4h_full_row.ptx -o %t/fwd31p4h.cubin 2>&1 | FileCheck %s

// CHECK: Compiling entry function
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

func.func @fwd27f(%x: tensor<1x14x14x512xf32>, %w: tensor<27x27x512xf32>) -> tensor<1x14x14x512xf32> {
  %e = tensor.empty() : tensor<1x14x14x512xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x14x14x512xf32>, tensor<27x27x512xf32>) outs(%e : tensor<1x14x14x512xf32>)
         strides = [1, 1] dilations = [1, 1] padding = [13, 13, 13, 13] {dwc.kernel = #dwc.full_row<>} -> tensor<1x14x14x512xf32>
  return %y : tensor<1x14x14x512xf32>
}
func.func @fwd13h(%x: tensor<1x7x7x1024xf16>, %w: tensor<13x13x1024xf16>) -> tensor<1x7x7x1024xf16> {
  %e = tensor.empty() : tensor<1x7x7x1024xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x7x7x1024xf16>, tensor<13x13x1024xf16>) outs(%e : tensor<1x7x7x1024xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.full_row<>} -> tensor<1x7x7x1024xf16>
  return %y : tensor<1x7x7x1024xf16>
}
func.func @fwd47b(%x: tensor<32x14x14x384xbf16>, %w: tensor<47x5x384xbf16>) -> tensor<32x14x14x384xbf16> {
  %e = tensor.empty() : tensor<32x14x14x384xbf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<32x14x14x384xbf16>, tensor<47x5x384xbf16>) outs(%e : tensor<32x14x14x384xbf16>)
         strides = [1, 1] dilations = [1, 1] padding = [23, 23, 2, 2] {dwc.kernel = #dwc.full_row<>} -> tensor<32x14x14x384xbf16>
  return %y : tensor<32x14x14x384xbf16>
}
func.func @fwd5x47f(%x: tensor<1x14x14x384xf32>, %w: tensor<5x47x384xf32>) -> tensor<1x14x14x384xf32> {
  %e = tensor.empty() : tensor<1x14x14x384xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x14x14x384xf32>, tensor<5x47x384xf32>) outs(%e : tensor<1x14x14x384xf32>)
         strides = [1, 1] dilations = [1, 1] padding = [2, 2, 23, 23] {dwc.kernel = #dwc.full_row<>} -> tensor<1x14x14x384xf32>
  return %y : tensor<1x14x14x384xf32>
}
func.func @fwd56f(%x: tensor<1x56x56x96xf32>, %w: tensor<5x5x96xf32>) -> tensor<1x56x56x96xf32> {
  %e = tensor.empty() : tensor<1x56x56x96xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x56x56x96xf32>, tensor<5x5x96xf32>) outs(%e : tensor<1x56x56x96xf32>)
         strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.full_row<unroll = 4>} -> tensor<1x56x56x96xf32>
  return %y : tensor<1x56x56x96xf32>
}
func.func @bwd29h(%x: tensor<32x28x28x256xf16>, %w: tensor<29x29x256xf16>) -> tensor<32x28x28x256xf16> {
  %e = tensor.empty() : tensor<32x28x28x256xf16>
  %y = dwc.depthwise_conv2d_backward_data ins(%x, %w : tensor<32x28x28x256xf16>, tensor<29x29x256xf16>) outs(%e : tensor<32x28x28x256xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [14, 14, 14, 14] {dwc.kernel = #dwc.full_row<>} -> tensor<32x28x28x256xf16>
  return %y : tensor<32x28x28x256xf16>
}
func.func @fwd14c4(%x: tensor<1x14x14x384xf32>, %w: tensor<3x3x384xf32>) -> tensor<1x14x14x384xf32> {
  %e = tensor.empty() : tensor<1x14x14x384xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x14x14x384xf32>, tensor<3x3x384xf32>) outs(%e : tensor<1x14x14x384xf32>)
         strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.full_row<channels = 4, unroll = 4>} -> tensor<1x14x14x384xf32>
  return %y : tensor<1x14x14x384xf32>
}
func.func @bwd13c8(%x: tensor<32x7x7x1024xbf16>, %w: tensor<13x13x1024xbf16>) -> tensor<32x7x7x1024xbf16> {
  %e = tensor.empty() : tensor<32x7x7x1024xbf16>
  %y = dwc.depthwise_conv2d_backward_data ins(%x, %w : tensor<32x7x7x1024xbf16>, tensor<13x13x1024xbf16>) outs(%e : tensor<32x7x7x1024xbf16>)
         strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.full_row<channels = 8>} -> tensor<32x7x7x1024xbf16>
  return %y : tensor<32x7x7x1024xbf16>
}
func.func @fwd49x5p4f(%x: tensor<1x28x28x192xf32>, %w: tensor<49x5x192xf32>) -> tensor<1x28x28x192xf32> {
  %e = tensor.empty() : tensor<1x28x28x192xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x28x28x192xf32>, tensor<49x5x192xf32>) outs(%e : tensor<1x28x28x192xf32>)
         strides = [1, 1] dilations = [1, 1] padding = [24, 24, 2, 2] {dwc.kernel = #dwc.full_row<columns = 4>} -> tensor<1x28x28x192xf32>
  return %y : tensor<1x28x28x192xf32>
}
func.func @fwd51x5p4h(%x: tensor<1x56x56x96xf16>, %w: tensor<51x5x96xf16>) -> tensor<1x56x56x96xf16> {
  %e = tensor.empty() : tensor<1x56x56x96xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x56x56x96xf16>, tensor<51x5x96xf16>) outs(%e : tensor<1x56x56x96xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [25, 25, 2, 2] {dwc.kernel = #dwc.full_row<columns = 4>} -> tensor<1x56x56x96xf16>
  return %y : tensor<1x56x56x96xf16>
}
func.func @fwd31p4h(%x: tensor<1x56x56x128xf16>, %w: tensor<31x31x128xf16>) -> tensor<1x56x56x128xf16> {
  %e = tensor.empty() : tensor<1x56x56x128xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x56x56x128xf16>, tensor<31x31x128xf16>) outs(%e : tensor<1x56x56x128xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [15, 15, 15, 15] {dwc.kernel = #dwc.full_row<columns = 4>} -> tensor<1x56x56x128xf16>
  return %y : tensor<1x56x56x128xf16>
}
