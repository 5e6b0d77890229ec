// RUN: dwc-opt %s --split-input-file --dwc-select-kernels -verify-diagnostics

// A partial backward-filter configuration dwc-select-kernels cannot
// complete: 2^27 slices of 7 tap tiles x 128 channel groups need more
// blocks than a grid has.
func.func @split_z_grid_too_large(%x: memref<134217728x1x1x4096xf32>, %dy: memref<134217728x1x1x4096xf32>, %dw: memref<7x7x4096xf32>) {
  // expected-error @+1 {{dwc-select-kernels: cannot complete #dwc.bwd_filter_split_z<z = 134217728>: bwd_filter_split_z (grid too large)}}
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<134217728x1x1x4096xf32>, memref<134217728x1x1x4096xf32>) outs(%dw : memref<7x7x4096xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.bwd_filter_split_z<z = 134217728>}
  return
}

// -----

// A requested #dwc.bwd_filter_image whose strip of one row (100000 x 32
// halves of X and of dY) exceeds the target's shared memory per block.
func.func @image_smem(%x: memref<1x4x100000x32xf16>, %dy: memref<1x4x100000x32xf16>, %dw: memref<1x1x32xf16>) {
  // expected-error @+1 {{dwc-select-kernels: cannot complete #dwc.bwd_filter_image<channels = 32>: bwd_filter_image (strip of one row exceeds the shared memory)}}
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<1x4x100000x32xf16>, memref<1x4x100000x32xf16>) outs(%dw : memref<1x1x32xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.bwd_filter_image<channels = 32>}
  return
}

// -----

// (2^31 - 1) images of 2 one-row strips, one per block, 2 channel groups:
// about 2^33 blocks.
func.func @image_grid_too_large(%x: memref<2147483647x2x1x64xf16>, %dy: memref<2147483647x2x1x64xf16>, %dw: memref<1x1x64xf16>) {
  // expected-error @+1 {{dwc-select-kernels: cannot complete #dwc.bwd_filter_image<channels = 32, rows = 1, units = 1>: bwd_filter_image (grid too large)}}
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<2147483647x2x1x64xf16>, memref<2147483647x2x1x64xf16>) outs(%dw : memref<1x1x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 1, units = 1>}
  return
}
