// The batch-1 defaults that load every input of a thread's tile before the
// first FMA (loads_first: docs/KernelSelection.md, "row tile", "strided
// forward") carry an explicit register budget in PTX (.maxnreg 255, from
// the dwc.max_registers marker through dwc-kernel-occupancy) and assemble
// for sm_90 without spills: the f32 5x5 2 x 2 row tile, the 16-bit 5x5
// one-output row tile, the f32 5x5 stride-2 1 x 2 tile; the small-grid
// full rows (f32 7x7 on 14 x 14 in column parts) carry it too. A batch-64
// tile has no budget (NOREG).
// REQUIRES: ptxas
// RUN: rm -rf %t && dwc-opt %s --dwc-to-nvvm=format=isa | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t > /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/b1f32_row_tile.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/b1f16_row_tile.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/b1s2_strided_forward.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/b1f7_full_row.ptx
// RUN: FileCheck %s --check-prefix=NOREG < %t/b64_row_tile.ptx
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/b1f32_row_tile.ptx -o %t/a.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/b1f16_row_tile.ptx -o %t/b.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/b1s2_strided_forward.ptx -o %t/c.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/b1f7_full_row.ptx -o %t/d.cubin 2>&1 | FileCheck %s

// PTX: .maxntid {{[0-9]+}}, 1, 1
// PTX-NEXT: .maxnreg 255
// NOREG-NOT: .maxnreg

// CHECK: Compiling entry function
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

func.func @b1f32(%x: memref<1x14x14x672xf32>, %w: memref<5x5x672xf32>, %y: memref<1x14x14x672xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x14x14x672xf32>, memref<5x5x672xf32>) outs(%y : memref<1x14x14x672xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  return
}
func.func @b1f16(%x: memref<1x14x14x672xf16>, %w: memref<5x5x672xf16>, %y: memref<1x14x14x672xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x14x14x672xf16>, memref<5x5x672xf16>) outs(%y : memref<1x14x14x672xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  return
}
func.func @b1s2(%x: memref<1x56x56x144xf32>, %w: memref<5x5x144xf32>, %y: memref<1x28x28x144xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x56x56x144xf32>, memref<5x5x144xf32>) outs(%y : memref<1x28x28x144xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2]
  return
}
func.func @b1f7(%x: memref<1x14x14x384xf32>, %w: memref<7x7x384xf32>, %y: memref<1x14x14x384xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x14x14x384xf32>, memref<7x7x384xf32>) outs(%y : memref<1x14x14x384xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
  return
}
func.func @b64(%x: memref<64x28x28x192xf16>, %w: memref<3x3x192xf16>, %y: memref<64x28x28x192xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<64x28x28x192xf16>, memref<3x3x192xf16>) outs(%y : memref<64x28x28x192xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}
