// RUN: dwc-opt %s --split-input-file --dwc-select-kernels --convert-dwc-to-gpu-global-pool | FileCheck %s
// A tiling a test requests as dwc.kernel (on every dwc.global_avg_pool):
// RUN: sed 's/^  dwc.global_avg_pool .*$/& {dwc.kernel = #dwc.global_pool<channel_tile = 8, threads = 128, unroll = 4>}/' %s \
// RUN:   | dwc-opt --split-input-file --dwc-select-kernels --convert-dwc-to-gpu-global-pool | FileCheck %s --check-prefix=OPT

// A classifier head: 32-vector channel tiles (6 per image) x 8 position
// rows, 7 loads per thread in flight (positions r, r + 8, ..., the last
// clamped and zeroed past 49), the 8 warps' sums through workgroup memory.
// CHECK-LABEL: func.func @head_f32
// CHECK: %[[C768:.*]] = arith.constant 768 : index
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %[[C768]], {{.*}}) threads({{.*}}) in ({{.*}} = %c256,
// CHECK-SAME: workgroup(%{{.*}} : memref<8x32x4xf32, #gpu.address_space<workgroup>>)
// CHECK: memref.collapse_shape %{{.*}} {{\[\[}}0], [1, 2], [3]] : memref<128x7x7x768xf32> into memref<128x49x768xf32>
// CHECK-COUNT-7: vector.load %{{.*}} : memref<128x49x768xf32>, vector<4xf32>
// CHECK: arith.select
// CHECK-NOT: gpu.shuffle
// CHECK: vector.store %{{.*}} : memref<8x32x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: gpu.barrier
// CHECK-COUNT-8: vector.load %{{.*}} : memref<8x32x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: arith.divf %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK: vector.store %{{.*}} : memref<128x768xf32>, vector<4xf32>
// CHECK-NOT: dwc.global_avg_pool
// OPT-LABEL: func.func @head_f32
// OPT: gpu.launch blocks({{.*}}) in ({{.*}} = %c3072, {{.*}}) threads({{.*}}) in ({{.*}} = %c128,
// OPT-SAME: workgroup(%{{.*}} : memref<4x8x4xf32, #gpu.address_space<workgroup>>)
// OPT-COUNT-4: vector.load %{{.*}} : memref<128x49x768xf32>, vector<4xf32>
// OPT: gpu.shuffle xor
func.func @head_f32(%x: memref<128x7x7x768xf32>, %y: memref<128x1x1x768xf32>) {
  dwc.global_avg_pool ins(%x : memref<128x7x7x768xf32>) outs(%y : memref<128x1x1x768xf32>)
  return
}

// -----

// A squeeze-excite input with 12 channel vectors: 16-vector tiles would
// give 128 blocks (fewer than the SMs), so 8-vector tiles (2 per image, 4
// lanes of the second idle) x 128 rows of 1024 threads (the grid held
// less than half of the GPU's threads), 25 positions per thread (an
// scf.for of 8 loads, then the tail), widened to f32, a butterfly over the
// 4 rows of each warp.
// CHECK-LABEL: func.func @se_f16
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c256, {{.*}}) threads({{.*}}) in ({{.*}} = %c1024,
// CHECK-SAME: workgroup(%{{.*}} : memref<32x8x8xf32, #gpu.address_space<workgroup>>)
// CHECK: arith.cmpi ult, %{{.*}}, %c12
// CHECK: scf.for
// CHECK-COUNT-8: vector.load %{{.*}} : memref<128x3136x96xf16>, vector<8xf16>
// CHECK: scf.yield
// CHECK: vector.load %{{.*}} : memref<128x3136x96xf16>, vector<8xf16>
// CHECK: arith.extf %{{.*}} : vector<8xf16> to vector<8xf32>
// CHECK: gpu.shuffle xor %{{.*}}, %c8_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32, %c32_i32{{.*}} : f32
// CHECK: gpu.barrier
// CHECK: arith.truncf %{{.*}} : vector<8xf32> to vector<8xf16>
// CHECK: vector.store %{{.*}} : memref<128x96xf16>, vector<8xf16>
func.func @se_f16(%x: memref<128x56x56x96xf16>, %y: memref<128x1x1x96xf16>) {
  dwc.global_avg_pool ins(%x : memref<128x56x56x96xf16>) outs(%y : memref<128x1x1x96xf16>)
  return
}

// -----

// C = 77 (no vector divides it): scalar channels; 3 tiles of 32, the last
// with 13 active lanes (the others load a clamped channel and never store).
// CHECK-LABEL: func.func @odd_bf16
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c9, {{.*}}) threads({{.*}}) in ({{.*}} = %c256,
// CHECK: arith.cmpi ult, %{{.*}}, %c77
// CHECK: arith.minsi
// CHECK: vector.load %{{.*}} : memref<3x63x77xbf16>, vector<1xbf16>
// CHECK: vector.store %{{.*}} : memref<3x77xbf16>, vector<1xbf16>
func.func @odd_bf16(%x: memref<3x7x9x77xbf16>, %y: memref<3x1x1x77xbf16>) {
  dwc.global_avg_pool ins(%x : memref<3x7x9x77xbf16>) outs(%y : memref<3x1x1x77xbf16>)
  return
}

// -----

// avg_pool2d over the whole map (no padding, no activation) is the same
// reduction; C = 100 f16 takes 64-bit vectors (4 halves).
// CHECK-LABEL: func.func @pool2d_global
// CHECK: gpu.launch
// CHECK: vector.load %{{.*}} : memref<4x81x100xf16>, vector<4xf16>
// CHECK: arith.divf
// CHECK-NOT: dwc.pool2d
func.func @pool2d_global(%x: memref<4x9x9x100xf16>, %y: memref<4x1x1x100xf16>) {
  dwc.pool2d avg ins(%x : memref<4x9x9x100xf16>) outs(%y : memref<4x1x1x100xf16>) window = [9, 9] strides = [9, 9] padding = [0, 0, 0, 0]
  return
}

// -----

// The gradient: dY / 49 once per thread (in f32, rounded once), stored at
// the thread's 7 positions (r, r + 8, ...; the last guarded: 49 is not a
// multiple of 8); X is not read.
// CHECK-LABEL: func.func @backward_f16
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c384, {{.*}}) threads({{.*}}) in ({{.*}} = %c256,
// CHECK-NOT: workgroup
// CHECK: vector.load %{{.*}} : memref<128x1x1x768xf16>, vector<8xf16>
// CHECK: arith.extf
// CHECK: arith.divf
// CHECK: arith.truncf
// CHECK-COUNT-6: vector.store %{{.*}} : memref<128x49x768xf16>, vector<8xf16>
// CHECK: scf.if
// CHECK: vector.store %{{.*}} : memref<128x49x768xf16>, vector<8xf16>
// CHECK-NOT: memref<128x7x7x768xf16>, vector
// CHECK-NOT: dwc.pool2d_backward
func.func @backward_f16(%x: memref<128x7x7x768xf16>, %dy: memref<128x1x1x768xf16>, %dx: memref<128x7x7x768xf16>) {
  dwc.pool2d_backward avg ins(%x, %dy : memref<128x7x7x768xf16>, memref<128x1x1x768xf16>) outs(%dx : memref<128x7x7x768xf16>) window = [7, 7] strides = [7, 7] padding = [0, 0, 0, 0]
  return
}

// -----

// A batch-1 gradient: one tile of the 24 channel vectors (the exact tile:
// no idle lane) x 12 rows (288 threads) would be one block; each image's
// positions go to 262 blocks (~2 per SM, at most one per row: 3136 / 12),
// block s taking rows s * 12 + r + k * 3144: one position per thread,
// guarded (3136 < 3144).
// CHECK-LABEL: func.func @backward_batch1
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c262, {{.*}}) threads({{.*}}) in ({{.*}} = %c288,
// CHECK: arith.divui %{{.*}}, %c262
// CHECK: arith.remui %{{.*}}, %c262
// CHECK: scf.if
// CHECK: vector.store %{{.*}} : memref<1x3136x96xf32>, vector<4xf32>
// CHECK-NOT: vector.store
// OPT-LABEL: func.func @backward_batch1
func.func @backward_batch1(%x: memref<1x56x56x96xf32>, %dy: memref<1x1x1x96xf32>, %dx: memref<1x56x56x96xf32>) {
  dwc.pool2d_backward avg ins(%x, %dy : memref<1x56x56x96xf32>, memref<1x1x1x96xf32>) outs(%dx : memref<1x56x56x96xf32>) window = [56, 56] strides = [56, 56] padding = [0, 0, 0, 0]
  return
}

// -----

// The SE gradient of a training batch: 144 f16 channels are 18 vectors, one
// exact tile of 18 (a power-of-two tile of 32 would idle 14 lanes): no lane
// guard, rows of 18 lanes x 32 (576 threads), 3 blocks per image (128 x 1
// tiles is fewer blocks than SMs).
// CHECK-LABEL: func.func @backward_exact_tile
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c384, {{.*}}) threads({{.*}}) in ({{.*}} = %c576,
// CHECK: arith.remui %{{.*}}, %c18
// CHECK-NOT: arith.cmpi ult, %{{.*}}, %c18
// CHECK: scf.for
// CHECK-COUNT-8: vector.store %{{.*}} : memref<128x3136x144xf16>, vector<8xf16>
func.func @backward_exact_tile(%x: memref<128x56x56x144xf16>, %dy: memref<128x1x1x144xf16>, %dx: memref<128x56x56x144xf16>) {
  dwc.pool2d_backward avg ins(%x, %dy : memref<128x56x56x144xf16>, memref<128x1x1x144xf16>) outs(%dx : memref<128x56x56x144xf16>) window = [56, 56] strides = [56, 56] padding = [0, 0, 0, 0]
  return
}
