// Every verifier branch of the dwc ops, one malformed op per split.
// RUN: dwc-opt %s -split-input-file -verify-diagnostics

func.func @mixed_forms(%x: tensor<1x8x8x4xf32>, %w: memref<3x3x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{expects all operands to be tensors or all to be memrefs}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, memref<3x3x4xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @tensor_without_result(%x: tensor<1x8x8x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{expects one result of the destination's type 'tensor<1x8x8x4xf32>'}}
  dwc.global_avg_pool ins(%x : tensor<1x8x8x4xf32>) outs(%i : tensor<1x8x8x4xf32>)
  return
}

// -----

func.func @memref_with_result(%x: memref<1x8x8x4xf32>, %i: memref<1x1x1x4xf32>) {
  // expected-error @+1 {{expects no result when operating on memrefs}}
  %0 = "dwc.global_avg_pool"(%x, %i) : (memref<1x8x8x4xf32>, memref<1x1x1x4xf32>) -> tensor<1x1x1x4xf32>
  return
}

// -----

func.func @dynamic_shape(%x: tensor<?x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor or memref of f64, f32, f16 or bf16}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<?x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @integer_type(%x: tensor<1x8x8x4xi8>, %i: tensor<1x1x1x4xi8>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor or memref of f32, f16 or bf16}}
  %0 = dwc.global_avg_pool ins(%x : tensor<1x8x8x4xi8>) outs(%i : tensor<1x1x1x4xi8>) -> tensor<1x1x1x4xi8>
  return
}

// -----

