// Diagnostics of dwc-to-nvvm that name the cause: a dwc op in a nested
// module (not bufferized by the pipeline), and pool2d_backward, whose only
// kernels are the pooling fast paths, on a chip without them (sm_75).
// RUN: not dwc-opt %s --dwc-to-nvvm="format=isa" -split-input-file 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: not dwc-opt %s --dwc-to-nvvm="format=isa chip=sm_75" -split-input-file 2>&1 | FileCheck %s --check-prefix=POOLBWD

// NESTED: error: 'dwc.depthwise_conv2d' still operates on tensors; the GPU kernels need the memref form (dwc-to-nvvm bufferizes the functions of the top-level module only, not those of nested modules
module {
  module @inner {
    func.func @f(%x: tensor<1x8x8x8xf32>, %w: tensor<3x3x8xf32>, %i: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
      %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x8xf32>, tensor<3x3x8xf32>) outs(%i : tensor<1x8x8x8xf32>)
             strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x8xf32>
      return %0 : tensor<1x8x8x8xf32>
    }
  }
}

// -----

// POOLBWD: error: 'dwc.pool2d_backward' has no direct GPU kernel (its kernels are the pooling family's, #dwc.pool_backward, on sm_80 or newer, for strides of at most 64 columns)
func.func @g(%x: tensor<1x8x8x8xf32>, %dy: tensor<1x4x4x8xf32>) -> tensor<1x8x8x8xf32> {
  %i = tensor.empty() : tensor<1x8x8x8xf32>
  %0 = dwc.pool2d_backward max ins(%x, %dy : tensor<1x8x8x8xf32>, tensor<1x4x4x8xf32>) outs(%i : tensor<1x8x8x8xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// -----

// A stride of 65536 columns: refused at once (the strip kernel's unrolled
// strip would be 65536 columns wide: minutes of compile time).
// POOLBWD: error: 'dwc.pool2d_backward' has no direct GPU kernel
// RUN: not dwc-opt %s --dwc-to-nvvm="format=isa" -split-input-file 2>&1 | FileCheck %s --check-prefix=WIDE
// WIDE: error: 'dwc.pool2d_backward' has no direct GPU kernel (its kernels are the pooling family's, #dwc.pool_backward, on sm_80 or newer, for strides of at most 64 columns)
func.func @wide(%x: tensor<1x8x131072x8xf32>, %dy: tensor<1x4x2x8xf32>) -> tensor<1x8x131072x8xf32> {
  %i = tensor.empty() : tensor<1x8x131072x8xf32>
  %0 = dwc.pool2d_backward max ins(%x, %dy : tensor<1x8x131072x8xf32>, tensor<1x4x2x8xf32>) outs(%i : tensor<1x8x131072x8xf32>) window = [2, 3] strides = [2, 65536] padding = [0, 0, 1, 1] -> tensor<1x8x131072x8xf32>
  return %0 : tensor<1x8x131072x8xf32>
}
