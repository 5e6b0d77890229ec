// The GEMV pass's register row tiles (#dwc.row_tile): dwc-select-kernels
// gives them to f16/bf16 (forward and backward data), to f32 on grids of 4
// waves of the target's SMs (else the GEMV kernel); requested fields (the
// GEMV kernel instead, other tiles, filters through L1, other vector
// widths); filters longer than 49 taps and ineligible ops (stride 2) are
// refused.
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-gemv --canonicalize --cse -split-input-file | FileCheck %s

// f16 3x3, 1x8x16x64, the short tile requested (this one-block grid takes
// 2 x 2 tiles by default, config-gemv.mlir): 4-row x 4-output tiles x 4 channels: 2 x 4 tiles x
// 16 channel vectors = 128 threads of one 256-thread block (guarded). The
// 9 filter vectors loaded once (kept as f32); then per input row (6 of
// them) 6 input vectors, each row feeding the output rows it touches
// (input row 0: 12 FMAs for output row 0, row 1: 24, row 2: 36 -> output
// row 0 stored (4 stores) ...). No shared memory, no loop, no barrier.
// An input vector in the padding is zeroed as two 32-bit words before it
// is widened (the select is not moved past the extf).
// CHECK-LABEL: func @f16_3x3
// CHECK: gpu.launch blocks({{[^)]*}}) in ({{[^,]*}} = %c1{{[^,]*}}, {{[^,]*}} = %c1{{[^,]*}}, {{[^)]*}}) threads({{[^)]*}}) in ({{[^,]*}} = %c256{{[^,]*}},
// CHECK-SAME: function(@f16_3x3_row_tile)
// CHECK-NOT: workgroup
// CHECK: scf.if
// CHECK-COUNT-9: vector.load %arg1{{.*}} {alignment = 8 : i64} : memref<3x3x64xf16>, vector<4xf16>
// CHECK-NOT: vector.load %arg1
// CHECK: %[[IN:.*]] = vector.load %arg0{{.*}} : memref<1x8x16x64xf16>, vector<4xf16>
// CHECK-NEXT: %[[WORDS:.*]] = vector.bitcast %[[IN]] : vector<4xf16> to vector<2xi32>
// CHECK-NEXT: %[[KEPT:.*]] = arith.select %{{.*}}, %[[WORDS]], %{{.*}} : vector<2xi32>
// CHECK-NEXT: %[[HALVES:.*]] = vector.bitcast %[[KEPT]] : vector<2xi32> to vector<4xf16>
// CHECK-NEXT: arith.extf %[[HALVES]] : vector<4xf16> to vector<4xf32>
// CHECK-COUNT-5: vector.load %arg0{{.*}} : memref<1x8x16x64xf16>, vector<4xf16>
// CHECK-COUNT-12: vector.fma
// CHECK-COUNT-6: vector.load %arg0
// CHECK-COUNT-24: vector.fma
// CHECK-COUNT-6: vector.load %arg0
// CHECK-COUNT-12: vector.fma
// CHECK-COUNT-4: vector.store {{.*}} : memref<1x8x16x64xf16>, vector<4xf16>
// CHECK-NOT: scf.for
// CHECK-NOT: gpu.barrier
func.func @f16_3x3(%x: memref<1x8x16x64xf16>, %w: memref<3x3x64xf16>, %y: memref<1x8x16x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x16x64xf16>, memref<3x3x64xf16>)
    outs(%y : memref<1x8x16x64xf16>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
    {dwc.kernel = #dwc.row_tile<channels = 4, rows = 4, columns = 4>}
  return
}

// -----

// #dwc.gemv requested: the GEMV kernel (128 threads).
// CHECK-LABEL: func @f16_3x3_gemv
// CHECK: gpu.launch {{.*}} threads({{[^)]*}}) in ({{[^,]*}} = %c128
func.func @f16_3x3_gemv(%x: memref<1x8x16x64xf16>, %w: memref<3x3x64xf16>, %y: memref<1x8x16x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x16x64xf16>, memref<3x3x64xf16>)
    outs(%y : memref<1x8x16x64xf16>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<>}
  return
}

// -----

