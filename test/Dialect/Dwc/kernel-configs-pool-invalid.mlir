// RUN: dwc-opt %s --split-input-file -verify-diagnostics

// Every branch of the pooling and global-pooling configurations' rules
// (lib/Dialect/Dwc/IR/Configs/Pool.cpp): operands, window attributes, op
// kinds, field ranges, register-strip and tile limits, grid sizes.

func.func @forward_on_backward(%x: memref<1x8x8x16xf32>, %dy: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: not a dwc.pool2d}}
  dwc.pool2d_backward max ins(%x, %dy : memref<1x8x8x16xf32>, memref<1x4x4x16xf32>) outs(%x : memref<1x8x8x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_forward<rows = 1>}
  return
}

// -----

func.func @wrong_rank(%x: memref<8x8x16xf32>, %y: memref<4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: operands of the wrong rank}}
  dwc.pool2d max ins(%x : memref<8x8x16xf32>) outs(%y : memref<4x4x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_forward<rows = 1>}
  return
}

// -----

func.func @dynamic(%x: memref<1x?x8x16xf32>, %y: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: empty or dynamic operand}}
  dwc.pool2d max ins(%x : memref<1x?x8x16xf32>) outs(%y : memref<1x4x4x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_forward<rows = 1>}
  return
}

// -----

func.func @huge(%x: memref<65536x65536x65536x16xf32>, %y: memref<65536x32768x32768x16xf32>) {
  // expected-error @+1 {{does not fit this op: operand of more than 2^46 elements}}
  dwc.pool2d max ins(%x : memref<65536x65536x65536x16xf32>) outs(%y : memref<65536x32768x32768x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_forward<rows = 1>}
  return
}

// -----

func.func @layout(%x: memref<1x8x8x16xf32, strided<[2048, 256, 32, 1]>>, %y: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: non-identity layout}}
  dwc.pool2d max ins(%x : memref<1x8x8x16xf32, strided<[2048, 256, 32, 1]>>) outs(%y : memref<1x4x4x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_forward<rows = 1>}
  return
}

// -----

func.func @mixed_types(%x: memref<1x8x8x16xf32>, %y: memref<1x4x4x16xf16>) {
  // expected-error @+1 {{does not fit this op: operands of different element types}}
  dwc.pool2d max ins(%x : memref<1x8x8x16xf32>) outs(%y : memref<1x4x4x16xf16>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_forward<rows = 1>}
  return
}

// -----

func.func @f64(%x: memref<1x8x8x16xf64>, %y: memref<1x4x4x16xf64>) {
  // expected-error @+1 {{does not fit this op: element type is not f32, f16 or bf16}}
  dwc.pool2d max ins(%x : memref<1x8x8x16xf64>) outs(%y : memref<1x4x4x16xf64>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_forward<rows = 1>}
  return
}

// -----

func.func @window_rank(%x: memref<1x8x8x16xf32>, %y: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: window, strides or padding of the wrong rank}}
  dwc.pool2d max ins(%x : memref<1x8x8x16xf32>) outs(%y : memref<1x4x4x16xf32>) window = [2] strides = [2, 2] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_forward<rows = 1>}
  return
}

// -----

func.func @zero_stride(%x: memref<1x8x8x16xf32>, %y: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: window or stride is not positive}}
  dwc.pool2d max ins(%x : memref<1x8x8x16xf32>) outs(%y : memref<1x4x4x16xf32>) window = [2, 2] strides = [0, 2] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_forward<rows = 1>}
  return
}

// -----

func.func @negative_padding(%x: memref<1x8x8x16xf32>, %y: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: negative padding}}
  dwc.pool2d max ins(%x : memref<1x8x8x16xf32>) outs(%y : memref<1x4x4x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, -1, 0, 0] {dwc.kernel = #dwc.pool_forward<rows = 1>}
  return
}

// -----

func.func @vector_bits(%x: memref<1x8x8x16xf32>, %y: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: vector_bits = 96 is not 32, 64 or 128}}
  dwc.pool2d max ins(%x : memref<1x8x8x16xf32>) outs(%y : memref<1x4x4x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_forward<vector_bits = 96>}
  return
}

