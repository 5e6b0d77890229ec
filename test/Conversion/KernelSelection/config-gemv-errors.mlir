// RUN: dwc-opt %s --split-input-file --dwc-select-kernels -verify-diagnostics

// Partial GEMV-family configurations dwc-select-kernels cannot complete:
// the chosen channel vector does not divide C (an error, not a silent
// choice of another kernel).
func.func @row_tile_odd_channels(%x: memref<1x8x8x3xf32>, %w: memref<3x3x3xf32>, %y: memref<1x8x8x3xf32>) {
  // expected-error @+1 {{dwc-select-kernels: cannot complete #dwc.row_tile<rows = 2>: row_tile (channel count is not a multiple of 64 bits)}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x8x3xf32>, memref<3x3x3xf32>) outs(%y : memref<1x8x8x3xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.row_tile<rows = 2>}
  return
}

// -----

func.func @gemv_odd_channels(%dy: memref<1x8x8x6xf32>, %w: memref<3x3x6xf32>, %dx: memref<1x8x8x6xf32>) {
  // expected-error @+1 {{dwc-select-kernels: cannot complete #dwc.gemv<outputs = 4>: gemv (channel count is not a multiple of 128 bits)}}
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<1x8x8x6xf32>, memref<3x3x6xf32>) outs(%dx : memref<1x8x8x6xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<outputs = 4>}
  return
}
