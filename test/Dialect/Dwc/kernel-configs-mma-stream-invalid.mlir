// RUN: dwc-opt %s --split-input-file -verify-diagnostics

// Every branch of #dwc.mma_stream's verifier (Configs/MmaStream.cpp): the
// ops the streaming tensor-core kernel cannot take, the field ranges, the
// combinations it does not have, the shared memory of the default target
// (227 KB a block) and the grid's 2^31 - 1 blocks.

func.func @strided(%x: tensor<1x16x64x16xf16>, %w: tensor<13x13x16xf16>, %y: tensor<1x8x32x16xf16>) -> tensor<1x8x32x16xf16> {
  // expected-error @+1 {{does not fit this op: stride is not 1}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x16x64x16xf16>, tensor<13x13x16xf16>) outs(%y : tensor<1x8x32x16xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.mma_stream<>} -> tensor<1x8x32x16xf16>
  return %r : tensor<1x8x32x16xf16>
}

// -----

func.func @dilated(%x: tensor<1x20x44x16xf16>, %w: tensor<13x13x16xf16>, %y: tensor<1x8x32x16xf16>) -> tensor<1x8x32x16xf16> {
  // expected-error @+1 {{does not fit this op: dilation is not 1}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x20x44x16xf16>, tensor<13x13x16xf16>) outs(%y : tensor<1x8x32x16xf16>)
    strides = [1, 1] dilations = [2, 2] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.mma_stream<>} -> tensor<1x8x32x16xf16>
  return %r : tensor<1x8x32x16xf16>
}

// -----

func.func @f32(%x: tensor<1x8x32x16xf32>, %w: tensor<13x13x16xf32>, %y: tensor<1x8x32x16xf32>) -> tensor<1x8x32x16xf32> {
  // expected-error @+1 {{does not fit this op: element type is not f16 or bf16}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x32x16xf32>, tensor<13x13x16xf32>) outs(%y : tensor<1x8x32x16xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.mma_stream<>} -> tensor<1x8x32x16xf32>
  return %r : tensor<1x8x32x16xf32>
}

// -----

func.func @acc_f16(%x: tensor<1x8x32x16xf16>, %w: tensor<13x13x16xf16>, %y: tensor<1x8x32x16xf16>) -> tensor<1x8x32x16xf16> {
  // expected-error @+1 {{does not fit this op: accumulation type is not f32}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x32x16xf16>, tensor<13x13x16xf16>) outs(%y : tensor<1x8x32x16xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] acc = f16 {dwc.kernel = #dwc.mma_stream<>} -> tensor<1x8x32x16xf16>
  return %r : tensor<1x8x32x16xf16>
}

// -----

func.func @mixed_types(%x: tensor<1x8x32x16xf16>, %w: tensor<13x13x16xbf16>, %y: tensor<1x8x32x16xf16>) -> tensor<1x8x32x16xf16> {
  // expected-error @+1 {{does not fit this op: operands of different element types}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x32x16xf16>, tensor<13x13x16xbf16>) outs(%y : tensor<1x8x32x16xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.mma_stream<>} -> tensor<1x8x32x16xf16>
  return %r : tensor<1x8x32x16xf16>
}

// -----

func.func @dynamic(%x: tensor<?x8x32x16xf16>, %w: tensor<13x13x16xf16>, %y: tensor<?x8x32x16xf16>) -> tensor<?x8x32x16xf16> {
  // expected-error @+1 {{does not fit this op: empty or dynamic operand}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<?x8x32x16xf16>, tensor<13x13x16xf16>) outs(%y : tensor<?x8x32x16xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.mma_stream<>} -> tensor<?x8x32x16xf16>
  return %r : tensor<?x8x32x16xf16>
}

// -----

func.func @huge(%x: tensor<1048576x1048576x32x16xf16>, %w: tensor<13x13x16xf16>, %y: tensor<1048576x1048576x32x16xf16>) -> tensor<1048576x1048576x32x16xf16> {
  // expected-error @+1 {{does not fit this op: operand of more than 2^40 elements}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1048576x1048576x32x16xf16>, tensor<13x13x16xf16>) outs(%y : tensor<1048576x1048576x32x16xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.mma_stream<>} -> tensor<1048576x1048576x32x16xf16>
  return %r : tensor<1048576x1048576x32x16xf16>
}

// -----

