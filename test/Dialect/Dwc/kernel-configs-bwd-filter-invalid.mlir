// RUN: dwc-opt %s --split-input-file -verify-diagnostics

// Every branch of the #dwc.bwd_filter_stream and #dwc.bwd_filter_split_z configurations' rules (Configs/BackwardFilter.cpp), on tensors (the
// rules hold for both forms) and buffers (layouts).

func.func @stream_on_forward(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{does not fit this op: not a dwc.depthwise_conv2d_backward_filter}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_stream<rows = 1>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @stream_wrong_rank(%x: tensor<1x8x8x32xf32>, %dy: tensor<1x8x8x32xf32>, %dw: tensor<3x32xf32>) -> tensor<3x32xf32> {
  // expected-error @+1 {{does not fit this op: operands or attributes of the wrong rank}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%dw : tensor<3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_stream<rows = 1>} -> tensor<3x32xf32>
  return %r : tensor<3x32xf32>
}

// -----

func.func @stream_f64(%x: tensor<1x8x8x32xf64>, %dy: tensor<1x8x8x32xf64>, %dw: tensor<3x3x32xf64>) -> tensor<3x3x32xf64> {
  // expected-error @+1 {{does not fit this op: element type is not f32, f16 or bf16}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf64>, tensor<1x8x8x32xf64>) outs(%dw : tensor<3x3x32xf64>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_stream<rows = 1>} -> tensor<3x3x32xf64>
  return %r : tensor<3x3x32xf64>
}

// -----

func.func @split_z_dy_type(%x: tensor<1x8x8x32xf16>, %dy: tensor<1x8x8x32xf32>, %dw: tensor<3x3x32xf32>) -> tensor<3x3x32xf32> {
  // expected-error @+1 {{does not fit this op: output gradient type is not the input's}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf16>, tensor<1x8x8x32xf32>) outs(%dw : tensor<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_split_z<z = 1>} -> tensor<3x3x32xf32>
  return %r : tensor<3x3x32xf32>
}

// -----

func.func @split_z_dw_type(%x: tensor<1x8x8x32xf16>, %dy: tensor<1x8x8x32xf16>, %dw: tensor<3x3x32xbf16>) -> tensor<3x3x32xbf16> {
  // expected-error @+1 {{does not fit this op: filter gradient type is neither f32 nor the input's}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf16>, tensor<1x8x8x32xf16>) outs(%dw : tensor<3x3x32xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_split_z<z = 1>} -> tensor<3x3x32xbf16>
  return %r : tensor<3x3x32xbf16>
}

// -----

func.func @split_z_stride(%x: tensor<1x8x8x32xf32>, %dy: tensor<1x8x8x32xf32>, %dw: tensor<3x3x32xf32>) -> tensor<3x3x32xf32> {
  // expected-error @+1 {{does not fit this op: stride is not positive}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%dw : tensor<3x3x32xf32>)
    strides = [0, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_split_z<z = 1>} -> tensor<3x3x32xf32>
  return %r : tensor<3x3x32xf32>
}

// -----

func.func @split_z_dilation(%x: tensor<1x8x8x32xf32>, %dy: tensor<1x8x8x32xf32>, %dw: tensor<3x3x32xf32>) -> tensor<3x3x32xf32> {
  // expected-error @+1 {{does not fit this op: dilation is not 1}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%dw : tensor<3x3x32xf32>)
    strides = [1, 1] dilations = [2, 2] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.bwd_filter_split_z<z = 1>} -> tensor<3x3x32xf32>
  return %r : tensor<3x3x32xf32>
}

// -----

func.func @split_z_negative_padding(%x: tensor<1x8x8x32xf32>, %dy: tensor<1x6x8x32xf32>, %dw: tensor<3x3x32xf32>) -> tensor<3x3x32xf32> {
  // expected-error @+1 {{does not fit this op: negative padding}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf32>, tensor<1x6x8x32xf32>) outs(%dw : tensor<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [-1, 0, 1, 1] {dwc.kernel = #dwc.bwd_filter_split_z<z = 1>} -> tensor<3x3x32xf32>
  return %r : tensor<3x3x32xf32>
}

// -----

func.func @split_z_layout(%x: memref<1x8x8x32xf32, strided<[4096, 512, 64, 1]>>, %dy: memref<1x8x8x32xf32>, %dw: memref<3x3x32xf32>) {
  // expected-error @+1 {{does not fit this op: non-identity layout}}
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<1x8x8x32xf32, strided<[4096, 512, 64, 1]>>, memref<1x8x8x32xf32>) outs(%dw : memref<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_split_z<z = 1>}
  return
}

