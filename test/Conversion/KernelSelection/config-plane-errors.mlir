// RUN: dwc-opt %s --split-input-file --dwc-select-kernels -verify-diagnostics

// A partial #dwc.plane that dwc-select-kernels cannot complete (an error,
// not a silent choice of another kernel): the given band of 200 rows
// stages more than 48 KiB even with the narrowest channel group. (Given
// fields that break a rule are verifier errors:
// test/Dialect/Dwc/kernel-configs-plane-invalid.mlir.)
func.func @plane_band(%x: memref<1x200x100x6xf16>, %w: memref<7x7x6xf16>, %y: memref<1x200x100x6xf16>) {
  // expected-error-re @+1 {{dwc-select-kernels: cannot complete #dwc.plane<rows = 16, band = 200>: plane (a staged plane of {{[0-9]+}} bytes (more than 48 KiB))}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x200x100x6xf16>, memref<7x7x6xf16>) outs(%y : memref<1x200x100x6xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.plane<rows = 16, band = 200>}
  return
}
