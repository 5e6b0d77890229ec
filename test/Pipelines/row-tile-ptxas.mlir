// The row-tile kernels dwc-to-nvvm selects for f16 at the forward and backward
// grid sizes assemble for sm_90 with ptxas without spilling: 3x3
// (4 x 4 tiles, the 9 filter vectors in registers) forward and backward
// data, 5x5 (8 x 4 tiles of 2 channels), and 7x7 requesting
// #dwc.row_tile<rows = 4> (4 x 8 tiles of 2 channels, 98 filter registers). (7x7 by default takes 8 x 8
// tiles and spills 8 bytes at 255 registers, 1.09-1.11x faster than 4 x 8
// on the H200 (measured 2026-12-01); not checked here.)
// Row and column tails (2 x 57 x 58 x 72, 7x7, the 4 x 4 x 64-bit tile
// requested: this small grid takes 8 x 8 x 32-bit tiles by default): the overlapping last
// tiles keep the stores unguarded and ptxas within a few bytes of spill
// (guarded stores made it 32 registers and a 3-4 KB stack frame) - TAIL.
// REQUIRES: ptxas
// RUN: rm -rf %t && dwc-opt %s --dwc-to-nvvm=format=isa | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t > /dev/null
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/fwd3_row_tile.ptx -o %t/a.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/bwd3_row_tile.ptx -o %t/b.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/fwd5_row_tile.ptx -o %t/d.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/tails7_row_tile.ptx -o %t/e.cubin 2>&1 | FileCheck %s --check-prefix=TAIL

// TAIL: Compiling entry function
// TAIL: {{^ *[0-9]?[0-9] bytes stack frame}}
// TAIL: Used {{1[3-9][0-9]|2[0-9][0-9]}} registers
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/fwd7_row_tile.ptx -o %t/c.cubin 2>&1 | FileCheck %s

// CHECK: Compiling entry function
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Used {{[0-9]+}} registers

func.func @fwd3(%x: tensor<128x64x64x256xf16>, %w: tensor<3x3x256xf16>) -> tensor<128x64x64x256xf16> {
  %e = tensor.empty() : tensor<128x64x64x256xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<128x64x64x256xf16>, tensor<3x3x256xf16>) outs(%e : tensor<128x64x64x256xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<128x64x64x256xf16>
  return %y : tensor<128x64x64x256xf16>
}

func.func @bwd3(%dy: tensor<128x32x32x1024xf16>, %w: tensor<3x3x1024xf16>) -> tensor<128x32x32x1024xf16> {
  %e = tensor.empty() : tensor<128x32x32x1024xf16>
  %dx = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<128x32x32x1024xf16>, tensor<3x3x1024xf16>) outs(%e : tensor<128x32x32x1024xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<128x32x32x1024xf16>
  return %dx : tensor<128x32x32x1024xf16>
}

func.func @fwd7(%x: tensor<128x64x64x256xf16>, %w: tensor<7x7x256xf16>) -> tensor<128x64x64x256xf16> {
  %e = tensor.empty() : tensor<128x64x64x256xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<128x64x64x256xf16>, tensor<7x7x256xf16>) outs(%e : tensor<128x64x64x256xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.row_tile<rows = 4>} -> tensor<128x64x64x256xf16>
  return %y : tensor<128x64x64x256xf16>
}

func.func @fwd5(%x: tensor<128x64x64x256xf16>, %w: tensor<5x5x256xf16>) -> tensor<128x64x64x256xf16> {
  %e = tensor.empty() : tensor<128x64x64x256xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<128x64x64x256xf16>, tensor<5x5x256xf16>) outs(%e : tensor<128x64x64x256xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] -> tensor<128x64x64x256xf16>
  return %y : tensor<128x64x64x256xf16>
}

func.func @tails7(%x: tensor<2x57x58x72xf16>, %w: tensor<7x7x72xf16>) -> tensor<2x57x58x72xf16> {
  %e = tensor.empty() : tensor<2x57x58x72xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<2x57x58x72xf16>, tensor<7x7x72xf16>) outs(%e : tensor<2x57x58x72xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
         {dwc.kernel = #dwc.row_tile<channels = 4, rows = 4, columns = 4>} -> tensor<2x57x58x72xf16>
  return %y : tensor<2x57x58x72xf16>
}