// -----

func.func @split_z_dynamic(%x: tensor<?x8x8x32xf32>, %dy: tensor<1x8x8x32xf32>, %dw: tensor<3x3x32xf32>) -> tensor<3x3x32xf32> {
  // expected-error @+1 {{does not fit this op: empty or dynamic operand}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<?x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%dw : tensor<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_split_z<z = 1>} -> tensor<3x3x32xf32>
  return %r : tensor<3x3x32xf32>
}

// -----

func.func @split_z_channels(%x: tensor<1x8x8x12xf16>, %dy: tensor<1x8x8x12xf16>, %dw: tensor<3x3x12xf16>) -> tensor<3x3x12xf16> {
  // expected-error @+1 {{does not fit this op: channel count is not a multiple of 128 bits}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x12xf16>, tensor<1x8x8x12xf16>) outs(%dw : tensor<3x3x12xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_split_z<z = 1>} -> tensor<3x3x12xf16>
  return %r : tensor<3x3x12xf16>
}

// -----

func.func @stream_taps(%x: tensor<1x8x8x32xf32>, %dy: tensor<1x8x8x32xf32>, %dw: tensor<7x9x32xf32>) -> tensor<7x9x32xf32> {
  // expected-error @+1 {{does not fit this op: filter of more than 49 taps}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%dw : tensor<7x9x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 4, 4] {dwc.kernel = #dwc.bwd_filter_stream<rows = 1>} -> tensor<7x9x32xf32>
  return %r : tensor<7x9x32xf32>
}

// -----

func.func @stream_rows(%x: tensor<1x8x8x32xf32>, %dy: tensor<1x8x8x32xf32>, %dw: tensor<3x3x32xf32>) -> tensor<3x3x32xf32> {
  // expected-error @+1 {{rows = 17 is not in [1, 16]}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%dw : tensor<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_stream<rows = 17>} -> tensor<3x3x32xf32>
  return %r : tensor<3x3x32xf32>
}

// -----

func.func @stream_threads(%x: tensor<1x8x8x32xf32>, %dy: tensor<1x8x8x32xf32>, %dw: tensor<3x3x32xf32>) -> tensor<3x3x32xf32> {
  // expected-error @+1 {{threads = 16 is not in [32, 1024]}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%dw : tensor<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_stream<threads = 16>} -> tensor<3x3x32xf32>
  return %r : tensor<3x3x32xf32>
}

// -----

func.func @stream_workers(%x: tensor<1x8x8x32xf32>, %dy: tensor<1x8x8x32xf32>, %dw: tensor<3x3x32xf32>) -> tensor<3x3x32xf32> {
  // expected-error @+1 {{workers = -1 is not in [1, 2147483647]}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%dw : tensor<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_stream<workers = -1>} -> tensor<3x3x32xf32>
  return %r : tensor<3x3x32xf32>
}

// -----

func.func @stream_reduce(%x: tensor<1x8x8x32xf32>, %dy: tensor<1x8x8x32xf32>, %dw: tensor<3x3x32xf32>) -> tensor<3x3x32xf32> {
  // expected-error @+1 {{reduce = "warp" is not one of "block", "atomics"}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%dw : tensor<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_stream<reduce = "warp">} -> tensor<3x3x32xf32>
  return %r : tensor<3x3x32xf32>
}

// -----

func.func @split_z_z(%x: tensor<1x8x8x32xf32>, %dy: tensor<1x8x8x32xf32>, %dw: tensor<3x3x32xf32>) -> tensor<3x3x32xf32> {
  // expected-error @+1 {{z = -2 is not in [1, 2147483647]}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%dw : tensor<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_split_z<z = -2>} -> tensor<3x3x32xf32>
  return %r : tensor<3x3x32xf32>
}

// -----

func.func @split_z_tile_width(%x: tensor<1x8x8x32xf32>, %dy: tensor<1x8x8x32xf32>, %dw: tensor<3x3x32xf32>) -> tensor<3x3x32xf32> {
  // expected-error @+1 {{tile_width = 18 is not in [1, 17]}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%dw : tensor<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_split_z<tile_width = 18>} -> tensor<3x3x32xf32>
  return %r : tensor<3x3x32xf32>
}

// -----

