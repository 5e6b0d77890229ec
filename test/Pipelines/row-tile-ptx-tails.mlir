// The row-tile kernel of the configuration the GPU fuzzer found wrong
// (3 x 4 x 6 x 72 f16, padding [1, 1, 1, 2]: OW = 7, two 4-wide tiles, the
// last moved back to start at 3). With the last tile's start clamped by a
// min, LLVM turned the bound check of input column ow0 + 3 into
// `min.u16 %rs, %x, 3; setp.eq.b16 %p, %rs, 3`, which ptxas 13.0 (-O1 and
// above) compiles to VIMNMX's predicate output with the wrong sense:
// columns 2, 3, 5 and 6 were wrong on the H200 (found by the GPU fuzz
// set, python3 bench/dwcbench layers build --set fuzz). The start is now selected by
// tile index: no 16-bit min is left in the kernel. (The 4 x 4 tile is
// requested: a grid this small takes 2 x 2 tiles by default.)
// RUN: dwc-opt %s --dwc-to-nvvm=format=isa | %PYTHON %S/Inputs/extract_ptx.py | FileCheck %s

// CHECK: // gpu.binary @fuzzbug_row_tile
// CHECK-NOT: min.{{[us]}}16
// CHECK: st.global.v2.b32
// CHECK-NOT: min.{{[us]}}16
func.func @fuzzbug(%x: tensor<3x4x6x72xf16>, %w: tensor<3x3x72xf16>, %b: tensor<72xf16>) -> tensor<3x4x7x72xf16> {
  %e = tensor.empty() : tensor<3x4x7x72xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<3x4x6x72xf16>, tensor<3x3x72xf16>) bias(%b : tensor<72xf16>) outs(%e : tensor<3x4x7x72xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 2]
         {dwc.kernel = #dwc.row_tile<channels = 4, rows = 4, columns = 4>} -> tensor<3x4x7x72xf16>
  return %y : tensor<3x4x7x72xf16>
}
