// dwc-to-nvvm on a depthwise convolution followed by max pooling: the pair
// is fused (dwc-fuse-conv-pool) and runs as one kernel, no intermediate
// buffer (dwc-select-kernels gives the fused op a #dwc.conv_pool, which
// dwc-decompose-conv-pool leaves alone). A fused op the kernel does not
// take (a 16-bit 5x5 filter, a strided convolution) is split again into
// the convolution kernel, a device buffer for its output and the pooling
// kernel.
// RUN: dwc-opt %s --dwc-to-nvvm="format=isa" | FileCheck %s --check-prefixes=FUSED,SPLIT

// FUSED-LABEL: llvm.func @conv_pool
// FUSED-NOT: mgpuMemAlloc
// FUSED-COUNT-1: gpu.launch_func
// FUSED-NOT: gpu.launch_func
// FUSED: llvm.return
func.func @conv_pool(%x: tensor<2x16x16x32xf16>, %w: tensor<3x3x32xf16>) -> tensor<2x8x8x32xf16> {
  %e = tensor.empty() : tensor<2x16x16x32xf16>
  %c = dwc.depthwise_conv2d ins(%x, %w : tensor<2x16x16x32xf16>, tensor<3x3x32xf16>) outs(%e : tensor<2x16x16x32xf16>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<2x16x16x32xf16>
  %i = tensor.empty() : tensor<2x8x8x32xf16>
  %p = dwc.pool2d max ins(%c : tensor<2x16x16x32xf16>) outs(%i : tensor<2x8x8x32xf16>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] -> tensor<2x8x8x32xf16>
  return %p : tensor<2x8x8x32xf16>
}

// SPLIT-LABEL: llvm.func @conv_pool_5x5
// SPLIT: mgpuMemAlloc
// SPLIT-COUNT-2: gpu.launch_func
// SPLIT: mgpuMemFree
func.func @conv_pool_5x5(%x: tensor<2x16x16x32xf16>, %w: tensor<5x5x32xf16>) -> tensor<2x8x8x32xf16> {
  %e = tensor.empty() : tensor<2x16x16x32xf16>
  %c = dwc.depthwise_conv2d ins(%x, %w : tensor<2x16x16x32xf16>, tensor<5x5x32xf16>) outs(%e : tensor<2x16x16x32xf16>) strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] -> tensor<2x16x16x32xf16>
  %i = tensor.empty() : tensor<2x8x8x32xf16>
  %p = dwc.pool2d max ins(%c : tensor<2x16x16x32xf16>) outs(%i : tensor<2x8x8x32xf16>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] -> tensor<2x8x8x32xf16>
  return %p : tensor<2x8x8x32xf16>
}

// FUSED-LABEL: llvm.func @strided_conv_pool
// FUSED: mgpuMemAlloc
// FUSED-COUNT-2: gpu.launch_func
// FUSED: mgpuMemFree
func.func @strided_conv_pool(%x: tensor<2x16x16x32xf16>, %w: tensor<3x3x32xf16>) -> tensor<2x4x4x32xf16> {
  %e = tensor.empty() : tensor<2x8x8x32xf16>
  %c = dwc.depthwise_conv2d ins(%x, %w : tensor<2x16x16x32xf16>, tensor<3x3x32xf16>) outs(%e : tensor<2x8x8x32xf16>) strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<2x8x8x32xf16>
  %i = tensor.empty() : tensor<2x4x4x32xf16>
  %p = dwc.pool2d max ins(%c : tensor<2x8x8x32xf16>) outs(%i : tensor<2x4x4x32xf16>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<2x4x4x32xf16>
  return %p : tensor<2x4x4x32xf16>
}