func.func @c12(%x: tensor<1x8x32x12xf16>, %w: tensor<13x13x12xf16>, %y: tensor<1x8x32x12xf16>) -> tensor<1x8x32x12xf16> {
  // expected-error @+1 {{does not fit this op: channel count is not a multiple of 8}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x32x12xf16>, tensor<13x13x12xf16>) outs(%y : tensor<1x8x32x12xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.mma_stream<>} -> tensor<1x8x32x12xf16>
  return %r : tensor<1x8x32x12xf16>
}

// -----

func.func @rows(%x: tensor<1x8x32x16xf16>, %w: tensor<13x13x16xf16>, %y: tensor<1x8x32x16xf16>) -> tensor<1x8x32x16xf16> {
  // expected-error @+1 {{does not fit this op: rows = 33 is not in [1, 32]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x32x16xf16>, tensor<13x13x16xf16>) outs(%y : tensor<1x8x32x16xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.mma_stream<rows = 33>} -> tensor<1x8x32x16xf16>
  return %r : tensor<1x8x32x16xf16>
}

// -----

func.func @prefetch(%x: tensor<1x8x32x16xf16>, %w: tensor<13x13x16xf16>, %y: tensor<1x8x32x16xf16>) -> tensor<1x8x32x16xf16> {
  // expected-error @+1 {{does not fit this op: prefetch = 9 is not in [0, 8]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x32x16xf16>, tensor<13x13x16xf16>) outs(%y : tensor<1x8x32x16xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.mma_stream<prefetch = 9>} -> tensor<1x8x32x16xf16>
  return %r : tensor<1x8x32x16xf16>
}

// -----

func.func @prefetch_negative(%x: tensor<1x8x32x16xf16>, %w: tensor<13x13x16xf16>, %y: tensor<1x8x32x16xf16>) -> tensor<1x8x32x16xf16> {
  // expected-error @+1 {{does not fit this op: prefetch = -2 is not in [0, 8]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x32x16xf16>, tensor<13x13x16xf16>) outs(%y : tensor<1x8x32x16xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.mma_stream<prefetch = -2>} -> tensor<1x8x32x16xf16>
  return %r : tensor<1x8x32x16xf16>
}

// -----

func.func @row_blocks(%x: tensor<1x8x32x16xf16>, %w: tensor<13x13x16xf16>, %y: tensor<1x8x32x16xf16>) -> tensor<1x8x32x16xf16> {
  // expected-error @+1 {{does not fit this op: row_blocks_per_chunk = -1 is not in [1, 2147483647]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x32x16xf16>, tensor<13x13x16xf16>) outs(%y : tensor<1x8x32x16xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.mma_stream<row_blocks_per_chunk = -1>} -> tensor<1x8x32x16xf16>
  return %r : tensor<1x8x32x16xf16>
}

// -----

func.func @blocks_per_sm(%x: tensor<1x8x32x16xf16>, %w: tensor<13x13x16xf16>, %y: tensor<1x8x32x16xf16>) -> tensor<1x8x32x16xf16> {
  // expected-error @+1 {{does not fit this op: min_blocks_per_sm = 9 is not in [0, 8]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x32x16xf16>, tensor<13x13x16xf16>) outs(%y : tensor<1x8x32x16xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.mma_stream<min_blocks_per_sm = 9>} -> tensor<1x8x32x16xf16>
  return %r : tensor<1x8x32x16xf16>
}

// -----

func.func @lookahead(%x: tensor<1x8x32x16xf16>, %w: tensor<13x13x16xf16>, %y: tensor<1x8x32x16xf16>) -> tensor<1x8x32x16xf16> {
  // expected-error @+1 {{does not fit this op: overlap_lookahead = 0 is not in [1, 64]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x32x16xf16>, tensor<13x13x16xf16>) outs(%y : tensor<1x8x32x16xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.mma_stream<overlap_workspace = true, overlap_lookahead = 0>} -> tensor<1x8x32x16xf16>
  return %r : tensor<1x8x32x16xf16>
}

// -----

func.func @smem_input_rows(%x: tensor<1x8x32x16xf16>, %w: tensor<13x13x16xf16>, %y: tensor<1x8x32x16xf16>) -> tensor<1x8x32x16xf16> {
  // expected-error @+1 {{does not fit this op: smem_input and nhwc_input need loop_order = filter_rows}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x32x16xf16>, tensor<13x13x16xf16>) outs(%y : tensor<1x8x32x16xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.mma_stream<loop_order = input_rows, smem_input = true>} -> tensor<1x8x32x16xf16>
  return %r : tensor<1x8x32x16xf16>
}

