// convert-dwc-to-gpu-pool, pool2d_backward whose windows are too wide for
// the gather strips (their unrolled code grows with the window: a 7x28 max
// gradient took 96 s to compile): the rolled gather, one thread per dX
// position x 128-bit channel vector, looping over the covering windows
// (bounds computed at run time) and, for max, over each window's taps to
// recompute its argmax. Narrow windows keep the strips (no rolled loops).
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-pool --canonicalize --cse | FileCheck %s
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-pool --canonicalize --cse | grep -c "scf.for" | FileCheck %s --check-prefix=LOOPS

// 1 x 20 x 40 x (8 / 4) threads, each owning one dX position.
// CHECK-LABEL: func @max_7x28
// CHECK: gpu.launch blocks(%{{.*}}) in (%{{.*}} = %c7, %{{.*}} = %c1, %{{.*}} = %c1) threads(%{{.*}}) in (%{{.*}} = %c256,
// The covering windows: oh from max(0, ceil((ih - 6) / 1)) to min(ih + 1, 14).
// CHECK: %[[OH:.*]] = scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %c1 iter_args(
// CHECK:   scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1 iter_args(
// The window's argmax, recomputed over its 7 x 28 taps.
// CHECK:     scf.for %{{.*}} = %c0 to %c7 step %c1 iter_args(
// CHECK:       scf.for %{{.*}} = %c0 to %c28 step %c1 iter_args(
// CHECK:         arith.cmpf ogt
// CHECK:     arith.cmpi eq, %{{.*}} : vector<4xi32>
// CHECK: vector.store %{{.*}}, %arg2
func.func @max_7x28(%x: memref<1x20x40x8xf32>, %dy: memref<1x14x13x8xf32>, %dx: memref<1x20x40x8xf32>) {
  dwc.pool2d_backward max ins(%x, %dy : memref<1x20x40x8xf32>, memref<1x14x13x8xf32>) outs(%dx : memref<1x20x40x8xf32>)
    window = [7, 28] strides = [1, 1] padding = [0, 0, 0, 0]
  return
}

// An average over 7 x 200 windows: the windows' divisors, no argmax.
// CHECK-LABEL: func @avg_7x200
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: arith.cmpf ogt
// CHECK: arith.divf
// CHECK: vector.store %{{.*}}, %arg2
func.func @avg_7x200(%x: memref<1x10x210x8xf32>, %dy: memref<1x4x11x8xf32>, %dx: memref<1x10x210x8xf32>) {
  dwc.pool2d_backward avg ins(%x, %dy : memref<1x10x210x8xf32>, memref<1x4x11x8xf32>) outs(%dx : memref<1x10x210x8xf32>)
    window = [7, 200] strides = [1, 1] padding = [0, 0, 0, 0]
  return
}

// A 3x3 stride-2 max gradient keeps its gather (no loops at all).
// CHECK-LABEL: func @narrow
// CHECK-NOT: scf.for
// CHECK: return
func.func @narrow(%x: memref<1x8x8x8xf32>, %dy: memref<1x3x3x8xf32>, %dx: memref<1x8x8x8xf32>) {
  dwc.pool2d_backward max ins(%x, %dy : memref<1x8x8x8xf32>, memref<1x3x3x8xf32>) outs(%dx : memref<1x8x8x8xf32>)
    window = [3, 3] strides = [2, 2] padding = [0, 0, 0, 0]
  return
}

// LOOPS: 6
