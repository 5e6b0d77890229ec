// RUN: dwc-opt %s --dwc-outline-ops --split-input-file -verify-diagnostics
// RUN: not dwc-opt %s --dwc-outline-ops=keep=some --split-input-file 2>&1 | FileCheck %s --check-prefix=KEEP

// KEEP: dwc-outline-ops: keep 'some' is not one of all, kernels, host

// Buffers: the pass runs before bufferization.
func.func @buffers(%x: memref<1x8x8x16xf32>, %w: memref<3x3x16xf32>, %y: memref<1x8x8x16xf32>) {
  // expected-error @+1 {{dwc-outline-ops: the op works on buffers}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x8x16xf32>, memref<3x3x16xf32>)
    outs(%y : memref<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

