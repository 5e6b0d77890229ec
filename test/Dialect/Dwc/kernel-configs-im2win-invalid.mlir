// RUN: dwc-opt %s --split-input-file -verify-diagnostics

// Every branch of the verifiers of #dwc.im2win_simt, #dwc.im2win_mma and
// #dwc.im2win_wgmma (whyNotFor, lib/Dialect/Dwc/IR/Configs/Im2win.cpp).

func.func @not_a_conv2d(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x6x6x32xf32>) -> tensor<1x6x6x32xf32> {
  // expected-error @+1 {{'dwc.kernel' #dwc.im2win_simt<> does not fit this op: not a dwc.conv2d}}
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%y : tensor<1x6x6x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_simt<>} -> tensor<1x6x6x32xf32>
  return %r : tensor<1x6x6x32xf32>
}

// -----

func.func @wrong_rank(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>, %i: tensor<1x6x6x64xf32>) -> tensor<1x6x6x64xf32> {
  // expected-error @+1 {{not a dwc.conv2d with operands and attributes of the right ranks}}
  %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%i : tensor<1x6x6x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_simt<>} -> tensor<1x6x6x64xf32>
  return %y : tensor<1x6x6x64xf32>
}

// -----

func.func @wrong_strides(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16x64xf32>, %i: tensor<1x6x6x64xf32>) -> tensor<1x6x6x64xf32> {
  // expected-error @+1 {{not a dwc.conv2d with operands and attributes of the right ranks}}
  %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16x64xf32>) outs(%i : tensor<1x6x6x64xf32>)
    strides = [1, 1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_simt<>} -> tensor<1x6x6x64xf32>
  return %y : tensor<1x6x6x64xf32>
}

// -----

func.func @f64(%x: tensor<1x8x8x16xf64>, %w: tensor<3x3x16x64xf64>, %i: tensor<1x6x6x64xf64>) -> tensor<1x6x6x64xf64> {
  // expected-error @+1 {{unsupported element type}}
  %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf64>, tensor<3x3x16x64xf64>) outs(%i : tensor<1x6x6x64xf64>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_simt<>} -> tensor<1x6x6x64xf64>
  return %y : tensor<1x6x6x64xf64>
}

// -----

func.func @acc_f16(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16x64xf16>, %i: tensor<1x6x6x64xf16>) -> tensor<1x6x6x64xf16> {
  // expected-error @+1 {{accumulation type is not f32}}
  %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf16>, tensor<3x3x16x64xf16>) outs(%i : tensor<1x6x6x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] acc = f16 {dwc.kernel = #dwc.im2win_mma<>} -> tensor<1x6x6x64xf16>
  return %y : tensor<1x6x6x64xf16>
}

// -----

func.func @mixed(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16x64xf16>, %i: tensor<1x6x6x64xf32>) -> tensor<1x6x6x64xf32> {
  // expected-error @+1 {{operands of different element types}}
  %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16x64xf16>) outs(%i : tensor<1x6x6x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_simt<>} -> tensor<1x6x6x64xf32>
  return %y : tensor<1x6x6x64xf32>
}

// -----

func.func @layout(%x: memref<1x8x8x16xf32, strided<[2048, 256, 32, 1]>>, %w: memref<3x3x16x64xf32>, %y: memref<1x6x6x64xf32>) {
  // expected-error @+1 {{non-identity layout}}
  dwc.conv2d ins(%x, %w : memref<1x8x8x16xf32, strided<[2048, 256, 32, 1]>>, memref<3x3x16x64xf32>) outs(%y : memref<1x6x6x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_simt<>}
  return
}

// -----

func.func @dynamic(%x: tensor<?x8x8x16xf32>, %w: tensor<3x3x16x64xf32>, %i: tensor<?x6x6x64xf32>) -> tensor<?x6x6x64xf32> {
  // expected-error @+1 {{empty or dynamic operand}}
  %y = dwc.conv2d ins(%x, %w : tensor<?x8x8x16xf32>, tensor<3x3x16x64xf32>) outs(%i : tensor<?x6x6x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_simt<>} -> tensor<?x6x6x64xf32>
  return %y : tensor<?x6x6x64xf32>
}

