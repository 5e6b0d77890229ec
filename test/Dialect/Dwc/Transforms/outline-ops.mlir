// RUN: dwc-opt %s --dwc-outline-ops | FileCheck %s
// RUN: dwc-opt %s --dwc-outline-ops=keep=kernels | FileCheck %s --check-prefix=KERNELS
// RUN: dwc-opt %s --dwc-outline-ops=keep=host | FileCheck %s --check-prefix=HOST
// The outlined functions alone go through the GPU pipeline: only dwc's own
// kernels, no generic ones (the GELU stays with the embedding compiler).
// RUN: dwc-opt %s --dwc-outline-ops=keep=kernels --dwc-to-nvvm=format=isa | FileCheck %s --check-prefix=GPU
// RUN: dwc-opt %s --dwc-outline-ops=keep=kernels --dwc-to-nvvm=format=isa | grep -c "gpu.binary @" | FileCheck %s --check-prefix=NBIN

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// CHECK-LABEL: func.func @block(
// CHECK-SAME: %[[X:.*]]: tensor<1x8x8x16xf32>, %[[W:.*]]: tensor<3x3x16xf32>, %[[B:.*]]: tensor<16xf32>)
// CHECK: %[[Y:.*]] = call @block_dwc0(%[[X]], %[[W]], %[[B]]) : (tensor<1x8x8x16xf32>, tensor<3x3x16xf32>, tensor<16xf32>) -> tensor<1x8x8x16xf32>
// CHECK: %[[G:.*]] = linalg.generic {{.*}} ins(%[[Y]] :
// CHECK: math.erf
// CHECK: %[[P:.*]] = call @block_dwc1_0(%[[G]]) : (tensor<1x8x8x16xf32>) -> tensor<1x4x4x16xf32>
// CHECK: return %[[P]]
// CHECK-NOT: dwc.
// CHECK: func.func private @block_dwc1(tensor<2xf32>)
// CHECK: func.func @block_dwc0(%[[A0:.*]]: tensor<1x8x8x16xf32>, %[[A1:.*]]: tensor<3x3x16xf32>, %[[A2:.*]]: tensor<16xf32>) -> tensor<1x8x8x16xf32> attributes {dwc.outlined}
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x8x8x16xf32>
// CHECK: %[[R:.*]] = dwc.depthwise_conv2d ins(%[[A0]], %[[A1]] : {{.*}}) bias(%[[A2]] : tensor<16xf32>) outs(%[[E]] : tensor<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
// CHECK: return %[[R]]
// The name @block_dwc1 is taken: the outlined function is renamed.
// CHECK: func.func @block_dwc1_0(%{{.*}}: tensor<1x8x8x16xf32>) -> tensor<1x4x4x16xf32> attributes {dwc.outlined}
// CHECK: dwc.pool2d{{ +}}max

// KERNELS-NOT: func.func @block(
// KERNELS: func.func @block_dwc0(
// KERNELS: func.func @block_dwc1_0(
// KERNELS-NOT: func.func

// HOST: func.func @block(
// HOST: call @block_dwc0
// HOST: linalg.generic
// HOST: call @block_dwc1_0
// HOST-NOT: dwc.depthwise_conv2d
// HOST-NOT: dwc.pool2d
// HOST-DAG: func.func private @block_dwc0(tensor<1x8x8x16xf32>, tensor<3x3x16xf32>, tensor<16xf32>) -> tensor<1x8x8x16xf32> attributes {dwc.outlined}
// HOST-DAG: func.func private @block_dwc1_0(tensor<1x8x8x16xf32>) -> tensor<1x4x4x16xf32> attributes {dwc.outlined}

// GPU-DAG: gpu.binary @block_dwc0_gemv
// GPU-DAG: gpu.binary @block_dwc1_0_pool_forward
// GPU-DAG: llvm.func @block_dwc0(
// GPU-DAG: llvm.func @block_dwc1_0(
// NBIN: {{^}}2{{$}}

func.func @block(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>, %b: tensor<16xf32>) -> tensor<1x4x4x16xf32> {
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) bias(%b : tensor<16xf32>)
    outs(%e : tensor<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<1x8x8x16xf32>) outs(%e : tensor<1x8x8x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.erf %v : f32
    linalg.yield %r : f32
  } -> tensor<1x8x8x16xf32>
  %e2 = tensor.empty() : tensor<1x4x4x16xf32>
  %p = dwc.pool2d max ins(%g : tensor<1x8x8x16xf32>) outs(%e2 : tensor<1x4x4x16xf32>)
    window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x16xf32>
  return %p : tensor<1x4x4x16xf32>
}

// An unrelated declaration that holds the name the second op would get.
func.func private @block_dwc1(tensor<2xf32>)
