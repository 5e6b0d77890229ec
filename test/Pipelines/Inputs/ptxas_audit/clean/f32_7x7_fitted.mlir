// The f32 7x7 default on a 28 x 28 map (fitted strips, 2 x 4 x 7): no spill.
func.func @fwd_f32_7x7_fitted(%x: tensor<64x28x28x192xf32>, %w: tensor<7x7x192xf32>) -> tensor<64x28x28x192xf32> {
  %init = tensor.empty() : tensor<64x28x28x192xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<64x28x28x192xf32>, tensor<7x7x192xf32>)
    outs(%init : tensor<64x28x28x192xf32>) strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
    -> tensor<64x28x28x192xf32>
  return %y : tensor<64x28x28x192xf32>
}
