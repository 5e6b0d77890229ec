// The stride-1 forward / backward-data defaults of the layer-set rules
// (docs/KernelSelection.md, "row tile", "plane") assemble for sm_90 with
// ptxas without spilling: the 16-bit 3x3 2 x 7 x 32-bit row tiles of 14 x 14
// and 7 x 7 maps, the f32 5x5 two-channel planes of 14 x 14 and 7 x 7 maps,
// the 16-bit 5x5 four-row plane of 14 x 14 maps and the 7 x 4 bounded 16-bit
// 5x5 row tile of 28 x 28 maps (.minnctapersm 2, ptxas within 128
// registers); forward and backward data.
// REQUIRES: ptxas
// RUN: rm -rf %t && dwc-opt %s --dwc-to-nvvm=format=isa | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t > /dev/null
// RUN: FileCheck %s --check-prefix=BOUND < %t/dx28_row_tile.ptx
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/rt14_row_tile.ptx -o %t/a.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/dx7_row_tile.ptx -o %t/b.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/pf14_plane.ptx -o %t/c.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/dxpf7_plane.ptx -o %t/d.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/dxph14_plane.ptx -o %t/e.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/dx28_row_tile.ptx -o %t/f.cubin 2>&1 | FileCheck %s --check-prefix=CHECK128

// BOUND: .maxntid 256, 1, 1
// BOUND-NEXT: .minnctapersm 2

// CHECK: Compiling entry function
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Used {{[0-9]+}} registers

// CHECK128: Compiling entry function
// CHECK128: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK128: Used {{[0-9]?[0-9]|1[01][0-9]|12[0-8]}} registers

func.func @rt14(%x: tensor<64x14x14x384xf16>, %w: tensor<3x3x384xf16>) -> tensor<64x14x14x384xf16> {
  %e = tensor.empty() : tensor<64x14x14x384xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<64x14x14x384xf16>, tensor<3x3x384xf16>) outs(%e : tensor<64x14x14x384xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<64x14x14x384xf16>
  return %y : tensor<64x14x14x384xf16>
}
func.func @dx7(%dy: tensor<64x7x7x1152xbf16>, %w: tensor<3x3x1152xbf16>) -> tensor<64x7x7x1152xbf16> {
  %e = tensor.empty() : tensor<64x7x7x1152xbf16>
  %y = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<64x7x7x1152xbf16>, tensor<3x3x1152xbf16>) outs(%e : tensor<64x7x7x1152xbf16>)
         strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<64x7x7x1152xbf16>
  return %y : tensor<64x7x7x1152xbf16>
}
func.func @pf14(%x: tensor<64x14x14x480xf32>, %w: tensor<5x5x480xf32>) -> tensor<64x14x14x480xf32> {
  %e = tensor.empty() : tensor<64x14x14x480xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<64x14x14x480xf32>, tensor<5x5x480xf32>) outs(%e : tensor<64x14x14x480xf32>)
         strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] -> tensor<64x14x14x480xf32>
  return %y : tensor<64x14x14x480xf32>
}
func.func @dxpf7(%dy: tensor<32x7x7x768xf32>, %w: tensor<5x5x768xf32>) -> tensor<32x7x7x768xf32> {
  %e = tensor.empty() : tensor<32x7x7x768xf32>
  %y = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<32x7x7x768xf32>, tensor<5x5x768xf32>) outs(%e : tensor<32x7x7x768xf32>)
         strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] -> tensor<32x7x7x768xf32>
  return %y : tensor<32x7x7x768xf32>
}
func.func @dxph14(%dy: tensor<32x14x14x384xbf16>, %w: tensor<5x5x384xbf16>) -> tensor<32x14x14x384xbf16> {
  %e = tensor.empty() : tensor<32x14x14x384xbf16>
  %y = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<32x14x14x384xbf16>, tensor<5x5x384xbf16>) outs(%e : tensor<32x14x14x384xbf16>)
         strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] -> tensor<32x14x14x384xbf16>
  return %y : tensor<32x14x14x384xbf16>
}
func.func @dx28(%dy: tensor<64x28x28x240xbf16>, %w: tensor<5x5x240xbf16>) -> tensor<64x28x28x240xbf16> {
  %e = tensor.empty() : tensor<64x28x28x240xbf16>
  %y = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<64x28x28x240xbf16>, tensor<5x5x240xbf16>) outs(%e : tensor<64x28x28x240xbf16>)
         strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] -> tensor<64x28x28x240xbf16>
  return %y : tensor<64x28x28x240xbf16>
}
