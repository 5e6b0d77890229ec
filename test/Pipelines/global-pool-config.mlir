// dwc-to-nvvm runs dwc-select-kernels and convert-dwc-to-gpu-global-pool
// with the fast paths: a tiling written as dwc.kernel on the op reaches the
// kernel (threads = 128: .maxntid 128), the chosen one otherwise (256); a
// configuration that does not fit the op is a diagnostic and a non-zero
// exit.
// RUN: dwc-opt %s --dwc-to-nvvm="format=isa" | FileCheck %s
// RUN: sed 's/threads = 128/threads = 96, channel_tile = 3/' %s | not dwc-opt --dwc-to-nvvm="format=isa" 2>&1 | FileCheck %s --check-prefix=VALUE

// CHECK: .entry gap_global_pool
// CHECK: .maxntid 256, 1, 1
// CHECK: bar.sync
// CHECK: .entry gap128_global_pool
// CHECK: .maxntid 128, 1, 1
// CHECK: bar.sync
// VALUE: does not fit this op: channel_tile = 3 is not a power of two in [1, 32]
// VALUE-NOT: LLVM ERROR

func.func @gap(%x: tensor<64x7x7x512xf32>) -> tensor<64x1x1x512xf32> {
  %init = tensor.empty() : tensor<64x1x1x512xf32>
  %y = dwc.global_avg_pool ins(%x : tensor<64x7x7x512xf32>) outs(%init : tensor<64x1x1x512xf32>) -> tensor<64x1x1x512xf32>
  return %y : tensor<64x1x1x512xf32>
}

func.func @gap128(%x: tensor<64x7x7x512xf32>) -> tensor<64x1x1x512xf32> {
  %init = tensor.empty() : tensor<64x1x1x512xf32>
  %y = dwc.global_avg_pool ins(%x : tensor<64x7x7x512xf32>) outs(%init : tensor<64x1x1x512xf32>) {dwc.kernel = #dwc.global_pool<threads = 128>} -> tensor<64x1x1x512xf32>
  return %y : tensor<64x1x1x512xf32>
}
