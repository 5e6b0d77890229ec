// dwc.depthwise_conv2d's fused prologue and epilogue: round trip of every
// activation and of the optional operands.
// RUN: dwc-opt %s | dwc-opt | FileCheck %s

// CHECK-LABEL: func @mobilenet_block
// CHECK: dwc.depthwise_conv2d ins(%{{.*}}, %{{.*}} : tensor<2x14x14x144xf16>, tensor<3x3x144xf16>) bias(%{{.*}} : tensor<144xf16>) input_bias(%{{.*}} : tensor<144xf16>) outs
// CHECK-SAME: activation = relu6 input_activation = relu6
func.func @mobilenet_block(%x: tensor<2x14x14x144xf16>, %w: tensor<3x3x144xf16>,
                           %b: tensor<144xf16>, %s: tensor<144xf16>) -> tensor<2x14x14x144xf16> {
  %init = tensor.empty() : tensor<2x14x14x144xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<2x14x14x144xf16>, tensor<3x3x144xf16>)
         bias(%b : tensor<144xf16>) input_bias(%s : tensor<144xf16>)
         outs(%init : tensor<2x14x14x144xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
         activation = relu6 input_activation = relu6 -> tensor<2x14x14x144xf16>
  return %y : tensor<2x14x14x144xf16>
}

// CHECK-LABEL: func @activations
// CHECK: activation = silu
// CHECK: activation = sigmoid
// CHECK: activation = hardswish
// CHECK: activation = hardsigmoid
// CHECK: activation = gelu
// CHECK: activation = gelu_tanh
// CHECK: input_activation = relu
// CHECK-NOT: input_bias
func.func @activations(%x: memref<1x8x8x8xf32>, %w: memref<3x3x8xf32>, %y: memref<1x8x8x8xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x8x8xf32>, memref<3x3x8xf32>) outs(%y : memref<1x8x8x8xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] activation = silu
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x8x8xf32>, memref<3x3x8xf32>) outs(%y : memref<1x8x8x8xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] activation = sigmoid
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x8x8xf32>, memref<3x3x8xf32>) outs(%y : memref<1x8x8x8xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] activation = hardswish
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x8x8xf32>, memref<3x3x8xf32>) outs(%y : memref<1x8x8x8xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] activation = hardsigmoid
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x8x8xf32>, memref<3x3x8xf32>) outs(%y : memref<1x8x8x8xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] activation = gelu
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x8x8xf32>, memref<3x3x8xf32>) outs(%y : memref<1x8x8x8xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] activation = gelu_tanh
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x8x8xf32>, memref<3x3x8xf32>) outs(%y : memref<1x8x8x8xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] input_activation = relu
  return
}
