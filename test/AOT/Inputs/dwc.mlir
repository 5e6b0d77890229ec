// Tensor-level dwc functions compiled by dwc-aot (dwc-to-nvvm pipeline) in
// the AOT tests: a depthwise convolution with bias and a max pooling.
func.func @depthwise(%x: tensor<2x12x12x64xf32>, %w: tensor<3x3x64xf32>,
                     %b: tensor<64xf32>) -> tensor<2x12x12x64xf32> {
  %i = tensor.empty() : tensor<2x12x12x64xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<2x12x12x64xf32>, tensor<3x3x64xf32>)
         bias(%b : tensor<64xf32>) outs(%i : tensor<2x12x12x64xf32>)
         strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<2x12x12x64xf32>
  return %y : tensor<2x12x12x64xf32>
}

func.func @maxpool(%x: tensor<2x12x12x64xf32>) -> tensor<2x6x6x64xf32> {
  %i = tensor.empty() : tensor<2x6x6x64xf32>
  %y = dwc.pool2d max ins(%x : tensor<2x12x12x64xf32>) outs(%i : tensor<2x6x6x64xf32>)
         window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<2x6x6x64xf32>
  return %y : tensor<2x6x6x64xf32>
}
