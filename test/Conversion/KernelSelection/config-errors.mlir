// RUN: dwc-opt %s --split-input-file --dwc-select-kernels -verify-diagnostics

// A partial configuration its family cannot complete: an error, not a
// silent choice of another kernel.
func.func @partial_f16_odd_channels(%dy: memref<1x4x4x5xf16>, %w: memref<3x3x5xf16>, %dx: memref<1x8x8x5xf16>) {
  // expected-error @+1 {{dwc-select-kernels: cannot complete #dwc.strided_gather<columns = 2>: strided_gather (channel count is not a multiple of the vector width)}}
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<1x4x4x5xf16>, memref<3x3x5xf16>) outs(%dx : memref<1x8x8x5xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.strided_gather<columns = 2>}
  return
}