// 2-row x 3-output tiles requested: 9 filter vectors, 3 + 2 = 5 inputs per
// row.
// CHECK-LABEL: func @f16_3x3_2x3
// CHECK-COUNT-9: vector.load %arg1
// CHECK-COUNT-5: vector.load %arg0
func.func @f16_3x3_2x3(%x: memref<1x8x16x64xf16>, %w: memref<3x3x64xf16>, %y: memref<1x8x16x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x16x64xf16>, memref<3x3x64xf16>)
    outs(%y : memref<1x8x16x64xf16>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.row_tile<rows = 2, columns = 3>}
  return
}

// -----

// f32 on a small grid (1 x 8 x 9 x 32: under 528 blocks of row tiles)
// keeps the GEMV kernel (128 threads, filter rows through shared memory);
// with 2-row x 3-output tiles requested: the f32 default of 2 channels
// (64-bit vectors).
// CHECK-LABEL: func @f32_3x3
// CHECK: gpu.launch {{.*}} threads({{[^)]*}}) in ({{[^,]*}} = %c128
// CHECK-LABEL: func @f32_3x3_2x3
// CHECK: gpu.launch {{.*}} threads({{[^)]*}}) in ({{[^,]*}} = %c256
// CHECK-NOT: workgroup
// CHECK-COUNT-9: vector.load %arg1{{.*}} : memref<3x3x32xf32>, vector<2xf32>
// CHECK-COUNT-5: vector.load %arg0{{.*}} : memref<1x8x9x32xf32>, vector<2xf32>
func.func @f32_3x3(%x: memref<1x8x9x32xf32>, %w: memref<3x3x32xf32>, %y: memref<1x8x9x32xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x9x32xf32>, memref<3x3x32xf32>)
    outs(%y : memref<1x8x9x32xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}
func.func @f32_3x3_2x3(%x: memref<1x8x9x32xf32>, %w: memref<3x3x32xf32>, %y: memref<1x8x9x32xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x9x32xf32>, memref<3x3x32xf32>)
    outs(%y : memref<1x8x9x32xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.row_tile<rows = 2, columns = 3>}
  return
}

// -----

// f32 on a large grid takes the row tiles: 3x3 and 7x7 2 channels x 4 rows
// x 8 outputs (3x3: 9 filter vectors, then 8 + 2 = 10 input vectors per
// input row), 5x5 1 channel
// x 8 rows x 8 outputs (25 scalar filter loads, 12 inputs per row).
// CHECK-LABEL: func @f32_3x3_large
// CHECK: gpu.launch {{.*}} threads({{[^)]*}}) in ({{[^,]*}} = %c256
// CHECK-NOT: workgroup
// CHECK-COUNT-9: vector.load %arg1{{.*}} : memref<3x3x256xf32>, vector<2xf32>
// CHECK-COUNT-10: vector.load %arg0{{.*}} : memref<128x64x64x256xf32>, vector<2xf32>
// CHECK-LABEL: func @f32_5x5_large
// CHECK: gpu.launch {{.*}} threads({{[^)]*}}) in ({{[^,]*}} = %c256
// CHECK-COUNT-25: vector.load %arg1{{.*}} : memref<5x5x256xf32>, vector<1xf32>
// CHECK-COUNT-12: vector.load %arg0{{.*}} : memref<128x64x64x256xf32>, vector<1xf32>
func.func @f32_3x3_large(%x: memref<128x64x64x256xf32>, %w: memref<3x3x256xf32>, %y: memref<128x64x64x256xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<128x64x64x256xf32>, memref<3x3x256xf32>)
    outs(%y : memref<128x64x64x256xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}
func.func @f32_5x5_large(%x: memref<128x64x64x256xf32>, %w: memref<5x5x256xf32>, %y: memref<128x64x64x256xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<128x64x64x256xf32>, memref<5x5x256xf32>)
    outs(%y : memref<128x64x64x256xf32>) strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  return
}

// -----

