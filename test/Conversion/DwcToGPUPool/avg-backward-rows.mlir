// convert-dwc-to-gpu-pool, stride-1 average pool2d_backward: dX is a 3x3 box
// sum of dY / divisor, emitted as row tiles (8 dX rows x 4 dX columns x 4
// channels per thread, like the forward kernel): each dY vector of the tile
// loaded once, scaled by one scalar reciprocal-divisor product (no vector
// division), summed, and each dX row stored after its last dY row. With
// #dwc.pool_backward<rows = 1> the gather kernel is used instead.
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-pool --canonicalize --cse | FileCheck %s
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-pool --canonicalize --cse | grep -c "vector.load %arg1" | FileCheck %s --check-prefix=LOADS
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-pool --canonicalize --cse | grep -c "vector.store %.*, %arg2" | FileCheck %s --check-prefix=STORES
// RUN: sed 's/padding = \[1, 1, 1, 1\]$/& {dwc.kernel = #dwc.pool_backward<rows = 1>}/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-pool --canonicalize --cse | FileCheck %s --check-prefix=GATHER

// 8 threads: 2 column tiles x 4 channel vectors, each tile all 8 rows.
// dY rows -1 and 8 fold away (outside dY), leaving 8 rows x 6 columns of
// loads and 32 stores per thread.
// CHECK-LABEL: func @avg_bwd_s1
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1, {{.*}}) threads({{.*}}) in ({{.*}} = %c256
// CHECK: arith.cmpi ult, %{{.*}}, %c8
// CHECK-NOT: arith.divf {{.*}} : vector<4xf32>
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK: vector.load %arg1
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: arith.mulf %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK: vector.store %{{.*}}, %arg2
// CHECK: gpu.terminator
// LOADS: 48
// STORES: 32
// GATHER-LABEL: func @avg_bwd_s1
// GATHER: arith.remui
// GATHER: scf.if
func.func @avg_bwd_s1(%x: memref<1x8x8x16xf32>, %dy: memref<1x8x8x16xf32>, %dx: memref<1x8x8x16xf32>) {
  dwc.pool2d_backward avg ins(%x, %dy : memref<1x8x8x16xf32>, memref<1x8x8x16xf32>) outs(%dx : memref<1x8x8x16xf32>) window = [3, 3] strides = [1, 1] padding = [1, 1, 1, 1]
  return
}