// -----

func.func @huge(%x: tensor<1x2097152x1048576x16xf32>, %w: tensor<3x3x16x64xf32>, %i: tensor<1x2097150x1048574x64xf32>) -> tensor<1x2097150x1048574x64xf32> {
  // expected-error @+1 {{operand of more than 2^40 elements}}
  %y = dwc.conv2d ins(%x, %w : tensor<1x2097152x1048576x16xf32>, tensor<3x3x16x64xf32>) outs(%i : tensor<1x2097150x1048574x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_simt<>} -> tensor<1x2097150x1048574x64xf32>
  return %y : tensor<1x2097150x1048574x64xf32>
}

// -----

func.func @stride0(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16x64xf32>, %i: tensor<1x6x6x64xf32>) -> tensor<1x6x6x64xf32> {
  // expected-error @+1 {{non-positive stride or dilation, or negative padding}}
  %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16x64xf32>) outs(%i : tensor<1x6x6x64xf32>)
    strides = [0, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_simt<>} -> tensor<1x6x6x64xf32>
  return %y : tensor<1x6x6x64xf32>
}

// -----

func.func @negpad(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16x64xf32>, %i: tensor<1x6x6x64xf32>) -> tensor<1x6x6x64xf32> {
  // expected-error @+1 {{non-positive stride or dilation, or negative padding}}
  %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16x64xf32>) outs(%i : tensor<1x6x6x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [-1, 0, 0, 0] {dwc.kernel = #dwc.im2win_simt<>} -> tensor<1x6x6x64xf32>
  return %y : tensor<1x6x6x64xf32>
}

// -----

func.func @oc6(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16x6xf32>, %i: tensor<1x6x6x6xf32>) -> tensor<1x6x6x6xf32> {
  // expected-error @+1 {{output channel count is not a multiple of 128 bits}}
  %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16x6xf32>) outs(%i : tensor<1x6x6x6xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_simt<>} -> tensor<1x6x6x6xf32>
  return %y : tensor<1x6x6x6xf32>
}

// -----

func.func @simt_f16(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16x64xf16>, %i: tensor<1x6x6x64xf16>) -> tensor<1x6x6x64xf16> {
  // expected-error @+1 {{element type is not f32 (f16/bf16 take im2win_mma or im2win_wgmma)}}
  %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf16>, tensor<3x3x16x64xf16>) outs(%i : tensor<1x6x6x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_simt<>} -> tensor<1x6x6x64xf16>
  return %y : tensor<1x6x6x64xf16>
}

// -----

func.func @mma_f32(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16x64xf32>, %i: tensor<1x6x6x64xf32>) -> tensor<1x6x6x64xf32> {
  // expected-error @+1 {{element type is f32 (mma.sync takes f16/bf16)}}
  %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16x64xf32>) outs(%i : tensor<1x6x6x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_mma<>} -> tensor<1x6x6x64xf32>
  return %y : tensor<1x6x6x64xf32>
}

// -----

func.func @tile_n(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16x64xf32>, %i: tensor<1x6x6x64xf32>) -> tensor<1x6x6x64xf32> {
  // expected-error @+1 {{tile_n = 96 is not 64 or 128}}
  %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16x64xf32>) outs(%i : tensor<1x6x6x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_simt<tile_n = 96>} -> tensor<1x6x6x64xf32>
  return %y : tensor<1x6x6x64xf32>
}

// -----

func.func @stages(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16x64xf32>, %i: tensor<1x6x6x64xf32>) -> tensor<1x6x6x64xf32> {
  // expected-error @+1 {{stages = 4 is not in [1, 3]}}
  %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16x64xf32>) outs(%i : tensor<1x6x6x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_simt<stages = 4>} -> tensor<1x6x6x64xf32>
  return %y : tensor<1x6x6x64xf32>
}

