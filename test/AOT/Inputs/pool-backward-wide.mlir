// Pooling gradients whose windows are too wide for the gather strips
// (they take the rolled gather): the functions of pool-backward-wide-gpu.test.

func.func @max7x28(%x: tensor<1x20x40x8xf32>, %dy: tensor<1x14x13x8xf32>) -> tensor<1x20x40x8xf32> {
  %i = tensor.empty() : tensor<1x20x40x8xf32>
  %r = dwc.pool2d_backward max ins(%x, %dy : tensor<1x20x40x8xf32>, tensor<1x14x13x8xf32>) outs(%i : tensor<1x20x40x8xf32>)
         window = [7, 28] strides = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x20x40x8xf32>
  return %r : tensor<1x20x40x8xf32>
}

func.func @avg7x200(%x: tensor<1x10x210x8xf32>, %dy: tensor<1x4x11x8xf32>) -> tensor<1x10x210x8xf32> {
  %i = tensor.empty() : tensor<1x10x210x8xf32>
  %r = dwc.pool2d_backward avg ins(%x, %dy : tensor<1x10x210x8xf32>, tensor<1x4x11x8xf32>) outs(%i : tensor<1x10x210x8xf32>)
         window = [7, 200] strides = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x10x210x8xf32>
  return %r : tensor<1x10x210x8xf32>
}

func.func @maxpad(%x: tensor<2x17x50x4xf32>, %dy: tensor<2x8x9x4xf32>) -> tensor<2x17x50x4xf32> {
  %i = tensor.empty() : tensor<2x17x50x4xf32>
  %r = dwc.pool2d_backward max ins(%x, %dy : tensor<2x17x50x4xf32>, tensor<2x8x9x4xf32>) outs(%i : tensor<2x17x50x4xf32>)
         window = [5, 40] strides = [2, 3] padding = [2, 1, 10, 5] -> tensor<2x17x50x4xf32>
  return %r : tensor<2x17x50x4xf32>
}

func.func @avgpad(%x: tensor<2x17x50x4xf32>, %dy: tensor<2x8x9x4xf32>) -> tensor<2x17x50x4xf32> {
  %i = tensor.empty() : tensor<2x17x50x4xf32>
  %r = dwc.pool2d_backward avg ins(%x, %dy : tensor<2x17x50x4xf32>, tensor<2x8x9x4xf32>) outs(%i : tensor<2x17x50x4xf32>)
         window = [5, 40] strides = [2, 3] padding = [2, 1, 10, 5] count_include_pad -> tensor<2x17x50x4xf32>
  return %r : tensor<2x17x50x4xf32>
}

func.func @maxstored(%x: tensor<1x8x80x8xf32>, %dy: tensor<1x6x41x8xf32>) -> tensor<1x8x80x8xf32> {
  %i = tensor.empty() : tensor<1x8x80x8xf32>
  %r = dwc.pool2d_backward max ins(%x, %dy : tensor<1x8x80x8xf32>, tensor<1x6x41x8xf32>) outs(%i : tensor<1x8x80x8xf32>)
         window = [3, 40] strides = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_backward<rows = 1, columns = 64, argmax = "stored", argmax_columns = 1>} -> tensor<1x8x80x8xf32>
  return %r : tensor<1x8x80x8xf32>
}
