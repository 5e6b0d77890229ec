// dwc-to-nvvm runs convert-dwc-to-gpu-global-pool with the fast paths and
// forwards global-pool-options to it: a tuning option reaches the kernel
// (threads=128: .maxntid 128), a bad option string or value is a
// diagnostic and a non-zero exit.
// RUN: dwc-opt %s --dwc-to-nvvm="format=isa global-pool-options=threads=128" | FileCheck %s --check-prefix=OPT
// RUN: dwc-opt %s --dwc-to-nvvm="format=isa" | FileCheck %s --check-prefix=DEFAULT
// RUN: not dwc-opt %s --dwc-to-nvvm="global-pool-options=bogus=1" 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not dwc-opt %s --dwc-to-nvvm="format=isa global-pool-options=channel-tile=3" 2>&1 | FileCheck %s --check-prefix=VALUE

// OPT: .maxntid 128, 1, 1
// OPT: bar.sync
// DEFAULT: .maxntid 256, 1, 1
// DEFAULT: bar.sync
// NAME: error: dwc-to-nvvm: invalid global-pool-options 'bogus=1': {{.*}}no such option bogus
// VALUE: convert-dwc-to-gpu-global-pool: channel-tile must be 0 or a power of two <= 32
// VALUE-NOT: LLVM ERROR

func.func @gap(%x: tensor<64x7x7x512xf32>) -> tensor<64x1x1x512xf32> {
  %init = tensor.empty() : tensor<64x1x1x512xf32>
  %y = dwc.global_avg_pool ins(%x : tensor<64x7x7x512xf32>) outs(%init : tensor<64x1x1x512xf32>) -> tensor<64x1x1x512xf32>
  return %y : tensor<64x1x1x512xf32>
}
