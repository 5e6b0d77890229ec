// The default f32 7x7 row tile of ConvNeXt's 28 x 28 maps at batch 64
// (strips fitted to the width, 2 channels x 4 rows x 7 columns) assembles
// for sm_90 without spilling, forward and backward data; the 4 x 8 tile it
// replaced spilled 68 bytes at 255 registers there (its last strip half
// idle: python3 bench/dwcbench ptxas-audit over the real networks' layer set). The second
// RUN pair checks that the replaced tile, requested, still spills: the
// audit's finding stays visible if ptxas or the emitter changes.
// REQUIRES: ptxas
// RUN: rm -rf %t && dwc-opt %s --dwc-to-nvvm=format=isa | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t > /dev/null
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/fwd_row_tile.ptx -o %t/a.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/bwd_data_row_tile.ptx -o %t/b.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/fwd_4x8_row_tile.ptx -o %t/c.cubin 2>&1 | FileCheck %s --check-prefix=OLD

// CHECK: Compiling entry function
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Used {{[0-9]+}} registers
// OLD: Compiling entry function
// OLD: bytes stack frame, {{[1-9][0-9]*}} bytes spill stores

func.func @fwd(%x: tensor<64x28x28x192xf32>, %w: tensor<7x7x192xf32>) -> tensor<64x28x28x192xf32> {
  %init = tensor.empty() : tensor<64x28x28x192xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<64x28x28x192xf32>, tensor<7x7x192xf32>)
    outs(%init : tensor<64x28x28x192xf32>) strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
    -> tensor<64x28x28x192xf32>
  return %y : tensor<64x28x28x192xf32>
}

func.func @bwd_data(%dy: tensor<64x28x28x192xf32>, %w: tensor<7x7x192xf32>) -> tensor<64x28x28x192xf32> {
  %init = tensor.empty() : tensor<64x28x28x192xf32>
  %dx = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<64x28x28x192xf32>, tensor<7x7x192xf32>)
    outs(%init : tensor<64x28x28x192xf32>) strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
    -> tensor<64x28x28x192xf32>
  return %dx : tensor<64x28x28x192xf32>
}

func.func @fwd_4x8(%x: tensor<64x28x28x192xf32>, %w: tensor<7x7x192xf32>) -> tensor<64x28x28x192xf32> {
  %init = tensor.empty() : tensor<64x28x28x192xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<64x28x28x192xf32>, tensor<7x7x192xf32>)
    outs(%init : tensor<64x28x28x192xf32>) strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3]
    {dwc.kernel = #dwc.row_tile<columns = 8>} -> tensor<64x28x28x192xf32>
  return %y : tensor<64x28x28x192xf32>
}
