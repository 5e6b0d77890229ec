// Every verifier branch of the channel multiplier (channel_multiplier = M:
// filter, bias and output of C*M channels, input_bias per input channel),
// on the forward, backward-data and backward-filter ops.
// RUN: dwc-opt %s -split-input-file -verify-diagnostics

func.func @zero_multiplier(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{expects a channel_multiplier in [1, 2147483647], got 0}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 0 -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @negative_multiplier(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{expects a channel_multiplier in [1, 2147483647], got -2}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = -2 -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @huge_multiplier(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{expects a channel_multiplier in [1, 2147483647], got 4294967296}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 4294967296 -> tensor<1x8x8x4xf32>
  return
}

// -----

// The filter of M = 2 needs C*M = 8 channels.
func.func @filter_without_multiple(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x8x8x8xf32>) {
  // expected-error @+1 {{filter has 4 channels but the input's 4 channels times channel_multiplier 2 make 8}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x8x8x8xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2 -> tensor<1x8x8x8xf32>
  return
}

// -----

// Without the attribute a filter of 2C channels is an error, not M = 2.
func.func @multiple_without_attribute(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x8xf32>, %i: tensor<1x8x8x8xf32>) {
  // expected-error @+1 {{filter has 8 channels but the input has 4}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x8xf32>) outs(%i : tensor<1x8x8x8xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x8xf32>
  return
}

// -----

func.func @output_of_input_channels(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x12xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{output shape mismatch: expected 1x8x8x12 from the operands and attributes, got 1x8x8x4}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x12xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 3 -> tensor<1x8x8x4xf32>
  return
}

// -----

// The bias is per output channel.
func.func @bias_per_input_channel(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x8xf32>, %b: tensor<4xf32>, %i: tensor<1x8x8x8xf32>) {
  // expected-error @+1 {{expects a bias of shape 8, got 4}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x8xf32>) bias(%b : tensor<4xf32>) outs(%i : tensor<1x8x8x8xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2 -> tensor<1x8x8x8xf32>
  return
}

// -----

// input_bias is per input channel.
func.func @input_bias_per_output_channel(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x8xf32>, %ib: tensor<8xf32>, %i: tensor<1x8x8x8xf32>) {
  // expected-error @+1 {{input_bias has 8 elements, one per output channel, but it applies to the input's 4 channels (channel_multiplier 2)}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x8xf32>) input_bias(%ib : tensor<8xf32>) outs(%i : tensor<1x8x8x8xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2 input_activation = relu -> tensor<1x8x8x8xf32>
  return
}

// -----

func.func @input_bias_other_size(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x8xf32>, %ib: tensor<5xf32>, %i: tensor<1x8x8x8xf32>) {
  // expected-error @+1 {{input_bias has 5 elements but the input has 4 channels}}
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x8xf32>) input_bias(%ib : tensor<5xf32>) outs(%i : tensor<1x8x8x8xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2 -> tensor<1x8x8x8xf32>
  return
}

// -----

func.func @bwd_data_zero_multiplier(%dy: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{expects a channel_multiplier in [1, 2147483647], got 0}}
  %0 = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 0 -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @bwd_data_output_grad_without_multiple(%dy: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{output gradient has 4 channels but the input's 4 channels times channel_multiplier 2 make 8}}
  %0 = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2 -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @bwd_data_filter_of_input_channels(%dy: tensor<1x8x8x8xf32>, %w: tensor<3x3x4xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{filter has 4 channels but the output gradient has 8}}
  %0 = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x8x8x8xf32>, tensor<3x3x4xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2 -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @bwd_data_batch(%dy: tensor<2x8x8x8xf32>, %w: tensor<3x3x8xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{input gradient 1x8x8x4 disagrees with the output gradient 2x8x8x8 in batch or channels}}
  %0 = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<2x8x8x8xf32>, tensor<3x3x8xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2 -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @bwd_data_spatial(%dy: tensor<1x7x8x8xf32>, %w: tensor<3x3x8xf32>, %i: tensor<1x8x8x4xf32>) {
  // expected-error @+1 {{output gradient shape mismatch: expected 1x8x8x8 from the operands and attributes, got 1x7x8x8}}
  %0 = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x7x8x8xf32>, tensor<3x3x8xf32>) outs(%i : tensor<1x8x8x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2 -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @bwd_filter_zero_multiplier(%x: tensor<1x8x8x4xf32>, %dy: tensor<1x8x8x4xf32>, %i: tensor<3x3x4xf32>) {
  // expected-error @+1 {{expects a channel_multiplier in [1, 2147483647], got 0}}
  %0 = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) outs(%i : tensor<3x3x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 0 -> tensor<3x3x4xf32>
  return
}

// -----

func.func @bwd_filter_without_multiple(%x: tensor<1x8x8x4xf32>, %dy: tensor<1x8x8x8xf32>, %i: tensor<3x3x4xf32>) {
  // expected-error @+1 {{filter gradient has 4 channels but the input's 4 channels times channel_multiplier 2 make 8}}
  %0 = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x4xf32>, tensor<1x8x8x8xf32>) outs(%i : tensor<3x3x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2 -> tensor<3x3x4xf32>
  return
}

// -----

func.func @bwd_filter_output_grad(%x: tensor<1x8x8x4xf32>, %dy: tensor<1x8x8x4xf32>, %i: tensor<3x3x8xf32>) {
  // expected-error @+1 {{output gradient shape mismatch: expected 1x8x8x8 from the operands and attributes, got 1x8x8x4}}
  %0 = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) outs(%i : tensor<3x3x8xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2 -> tensor<3x3x8xf32>
  return
}