func.func @split_z_warp_slices(%x: tensor<1x8x8x32xf32>, %dy: tensor<1x8x8x32xf32>, %dw: tensor<3x3x32xf32>) -> tensor<3x3x32xf32> {
  // expected-error @+1 {{warp_slices = 2 is not 1 or 4}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%dw : tensor<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_split_z<warp_slices = 2>} -> tensor<3x3x32xf32>
  return %r : tensor<3x3x32xf32>
}

// -----

func.func @split_z_half_steps(%x: tensor<1x8x8x32xf16>, %dy: tensor<1x8x8x32xf16>, %dw: tensor<3x3x32xf32>) -> tensor<3x3x32xf32> {
  // expected-error @+1 {{half_steps = 17 is not in [1, 16]}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf16>, tensor<1x8x8x32xf16>) outs(%dw : tensor<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_split_z<half_steps = 17>} -> tensor<3x3x32xf32>
  return %r : tensor<3x3x32xf32>
}

// -----

func.func @split_z_half_steps_f32(%x: tensor<1x8x8x32xf32>, %dy: tensor<1x8x8x32xf32>, %dw: tensor<3x3x32xf32>) -> tensor<3x3x32xf32> {
  // expected-error @+1 {{half_steps needs f16 inputs}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%dw : tensor<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_split_z<half_steps = 4>} -> tensor<3x3x32xf32>
  return %r : tensor<3x3x32xf32>
}

// -----

// #dwc.bwd_filter_image: every branch of its rules.
func.func @image_segments(%x: tensor<1x8x8x32xf16>, %dy: tensor<1x8x8x32xf16>, %dw: tensor<3x3x32xf16>) -> tensor<3x3x32xf16> {
  // expected-error @+1 {{does not fit this op: segments = 65 is not in [1, 64]}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf16>, tensor<1x8x8x32xf16>) outs(%dw : tensor<3x3x32xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_image<segments = 65>} -> tensor<3x3x32xf16>
  return %r : tensor<3x3x32xf16>
}

// -----

// Segments count in the threads: 8 x 3 x 32 / 2 = 384 fit, 64 x 3 x 32 / 2 do not.
func.func @image_segment_threads(%x: tensor<1x8x8x32xf16>, %dy: tensor<1x8x8x32xf16>, %dw: tensor<3x3x32xf16>) -> tensor<3x3x32xf16> {
  // expected-error @+1 {{does not fit this op: segments x FH x channels / 2 = 3072 threads is more than 1024}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf16>, tensor<1x8x8x32xf16>) outs(%dw : tensor<3x3x32xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_image<channels = 32, segments = 64>} -> tensor<3x3x32xf16>
  return %r : tensor<3x3x32xf16>
}

// -----

// Strided dY: a strip of R output rows stages (R - 1) * 2 + 3 input rows:
// 4 rows: 9 x (2048 x 64 x 4 + 64) + 4 x 1024 x 64 x 4 = 5767744 bytes.
func.func @image_strided_shared_memory(%x: tensor<1x16x2048x64xf32>, %dy: tensor<1x8x1024x64xf32>, %dw: tensor<3x3x64xf32>) -> tensor<3x3x64xf32> {
  // expected-error @+1 {{does not fit this op: shared memory of 5767744 bytes exceeds the target's 232448}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x16x2048x64xf32>, tensor<1x8x1024x64xf32>) outs(%dw : tensor<3x3x64xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 0, 1, 0] {dwc.kernel = #dwc.bwd_filter_image<channels = 64, rows = 4>} -> tensor<3x3x64xf32>
  return %r : tensor<3x3x64xf32>
}

// -----

func.func @image_wide_filter(%x: tensor<1x8x20x32xf16>, %dy: tensor<1x8x2x32xf16>, %dw: tensor<1x19x32xf16>) -> tensor<1x19x32xf16> {
  // expected-error @+1 {{does not fit this op: filter row of more than 17 taps}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x20x32xf16>, tensor<1x8x2x32xf16>) outs(%dw : tensor<1x19x32xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.bwd_filter_image<channels = 32>} -> tensor<1x19x32xf16>
  return %r : tensor<1x19x32xf16>
}

// -----

func.func @image_channels(%x: tensor<1x8x8x32xf16>, %dy: tensor<1x8x8x32xf16>, %dw: tensor<3x3x32xf16>) -> tensor<3x3x32xf16> {
  // expected-error @+1 {{does not fit this op: channels = 12 is not a multiple of 8 in [8, 1024]}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf16>, tensor<1x8x8x32xf16>) outs(%dw : tensor<3x3x32xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_image<channels = 12>} -> tensor<3x3x32xf16>
  return %r : tensor<3x3x32xf16>
}

