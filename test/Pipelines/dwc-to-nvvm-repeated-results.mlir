// A function that returns one dwc result twice, or returns an argument,
// compiles (upstream buffer-results-to-out-params crashed on the former):
// every result is an output buffer of its own, written by a device copy
// where it repeats another.
// RUN: dwc-opt %s --dwc-to-nvvm="format=isa" | FileCheck %s

// The kernel writes the first output buffer (%arg12: the descriptor of the
// input is %arg0-%arg10), a copy the second (%arg23).
// CHECK-LABEL: llvm.func @twice(
// CHECK: gpu.launch_func
// CHECK: llvm.call @mgpuMemcpy(%arg23, %arg12,
// CHECK: llvm.func @_mlir_ciface_twice(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr)
func.func @twice(%x: tensor<1x8x8x8xf32>) -> (tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) {
  %i = tensor.empty() : tensor<1x4x4x8xf32>
  %r = dwc.pool2d max ins(%x : tensor<1x8x8x8xf32>) outs(%i : tensor<1x4x4x8xf32>)
         window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x8xf32>
  return %r, %r : tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>
}

// CHECK-LABEL: llvm.func @passthrough(
// CHECK: llvm.call @mgpuMemcpy(%arg12, %arg1,
// CHECK: llvm.func @_mlir_ciface_passthrough(%arg0: !llvm.ptr, %arg1: !llvm.ptr)
func.func @passthrough(%x: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  return %x : tensor<1x8x8x8xf32>
}
