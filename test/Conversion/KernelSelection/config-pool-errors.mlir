// RUN: dwc-opt %s --split-input-file --dwc-select-kernels -verify-diagnostics

// Partial pooling configurations that fit their op as written but whose
// completion by dwc-select-kernels does not: an error naming the rule.

func.func @forward_rows(%x: memref<1x112x112x64xf32>, %y: memref<1x56x56x64xf32>) {
  // expected-error @+1 {{dwc-select-kernels: cannot complete #dwc.pool_forward<rows = 16>: pool_forward (row tile of more than 128 input loads)}}
  dwc.pool2d max ins(%x : memref<1x112x112x64xf32>) outs(%y : memref<1x56x56x64xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.pool_forward<rows = 16>}
  return
}

// -----

func.func @backward_rows(%x: memref<1x112x112x64xf32>, %dy: memref<1x56x56x64xf32>) {
  // expected-error @+1 {{dwc-select-kernels: cannot complete #dwc.pool_backward<rows = 8>: pool_backward (tile of more than 32 windows or 16 positions)}}
  dwc.pool2d_backward avg ins(%x, %dy : memref<1x112x112x64xf32>, memref<1x56x56x64xf32>) outs(%x : memref<1x112x112x64xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.pool_backward<rows = 8>}
  return
}

// -----

func.func @global_grid(%x: memref<67108864x1x1x128xf32>, %y: memref<67108864x1x1x128xf32>) {
  // expected-error @+1 {{dwc-select-kernels: cannot complete #dwc.global_pool<channel_tile = 1>: global_pool (grid too large)}}
  dwc.global_avg_pool ins(%x : memref<67108864x1x1x128xf32>) outs(%y : memref<67108864x1x1x128xf32>) {dwc.kernel = #dwc.global_pool<channel_tile = 1>}
  return
}