// -----

func.func @min_blocks(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16x64xf16>, %i: tensor<1x6x6x64xf16>) -> tensor<1x6x6x64xf16> {
  // expected-error @+1 {{min_blocks_per_sm = 33 is not in [1, 32]}}
  %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf16>, tensor<3x3x16x64xf16>) outs(%i : tensor<1x6x6x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_mma<min_blocks_per_sm = 33>} -> tensor<1x6x6x64xf16>
  return %y : tensor<1x6x6x64xf16>
}

// -----

func.func @plain_stages(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16x64xf32>, %i: tensor<1x6x6x64xf32>) -> tensor<1x6x6x64xf32> {
  // expected-error @+1 {{async_copy = false keeps at most 2 stages}}
  %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16x64xf32>) outs(%i : tensor<1x6x6x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_simt<tile_n = 128, stages = 3, min_blocks_per_sm = 1, precompute = true, async_copy = false, im2win_tensor = false>} -> tensor<1x6x6x64xf32>
  return %y : tensor<1x6x6x64xf32>
}

// -----

func.func @stages_smem(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16x64xf32>, %i: tensor<1x6x6x64xf32>) -> tensor<1x6x6x64xf32> {
  // expected-error @+1 {{3 stages of 20480 bytes exceed 48 KB of static shared memory}}
  %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16x64xf32>) outs(%i : tensor<1x6x6x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_simt<tile_n = 64, stages = 3, min_blocks_per_sm = 1, precompute = true, async_copy = true, im2win_tensor = false>} -> tensor<1x6x6x64xf32>
  return %y : tensor<1x6x6x64xf32>
}

// -----

func.func @no_wgmma(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16x64xf16>, %i: tensor<1x6x6x64xf16>) -> tensor<1x6x6x64xf16> {
  // expected-error @+1 {{target sm_90 has no wgmma (sm_90a has)}}
  %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf16>, tensor<3x3x16x64xf16>) outs(%i : tensor<1x6x6x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<>} -> tensor<1x6x6x64xf16>
  return %y : tensor<1x6x6x64xf16>
}

// -----

module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @wgmma_f32(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16x64xf32>, %i: tensor<1x6x6x64xf32>) -> tensor<1x6x6x64xf32> {
    // expected-error @+1 {{element type is f32 (wgmma takes f16/bf16)}}
    %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16x64xf32>) outs(%i : tensor<1x6x6x64xf32>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<>} -> tensor<1x6x6x64xf32>
    return %y : tensor<1x6x6x64xf32>
  }
}

// -----

module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @warpgroups(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16x64xf16>, %i: tensor<1x6x6x64xf16>) -> tensor<1x6x6x64xf16> {
    // expected-error @+1 {{warpgroups = 3 is not 1, 2 or 4}}
    %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf16>, tensor<3x3x16x64xf16>) outs(%i : tensor<1x6x6x64xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<warpgroups = 3>} -> tensor<1x6x6x64xf16>
    return %y : tensor<1x6x6x64xf16>
  }
}

// -----

module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @n96(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16x64xf16>, %i: tensor<1x6x6x64xf16>) -> tensor<1x6x6x64xf16> {
    // expected-error @+1 {{n = 96 is not 64, 128 or 256}}
    %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf16>, tensor<3x3x16x64xf16>) outs(%i : tensor<1x6x6x64xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<n = 96>} -> tensor<1x6x6x64xf16>
    return %y : tensor<1x6x6x64xf16>
  }
}

// -----

module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @n_wide(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16x128xf16>, %i: tensor<1x6x6x128xf16>) -> tensor<1x6x6x128xf16> {
    // expected-error @+1 {{n = 256 is wider than OC = 128 needs}}
    %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf16>, tensor<3x3x16x128xf16>) outs(%i : tensor<1x6x6x128xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<warpgroups = 1, n = 256, stages = 3, barriers = 2, min_blocks_per_sm = 1, overlap = false, specialize = false, tma_filter = false, tma_im2col = false, staged_stores = true, precompute = true, im2win_tensor = false>} -> tensor<1x6x6x128xf16>
    return %y : tensor<1x6x6x128xf16>
  }
}

