// RUN: dwc-opt %s --split-input-file -verify-diagnostics

// Every branch of the #dwc.mma_band / #dwc.mma_ring rules
// (lib/Dialect/Dwc/IR/Configs/Mma.cpp): the ops the tensor-core ring/band
// kernels take, the field ranges, the grids and the shared memory against
// #dwc.target.

func.func @not_a_conv() -> index {
  // expected-error @+1 {{'dwc.kernel' #dwc.mma_band<> does not fit this op: not a depthwise convolution forward or backward-data op}}
  %c = arith.constant {dwc.kernel = #dwc.mma_band<>} 0 : index
  return %c : index
}

// -----

func.func @wrong_rank(%x: memref<1x8x32x64xf16>, %w: memref<9x64xf16>, %y: memref<1x8x32x64xf16>) {
  // expected-error @+1 {{does not fit this op: operands or attributes of the wrong rank}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<9x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] {dwc.kernel = #dwc.mma_band<rows = 1>}
  return
}

// -----

func.func @f32(%x: memref<1x8x32x64xf32>, %w: memref<9x9x64xf32>, %y: memref<1x8x32x64xf32>) {
  // expected-error @+1 {{does not fit this op: element type is not f16 or bf16}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf32>, memref<9x9x64xf32>) outs(%y : memref<1x8x32x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] {dwc.kernel = #dwc.mma_band<rows = 1>}
  return
}

// -----

func.func @acc_f64(%x: memref<1x8x32x64xf16>, %w: memref<9x9x64xf16>, %y: memref<1x8x32x64xf16>) {
  // expected-error @+1 {{does not fit this op: accumulation type is not f32}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<9x9x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] acc = f64 {dwc.kernel = #dwc.mma_ring<>}
  return
}

// -----

func.func @stride2(%x: memref<1x8x32x64xf16>, %w: memref<9x9x64xf16>, %y: memref<1x4x16x64xf16>) {
  // expected-error @+1 {{does not fit this op: stride is not 1}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<9x9x64xf16>) outs(%y : memref<1x4x16x64xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [4, 4, 4, 4] {dwc.kernel = #dwc.mma_band<rows = 1>}
  return
}

// -----

func.func @dilation2(%x: memref<1x8x32x64xf16>, %w: memref<9x9x64xf16>, %y: memref<1x8x32x64xf16>) {
  // expected-error @+1 {{does not fit this op: dilation is not 1}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<9x9x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [2, 2] padding = [8, 8, 8, 8] {dwc.kernel = #dwc.mma_band<rows = 1>}
  return
}

// -----

func.func @negative_padding(%x: memref<1x8x32x64xf16>, %w: memref<9x9x64xf16>, %y: memref<1x3x27x64xf16>) {
  // expected-error @+1 {{does not fit this op: negative padding}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<9x9x64xf16>) outs(%y : memref<1x3x27x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [-1, 4, -1, 4] {dwc.kernel = #dwc.mma_band<rows = 1>}
  return
}

// -----

func.func @mixed_types(%x: memref<1x8x32x64xf16>, %w: memref<9x9x64xbf16>, %y: memref<1x8x32x64xf16>) {
  // expected-error @+1 {{does not fit this op: operands of different element types}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<9x9x64xbf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] {dwc.kernel = #dwc.mma_band<rows = 1>}
  return
}

// -----

func.func @layout(%x: memref<1x8x32x64xf16, strided<[32768, 4096, 128, 1]>>, %w: memref<9x9x64xf16>, %y: memref<1x8x32x64xf16>) {
  // expected-error @+1 {{does not fit this op: non-identity layout}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16, strided<[32768, 4096, 128, 1]>>, memref<9x9x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] {dwc.kernel = #dwc.mma_band<rows = 1>}
  return
}

// -----

func.func @dynamic(%x: memref<?x8x32x64xf16>, %w: memref<9x9x64xf16>, %y: memref<?x8x32x64xf16>) {
  // expected-error @+1 {{does not fit this op: empty or dynamic operand}}
  dwc.depthwise_conv2d ins(%x, %w : memref<?x8x32x64xf16>, memref<9x9x64xf16>) outs(%y : memref<?x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] {dwc.kernel = #dwc.mma_band<rows = 1>}
  return
}

// -----

func.func @huge(%x: memref<1x8x2147483648x64xf16>, %w: memref<9x9x64xf16>, %y: memref<1x8x2147483648x64xf16>) {
  // expected-error @+1 {{does not fit this op: a dimension of 2^31 or more}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x2147483648x64xf16>, memref<9x9x64xf16>) outs(%y : memref<1x8x2147483648x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] {dwc.kernel = #dwc.mma_band<rows = 1>}
  return
}

// -----

func.func @c13(%x: memref<1x8x32x13xf16>, %w: memref<9x9x13xf16>, %y: memref<1x8x32x13xf16>) {
  // expected-error @+1 {{does not fit this op: channel count is not a multiple of 8}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x13xf16>, memref<9x9x13xf16>) outs(%y : memref<1x8x32x13xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] {dwc.kernel = #dwc.mma_band<rows = 1>}
  return
}

// -----

func.func @transposed_padding(%dy: memref<1x8x42x64xf16>, %w: memref<9x9x64xf16>, %dx: memref<1x8x32x64xf16>) {
  // expected-error @+1 {{does not fit this op: padding larger than the filter extent minus one (negative transposed padding)}}
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<1x8x42x64xf16>, memref<9x9x64xf16>) outs(%dx : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 9, 9] {dwc.kernel = #dwc.mma_band<>}
  return
}

// -----

func.func @rows3(%x: memref<1x8x32x64xf16>, %w: memref<9x9x64xf16>, %y: memref<1x8x32x64xf16>) {
  // expected-error @+1 {{does not fit this op: rows = 3 is not 1, 2 or 4}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<9x9x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] {dwc.kernel = #dwc.mma_band<rows = 3>}
  return
}

// -----

func.func @warp_channels(%x: memref<1x8x32x64xf16>, %w: memref<9x9x64xf16>, %y: memref<1x8x32x64xf16>) {
  // expected-error @+1 {{does not fit this op: warp_channels = 12 is not 8 or 16}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<9x9x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] {dwc.kernel = #dwc.mma_ring<warp_channels = 12>}
  return
}

// -----

func.func @min_blocks(%x: memref<1x8x32x64xf16>, %w: memref<9x9x64xf16>, %y: memref<1x8x32x64xf16>) {
  // expected-error @+1 {{does not fit this op: min_blocks_per_sm = 33 is not in [1, 32]}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<9x9x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] {dwc.kernel = #dwc.mma_band<min_blocks_per_sm = 33>}
  return
}

// -----

func.func @frags_per_stage(%x: memref<1x8x32x64xf16>, %w: memref<9x9x64xf16>, %y: memref<1x8x32x64xf16>) {
  // expected-error @+1 {{does not fit this op: frags_per_stage = 17 is not in [1, 16]}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<9x9x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] {dwc.kernel = #dwc.mma_ring<frags_per_stage = 17>}
  return
}

// -----

func.func @ring_fragments(%x: memref<1x8x32x64xf16>, %w: memref<31x31x64xf16>, %y: memref<1x8x32x64xf16>) {
  // expected-error @+1 {{does not fit this op: a row ring stages all 4 fragments of a filter row (frags_per_stage = 2)}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<31x31x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [15, 15, 15, 15] {dwc.kernel = #dwc.mma_ring<ring = true, frags_per_stage = 2>}
  return
}

// -----

func.func @grid(%x: memref<1x1x1x4194304xf16>, %w: memref<9x9x4194304xf16>, %y: memref<1x1x1x4194304xf16>) {
  // expected-error @+1 {{does not fit this op: grid too large}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x1x1x4194304xf16>, memref<9x9x4194304xf16>) outs(%y : memref<1x1x1x4194304xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] {dwc.kernel = #dwc.mma_band<rows = 1>}
  return
}

// -----

func.func @workspace_grid(%x: memref<1x1073741824x1x128xf16>, %w: memref<1073741824x9x128xf16>, %y: memref<1x1x1x128xf16>) {
  // expected-error @+1 {{does not fit this op: workspace kernel grid too large}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x1073741824x1x128xf16>, memref<1073741824x9x128xf16>) outs(%y : memref<1x1x1x128xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 4, 4] {dwc.kernel = #dwc.mma_band<filter_pairs = true>}
  return
}

// -----

module attributes {dwc.target = #dwc.target<chip = "sm_80", features = "+ptx80", sm_count = 108, shared_memory_per_block = 166912, shared_memory_per_sm = 167936, threads_per_sm = 2048, registers_per_sm = 65536>} {
func.func @smem(%x: memref<1x8x32x64xf16>, %w: memref<31x31x64xf16>, %y: memref<1x8x32x64xf16>) {
  // expected-error @+1 {{does not fit this op: needs 204336 bytes of shared memory per block, the target has 166912}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<31x31x64xf16>) outs(%y : memref<1x8x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [15, 15, 15, 15] {dwc.kernel = #dwc.mma_band<rows = 4>}
  return
}
}
