// Host functions whose names are not PTX identifiers compile to a cubin:
// their kernels are renamed (dwc-legalize-kernel-names) before NVVM, where
// '-' used to end in "LLVM ERROR: Symbol name with unsupported characters"
// and '.' in a ptxas syntax error.
// REQUIRES: ptxas
// RUN: dwc-opt %s --dwc-to-nvvm="format=bin toolkit=%cuda_toolkit" | FileCheck %s
// CHECK-DAG: gpu.binary @conv_1_row_tile
// CHECK-DAG: gpu.binary @a_b_global_pool
// CHECK-DAG: llvm.func @"conv-1"
// CHECK-DAG: llvm.func @a.b(

func.func @"conv-1"(%x: tensor<1x8x8x8xf16>, %w: tensor<3x3x8xf16>, %i: tensor<1x8x8x8xf16>) -> tensor<1x8x8x8xf16> {
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x8xf16>, tensor<3x3x8xf16>) outs(%i : tensor<1x8x8x8xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x8xf16>
  return %0 : tensor<1x8x8x8xf16>
}

func.func @"a.b"(%x: tensor<1x8x8x8xf32>, %i: tensor<1x1x1x8xf32>) -> tensor<1x1x1x8xf32> {
  %0 = dwc.global_avg_pool ins(%x : tensor<1x8x8x8xf32>) outs(%i : tensor<1x1x1x8xf32>) -> tensor<1x1x1x8xf32>
  return %0 : tensor<1x1x1x8xf32>
}