// -----

// f32 with 32-bit vectors: one element, the scalar path is the baseline's.
func.func @forward_channels(%x: memref<1x8x8x16xf32>, %y: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: channels not a multiple of the vector width}}
  dwc.pool2d max ins(%x : memref<1x8x8x16xf32>) outs(%y : memref<1x4x4x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_forward<vector_bits = 32>}
  return
}

// -----

func.func @forward_rows(%x: memref<1x8x8x16xf32>, %y: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: rows = 17 is not in [1, 16]}}
  dwc.pool2d max ins(%x : memref<1x8x8x16xf32>) outs(%y : memref<1x4x4x16xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.pool_forward<rows = 17>}
  return
}

// -----

func.func @forward_columns(%x: memref<1x8x8x16xf32>, %y: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: columns = 17 is not in [1, 16]}}
  dwc.pool2d max ins(%x : memref<1x8x8x16xf32>) outs(%y : memref<1x4x4x16xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.pool_forward<columns = 17>}
  return
}

// -----

func.func @forward_too_wide(%x: memref<1x8x80x16xf32>, %y: memref<1x4x16x16xf32>) {
  // expected-error @+1 {{does not fit this op: window too wide for the register strip}}
  dwc.pool2d max ins(%x : memref<1x8x80x16xf32>) outs(%y : memref<1x4x16x16xf32>) window = [2, 5] strides = [2, 5] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_forward<columns = 16>}
  return
}

// -----

func.func @rows_without_overlap(%x: memref<1x8x8x16xf32>, %y: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: row tiles need windows overlapping in height}}
  dwc.pool2d max ins(%x : memref<1x8x8x16xf32>) outs(%y : memref<1x4x4x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_forward<rows = 2>}
  return
}

// -----

func.func @forward_tile_loads(%x: memref<1x32x32x16xf32>, %y: memref<1x32x32x16xf32>) {
  // expected-error @+1 {{does not fit this op: row tile of more than 128 input loads}}
  dwc.pool2d max ins(%x : memref<1x32x32x16xf32>) outs(%y : memref<1x32x32x16xf32>) window = [3, 3] strides = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.pool_forward<rows = 16, columns = 16>}
  return
}

// -----

func.func @forward_grid(%x: memref<1024x1024x1024x4096xf16>, %y: memref<1024x1024x1024x4096xf16>) {
  // expected-error @+1 {{does not fit this op: grid too large}}
  dwc.pool2d max ins(%x : memref<1024x1024x1024x4096xf16>) outs(%y : memref<1024x1024x1024x4096xf16>) window = [1, 1] strides = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_forward<vector_bits = 32, rows = 1, columns = 1>}
  return
}

// -----

func.func @backward_on_forward(%x: memref<1x8x8x16xf32>, %y: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: not a dwc.pool2d_backward}}
  dwc.pool2d max ins(%x : memref<1x8x8x16xf32>) outs(%y : memref<1x4x4x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_backward<rows = 1>}
  return
}

// -----

func.func @backward_malformed(%x: memref<1x8x8x16xf32>, %dy: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: window or stride is not positive}}
  dwc.pool2d_backward max ins(%x, %dy : memref<1x8x8x16xf32>, memref<1x4x4x16xf32>) outs(%x : memref<1x8x8x16xf32>) window = [0, 2] strides = [2, 2] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_backward<rows = 1>}
  return
}

// -----

func.func @argmax_name(%x: memref<1x8x8x16xf32>, %dy: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: argmax = "sometimes" is not none, recompute, stored or packed}}
  dwc.pool2d_backward max ins(%x, %dy : memref<1x8x8x16xf32>, memref<1x4x4x16xf32>) outs(%x : memref<1x8x8x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_backward<argmax = "sometimes">}
  return
}

// -----

