// RUN: dwc-opt %s --split-input-file -verify-diagnostics

// Every branch of the dwc.kernel / dwc.target verifiers and of the
// #dwc.target parameters.

func.func @not_a_config(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32> {
  // expected-error @+1 {{'dwc.kernel' must be a kernel configuration (#dwc.direct, #dwc.strided_forward, ...), got 3 : i64}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x4x4x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = 3} -> tensor<1x4x4x32xf32>
  return %r : tensor<1x4x4x32xf32>
}

// -----

func.func @direct_on_other_dialect() -> index {
  // expected-error @+1 {{'dwc.kernel' #dwc.direct does not fit this op: not a dwc op}}
  %c = arith.constant {dwc.kernel = #dwc.direct} 0 : index
  return %c : index
}

// -----

func.func @forward_config_on_backward(%dy: tensor<1x4x4x32xf32>, %w: tensor<3x3x32xf32>, %dx: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{does not fit this op: not a dwc.depthwise_conv2d}}
  %r = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x4x4x32xf32>, tensor<3x3x32xf32>) outs(%dx : tensor<1x8x8x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.strided_forward<rows = 1>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @gather_config_on_forward(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32> {
  // expected-error @+1 {{does not fit this op: not a dwc.depthwise_conv2d_backward_data}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x4x4x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.strided_gather<columns = 4>} -> tensor<1x4x4x32xf32>
  return %r : tensor<1x4x4x32xf32>
}

// -----

// Strides above 8 leave the strided kernels (one unrolled phase per unit of
// stride) to the direct kernels.
func.func @strided_config_stride_9(%dy: tensor<1x2x2x32xf32>, %w: tensor<3x3x32xf32>, %dx: tensor<1x18x18x32xf32>) -> tensor<1x18x18x32xf32> {
  // expected-error @+1 {{does not fit this op: stride above 8 (the kernels unroll per unit of stride)}}
  %r = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x2x2x32xf32>, tensor<3x3x32xf32>) outs(%dx : tensor<1x18x18x32xf32>)
    strides = [9, 9] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.strided_gather<channels = 4, columns = 4>} -> tensor<1x18x18x32xf32>
  return %r : tensor<1x18x18x32xf32>
}

// -----

// A forward tile whose unrolled FMAs and loads exceed the compile-time bound
// (7x7 stride 8, 8 x 32 outputs: 27,097 values).
func.func @strided_tile_too_large(%x: tensor<2x512x512x32xf32>, %w: tensor<7x7x32xf32>, %y: tensor<2x64x64x32xf32>) -> tensor<2x64x64x32xf32> {
  // expected-error @+1 {{does not fit this op: tile of more than 16384 unrolled FMAs and loads (compile time)}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<2x512x512x32xf32>, tensor<7x7x32xf32>) outs(%y : tensor<2x64x64x32xf32>)
    strides = [8, 8] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.strided_forward<channels = 4, rows = 8, columns = 32>} -> tensor<2x64x64x32xf32>
  return %r : tensor<2x64x64x32xf32>
}

// -----

