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