// -----

module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @barriers(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16x64xf16>, %i: tensor<1x6x6x64xf16>) -> tensor<1x6x6x64xf16> {
    // expected-error @+1 {{barriers = 3 is not in [1, 2]}}
    %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf16>, tensor<3x3x16x64xf16>) outs(%i : tensor<1x6x6x64xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<barriers = 3>} -> tensor<1x6x6x64xf16>
    return %y : tensor<1x6x6x64xf16>
  }
}

// -----

module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @wg_stages(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16x64xf16>, %i: tensor<1x6x6x64xf16>) -> tensor<1x6x6x64xf16> {
    // expected-error @+1 {{stages = 9 is not in [2, 8]}}
    %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf16>, tensor<3x3x16x64xf16>) outs(%i : tensor<1x6x6x64xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<stages = 9>} -> tensor<1x6x6x64xf16>
    return %y : tensor<1x6x6x64xf16>
  }
}

// -----

module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @wg_min_blocks(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16x64xf16>, %i: tensor<1x6x6x64xf16>) -> tensor<1x6x6x64xf16> {
    // expected-error @+1 {{min_blocks_per_sm = 40 is not in [1, 32]}}
    %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf16>, tensor<3x3x16x64xf16>) outs(%i : tensor<1x6x6x64xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<min_blocks_per_sm = 40>} -> tensor<1x6x6x64xf16>
    return %y : tensor<1x6x6x64xf16>
  }
}

// -----

module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @overlap_one(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16x64xf16>, %i: tensor<1x6x6x64xf16>) -> tensor<1x6x6x64xf16> {
    // expected-error @+1 {{overlap needs barriers = 2}}
    %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf16>, tensor<3x3x16x64xf16>) outs(%i : tensor<1x6x6x64xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<barriers = 1, overlap = true>} -> tensor<1x6x6x64xf16>
    return %y : tensor<1x6x6x64xf16>
  }
}

// -----

module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @spec_overlap(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16x64xf16>, %i: tensor<1x6x6x64xf16>) -> tensor<1x6x6x64xf16> {
    // expected-error @+1 {{specialize excludes overlap and barriers = 1 (it has no block barriers)}}
    %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf16>, tensor<3x3x16x64xf16>) outs(%i : tensor<1x6x6x64xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<overlap = true, specialize = true>} -> tensor<1x6x6x64xf16>
    return %y : tensor<1x6x6x64xf16>
  }
}

// -----

module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @spec_wg4(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16x64xf16>, %i: tensor<1x6x6x64xf16>) -> tensor<1x6x6x64xf16> {
    // expected-error @+1 {{specialize takes 1 or 2 multiplying warpgroups}}
    %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf16>, tensor<3x3x16x64xf16>) outs(%i : tensor<1x6x6x64xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<warpgroups = 4, specialize = true>} -> tensor<1x6x6x64xf16>
    return %y : tensor<1x6x6x64xf16>
  }
}

// -----

module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @overlap_stages(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16x64xf16>, %i: tensor<1x6x6x64xf16>) -> tensor<1x6x6x64xf16> {
    // expected-error @+1 {{overlap and specialize need at least 3 stages}}
    %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf16>, tensor<3x3x16x64xf16>) outs(%i : tensor<1x6x6x64xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<stages = 2, overlap = true>} -> tensor<1x6x6x64xf16>
    return %y : tensor<1x6x6x64xf16>
  }
}

// -----

module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @tma_one(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16x64xf16>, %i: tensor<1x6x6x64xf16>) -> tensor<1x6x6x64xf16> {
    // expected-error @+1 {{tma_filter needs the two-barrier pipeline (no overlap, barriers = 2)}}
    %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf16>, tensor<3x3x16x64xf16>) outs(%i : tensor<1x6x6x64xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<barriers = 1, tma_filter = true>} -> tensor<1x6x6x64xf16>
    return %y : tensor<1x6x6x64xf16>
  }
}