func.func @strided_config_stride_1(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{does not fit this op: stride 1 (the GEMV and tensor-core kernels take it)}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x8x8x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.strided_forward<>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

func.func @channels_not_a_vector(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32> {
  // expected-error @+1 {{channels = 3 is not a 32- to 128-bit vector of the element type}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x4x4x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.strided_forward<channels = 3>} -> tensor<1x4x4x32xf32>
  return %r : tensor<1x4x4x32xf32>
}

// -----

func.func @channels_too_wide(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32> {
  // expected-error @+1 {{channels = 8 is not a 32- to 128-bit vector of the element type}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x4x4x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.strided_forward<channels = 8>} -> tensor<1x4x4x32xf32>
  return %r : tensor<1x4x4x32xf32>
}

// -----

func.func @channels_not_dividing(%dy: tensor<1x4x4x6xf16>, %w: tensor<3x3x6xf16>, %dx: tensor<1x8x8x6xf16>) -> tensor<1x8x8x6xf16> {
  // expected-error @+1 {{channels = 4 does not divide C = 6}}
  %r = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x4x4x6xf16>, tensor<3x3x6xf16>) outs(%dx : tensor<1x8x8x6xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.strided_gather<channels = 4>} -> tensor<1x8x8x6xf16>
  return %r : tensor<1x8x8x6xf16>
}

// -----

func.func @rows_out_of_range(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32> {
  // expected-error @+1 {{rows = 9 is not in [1, 8]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x4x4x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.strided_forward<rows = 9>} -> tensor<1x4x4x32xf32>
  return %r : tensor<1x4x4x32xf32>
}

// -----

func.func @columns_out_of_range(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32> {
  // expected-error @+1 {{columns = 33 is not in [1, 32]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x4x4x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.strided_forward<columns = 33>} -> tensor<1x4x4x32xf32>
  return %r : tensor<1x4x4x32xf32>
}

// -----

func.func @gather_columns_negative(%dy: tensor<1x4x4x32xf32>, %w: tensor<3x3x32xf32>, %dx: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  // expected-error @+1 {{columns = -1 is not in [1, 32]}}
  %r = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x4x4x32xf32>, tensor<3x3x32xf32>) outs(%dx : tensor<1x8x8x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.strided_gather<columns = -1>} -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

// expected-error @+1 {{'dwc.target' must be a #dwc.target, got "sm_90"}}
module attributes {dwc.target = "sm_90"} {
}

// -----

module {
  // expected-error @+1 {{'dwc.target' belongs on a builtin.module}}
  func.func @f() attributes {dwc.target = #dwc.target<chip = "sm_90", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
    return
  }
}

// -----

// expected-error @+1 {{chip 'sm_91' is not a known sm_<version>[a|f]}}
module attributes {dwc.target = #dwc.target<chip = "sm_91", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
}

// -----

// expected-error @+1 {{features 'ptx80' is not a known PTX ISA version +ptx<NN>}}
module attributes {dwc.target = #dwc.target<chip = "sm_90", features = "ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
}

// -----

// A +ptxNN the NVPTX backend does not know (it would ignore it).
// expected-error @+1 {{features '+ptx999' is not a known PTX ISA version +ptx<NN>}}
module attributes {dwc.target = #dwc.target<chip = "sm_90", features = "+ptx999", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
}

// -----

// expected-error @+1 {{sm_count 0 is not in [1, 1024]}}
module attributes {dwc.target = #dwc.target<chip = "sm_90", features = "+ptx80", sm_count = 0, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
}

// -----

// expected-error @+1 {{shared_memory_per_sm 0 is not in [1, 16 MiB]}}
module attributes {dwc.target = #dwc.target<chip = "sm_90", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 0, threads_per_sm = 2048, registers_per_sm = 65536>} {
}

// -----

// expected-error @+1 {{shared_memory_per_block 240000 is not in [1, shared_memory_per_sm = 233472]}}
module attributes {dwc.target = #dwc.target<chip = "sm_90", features = "+ptx80", sm_count = 132, shared_memory_per_block = 240000, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
}

// -----

// expected-error @+1 {{threads_per_sm 16 is not in [32, 65536]}}
module attributes {dwc.target = #dwc.target<chip = "sm_90", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 16, registers_per_sm = 65536>} {
}

// -----

// expected-error @+1 {{registers_per_sm 0 is not in [1024, 16 Mi]}}
module attributes {dwc.target = #dwc.target<chip = "sm_90", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 0>} {
}

// -----

func.func @strided_forward_loads_first(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32> {
  // expected-error @+1 {{loads_first = 3 is not in [0, 1]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x4x4x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.strided_forward<loads_first = 3>} -> tensor<1x4x4x32xf32>
  return %r : tensor<1x4x4x32xf32>
}

// -----

func.func @strided_forward_block_threads_small(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32> {
  // expected-error @+1 {{block_threads = 16 is not 0 or a power of two in [32, 1024]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x4x4x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.strided_forward<block_threads = 16>} -> tensor<1x4x4x32xf32>
  return %r : tensor<1x4x4x32xf32>
}

// -----

func.func @strided_forward_block_threads_not_pow2(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32> {
  // expected-error @+1 {{block_threads = 192 is not 0 or a power of two in [32, 1024]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x4x4x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.strided_forward<block_threads = 192>} -> tensor<1x4x4x32xf32>
  return %r : tensor<1x4x4x32xf32>
}

// -----

func.func @strided_forward_block_threads_large(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32> {
  // expected-error @+1 {{block_threads = 2048 is not 0 or a power of two in [32, 1024]}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x4x4x32xf32>)
    strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.strided_forward<block_threads = 2048>} -> tensor<1x4x4x32xf32>
  return %r : tensor<1x4x4x32xf32>
}