// Backward data: the forward kernel on dY with the 180-degree rotated
// filter (first register tap = w[2, 2]) and the transposed padding.
// CHECK-LABEL: func @bwd_data_f16
// CHECK: gpu.launch {{.*}} threads({{[^)]*}}) in ({{[^,]*}} = %c256
// CHECK: vector.load %arg1[%c2, %c2, {{.*}}] {alignment = 8 : i64} : memref<3x3x64xf16>, vector<4xf16>
// CHECK-NEXT: arith.extf
// CHECK-NEXT: vector.load %arg1[%c2, %c1,
func.func @bwd_data_f16(%dy: memref<1x8x16x64xf16>, %w: memref<3x3x64xf16>, %dx: memref<1x8x16x64xf16>) {
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<1x8x16x64xf16>, memref<3x3x64xf16>)
    outs(%dx : memref<1x8x16x64xf16>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
    {dwc.kernel = #dwc.row_tile<channels = 4, rows = 4, columns = 4>}
  return
}

// -----

// 5x5 f16 (more than 9 taps): 2 channels (32-bit vectors) x 8 rows x 4
// outputs by default, on grids of at least 528 blocks (here 128 x 8 x 16
// tiles x 32 channel pairs = 2048 blocks of 256 threads). 50 f32 registers
// of filter <= 200: a block of 25 filter loads up front (filter =
// "registers"), then 4 + 4 = 8 input vectors per input row. With filter =
// "global" the filter vectors are read at each use (the first input row's 8
// vectors before any filter load). channels = 4: the same 8 x 4 tiles. The
// GEMV kernel: 128-bit vectors for > 9 taps, shared filter rows.
// CHECK-LABEL: func @f16_5x5
// CHECK: gpu.launch blocks({{[^)]*}}) in ({{[^,]*}} = %c2048{{[^,]*}}, {{.*}} threads({{[^)]*}}) in ({{[^,]*}} = %c256
// CHECK-NOT: scf.if
// CHECK-COUNT-25: vector.load %arg1{{.*}} : memref<5x5x64xf16>, vector<2xf16>
// CHECK-COUNT-8: vector.load %arg0{{.*}} : memref<128x64x64x64xf16>, vector<2xf16>
// CHECK-NOT: vector.load %arg1
// CHECK-LABEL: func @f16_5x5_global
// CHECK: gpu.launch {{.*}} threads({{[^)]*}}) in ({{[^,]*}} = %c256
// CHECK-NOT: vector.load %arg1
// CHECK-COUNT-8: vector.load %arg0
// CHECK: vector.load %arg1
// CHECK-LABEL: func @f16_5x5_v64
// CHECK: gpu.launch blocks({{[^)]*}}) in ({{[^,]*}} = %c1024{{[^,]*}}, {{.*}} threads({{[^)]*}}) in ({{[^,]*}} = %c256
// CHECK-COUNT-25: vector.load %arg1{{.*}} : memref<5x5x64xf16>, vector<4xf16>
// CHECK-COUNT-8: vector.load %arg0{{.*}} : memref<128x64x64x64xf16>, vector<4xf16>
// CHECK-LABEL: func @f16_5x5_gemv
// CHECK: gpu.launch {{.*}} workgroup
// CHECK: nvgpu.device_async_copy
func.func @f16_5x5(%x: memref<128x64x64x64xf16>, %w: memref<5x5x64xf16>, %y: memref<128x64x64x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<128x64x64x64xf16>, memref<5x5x64xf16>)
    outs(%y : memref<128x64x64x64xf16>) strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  return
}
func.func @f16_5x5_global(%x: memref<128x64x64x64xf16>, %w: memref<5x5x64xf16>, %y: memref<128x64x64x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<128x64x64x64xf16>, memref<5x5x64xf16>)
    outs(%y : memref<128x64x64x64xf16>) strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.row_tile<filter = "global">}
  return
}
func.func @f16_5x5_v64(%x: memref<128x64x64x64xf16>, %w: memref<5x5x64xf16>, %y: memref<128x64x64x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<128x64x64x64xf16>, memref<5x5x64xf16>)
    outs(%y : memref<128x64x64x64xf16>) strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.row_tile<channels = 4>}
  return
}
func.func @f16_5x5_gemv(%x: memref<128x64x64x64xf16>, %w: memref<5x5x64xf16>, %y: memref<128x64x64x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<128x64x64x64xf16>, memref<5x5x64xf16>)
    outs(%y : memref<128x64x64x64xf16>) strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.gemv<>}
  return
}

// -----

