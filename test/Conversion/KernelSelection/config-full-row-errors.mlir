// RUN: dwc-opt %s --split-input-file --dwc-select-kernels -verify-diagnostics

// Partial #dwc.full_row configurations that dwc-select-kernels cannot
// complete (an error, not a silent choice of another kernel): a 16-bit C
// that the chosen 2-channel vector does not divide. (Given fields
// that break a rule are verifier errors:
// test/Dialect/Dwc/kernel-configs-full-row-invalid.mlir.)
func.func @odd_c16(%x: memref<1x7x7x7xf16>, %w: memref<13x13x7xf16>, %y: memref<1x7x7x7xf16>) {
  // expected-error @+1 {{dwc-select-kernels: cannot complete #dwc.full_row<threads = 64>: full_row (channels = 2 does not divide C = 7)}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x7x7x7xf16>, memref<13x13x7xf16>) outs(%y : memref<1x7x7x7xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.full_row<threads = 64>}
  return
}
