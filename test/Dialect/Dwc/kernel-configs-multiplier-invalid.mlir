// A kernel configuration of a family that cannot take a channel multiplier
// M > 1 (every family but the direct kernels), given on such an op, is
// refused with that reason.
// RUN: dwc-opt %s -split-input-file -verify-diagnostics

func.func @gemv_on_multiplier(%x: memref<8x28x28x64xf32>, %w: memref<3x3x128xf32>, %y: memref<8x28x28x128xf32>) {
  // expected-error @+1 {{does not fit this op: channel_multiplier 2: the family pairs each input channel with one filter channel}}
  dwc.depthwise_conv2d ins(%x, %w : memref<8x28x28x64xf32>, memref<3x3x128xf32>) outs(%y : memref<8x28x28x128xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2 {dwc.kernel = #dwc.gemv<filter = "global">}
  return
}

// -----

func.func @row_tile_on_multiplier(%x: memref<8x28x28x64xf16>, %w: memref<3x3x192xf16>, %y: memref<8x28x28x192xf16>) {
  // expected-error @+1 {{does not fit this op: channel_multiplier 3: the family pairs each input channel with one filter channel}}
  dwc.depthwise_conv2d ins(%x, %w : memref<8x28x28x64xf16>, memref<3x3x192xf16>) outs(%y : memref<8x28x28x192xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 3 {dwc.kernel = #dwc.row_tile<rows = 3, columns = 3, prefetch_rows = 1>}
  return
}

// -----

func.func @mma_stream_on_multiplier(%x: memref<8x28x28x128xf16>, %w: memref<13x13x256xf16>, %y: memref<8x28x28x256xf16>) {
  // expected-error @+1 {{does not fit this op: channel_multiplier 2: the family pairs each input channel with one filter channel}}
  dwc.depthwise_conv2d ins(%x, %w : memref<8x28x28x128xf16>, memref<13x13x256xf16>) outs(%y : memref<8x28x28x256xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] channel_multiplier = 2 {dwc.kernel = #dwc.mma_stream<>}
  return
}

// -----

// The multiplier is named before the fusion (which this family does not
// emit either).
func.func @full_row_on_fused_multiplier(%x: memref<64x7x7x480xf32>, %w: memref<3x3x960xf32>, %y: memref<64x7x7x960xf32>) {
  // expected-error @+1 {{does not fit this op: channel_multiplier 2: the family pairs each input channel with one filter channel}}
  dwc.depthwise_conv2d ins(%x, %w : memref<64x7x7x480xf32>, memref<3x3x960xf32>) outs(%y : memref<64x7x7x960xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2 activation = relu {dwc.kernel = #dwc.full_row<>}
  return
}

// -----

func.func @bwd_filter_taps_on_multiplier(%x: memref<8x28x28x64xf32>, %dy: memref<8x28x28x128xf32>, %dw: memref<3x3x128xf32>) {
  // expected-error @+1 {{does not fit this op: channel_multiplier 2: the family pairs each input channel with one filter channel}}
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<8x28x28x64xf32>, memref<8x28x28x128xf32>) outs(%dw : memref<3x3x128xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2 {dwc.kernel = #dwc.bwd_filter_taps<>}
  return
}

// -----

func.func @gemv_on_backward_data_multiplier(%dy: memref<8x28x28x128xf32>, %w: memref<3x3x128xf32>, %dx: memref<8x28x28x64xf32>) {
  // expected-error @+1 {{does not fit this op: channel_multiplier 2: the family pairs each input channel with one filter channel}}
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<8x28x28x128xf32>, memref<3x3x128xf32>) outs(%dx : memref<8x28x28x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2 {dwc.kernel = #dwc.gemv<filter = "global">}
  return
}
