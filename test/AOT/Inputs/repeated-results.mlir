// One dwc result returned twice, and an argument returned: each result is
// an output buffer of its own in the entry point.
func.func @twice(%x: tensor<1x8x8x8xf32>) -> (tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) {
  %i = tensor.empty() : tensor<1x4x4x8xf32>
  %r = dwc.pool2d max ins(%x : tensor<1x8x8x8xf32>) outs(%i : tensor<1x4x4x8xf32>)
         window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x8xf32>
  return %r, %r : tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>
}

func.func @passthrough(%x: tensor<1x8x8x8xf32>) -> (tensor<1x4x4x8xf32>, tensor<1x8x8x8xf32>) {
  %i = tensor.empty() : tensor<1x4x4x8xf32>
  %r = dwc.pool2d avg ins(%x : tensor<1x8x8x8xf32>) outs(%i : tensor<1x4x4x8xf32>)
         window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x8xf32>
  return %r, %x : tensor<1x4x4x8xf32>, tensor<1x8x8x8xf32>
}
