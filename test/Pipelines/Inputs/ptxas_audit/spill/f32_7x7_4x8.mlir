// The f32 7x7 tile the fitted strips replaced (2 x 4 x 8 on a 28-wide map):
// spills at 255 registers.
func.func @fwd_f32_7x7_4x8(%x: tensor<64x28x28x192xf32>, %w: tensor<7x7x192xf32>) -> tensor<64x28x28x192xf32> {
  %init = tensor.empty() : tensor<64x28x28x192xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<64x28x28x192xf32>, tensor<7x7x192xf32>)
    outs(%init : tensor<64x28x28x192xf32>) strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
    {dwc.kernel = #dwc.row_tile<columns = 8>} -> tensor<64x28x28x192xf32>
  return %y : tensor<64x28x28x192xf32>
}