func.func @argmax_on_avg(%x: memref<1x8x8x16xf32>, %dy: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: an argmax for an average gradient}}
  dwc.pool2d_backward avg ins(%x, %dy : memref<1x8x8x16xf32>, memref<1x4x4x16xf32>) outs(%x : memref<1x8x8x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_backward<argmax = "stored">}
  return
}

// -----

func.func @max_without_argmax(%x: memref<1x8x8x16xf32>, %dy: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: a max gradient without an argmax}}
  dwc.pool2d_backward max ins(%x, %dy : memref<1x8x8x16xf32>, memref<1x4x4x16xf32>) outs(%x : memref<1x8x8x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_backward<argmax = "none">}
  return
}

// -----

func.func @argmax_columns_range(%x: memref<1x8x8x16xf32>, %dy: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: argmax_columns = 9 is not in [1, 8]}}
  dwc.pool2d_backward max ins(%x, %dy : memref<1x8x8x16xf32>, memref<1x4x4x16xf32>) outs(%x : memref<1x8x8x16xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.pool_backward<argmax = "stored", argmax_columns = 9>}
  return
}

// -----

func.func @argmax_columns_recompute(%x: memref<1x8x8x16xf32>, %dy: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: argmax_columns without a stored argmax}}
  dwc.pool2d_backward max ins(%x, %dy : memref<1x8x8x16xf32>, memref<1x4x4x16xf32>) outs(%x : memref<1x8x8x16xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.pool_backward<argmax = "recompute", argmax_columns = 2>}
  return
}

// -----

func.func @packed_f32(%x: memref<1x8x8x16xf32>, %dy: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: packed argmax needs 16-bit data in 128-bit vectors}}
  dwc.pool2d_backward max ins(%x, %dy : memref<1x8x8x16xf32>, memref<1x4x4x16xf32>) outs(%x : memref<1x8x8x16xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.pool_backward<argmax = "packed">}
  return
}

// -----

func.func @stored_taps(%x: memref<1x24x24x16xf32>, %dy: memref<1x2x2x16xf32>) {
  // expected-error @+1 {{does not fit this op: window of more than 127 taps (the stored argmax is an i8)}}
  dwc.pool2d_backward max ins(%x, %dy : memref<1x24x24x16xf32>, memref<1x2x2x16xf32>) outs(%x : memref<1x24x24x16xf32>) window = [12, 12] strides = [12, 12] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_backward<argmax = "stored">}
  return
}

// -----

func.func @argmax_strip_wide(%x: memref<1x9x81x16xf32>, %dy: memref<1x1x9x16xf32>) {
  // expected-error @+1 {{does not fit this op: argmax strip too wide for the register strip}}
  dwc.pool2d_backward max ins(%x, %dy : memref<1x9x81x16xf32>, memref<1x1x9x16xf32>) outs(%x : memref<1x9x81x16xf32>) window = [9, 9] strides = [9, 9] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_backward<argmax = "stored", argmax_columns = 8>}
  return
}

// -----

func.func @argmax_grid(%x: memref<1024x1024x1024x4096xf32>, %dy: memref<1024x1024x1024x4096xf32>) {
  // expected-error @+1 {{does not fit this op: grid too large}}
  dwc.pool2d_backward max ins(%x, %dy : memref<1024x1024x1024x4096xf32>, memref<1024x1024x1024x4096xf32>) outs(%x : memref<1024x1024x1024x4096xf32>) window = [1, 2] strides = [1, 1] padding = [0, 0, 0, 1] {dwc.kernel = #dwc.pool_backward<argmax = "stored", argmax_columns = 1>}
  return
}

// -----

func.func @backward_rows(%x: memref<1x8x8x16xf32>, %dy: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: rows = 17 is not in [1, 16]}}
  dwc.pool2d_backward avg ins(%x, %dy : memref<1x8x8x16xf32>, memref<1x4x4x16xf32>) outs(%x : memref<1x8x8x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_backward<rows = 17>}
  return
}

// -----

func.func @backward_columns(%x: memref<1x8x8x16xf32>, %dy: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: columns = 65 is not in [1, 64]}}
  dwc.pool2d_backward avg ins(%x, %dy : memref<1x8x8x16xf32>, memref<1x4x4x16xf32>) outs(%x : memref<1x8x8x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_backward<columns = 65>}
  return
}

