// RUN: dwc-opt %s --split-input-file --dwc-select-kernels -verify-diagnostics

// A partial #dwc.mma_stream that cannot be completed is an error, not a
// silent choice of another kernel: FW = 31 takes input B and 16 rows, whose
// smem_input buffers do not fit next to the band and the stage.
func.func @smem_input_too_large(%x: memref<1x16x128x8xf16>, %w: memref<31x31x8xf16>, %y: memref<1x16x128x8xf16>) {
  // expected-error @+1 {{dwc-select-kernels: cannot complete #dwc.mma_stream<smem_input = true>: mma_stream (input buffers, filter band and output stage exceed the target's 227 KB of shared memory)}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x16x128x8xf16>, memref<31x31x8xf16>) outs(%y : memref<1x16x128x8xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [15, 15, 15, 15] {dwc.kernel = #dwc.mma_stream<smem_input = true>}
  return
}