func.func @input_rank(%x: tensor<8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{expects input of rank 4 (N x IH x IW x C), got rank 3}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @filter_rank(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x1xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{expects filter of rank 3 (FH x FW x C), got rank 4}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4x1xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @output_rank(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<8x8x4xf32>) {
  // expected-error @+1 {{expects output of rank 4 (N x OH x OW x C), got rank 3}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<8x8x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<8x8x4xf32>
  return
}

// -----

func.func @stride_count(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{expects 2 strides, got 1}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @stride_zero(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{expects positive strides, got [0, 1]}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [0, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @dilation_count(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{expects 2 dilations, got 3}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [1, 1] dilations = [1, 1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @dilation_negative(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{expects positive dilations}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [1, 1] dilations = [1, -2] padding = [1, 1, 1, 1] -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @padding_count(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{expects 4 padding values [top, bottom, left, right], got 2}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1] -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @padding_negative(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x6x8x4xf32>) {
  // expected-error @+1 {{expects non-negative padding}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x6x8x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [-1, 1, 1, 1] -> tensor<1x6x8x4xf32>
  return
}

// -----

func.func @element_types(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf16>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{expects the same element type for input, filter, bias and output, got 'f32' and 'f16'}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf16>) outs(%i : tensor<1x8x8x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @channels(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x8xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{filter has 8 channels but the input has 4}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x8xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @bias_shape(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %b: tensor<5xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{expects a bias of shape 4, got 5}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) bias(%b : tensor<5xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @window_too_large(%x: tensor<1x4x4x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x1x1x4xf32>) {
  // expected-error @+1 {{window 5x5 (dilated) is larger than the padded input 4x4}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x4x4x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x1x1x4xf32>) strides = [1, 1] dilations = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x1x1x4xf32>
  return
}

// -----

func.func @output_shape(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{output shape mismatch: expected 1x4x4x4 from the operands and attributes, got 1x8x8x4}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @acc_type(%x: tensor<1x8x8x4xf16>, %w: tensor<3x3x4xf16>, %i: tensor<1x8x8x4xf16>) {
  // expected-error @+1 {{expects an f32 or f64 accumulation type, got 'f16'}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf16>, tensor<3x3x4xf16>) outs(%i : tensor<1x8x8x4xf16>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] acc = f16 -> tensor<1x8x8x4xf16>
  return
}

// -----

func.func @bwd_data_rank(%dy: tensor<8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{expects output gradient of rank 4 (N x OH x OW x C), got rank 3}}
  %0 = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @bwd_data_types(%dy: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x8x8x4xbf16>) {
  // expected-error @+1 {{expects the same element type for output gradient, filter and input gradient, got 'f32' and 'bf16'}}
  %0 = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x8x8x4xbf16>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x4xbf16>
  return
}

// -----

func.func @bwd_data_channels(%dy: tensor<1x8x8x4xf32>, %w: tensor<3x3x2xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{filter has 2 channels but the output gradient has 4}}
  %0 = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x8x8x4xf32>, tensor<3x3x2xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @bwd_data_batch(%dy: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<2x8x8x4xf32>) {
  // expected-error @+1 {{input gradient 2x8x8x4 disagrees with the output gradient 1x8x8x4 in batch or channels}}
  %0 = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<2x8x8x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<2x8x8x4xf32>
  return
}

// -----

func.func @bwd_data_shape(%dy: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{output gradient shape mismatch: expected 1x6x6x4 from the operands and attributes, got 1x8x8x4}}
  %0 = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @bwd_filter_rank(%x: tensor<1x8x8x4xf32>, %dy: tensor<1x8x8x4xf32>, %i: tensor<3x3xf32>) {
  // expected-error @+1 {{expects filter gradient of rank 3 (FH x FW x C), got rank 2}}
  %0 = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) outs(%i : tensor<3x3xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<3x3xf32>
  return
}

// -----

func.func @bwd_filter_types(%x: tensor<1x8x8x4xf16>, %dy: tensor<1x8x8x4xbf16>, %i: tensor<3x3x4xf32>) {
  // expected-error @+1 {{expects the same element type for input and output gradient, got 'f16' and 'bf16'}}
  %0 = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x4xf16>, tensor<1x8x8x4xbf16>) outs(%i : tensor<3x3x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<3x3x4xf32>
  return
}

// -----

func.func @bwd_filter_dw_type(%x: tensor<1x8x8x4xf16>, %dy: tensor<1x8x8x4xf16>, %i: tensor<3x3x4xbf16>) {
  // expected-error @+1 {{expects a filter gradient of the input's element type or f32, got 'bf16'}}
  %0 = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x4xf16>, tensor<1x8x8x4xf16>) outs(%i : tensor<3x3x4xbf16>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<3x3x4xbf16>
  return
}

// -----

func.func @bwd_filter_channels(%x: tensor<1x8x8x4xf32>, %dy: tensor<1x8x8x4xf32>, %i: tensor<3x3x3xf32>) {
  // expected-error @+1 {{filter gradient has 3 channels but the input has 4}}
  %0 = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) outs(%i : tensor<3x3x3xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<3x3x3xf32>
  return
}

// -----

func.func @bwd_filter_dy_shape(%x: tensor<1x8x8x4xf32>, %dy: tensor<1x7x8x4xf32>, %i: tensor<3x3x4xf32>) {
  // expected-error @+1 {{output gradient shape mismatch: expected 1x8x8x4 from the operands and attributes, got 1x7x8x4}}
  %0 = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x4xf32>, tensor<1x7x8x4xf32>) outs(%i : tensor<3x3x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<3x3x4xf32>
  return
}

// -----

func.func @pool_window_count(%x: tensor<1x8x8x4xf32>, %i: tensor<1x4x4x4xf32>) {
  // expected-error @+1 {{expects a 2-D window, got 3 values}}
  %0 = dwc.pool2d max ins(%x : tensor<1x8x8x4xf32>) outs(%i : tensor<1x4x4x4xf32>) window = [2, 2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @pool_window_zero(%x: tensor<1x8x8x4xf32>, %i: tensor<1x4x4x4xf32>) {
  // expected-error @+1 {{expects a positive window}}
  %0 = dwc.pool2d max ins(%x : tensor<1x8x8x4xf32>) outs(%i : tensor<1x4x4x4xf32>) window = [0, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @pool_rank(%x: tensor<8x8x4xf32>, %i: tensor<1x4x4x4xf32>) {
  // expected-error @+1 {{expects input of rank 4 (N x IH x IW x C), got rank 3}}
  %0 = dwc.pool2d max ins(%x : tensor<8x8x4xf32>) outs(%i : tensor<1x4x4x4xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @pool_stride(%x: tensor<1x8x8x4xf32>, %i: tensor<1x4x4x4xf32>) {
  // expected-error @+1 {{expects positive strides, got [2, -1]}}
  %0 = dwc.pool2d max ins(%x : tensor<1x8x8x4xf32>) outs(%i : tensor<1x4x4x4xf32>) window = [2, 2] strides = [2, -1] padding = [0, 0, 0, 0] -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @pool_types(%x: tensor<1x8x8x4xf32>, %i: tensor<1x4x4x4xf16>) {
  // expected-error @+1 {{expects the same element type for input and output, got 'f32' and 'f16'}}
  %0 = dwc.pool2d max ins(%x : tensor<1x8x8x4xf32>) outs(%i : tensor<1x4x4x4xf16>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x4xf16>
  return
}

// -----

func.func @pool_padding(%x: tensor<1x8x8x4xf32>, %i: tensor<1x6x6x4xf32>) {
  // expected-error @+1 {{expects each padding amount to be smaller than the window along its dimension}}
  %0 = dwc.pool2d max ins(%x : tensor<1x8x8x4xf32>) outs(%i : tensor<1x6x6x4xf32>) window = [2, 2] strides = [2, 2] padding = [2, 2, 0, 0] -> tensor<1x6x6x4xf32>
  return
}

// -----

func.func @pool_window_large(%x: tensor<1x2x8x4xf32>, %i: tensor<1x1x1x4xf32>) {
  // expected-error @+1 {{window 5x5 is larger than the padded input 4x10}}
  %0 = dwc.pool2d max ins(%x : tensor<1x2x8x4xf32>) outs(%i : tensor<1x1x1x4xf32>) window = [5, 5] strides = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x1x1x4xf32>
  return
}

// -----

func.func @pool_max_count_pad(%x: tensor<1x8x8x4xf32>, %i: tensor<1x4x4x4xf32>) {
  // expected-error @+1 {{count_include_pad only applies to avg pooling}}
  %0 = dwc.pool2d max ins(%x : tensor<1x8x8x4xf32>) outs(%i : tensor<1x4x4x4xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] count_include_pad -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @pool_ceil_shape(%x: tensor<1x8x8x4xf32>, %i: tensor<1x3x3x4xf32>) {
  // expected-error @+1 {{output shape mismatch: expected 1x4x4x4 from the operands and attributes, got 1x3x3x4}}
  %0 = dwc.pool2d avg ins(%x : tensor<1x8x8x4xf32>) outs(%i : tensor<1x3x3x4xf32>) window = [3, 3] strides = [2, 2] padding = [0, 0, 0, 0] ceil_mode -> tensor<1x3x3x4xf32>
  return
}

// -----

func.func @pool_acc(%x: tensor<1x8x8x4xbf16>, %i: tensor<1x4x4x4xbf16>) {
  // expected-error @+1 {{expects an f32 or f64 accumulation type, got 'bf16'}}
  %0 = dwc.pool2d avg ins(%x : tensor<1x8x8x4xbf16>) outs(%i : tensor<1x4x4x4xbf16>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] acc = bf16 -> tensor<1x4x4x4xbf16>
  return
}

// -----

func.func @gap_rank(%x: tensor<1x8x8x4xf32>, %i: tensor<1x4xf32>) {
  // expected-error @+1 {{expects output of rank 4 (N x 1 x 1 x C), got rank 2}}
  %0 = dwc.global_avg_pool ins(%x : tensor<1x8x8x4xf32>) outs(%i : tensor<1x4xf32>) -> tensor<1x4xf32>
  return
}

// -----

func.func @gap_shape(%x: tensor<1x8x8x4xf32>, %i: tensor<1x1x1x8xf32>) {
  // expected-error @+1 {{output shape mismatch: expected 1x1x1x4 from the operands and attributes, got 1x1x1x8}}
  %0 = dwc.global_avg_pool ins(%x : tensor<1x8x8x4xf32>) outs(%i : tensor<1x1x1x8xf32>) -> tensor<1x1x1x8xf32>
  return
}

// -----

func.func @gap_types(%x: tensor<1x8x8x4xf32>, %i: tensor<1x1x1x4xf16>) {
  // expected-error @+1 {{expects the same element type for input and output, got 'f32' and 'f16'}}
  %0 = dwc.global_avg_pool ins(%x : tensor<1x8x8x4xf32>) outs(%i : tensor<1x1x1x4xf16>) -> tensor<1x1x1x4xf16>
  return
}

// -----

func.func @gap_acc(%x: tensor<1x8x8x4xf16>, %i: tensor<1x1x1x4xf16>) {
  // expected-error @+1 {{expects an f32 or f64 accumulation type, got 'f16'}}
  %0 = dwc.global_avg_pool ins(%x : tensor<1x8x8x4xf16>) outs(%i : tensor<1x1x1x4xf16>) acc = f16 -> tensor<1x1x1x4xf16>
  return
}

// -----

func.func @im2win_rank(%x: tensor<1x8x8x3xf32>, %r: tensor<1x6x8x9xf32>) {
  // expected-error @+1 {{expects output of rank 5 (N x OH x IWp x FH x C), got rank 4}}
  %0 = dwc.im2win ins(%x : tensor<1x8x8x3xf32>) outs(%r : tensor<1x6x8x9xf32>) window = [3, 3] strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x6x8x9xf32>
  return
}

// -----

func.func @im2win_window_count(%x: tensor<1x8x8x3xf32>, %r: tensor<1x6x8x3x3xf32>) {
  // expected-error @+1 {{expects a 2-D window, got 1 values}}
  %0 = dwc.im2win ins(%x : tensor<1x8x8x3xf32>) outs(%r : tensor<1x6x8x3x3xf32>) window = [3] strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x6x8x3x3xf32>
  return
}

// -----

func.func @im2win_window_zero(%x: tensor<1x8x8x3xf32>, %r: tensor<1x6x8x3x3xf32>) {
  // expected-error @+1 {{expects a positive window}}
  %0 = dwc.im2win ins(%x : tensor<1x8x8x3xf32>) outs(%r : tensor<1x6x8x3x3xf32>) window = [3, 0] strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x6x8x3x3xf32>
  return
}

// -----

func.func @im2win_padding(%x: tensor<1x8x8x3xf32>, %r: tensor<1x6x8x3x3xf32>) {
  // expected-error @+1 {{expects non-negative padding}}
  %0 = dwc.im2win ins(%x : tensor<1x8x8x3xf32>) outs(%r : tensor<1x6x8x3x3xf32>) window = [3, 3] strides = [1, 1] dilations = [1, 1] padding = [0, 0, -1, 0] -> tensor<1x6x8x3x3xf32>
  return
}

// -----

func.func @im2win_types(%x: tensor<1x8x8x3xf32>, %r: tensor<1x6x8x3x3xf16>) {
  // expected-error @+1 {{expects the same element type for input and output, got 'f32' and 'f16'}}
  %0 = dwc.im2win ins(%x : tensor<1x8x8x3xf32>) outs(%r : tensor<1x6x8x3x3xf16>) window = [3, 3] strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x6x8x3x3xf16>
  return
}

// -----

func.func @im2win_window_large(%x: tensor<1x8x8x3xf32>, %r: tensor<1x1x8x9x3xf32>) {
  // expected-error @+1 {{window 9x3 (dilated) is larger than the padded input 8x8}}
  %0 = dwc.im2win ins(%x : tensor<1x8x8x3xf32>) outs(%r : tensor<1x1x8x9x3xf32>) window = [9, 3] strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x1x8x9x3xf32>
  return
}

// -----

func.func @im2win_shape(%x: tensor<1x8x8x3xf32>, %r: tensor<1x6x8x3x3xf32>) {
  // expected-error @+1 {{output shape mismatch: expected 1x6x10x3x3 from the operands and attributes, got 1x6x8x3x3}}
  %0 = dwc.im2win ins(%x : tensor<1x8x8x3xf32>) outs(%r : tensor<1x6x8x3x3xf32>) window = [3, 3] strides = [1, 1] dilations = [1, 1] padding = [0, 0, 1, 1] -> tensor<1x6x8x3x3xf32>
  return
}

// -----

func.func @conv_filter_rank(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3xf32>, %y: tensor<1x8x8x16xf32>) {
  // expected-error @+1 {{expects filter of rank 4 (FH x FW x C x OC), got rank 3}}
  %0 = dwc.conv2d ins(%x, %w : tensor<1x8x8x3xf32>, tensor<3x3x3xf32>) outs(%y : tensor<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf32>
  return
}

// -----

func.func @conv_stride(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>, %y: tensor<1x8x8x16xf32>) {
  // expected-error @+1 {{expects 2 strides, got 0}}
  %0 = dwc.conv2d ins(%x, %w : tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) outs(%y : tensor<1x8x8x16xf32>) strides = [] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf32>
  return
}

// -----

func.func @conv_types(%x: tensor<1x8x8x3xbf16>, %w: tensor<3x3x3x16xf16>, %y: tensor<1x8x8x16xbf16>) {
  // expected-error @+1 {{expects the same element type for input, filter, bias and output, got 'bf16' and 'f16'}}
  %0 = dwc.conv2d ins(%x, %w : tensor<1x8x8x3xbf16>, tensor<3x3x3x16xf16>) outs(%y : tensor<1x8x8x16xbf16>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xbf16>
  return
}

// -----

func.func @conv_channels(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x4x16xf32>, %y: tensor<1x8x8x16xf32>) {
  // expected-error @+1 {{filter has 4 input channels but the input has 3}}
  %0 = dwc.conv2d ins(%x, %w : tensor<1x8x8x3xf32>, tensor<3x3x4x16xf32>) outs(%y : tensor<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf32>
  return
}

// -----

func.func @conv_bias(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>, %b: tensor<3xf32>, %y: tensor<1x8x8x16xf32>) {
  // expected-error @+1 {{expects a bias of shape 16, got 3}}
  %0 = dwc.conv2d ins(%x, %w : tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) bias(%b : tensor<3xf32>) outs(%y : tensor<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf32>
  return
}

// -----

func.func @conv_window(%x: tensor<1x2x2x3xf32>, %w: tensor<3x3x3x16xf32>, %y: tensor<1x1x1x16xf32>) {
  // expected-error @+1 {{window 3x3 (dilated) is larger than the padded input 2x2}}
  %0 = dwc.conv2d ins(%x, %w : tensor<1x2x2x3xf32>, tensor<3x3x3x16xf32>) outs(%y : tensor<1x1x1x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x1x1x16xf32>
  return
}

// -----

func.func @conv_shape(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>, %y: tensor<1x8x8x8xf32>) {
  // expected-error @+1 {{output shape mismatch: expected 1x8x8x16 from the operands and attributes, got 1x8x8x8}}
  %0 = dwc.conv2d ins(%x, %w : tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) outs(%y : tensor<1x8x8x8xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x8xf32>
  return
}

// -----

func.func @conv_acc(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>, %y: tensor<1x8x8x16xf32>) {
  // expected-error @+1 {{expects an f32 or f64 accumulation type, got 'bf16'}}
  %0 = dwc.conv2d ins(%x, %w : tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) outs(%y : tensor<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] acc = bf16 -> tensor<1x8x8x16xf32>
  return
}

// -----

func.func @bwd_data_window(%dy: tensor<1x1x1x4xf32>, %w: tensor<5x5x4xf32>, %i: tensor<1x2x2x4xf32>) {
  // expected-error @+1 {{window 5x5 (dilated) is larger than the padded input 2x2}}
  %0 = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x1x1x4xf32>, tensor<5x5x4xf32>) outs(%i : tensor<1x2x2x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x2x2x4xf32>
  return
}

// -----

func.func @bwd_data_acc(%dy: tensor<1x8x8x4xf16>, %w: tensor<3x3x4xf16>, %i: tensor<1x8x8x4xf16>) {
  // expected-error @+1 {{expects an f32 or f64 accumulation type, got 'f16'}}
  %0 = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x8x8x4xf16>, tensor<3x3x4xf16>) outs(%i : tensor<1x8x8x4xf16>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] acc = f16 -> tensor<1x8x8x4xf16>
  return
}

// -----

func.func @bwd_filter_window(%x: tensor<1x2x2x4xf32>, %dy: tensor<1x1x1x4xf32>, %i: tensor<5x5x4xf32>) {
  // expected-error @+1 {{window 5x5 (dilated) is larger than the padded input 2x2}}
  %0 = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x2x2x4xf32>, tensor<1x1x1x4xf32>) outs(%i : tensor<5x5x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] -> tensor<5x5x4xf32>
  return
}

// -----

func.func @pool_bwd_rank(%x: tensor<1x8x8x4xf32>, %dy: tensor<4x4x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{expects output gradient of rank 4 (N x OH x OW x C), got rank 3}}
  %0 = dwc.pool2d_backward max ins(%x, %dy : tensor<1x8x8x4xf32>, tensor<4x4x4xf32>) outs(%i : tensor<1x8x8x4xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @pool_bwd_types(%x: tensor<1x8x8x4xf32>, %dy: tensor<1x4x4x4xf16>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{expects the same element type for input, output gradient and input gradient, got 'f32' and 'f16'}}
  %0 = dwc.pool2d_backward max ins(%x, %dy : tensor<1x8x8x4xf32>, tensor<1x4x4x4xf16>) outs(%i : tensor<1x8x8x4xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @pool_bwd_dx_shape(%x: tensor<1x8x8x4xf32>, %dy: tensor<1x4x4x4xf32>, %i: tensor<1x8x7x4xf32>) {
  // expected-error @+1 {{input gradient shape 1x8x7x4 differs from the input shape 1x8x8x4}}
  %0 = dwc.pool2d_backward max ins(%x, %dy : tensor<1x8x8x4xf32>, tensor<1x4x4x4xf32>) outs(%i : tensor<1x8x7x4xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x8x7x4xf32>
  return
}

// -----

func.func @pool_bwd_window(%x: tensor<1x8x8x4xf32>, %dy: tensor<1x4x4x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{expects a positive window}}
  %0 = dwc.pool2d_backward avg ins(%x, %dy : tensor<1x8x8x4xf32>, tensor<1x4x4x4xf32>) outs(%i : tensor<1x8x8x4xf32>) window = [2, -2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @pool_bwd_dy_shape(%x: tensor<1x8x8x4xf32>, %dy: tensor<1x3x4x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{output gradient shape mismatch: expected 1x4x4x4 from the operands and attributes, got 1x3x4x4}}
  %0 = dwc.pool2d_backward avg ins(%x, %dy : tensor<1x8x8x4xf32>, tensor<1x3x4x4xf32>) outs(%i : tensor<1x8x8x4xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @pool_bwd_max_count_pad(%x: tensor<1x8x8x4xf32>, %dy: tensor<1x4x4x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{count_include_pad only applies to avg pooling}}
  %0 = dwc.pool2d_backward max ins(%x, %dy : tensor<1x8x8x4xf32>, tensor<1x4x4x4xf32>) outs(%i : tensor<1x8x8x4xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] count_include_pad -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @pool_bwd_acc(%x: tensor<1x8x8x4xf16>, %dy: tensor<1x4x4x4xf16>, %i: tensor<1x8x8x4xf16>) {
  // expected-error @+1 {{expects an f32 or f64 accumulation type, got 'f16'}}
  %0 = dwc.pool2d_backward avg ins(%x, %dy : tensor<1x8x8x4xf16>, tensor<1x4x4x4xf16>) outs(%i : tensor<1x8x8x4xf16>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] acc = f16 -> tensor<1x8x8x4xf16>
  return
}

// -----

// f64 is a depthwise-convolution element type only.
func.func @pool_f64(%x: tensor<1x8x8x4xf64>, %i: tensor<1x4x4x4xf64>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor or memref of f32, f16 or bf16}}
  %0 = dwc.pool2d max ins(%x : tensor<1x8x8x4xf64>) outs(%i : tensor<1x4x4x4xf64>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x4xf64>
  return
}

// -----

func.func @depthwise_f64_acc_f32(%x: tensor<1x8x8x4xf64>, %w: tensor<3x3x4xf64>, %i: tensor<1x8x8x4xf64>) {
  // expected-error @+1 {{expects the f64 accumulation type for f64 elements, got 'f32'}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf64>, tensor<3x3x4xf64>) outs(%i : tensor<1x8x8x4xf64>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] acc = f32 -> tensor<1x8x8x4xf64>
  return
}

// -----

func.func @backward_data_f64_acc_f32(%dy: tensor<1x8x8x4xf64>, %w: tensor<3x3x4xf64>, %i: tensor<1x8x8x4xf64>) {
  // expected-error @+1 {{expects the f64 accumulation type for f64 elements, got 'f32'}}
  %0 = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x8x8x4xf64>, tensor<3x3x4xf64>) outs(%i : tensor<1x8x8x4xf64>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] acc = f32 -> tensor<1x8x8x4xf64>
  return
}

// -----

func.func @depthwise_f64_mixed(%x: tensor<1x8x8x4xf64>, %w: tensor<3x3x4xf32>, %i: tensor<1x8x8x4xf64>) {
  // expected-error @+1 {{expects the same element type for input, filter, bias and output, got 'f64' and 'f32'}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf64>, tensor<3x3x4xf32>) outs(%i : tensor<1x8x8x4xf64>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x4xf64>
  return
}

// -----

func.func @backward_filter_f64_to_f16(%x: tensor<1x8x8x4xf64>, %dy: tensor<1x8x8x4xf64>, %i: tensor<3x3x4xf16>) {
  // expected-error @+1 {{expects a filter gradient of the input's element type or f32, got 'f16'}}
  %0 = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x4xf64>, tensor<1x8x8x4xf64>) outs(%i : tensor<3x3x4xf16>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<3x3x4xf16>
  return
}

// -----

func.func @cp_mixed_forms(%x: tensor<1x8x8x4xf32>, %w: memref<3x3x4xf32>, %i: tensor<1x4x4x4xf32>) {
  // expected-error @+1 {{expects all operands to be tensors or all to be memrefs}}
  %0 = dwc.depthwise_conv2d_pool2d max ins(%x, %w : tensor<1x8x8x4xf32>, memref<3x3x4xf32>) outs(%i : tensor<1x4x4x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0] -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @cp_memref_result(%x: memref<1x8x8x4xf32>, %w: memref<3x3x4xf32>, %i: memref<1x4x4x4xf32>) {
  // expected-error @+1 {{expects no result when operating on memrefs}}
  %0 = dwc.depthwise_conv2d_pool2d max ins(%x, %w : memref<1x8x8x4xf32>, memref<3x3x4xf32>) outs(%i : memref<1x4x4x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0] -> tensor<1x4x4x4xf32>
  return
}

// -----

// The convolution intermediate of a fused op obeys the operand bounds (the
// pipelines materialise it when they split the op).
func.func @cp_intermediate_elements(%x: tensor<1x2147483647x1x1xf32>, %w: tensor<1x1x1xf32>, %i: tensor<1x1x1x1xf32>) {
  // expected-error @+1 {{expects a convolution intermediate of at most 2^40 elements, got 1x2147483647x2147483647x1}}
  %0 = dwc.depthwise_conv2d_pool2d max ins(%x, %w : tensor<1x2147483647x1x1xf32>, tensor<1x1x1xf32>) outs(%i : tensor<1x1x1x1xf32>) strides = [1, 1] dilations = [1, 1] padding = [0, 0, 1073741823, 1073741823] window = [2147483647, 2147483647] pool_strides = [1, 1] pool_padding = [0, 0, 0, 0] -> tensor<1x1x1x1xf32>
  return
}

// -----

func.func @cp_intermediate_extent(%x: tensor<1x1x1x1xf32>, %w: tensor<1x1x1xf32>, %i: tensor<1x1x2x1xf32>) {
  // expected-error @+1 {{expects a convolution intermediate with dimensions of at most 2147483647, got 1x1x4294967295x1}}
  %0 = dwc.depthwise_conv2d_pool2d max ins(%x, %w : tensor<1x1x1x1xf32>, tensor<1x1x1xf32>) outs(%i : tensor<1x1x2x1xf32>) strides = [1, 1] dilations = [1, 1] padding = [0, 0, 2147483647, 2147483647] window = [1, 2147483647] pool_strides = [1, 2147483647] pool_padding = [0, 0, 0, 0] -> tensor<1x1x2x1xf32>
  return
}

// -----

func.func @cp_input_rank(%x: tensor<8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x4x4x4xf32>) {
  // expected-error @+1 {{expects input of rank 4 (N x IH x IW x C), got rank 3}}
  %0 = dwc.depthwise_conv2d_pool2d max ins(%x, %w : tensor<8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x4x4x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0] -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @cp_filter_rank(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3xf32>, %i: tensor<1x4x4x4xf32>) {
  // expected-error @+1 {{expects filter of rank 3 (FH x FW x C), got rank 2}}
  %0 = dwc.depthwise_conv2d_pool2d max ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3xf32>) outs(%i : tensor<1x4x4x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0] -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @cp_output_rank(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<4x4x4xf32>) {
  // expected-error @+1 {{expects output of rank 4 (N x PH x PW x C), got rank 3}}
  %0 = dwc.depthwise_conv2d_pool2d max ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<4x4x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0] -> tensor<4x4x4xf32>
  return
}

// -----

func.func @cp_conv_strides(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x4x4x4xf32>) {
  // expected-error @+1 {{expects 2 strides, got 1}}
  %0 = dwc.depthwise_conv2d_pool2d max ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x4x4x4xf32>) strides = [1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0] -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @cp_elem_types(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf16>, %i: tensor<1x4x4x4xf32>) {
  // expected-error @+1 {{expects the same element type for input, filter, bias and output}}
  %0 = dwc.depthwise_conv2d_pool2d max ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf16>) outs(%i : tensor<1x4x4x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0] -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @cp_filter_channels(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x8xf32>, %i: tensor<1x4x4x4xf32>) {
  // expected-error @+1 {{filter has 8 channels but the input has 4}}
  %0 = dwc.depthwise_conv2d_pool2d max ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x8xf32>) outs(%i : tensor<1x4x4x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0] -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @cp_bias_shape(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %b: tensor<8xf32>, %i: tensor<1x4x4x4xf32>) {
  // expected-error @+1 {{expects a bias of shape 4, got 8}}
  %0 = dwc.depthwise_conv2d_pool2d max ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) bias(%b : tensor<8xf32>) outs(%i : tensor<1x4x4x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0] -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @cp_filter_too_big(%x: tensor<1x4x4x4xf32>, %w: tensor<9x9x4xf32>, %i: tensor<1x1x1x4xf32>) {
  // expected-error @+1 {{window 9x9 (dilated) is larger than the padded input 6x6}}
  %0 = dwc.depthwise_conv2d_pool2d max ins(%x, %w : tensor<1x4x4x4xf32>, tensor<9x9x4xf32>) outs(%i : tensor<1x1x1x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0] -> tensor<1x1x1x4xf32>
  return
}

// -----

func.func @cp_pool_window_count(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x4x4x4xf32>) {
  // expected-error @+1 {{expects a 2-D window, got 1 values}}
  %0 = dwc.depthwise_conv2d_pool2d max ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x4x4x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0] -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @cp_pool_strides(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x4x4x4xf32>) {
  // expected-error @+1 {{expects positive strides, got [2, 0]}}
  %0 = dwc.depthwise_conv2d_pool2d max ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x4x4x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 0] pool_padding = [0, 0, 0, 0] -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @cp_pool_padding(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x4x4x4xf32>) {
  // expected-error @+1 {{expects each padding amount to be smaller than the window along its dimension}}
  %0 = dwc.depthwise_conv2d_pool2d max ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x4x4x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [2, 0, 0, 0] -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @cp_pool_window_big(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x1x1x4xf32>) {
  // expected-error @+1 {{window 9x9 is larger than the padded input 6x6}}
  %0 = dwc.depthwise_conv2d_pool2d max ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x1x1x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] window = [9, 9] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0] -> tensor<1x1x1x4xf32>
  return
}

// -----

func.func @cp_max_count_include_pad(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x4x4x4xf32>) {
  // expected-error @+1 {{count_include_pad only applies to avg pooling}}
  %0 = dwc.depthwise_conv2d_pool2d max ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x4x4x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0] count_include_pad -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @cp_output_shape(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x3x4x4xf32>) {
  // expected-error @+1 {{output shape mismatch: expected 1x4x4x4 from the operands and attributes, got 1x3x4x4}}
  %0 = dwc.depthwise_conv2d_pool2d max ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x3x4x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0] -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @cp_acc_type(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x4x4x4xf32>) {
  // expected-error @+1 {{expects an f32 or f64 accumulation type, got 'f16'}}
  %0 = dwc.depthwise_conv2d_pool2d avg ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x4x4x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0] acc = f16 -> tensor<1x4x4x4xf32>
  return
}

// -----

// Attribute values that would overflow the window arithmetic (a dilation of
// 2^63 - 1 used to verify and read out of bounds on the GPU).
func.func @dilation_overflow(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x10x8x4xf32>) {
  // expected-error @+1 {{expects dilations of at most 2147483647, got [9223372036854775807, 1]}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x10x8x4xf32>) strides = [1, 1] dilations = [9223372036854775807, 1] padding = [0, 0, 1, 1] -> tensor<1x10x8x4xf32>
  return
}

// -----

// 4 * 4611686018427387905 + 1 wraps to 5: verified as if the dilation were 1.
func.func @dilation_wraps(%x: tensor<1x8x8x4xf32>, %w: tensor<5x1x4xf32>, %i: tensor<1x4x8x4xf32>) {
  // expected-error @+1 {{expects dilations of at most 2147483647, got [4611686018427387905, 1]}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<5x1x4xf32>) outs(%i : tensor<1x4x8x4xf32>) strides = [1, 1] dilations = [4611686018427387905, 1] padding = [0, 0, 0, 0] -> tensor<1x4x8x4xf32>
  return
}

// -----

func.func @stride_bound(%dy: tensor<1x1x1x4xf32>, %w: tensor<1x1x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{expects strides of at most 2147483647, got [4294967296, 1]}}
  %0 = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x1x1x4xf32>, tensor<1x1x4xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [4294967296, 1] dilations = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @padding_bound(%x: tensor<1x8x8x4xf32>, %dy: tensor<1x8x8x4xf32>, %i: tensor<1x1x4xf32>) {
  // expected-error @+1 {{expects padding of at most 2147483647}}
  %0 = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) outs(%i : tensor<1x1x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [9223372036854775807, 0, 0, 0] -> tensor<1x1x4xf32>
  return
}

// -----

func.func @pool_window_bound(%x: tensor<1x8x8x4xf32>, %i: tensor<1x1x1x4xf32>) {
  // expected-error @+1 {{expects window of at most 2147483647, got [9223372036854775807, 1]}}
  %0 = dwc.pool2d max ins(%x : tensor<1x8x8x4xf32>) outs(%i : tensor<1x1x1x4xf32>) window = [9223372036854775807, 1] strides = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x1x1x4xf32>
  return
}

// -----

func.func @pool_backward_stride_bound(%x: tensor<1x8x8x4xf32>, %dy: tensor<1x1x1x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{expects strides of at most 2147483647, got [4611686018427387904, 1]}}
  %0 = dwc.pool2d_backward max ins(%x, %dy : tensor<1x8x8x4xf32>, tensor<1x1x1x4xf32>) outs(%i : tensor<1x8x8x4xf32>) window = [2, 2] strides = [4611686018427387904, 1] padding = [0, 0, 0, 0] -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @im2win_window_bound(%x: tensor<1x8x8x4xf32>, %i: tensor<1x8x8x3x4xf32>) {
  // expected-error @+1 {{expects window of at most 2147483647}}
  %0 = dwc.im2win ins(%x : tensor<1x8x8x4xf32>) outs(%i : tensor<1x8x8x3x4xf32>) window = [3, 4294967296] strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x8x8x3x4xf32>
  return
}

// -----

// Empty operands (C = 0 used to end in a division by zero in the GPU
// lowering of global_avg_pool).
func.func @empty_channels(%x: tensor<1x8x8x0xf32>, %i: tensor<1x1x1x0xf32>) {
  // expected-error @+1 {{expects operands without empty dimensions, got 'tensor<1x8x8x0xf32>'}}
  %0 = dwc.global_avg_pool ins(%x : tensor<1x8x8x0xf32>) outs(%i : tensor<1x1x1x0xf32>) -> tensor<1x1x1x0xf32>
  return
}

// -----

func.func @extent_bound(%x: memref<1x4294967296x1x1xf32>, %i: memref<1x1x1x1xf32>) {
  // expected-error @+1 {{expects dimensions of at most 2147483647, got 'memref<1x4294967296x1x1xf32>'}}
  dwc.global_avg_pool ins(%x : memref<1x4294967296x1x1xf32>) outs(%i : memref<1x1x1x1xf32>)
  return
}

// -----

// N*H*W*C beyond 2^63 used to compile to a grid of 0 blocks.
func.func @element_bound(%x: memref<2147483647x2147483647x2147483647x2xf32>, %i: memref<2147483647x1x1x2xf32>) {
  // expected-error @+1 {{expects operands of at most 2^40 elements, got 'memref<2147483647x2147483647x2147483647x2xf32>'}}
  dwc.global_avg_pool ins(%x : memref<2147483647x2147483647x2147483647x2xf32>) outs(%i : memref<2147483647x1x1x2xf32>)
  return
}

// -----

func.func @bias_grad_rank(%dy: tensor<1x8x8x4xf32>, %i: tensor<1x4xf32>) {
  // expected-error @+1 {{expects bias gradient of rank 1 (C), got rank 2}}
  %0 = dwc.conv2d_backward_bias ins(%dy : tensor<1x8x8x4xf32>) outs(%i : tensor<1x4xf32>) -> tensor<1x4xf32>
  return
}

// -----

func.func @bias_grad_dy_rank(%dy: tensor<8x8x4xf32>, %i: tensor<4xf32>) {
  // expected-error @+1 {{expects output gradient of rank 4 (N x OH x OW x C), got rank 3}}
  %0 = dwc.conv2d_backward_bias ins(%dy : tensor<8x8x4xf32>) outs(%i : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @bias_grad_channels(%dy: tensor<1x8x8x4xf32>, %i: tensor<8xf32>) {
  // expected-error @+1 {{bias gradient shape mismatch: expected 4 from the operands and attributes, got 8}}
  %0 = dwc.conv2d_backward_bias ins(%dy : tensor<1x8x8x4xf32>) outs(%i : tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @bias_grad_type(%dy: tensor<1x8x8x4xf32>, %i: tensor<4xf16>) {
  // expected-error @+1 {{expects a bias gradient of the output gradient's element type or f32, got 'f16'}}
  %0 = dwc.conv2d_backward_bias ins(%dy : tensor<1x8x8x4xf32>) outs(%i : tensor<4xf16>) -> tensor<4xf16>
  return
}

// -----

func.func @bias_grad_no_result(%dy: tensor<1x8x8x4xf32>, %i: tensor<4xf32>) {
  // expected-error @+1 {{expects one result of the destination's type 'tensor<4xf32>'}}
  dwc.conv2d_backward_bias ins(%dy : tensor<1x8x8x4xf32>) outs(%i : tensor<4xf32>)
  return
}
