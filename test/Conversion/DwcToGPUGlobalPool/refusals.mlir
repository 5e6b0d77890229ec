// RUN: dwc-opt %s --split-input-file --dwc-select-kernels --convert-dwc-to-gpu-global-pool | FileCheck %s
// The tiling of @wide as a dwc.kernel a test requests:
// RUN: sed '/^func.func @wide(/,/return/s/^  dwc.global_avg_pool .*$/& {dwc.kernel = #dwc.global_pool<channel_tile = 1, threads = 1024>}/' %s \
// RUN:   | dwc-opt --split-input-file --dwc-select-kernels --convert-dwc-to-gpu-global-pool | FileCheck %s --check-prefix=WIDE
// (Malformed configurations: test/Dialect/Dwc/kernel-configs-pool-invalid.mlir.)

// Tensor form: configured, but left for bufferization.
// CHECK-LABEL: func.func @tensor_form
// CHECK: dwc.global_avg_pool
// CHECK-NOT: gpu.launch
func.func @tensor_form(%x: tensor<2x7x7x64xf32>) -> tensor<2x1x1x64xf32> {
  %init = tensor.empty() : tensor<2x1x1x64xf32>
  %y = dwc.global_avg_pool ins(%x : tensor<2x7x7x64xf32>) outs(%init : tensor<2x1x1x64xf32>) -> tensor<2x1x1x64xf32>
  return %y : tensor<2x1x1x64xf32>
}

// -----

// Non-identity layouts: no configuration, left to the baseline.
// CHECK-LABEL: func.func @strided_layout
// CHECK: dwc.global_avg_pool
// CHECK-NOT: gpu.launch
func.func @strided_layout(%x: memref<2x7x7x64xf32, strided<[6272, 896, 128, 1]>>, %y: memref<2x1x1x64xf32>) {
  dwc.global_avg_pool ins(%x : memref<2x7x7x64xf32, strided<[6272, 896, 128, 1]>>) outs(%y : memref<2x1x1x64xf32>)
  return
}

// -----

// Pooling that is not global: a smaller window, padding, max, a fused
// activation, and max / padded backward ops stay for convert-dwc-to-gpu-pool.
// CHECK-LABEL: func.func @not_global
// CHECK: dwc.pool2d avg
// CHECK: dwc.pool2d avg
// CHECK: dwc.pool2d max
// CHECK: dwc.pool2d avg
// CHECK: dwc.pool2d_backward max
// CHECK: dwc.pool2d_backward avg
// CHECK-NOT: gpu.launch
func.func @not_global(%x: memref<2x7x7x64xf32>, %y: memref<2x1x1x64xf32>, %y2: memref<2x2x2x64xf32>,
                      %dy: memref<2x1x1x64xf32>, %dx: memref<2x7x7x64xf32>) {
  dwc.pool2d avg ins(%x : memref<2x7x7x64xf32>) outs(%y2 : memref<2x2x2x64xf32>) window = [3, 3] strides = [3, 3] padding = [0, 0, 0, 0]
  dwc.pool2d avg ins(%x : memref<2x7x7x64xf32>) outs(%y : memref<2x1x1x64xf32>) window = [7, 7] strides = [7, 7] padding = [1, 1, 1, 1] count_include_pad
  dwc.pool2d max ins(%x : memref<2x7x7x64xf32>) outs(%y : memref<2x1x1x64xf32>) window = [7, 7] strides = [7, 7] padding = [0, 0, 0, 0]
  dwc.pool2d avg ins(%x : memref<2x7x7x64xf32>) outs(%y : memref<2x1x1x64xf32>) window = [7, 7] strides = [7, 7] padding = [0, 0, 0, 0] activation = relu
  dwc.pool2d_backward max ins(%x, %dy : memref<2x7x7x64xf32>, memref<2x1x1x64xf32>) outs(%dx : memref<2x7x7x64xf32>) window = [7, 7] strides = [7, 7] padding = [0, 0, 0, 0]
  dwc.pool2d_backward avg ins(%x, %dy : memref<2x7x7x64xf32>, memref<2x1x1x64xf32>) outs(%dx : memref<2x7x7x64xf32>) window = [7, 7] strides = [7, 7] padding = [1, 1, 1, 1] count_include_pad
  return
}

// -----

// A configuration that gives a block of one channel vector x 1024 rows (a butterfly
// over all 32 lanes of a warp, 32 warps' sums in workgroup memory).
// CHECK-LABEL: func.func @wide
// WIDE-LABEL: func.func @wide
// WIDE: gpu.launch blocks({{.*}}) in ({{.*}} = %c32, {{.*}}) threads({{.*}}) in ({{.*}} = %c1024,
// WIDE-SAME: workgroup(%{{.*}} : memref<32x1x4xf32, #gpu.address_space<workgroup>>)
// WIDE: gpu.shuffle xor %{{.*}}, %c1_i32
// WIDE: gpu.shuffle xor %{{.*}}, %c16_i32
func.func @wide(%x: memref<2x7x7x64xf32>, %y: memref<2x1x1x64xf32>) {
  dwc.global_avg_pool ins(%x : memref<2x7x7x64xf32>) outs(%y : memref<2x1x1x64xf32>)
  return
}
