// RUN: dwc-opt %s --split-input-file -verify-diagnostics

// Every branch of the #dwc.full_row configuration's rules (Configs/Gemv.cpp):
// the GEMV family's eligibility (two cases: the rest is
// kernel-configs-gemv-invalid.mlir), channel vectors, threads per block, rows
// per loop step, column parts, a row part's register budget (the 128 f32
// registers of its accumulators and inputs) and the grid size (parts count).

func.func @full_row_on_backward_filter(%x: tensor<1x8x8x32xf32>, %dy: tensor<1x8x8x32xf32>, %y: tensor<3x3x32xf32>) -> tensor<3x3x32xf32> {
  // expected-error @+1 {{does not fit this op: not a depthwise convolution forward or backward-data op}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%y : tensor<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.full_row<channels = 1>} -> tensor<3x3x32xf32>
  return %r : tensor<3x3x32xf32>
}

// -----

func.func @full_row_stride_2(%x: tensor<1x7x7x32xf32>, %w: tensor<13x13x32xf32>, %y: tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32> {
  // expected-error @+1 {{does not fit this op: stride is not 1}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x7x7x32xf32>, tensor<13x13x32xf32>) outs(%y : tensor<1x4x4x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.full_row<channels = 1>} -> tensor<1x4x4x32xf32>
  return %r : tensor<1x4x4x32xf32>
}

// -----

func.func @full_row_channels_3(%x: tensor<1x7x7x32xf32>, %w: tensor<13x13x32xf32>, %y: tensor<1x7x7x32xf32>) -> tensor<1x7x7x32xf32> {
  // expected-error @+1 {{does not fit this op: channels = 3 is not a 32- to 128-bit vector of the element type}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x7x7x32xf32>, tensor<13x13x32xf32>) outs(%y : tensor<1x7x7x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.full_row<channels = 3>} -> tensor<1x7x7x32xf32>
  return %r : tensor<1x7x7x32xf32>
}

// -----

func.func @full_row_f16_channels_1(%x: tensor<1x7x7x32xf16>, %w: tensor<13x13x32xf16>, %y: tensor<1x7x7x32xf16>) -> tensor<1x7x7x32xf16> {
  // expected-error @+1 {{does not fit this op: channels = 1 is not a 32- to 128-bit vector of the element type}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x7x7x32xf16>, tensor<13x13x32xf16>) outs(%y : tensor<1x7x7x32xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.full_row<channels = 1>} -> tensor<1x7x7x32xf16>
  return %r : tensor<1x7x7x32xf16>
}

// -----

func.func @full_row_channels_not_dividing(%x: tensor<1x7x7x6xf32>, %w: tensor<13x13x6xf32>, %y: tensor<1x7x7x6xf32>) -> tensor<1x7x7x6xf32> {
  // expected-error @+1 {{does not fit this op: channels = 4 does not divide C = 6}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x7x7x6xf32>, tensor<13x13x6xf32>) outs(%y : tensor<1x7x7x6xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.full_row<channels = 4>} -> tensor<1x7x7x6xf32>
  return %r : tensor<1x7x7x6xf32>
}

// -----

func.func @full_row_threads_16(%x: tensor<1x7x7x32xf32>, %w: tensor<13x13x32xf32>, %y: tensor<1x7x7x32xf32>) -> tensor<1x7x7x32xf32> {
  // expected-error @+1 {{does not fit this op: threads = 16 is not in [32, 1024]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x7x7x32xf32>, tensor<13x13x32xf32>) outs(%y : tensor<1x7x7x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.full_row<threads = 16>} -> tensor<1x7x7x32xf32>
  return %r : tensor<1x7x7x32xf32>
}

// -----

func.func @full_row_threads_2048(%x: tensor<1x7x7x32xf32>, %w: tensor<13x13x32xf32>, %y: tensor<1x7x7x32xf32>) -> tensor<1x7x7x32xf32> {
  // expected-error @+1 {{does not fit this op: threads = 2048 is not in [32, 1024]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x7x7x32xf32>, tensor<13x13x32xf32>) outs(%y : tensor<1x7x7x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.full_row<threads = 2048>} -> tensor<1x7x7x32xf32>
  return %r : tensor<1x7x7x32xf32>
}

// -----

func.func @full_row_threads_48(%x: tensor<1x7x7x32xf32>, %w: tensor<13x13x32xf32>, %y: tensor<1x7x7x32xf32>) -> tensor<1x7x7x32xf32> {
  // expected-error @+1 {{does not fit this op: threads = 48 is not a multiple of 32}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x7x7x32xf32>, tensor<13x13x32xf32>) outs(%y : tensor<1x7x7x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.full_row<threads = 48>} -> tensor<1x7x7x32xf32>
  return %r : tensor<1x7x7x32xf32>
}

// -----

func.func @full_row_unroll_3(%x: tensor<1x7x7x32xf32>, %w: tensor<13x13x32xf32>, %y: tensor<1x7x7x32xf32>) -> tensor<1x7x7x32xf32> {
  // expected-error @+1 {{does not fit this op: unroll = 3 is not 1, 2 or 4}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x7x7x32xf32>, tensor<13x13x32xf32>) outs(%y : tensor<1x7x7x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.full_row<unroll = 3>} -> tensor<1x7x7x32xf32>
  return %r : tensor<1x7x7x32xf32>
}

// -----

func.func @full_row_unroll_negative(%x: tensor<1x7x7x32xf32>, %w: tensor<13x13x32xf32>, %y: tensor<1x7x7x32xf32>) -> tensor<1x7x7x32xf32> {
  // expected-error @+1 {{does not fit this op: unroll = -1 is not 1, 2 or 4}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x7x7x32xf32>, tensor<13x13x32xf32>) outs(%y : tensor<1x7x7x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.full_row<unroll = -1>} -> tensor<1x7x7x32xf32>
  return %r : tensor<1x7x7x32xf32>
}

// -----

func.func @full_row_row_too_wide(%x: tensor<1x56x56x32xf32>, %w: tensor<5x5x32xf32>, %y: tensor<1x56x56x32xf32>) -> tensor<1x56x56x32xf32> {
  // expected-error @+1 {{does not fit this op: a row part of 56 outputs and 56 inputs x 2 channels (more than 128 f32 registers)}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x56x56x32xf32>, tensor<5x5x32xf32>) outs(%y : tensor<1x56x56x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.full_row<channels = 2>} -> tensor<1x56x56x32xf32>
  return %r : tensor<1x56x56x32xf32>
}

// -----

func.func @full_row_map_too_wide(%x: tensor<1x4x200x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x4x200x32xf32>) -> tensor<1x4x200x32xf32> {
  // expected-error @+1 {{does not fit this op: a row part of 200 outputs and 200 inputs x 1 channels (more than 128 f32 registers)}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x4x200x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x4x200x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.full_row<channels = 1>} -> tensor<1x4x200x32xf32>
  return %r : tensor<1x4x200x32xf32>
}

// -----

func.func @full_row_grid(%x: tensor<8589934592x1x1x32xf32>, %w: tensor<1x1x32xf32>, %y: tensor<8589934592x1x1x32xf32>) -> tensor<8589934592x1x1x32xf32> {
  // expected-error @+1 {{does not fit this op: grid too large}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<8589934592x1x1x32xf32>, tensor<1x1x32xf32>) outs(%y : tensor<8589934592x1x1x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.full_row<channels = 1, threads = 32, unroll = 1>} -> tensor<8589934592x1x1x32xf32>
  return %r : tensor<8589934592x1x1x32xf32>
}

// -----

func.func @full_row_columns_past_row(%x: tensor<1x7x7x32xf32>, %w: tensor<13x13x32xf32>, %y: tensor<1x7x7x32xf32>) -> tensor<1x7x7x32xf32> {
  // expected-error @+1 {{does not fit this op: columns = 8 is not in [1, 7]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x7x7x32xf32>, tensor<13x13x32xf32>) outs(%y : tensor<1x7x7x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.full_row<columns = 8>} -> tensor<1x7x7x32xf32>
  return %r : tensor<1x7x7x32xf32>
}

// -----

func.func @full_row_columns_negative(%x: tensor<1x7x7x32xf32>, %w: tensor<13x13x32xf32>, %y: tensor<1x7x7x32xf32>) -> tensor<1x7x7x32xf32> {
  // expected-error @+1 {{does not fit this op: columns = -2 is not in [1, 7]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x7x7x32xf32>, tensor<13x13x32xf32>) outs(%y : tensor<1x7x7x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.full_row<columns = -2>} -> tensor<1x7x7x32xf32>
  return %r : tensor<1x7x7x32xf32>
}

// -----

// Two parts of 100 outputs: each still reads min(200, 100 + 2) = 102 inputs.
func.func @full_row_part_too_wide(%x: tensor<1x4x200x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x4x200x32xf32>) -> tensor<1x4x200x32xf32> {
  // expected-error @+1 {{does not fit this op: a row part of 100 outputs and 102 inputs x 1 channels (more than 128 f32 registers)}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x4x200x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x4x200x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.full_row<channels = 1, columns = 2>} -> tensor<1x4x200x32xf32>
  return %r : tensor<1x4x200x32xf32>
}

// -----

// 2^31 rows of one channel fit the grid whole (2^26 blocks of 32); split into
// 64 parts they do not (2^32 blocks).
func.func @full_row_grid_of_parts(%x: tensor<2147483648x1x64x1xf32>, %w: tensor<1x1x1xf32>, %y: tensor<2147483648x1x64x1xf32>) -> tensor<2147483648x1x64x1xf32> {
  // expected-error @+1 {{does not fit this op: grid too large}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<2147483648x1x64x1xf32>, tensor<1x1x1xf32>) outs(%y : tensor<2147483648x1x64x1xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.full_row<channels = 1, threads = 32, unroll = 1, columns = 64>} -> tensor<2147483648x1x64x1xf32>
  return %r : tensor<2147483648x1x64x1xf32>
}

// -----

func.func @full_row_max_registers_over(%x: tensor<1x8x8x32xf32>, %w: tensor<9x9x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{max_registers = 256 is not in [16, 255]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<9x9x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] {dwc.kernel = #dwc.full_row<max_registers = 256>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @full_row_max_registers_under(%x: tensor<1x8x8x32xf32>, %w: tensor<9x9x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{max_registers = 8 is not in [16, 255]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<9x9x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] {dwc.kernel = #dwc.full_row<max_registers = 8>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}