// A small grid of 14 x 14 maps (64 x 2 x 4 tiles x 32 channel pairs: 64 blocks, under 528
// but not under a quarter of the SMs, which batch 1 is) takes the short-filter tile (maps of 15-56 rows take the
// bounded 32-bit tiles, config-gemv.mlir): 4 channels x 4 rows x 4 outputs (1 x 4 x 4
// tiles x 16 vectors = 256 threads); 4 + 4 = 8 input vectors per row.
// CHECK-LABEL: func @f16_5x5_small_grid
// CHECK: gpu.launch {{.*}} threads({{[^)]*}}) in ({{[^,]*}} = %c256
// CHECK-COUNT-25: vector.load %arg1{{.*}} : memref<5x5x64xf16>, vector<4xf16>
// CHECK-COUNT-8: vector.load %arg0{{.*}} : memref<64x14x14x64xf16>, vector<4xf16>
// A channel count that is not a multiple of 4 keeps 2 channels.
// CHECK-LABEL: func @f16_5x5_small_grid_c6
// CHECK-COUNT-25: vector.load %arg1{{.*}} : memref<5x5x6xf16>, vector<2xf16>
// CHECK-COUNT-8: vector.load %arg0{{.*}} : memref<256x14x14x6xf16>, vector<2xf16>
func.func @f16_5x5_small_grid(%x: memref<64x14x14x64xf16>, %w: memref<5x5x64xf16>, %y: memref<64x14x14x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<64x14x14x64xf16>, memref<5x5x64xf16>)
    outs(%y : memref<64x14x14x64xf16>) strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  return
}
func.func @f16_5x5_small_grid_c6(%x: memref<256x14x14x6xf16>, %w: memref<5x5x6xf16>, %y: memref<256x14x14x6xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<256x14x14x6xf16>, memref<5x5x6xf16>)
    outs(%y : memref<256x14x14x6xf16>) strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  return
}

// -----

// Tails: 57 rows and 58 columns are not multiples of the 4 x 4 tile
// (requested; this small grid's default is the fitted 8 x 8 x 32-bit tile). The last tile of each row and column
// starts at 57 - 4 = 53 / 58 - 4 = 54, overlapping its neighbour (same
// values stored twice); no store is guarded - the only scf.if is the
// thread-range guard of the grid. The moved start is selected by tile
// index (14 of 0..14), not clamped with a min: ptxas 13.0 miscompiles the
// 16-bit min + equality test LLVM makes of a bound check on a clamped
// start (a configuration the GPU fuzz set found wrong on the H200).
// CHECK-LABEL: func @f16_7x7_tails
// CHECK: scf.if
// CHECK-NOT: arith.minsi
// CHECK: %[[ROWT:.*]] = arith.cmpi eq, %{{.*}}, %c14 : index
// CHECK: arith.select %[[ROWT]], %c53, %{{.*}} : index
// CHECK: %[[COLT:.*]] = arith.cmpi eq, %{{.*}}, %c14 : index
// CHECK: arith.select %[[COLT]], %c54, %{{.*}} : index
// CHECK-NOT: scf.if
// CHECK-COUNT-16: vector.store {{.*}} : memref<2x57x58x72xf16>, vector<4xf16>
// CHECK-NOT: scf.if
// CHECK: gpu.terminator
func.func @f16_7x7_tails(%x: memref<2x57x58x72xf16>, %w: memref<7x7x72xf16>, %y: memref<2x57x58x72xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<2x57x58x72xf16>, memref<7x7x72xf16>)
    outs(%y : memref<2x57x58x72xf16>) strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
    {dwc.kernel = #dwc.row_tile<channels = 4, rows = 4, columns = 4>}
  return
}

// -----

// Refused: stride 2 (the strided family's).
// CHECK-LABEL: func @f16_stride2
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d {{.*}} {dwc.kernel = #dwc.strided_forward
func.func @f16_stride2(%x: memref<1x8x8x64xf16>, %w: memref<3x3x64xf16>, %y: memref<1x4x4x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x8x64xf16>, memref<3x3x64xf16>)
    outs(%y : memref<1x4x4x64xf16>) strides = [2, 2] dilations = [1, 1] padding = [1, 0, 1, 0]
  return
}

// -----

