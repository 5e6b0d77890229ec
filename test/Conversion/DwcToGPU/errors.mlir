// convert-dwc-to-gpu refuses what it cannot lower, with a diagnostic and
// without crashing.
// RUN: dwc-opt %s --convert-dwc-to-gpu -split-input-file -verify-diagnostics

// The tensor form must be bufferized first.
func.func @tensor_form(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x8x8x16xf32> {
  %init = tensor.empty() : tensor<1x8x8x16xf32>
  // expected-error @+1 {{'dwc.depthwise_conv2d' still operates on tensors; the GPU kernels need the memref form (dwc-to-nvvm bufferizes the functions of the top-level module only, not those of nested modules; run alone, this pass needs one-shot-bufferize first)}}
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>)
    outs(%init : tensor<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf32>
  return %y : tensor<1x8x8x16xf32>
}

// -----

func.func @tensor_pool(%x: tensor<1x8x8x16xf16>) -> tensor<1x1x1x16xf16> {
  %init = tensor.empty() : tensor<1x1x1x16xf16>
  // expected-error @+1 {{'dwc.global_avg_pool' still operates on tensors; the GPU kernels need the memref form}}
  %y = dwc.global_avg_pool ins(%x : tensor<1x8x8x16xf16>) outs(%init : tensor<1x1x1x16xf16>) -> tensor<1x1x1x16xf16>
  return %y : tensor<1x1x1x16xf16>
}

// -----

// More thread blocks than a 1-D grid holds (2^31 - 1).
func.func @too_large(%x: memref<1024x1024x1024x1024xf32>, %w: memref<1x1x1024xf32>, %y: memref<1024x1024x1024x1024xf32>) {
  // expected-error @+1 {{'dwc.depthwise_conv2d' needs 4294967296 thread blocks, more than a GPU grid holds}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1024x1024x1024x1024xf32>, memref<1x1x1024xf32>)
    outs(%y : memref<1024x1024x1024x1024xf32>) strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0]
  return
}
