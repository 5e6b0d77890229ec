// prefetch_rows (requested; docs/KernelSelection.md, "row tile"): input row
// t + k is loaded before the FMAs of row t. Counted in the kernel body: the
// input loads (%arg0) before the first FMA (f32) / the first widening of an
// input vector (16-bit rows wait as loaded), and no register budget.
//   f32 2 x 2 tile of one channel, 5x5: 6 loads per row; by rows 6, with
//   k = 1 12, with k = 2 18;
//   f16 1 x 2 tile of two channels, 5x5: 6 vectors of 2 x f16 per row; by
//   rows 1 (each vector widened as it is loaded), k = 2 18.
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-gemv --canonicalize --cse -split-input-file \
// RUN:   | %PYTHON %S/Inputs/loads_before.py | FileCheck %s
// CHECK: f32_by_rows: loads before first use 6, max_registers no
// CHECK: f32_prefetch1: loads before first use 12, max_registers no
// CHECK: f32_prefetch2: loads before first use 18, max_registers no
// CHECK: f16_by_rows: loads before first use 1, max_registers no
// CHECK: f16_prefetch2: loads before first use 18, max_registers no

func.func @f32_by_rows(%x: memref<1x14x14x672xf32>, %w: memref<5x5x672xf32>, %y: memref<1x14x14x672xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x14x14x672xf32>, memref<5x5x672xf32>) outs(%y : memref<1x14x14x672xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
    {dwc.kernel = #dwc.row_tile<channels = 1, rows = 2, columns = 2, filter = "registers">}
  return
}

// -----

func.func @f32_prefetch1(%x: memref<1x14x14x672xf32>, %w: memref<5x5x672xf32>, %y: memref<1x14x14x672xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x14x14x672xf32>, memref<5x5x672xf32>) outs(%y : memref<1x14x14x672xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
    {dwc.kernel = #dwc.row_tile<channels = 1, rows = 2, columns = 2, filter = "registers", prefetch_rows = 1>}
  return
}

// -----

func.func @f32_prefetch2(%x: memref<1x14x14x672xf32>, %w: memref<5x5x672xf32>, %y: memref<1x14x14x672xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x14x14x672xf32>, memref<5x5x672xf32>) outs(%y : memref<1x14x14x672xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
    {dwc.kernel = #dwc.row_tile<channels = 1, rows = 2, columns = 2, filter = "registers", prefetch_rows = 2>}
  return
}

// -----

func.func @f16_by_rows(%x: memref<1x6x8x64xf16>, %w: memref<5x5x64xf16>, %y: memref<1x6x8x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x6x8x64xf16>, memref<5x5x64xf16>)
    outs(%y : memref<1x6x8x64xf16>) strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
    {dwc.kernel = #dwc.row_tile<channels = 2, rows = 1, columns = 2, filter = "registers">}
  return
}

// -----

func.func @f16_prefetch2(%x: memref<1x6x8x64xf16>, %w: memref<5x5x64xf16>, %y: memref<1x6x8x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x6x8x64xf16>, memref<5x5x64xf16>)
    outs(%y : memref<1x6x8x64xf16>) strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
    {dwc.kernel = #dwc.row_tile<channels = 2, rows = 1, columns = 2, filter = "registers", prefetch_rows = 2>}
  return
}
