// The GEMV pass's full-row kernel (#dwc.full_row): one output row of
// `channels` channels per thread, a loop over the input rows the filter
// window covers (bounds from the output row, `unroll` rows per step, rows
// past the window zeroed), the (input column, output column) pairs whose
// tap lies in the filter unrolled; backward data on the rotated filter; ops
// without a full-row configuration or in tensor form are left alone.
// RUN: dwc-opt %s --convert-dwc-to-gpu-gemv --canonicalize --cse -split-input-file | FileCheck %s

// f16 7 x 7 x 16, 13 x 13 filter (pad 6): 2 channels per thread, 7 rows x
// 8 lanes = 56 threads in one block of 64 (the last 8 idle); input rows
// [max(0, oh - 6), min(7, oh + 7)) = the whole map, one row per step: 7
// input and 13 filter vectors (of the 13 filter columns every one meets
// some pair) and 7 x 7 = 49 FMAs per row, none on padding; 7 stores.
// CHECK-LABEL: func @f16_13x13_on_7x7
// CHECK: gpu.launch blocks({{[^)]*}}) in ({{[^,]*}} = %c1{{[^,]*}}, {{[^)]*}}) threads({{[^)]*}}) in ({{[^,]*}} = %c64{{[^,]*}},
// CHECK-SAME: function(@f16_13x13_on_7x7_full_row)
// CHECK: arith.cmpi slt, %{{.*}}, %c56 : index
// CHECK: scf.if
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: scf.for {{.*}} iter_args
// CHECK-COUNT-7: vector.load %arg0{{.*}} : memref<1x7x7x16xf16>, vector<2xf16>
// CHECK-COUNT-13: vector.load %arg1{{.*}} : memref<13x13x16xf16>, vector<2xf16>
// CHECK-COUNT-49: vector.fma
// CHECK-NOT: vector.fma
// CHECK: scf.yield
// CHECK-COUNT-7: vector.store {{.*}}, %arg2{{.*}} : memref<1x7x7x16xf16>, vector<2xf16>
// CHECK: gpu.terminator
func.func @f16_13x13_on_7x7(%x: memref<1x7x7x16xf16>, %w: memref<13x13x16xf16>, %y: memref<1x7x7x16xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x7x7x16xf16>, memref<13x13x16xf16>)
    outs(%y : memref<1x7x7x16xf16>) strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6]
    {dwc.kernel = #dwc.full_row<channels = 2, threads = 64, unroll = 1>}
  return
}

// -----