// -----

func.func @nhwc_input_rows(%x: tensor<1x8x32x16xf16>, %w: tensor<13x13x16xf16>, %y: tensor<1x8x32x16xf16>) -> tensor<1x8x32x16xf16> {
  // expected-error @+1 {{does not fit this op: smem_input and nhwc_input need loop_order = filter_rows}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x32x16xf16>, tensor<13x13x16xf16>) outs(%y : tensor<1x8x32x16xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.mma_stream<loop_order = input_rows, nhwc_input = true>} -> tensor<1x8x32x16xf16>
  return %r : tensor<1x8x32x16xf16>
}

// -----

func.func @nhwc_overlap(%x: tensor<1x8x32x16xf16>, %w: tensor<13x13x16xf16>, %y: tensor<1x8x32x16xf16>) -> tensor<1x8x32x16xf16> {
  // expected-error @+1 {{does not fit this op: nhwc_input has no workspace to overlap}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x32x16xf16>, tensor<13x13x16xf16>) outs(%y : tensor<1x8x32x16xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.mma_stream<nhwc_input = true, overlap_workspace = true>} -> tensor<1x8x32x16xf16>
  return %r : tensor<1x8x32x16xf16>
}

// -----

func.func @band_too_large(%x: tensor<1x60x60x8xf16>, %w: tensor<60x60x8xf16>, %y: tensor<1x1x1x8xf16>) -> tensor<1x1x1x8xf16> {
  // expected-error @+1 {{does not fit this op: filter band and output stage exceed the target's 227 KB of shared memory}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x60x60x8xf16>, tensor<60x60x8xf16>) outs(%y : tensor<1x1x1x8xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.mma_stream<input_operand = a, rows = 8>} -> tensor<1x1x1x8xf16>
  return %r : tensor<1x1x1x8xf16>
}

// -----

func.func @input_too_large(%x: tensor<1x16x128x8xf16>, %w: tensor<31x31x8xf16>, %y: tensor<1x16x128x8xf16>) -> tensor<1x16x128x8xf16> {
  // expected-error @+1 {{does not fit this op: input buffers, filter band and output stage exceed the target's 227 KB of shared memory}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x16x128x8xf16>, tensor<31x31x8xf16>) outs(%y : tensor<1x16x128x8xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [15, 15, 15, 15] {dwc.kernel = #dwc.mma_stream<input_operand = b, rows = 16, smem_input = true>} -> tensor<1x16x128x8xf16>
  return %r : tensor<1x16x128x8xf16>
}

// -----

func.func @grid(%x: tensor<1048576x1024x1x1024xf16>, %w: tensor<1x1x1024xf16>, %y: tensor<1048576x1024x1x1024xf16>) -> tensor<1048576x1024x1x1024xf16> {
  // expected-error @+1 {{does not fit this op: grid too large}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1048576x1024x1x1024xf16>, tensor<1x1x1024xf16>) outs(%y : tensor<1048576x1024x1x1024xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.mma_stream<input_operand = b, rows = 1, row_blocks_per_chunk = 1>} -> tensor<1048576x1024x1x1024xf16>
  return %r : tensor<1048576x1024x1x1024xf16>
}

// -----

func.func @grid_overlap(%x: tensor<1048576x1024x1x1024xf16>, %w: tensor<1x1x1024xf16>, %y: tensor<1048576x1024x1x1024xf16>) -> tensor<1048576x1024x1x1024xf16> {
  // expected-error @+1 {{does not fit this op: grid too large}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1048576x1024x1x1024xf16>, tensor<1x1x1024xf16>) outs(%y : tensor<1048576x1024x1x1024xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.mma_stream<input_operand = b, rows = 1, row_blocks_per_chunk = 1, compact_workspace = true, overlap_workspace = true>} -> tensor<1048576x1024x1x1024xf16>
  return %r : tensor<1048576x1024x1x1024xf16>
}

// -----

