// RUN: dwc-opt %s --split-input-file --dwc-select-kernels --convert-dwc-to-gpu-strided | FileCheck %s
// The configurations dwc-select-kernels attaches to these ops are checked in
// test/Conversion/KernelSelection/config-strided.mlir; here, what the pass
// emits for them.

// Backward data, 3x3 stride 2, 8x8 dX: super rows t = 0..4 (t0 = pt / 2 = 0),
// Q = 5 super columns in segments of 4 (the last one cut at the edge). 9
// filter vectors, one warm-up dY column and per super column one new column
// of ceil(3/2) = 2 dY vectors: 9 + 2 + 4 x 2 = 19 loads; per super column
// the 2 x 2 phases take 4 + 2 + 2 + 1 = 9 FMAs (36) and 4 stores (16). No
// divisibility test.
// CHECK-LABEL: func @bwd_data_3x3_s2
// CHECK: gpu.launch
// CHECK-SAME: threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c256,
// CHECK-NOT: arith.remsi
// CHECK-NOT: arith.divsi
// CHECK-COUNT-9: vector.load %arg1
// CHECK-COUNT-2: vector.load %arg0
// CHECK-COUNT-4: vector.fma
// CHECK-NOT: vector.fma
// CHECK: vector.store %{{.*}}, %arg2
// CHECK-COUNT-32: vector.fma
// CHECK-NOT: dwc.depthwise_conv2d_backward_data
func.func @bwd_data_3x3_s2(%dy: memref<2x4x4x32xf32>, %w: memref<3x3x32xf32>, %dx: memref<2x8x8x32xf32>) {
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<2x4x4x32xf32>, memref<3x3x32xf32>) outs(%dx : memref<2x8x8x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// Forward, 3x3 stride 2 with bias, 5x5 output, the big-grid tile requested
// (a grid this small takes one output per thread by default): TH = 2 output rows (5 input
// rows), TQ = 5 columns; one warm-up column (FW - sw = 1 shared) and 2 new
// columns per output column: 5 + 5 x 10 = 55 input loads, 2 x 9 FMAs per
// column (90: 9 before the first store), 10 stores (the last row tile's
// second row guarded).
// CHECK-LABEL: func @fwd_3x3_s2
// CHECK: gpu.launch
// CHECK-COUNT-9: vector.load %arg1
// CHECK: vector.load %arg2
// CHECK-COUNT-5: vector.load %arg0
// CHECK-COUNT-10: vector.load %arg0
// CHECK-COUNT-9: vector.fma
// CHECK: vector.store %{{.*}}, %arg3
// CHECK-COUNT-81: vector.fma
// CHECK-NOT: dwc.depthwise_conv2d
func.func @fwd_3x3_s2(%x: memref<1x9x9x32xf32>, %w: memref<3x3x32xf32>, %b: memref<32xf32>, %y: memref<1x5x5x32xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x9x9x32xf32>, memref<3x3x32xf32>) bias(%b : memref<32xf32>) outs(%y : memref<1x5x5x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
    {dwc.kernel = #dwc.strided_forward<channels = 4, rows = 2, columns = 8>}
  return
}

// -----

// A configuration of another family (here the direct kernel, as a user
// would request it): left alone.
// CHECK-LABEL: func @other_kernel
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d ins{{.*}}dwc.kernel = #dwc.direct
func.func @other_kernel(%x: memref<1x9x9x32xf32>, %w: memref<3x3x32xf32>, %y: memref<1x5x5x32xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x9x9x32xf32>, memref<3x3x32xf32>) outs(%y : memref<1x5x5x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.direct}
  return
}

// -----

// The configuration's channels and tiles, as given: 32-bit vectors (one f32
// channel), 1-row x 3-column forward tiles, 2-super-column gathers.
// CHECK-LABEL: func @given_config
// CHECK: vector.load %arg0{{.*}} : memref<1x9x9x32xf32>, vector<1xf32>
// CHECK: vector.load %arg3{{.*}} : memref<1x4x4x32xf32>, vector<1xf32>
func.func @given_config(%x: memref<1x9x9x32xf32>, %w: memref<3x3x32xf32>, %y: memref<1x5x5x32xf32>,
                        %dy: memref<1x4x4x32xf32>, %dx: memref<1x8x8x32xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x9x9x32xf32>, memref<3x3x32xf32>) outs(%y : memref<1x5x5x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
    {dwc.kernel = #dwc.strided_forward<channels = 1, rows = 1, columns = 3>}
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<1x4x4x32xf32>, memref<3x3x32xf32>) outs(%dx : memref<1x8x8x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
    {dwc.kernel = #dwc.strided_gather<channels = 1, columns = 2>}
  return
}

// -----

// loads_first (the small-grid default, config-strided.mlir): 5x5 stride 2,
// 1 x 2 outputs of one f32 channel: the 25 filter values and the window's
// 5 rows x 7 columns (35 loads) before the first FMA; the first filter
// load carries the register budget that dwc-kernel-occupancy makes
// nvvm.maxnreg. Requested without it: the first output's 5 columns, its
// FMAs, then the next output's 2 columns.
// CHECK-LABEL: func @fwd_5x5_s2_loads_first
// CHECK: vector.load %arg1{{.*}}dwc.max_registers = 255 : i64
// CHECK-COUNT-24: vector.load %arg1
// CHECK-COUNT-35: vector.load %arg0
// CHECK-NOT: vector.load
// CHECK: vector.fma
// CHECK-NOT: vector.load
// CHECK-LABEL: func @fwd_5x5_s2_by_columns
// CHECK-NOT: dwc.max_registers
// CHECK-COUNT-25: vector.load %arg1
// CHECK-COUNT-25: vector.load %arg0
// CHECK-NOT: vector.load
// CHECK: vector.fma
// CHECK: vector.load %arg0
func.func @fwd_5x5_s2_loads_first(%x: memref<1x28x28x240xf32>, %w: memref<5x5x240xf32>, %y: memref<1x14x14x240xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x28x28x240xf32>, memref<5x5x240xf32>) outs(%y : memref<1x14x14x240xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2]
  return
}
func.func @fwd_5x5_s2_by_columns(%x: memref<1x28x28x240xf32>, %w: memref<5x5x240xf32>, %y: memref<1x14x14x240xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x28x28x240xf32>, memref<5x5x240xf32>) outs(%y : memref<1x14x14x240xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2]
    {dwc.kernel = #dwc.strided_forward<channels = 1, rows = 1, columns = 2>}
  return
}

// -----

// block_threads: the 1-D grid of a requested 64-thread block (2 images x
// 2 x 2 tiles of 2 x 2 outputs x 2 channel pairs: 16 threads, one block
// with the tail guarded), and the selector's 128 on a 7-row output at
// batch 64 (64 x 2 x 1 x 336 threads of 4 x 7 (4 x 16 clamped) tiles: 336
// blocks, 168 of 256).
// CHECK-LABEL: func @block_threads
// CHECK: gpu.launch blocks({{[^)]*}}) in ({{[^,]*}} = %c1{{[^,]*}}, {{[^)]*}}) threads({{[^)]*}}) in ({{[^,]*}} = %c64{{[^,]*}},
// CHECK: arith.cmpi slt, {{.*}}, %c16
// CHECK: gpu.launch blocks({{[^)]*}}) in ({{[^,]*}} = %c336{{[^,]*}}, {{[^)]*}}) threads({{[^)]*}}) in ({{[^,]*}} = %c128{{[^,]*}},
func.func @block_threads(%x: memref<2x8x8x4xf16>, %w: memref<3x3x4xf16>, %y: memref<2x4x4x4xf16>,
    %x2: memref<64x14x14x672xf16>, %w2: memref<5x5x672xf16>, %y2: memref<64x7x7x672xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<2x8x8x4xf16>, memref<3x3x4xf16>) outs(%y : memref<2x4x4x4xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.strided_forward<channels = 2, rows = 2, columns = 2, block_threads = 64>}
  dwc.depthwise_conv2d ins(%x2, %w2 : memref<64x14x14x672xf16>, memref<5x5x672xf16>) outs(%y2 : memref<64x7x7x672xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2]
  return
}
