// A ConvNeXt-style block's dwc ops on one 56x56x96 image: the 7x7 depthwise
// convolution with bias (padding 3), a 3x3 stride-2 max pool (padding 1) and
// a global average pool. Tensor level; examples/run_cpu.py wraps it with
// inputs and runs it on the CPU reference path (dwc-opt --dwc-to-llvm-cpu).

func.func @convnext_block(%x: tensor<1x56x56x96xf32>, %w: tensor<7x7x96xf32>,
                          %b: tensor<96xf32>)
    -> (tensor<1x28x28x96xf32>, tensor<1x1x1x96xf32>) {
  %init = tensor.empty() : tensor<1x56x56x96xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x56x56x96xf32>, tensor<7x7x96xf32>)
         bias(%b : tensor<96xf32>) outs(%init : tensor<1x56x56x96xf32>)
         strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
         -> tensor<1x56x56x96xf32>
  %pinit = tensor.empty() : tensor<1x28x28x96xf32>
  %p = dwc.pool2d max ins(%y : tensor<1x56x56x96xf32>)
         outs(%pinit : tensor<1x28x28x96xf32>)
         window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1]
         -> tensor<1x28x28x96xf32>
  %ginit = tensor.empty() : tensor<1x1x1x96xf32>
  %g = dwc.global_avg_pool ins(%p : tensor<1x28x28x96xf32>)
         outs(%ginit : tensor<1x1x1x96xf32>) -> tensor<1x1x1x96xf32>
  return %p, %g : tensor<1x28x28x96xf32>, tensor<1x1x1x96xf32>
}