// f32 14 x 14, 3 x 3 (pad 1), two rows per step: the second row's inputs
// zeroed past the window (a select per f32 vector); per row 14 inputs, 3
// filter vectors and 14 x 3 - 2 = 40 FMAs (the two taps on the padding
// columns dropped), 80 per step; 14 x 4 = 56 threads, one block of 64
// with bias.
// CHECK-LABEL: func @f32_3x3_bias_unroll2
// CHECK: threads({{[^)]*}}) in ({{[^,]*}} = %c64{{[^,]*}},
// CHECK: vector.load %arg2{{.*}} : memref<4xf32>, vector<1xf32>
// CHECK: scf.for {{.*}} step %c2 iter_args
// CHECK-COUNT-14: vector.load %arg0{{.*}} : memref<1x14x14x4xf32>, vector<1xf32>
// CHECK-COUNT-3: vector.load %arg1{{.*}} : memref<3x3x4xf32>, vector<1xf32>
// CHECK-COUNT-40: vector.fma
// CHECK: arith.cmpi slt
// CHECK-COUNT-14: arith.select {{.*}} : vector<1xf32>
// CHECK-COUNT-3: vector.load %arg1
// CHECK-COUNT-40: vector.fma
// CHECK-NOT: vector.fma
// CHECK: scf.yield
// CHECK-COUNT-14: vector.store {{.*}}, %arg3
func.func @f32_3x3_bias_unroll2(%x: memref<1x14x14x4xf32>, %w: memref<3x3x4xf32>, %b: memref<4xf32>, %y: memref<1x14x14x4xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x14x14x4xf32>, memref<3x3x4xf32>) bias(%b : memref<4xf32>)
    outs(%y : memref<1x14x14x4xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
    {dwc.kernel = #dwc.full_row<channels = 1, threads = 64, unroll = 2>}
  return
}

// -----

// Backward data, 5 x 13 filter on 7 x 7 dY (transposed padding 2 / 6):
// the filter vectors of the rotated filter (row 4 - kh, column 12 - kw).
// CHECK-LABEL: func @bwd_5x13
// CHECK: function(@bwd_5x13_full_row)
// CHECK: scf.for
// CHECK-COUNT-7: vector.load %arg0{{.*}} : memref<1x7x7x8xbf16>, vector<2xbf16>
// CHECK-NEXT: arith.extf
// CHECK-NEXT: vector.load %arg1[{{[^,]*}}, %c12, {{[^]]*}}] {{.*}} : memref<5x13x8xbf16>, vector<2xbf16>
// CHECK-COUNT-12: vector.load %arg1{{.*}} : memref<5x13x8xbf16>, vector<2xbf16>
// CHECK-COUNT-49: vector.fma
// CHECK-NOT: vector.fma
func.func @bwd_5x13(%dy: memref<1x7x7x8xbf16>, %w: memref<5x13x8xbf16>, %dx: memref<1x7x7x8xbf16>) {
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<1x7x7x8xbf16>, memref<5x13x8xbf16>)
    outs(%dx : memref<1x7x7x8xbf16>) strides = [1, 1] dilations = [1, 1] padding = [2, 2, 6, 6]
    {dwc.kernel = #dwc.full_row<channels = 2, threads = 32, unroll = 1>}
  return
}

// -----

// Left alone: another family's configuration, no configuration, a partial
// one (dwc-select-kernels completes it first), tensor form.
// CHECK-LABEL: func @left_alone
// CHECK-NOT: gpu.launch
// CHECK: dwc.depthwise_conv2d {{.*}}#dwc.direct
// CHECK: dwc.depthwise_conv2d {{.*}}padding = [6, 6, 6, 6]{{$}}
// CHECK: dwc.depthwise_conv2d {{.*}}#dwc.full_row<unroll = 1>
// CHECK: dwc.depthwise_conv2d {{.*}}#dwc.full_row<channels = 2, threads = 64, unroll = 1>
func.func @left_alone(%x: memref<1x7x7x16xf16>, %w: memref<13x13x16xf16>, %y: memref<1x7x7x16xf16>,
    %w3: memref<3x3x16xf16>, %tx: tensor<1x7x7x16xf16>, %tw: tensor<13x13x16xf16>) -> tensor<1x7x7x16xf16> {
  dwc.depthwise_conv2d ins(%x, %w3 : memref<1x7x7x16xf16>, memref<3x3x16xf16>)
    outs(%y : memref<1x7x7x16xf16>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
    {dwc.kernel = #dwc.direct}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x7x7x16xf16>, memref<13x13x16xf16>)
    outs(%y : memref<1x7x7x16xf16>) strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6]
  dwc.depthwise_conv2d ins(%x, %w : memref<1x7x7x16xf16>, memref<13x13x16xf16>)
    outs(%y : memref<1x7x7x16xf16>) strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6]
    {dwc.kernel = #dwc.full_row<unroll = 1>}
  %e = tensor.empty() : tensor<1x7x7x16xf16>
  %r = dwc.depthwise_conv2d ins(%tx, %tw : tensor<1x7x7x16xf16>, tensor<13x13x16xf16>)
    outs(%e : tensor<1x7x7x16xf16>) strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6]
    {dwc.kernel = #dwc.full_row<channels = 2, threads = 64, unroll = 1>} -> tensor<1x7x7x16xf16>
  return %r : tensor<1x7x7x16xf16>
}

// -----

// The row in 3 column parts (columns = 3): 7 rows x 3 parts x 8 lanes = 168
// threads (3 blocks of 64), the part the index before the channel vector;
// one scf.index_switch case per part, each with its own compile-time taps.
// Part 0: outputs [0, 2), filter columns [5, 13) (8 vectors), 2 x 7 FMAs;
// part 1: [2, 4), filter columns [3, 11), 2 x 7; part 2: [4, 7), filter
// columns [0, 9), 3 x 7 - 49 FMAs per input row in all, as one part does.
// CHECK-LABEL: func @f16_13x13_on_7x7_three_parts
// CHECK: gpu.launch blocks({{[^)]*}}) in ({{[^,]*}} = %c3{{[^,]*}}, {{[^)]*}}) threads({{[^)]*}}) in ({{[^,]*}} = %c64{{[^,]*}},
// CHECK: arith.cmpi slt, %{{.*}}, %c168 : index
// CHECK: scf.index_switch
// CHECK: case 0 {
// CHECK: scf.for {{.*}} iter_args
// CHECK-COUNT-7: vector.load %arg0{{.*}} : memref<1x7x7x16xf16>, vector<2xf16>
// CHECK-COUNT-8: vector.load %arg1{{.*}} : memref<13x13x16xf16>, vector<2xf16>
// CHECK-COUNT-14: vector.fma
// CHECK-NOT: vector.fma
// CHECK: scf.yield
// CHECK-COUNT-2: vector.store {{.*}}, %arg2{{.*}} : memref<1x7x7x16xf16>, vector<2xf16>
// CHECK-NOT: vector.store
// CHECK: case 1 {
// CHECK-COUNT-8: vector.load %arg1{{.*}} : memref<13x13x16xf16>, vector<2xf16>
// CHECK-COUNT-14: vector.fma
// CHECK-NOT: vector.fma
// CHECK-COUNT-2: vector.store
// CHECK-NOT: vector.store
// CHECK: case 2 {
// CHECK-COUNT-9: vector.load %arg1{{.*}} : memref<13x13x16xf16>, vector<2xf16>
// CHECK-COUNT-21: vector.fma
// CHECK-NOT: vector.fma
// CHECK-COUNT-3: vector.store
// CHECK-NOT: vector.store
// CHECK: default {
// CHECK: gpu.terminator
func.func @f16_13x13_on_7x7_three_parts(%x: memref<1x7x7x16xf16>, %w: memref<13x13x16xf16>, %y: memref<1x7x7x16xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x7x7x16xf16>, memref<13x13x16xf16>)
    outs(%y : memref<1x7x7x16xf16>) strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6]
    {dwc.kernel = #dwc.full_row<channels = 2, threads = 64, unroll = 1, columns = 3>}
  return
}

// -----

// max_registers (the small-grid default, config-full-row.mlir): the first
// load carries the register budget that dwc-kernel-occupancy makes
// nvvm.maxnreg; without the field, no marker.
// CHECK-LABEL: func @register_budget
// CHECK: gpu.launch
// CHECK: vector.load {{.*}}dwc.max_registers = 255 : i64
// CHECK-NOT: dwc.max_registers
// CHECK-LABEL: func @no_register_budget
// CHECK-NOT: dwc.max_registers
func.func @register_budget(%x: memref<1x14x14x384xf32>, %w: memref<7x7x384xf32>, %y: memref<1x14x14x384xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x14x14x384xf32>, memref<7x7x384xf32>) outs(%y : memref<1x14x14x384xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
    {dwc.kernel = #dwc.full_row<channels = 1, threads = 128, unroll = 2, max_registers = 255>}
  return
}
func.func @no_register_budget(%x: memref<1x14x14x384xf32>, %w: memref<7x7x384xf32>, %y: memref<1x14x14x384xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x14x14x384xf32>, memref<7x7x384xf32>) outs(%y : memref<1x14x14x384xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
    {dwc.kernel = #dwc.full_row<channels = 1, threads = 128, unroll = 2>}
  return
}
