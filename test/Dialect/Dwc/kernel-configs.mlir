// RUN: dwc-opt %s | dwc-opt | FileCheck %s

// Kernel configurations and the target round-trip; fields left at 0 are
// not printed.
// CHECK: module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>}
// CHECK: dwc.kernel = #dwc.strided_forward<channels = 4, rows = 1, columns = 4>
// CHECK: dwc.kernel = #dwc.strided_forward<rows = 2>
// CHECK: dwc.kernel = #dwc.strided_gather<channels = 2, columns = 4>
// CHECK: dwc.kernel = #dwc.direct
module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @f(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x4x4x32xf32>,
               %dy: tensor<1x4x4x32xf32>, %dx: tensor<1x8x8x32xf32>) -> (tensor<1x4x4x32xf32>, tensor<1x4x4x32xf32>, tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) {
    %a = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x4x4x32xf32>)
      strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.strided_forward<channels = 4, rows = 1, columns = 4>} -> tensor<1x4x4x32xf32>
    %b = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x4x4x32xf32>)
      strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.strided_forward<rows = 2>} -> tensor<1x4x4x32xf32>
    %c = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x4x4x32xf32>, tensor<3x3x32xf32>) outs(%dx : tensor<1x8x8x32xf32>)
      strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.strided_gather<channels = 2, columns = 4>} -> tensor<1x8x8x32xf32>
    %d = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x4x4x32xf32>, tensor<3x3x32xf32>) outs(%dx : tensor<1x8x8x32xf32>)
      strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.direct} -> tensor<1x8x8x32xf32>
    return %a, %b, %c, %d : tensor<1x4x4x32xf32>, tensor<1x4x4x32xf32>, tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>
  }
}