func.func @negative_transposed_padding(%dy: tensor<1x18x18x8xf16>, %w: tensor<7x7x8xf16>, %dx: tensor<1x8x8x8xf16>) -> tensor<1x8x8x8xf16> {
  // expected-error @+1 {{does not fit this op: padding larger than the filter extent minus one (negative transposed padding)}}
  %r = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x18x18x8xf16>, tensor<7x7x8xf16>) outs(%dx : tensor<1x8x8x8xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [8, 8, 8, 8] {dwc.kernel = #dwc.mma_stream<>} -> tensor<1x8x8x8xf16>
  return %r : tensor<1x8x8x8xf16>
}

// -----

func.func @not_a_convolution() -> index {
  // expected-error @+1 {{'dwc.kernel' #dwc.mma_stream<> does not fit this op: not a depthwise convolution forward or backward-data op}}
  %c = arith.constant {dwc.kernel = #dwc.mma_stream<>} 0 : index
  return %c : index
}

// -----

func.func @non_identity_layout(%x: memref<1x8x32x16xf16, strided<[8192, 1024, 32, 1]>>, %w: memref<13x13x16xf16>, %y: memref<1x8x32x16xf16>) {
  // expected-error @+1 {{does not fit this op: non-identity layout}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x16xf16, strided<[8192, 1024, 32, 1]>>, memref<13x13x16xf16>) outs(%y : memref<1x8x32x16xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.mma_stream<>}
  return
}

// -----

func.func @wrong_rank(%x: tensor<8x32x16xf16>, %w: tensor<13x13x16xf16>, %y: tensor<1x8x32x16xf16>) -> tensor<1x8x32x16xf16> {
  // expected-error @+1 {{does not fit this op: operands or attributes of the wrong rank}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<8x32x16xf16>, tensor<13x13x16xf16>) outs(%y : tensor<1x8x32x16xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.mma_stream<>} -> tensor<1x8x32x16xf16>
  return %r : tensor<1x8x32x16xf16>
}

// -----

func.func @negative_padding(%x: tensor<1x8x32x16xf16>, %w: tensor<13x13x16xf16>, %y: tensor<1x8x32x16xf16>) -> tensor<1x8x32x16xf16> {
  // expected-error @+1 {{does not fit this op: negative padding}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x32x16xf16>, tensor<13x13x16xf16>) outs(%y : tensor<1x8x32x16xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [-1, 13, 6, 6] {dwc.kernel = #dwc.mma_stream<>} -> tensor<1x8x32x16xf16>
  return %r : tensor<1x8x32x16xf16>
}

// -----

func.func @nhwc_columns(%x: tensor<1x32x8x16xf16>, %w: tensor<13x3x16xf16>, %y: tensor<1x32x8x16xf16>) -> tensor<1x32x8x16xf16> {
  // expected-error @+1 {{does not fit this op: stream_columns needs the workspace (not nhwc_input)}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x32x8x16xf16>, tensor<13x3x16xf16>) outs(%y : tensor<1x32x8x16xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 1, 1] {dwc.kernel = #dwc.mma_stream<nhwc_input = true, stream_columns = true>} -> tensor<1x32x8x16xf16>
  return %r : tensor<1x32x8x16xf16>
}

// -----

// The shared memory of the shape the kernel sees: a 64 x 9 filter with the
// input as B streams 64 filter rows of 2 slices (262 KB of band) along the
// rows, 9 rows of 5 slices (92 KB) along the columns.
func.func @columns_band(%x: tensor<1x64x64x8xf16>, %w: tensor<64x9x8xf16>, %y: tensor<1x64x64x8xf16>) -> (tensor<1x64x64x8xf16>, tensor<1x64x64x8xf16>) {
  // expected-error @+1 {{does not fit this op: filter band and output stage exceed the target's 227 KB of shared memory}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x64x64x8xf16>, tensor<64x9x8xf16>) outs(%y : tensor<1x64x64x8xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [31, 32, 4, 4] {dwc.kernel = #dwc.mma_stream<input_operand = b, rows = 8, stream_columns = false>} -> tensor<1x64x64x8xf16>
  %c = dwc.depthwise_conv2d ins(%x, %w : tensor<1x64x64x8xf16>, tensor<64x9x8xf16>) outs(%y : tensor<1x64x64x8xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [31, 32, 4, 4] {dwc.kernel = #dwc.mma_stream<input_operand = b, rows = 8, stream_columns = true>} -> tensor<1x64x64x8xf16>
  return %r, %c : tensor<1x64x64x8xf16>, tensor<1x64x64x8xf16>
}
