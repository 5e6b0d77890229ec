// RUN: dwc-opt %s --split-input-file --convert-dwc-to-gpu-global-pool | FileCheck %s
// RUN: not dwc-opt %s --convert-dwc-to-gpu-global-pool=channel-tile=12 2>&1 | FileCheck %s --check-prefix=OPTS
// RUN: not dwc-opt %s --convert-dwc-to-gpu-global-pool=threads=100 2>&1 | FileCheck %s --check-prefix=OPTS
// RUN: not dwc-opt %s --convert-dwc-to-gpu-global-pool=unroll=0 2>&1 | FileCheck %s --check-prefix=OPTS
// RUN: not dwc-opt %s --convert-dwc-to-gpu-global-pool=unroll=0 2>&1 | FileCheck %s --check-prefix=OPTS
// RUN: not dwc-opt %s --convert-dwc-to-gpu-global-pool=position-blocks=-1 2>&1 | FileCheck %s --check-prefix=OPTS
// RUN: dwc-opt %s --split-input-file --convert-dwc-to-gpu-global-pool="channel-tile=1 threads=1024" | FileCheck %s --check-prefix=WIDE

// OPTS: convert-dwc-to-gpu-global-pool: channel-tile must be 0 or a power of two <= 32, threads 0 or a multiple of 32 <= 1024, unroll in [1, 16], position-blocks in [0, 4096]

// Tensor form: left for bufferization.
// CHECK-LABEL: func.func @tensor_form
// CHECK: dwc.global_avg_pool
// CHECK-NOT: gpu.launch
func.func @tensor_form(%x: tensor<2x7x7x64xf32>) -> tensor<2x1x1x64xf32> {
  %init = tensor.empty() : tensor<2x1x1x64xf32>
  %y = dwc.global_avg_pool ins(%x : tensor<2x7x7x64xf32>) outs(%init : tensor<2x1x1x64xf32>) -> tensor<2x1x1x64xf32>
  return %y : tensor<2x1x1x64xf32>
}

// -----

// Non-identity layouts: left to the baseline.
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

// Options that give a block of one channel vector x 1024 rows (a butterfly
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