// -----

func.func @backward_columns_stride(%x: memref<1x8x8x16xf32>, %dy: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: columns not a multiple of the width stride}}
  dwc.pool2d_backward avg ins(%x, %dy : memref<1x8x8x16xf32>, memref<1x4x4x16xf32>) outs(%x : memref<1x8x8x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_backward<columns = 3>}
  return
}

// -----

func.func @tile_scalar(%x: memref<1x6x6x5xf32>, %dy: memref<1x3x3x5xf32>) {
  // expected-error @+1 {{does not fit this op: row tiles need C a multiple of 128 bits}}
  dwc.pool2d_backward avg ins(%x, %dy : memref<1x6x6x5xf32>, memref<1x3x3x5xf32>) outs(%x : memref<1x6x6x5xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_backward<rows = 2>}
  return
}

// -----

func.func @tile_stride1_max(%x: memref<1x8x8x16xf32>) {
  // expected-error @+1 {{does not fit this op: row tiles of a stride-1 max gradient}}
  dwc.pool2d_backward max ins(%x, %x : memref<1x8x8x16xf32>, memref<1x8x8x16xf32>) outs(%x : memref<1x8x8x16xf32>) window = [3, 3] strides = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.pool_backward<rows = 2>}
  return
}

// -----

func.func @tile_stride1_loads(%x: memref<1x32x32x16xf32>) {
  // expected-error @+1 {{does not fit this op: row tile of more than 128 dY loads}}
  dwc.pool2d_backward avg ins(%x, %x : memref<1x32x32x16xf32>, memref<1x32x32x16xf32>) outs(%x : memref<1x32x32x16xf32>) window = [3, 3] strides = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.pool_backward<rows = 16, columns = 16>}
  return
}

// -----

func.func @tile_rows_stride(%x: memref<1x8x8x16xf32>, %dy: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: rows not a multiple of the height stride}}
  dwc.pool2d_backward avg ins(%x, %dy : memref<1x8x8x16xf32>, memref<1x4x4x16xf32>) outs(%x : memref<1x8x8x16xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.pool_backward<rows = 3>}
  return
}

// -----

func.func @tile_recompute(%x: memref<1x8x8x16xf32>, %dy: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: tiles of a max gradient with non-overlapping windows recompute without them}}
  dwc.pool2d_backward max ins(%x, %dy : memref<1x8x8x16xf32>, memref<1x4x4x16xf32>) outs(%x : memref<1x8x8x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_backward<rows = 2, argmax = "recompute">}
  return
}

// -----

func.func @tile_windows(%x: memref<1x8x8x16xf32>, %dy: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: tile of more than 32 windows or 16 positions}}
  dwc.pool2d_backward avg ins(%x, %dy : memref<1x8x8x16xf32>, memref<1x4x4x16xf32>) outs(%x : memref<1x8x8x16xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.pool_backward<rows = 4, columns = 8>}
  return
}

// -----

func.func @backward_grid(%x: memref<1024x1024x1024x4096xf32>, %dy: memref<1024x1024x1024x4096xf32>) {
  // expected-error @+1 {{does not fit this op: grid too large}}
  dwc.pool2d_backward avg ins(%x, %dy : memref<1024x1024x1024x4096xf32>, memref<1024x1024x1024x4096xf32>) outs(%x : memref<1024x1024x1024x4096xf32>) window = [1, 1] strides = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_backward<rows = 1, columns = 1>}
  return
}

// -----

func.func @conv_pool_on_pool(%x: memref<1x8x8x16xf32>, %y: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: not a dwc.depthwise_conv2d_pool2d}}
  dwc.pool2d max ins(%x : memref<1x8x8x16xf32>) outs(%y : memref<1x4x4x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.conv_pool<columns = 4>}
  return
}

// -----

