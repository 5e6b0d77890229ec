// RUN: dwc-opt %s --convert-host-linalg-to-gpu --split-input-file -verify-diagnostics
// RUN: not dwc-opt %s --convert-host-linalg-to-gpu=block-size=0 --split-input-file 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not dwc-opt %s --convert-host-linalg-to-gpu=block-size=2048 --split-input-file 2>&1 | FileCheck %s --check-prefix=BLOCK

// BLOCK: convert-host-linalg-to-gpu: block-size {{0|2048}} is not in [1, 1024]

// A linalg op on tensors is not bufferized: the GPU pipeline lowers linalg
// ops after bufferization.
func.func @tensors(%a: tensor<4xf32>) -> tensor<4xf32> {
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{linalg op on tensors in host code}}
  %r = linalg.fill ins(%z : f32) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
