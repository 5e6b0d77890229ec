// A module compiled for a GPU (#dwc.target, dwc.kernel configurations) runs
// through the CPU reference pipeline unchanged: the attributes are dropped,
// the result is LLVM that mlir-runner accepts.
// RUN: dwc-opt %s --dwc-to-llvm-cpu | FileCheck %s
// CHECK-NOT: dwc.
// CHECK: llvm.func @f
module attributes {dwc.target = #dwc.target<chip = "sm_90", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @f(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32> {
    %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x4x4x32xf32>)
      strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.strided_forward<rows = 1>} -> tensor<1x4x4x32xf32>
    return %r : tensor<1x4x4x32xf32>
  }
}
