// Kernel selection of dwc-to-nvvm for f16 depthwise convolutions (issues 5
// and 7, measured on the H200): 3x3 -> the GEMV pass's register row tiles
// (4 rows x 4 outputs x 64-bit f16 vectors: 9 filter + 6 x 6 input loads,
// 16 64-bit stores, no shared memory, no barrier); 5x5 -> row tiles of
// 8 rows x 4 outputs x 32-bit vectors (2 channels: 32-bit loads, 32
// 32-bit stores); 7x7 -> row tiles of 8 x 8 x 2 channels (64 stores)
// (both on grids of 528+ blocks, as here; smaller grids take 4 x 4 x 4);
// 9x9 -> the row-ring tensor-core kernel (mma.sync m16n8k16, f32
// accumulators).
// RUN: dwc-opt %s --dwc-to-nvvm=format=isa | %PYTHON %S/Inputs/extract_ptx.py | FileCheck %s
// RUN: rm -rf %t && dwc-opt %s --dwc-to-nvvm=format=isa | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t > /dev/null
// RUN: grep -cE "ld.global.(v4.b16|v2.b32)" %t/f3_row_tile.ptx | FileCheck %s --check-prefix=F3LOADS
// RUN: grep -c st.global.v2.b32 %t/f3_row_tile.ptx | FileCheck %s --check-prefix=F3STORES
// RUN: grep -c st.global.b32 %t/f5_row_tile.ptx | FileCheck %s --check-prefix=F5STORES
// RUN: grep -c st.global.b32 %t/f7_row_tile.ptx | FileCheck %s --check-prefix=F7STORES
// F3LOADS: 45
// F3STORES: 16
// F5STORES: 32
// F7STORES: 64

// CHECK-LABEL: .entry f3_row_tile(
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-NOT: mma.sync
// CHECK: ld.global.v4.b16
// CHECK-NOT: bar.sync
// CHECK-NOT: mma.sync
// CHECK: st.global.v2.b32
func.func @f3(%x: tensor<64x16x32x64xf16>, %w: tensor<3x3x64xf16>) -> tensor<64x16x32x64xf16> {
  %e = tensor.empty() : tensor<64x16x32x64xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<64x16x32x64xf16>, tensor<3x3x64xf16>) outs(%e : tensor<64x16x32x64xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<64x16x32x64xf16>
  return %y : tensor<64x16x32x64xf16>
}

// CHECK-LABEL: .entry f5_row_tile(
// CHECK-NOT: .shared
// CHECK-NOT: cp.async
// CHECK: ld.global.b32
// CHECK-NOT: mma.sync
// CHECK: st.global.b32
func.func @f5(%x: tensor<128x64x64x64xf16>, %w: tensor<5x5x64xf16>) -> tensor<128x64x64x64xf16> {
  %e = tensor.empty() : tensor<128x64x64x64xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<128x64x64x64xf16>, tensor<5x5x64xf16>) outs(%e : tensor<128x64x64x64xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] -> tensor<128x64x64x64xf16>
  return %y : tensor<128x64x64x64xf16>
}

// CHECK-LABEL: .entry f7_row_tile(
// CHECK-NOT: .shared
// CHECK: ld.global.b32
// CHECK-NOT: mma.sync
// CHECK: st.global.b32
func.func @f7(%x: tensor<128x64x64x64xf16>, %w: tensor<7x7x64xf16>) -> tensor<128x64x64x64xf16> {
  %e = tensor.empty() : tensor<128x64x64x64xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<128x64x64x64xf16>, tensor<7x7x64xf16>) outs(%e : tensor<128x64x64x64xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] -> tensor<128x64x64x64xf16>
  return %y : tensor<128x64x64x64xf16>
}

// CHECK-LABEL: .entry f9_mma_band(
// CHECK: cp.async.ca.shared.global
// CHECK: cp.async.cg.shared.global
// CHECK-COUNT-16: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT: mma.sync
func.func @f9(%x: tensor<2x16x32x64xf16>, %w: tensor<9x9x64xf16>) -> tensor<2x16x32x64xf16> {
  %e = tensor.empty() : tensor<2x16x32x64xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<2x16x32x64xf16>, tensor<9x9x64xf16>) outs(%e : tensor<2x16x32x64xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] -> tensor<2x16x32x64xf16>
  return %y : tensor<2x16x32x64xf16>
}
