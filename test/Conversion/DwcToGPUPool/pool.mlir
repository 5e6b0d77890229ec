// convert-dwc-to-gpu-pool: the shape of the kernels (strips, width-first
// column reuse, 128-bit accesses, exact padding, f32 accumulation, the
// gather backward with its argmax recomputation) and the ops it leaves to
// other passes. The kernels are those dwc-select-kernels chooses, or the
// variants a test writes as dwc.kernel (the 3x3 stride-2 STRIP cases as
// single-row strips: by default they are row tiles, like @max_3x3_s1_rows).
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-pool --canonicalize --cse -split-input-file | FileCheck %s --check-prefixes=CHECK,STRIP

// 8x8 -> 4x4, 16 channels: 4 channel vectors x 4 rows x 1 strip of 4
// outputs = 16 threads of one 256-thread block.
// STRIP-LABEL: func @max_3x3_s2
// STRIP: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}}) threads({{.*}}) in ({{.*}} = %c256
// STRIP: arith.cmpi ult, %{{.*}}, %c16
// The first window row may lie in the padding: one scf.if for the row.
// STRIP: scf.if %{{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// Width-first: 8 in-bounds columns of the row (the 9th is the left
// padding, folded away), each loaded once and folded into the outputs
// whose window holds it (12 taps - 1 padding tap - 4 first taps = 7 max).
// STRIP-COUNT-8: vector.load %arg0{{.*}} vector<4xf32>
// STRIP: scf.yield
// STRIP: else
// STRIP: scf.yield %[[NINF:.*]], %[[NINF]], %[[NINF]], %[[NINF]]
// Rows 2 and 3 of the window are always inside the input: no scf.if.
// STRIP-NOT: scf.if
// STRIP-COUNT-4: vector.store %{{.*}}, %arg1{{.*}} {alignment = 16 : i64} : memref<1x4x4x16xf32>, vector<4xf32>
// STRIP: gpu.terminator
func.func @max_3x3_s2(%x: memref<1x8x8x16xf32>, %y: memref<1x4x4x16xf32>) {
  dwc.pool2d max ins(%x : memref<1x8x8x16xf32>) outs(%y : memref<1x4x4x16xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.pool_forward<rows = 1>}
  return
}

// -----

