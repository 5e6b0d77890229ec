// dwc-copy-repeated-results: a result that repeats an earlier one, or is a
// function argument, becomes a copy of its own (one output buffer per
// result in the GPU pipeline's ABI); other functions are unchanged.
// RUN: dwc-opt %s -dwc-copy-repeated-results -split-input-file | FileCheck %s

// CHECK-LABEL: func @twice
// CHECK: %[[R:.*]] = dwc.pool2d
// CHECK: %[[C:.*]] = bufferization.alloc_tensor() copy(%[[R]]) : tensor<1x4x4x8xf32>
// CHECK: return %[[R]], %[[C]]
func.func @twice(%x: tensor<1x8x8x8xf32>) -> (tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) {
  %i = tensor.empty() : tensor<1x4x4x8xf32>
  %r = dwc.pool2d max ins(%x : tensor<1x8x8x8xf32>) outs(%i : tensor<1x4x4x8xf32>)
         window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x8xf32>
  return %r, %r : tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>
}

// -----

// Three times, with a scalar repeated too (left alone: not a buffer).
// CHECK-LABEL: func @thrice
// CHECK: %[[R:.*]] = dwc.pool2d
// CHECK: %[[C1:.*]] = bufferization.alloc_tensor() copy(%[[R]])
// CHECK: %[[C2:.*]] = bufferization.alloc_tensor() copy(%[[R]])
// CHECK: return %[[R]], %[[C1]], %arg1, %arg1, %[[C2]]
func.func @thrice(%x: tensor<1x8x8x8xf32>, %s: f32) -> (tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>, f32, f32, tensor<1x4x4x8xf32>) {
  %i = tensor.empty() : tensor<1x4x4x8xf32>
  %r = dwc.pool2d max ins(%x : tensor<1x8x8x8xf32>) outs(%i : tensor<1x4x4x8xf32>)
         window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x8xf32>
  return %r, %r, %s, %s, %r : tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>, f32, f32, tensor<1x4x4x8xf32>
}

// -----

// An argument returned (drop-equivalent-buffer-results would drop it).
// CHECK-LABEL: func @argument
// CHECK: %[[C:.*]] = bufferization.alloc_tensor() copy(%arg0) : tensor<1x8x8x8xf32>
// CHECK: return %[[C]]
func.func @argument(%x: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  return %x : tensor<1x8x8x8xf32>
}

// -----

// Memrefs (already bufferized code): an identity-layout copy.
// CHECK-LABEL: func @memrefs
// CHECK: %[[A:.*]] = memref.alloc(%{{.*}}) : memref<?x8xf32>
// CHECK: memref.copy %arg0, %[[A]]
// CHECK: return %{{.*}}, %[[A]]
func.func @memrefs(%m: memref<?x8xf32>, %n: index) -> (memref<?x8xf32>, memref<?x8xf32>) {
  %a = memref.alloc(%n) : memref<?x8xf32>
  return %a, %m : memref<?x8xf32>, memref<?x8xf32>
}

// -----

// Distinct results: unchanged.
// CHECK-LABEL: func @distinct
// CHECK-NOT: alloc_tensor
// CHECK: return %{{.*}}, %{{.*}} :
func.func @distinct(%x: tensor<1x8x8x8xf32>) -> (tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) {
  %i = tensor.empty() : tensor<1x4x4x8xf32>
  %r = dwc.pool2d max ins(%x : tensor<1x8x8x8xf32>) outs(%i : tensor<1x4x4x8xf32>)
         window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x8xf32>
  %j = tensor.empty() : tensor<1x4x4x8xf32>
  %q = dwc.pool2d avg ins(%x : tensor<1x8x8x8xf32>) outs(%j : tensor<1x4x4x8xf32>)
         window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x8xf32>
  return %r, %q : tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>
}