// -----

func.func @image_threads(%x: tensor<1x8x8x32xf32>, %dy: tensor<1x2x8x32xf32>, %dw: tensor<7x1x32xf32>) -> tensor<7x1x32xf32> {
  // expected-error @+1 {{does not fit this op: segments x FH x channels / 2 = 1792 threads is more than 1024}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf32>, tensor<1x2x8x32xf32>) outs(%dw : tensor<7x1x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.bwd_filter_image<channels = 512>} -> tensor<7x1x32xf32>
  return %r : tensor<7x1x32xf32>
}

// -----

func.func @image_rows(%x: tensor<1x8x8x32xf16>, %dy: tensor<1x8x8x32xf16>, %dw: tensor<3x3x32xf16>) -> tensor<3x3x32xf16> {
  // expected-error @+1 {{does not fit this op: rows = -1 is not in [1, 2147483647]}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf16>, tensor<1x8x8x32xf16>) outs(%dw : tensor<3x3x32xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_image<rows = -1>} -> tensor<3x3x32xf16>
  return %r : tensor<3x3x32xf16>
}

// -----

func.func @image_units(%x: tensor<1x8x8x32xf16>, %dy: tensor<1x8x8x32xf16>, %dw: tensor<3x3x32xf16>) -> tensor<3x3x32xf16> {
  // expected-error @+1 {{does not fit this op: units = -2 is not in [1, 2147483647]}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf16>, tensor<1x8x8x32xf16>) outs(%dw : tensor<3x3x32xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_image<units = -2>} -> tensor<3x3x32xf16>
  return %r : tensor<3x3x32xf16>
}

// -----

func.func @image_copy(%x: tensor<1x8x8x32xf16>, %dy: tensor<1x8x8x32xf16>, %dw: tensor<3x3x32xf16>) -> tensor<3x3x32xf16> {
  // expected-error @+1 {{does not fit this op: copy = "warp" is not one of "block", "thread", "async"}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf16>, tensor<1x8x8x32xf16>) outs(%dw : tensor<3x3x32xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_image<copy = "warp">} -> tensor<3x3x32xf16>
  return %r : tensor<3x3x32xf16>
}

// -----

func.func @image_thread_copy_units(%x: tensor<2x8x8x32xf16>, %dy: tensor<2x8x8x32xf16>, %dw: tensor<3x3x32xf16>) -> tensor<3x3x32xf16> {
  // expected-error @+1 {{does not fit this op: copy = "thread" needs units = 1}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<2x8x8x32xf16>, tensor<2x8x8x32xf16>) outs(%dw : tensor<3x3x32xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_image<units = 2, copy = "thread">} -> tensor<3x3x32xf16>
  return %r : tensor<3x3x32xf16>
}

// -----

// 256 f32 channels x 2048 columns: 3 input rows (padded by 64 bytes) + 1 dY row.
func.func @image_shared_memory(%x: tensor<1x16x2048x512xf32>, %dy: tensor<1x16x2048x512xf32>, %dw: tensor<3x3x512xf32>) -> tensor<3x3x512xf32> {
  // expected-error @+1 {{does not fit this op: shared memory of 8388800 bytes exceeds the target's 232448}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x16x2048x512xf32>, tensor<1x16x2048x512xf32>) outs(%dw : tensor<3x3x512xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_image<channels = 256, rows = 1>} -> tensor<3x3x512xf32>
  return %r : tensor<3x3x512xf32>
}

// -----

// A strip past 2^63 bytes: the shared-memory size saturates.
func.func @image_shared_memory_saturates(%x: memref<1x2147483647x2147483647x1024xf32>, %dy: memref<1x2147483647x2147483647x1024xf32>, %dw: memref<1x1x1024xf32>) {
  // expected-error @+1 {{does not fit this op: shared memory of 9223372036854775807 bytes exceeds the target's 232448}}
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<1x2147483647x2147483647x1024xf32>, memref<1x2147483647x2147483647x1024xf32>) outs(%dw : memref<1x1x1024xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.bwd_filter_image<channels = 1024, rows = 2147483647>}
  return
}

// -----