func.func @conv_pool_filter_rank(%x: memref<1x8x8x16xf32>, %w: memref<9x16xf32>, %y: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: operands of the wrong rank}}
  dwc.depthwise_conv2d_pool2d max ins(%x, %w : memref<1x8x8x16xf32>, memref<9x16xf32>) outs(%y : memref<1x4x4x16xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0] {dwc.kernel = #dwc.conv_pool<columns = 4>}
  return
}

// -----

func.func @conv_pool_attr_rank(%x: memref<1x8x8x16xf32>, %w: memref<3x3x16xf32>, %y: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: convolution attributes of the wrong rank}}
  dwc.depthwise_conv2d_pool2d max ins(%x, %w : memref<1x8x8x16xf32>, memref<3x3x16xf32>) outs(%y : memref<1x4x4x16xf32>)
    strides = [1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0] {dwc.kernel = #dwc.conv_pool<columns = 4>}
  return
}

// -----

func.func @conv_pool_window(%x: memref<1x8x8x16xf32>, %w: memref<3x3x16xf32>, %y: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: negative padding}}
  dwc.depthwise_conv2d_pool2d max ins(%x, %w : memref<1x8x8x16xf32>, memref<3x3x16xf32>) outs(%y : memref<1x4x4x16xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, -1, 0] {dwc.kernel = #dwc.conv_pool<columns = 4>}
  return
}

// -----

func.func @conv_pool_strided(%x: memref<1x8x8x16xf32>, %w: memref<3x3x16xf32>, %y: memref<1x2x2x16xf32>) {
  // expected-error @+1 {{does not fit this op: strided or dilated convolution}}
  dwc.depthwise_conv2d_pool2d max ins(%x, %w : memref<1x8x8x16xf32>, memref<3x3x16xf32>) outs(%y : memref<1x2x2x16xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0] {dwc.kernel = #dwc.conv_pool<columns = 2>}
  return
}

// -----

func.func @conv_pool_padding(%x: memref<1x8x8x16xf32>, %w: memref<3x3x16xf32>, %y: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: negative convolution padding}}
  dwc.depthwise_conv2d_pool2d max ins(%x, %w : memref<1x8x8x16xf32>, memref<3x3x16xf32>) outs(%y : memref<1x4x4x16xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, -1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0] {dwc.kernel = #dwc.conv_pool<columns = 4>}
  return
}

// -----

func.func @conv_pool_taps16(%x: memref<1x8x8x16xf16>, %w: memref<5x5x16xf16>, %y: memref<1x4x4x16xf16>) {
  // expected-error @+1 {{does not fit this op: 16-bit filter larger than 9 taps}}
  dwc.depthwise_conv2d_pool2d max ins(%x, %w : memref<1x8x8x16xf16>, memref<5x5x16xf16>) outs(%y : memref<1x4x4x16xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0] {dwc.kernel = #dwc.conv_pool<columns = 4>}
  return
}

// -----

func.func @conv_pool_taps(%x: memref<1x8x8x16xf32>, %w: memref<9x9x16xf32>, %y: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: filter larger than 49 taps}}
  dwc.depthwise_conv2d_pool2d max ins(%x, %w : memref<1x8x8x16xf32>, memref<9x9x16xf32>) outs(%y : memref<1x4x4x16xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0] {dwc.kernel = #dwc.conv_pool<columns = 4>}
  return
}

// -----

func.func @conv_pool_channels(%x: memref<1x8x8x6xf32>, %w: memref<3x3x6xf32>, %y: memref<1x4x4x6xf32>) {
  // expected-error @+1 {{does not fit this op: channels not a multiple of the vector width}}
  dwc.depthwise_conv2d_pool2d max ins(%x, %w : memref<1x8x8x6xf32>, memref<3x3x6xf32>) outs(%y : memref<1x4x4x6xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0] {dwc.kernel = #dwc.conv_pool<columns = 4>}
  return
}

// -----

func.func @conv_pool_columns(%x: memref<1x8x8x16xf32>, %w: memref<3x3x16xf32>, %y: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: columns = 9 is not in [1, 8]}}
  dwc.depthwise_conv2d_pool2d max ins(%x, %w : memref<1x8x8x16xf32>, memref<3x3x16xf32>) outs(%y : memref<1x4x4x16xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0] {dwc.kernel = #dwc.conv_pool<columns = 9>}
  return
}

