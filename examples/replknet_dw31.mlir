// A RepLKNet-style very large kernel: 31x31 depthwise convolution with
// padding 15 on a 32x32x64 feature map (the output keeps the input size).
// Tensor level; examples/run_cpu.py wraps it with inputs and runs it on the
// CPU reference path (dwc-opt --dwc-to-llvm-cpu).

func.func @replknet_dw31(%x: tensor<1x32x32x64xf32>, %w: tensor<31x31x64xf32>)
    -> tensor<1x32x32x64xf32> {
  %init = tensor.empty() : tensor<1x32x32x64xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x32x32x64xf32>, tensor<31x31x64xf32>)
         outs(%init : tensor<1x32x32x64xf32>)
         strides = [1, 1] dilations = [1, 1] padding = [15, 15, 15, 15]
         -> tensor<1x32x32x64xf32>
  return %y : tensor<1x32x32x64xf32>
}
