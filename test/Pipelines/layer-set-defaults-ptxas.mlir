// The forward / backward-data defaults of the layer-set rules
// (docs/KernelSelection.md: row tile, plane, strided forward) assemble
// for sm_90 with ptxas without spilling: the bounded 16-bit 5x5 row tiles
// (7 x 4 at 64 x 28 x 28 x 240, 4 x 4 at 32 x 28 x 28 x 192, 8 x 4
// at 56 x 56, two blocks per SM: .minnctapersm 2, ptxas within 128
// registers), the 16-bit 5x5 planes of 14 x 14 (4 rows) / 7 x 7
// maps, the f32 3x3 row tile of a 1-4 wave grid, the one-output batch-1
// tiles and the 16-bit stride-2 2 x 4 tile (backward data: see DX).
// REQUIRES: ptxas
// RUN: rm -rf %t && dwc-opt %s --dwc-to-nvvm=format=isa | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t > /dev/null
// RUN: FileCheck %s --check-prefix=BOUND < %t/rt28_row_tile.ptx
// RUN: FileCheck %s --check-prefix=BOUND < %t/rt56_row_tile.ptx
// RUN: FileCheck %s --check-prefix=BOUND < %t/dx28_row_tile.ptx
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/rt28_row_tile.ptx -o %t/a.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/rt56_row_tile.ptx -o %t/b.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/dx28_row_tile.ptx -o %t/c.cubin 2>&1 | FileCheck %s --check-prefix=DX
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/pl14_plane.ptx -o %t/d.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/pl7_plane.ptx -o %t/e.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/f32mid_row_tile.ptx -o %t/f.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/b1f16_row_tile.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/b1f32_row_tile.ptx -o %t/h.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/s2_strided_forward.ptx -o %t/i.cubin 2>&1 | FileCheck %s

// BOUND: .maxntid 256, 1, 1
// BOUND-NEXT: .minnctapersm 2

// The backward-data tile (the rotated filter's loads) under the bound
// spills 8 bytes; it still runs 1.23x faster than the tile it replaced
// (16.4 -> 13.3 us on the H200, 2026-12-02).
// DX: Compiling entry function
// DX: {{^ *[0-9]?[0-9] bytes stack frame}}
// DX: Used {{12[0-8]}} registers

// CHECK: Compiling entry function
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Used {{[0-9]+}} registers

func.func @rt28(%x: tensor<64x28x28x240xf16>, %w: tensor<5x5x240xf16>) -> tensor<64x28x28x240xf16> {
  %e = tensor.empty() : tensor<64x28x28x240xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<64x28x28x240xf16>, tensor<5x5x240xf16>) outs(%e : tensor<64x28x28x240xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] -> tensor<64x28x28x240xf16>
  return %y : tensor<64x28x28x240xf16>
}
func.func @rt56(%x: tensor<32x56x56x96xbf16>, %w: tensor<5x5x96xbf16>) -> tensor<32x56x56x96xbf16> {
  %e = tensor.empty() : tensor<32x56x56x96xbf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<32x56x56x96xbf16>, tensor<5x5x96xbf16>) outs(%e : tensor<32x56x56x96xbf16>)
         strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] -> tensor<32x56x56x96xbf16>
  return %y : tensor<32x56x56x96xbf16>
}
func.func @dx28(%dy: tensor<32x28x28x192xf16>, %w: tensor<5x5x192xf16>) -> tensor<32x28x28x192xf16> {
  %e = tensor.empty() : tensor<32x28x28x192xf16>
  %y = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<32x28x28x192xf16>, tensor<5x5x192xf16>) outs(%e : tensor<32x28x28x192xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] -> tensor<32x28x28x192xf16>
  return %y : tensor<32x28x28x192xf16>
}
func.func @pl14(%x: tensor<64x14x14x672xf16>, %w: tensor<5x5x672xf16>) -> tensor<64x14x14x672xf16> {
  %e = tensor.empty() : tensor<64x14x14x672xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<64x14x14x672xf16>, tensor<5x5x672xf16>) outs(%e : tensor<64x14x14x672xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] -> tensor<64x14x14x672xf16>
  return %y : tensor<64x14x14x672xf16>
}
func.func @pl7(%x: tensor<32x7x7x768xbf16>, %w: tensor<5x5x768xbf16>) -> tensor<32x7x7x768xbf16> {
  %e = tensor.empty() : tensor<32x7x7x768xbf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<32x7x7x768xbf16>, tensor<5x5x768xbf16>) outs(%e : tensor<32x7x7x768xbf16>)
         strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] -> tensor<32x7x7x768xbf16>
  return %y : tensor<32x7x7x768xbf16>
}
func.func @f32mid(%x: tensor<64x14x14x384xf32>, %w: tensor<3x3x384xf32>) -> tensor<64x14x14x384xf32> {
  %e = tensor.empty() : tensor<64x14x14x384xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<64x14x14x384xf32>, tensor<3x3x384xf32>) outs(%e : tensor<64x14x14x384xf32>)
         strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<64x14x14x384xf32>
  return %y : tensor<64x14x14x384xf32>
}
func.func @b1f16(%x: tensor<1x28x28x256xf16>, %w: tensor<5x5x256xf16>) -> tensor<1x28x28x256xf16> {
  %e = tensor.empty() : tensor<1x28x28x256xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x28x28x256xf16>, tensor<5x5x256xf16>) outs(%e : tensor<1x28x28x256xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] -> tensor<1x28x28x256xf16>
  return %y : tensor<1x28x28x256xf16>
}
func.func @b1f32(%x: tensor<1x14x14x384xf32>, %w: tensor<3x3x384xf32>) -> tensor<1x14x14x384xf32> {
  %e = tensor.empty() : tensor<1x14x14x384xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x14x14x384xf32>, tensor<3x3x384xf32>) outs(%e : tensor<1x14x14x384xf32>)
         strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x14x14x384xf32>
  return %y : tensor<1x14x14x384xf32>
}
func.func @s2(%x: tensor<64x112x112x96xf16>, %w: tensor<3x3x96xf16>) -> tensor<64x56x56x96xf16> {
  %e = tensor.empty() : tensor<64x56x56x96xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<64x112x112x96xf16>, tensor<3x3x96xf16>) outs(%e : tensor<64x56x56x96xf16>)
         strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<64x56x56x96xf16>
  return %y : tensor<64x56x56x96xf16>
}
