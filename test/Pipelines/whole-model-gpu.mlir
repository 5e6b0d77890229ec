// A whole-model function through dwc-to-nvvm: the dwc op becomes dwc's
// kernel, the element-wise GELU (math.erf), the bias add of the head and
// the matmul go through the generic GPU lowering (convert-host-linalg-to-gpu)
// into kernels of their own; nothing reads device buffers on the host.
// RUN: dwc-opt %s --dwc-to-nvvm="format=isa" | FileCheck %s
// RUN: dwc-opt %s --dwc-to-nvvm="format=isa" | %PYTHON %S/Inputs/extract_ptx.py | FileCheck %s --check-prefix=PTX

// Six kernels: the depthwise convolution, GELU, two fills, the reduction,
// the matmul, on one stream, synchronised once.
// CHECK-LABEL: llvm.func @head(
// CHECK: llvm.call @mgpuStreamCreate
// CHECK-COUNT-6: gpu.launch_func
// CHECK-NOT: gpu.launch_func
// CHECK: llvm.call @mgpuStreamSynchronize
// CHECK-NOT: memref.
// CHECK-NOT: linalg.
// PTX: .entry head_gemv(
// PTX-COUNT-5: .entry head_kernel(

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#gap = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
func.func @head(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>, %fc: tensor<16x5xf32>) -> tensor<1x5xf32> {
  %init = tensor.empty() : tensor<1x8x8x16xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>)
    outs(%init : tensor<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<1x8x8x16xf32>) outs(%init : tensor<1x8x8x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %e = math.erf %v : f32
    linalg.yield %e : f32
  } -> tensor<1x8x8x16xf32>
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<1x16xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %s = linalg.generic {indexing_maps = [#id, #gap], iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
      ins(%g : tensor<1x8x8x16xf32>) outs(%f2 : tensor<1x16xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<1x16xf32>
  %e3 = tensor.empty() : tensor<1x5xf32>
  %f3 = linalg.fill ins(%z : f32) outs(%e3 : tensor<1x5xf32>) -> tensor<1x5xf32>
  %r = linalg.matmul ins(%s, %fc : tensor<1x16xf32>, tensor<16x5xf32>) outs(%f3 : tensor<1x5xf32>) -> tensor<1x5xf32>
  return %r : tensor<1x5xf32>
}
