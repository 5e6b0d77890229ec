// RUN: dwc-opt %s --split-input-file -verify-diagnostics

// Every branch of the #dwc.plane configuration's rules (Configs/Gemv.cpp): the
// GEMV family's eligibility (one case: the rest is kernel-configs-gemv-invalid.mlir),
// taps, channel fields, tile ranges, threads per block, staged bytes, grid size.
func.func @plane_on_backward_filter(%x: tensor<1x8x8x32xf32>, %dy: tensor<1x8x8x32xf32>, %y: tensor<3x3x32xf32>) -> tensor<3x3x32xf32> {
  // expected-error @+1 {{does not fit this op: not a depthwise convolution forward or backward-data op}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%y : tensor<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.plane<channels = 1>} -> tensor<3x3x32xf32>
  return %r : tensor<3x3x32xf32>
}

// -----

func.func @plane_9x9(%x: tensor<1x14x14x6xf16>, %w: tensor<9x9x6xf16>, %y: tensor<1x14x14x6xf16>) -> tensor<1x14x14x6xf16> {
  // expected-error @+1 {{does not fit this op: filter of more than 49 taps}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x14x14x6xf16>, tensor<9x9x6xf16>) outs(%y : tensor<1x14x14x6xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] {dwc.kernel = #dwc.plane<channels = 1>} -> tensor<1x14x14x6xf16>
  return %r : tensor<1x14x14x6xf16>
}

// -----

func.func @plane_channels_3(%x: tensor<1x14x14x6xf16>, %w: tensor<7x7x6xf16>, %y: tensor<1x14x14x6xf16>) -> tensor<1x14x14x6xf16> {
  // expected-error @+1 {{does not fit this op: channels = 3 is not 1, 2 or 4}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x14x14x6xf16>, tensor<7x7x6xf16>) outs(%y : tensor<1x14x14x6xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.plane<channels = 3>} -> tensor<1x14x14x6xf16>
  return %r : tensor<1x14x14x6xf16>
}

// -----

func.func @plane_channels_not_dividing(%x: tensor<1x14x14x6xf16>, %w: tensor<7x7x6xf16>, %y: tensor<1x14x14x6xf16>) -> tensor<1x14x14x6xf16> {
  // expected-error @+1 {{does not fit this op: channels = 4 does not divide C = 6}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x14x14x6xf16>, tensor<7x7x6xf16>) outs(%y : tensor<1x14x14x6xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.plane<channels = 4>} -> tensor<1x14x14x6xf16>
  return %r : tensor<1x14x14x6xf16>
}

// -----

func.func @plane_block_channels_not_dividing(%x: tensor<1x14x14x6xf16>, %w: tensor<7x7x6xf16>, %y: tensor<1x14x14x6xf16>) -> tensor<1x14x14x6xf16> {
  // expected-error @+1 {{does not fit this op: block_channels = 4 does not divide C = 6}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x14x14x6xf16>, tensor<7x7x6xf16>) outs(%y : tensor<1x14x14x6xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.plane<block_channels = 4>} -> tensor<1x14x14x6xf16>
  return %r : tensor<1x14x14x6xf16>
}

// -----

func.func @plane_block_channels_negative(%x: tensor<1x14x14x6xf16>, %w: tensor<7x7x6xf16>, %y: tensor<1x14x14x6xf16>) -> tensor<1x14x14x6xf16> {
  // expected-error @+1 {{does not fit this op: block_channels = -2 does not divide C = 6}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x14x14x6xf16>, tensor<7x7x6xf16>) outs(%y : tensor<1x14x14x6xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.plane<block_channels = -2>} -> tensor<1x14x14x6xf16>
  return %r : tensor<1x14x14x6xf16>
}

// -----

func.func @plane_block_channels_not_multiple(%x: tensor<1x14x14x6xf16>, %w: tensor<7x7x6xf16>, %y: tensor<1x14x14x6xf16>) -> tensor<1x14x14x6xf16> {
  // expected-error @+1 {{does not fit this op: block_channels = 3 is not a multiple of channels = 2}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x14x14x6xf16>, tensor<7x7x6xf16>) outs(%y : tensor<1x14x14x6xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.plane<channels = 2, block_channels = 3>} -> tensor<1x14x14x6xf16>
  return %r : tensor<1x14x14x6xf16>
}

// -----

