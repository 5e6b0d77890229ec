// What convert-dwc-to-linalg refuses: the memref form of every dwc op (it
// rewrites value semantics, so it must run before bufferization). Each case
// gets a diagnostic; nothing crashes.
// RUN: dwc-opt --convert-dwc-to-linalg --split-input-file --verify-diagnostics %s

func.func @dw_memref(%x: memref<1x8x8x16xf32>, %w: memref<3x3x16xf32>, %y: memref<1x8x8x16xf32>) {
  // expected-error @below {{'dwc.depthwise_conv2d' op expects tensor operands; run before bufferization}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x8x16xf32>, memref<3x3x16xf32>) outs(%y : memref<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

func.func @bwd_data_memref(%dy: memref<1x8x8x16xf32>, %w: memref<3x3x16xf32>, %dx: memref<1x8x8x16xf32>) {
  // expected-error @below {{expects tensor operands; run before bufferization}}
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<1x8x8x16xf32>, memref<3x3x16xf32>) outs(%dx : memref<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

func.func @bwd_filter_memref(%x: memref<1x8x8x16xf32>, %dy: memref<1x8x8x16xf32>, %dw: memref<3x3x16xf32>) {
  // expected-error @below {{expects tensor operands; run before bufferization}}
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<1x8x8x16xf32>, memref<1x8x8x16xf32>) outs(%dw : memref<3x3x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

func.func @pool_memref(%x: memref<1x8x8x16xf32>, %y: memref<1x4x4x16xf32>) {
  // expected-error @below {{expects tensor operands; run before bufferization}}
  dwc.pool2d max ins(%x : memref<1x8x8x16xf32>) outs(%y : memref<1x4x4x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0]
  return
}

// -----

func.func @gap_memref(%x: memref<1x8x8x16xf32>, %y: memref<1x1x1x16xf32>) {
  // expected-error @below {{expects tensor operands; run before bufferization}}
  dwc.global_avg_pool ins(%x : memref<1x8x8x16xf32>) outs(%y : memref<1x1x1x16xf32>)
  return
}

// -----

func.func @im2win_memref(%x: memref<1x8x8x3xf32>, %r: memref<1x6x8x3x3xf32>) {
  // expected-error @below {{expects tensor operands; run before bufferization}}
  dwc.im2win ins(%x : memref<1x8x8x3xf32>) outs(%r : memref<1x6x8x3x3xf32>) window = [3, 3] strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0]
  return
}

// -----

func.func @conv2d_memref(%x: memref<1x8x8x4xf32>, %w: memref<3x3x4x8xf32>, %y: memref<1x8x8x8xf32>) {
  // expected-error @below {{expects tensor operands; run before bufferization}}
  dwc.conv2d ins(%x, %w : memref<1x8x8x4xf32>, memref<3x3x4x8xf32>) outs(%y : memref<1x8x8x8xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// -----

// A function mixing a tensor op and a memref op: the memref one is reported
// and nothing is rewritten.
func.func @mixed(%x: tensor<1x4x4x3xf32>, %m: memref<1x4x4x3xf32>, %o: memref<1x1x1x3xf32>) -> tensor<1x1x1x3xf32> {
  %init = tensor.empty() : tensor<1x1x1x3xf32>
  %y = dwc.global_avg_pool ins(%x : tensor<1x4x4x3xf32>) outs(%init : tensor<1x1x1x3xf32>) -> tensor<1x1x1x3xf32>
  // expected-error @below {{expects tensor operands; run before bufferization}}
  dwc.global_avg_pool ins(%m : memref<1x4x4x3xf32>) outs(%o : memref<1x1x1x3xf32>)
  return %y : tensor<1x1x1x3xf32>
}
