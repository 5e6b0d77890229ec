// convert-dwc-to-gpu-pool, strided pool2d_backward as stride-aligned gather
// tiles: a thread owns TH = sh dX rows x TM = 4 dX columns; the NR x NW
// windows covering the tile (3x3 stride 2 pad 1: 2 x 3) are visited once
// each, one dY load (and, for max, one i8 tap load) per window, and each
// window adds to the tile positions it covers at compile-time taps: no
// parity branch (no scf.if yielding partial sums), no division per window.
// rows = 1 keeps the single-row strips; vw = 1 (C % 4 != 0) and max with a recomputed argmax
// are left to the strips.
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-pool -split-input-file | FileCheck %s
// The variants a test requests as dwc.kernel: single-row strips, 4-row tiles.
// RUN: sed -e '/^func.func @max_bwd_3x3_s2(/,/return/s/padding = \[1, 1, 1, 1\]$/& {dwc.kernel = #dwc.pool_backward<rows = 1>}/' \
// RUN:     -e '/^func.func @avg_bwd_3x3_s2_f16(/,/return/s/padding = \[1, 1, 1, 1\]$/& {dwc.kernel = #dwc.pool_backward<rows = 1>}/' %s \
// RUN:   | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-pool -split-input-file | FileCheck %s --check-prefix=STRIP
// RUN: sed -e '/^func.func @max_bwd_3x3_s2(/,/return/s/padding = \[1, 1, 1, 1\]$/& {dwc.kernel = #dwc.pool_backward<rows = 4>}/' %s \
// RUN:   | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-pool -split-input-file | FileCheck %s --check-prefix=ROWS4

// CHECK-LABEL: func @max_bwd_3x3_s2
// CHECK: %[[WS:.*]] = memref.alloc() : memref<1x4x4x16xi8>
// CHECK: gpu.launch
// CHECK: gpu.terminator
// Gather tiles: 1 x 4 x 2 x 4 threads (N x IH/2 x IW/4 x C/4).
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}}) threads({{.*}}) in ({{.*}} = %c256
// CHECK-NOT: scf.yield
// CHECK: vector.load %arg1{{.*}} : memref<1x4x4x16xf32>, vector<4xf32>
// CHECK-NEXT: vector.load %[[WS]]{{.*}} : memref<1x4x4x16xi8>, vector<4xi8>
// CHECK-NEXT: arith.extsi
// CHECK-COUNT-4: arith.cmpi eq
// CHECK: vector.load %arg1
// CHECK-COUNT-6: arith.cmpi eq
// CHECK: vector.load %arg1
// CHECK-COUNT-2: arith.cmpi eq
// CHECK: vector.load %arg1
// CHECK-COUNT-2: arith.cmpi eq
// CHECK: vector.load %arg1
// CHECK-COUNT-3: arith.cmpi eq
// CHECK: vector.load %arg1
// CHECK-COUNT-1: arith.cmpi eq
// CHECK-NOT: vector.load %arg1
// CHECK-NOT: scf.yield
// CHECK-COUNT-8: vector.store %{{.*}}, %arg2
// CHECK: gpu.terminator
// CHECK: memref.dealloc %[[WS]]

// STRIP-LABEL: func @max_bwd_3x3_s2
// STRIP: gpu.launch
// STRIP: gpu.launch
// STRIP: scf.if
// STRIP: scf.yield

// ROWS4-LABEL: func @max_bwd_3x3_s2
// ROWS4: gpu.launch
// ROWS4: gpu.launch
// ROWS4-COUNT-16: vector.store %{{.*}}, %arg2
func.func @max_bwd_3x3_s2(%x: memref<1x8x8x16xf32>, %dy: memref<1x4x4x16xf32>, %dx: memref<1x8x8x16xf32>) {
  dwc.pool2d_backward max ins(%x, %dy : memref<1x8x8x16xf32>, memref<1x4x4x16xf32>) outs(%dx : memref<1x8x8x16xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1]
  return
}

// -----

// Avg: one reciprocal per window row and per window column (2 + 3), the
// product scales each dY vector; 7 dX rows: the last tile row is guarded.
// CHECK-LABEL: func @avg_bwd_3x3_s2_f16
// CHECK: gpu.launch
// CHECK-COUNT-5: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK-NOT: arith.divf
// CHECK: vector.load %arg1{{.*}} : memref<1x4x4x16xf16>, vector<8xf16>
// CHECK: arith.extf %{{.*}} : vector<8xf16> to vector<8xf32>
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: arith.cmpi slt
// CHECK: scf.if
// CHECK: vector.store %{{.*}}, %arg2
// STRIP-LABEL: func @avg_bwd_3x3_s2_f16
// STRIP: scf.yield
func.func @avg_bwd_3x3_s2_f16(%x: memref<1x7x8x16xf16>, %dy: memref<1x4x4x16xf16>, %dx: memref<1x7x8x16xf16>) {
  dwc.pool2d_backward avg ins(%x, %dy : memref<1x7x8x16xf16>, memref<1x4x4x16xf16>) outs(%dx : memref<1x7x8x16xf16>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1]
  return
}

// -----

// Refused: no 128-bit channel vector (C = 5) keeps the strips.
// CHECK-LABEL: func @avg_bwd_c5
// CHECK: gpu.launch
// CHECK: scf.if
// CHECK: scf.yield
func.func @avg_bwd_c5(%x: memref<1x8x8x5xf32>, %dy: memref<1x4x4x5xf32>, %dx: memref<1x8x8x5xf32>) {
  dwc.pool2d_backward avg ins(%x, %dy : memref<1x8x8x5xf32>, memref<1x4x4x5xf32>) outs(%dx : memref<1x8x8x5xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1]
  return
}

// -----

// Refused: max with a recomputed argmax (non-overlapping 2x2 stride 2).
// CHECK-LABEL: func @max_bwd_2x2_s2
// CHECK-NOT: memref.alloc
// CHECK: gpu.launch
// CHECK: scf.yield
// CHECK: vector.load %arg0
func.func @max_bwd_2x2_s2(%x: memref<1x8x8x16xf32>, %dy: memref<1x4x4x16xf32>, %dx: memref<1x8x8x16xf32>) {
  dwc.pool2d_backward max ins(%x, %dy : memref<1x8x8x16xf32>, memref<1x4x4x16xf32>) outs(%dx : memref<1x8x8x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0]
  return
}
