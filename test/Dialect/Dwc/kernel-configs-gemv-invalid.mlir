// RUN: dwc-opt %s --split-input-file -verify-diagnostics

// Every branch of the #dwc.gemv and #dwc.row_tile configurations' rules (Configs/Gemv.cpp), on tensors (the
// rules hold for both forms) and buffers (layouts).

func.func @gemv_on_backward_filter(%x: tensor<1x8x8x32xf32>, %w: tensor<1x8x8x32xf32>, %y: tensor<3x3x32xf32>) -> tensor<3x3x32xf32> {
  // expected-error @+1 {{does not fit this op: not a depthwise convolution forward or backward-data op}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %w : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%y : tensor<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<channels = 4>} -> tensor<3x3x32xf32>
  return %r : tensor<3x3x32xf32>
}

// -----

func.func @gemv_wrong_rank(%x: tensor<1x8x8x32xf32>, %w: tensor<3x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{does not fit this op: operands or attributes of the wrong rank}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<channels = 4>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @gemv_f64(%x: tensor<1x8x8x32xf64>, %w: tensor<3x3x32xf64>, %y: tensor<1x8x8x32xf64>) -> tensor<1x8x8x32xf64> {
  // expected-error @+1 {{does not fit this op: element type is not f32, f16 or bf16}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf64>, tensor<3x3x32xf64>) outs(%y : tensor<1x8x8x32xf64>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<channels = 4>} -> tensor<1x8x8x32xf64>
  return %r : tensor<1x8x8x32xf64>
}

// -----

func.func @gemv_f16_acc(%x: tensor<1x8x8x32xf16>, %w: tensor<3x3x32xf16>, %y: tensor<1x8x8x32xf16>) -> tensor<1x8x8x32xf16> {
  // expected-error @+1 {{does not fit this op: accumulation type is not f32}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf16>, tensor<3x3x32xf16>) outs(%y : tensor<1x8x8x32xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] acc = f16 {dwc.kernel = #dwc.gemv<channels = 4>} -> tensor<1x8x8x32xf16>
  return %r : tensor<1x8x8x32xf16>
}

// -----

func.func @gemv_stride(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32> {
  // expected-error @+1 {{does not fit this op: stride is not 1}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x4x4x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<channels = 4>} -> tensor<1x4x4x32xf32>
  return %r : tensor<1x4x4x32xf32>
}

// -----

func.func @gemv_dilation(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{does not fit this op: dilation is not 1}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [2, 2] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.gemv<channels = 4>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @gemv_negative_padding(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x6x8x32xf32>) -> tensor<1x6x8x32xf32> {
  // expected-error @+1 {{does not fit this op: negative padding}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x6x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [-1, 0, 1, 1] {dwc.kernel = #dwc.gemv<channels = 4>} -> tensor<1x6x8x32xf32>
  return %r : tensor<1x6x8x32xf32>
}

// -----

func.func @gemv_mixed_types(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf16>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{does not fit this op: operands of different element types}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf16>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<channels = 4>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @gemv_layout(%x: memref<1x8x8x32xf32, strided<[4096, 512, 64, 1]>>, %w: memref<3x3x32xf32>, %y: memref<1x8x8x32xf32>) {
  // expected-error @+1 {{does not fit this op: non-identity layout}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x8x32xf32, strided<[4096, 512, 64, 1]>>, memref<3x3x32xf32>) outs(%y : memref<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<channels = 4>}
  return
}

// -----

func.func @gemv_dynamic(%x: tensor<?x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<?x8x8x32xf32>) -> tensor<?x8x8x32xf32> {
  // expected-error @+1 {{does not fit this op: empty or dynamic operand}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<?x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<?x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<channels = 4>} -> tensor<?x8x8x32xf32>
  return %r : tensor<?x8x8x32xf32>
}

// -----

func.func @gemv_transposed_padding(%x: tensor<1x12x12x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{does not fit this op: padding larger than the filter extent minus one (negative transposed padding)}}
  %r = dwc.depthwise_conv2d_backward_data ins(%x, %w : tensor<1x12x12x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.gemv<channels = 4>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @gemv_bad_filter(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{filter = "shared" is not one of "smem", "global"}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<filter = "shared">} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @gemv_bad_rows(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{rows = "unroll" is not one of "loop", "unrolled"}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<rows = "unroll">} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @gemv_f32_channels(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{channels = 2 is not 4 (f32)}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<channels = 2>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @gemv_f16_channels(%x: tensor<1x8x8x32xf16>, %w: tensor<3x3x32xf16>, %y: tensor<1x8x8x32xf16>) -> tensor<1x8x8x32xf16> {
  // expected-error @+1 {{channels = 2 is not 4 or 8 (f16/bf16)}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf16>, tensor<3x3x32xf16>) outs(%y : tensor<1x8x8x32xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<channels = 2>} -> tensor<1x8x8x32xf16>
  return %r : tensor<1x8x8x32xf16>
}

// -----

func.func @gemv_channels_divide(%x: tensor<1x8x8x12xbf16>, %w: tensor<3x3x12xbf16>, %y: tensor<1x8x8x12xbf16>) -> tensor<1x8x8x12xbf16> {
  // expected-error @+1 {{channels = 8 does not divide C = 12}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x12xbf16>, tensor<3x3x12xbf16>) outs(%y : tensor<1x8x8x12xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<channels = 8>} -> tensor<1x8x8x12xbf16>
  return %r : tensor<1x8x8x12xbf16>
}

// -----

func.func @gemv_smem_64bit(%x: tensor<1x8x8x32xf16>, %w: tensor<3x3x32xf16>, %y: tensor<1x8x8x32xf16>) -> tensor<1x8x8x32xf16> {
  // expected-error @+1 {{filter = "smem" needs 128-bit channel vectors}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf16>, tensor<3x3x32xf16>) outs(%y : tensor<1x8x8x32xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<channels = 4, filter = "smem">} -> tensor<1x8x8x32xf16>
  return %r : tensor<1x8x8x32xf16>
}

// -----

func.func @gemv_outputs(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{outputs = 33 is not in [1, 32]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<outputs = 33>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @gemv_unrolled_f32(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{rows = "unrolled" needs f16/bf16 data and filter = "global"}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<rows = "unrolled">} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @gemv_unrolled_smem(%x: tensor<1x8x8x32xf16>, %w: tensor<3x3x32xf16>, %y: tensor<1x8x8x32xf16>) -> tensor<1x8x8x32xf16> {
  // expected-error @+1 {{rows = "unrolled" needs f16/bf16 data and filter = "global"}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf16>, tensor<3x3x32xf16>) outs(%y : tensor<1x8x8x32xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<filter = "smem", rows = "unrolled">} -> tensor<1x8x8x32xf16>
  return %r : tensor<1x8x8x32xf16>
}

// -----

func.func @row_tile_stride(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32> {
  // expected-error @+1 {{does not fit this op: stride is not 1}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x4x4x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.row_tile<channels = 4>} -> tensor<1x4x4x32xf32>
  return %r : tensor<1x4x4x32xf32>
}

// -----

func.func @row_tile_taps(%x: tensor<1x8x8x32xf32>, %w: tensor<7x8x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{does not fit this op: filter of more than 49 taps}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<7x8x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 4] {dwc.kernel = #dwc.row_tile<channels = 4>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @row_tile_channels(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{channels = 8 is not a 32- to 128-bit vector of the element type}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.row_tile<channels = 8>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @row_tile_channels_divide(%x: tensor<1x8x8x6xf32>, %w: tensor<3x3x6xf32>, %y: tensor<1x8x8x6xf32>) -> tensor<1x8x8x6xf32> {
  // expected-error @+1 {{channels = 4 does not divide C = 6}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x6xf32>, tensor<3x3x6xf32>) outs(%y : tensor<1x8x8x6xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.row_tile<channels = 4>} -> tensor<1x8x8x6xf32>
  return %r : tensor<1x8x8x6xf32>
}

// -----

func.func @row_tile_rows(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{rows = 17 is not in [1, 16]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.row_tile<rows = 17>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @row_tile_min_blocks(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{min_blocks_per_sm = 9 is not in [0, 8]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.row_tile<min_blocks_per_sm = 9>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @row_tile_min_blocks_negative(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{min_blocks_per_sm = -1 is not in [0, 8]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.row_tile<min_blocks_per_sm = -1>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @row_tile_columns(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{columns = 9 is not in [1, 8]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.row_tile<columns = 9>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @row_tile_filter(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{filter = "smem" is not one of "registers", "global"}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.row_tile<filter = "smem">} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @row_tile_loads_first(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{loads_first = 2 is not in [0, 1]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.row_tile<loads_first = 2>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @row_tile_loads_first_negative(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{loads_first = -1 is not in [0, 1]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.row_tile<loads_first = -1>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @row_tile_prefetch_rows(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{prefetch_rows = 5 is not in [0, 4]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.row_tile<prefetch_rows = 5>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @row_tile_prefetch_rows_negative(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{prefetch_rows = -1 is not in [0, 4]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.row_tile<prefetch_rows = -1>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @row_tile_prefetch_rows_loads_first(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{prefetch_rows with loads_first (every row is loaded first)}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.row_tile<loads_first = 1, prefetch_rows = 1>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @row_tile_block_threads_small(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{block_threads = 16 is not 0 or a power of two in [32, 1024]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.row_tile<block_threads = 16>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @row_tile_block_threads_not_pow2(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{block_threads = 96 is not 0 or a power of two in [32, 1024]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.row_tile<block_threads = 96>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @row_tile_block_threads_large(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{block_threads = 2048 is not 0 or a power of two in [32, 1024]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.row_tile<block_threads = 2048>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}