// A launch bound requested: min_blocks_per_sm = 2 becomes the
// dwc.min_blocks_per_sm marker on the first store (dwc-kernel-occupancy
// turns it into nvvm.minctasm on the outlined kernel); one-row tiles
// (rows = 1): each of the 5 input rows feeds the one output row, 5 x 2
// FMAs per row, the two outputs stored after the last.
// CHECK-LABEL: func @f16_5x5_min_blocks
// CHECK: gpu.launch
// CHECK-COUNT-10: vector.fma
// CHECK: vector.store {{.*}} {alignment = 4 : i64, dwc.min_blocks_per_sm = 2 : i64} : memref<1x6x8x64xf16>, vector<2xf16>
// CHECK-NEXT: arith.truncf
// CHECK-NEXT: vector.store
// CHECK-NOT: dwc.min_blocks_per_sm
// CHECK: gpu.terminator
func.func @f16_5x5_min_blocks(%x: memref<1x6x8x64xf16>, %w: memref<5x5x64xf16>, %y: memref<1x6x8x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x6x8x64xf16>, memref<5x5x64xf16>)
    outs(%y : memref<1x6x8x64xf16>) strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
    {dwc.kernel = #dwc.row_tile<channels = 2, rows = 1, columns = 2, filter = "registers", min_blocks_per_sm = 2>}
  return
}

// -----

// Without the field no marker is left (the default, not printed).
// CHECK-LABEL: func @f16_5x5_no_bound
// CHECK-NOT: dwc.min_blocks_per_sm
// CHECK: gpu.terminator
func.func @f16_5x5_no_bound(%x: memref<1x6x8x64xf16>, %w: memref<5x5x64xf16>, %y: memref<1x6x8x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x6x8x64xf16>, memref<5x5x64xf16>)
    outs(%y : memref<1x6x8x64xf16>) strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
    {dwc.kernel = #dwc.row_tile<channels = 2, rows = 1, columns = 2, filter = "registers">}
  return
}

// -----

// loads_first (the batch-1 default, config-gemv.mlir): f32 5x5, 2 x 2 tile
// of one channel: the 25 filter values, then all 6 input rows x 6 columns
// (36 loads) before the first of the 100 FMAs; the first store carries the
// register budget that dwc-kernel-occupancy makes nvvm.maxnreg (ptxas
// otherwise moves the later rows' loads behind the earlier rows' FMAs).
// CHECK-LABEL: func @f32_5x5_loads_first
// CHECK: function(@f32_5x5_loads_first_row_tile)
// CHECK-COUNT-25: vector.load %arg1
// CHECK-COUNT-36: vector.load %arg0
// CHECK-NOT: vector.load
// CHECK: vector.fma
// CHECK-NOT: vector.load
// CHECK: vector.store {{.*}}dwc.max_registers = 255 : i64
// CHECK-NOT: vector.load
// The same tile requested without loads_first: row by row, no budget.
// CHECK-LABEL: func @f32_5x5_by_rows
// CHECK-COUNT-25: vector.load %arg1
// CHECK-COUNT-6: vector.load %arg0
// CHECK-NOT: vector.load
// CHECK: vector.fma
// CHECK-NOT: dwc.max_registers
func.func @f32_5x5_loads_first(%x: memref<1x14x14x672xf32>, %w: memref<5x5x672xf32>, %y: memref<1x14x14x672xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x14x14x672xf32>, memref<5x5x672xf32>) outs(%y : memref<1x14x14x672xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  return
}
func.func @f32_5x5_by_rows(%x: memref<1x14x14x672xf32>, %w: memref<5x5x672xf32>, %y: memref<1x14x14x672xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x14x14x672xf32>, memref<5x5x672xf32>) outs(%y : memref<1x14x14x672xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
    {dwc.kernel = #dwc.row_tile<channels = 1, rows = 2, columns = 2, filter = "registers">}
  return
}

// -----

// A requested block_threads: 1 x 8 x 16 x 64 f16 in 4 x 4 tiles of 4
// channels (2 x 4 x 16 = 128 threads) as 4 blocks of 32.
// CHECK-LABEL: func @f16_block_threads
// CHECK: gpu.launch blocks({{[^)]*}}) in ({{[^,]*}} = %c4{{[^,]*}}, {{[^)]*}}) threads({{[^)]*}}) in ({{[^,]*}} = %c32{{[^,]*}},
func.func @f16_block_threads(%x: memref<1x8x16x64xf16>, %w: memref<3x3x64xf16>, %y: memref<1x8x16x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x16x64xf16>, memref<3x3x64xf16>) outs(%y : memref<1x8x16x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.row_tile<channels = 4, rows = 4, columns = 4, filter = "registers", block_threads = 32>}
  return
}
