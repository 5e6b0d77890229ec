// A kernel configuration of a family that does not emit fused prologues or
// epilogues, given on a fused depthwise forward, is refused by name.
// RUN: dwc-opt %s -split-input-file -verify-diagnostics

func.func @mma_stream_on_fused(%x: memref<8x28x28x128xf16>, %w: memref<13x13x128xf16>, %y: memref<8x28x28x128xf16>) {
  // expected-error @+1 {{does not fit this op: the family does not emit a fused prologue or epilogue}}
  dwc.depthwise_conv2d ins(%x, %w : memref<8x28x28x128xf16>, memref<13x13x128xf16>) outs(%y : memref<8x28x28x128xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] activation = relu {dwc.kernel = #dwc.mma_stream<>}
  return
}

// -----

func.func @full_row_on_fused(%x: memref<64x7x7x960xf32>, %w: memref<3x3x960xf32>, %y: memref<64x7x7x960xf32>) {
  // expected-error @+1 {{does not fit this op: the family does not emit a fused prologue or epilogue}}
  dwc.depthwise_conv2d ins(%x, %w : memref<64x7x7x960xf32>, memref<3x3x960xf32>) outs(%y : memref<64x7x7x960xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] input_activation = relu {dwc.kernel = #dwc.full_row<>}
  return
}