func.func @plane_rows(%x: tensor<1x14x14x6xf16>, %w: tensor<7x7x6xf16>, %y: tensor<1x14x14x6xf16>) -> tensor<1x14x14x6xf16> {
  // expected-error @+1 {{does not fit this op: rows = 17 is not in [1, 16]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x14x14x6xf16>, tensor<7x7x6xf16>) outs(%y : tensor<1x14x14x6xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.plane<rows = 17>} -> tensor<1x14x14x6xf16>
  return %r : tensor<1x14x14x6xf16>
}

// -----

func.func @plane_columns(%x: tensor<1x14x14x6xf16>, %w: tensor<7x7x6xf16>, %y: tensor<1x14x14x6xf16>) -> tensor<1x14x14x6xf16> {
  // expected-error @+1 {{does not fit this op: columns = -1 is not in [1, 16]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x14x14x6xf16>, tensor<7x7x6xf16>) outs(%y : tensor<1x14x14x6xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.plane<columns = -1>} -> tensor<1x14x14x6xf16>
  return %r : tensor<1x14x14x6xf16>
}

// -----

func.func @plane_band(%x: tensor<1x14x14x6xf16>, %w: tensor<7x7x6xf16>, %y: tensor<1x14x14x6xf16>) -> tensor<1x14x14x6xf16> {
  // expected-error @+1 {{does not fit this op: band = -3 is not in [1, 2147483647]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x14x14x6xf16>, tensor<7x7x6xf16>) outs(%y : tensor<1x14x14x6xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.plane<band = -3>} -> tensor<1x14x14x6xf16>
  return %r : tensor<1x14x14x6xf16>
}

// -----

func.func @plane_threads(%x: tensor<1x14x14x6xf16>, %w: tensor<7x7x6xf16>, %y: tensor<1x14x14x6xf16>) -> tensor<1x14x14x6xf16> {
  // expected-error @+1 {{does not fit this op: blocks of 1176 threads (more than 1024)}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x14x14x6xf16>, tensor<7x7x6xf16>) outs(%y : tensor<1x14x14x6xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.plane<channels = 1, block_channels = 6, rows = 1, columns = 1, band = 14>} -> tensor<1x14x14x6xf16>
  return %r : tensor<1x14x14x6xf16>
}

// -----

func.func @plane_shared(%x: tensor<1x200x14x6xf16>, %w: tensor<7x7x6xf16>, %y: tensor<1x200x14x6xf16>) -> tensor<1x200x14x6xf16> {
  // expected-error @+1 {{does not fit this op: a staged plane of}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x200x14x6xf16>, tensor<7x7x6xf16>) outs(%y : tensor<1x200x14x6xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.plane<channels = 2, block_channels = 6, rows = 16, columns = 16, band = 200>} -> tensor<1x200x14x6xf16>
  return %r : tensor<1x200x14x6xf16>
}

// -----

func.func @plane_grid(%x: tensor<4096x1x1x1048576xf32>, %w: tensor<1x1x1048576xf32>, %y: tensor<4096x1x1x1048576xf32>) -> tensor<4096x1x1x1048576xf32> {
  // expected-error @+1 {{does not fit this op: grid too large}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<4096x1x1x1048576xf32>, tensor<1x1x1048576xf32>) outs(%y : tensor<4096x1x1x1048576xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.plane<channels = 1, block_channels = 1, rows = 1, columns = 1, band = 1>} -> tensor<4096x1x1x1048576xf32>
  return %r : tensor<4096x1x1x1048576xf32>
}

// -----

// Strided forward ops take the plane kernel; strided backward data does not.
func.func @plane_strided_backward_data(%dy: tensor<1x4x4x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{does not fit this op: stride is not 1 (backward data)}}
  %r = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x4x4x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.plane<channels = 1>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

// The strided windows' rows count against the staged bytes: a band of 8
// output rows stages 17 x 113 positions of 8 f32 channels (61 KiB; at
// stride 1 it would be 10 x 58).
func.func @plane_strided_staged_bytes(%x: tensor<1x112x112x1024xf32>, %w: tensor<3x3x1024xf32>, %y: tensor<1x56x56x1024xf32>) -> tensor<1x56x56x1024xf32> {
  // expected-error @+1 {{does not fit this op: a staged plane of}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x112x112x1024xf32>, tensor<3x3x1024xf32>) outs(%y : tensor<1x56x56x1024xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.plane<channels = 1, block_channels = 8, rows = 2, columns = 8, band = 8>} -> tensor<1x56x56x1024xf32>
  return %r : tensor<1x56x56x1024xf32>
}
