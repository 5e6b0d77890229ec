// RUN: dwc-opt %s --split-input-file --convert-dwc-to-gpu-strided | FileCheck %s

// Without a complete dwc.kernel of the strided family (dwc-select-kernels
// not run, a partial configuration): left alone. Which ops the family takes
// is decided by dwc-select-kernels (test/Conversion/KernelSelection/
// config-strided.mlir).
// CHECK-LABEL: func @no_config
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d_backward_data
// CHECK: dwc.depthwise_conv2d ins
// CHECK: return
func.func @no_config(%dy: memref<1x4x4x32xf32>, %w: memref<3x3x32xf32>, %dx: memref<1x8x8x32xf32>,
                     %y: memref<1x4x4x32xf32>) {
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<1x4x4x32xf32>, memref<3x3x32xf32>) outs(%dx : memref<1x8x8x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d ins(%dx, %w : memref<1x8x8x32xf32>, memref<3x3x32xf32>) outs(%y : memref<1x4x4x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.strided_forward<rows = 2>}
  return
}

// -----

// Tensor form (a configuration written in the input IR): bufferize first.
// CHECK-LABEL: func @tensor_form
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d_backward_data
func.func @tensor_form(%dy: tensor<1x4x4x32xf32>, %w: tensor<3x3x32xf32>, %dx: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  %r = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x4x4x32xf32>, tensor<3x3x32xf32>) outs(%dx : tensor<1x8x8x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
    {dwc.kernel = #dwc.strided_gather<channels = 4, columns = 4>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}
