// dwc-to-nvvm on a depthwise convolution followed by max pooling: the pair
// is fused (dwc-fuse-conv-pool) and runs as one kernel, no intermediate
// buffer; with pool-options="fuse-conv=false" it is split again
// (dwc-decompose-conv-pool) into the GEMV convolution kernel, a device
// buffer for its output and the pooling kernel. A strided convolution
// has no fused kernel and is split in any case.
// RUN: dwc-opt %s --dwc-to-nvvm="format=isa" | FileCheck %s --check-prefix=FUSED
// RUN: dwc-opt %s --dwc-to-nvvm="format=isa pool-options=fuse-conv=false" | FileCheck %s --check-prefix=SPLIT

// FUSED-LABEL: llvm.func @conv_pool
// FUSED-NOT: mgpuMemAlloc
// FUSED-COUNT-1: gpu.launch_func
// FUSED-NOT: gpu.launch_func
// FUSED: llvm.return
// SPLIT-LABEL: llvm.func @conv_pool
// SPLIT: mgpuMemAlloc
// SPLIT-COUNT-2: gpu.launch_func
// SPLIT: mgpuMemFree
func.func @conv_pool(%x: tensor<2x16x16x32xf16>, %w: tensor<3x3x32xf16>) -> tensor<2x8x8x32xf16> {
  %e = tensor.empty() : tensor<2x16x16x32xf16>
  %c = dwc.depthwise_conv2d ins(%x, %w : tensor<2x16x16x32xf16>, tensor<3x3x32xf16>) outs(%e : tensor<2x16x16x32xf16>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<2x16x16x32xf16>
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
