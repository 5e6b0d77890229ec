func.func @g(%x: tensor<1x8x8x8xf32>, %w: tensor<3x3x8xf32>, %i: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x8xf32>, tensor<3x3x8xf32>) outs(%i : tensor<1x8x8x8xf32>)
         strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}
func.func @dwc_g(%x: tensor<1x8x8x8xf32>, %w: tensor<3x3x8xf32>, %i: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x8xf32>, tensor<3x3x8xf32>) outs(%i : tensor<1x8x8x8xf32>)
         strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}