// Average, f16: 8 channels (128 bits) per thread, f32 sums, the
// count_include_pad divisor per output, one truncf per output.
// STRIP-LABEL: func @avg_f16
// STRIP: vector.load %arg0{{.*}} : memref<1x8x8x16xf16>, vector<8xf16>
// STRIP: arith.extf %{{.*}} : vector<8xf16> to vector<8xf32>
// STRIP: arith.addf {{.*}} : vector<8xf32>
// STRIP: arith.sitofp %{{.*}} : i64 to f32
// STRIP: arith.divf %{{.*}}, %{{.*}} : f32
// STRIP: arith.mulf {{.*}} : vector<8xf32>
// STRIP: arith.truncf %{{.*}} : vector<8xf32> to vector<8xf16>
// STRIP: vector.store %{{.*}}, %arg1{{.*}} : memref<1x4x4x16xf16>, vector<8xf16>
func.func @avg_f16(%x: memref<1x8x8x16xf16>, %y: memref<1x4x4x16xf16>) {
  dwc.pool2d avg ins(%x : memref<1x8x8x16xf16>) outs(%y : memref<1x4x4x16xf16>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] count_include_pad {dwc.kernel = #dwc.pool_forward<rows = 1>}
  return
}

// -----

// Stride 1: strips of 8 outputs; 12 = 8 + 4, so the second strip is
// partial: its outputs 4..7 are stored under a bounds check, its columns
// past the input are clamped loads replaced by 0.
// CHECK-LABEL: func @avg_1x3_s1_strip
// CHECK: %[[IW:.*]] = arith.addi %{{.*}}, %c4
// CHECK: %[[IN:.*]] = arith.cmpi slt, %[[IW]], %c12
// CHECK: %[[CL:.*]] = arith.minsi %{{.*}}, %c11
// CHECK: %[[V:.*]] = vector.load %arg0[%{{.*}}, %{{.*}}, %[[CL]], %{{.*}}]
// CHECK: arith.select %[[IN]], %[[V]], %cst
// CHECK-COUNT-4: vector.store %{{.*}}, %arg1
// CHECK: scf.if
// CHECK: vector.store %{{.*}}, %arg1
func.func @avg_1x3_s1_strip(%x: memref<1x4x12x8xf32>, %y: memref<1x4x12x8xf32>) {
  dwc.pool2d avg ins(%x : memref<1x4x12x8xf32>) outs(%y : memref<1x4x12x8xf32>) window = [1, 3] strides = [1, 1] padding = [0, 0, 1, 1]
  return
}

// -----

// Stride 1, 3x3: row tiles of 8 output rows x 4 outputs (16 threads); 10
// rows = 8 + 2, so the tile rows 2..7 are stored under a row check. The 10
// input rows x 6 columns are loaded once each (no scf.if: rows outside the
// input are clamped and replaced by -inf), each output row stored after its
// last window row.
// CHECK-LABEL: func @max_3x3_s1_rows
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}}) threads
// CHECK: arith.cmpi ult, %{{.*}}, %c16
// CHECK-NEXT: scf.if
// Output row 0 after input rows 0..2, row 1 after row 3 (always stored).
// CHECK-COUNT-18: vector.load %arg0
// CHECK-COUNT-4: vector.store %{{.*}}, %arg1
// CHECK-COUNT-6: vector.load %arg0
// CHECK-COUNT-4: vector.store %{{.*}}, %arg1
// CHECK-NOT: scf.if
// CHECK-COUNT-6: vector.load %arg0
// Output row 2 of the tile: oh < 10.
// CHECK: arith.cmpi slt, %{{.*}}, %c10
// CHECK: scf.if %{{.*}} {
// CHECK: vector.store %{{.*}}, %arg1
// CHECK: gpu.terminator
func.func @max_3x3_s1_rows(%x: memref<1x10x8x16xf32>, %y: memref<1x10x8x16xf32>) {
  dwc.pool2d max ins(%x : memref<1x10x8x16xf32>) outs(%y : memref<1x10x8x16xf32>) window = [3, 3] strides = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// Backward of max pooling, a gather: a thread owns 4 dX positions x 4
// channels; window rows with (ih + pt - kh) % 2 == 0 only; the argmax tap
// of each covering window is recomputed from X (strictly greater, starting
// from the window's first tap inside the input: one compare per tap, no
// "unset" test), then dY is added where the tap is this position.
// CHECK-LABEL: func @max_bwd
// CHECK: arith.remui %{{.*}}, %c2
// CHECK: scf.if %{{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// CHECK: vector.load %arg0
// CHECK-NOT: arith.cmpi slt, %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK: arith.cmpf ogt, %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi1>, vector<4xi32>
// CHECK: vector.load %arg1
// CHECK: arith.cmpi eq, %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK: arith.addf {{.*}} : vector<4xf32>
// CHECK-COUNT-4: vector.store %{{.*}}, %arg2{{.*}} : memref<1x8x8x16xf32>, vector<4xf32>
func.func @max_bwd(%x: memref<1x8x8x16xf32>, %dy: memref<1x4x4x16xf32>, %dx: memref<1x8x8x16xf32>) {
  dwc.pool2d_backward max ins(%x, %dy : memref<1x8x8x16xf32>, memref<1x4x4x16xf32>) outs(%dx : memref<1x8x8x16xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.pool_backward<rows = 1, argmax = "recompute">}
  return
}

// -----

// Backward of average pooling with 5 channels: scalar accesses (the
// baseline has no backward kernel, so every channel count is taken).
// CHECK-LABEL: func @avg_bwd_c5
// CHECK: gpu.launch
// CHECK-NOT: vector.load
// CHECK: memref.load %arg1
// CHECK: arith.divf
// CHECK: memref.store %{{.*}}, %arg2
// CHECK-NOT: dwc.pool2d_backward
func.func @avg_bwd_c5(%x: memref<1x6x6x5xf32>, %dy: memref<1x3x3x5xf32>, %dx: memref<1x6x6x5xf32>) {
  dwc.pool2d_backward avg ins(%x, %dy : memref<1x6x6x5xf32>, memref<1x3x3x5xf32>) outs(%dx : memref<1x6x6x5xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0]
  return
}

// -----

// Left to other passes: channels that do not fill 128-bit vectors and a
// window wider than the register strip (no configuration: the direct
// kernels), the global average (#dwc.global_pool: convert-dwc-to-gpu-
// global-pool), the tensor form (configured, but not bufferized).
// CHECK-LABEL: func @refused
// CHECK-NOT: gpu.launch
// CHECK: dwc.pool2d max ins(%arg0 : memref<1x8x8x6xf32>)
// CHECK: dwc.global_avg_pool ins(%arg2 : memref<1x4x4x12xf16>)
// CHECK: dwc.pool2d avg ins(%arg4 : memref<1x4x80x4xf32>)
// CHECK: dwc.pool2d max ins(%arg6 : tensor<1x8x8x8xf32>)
// CHECK: dwc.pool2d_backward max ins(%arg6, %arg7
func.func @refused(%a: memref<1x8x8x6xf32>, %b: memref<1x4x4x6xf32>,
                   %c: memref<1x4x4x12xf16>, %d: memref<1x1x1x12xf16>,
                   %e: memref<1x4x80x4xf32>, %f: memref<1x4x2x4xf32>,
                   %t: tensor<1x8x8x8xf32>, %u: tensor<1x4x4x8xf32>) -> (tensor<1x4x4x8xf32>, tensor<1x8x8x8xf32>) {
  dwc.pool2d max ins(%a : memref<1x8x8x6xf32>) outs(%b : memref<1x4x4x6xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0]
  dwc.global_avg_pool ins(%c : memref<1x4x4x12xf16>) outs(%d : memref<1x1x1x12xf16>)
  dwc.pool2d avg ins(%e : memref<1x4x80x4xf32>) outs(%f : memref<1x4x2x4xf32>) window = [1, 60] strides = [1, 20] padding = [0, 0, 0, 0]
  %r = dwc.pool2d max ins(%t : tensor<1x8x8x8xf32>) outs(%u : tensor<1x4x4x8xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x8xf32>
  %g = dwc.pool2d_backward max ins(%t, %u : tensor<1x8x8x8xf32>, tensor<1x4x4x8xf32>) outs(%t : tensor<1x8x8x8xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x8x8x8xf32>
  return %r, %g : tensor<1x4x4x8xf32>, tensor<1x8x8x8xf32>
}

// -----

// Stride-1 average of f16 (8 f32 sums per channel vector): by default one
// output per row and 4 rows per thread (2 row tiles x 8 columns x 2 channel
// vectors = 32 threads), 4 stores each.
// CHECK-LABEL: func @avg_f16_s1_rows
// CHECK: arith.cmpi ult, %{{.*}}, %c32
// CHECK-COUNT-4: vector.store %{{.*}}, %arg1{{.*}} : memref<1x8x8x16xf16>, vector<8xf16>
// CHECK-NOT: vector.store
// CHECK: gpu.terminator
func.func @avg_f16_s1_rows(%x: memref<1x8x8x16xf16>, %y: memref<1x8x8x16xf16>) {
  dwc.pool2d avg ins(%x : memref<1x8x8x16xf16>) outs(%y : memref<1x8x8x16xf16>) window = [3, 3] strides = [1, 1] padding = [1, 1, 1, 1]
  return
}
