// The avg pool2d_backward kernel is off by default (it failed validation on
// the H200, see bench/results/2026-11-29-pool-grid-v2.md): a clear error, not
// a kernel that may be wrong. Max backward is lowered.
// RUN: dwc-opt %s --convert-dwc-to-gpu-pool -verify-diagnostics -split-input-file

func.func @avg_bwd(%x: memref<1x8x8x8xf32>, %dy: memref<1x4x4x8xf32>, %dx: memref<1x8x8x8xf32>) {
  // expected-error @+1 {{avg backward has no validated GPU kernel yet}}
  dwc.pool2d_backward avg ins(%x, %dy : memref<1x8x8x8xf32>, memref<1x4x4x8xf32>) outs(%dx : memref<1x8x8x8xf32>)
    window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1]
  return
}

// -----

func.func @max_bwd(%x: memref<1x8x8x8xf32>, %dy: memref<1x4x4x8xf32>, %dx: memref<1x8x8x8xf32>) {
  dwc.pool2d_backward max ins(%x, %dy : memref<1x8x8x8xf32>, memref<1x4x4x8xf32>) outs(%dx : memref<1x8x8x8xf32>)
    window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1]
  return
}
