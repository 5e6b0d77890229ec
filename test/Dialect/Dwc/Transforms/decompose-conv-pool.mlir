// dwc-decompose-conv-pool: dwc.depthwise_conv2d_pool2d back into a depthwise
// convolution and a pool2d, through tensor.empty (tensor form) or a
// memref.alloc freed after the pool (memref form).
// RUN: dwc-opt %s --dwc-decompose-conv-pool -split-input-file | FileCheck %s

// CHECK-LABEL: func @tensors
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x8x16xf32>, %[[W:.*]]: tensor<3x3x16xf32>, %[[B:.*]]: tensor<16xf32>, %[[I:.*]]: tensor<1x4x4x16xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x8x8x16xf32>
// CHECK: %[[C:.*]] = dwc.depthwise_conv2d ins(%[[X]], %[[W]] : {{.*}}) bias(%[[B]] : tensor<16xf32>) outs(%[[E]] : tensor<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] acc = f32 -> tensor<1x8x8x16xf32>
// CHECK: %[[P:.*]] = dwc.pool2d avg ins(%[[C]] : tensor<1x8x8x16xf32>) outs(%[[I]] : tensor<1x4x4x16xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] count_include_pad acc = f32 activation = relu -> tensor<1x4x4x16xf32>
// CHECK: return %[[P]]
func.func @tensors(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>, %b: tensor<16xf32>, %i: tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> {
  %p = dwc.depthwise_conv2d_pool2d avg ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) bias(%b : tensor<16xf32>) outs(%i : tensor<1x4x4x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [3, 3] pool_strides = [2, 2] pool_padding = [1, 1, 1, 1] count_include_pad acc = f32 activation = relu -> tensor<1x4x4x16xf32>
  return %p : tensor<1x4x4x16xf32>
}

// -----

// CHECK-LABEL: func @memrefs
// CHECK-SAME: (%[[X:.*]]: memref<1x9x9x5xf16>, %[[W:.*]]: memref<3x3x5xf16>, %[[Y:.*]]: memref<1x2x2x5xf16>)
// CHECK: %[[C:.*]] = memref.alloc() : memref<1x5x5x5xf16>
// CHECK: dwc.depthwise_conv2d ins(%[[X]], %[[W]] : {{.*}}) outs(%[[C]] : memref<1x5x5x5xf16>) strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
// CHECK-NOT: acc
// CHECK: dwc.pool2d max ins(%[[C]] : memref<1x5x5x5xf16>) outs(%[[Y]] : memref<1x2x2x5xf16>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0]
// CHECK: memref.dealloc %[[C]] : memref<1x5x5x5xf16>
func.func @memrefs(%x: memref<1x9x9x5xf16>, %w: memref<3x3x5xf16>, %y: memref<1x2x2x5xf16>) {
  dwc.depthwise_conv2d_pool2d max ins(%x, %w : memref<1x9x9x5xf16>, memref<3x3x5xf16>) outs(%y : memref<1x2x2x5xf16>) strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0]
  return
}