// copy = "async": two strips of 512 x 64 f16 (1 x 1 filter: one input row
// of 65536 + 64 padding bytes, one dY row of 65536) fit once, not twice.
func.func @image_async_shared_memory(%x: tensor<1x4x512x64xf16>, %dy: tensor<1x4x512x64xf16>, %dw: tensor<1x1x64xf16>) -> tensor<1x1x64xf16> {
  // expected-error @+1 {{does not fit this op: shared memory of 262272 bytes exceeds the target's 232448}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x4x512x64xf16>, tensor<1x4x512x64xf16>) outs(%dw : tensor<1x1x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.bwd_filter_image<channels = 64, rows = 1, copy = "async">} -> tensor<1x1x64xf16>
  return %r : tensor<1x1x64xf16>
}

// -----

// The same strip once (copy = "block") fits.
func.func @image_block_shared_memory(%x: tensor<1x4x512x64xf16>, %dy: tensor<1x4x512x64xf16>, %dw: tensor<1x1x64xf16>) -> tensor<1x1x64xf16> {
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x4x512x64xf16>, tensor<1x4x512x64xf16>) outs(%dw : tensor<1x1x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.bwd_filter_image<channels = 64, rows = 1, copy = "block">} -> tensor<1x1x64xf16>
  return %r : tensor<1x1x64xf16>
}

// -----

// cp.async is an sm_80 instruction.
module attributes {dwc.target = #dwc.target<chip = "sm_75", features = "+ptx70", sm_count = 40, shared_memory_per_block = 65536, shared_memory_per_sm = 65536, threads_per_sm = 1024, registers_per_sm = 65536>} {
func.func @image_async_sm75(%x: tensor<1x8x8x32xf16>, %dy: tensor<1x8x8x32xf16>, %dw: tensor<3x3x32xf16>) -> tensor<3x3x32xf16> {
  // expected-error @+1 {{does not fit this op: copy = "async" needs cp.async (sm_80 or newer)}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf16>, tensor<1x8x8x32xf16>) outs(%dw : tensor<3x3x32xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_image<copy = "async">} -> tensor<3x3x32xf16>
  return %r : tensor<3x3x32xf16>
}
}

// -----

// #dwc.bwd_filter_taps (the register kernel): every branch of its rules.

func.func @taps_ineligible_f64(%x: tensor<1x8x8x32xf64>, %dy: tensor<1x8x8x32xf64>, %dw: tensor<3x3x32xf64>) -> tensor<3x3x32xf64> {
  // expected-error @+1 {{does not fit this op: element type is not f32, f16 or bf16}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf64>, tensor<1x8x8x32xf64>) outs(%dw : tensor<3x3x32xf64>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_taps<rows = 4>} -> tensor<3x3x32xf64>
  return %r : tensor<3x3x32xf64>
}

// -----

func.func @taps_strided(%x: tensor<1x8x8x32xf16>, %dy: tensor<1x4x4x32xf16>, %dw: tensor<3x3x32xf16>) -> tensor<3x3x32xf16> {
  // expected-error @+1 {{does not fit this op: stride is not 1}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf16>, tensor<1x4x4x32xf16>) outs(%dw : tensor<3x3x32xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_taps<rows = 4>} -> tensor<3x3x32xf16>
  return %r : tensor<3x3x32xf16>
}

// -----

func.func @taps_vector_bits(%x: tensor<1x8x8x32xf16>, %dy: tensor<1x8x8x32xf16>, %dw: tensor<3x3x32xf16>) -> tensor<3x3x32xf16> {
  // expected-error @+1 {{does not fit this op: vector = 16 is not 64 or 128 bits of 16-bit elements}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf16>, tensor<1x8x8x32xf16>) outs(%dw : tensor<3x3x32xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_taps<vector = 16>} -> tensor<3x3x32xf16>
  return %r : tensor<3x3x32xf16>
}

// -----

func.func @taps_columns(%x: tensor<1x8x8x32xf32>, %dy: tensor<1x8x8x32xf32>, %dw: tensor<3x3x32xf32>) -> tensor<3x3x32xf32> {
  // expected-error @+1 {{does not fit this op: columns = 9 is not in [1, 8]}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%dw : tensor<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_taps<columns = 9>} -> tensor<3x3x32xf32>
  return %r : tensor<3x3x32xf32>
}

// -----

func.func @taps_rows(%x: tensor<1x8x8x32xf32>, %dy: tensor<1x8x8x32xf32>, %dw: tensor<3x3x32xf32>) -> tensor<3x3x32xf32> {
  // expected-error @+1 {{does not fit this op: rows = -1 is not in [1, 2147483647]}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%dw : tensor<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_taps<rows = -1>} -> tensor<3x3x32xf32>
  return %r : tensor<3x3x32xf32>
}

