// A 16-bit 3x3 row tile: no spill.
func.func @fwd_f16_3x3(%x: tensor<64x56x56x144xf16>, %w: tensor<3x3x144xf16>) -> tensor<64x56x56x144xf16> {
  %init = tensor.empty() : tensor<64x56x56x144xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<64x56x56x144xf16>, tensor<3x3x144xf16>)
    outs(%init : tensor<64x56x56x144xf16>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
    -> tensor<64x56x56x144xf16>
  return %y : tensor<64x56x56x144xf16>
}