// -----

module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @tensor_c3(%x: tensor<1x8x8x3xf16>, %w: tensor<3x3x3x64xf16>, %i: tensor<1x6x6x64xf16>) -> tensor<1x6x6x64xf16> {
    // expected-error @+1 {{im2win_tensor needs C % 4 == 0 (the channels are not padded)}}
    %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x3xf16>, tensor<3x3x3x64xf16>) outs(%i : tensor<1x6x6x64xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<im2win_tensor = true>} -> tensor<1x6x6x64xf16>
    return %y : tensor<1x6x6x64xf16>
  }
}

// -----

module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @im2col_filter(%x: tensor<1x8x8x64xf16>, %w: tensor<3x3x64x64xf16>, %i: tensor<1x6x6x64xf16>) -> tensor<1x6x6x64xf16> {
    // expected-error @+1 {{tma_im2col needs tma_filter (B by TMA as well)}}
    %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x64xf16>, tensor<3x3x64x64xf16>) outs(%i : tensor<1x6x6x64xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<tma_filter = false, tma_im2col = true>} -> tensor<1x6x6x64xf16>
    return %y : tensor<1x6x6x64xf16>
  }
}

// -----

module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @im2col_shape(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16x64xf16>, %i: tensor<1x6x6x64xf16>) -> tensor<1x6x6x64xf16> {
    // expected-error @+1 {{tma_im2col needs C % 64 == 0, unit strides and dilations and window corners in [-128, 127]}}
    %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf16>, tensor<3x3x16x64xf16>) outs(%i : tensor<1x6x6x64xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<tma_im2col = true>} -> tensor<1x6x6x64xf16>
    return %y : tensor<1x6x6x64xf16>
  }
}

// -----

module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @im2col_tensor(%x: tensor<1x8x8x64xf16>, %w: tensor<3x3x64x64xf16>, %i: tensor<1x6x6x64xf16>) -> tensor<1x6x6x64xf16> {
    // expected-error @+1 {{tma_im2col excludes im2win_tensor, precompute = false and specialize}}
    %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x64xf16>, tensor<3x3x64x64xf16>) outs(%i : tensor<1x6x6x64xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<tma_im2col = true, im2win_tensor = true>} -> tensor<1x6x6x64xf16>
    return %y : tensor<1x6x6x64xf16>
  }
}

// -----

module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @smem(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16x256xf16>, %i: tensor<1x6x6x256xf16>) -> tensor<1x6x6x256xf16> {
    // expected-error @+1 {{525312 bytes of shared memory exceed the target's 232448 per block}}
    %y = dwc.conv2d ins(%x, %w : tensor<1x8x8x16xf16>, tensor<3x3x16x256xf16>) outs(%i : tensor<1x6x6x256xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<warpgroups = 4, n = 256, stages = 8, barriers = 2, min_blocks_per_sm = 1, overlap = false, specialize = false, tma_filter = false, tma_im2col = false, staged_stores = true, precompute = true, im2win_tensor = false>} -> tensor<1x6x6x256xf16>
    return %y : tensor<1x6x6x256xf16>
  }
}

// -----

module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @grid(%x: tensor<1x131072x1048576x8xf16>, %w: tensor<1x1x8x8xf16>, %i: tensor<1x131072x1048576x8xf16>) -> tensor<1x131072x1048576x8xf16> {
    // expected-error @+1 {{grid too large}}
    %y = dwc.conv2d ins(%x, %w : tensor<1x131072x1048576x8xf16>, tensor<1x1x8x8xf16>) outs(%i : tensor<1x131072x1048576x8xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<warpgroups = 1, n = 64>} -> tensor<1x131072x1048576x8xf16>
    return %y : tensor<1x131072x1048576x8xf16>
  }
}