// -----

func.func @taps_threads(%x: tensor<1x8x8x32xf32>, %dy: tensor<1x8x8x32xf32>, %dw: tensor<3x3x32xf32>) -> tensor<3x3x32xf32> {
  // expected-error @+1 {{does not fit this op: threads = 16 is not in [32, 1024]}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%dw : tensor<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_taps<threads = 16>} -> tensor<3x3x32xf32>
  return %r : tensor<3x3x32xf32>
}

// -----

func.func @taps_reduce(%x: tensor<1x8x8x32xf32>, %dy: tensor<1x8x8x32xf32>, %dw: tensor<3x3x32xf32>) -> tensor<3x3x32xf32> {
  // expected-error @+1 {{does not fit this op: reduce = "atomics" is not one of "block", "band"}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%dw : tensor<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_taps<reduce = "atomics">} -> tensor<3x3x32xf32>
  return %r : tensor<3x3x32xf32>
}

// -----

func.func @taps_filter_side(%x: tensor<1x200x8x32xf32>, %dy: tensor<1x8x8x32xf32>, %dw: tensor<193x1x32xf32>) -> tensor<193x1x32xf32> {
  // expected-error @+1 {{does not fit this op: filter of more than 192 taps along a side}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x200x8x32xf32>, tensor<1x8x8x32xf32>) outs(%dw : tensor<193x1x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.bwd_filter_taps<rows = 4>} -> tensor<193x1x32xf32>
  return %r : tensor<193x1x32xf32>
}

// -----

func.func @taps_registers(%x: tensor<1x8x8x32xf16>, %dy: tensor<1x8x8x32xf16>, %dw: tensor<5x5x32xf16>) -> tensor<5x5x32xf16> {
  // expected-error @+1 {{does not fit this op: (FH x FW + FH x columns + columns + FW - 1) x vector = 280 f32 registers is more than 192}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf16>, tensor<1x8x8x32xf16>) outs(%dw : tensor<5x5x32xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.bwd_filter_taps<vector = 8, columns = 1>} -> tensor<5x5x32xf16>
  return %r : tensor<5x5x32xf16>
}

// -----

func.func @taps_unroll(%x: tensor<1x8x8x32xf32>, %dy: tensor<1x8x8x32xf32>, %dw: tensor<3x3x32xf32>) -> tensor<3x3x32xf32> {
  // expected-error @+1 {{does not fit this op: unroll = 5 is not in [1, 4]}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%dw : tensor<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_taps<unroll = 5>} -> tensor<3x3x32xf32>
  return %r : tensor<3x3x32xf32>
}

// -----

func.func @taps_prefetch(%x: tensor<1x8x8x32xf32>, %dy: tensor<1x8x8x32xf32>, %dw: tensor<3x3x32xf32>) -> tensor<3x3x32xf32> {
  // expected-error @+1 {{does not fit this op: prefetch = 2 is not in [1, 1]}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%dw : tensor<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_taps<prefetch = 2>} -> tensor<3x3x32xf32>
  return %r : tensor<3x3x32xf32>
}

// -----

func.func @taps_min_blocks(%x: tensor<1x8x8x32xf32>, %dy: tensor<1x8x8x32xf32>, %dw: tensor<3x3x32xf32>) -> tensor<3x3x32xf32> {
  // expected-error @+1 {{does not fit this op: min_blocks_per_sm = 33 is not in [1, 32]}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%dw : tensor<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.bwd_filter_taps<min_blocks_per_sm = 33>} -> tensor<3x3x32xf32>
  return %r : tensor<3x3x32xf32>
}

// -----

// prefetch: the next step's input and dY segments count too ((25 + 10 + 2
// + 4 + 8) x 4 = 196; without prefetch 164 fit).
func.func @taps_prefetch_registers(%x: tensor<1x8x8x32xf32>, %dy: tensor<1x8x8x32xf32>, %dw: tensor<5x5x32xf32>) -> tensor<5x5x32xf32> {
  // expected-error @+1 {{does not fit this op: (FH x FW + FH x columns + 3 x columns + 2 x (FW - 1)) x vector = 196 f32 registers is more than 192}}
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%dw : tensor<5x5x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.bwd_filter_taps<vector = 4, columns = 2, prefetch = 1>} -> tensor<5x5x32xf32>
  return %r : tensor<5x5x32xf32>
}
