// RUN: dwc-opt %s --split-input-file --dwc-select-kernels | FileCheck %s
// RUN: dwc-opt %s --split-input-file --dwc-select-kernels=diagnose 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY

// The strided families' configurations (docs/KernelSelection.md): channels
// per thread the widest of 128/64/32 bits dividing C with FH*FW*channels <=
// 64 filter registers (3x3 f16: 4, 5x5 f32: 2, f32 C = 13: 1, f16 C = 10:
// 2); gathers of 4 super columns.
// CHECK-LABEL: func @gather_widths
// CHECK: dwc.kernel = #dwc.strided_gather<channels = 4, columns = 4>
// CHECK: dwc.kernel = #dwc.strided_gather<channels = 2, columns = 4>
// CHECK: dwc.kernel = #dwc.strided_gather<channels = 1, columns = 4>
// CHECK: dwc.kernel = #dwc.strided_gather<channels = 2, columns = 4>
// WHY: remark: dwc.kernel = #dwc.strided_gather<channels = 4, columns = 4>: chosen; refused: {{.*}}row_tile (stride is not 1){{.*}}gemv (stride is not 1){{$}}
func.func @gather_widths(%dy: memref<1x4x4x64xf16>, %w: memref<3x3x64xf16>, %dx: memref<1x8x8x64xf16>,
                         %dy5: memref<1x4x4x32xf32>, %w5: memref<5x5x32xf32>, %dx5: memref<1x8x8x32xf32>,
                         %dy13: memref<1x4x4x13xf32>, %w13: memref<3x3x13xf32>, %dx13: memref<1x8x8x13xf32>,
                         %dy10: memref<1x4x4x10xf16>, %w10: memref<3x3x10xf16>, %dx10: memref<1x8x8x10xf16>) {
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<1x4x4x64xf16>, memref<3x3x64xf16>) outs(%dx : memref<1x8x8x64xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_data ins(%dy5, %w5 : memref<1x4x4x32xf32>, memref<5x5x32xf32>) outs(%dx5 : memref<1x8x8x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d_backward_data ins(%dy13, %w13 : memref<1x4x4x13xf32>, memref<3x3x13xf32>) outs(%dx13 : memref<1x8x8x13xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_data ins(%dy10, %w10 : memref<1x4x4x10xf16>, memref<3x3x10xf16>) outs(%dx10 : memref<1x8x8x10xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// Forward tiles on big grids (2^20+ outputs): up to 9 taps 1 x 4 of 4
// channels on outputs of 28+ rows; on fewer rows 1 x 4 of 64 bits (32 with
// an odd C: 512 x 8 x 8 x 33), every input loaded first, 256-thread
// blocks, where the window fits 128 registers (stride 8: 4 channels, not
// loaded first); up to 25 taps 4 x 16; more 1 x 8 (tiles are clamped to the
// output when emitted, not here).
// CHECK-LABEL: func @forward_tiles
// CHECK: #dwc.strided_forward<channels = 4, rows = 1, columns = 4>
// CHECK: #dwc.strided_forward<channels = 2, rows = 1, columns = 4, loads_first = 1>
// CHECK: #dwc.strided_forward<channels = 2, rows = 4, columns = 16>
// CHECK: #dwc.strided_forward<channels = 1, rows = 1, columns = 8>
// CHECK: #dwc.strided_forward<channels = 1, rows = 1, columns = 4, loads_first = 1>
// CHECK: #dwc.strided_forward<channels = 4, rows = 1, columns = 4>
func.func @forward_tiles(%x: memref<64x56x56x32xf32>, %w3: memref<3x3x32xf32>, %y28: memref<64x28x28x32xf32>,
                         %x2: memref<512x16x16x32xf32>, %y8: memref<512x8x8x32xf32>,
                         %w5: memref<5x5x32xf32>, %w7: memref<7x7x32xf32>,
                         %xo: memref<512x16x16x33xf32>, %wo: memref<3x3x33xf32>, %yo: memref<512x8x8x33xf32>,
                         %xw: memref<1024x64x64x32xf32>, %yw: memref<1024x8x8x32xf32>) {
  dwc.depthwise_conv2d ins(%x, %w3 : memref<64x56x56x32xf32>, memref<3x3x32xf32>) outs(%y28 : memref<64x28x28x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d ins(%x2, %w3 : memref<512x16x16x32xf32>, memref<3x3x32xf32>) outs(%y8 : memref<512x8x8x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d ins(%x2, %w5 : memref<512x16x16x32xf32>, memref<5x5x32xf32>) outs(%y8 : memref<512x8x8x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%x2, %w7 : memref<512x16x16x32xf32>, memref<7x7x32xf32>) outs(%y8 : memref<512x8x8x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [3, 3, 3, 3]
  dwc.depthwise_conv2d ins(%xo, %wo : memref<512x16x16x33xf32>, memref<3x3x33xf32>) outs(%yo : memref<512x8x8x33xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d ins(%xw, %w3 : memref<1024x64x64x32xf32>, memref<3x3x32xf32>) outs(%yw : memref<1024x8x8x32xf32>)
    strides = [8, 8] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// Small grids (fewer than 2^20 outputs, filters of at most 25 taps): the
// narrowest vector (f32 1 channel, 16-bit 2) and one output per thread up
// to 9 taps, two columns up to 25; more taps keep the big-grid tile; a
// 16-bit C that 2 does not divide is refused as before. 1 x 56 x 56 x 144
// 3x3 f32 (100352 outputs), 1 x 28 x 28 x 240 5x5 bf16, 1 x 8 x 8 x 32 7x7
// f32, 256 x 8 x 8 x 32 (2^19) 3x3 f32. The small-grid tiles load every
// input before the first FMA (loads_first: the 5x5 bf16 1 x 2 tile holds
// 5 x 7 x 2 inputs + 50 filter values + 4 accumulators, within 128).
// CHECK-LABEL: func @forward_small_grids
// CHECK: #dwc.strided_forward<channels = 1, rows = 1, columns = 1, loads_first = 1>
// CHECK: #dwc.strided_forward<channels = 2, rows = 1, columns = 2, loads_first = 1>
// CHECK: #dwc.strided_forward<channels = 1, rows = 1, columns = 8>
// CHECK: #dwc.strided_forward<channels = 1, rows = 1, columns = 1, loads_first = 1>
func.func @forward_small_grids(%x0: memref<1x56x56x144xf32>, %w0: memref<3x3x144xf32>, %y0: memref<1x28x28x144xf32>,
                               %x1: memref<1x28x28x240xbf16>, %w1: memref<5x5x240xbf16>, %y1: memref<1x14x14x240xbf16>,
                               %x2: memref<1x16x16x32xf32>, %w2: memref<7x7x32xf32>, %y2: memref<1x8x8x32xf32>,
                               %x3: memref<256x16x16x32xf32>, %w3: memref<3x3x32xf32>, %y3: memref<256x8x8x32xf32>) {
  dwc.depthwise_conv2d ins(%x0, %w0 : memref<1x56x56x144xf32>, memref<3x3x144xf32>) outs(%y0 : memref<1x28x28x144xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d ins(%x1, %w1 : memref<1x28x28x240xbf16>, memref<5x5x240xbf16>) outs(%y1 : memref<1x14x14x240xbf16>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%x2, %w2 : memref<1x16x16x32xf32>, memref<7x7x32xf32>) outs(%y2 : memref<1x8x8x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [3, 3, 3, 3]
  dwc.depthwise_conv2d ins(%x3, %w3 : memref<256x16x16x32xf32>, memref<3x3x32xf32>) outs(%y3 : memref<256x8x8x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// A complete configuration is kept; a partial one is completed (the fields
// given win; here by the small-grid rule); #dwc.direct is kept.
// CHECK-LABEL: func @given
// CHECK: #dwc.strided_forward<channels = 1, rows = 3, columns = 2>
// CHECK: #dwc.strided_forward<channels = 1, rows = 1, columns = 1>
// CHECK: dwc.kernel = #dwc.direct
// WHY: remark: dwc.kernel = #dwc.strided_forward<channels = 1, rows = 3, columns = 2>: given
// WHY: remark: dwc.kernel = #dwc.strided_forward<channels = 1, rows = 1, columns = 1>: chosen
// WHY: remark: dwc.kernel = #dwc.direct: given
func.func @given(%x2: memref<1x16x16x32xf32>, %w3: memref<3x3x32xf32>, %y8: memref<1x8x8x32xf32>) {
  dwc.depthwise_conv2d ins(%x2, %w3 : memref<1x16x16x32xf32>, memref<3x3x32xf32>) outs(%y8 : memref<1x8x8x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
    {dwc.kernel = #dwc.strided_forward<channels = 1, rows = 3, columns = 2>}
  dwc.depthwise_conv2d ins(%x2, %w3 : memref<1x16x16x32xf32>, memref<3x3x32xf32>) outs(%y8 : memref<1x8x8x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
    {dwc.kernel = #dwc.strided_forward<rows = 1>}
  dwc.depthwise_conv2d ins(%x2, %w3 : memref<1x16x16x32xf32>, memref<3x3x32xf32>) outs(%y8 : memref<1x8x8x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.direct}
  return
}

// -----

// Refused by both strided families (left to the kernel passes that still
// decide for themselves): stride 1 (the GEMV family's), dilation 2, f64, f32
// summed in f64, f16 with an odd channel count, more than 49 taps, a
// non-identity layout.
// CHECK-LABEL: func @refused
// CHECK-NOT: dwc.kernel = #dwc.strided
// CHECK: return
// WHY: remark: dwc.kernel = #dwc.{{.*}}: chosen
// WHY: strided_gather (dilation is not 1)
// WHY: strided_gather (element type is not f32, f16 or bf16)
// WHY: strided_gather (channel count is not a multiple of the vector width)
// WHY: strided_gather (filter of more than 49 taps)
// WHY: strided_forward (accumulation type is not f32)
// WHY: strided_forward (non-identity layout)
func.func @refused(%dy1: memref<1x8x8x32xf32>, %w: memref<3x3x32xf32>, %dx: memref<1x8x8x32xf32>,
                   %dy: memref<1x4x4x32xf32>, %dyd: memref<1x3x3x32xf32>,
                   %dy64: memref<1x4x4x32xf64>, %w64: memref<3x3x32xf64>, %dx64: memref<1x8x8x32xf64>,
                   %dyh: memref<1x4x4x5xf16>, %wh: memref<3x3x5xf16>, %dxh: memref<1x8x8x5xf16>,
                   %xs: memref<1x8x8x32xf32, strided<[4096, 512, 64, 1]>>, %y: memref<1x4x4x32xf32>,
                   %w9: memref<9x9x32xf32>) {
  dwc.depthwise_conv2d_backward_data ins(%dy1, %w : memref<1x8x8x32xf32>, memref<3x3x32xf32>) outs(%dx : memref<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_data ins(%dyd, %w : memref<1x3x3x32xf32>, memref<3x3x32xf32>) outs(%dx : memref<1x8x8x32xf32>)
    strides = [2, 2] dilations = [2, 2] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_data ins(%dy64, %w64 : memref<1x4x4x32xf64>, memref<3x3x32xf64>) outs(%dx64 : memref<1x8x8x32xf64>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] acc = f64
  dwc.depthwise_conv2d_backward_data ins(%dyh, %wh : memref<1x4x4x5xf16>, memref<3x3x5xf16>) outs(%dxh : memref<1x8x8x5xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d_backward_data ins(%dy, %w9 : memref<1x4x4x32xf32>, memref<9x9x32xf32>) outs(%dx : memref<1x8x8x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [4, 4, 4, 4]
  dwc.depthwise_conv2d ins(%dx, %w : memref<1x8x8x32xf32>, memref<3x3x32xf32>) outs(%y : memref<1x4x4x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] acc = f64
  dwc.depthwise_conv2d ins(%xs, %w : memref<1x8x8x32xf32, strided<[4096, 512, 64, 1]>>, memref<3x3x32xf32>) outs(%y : memref<1x4x4x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// Forward filters of at most 9 taps on big grids: 16-bit data the narrowest
// vector (2 channels) in 2 x 2 tiles on every output size (two output rows
// per loaded input row of the stride overlap, four times the threads of 4
// channels in 2 x 4 / 2 x 8), f32 4 channels 1 x 4 on outputs of 28+ rows.
// CHECK-LABEL: func @forward_rows_16bit
// CHECK: dwc.kernel = #dwc.strided_forward<channels = 2, rows = 2, columns = 2>
// CHECK: dwc.kernel = #dwc.strided_forward<channels = 2, rows = 2, columns = 2>
// CHECK: dwc.kernel = #dwc.strided_forward<channels = 4, rows = 1, columns = 4>
// CHECK: dwc.kernel = #dwc.strided_forward<channels = 2, rows = 2, columns = 2, block_threads = 128>
func.func @forward_rows_16bit(%x0: tensor<64x112x112x96xf16>, %w0: tensor<3x3x96xf16>, %x1: tensor<64x56x56x144xbf16>, %w1: tensor<3x3x144xbf16>, %x2: tensor<64x112x112x96xf32>, %w2: tensor<3x3x96xf32>, %x3: tensor<64x14x14x576xf16>, %w3: tensor<3x3x576xf16>) -> (tensor<64x56x56x96xf16>, tensor<64x28x28x144xbf16>, tensor<64x56x56x96xf32>, tensor<64x7x7x576xf16>) {
  %e0 = tensor.empty() : tensor<64x56x56x96xf16>
  %y0 = dwc.depthwise_conv2d ins(%x0, %w0 : tensor<64x112x112x96xf16>, tensor<3x3x96xf16>) outs(%e0 : tensor<64x56x56x96xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<64x56x56x96xf16>
  %e1 = tensor.empty() : tensor<64x28x28x144xbf16>
  %y1 = dwc.depthwise_conv2d ins(%x1, %w1 : tensor<64x56x56x144xbf16>, tensor<3x3x144xbf16>) outs(%e1 : tensor<64x28x28x144xbf16>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<64x28x28x144xbf16>
  %e2 = tensor.empty() : tensor<64x56x56x96xf32>
  %y2 = dwc.depthwise_conv2d ins(%x2, %w2 : tensor<64x112x112x96xf32>, tensor<3x3x96xf32>) outs(%e2 : tensor<64x56x56x96xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<64x56x56x96xf32>
  %e3 = tensor.empty() : tensor<64x7x7x576xf16>
  %y3 = dwc.depthwise_conv2d ins(%x3, %w3 : tensor<64x14x14x576xf16>, tensor<3x3x576xf16>) outs(%e3 : tensor<64x7x7x576xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<64x7x7x576xf16>
  return %y0, %y1, %y2, %y3 : tensor<64x56x56x96xf16>, tensor<64x28x28x144xbf16>, tensor<64x56x56x96xf32>, tensor<64x7x7x576xf16>
}

// -----

// 16-bit filters of more than 9 taps on big grids keep the channel rule and
// the 4 x 16 tile; a given channel count or tile still wins over the 2 x 2
// rule; a 16-bit C that 2 does not divide is refused.
// CHECK-LABEL: func @forward_16bit_rule_edges
// CHECK: dwc.kernel = #dwc.strided_forward<channels = 2, rows = 4, columns = 16>
// CHECK: dwc.kernel = #dwc.strided_forward<channels = 8, rows = 2, columns = 2>
// CHECK: dwc.kernel = #dwc.strided_forward<channels = 2, rows = 1, columns = 4>
// CHECK: dwc.kernel = #dwc.direct
// WHY: remark: dwc.kernel = #dwc.strided_forward<channels = 2, rows = 4, columns = 16>: chosen
// WHY: remark: dwc.kernel = #dwc.strided_forward<channels = 8, rows = 2, columns = 2>: chosen
// WHY: remark: dwc.kernel = #dwc.strided_forward<channels = 2, rows = 1, columns = 4>: chosen
// WHY: remark: dwc.kernel = #dwc.direct: chosen; refused: {{.*}}strided_forward (channel count is not a multiple of the vector width)
func.func @forward_16bit_rule_edges(%x: memref<64x56x56x144xf16>, %w5: memref<5x5x144xf16>, %w3: memref<3x3x144xf16>, %y: memref<64x28x28x144xf16>,
                                    %xo: memref<64x56x56x145xf16>, %wo: memref<3x3x145xf16>, %yo: memref<64x28x28x145xf16>) {
  dwc.depthwise_conv2d ins(%x, %w5 : memref<64x56x56x144xf16>, memref<5x5x144xf16>) outs(%y : memref<64x28x28x144xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%x, %w3 : memref<64x56x56x144xf16>, memref<3x3x144xf16>) outs(%y : memref<64x28x28x144xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.strided_forward<channels = 8>}
  dwc.depthwise_conv2d ins(%x, %w3 : memref<64x56x56x144xf16>, memref<3x3x144xf16>) outs(%y : memref<64x28x28x144xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.strided_forward<rows = 1, columns = 4>}
  dwc.depthwise_conv2d ins(%xo, %wo : memref<64x56x56x145xf16>, memref<3x3x145xf16>) outs(%yo : memref<64x28x28x145xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// Threads per block: 128 on outputs of at most 7 rows outside the small
// grids (batch 64, 14 x 14 inputs, 5x5 and 3x3 16-bit; f32 3x3 takes the
// window-first tile, measured with 256); 256 (left out)
// on 8+ output rows and on the batch-1 small grids; a requested value is
// kept (256 written out too), and a complete configuration without it
// stays at 256.
// CHECK-LABEL: func @forward_block_threads
// CHECK: dwc.kernel = #dwc.strided_forward<channels = 2, rows = 4, columns = 16, block_threads = 128>
// CHECK: dwc.kernel = #dwc.strided_forward<channels = 2, rows = 4, columns = 16, block_threads = 128>
// CHECK: dwc.kernel = #dwc.strided_forward<channels = 2, rows = 1, columns = 4, loads_first = 1>{{[}]}}
// CHECK: dwc.kernel = #dwc.strided_forward<channels = 2, rows = 4, columns = 16>
// CHECK: dwc.kernel = #dwc.strided_forward<channels = 2, rows = 1, columns = 2, loads_first = 1>
// CHECK: dwc.kernel = #dwc.strided_forward<channels = 2, rows = 4, columns = 16, block_threads = 256>
// CHECK: dwc.kernel = #dwc.strided_forward<channels = 2, rows = 4, columns = 16, block_threads = 32>
// CHECK: dwc.kernel = #dwc.strided_forward<channels = 2, rows = 4, columns = 16>{{[}]}}
func.func @forward_block_threads(%x: memref<64x14x14x672xf16>, %w: memref<5x5x672xf16>, %y: memref<64x7x7x672xf16>,
    %xb: memref<64x14x14x672xbf16>, %wb: memref<5x5x672xbf16>, %yb: memref<64x7x7x672xbf16>,
    %x3: memref<64x14x14x576xf32>, %w3: memref<3x3x576xf32>, %y3: memref<64x7x7x576xf32>,
    %x2: memref<64x28x28x240xf16>, %w2: memref<5x5x240xf16>, %y2: memref<64x14x14x240xf16>,
    %x1: memref<1x14x14x672xf16>, %y1: memref<1x7x7x672xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<64x14x14x672xf16>, memref<5x5x672xf16>) outs(%y : memref<64x7x7x672xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%xb, %wb : memref<64x14x14x672xbf16>, memref<5x5x672xbf16>) outs(%yb : memref<64x7x7x672xbf16>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%x3, %w3 : memref<64x14x14x576xf32>, memref<3x3x576xf32>) outs(%y3 : memref<64x7x7x576xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  dwc.depthwise_conv2d ins(%x2, %w2 : memref<64x28x28x240xf16>, memref<5x5x240xf16>) outs(%y2 : memref<64x14x14x240xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%x1, %w : memref<1x14x14x672xf16>, memref<5x5x672xf16>) outs(%y1 : memref<1x7x7x672xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%x, %w : memref<64x14x14x672xf16>, memref<5x5x672xf16>) outs(%y : memref<64x7x7x672xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.strided_forward<block_threads = 256>}
  dwc.depthwise_conv2d ins(%x, %w : memref<64x14x14x672xf16>, memref<5x5x672xf16>) outs(%y : memref<64x7x7x672xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.strided_forward<channels = 2, rows = 4, columns = 16, block_threads = 32>}
  dwc.depthwise_conv2d ins(%x, %w : memref<64x14x14x672xf16>, memref<5x5x672xf16>) outs(%y : memref<64x7x7x672xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.strided_forward<channels = 2, rows = 4, columns = 16>}
  return
}
