func.func @f(%x: tensor<1x8x8x8xf16>, %w: tensor<3x3x8xf16>, %i: tensor<1x8x8x8xf16>) -> tensor<1x8x8x8xf16> {
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x8xf16>, tensor<3x3x8xf16>) outs(%i : tensor<1x8x8x8xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x8xf16>
  return %0 : tensor<1x8x8x8xf16>
}
