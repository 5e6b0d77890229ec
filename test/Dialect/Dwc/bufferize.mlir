// One-Shot Bufferize turns tensor-form dwc ops into memref-form ops that write
// their destination in place; a tensor.empty destination becomes an alloc.
// RUN: dwc-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s

// CHECK-LABEL: func @conv_then_pool
// CHECK-SAME: (%[[X:.*]]: memref<1x8x8x16xf32>, %[[W:.*]]: memref<3x3x16xf32>, %[[OUT:.*]]: memref<1x8x8x16xf32>) -> memref<1x4x4x16xf32>
func.func @conv_then_pool(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>, %out: tensor<1x8x8x16xf32>)
    -> tensor<1x4x4x16xf32> {
  // CHECK: dwc.depthwise_conv2d ins(%[[X]], %[[W]] : memref<1x8x8x16xf32>, memref<3x3x16xf32>) outs(%[[OUT]] : memref<1x8x8x16xf32>)
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%out : tensor<1x8x8x16xf32>)
         strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf32>
  // CHECK: %[[P:.*]] = memref.alloc() {{.*}} : memref<1x4x4x16xf32>
  // CHECK-NOT: memref.copy
  // CHECK: dwc.pool2d max ins(%[[OUT]] : memref<1x8x8x16xf32>) outs(%[[P]] : memref<1x4x4x16xf32>)
  %e = tensor.empty() : tensor<1x4x4x16xf32>
  %1 = dwc.pool2d max ins(%0 : tensor<1x8x8x16xf32>) outs(%e : tensor<1x4x4x16xf32>)
         window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x16xf32>
  // CHECK: return %[[P]]
  return %1 : tensor<1x4x4x16xf32>
}

// The destination is written, so a destination that is read later is copied
// first instead of being clobbered.
// CHECK-LABEL: func @destination_still_needed
func.func @destination_still_needed(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>, %out: tensor<1x8x8x16xf32>)
    -> (tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>) {
  // CHECK: %[[COPY:.*]] = memref.alloc
  // CHECK: dwc.depthwise_conv2d {{.*}} outs(%[[COPY]]
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%out : tensor<1x8x8x16xf32>)
         strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf32>
  return %0, %out : tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>
}
