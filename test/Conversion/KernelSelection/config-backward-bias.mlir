// RUN: dwc-opt %s --split-input-file --dwc-select-kernels | FileCheck %s
// RUN: dwc-opt %s --split-input-file --dwc-select-kernels=diagnose 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY

// #dwc.backward_bias (docs/KernelSelection.md, "global pool ... bias
// gradient") on the default target (132 SMs): channel tiles of all vectors
// up to a power of two <= 32, 512 threads (fewer for few rows), slices =
// the largest divisor of the rows up to 2 x 132 / tiles and up to rows /
// (4 x rows per block); the second kernel's threads = its tile's rows up to
// 256, no more rows than slices.
// 64x56x56x96 f16: 12 vectors -> tile 16 x 32 rows; 200704 = 2^12 x 49 rows
// -> 256 slices. 64x14x14x384 f32: 96 vectors -> 3 tiles of 32 x 16 rows;
// 12544 rows -> 64 slices (<= 88). 1x7x7x768 f16: 49 rows -> 1 slice, 32
// threads for the sum. 2x5x3x13 f32 (scalars): tile 16, 30 rows -> 16
// rows x 16 = 256 threads.
// CHECK-LABEL: func @choices
// CHECK: dwc.kernel = #dwc.backward_bias<slices = 256, channel_tile = 16, threads = 512, unroll = 8, total_threads = 256>
// CHECK: dwc.kernel = #dwc.backward_bias<slices = 64, channel_tile = 32, threads = 512, unroll = 8, total_threads = 256>
// CHECK: dwc.kernel = #dwc.backward_bias<slices = 1, channel_tile = 32, threads = 512, unroll = 8, total_threads = 32>
// CHECK: dwc.kernel = #dwc.backward_bias<slices = 1, channel_tile = 16, threads = 256, unroll = 8, total_threads = 32>
// WHY: remark: dwc.kernel = #dwc.backward_bias<slices = 256, channel_tile = 16, threads = 512, unroll = 8, total_threads = 256>: chosen
func.func @choices(%dy: memref<64x56x56x96xf16>, %db: memref<96xf32>, %dy2: memref<64x14x14x384xf32>, %db2: memref<384xf32>,
                   %dy3: memref<1x7x7x768xf16>, %db3: memref<768xf32>, %dy4: memref<2x5x3x13xf32>, %db4: memref<13xf32>) {
  dwc.conv2d_backward_bias ins(%dy : memref<64x56x56x96xf16>) outs(%db : memref<96xf32>)
  dwc.conv2d_backward_bias ins(%dy2 : memref<64x14x14x384xf32>) outs(%db2 : memref<384xf32>)
  dwc.conv2d_backward_bias ins(%dy3 : memref<1x7x7x768xf16>) outs(%db3 : memref<768xf32>)
  dwc.conv2d_backward_bias ins(%dy4 : memref<2x5x3x13xf32>) outs(%db4 : memref<13xf32>)
  return
}

// -----

// Partial configurations are completed around the given fields.
// CHECK-LABEL: func @partial
// CHECK: dwc.kernel = #dwc.backward_bias<slices = 7, channel_tile = 16, threads = 512, unroll = 8, total_threads = 128>
// CHECK: dwc.kernel = #dwc.backward_bias<slices = 64, channel_tile = 4, threads = 128, unroll = 2, total_threads = 256>
func.func @partial(%dy: memref<64x56x56x96xf16>, %db: memref<96xf32>) {
  dwc.conv2d_backward_bias ins(%dy : memref<64x56x56x96xf16>) outs(%db : memref<96xf32>) {dwc.kernel = #dwc.backward_bias<slices = 7>}
  dwc.conv2d_backward_bias ins(%dy : memref<64x56x56x96xf16>) outs(%db : memref<96xf32>) {dwc.kernel = #dwc.backward_bias<channel_tile = 4, threads = 128, unroll = 2>}
  return
}

// -----

// Refusals: f64 (the direct kernel takes it), non-identity layouts, the
// tensor form is selected too (the rules read shapes only).
// CHECK-LABEL: func @refused
// CHECK: dwc.conv2d_backward_bias {{.*}} {dwc.kernel = #dwc.direct}
// CHECK: dwc.conv2d_backward_bias {{.*}} {dwc.kernel = #dwc.direct}
// WHY: remark: dwc.kernel = #dwc.direct: chosen; refused: backward_bias (element type is not f32, f16 or bf16)
// WHY: remark: dwc.kernel = #dwc.direct: chosen; refused: backward_bias (non-identity layout)
func.func @refused(%dy: memref<1x7x7x16xf64>, %db: memref<16xf64>, %dy2: memref<1x7x7x16xf32, strided<[1568, 224, 32, 1]>>, %db2: memref<16xf32>) {
  dwc.conv2d_backward_bias ins(%dy : memref<1x7x7x16xf64>) outs(%db : memref<16xf64>)
  dwc.conv2d_backward_bias ins(%dy2 : memref<1x7x7x16xf32, strided<[1568, 224, 32, 1]>>) outs(%db2 : memref<16xf32>)
  return
}