// -----

func.func @conv_pool_wide(%x: memref<1x8x64x16xf32>, %w: memref<3x3x16xf32>, %y: memref<1x1x8x16xf32>) {
  // expected-error @+1 {{does not fit this op: window too wide for the register strip}}
  dwc.depthwise_conv2d_pool2d max ins(%x, %w : memref<1x8x64x16xf32>, memref<3x3x16xf32>) outs(%y : memref<1x1x8x16xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [8, 8] pool_strides = [8, 8] pool_padding = [0, 0, 0, 0] {dwc.kernel = #dwc.conv_pool<columns = 8>}
  return
}

// -----

func.func @conv_pool_grid(%x: memref<1024x1024x1024x4096xf32>, %w: memref<1x1x4096xf32>, %y: memref<1024x1024x1024x4096xf32>) {
  // expected-error @+1 {{does not fit this op: grid too large}}
  dwc.depthwise_conv2d_pool2d max ins(%x, %w : memref<1024x1024x1024x4096xf32>, memref<1x1x4096xf32>) outs(%y : memref<1024x1024x1024x4096xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] window = [1, 1] pool_strides = [1, 1] pool_padding = [0, 0, 0, 0] {dwc.kernel = #dwc.conv_pool<columns = 1>}
  return
}

// -----

func.func @global_on_conv(%x: memref<1x8x8x16xf32>, %w: memref<3x3x16xf32>, %y: memref<1x8x8x16xf32>) {
  // expected-error @+1 {{does not fit this op: not a global average pooling op}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x8x16xf32>, memref<3x3x16xf32>) outs(%y : memref<1x8x8x16xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.global_pool<unroll = 4>}
  return
}

// -----

func.func @global_not_global(%x: memref<1x8x8x16xf32>, %y: memref<1x4x4x16xf32>) {
  // expected-error @+1 {{does not fit this op: not a global average (window of the whole input, no padding, no activation)}}
  dwc.pool2d avg ins(%x : memref<1x8x8x16xf32>) outs(%y : memref<1x4x4x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.global_pool<unroll = 4>}
  return
}

// -----

func.func @global_operands(%x: memref<1x7x7x16xf64>, %y: memref<1x1x1x16xf64>) {
  // expected-error @+1 {{does not fit this op: element type is not f32, f16 or bf16}}
  dwc.global_avg_pool ins(%x : memref<1x7x7x16xf64>) outs(%y : memref<1x1x1x16xf64>) {dwc.kernel = #dwc.global_pool<unroll = 4>}
  return
}

// -----

func.func @global_gradient(%x: memref<1x7x7x16xf32>, %dy: memref<1x1x1x16xf32>) {
  // expected-error @+1 {{does not fit this op: a gradient (#dwc.global_pool_backward takes it)}}
  dwc.pool2d_backward avg ins(%x, %dy : memref<1x7x7x16xf32>, memref<1x1x1x16xf32>) outs(%x : memref<1x7x7x16xf32>) window = [7, 7] strides = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.global_pool<unroll = 4>}
  return
}

// -----

func.func @global_channel_tile(%x: memref<1x7x7x16xf32>, %y: memref<1x1x1x16xf32>) {
  // expected-error @+1 {{does not fit this op: channel_tile = 12 is not a power of two in [1, 32]}}
  dwc.global_avg_pool ins(%x : memref<1x7x7x16xf32>) outs(%y : memref<1x1x1x16xf32>) {dwc.kernel = #dwc.global_pool<channel_tile = 12>}
  return
}

// -----

func.func @global_threads(%x: memref<1x7x7x16xf32>, %y: memref<1x1x1x16xf32>) {
  // expected-error @+1 {{does not fit this op: threads = 100 is not a multiple of 32 in [32, 1024]}}
  dwc.global_avg_pool ins(%x : memref<1x7x7x16xf32>) outs(%y : memref<1x1x1x16xf32>) {dwc.kernel = #dwc.global_pool<threads = 100>}
  return
}

// -----

func.func @global_unroll(%x: memref<1x7x7x16xf32>, %y: memref<1x1x1x16xf32>) {
  // expected-error @+1 {{does not fit this op: unroll = 17 is not in [1, 16]}}
  dwc.global_avg_pool ins(%x : memref<1x7x7x16xf32>) outs(%y : memref<1x1x1x16xf32>) {dwc.kernel = #dwc.global_pool<unroll = 17>}
  return
}

// -----

func.func @global_grid(%x: memref<2147483648x1x1x4xf32>, %y: memref<2147483648x1x1x4xf32>) {
  // expected-error @+1 {{does not fit this op: grid too large}}
  dwc.global_avg_pool ins(%x : memref<2147483648x1x1x4xf32>) outs(%y : memref<2147483648x1x1x4xf32>) {dwc.kernel = #dwc.global_pool<channel_tile = 1, threads = 32>}
  return
}

// -----

func.func @global_backward_on_forward(%x: memref<1x7x7x16xf32>, %y: memref<1x1x1x16xf32>) {
  // expected-error @+1 {{does not fit this op: not a dwc.pool2d_backward}}
  dwc.global_avg_pool ins(%x : memref<1x7x7x16xf32>) outs(%y : memref<1x1x1x16xf32>) {dwc.kernel = #dwc.global_pool_backward<unroll = 4>}
  return
}

// -----

func.func @global_position_blocks(%x: memref<1x7x7x16xf32>, %dy: memref<1x1x1x16xf32>) {
  // expected-error @+1 {{does not fit this op: position_blocks = 4097 is not in [1, 4096]}}
  dwc.pool2d_backward avg ins(%x, %dy : memref<1x7x7x16xf32>, memref<1x1x1x16xf32>) outs(%x : memref<1x7x7x16xf32>) window = [7, 7] strides = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.global_pool_backward<position_blocks = 4097>}
  return
}

// -----

// The gradient takes any tile width up to 32 (no warp butterfly), not wider.
func.func @global_backward_channel_tile(%x: memref<1x7x7x16xf32>, %dy: memref<1x1x1x16xf32>) {
  // expected-error @+1 {{does not fit this op: channel_tile = 33 is not in [1, 32]}}
  dwc.pool2d_backward avg ins(%x, %dy : memref<1x7x7x16xf32>, memref<1x1x1x16xf32>) outs(%x : memref<1x7x7x16xf32>) window = [7, 7] strides = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.global_pool_backward<channel_tile = 33>}
  return
}

// -----

// ... and its rows of tiles fill the block exactly.
func.func @global_backward_rows(%x: memref<1x7x7x48xf32>, %dy: memref<1x1x1x48xf32>) {
  // expected-error @+1 {{does not fit this op: threads = 256 is not a multiple of channel_tile = 12}}
  dwc.pool2d_backward avg ins(%x, %dy : memref<1x7x7x48xf32>, memref<1x1x1x48xf32>) outs(%x : memref<1x7x7x48xf32>) window = [7, 7] strides = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.global_pool_backward<channel_tile = 12, threads = 256>}
  return
}

// -----

// (The attribute is verified before the op: a generic op without operands.)
func.func @no_operands() {
  // expected-error @+1 {{does not fit this op: no operands}}
  "dwc.global_avg_pool"() {dwc.kernel = #dwc.global_pool<unroll = 4>} : () -> ()
  return
}

// -----

func.func @bias_on_gap(%x: memref<1x7x7x16xf32>, %y: memref<1x1x1x16xf32>) {
  // expected-error @+1 {{does not fit this op: not a dwc.conv2d_backward_bias}}
  dwc.global_avg_pool ins(%x : memref<1x7x7x16xf32>) outs(%y : memref<1x1x1x16xf32>) {dwc.kernel = #dwc.backward_bias<unroll = 4>}
  return
}

// -----

func.func @bias_f64(%dy: memref<1x7x7x16xf64>, %db: memref<16xf64>) {
  // expected-error @+1 {{does not fit this op: element type is not f32, f16 or bf16}}
  dwc.conv2d_backward_bias ins(%dy : memref<1x7x7x16xf64>) outs(%db : memref<16xf64>) {dwc.kernel = #dwc.backward_bias<unroll = 4>}
  return
}

// -----

func.func @bias_layout(%dy: memref<1x7x7x16xf32, strided<[1568, 224, 32, 1]>>, %db: memref<16xf32>) {
  // expected-error @+1 {{does not fit this op: non-identity layout}}
  dwc.conv2d_backward_bias ins(%dy : memref<1x7x7x16xf32, strided<[1568, 224, 32, 1]>>) outs(%db : memref<16xf32>) {dwc.kernel = #dwc.backward_bias<unroll = 4>}
  return
}

// -----

func.func @bias_slices_range(%dy: memref<1x7x7x16xf32>, %db: memref<16xf32>) {
  // expected-error @+1 {{does not fit this op: slices = 2097152 is not in [1, 1048576]}}
  dwc.conv2d_backward_bias ins(%dy : memref<1x7x7x16xf32>) outs(%db : memref<16xf32>) {dwc.kernel = #dwc.backward_bias<slices = 2097152>}
  return
}

// -----

func.func @bias_slices_divide(%dy: memref<1x7x7x16xf32>, %db: memref<16xf32>) {
  // expected-error @+1 {{does not fit this op: slices = 4 does not divide the 49 rows of dY}}
  dwc.conv2d_backward_bias ins(%dy : memref<1x7x7x16xf32>) outs(%db : memref<16xf32>) {dwc.kernel = #dwc.backward_bias<slices = 4>}
  return
}

// -----

func.func @bias_channel_tile(%dy: memref<1x7x7x16xf32>, %db: memref<16xf32>) {
  // expected-error @+1 {{does not fit this op: channel_tile = 3 is not a power of two in [1, 32]}}
  dwc.conv2d_backward_bias ins(%dy : memref<1x7x7x16xf32>) outs(%db : memref<16xf32>) {dwc.kernel = #dwc.backward_bias<channel_tile = 3>}
  return
}

// -----

func.func @bias_threads(%dy: memref<1x7x7x16xf32>, %db: memref<16xf32>) {
  // expected-error @+1 {{does not fit this op: threads = 48 is not a multiple of 32 in [32, 1024]}}
  dwc.conv2d_backward_bias ins(%dy : memref<1x7x7x16xf32>) outs(%db : memref<16xf32>) {dwc.kernel = #dwc.backward_bias<threads = 48>}
  return
}

// -----

func.func @bias_unroll(%dy: memref<1x7x7x16xf32>, %db: memref<16xf32>) {
  // expected-error @+1 {{does not fit this op: unroll = 20 is not in [1, 16]}}
  dwc.conv2d_backward_bias ins(%dy : memref<1x7x7x16xf32>) outs(%db : memref<16xf32>) {dwc.kernel = #dwc.backward_bias<unroll = 20>}
  return
}

// -----

func.func @bias_grid(%dy: memref<1048576x1x1x16384xf32>, %db: memref<16384xf32>) {
  // expected-error @+1 {{does not fit this op: grid too large}}
  dwc.conv2d_backward_bias ins(%dy : memref<1048576x1x1x16384xf32>) outs(%db : memref<16384xf32>) {dwc.kernel = #dwc.backward_bias<slices = 1048576, channel_tile = 1, threads = 32, unroll = 8>}
  return
}

// -----

func.func @bias_total_threads(%dy: memref<1x7x7x16xf32>, %db: memref<16xf32>) {
  // expected-error @+1 {{does not fit this op: total_threads = 2048 is not a multiple of 32 in [32, 1024]}}
  dwc.conv2d_backward_bias ins(%dy : memref<1x7x7x16xf32>) outs(%db : memref<16xf32>) {dwc.kernel = #dwc.backward_bias<total_threads = 2048>}
  return
}
