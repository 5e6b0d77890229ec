// Round-trip of every dwc op, tensor and memref forms: parse, print, re-parse.
// RUN: dwc-opt %s | dwc-opt | FileCheck %s
// RUN: dwc-opt %s --mlir-print-op-generic | dwc-opt | FileCheck %s

// CHECK-LABEL: func @depthwise
func.func @depthwise(%x: tensor<2x9x11x13xf32>, %w: tensor<3x5x13xf32>, %b: tensor<13xf32>,
                     %i: tensor<2x5x10x13xf32>) -> tensor<2x5x10x13xf32> {
  // CHECK: dwc.depthwise_conv2d ins(%{{.*}}, %{{.*}} : tensor<2x9x11x13xf32>, tensor<3x5x13xf32>) bias(%{{.*}} : tensor<13xf32>) outs(%{{.*}} : tensor<2x5x10x13xf32>) strides = [2, 1] dilations = [1, 2] padding = [1, 1, 2, 5] acc = f32 -> tensor<2x5x10x13xf32>
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<2x9x11x13xf32>, tensor<3x5x13xf32>)
         bias(%b : tensor<13xf32>) outs(%i : tensor<2x5x10x13xf32>)
         strides = [2, 1] dilations = [1, 2] padding = [1, 1, 2, 5] acc = f32 -> tensor<2x5x10x13xf32>
  return %0 : tensor<2x5x10x13xf32>
}

// CHECK-LABEL: func @depthwise_f16_nonsquare
func.func @depthwise_f16_nonsquare(%x: tensor<1x64x64x8xf16>, %w: tensor<51x5x8xf16>,
                                   %i: tensor<1x64x64x8xf16>) -> tensor<1x64x64x8xf16> {
  // CHECK: dwc.depthwise_conv2d ins({{.*}} : tensor<1x64x64x8xf16>, tensor<51x5x8xf16>) outs({{.*}}) strides = [1, 1] dilations = [1, 1] padding = [25, 25, 2, 2] -> tensor<1x64x64x8xf16>
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x64x64x8xf16>, tensor<51x5x8xf16>)
         outs(%i : tensor<1x64x64x8xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [25, 25, 2, 2] -> tensor<1x64x64x8xf16>
  return %0 : tensor<1x64x64x8xf16>
}

// CHECK-LABEL: func @backward
func.func @backward(%x: tensor<2x16x16x32xbf16>, %dy: tensor<2x8x8x32xbf16>, %w: tensor<3x3x32xbf16>,
                    %dxi: tensor<2x16x16x32xbf16>, %dwi: tensor<3x3x32xf32>)
    -> (tensor<2x16x16x32xbf16>, tensor<3x3x32xf32>) {
  // CHECK: dwc.depthwise_conv2d_backward_data ins({{.*}} : tensor<2x8x8x32xbf16>, tensor<3x3x32xbf16>) outs({{.*}} : tensor<2x16x16x32xbf16>) strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<2x16x16x32xbf16>
  %dx = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<2x8x8x32xbf16>, tensor<3x3x32xbf16>)
          outs(%dxi : tensor<2x16x16x32xbf16>)
          strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<2x16x16x32xbf16>
  // CHECK: dwc.depthwise_conv2d_backward_filter ins({{.*}} : tensor<2x16x16x32xbf16>, tensor<2x8x8x32xbf16>) outs({{.*}} : tensor<3x3x32xf32>) strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<3x3x32xf32>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<2x16x16x32xbf16>, tensor<2x8x8x32xbf16>)
          outs(%dwi : tensor<3x3x32xf32>)
          strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<3x3x32xf32>
  return %dx, %dw : tensor<2x16x16x32xbf16>, tensor<3x3x32xf32>
}

// CHECK-LABEL: func @pooling
func.func @pooling(%x: tensor<1x57x57x72xf16>, %i: tensor<1x29x29x72xf16>, %g: tensor<1x1x1x72xf16>)
    -> (tensor<1x29x29x72xf16>, tensor<1x29x29x72xf16>, tensor<1x1x1x72xf16>) {
  // CHECK: dwc.pool2d max ins({{.*}}) outs({{.*}}) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] -> tensor<1x29x29x72xf16>
  %0 = dwc.pool2d max ins(%x : tensor<1x57x57x72xf16>) outs(%i : tensor<1x29x29x72xf16>)
         window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] -> tensor<1x29x29x72xf16>
  // CHECK: dwc.pool2d avg ins({{.*}}) outs({{.*}}) window = [3, 3] strides = [2, 2] padding = [0, 1, 0, 1] ceil_mode count_include_pad acc = f32 activation = relu6 -> tensor<1x29x29x72xf16>
  %1 = dwc.pool2d avg ins(%x : tensor<1x57x57x72xf16>) outs(%i : tensor<1x29x29x72xf16>)
         window = [3, 3] strides = [2, 2] padding = [0, 1, 0, 1] ceil_mode count_include_pad acc = f32 activation = relu6 -> tensor<1x29x29x72xf16>
  // CHECK: dwc.global_avg_pool ins({{.*}} : tensor<1x57x57x72xf16>) outs({{.*}} : tensor<1x1x1x72xf16>) -> tensor<1x1x1x72xf16>
  %2 = dwc.global_avg_pool ins(%x : tensor<1x57x57x72xf16>) outs(%g : tensor<1x1x1x72xf16>) -> tensor<1x1x1x72xf16>
  return %0, %1, %2 : tensor<1x29x29x72xf16>, tensor<1x29x29x72xf16>, tensor<1x1x1x72xf16>
}

// CHECK-LABEL: func @conv_pool
func.func @conv_pool(%x: tensor<1x56x57x72xf16>, %w: tensor<3x3x72xf16>, %b: tensor<72xf16>, %i: tensor<1x28x29x72xf16>,
                     %mx: memref<1x56x57x72xf16>, %mw: memref<3x3x72xf16>, %my: memref<1x28x29x72xf16>) -> tensor<1x28x29x72xf16> {
  // CHECK: dwc.depthwise_conv2d_pool2d avg ins({{.*}} : tensor<1x56x57x72xf16>, tensor<3x3x72xf16>) bias({{.*}} : tensor<72xf16>) outs({{.*}} : tensor<1x28x29x72xf16>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [3, 3] pool_strides = [2, 2] pool_padding = [1, 1, 1, 1] count_include_pad acc = f32 activation = relu -> tensor<1x28x29x72xf16>
  %0 = dwc.depthwise_conv2d_pool2d avg ins(%x, %w : tensor<1x56x57x72xf16>, tensor<3x3x72xf16>) bias(%b : tensor<72xf16>) outs(%i : tensor<1x28x29x72xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [3, 3] pool_strides = [2, 2] pool_padding = [1, 1, 1, 1]
         count_include_pad acc = f32 activation = relu -> tensor<1x28x29x72xf16>
  // CHECK: dwc.depthwise_conv2d_pool2d max ins({{.*}} : memref<1x56x57x72xf16>, memref<3x3x72xf16>) outs({{.*}} : memref<1x28x29x72xf16>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 1]
  dwc.depthwise_conv2d_pool2d max ins(%mx, %mw : memref<1x56x57x72xf16>, memref<3x3x72xf16>) outs(%my : memref<1x28x29x72xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 1]
  return %0 : tensor<1x28x29x72xf16>
}

// CHECK-LABEL: func @pooling_backward
func.func @pooling_backward(%x: tensor<1x57x57x72xf32>, %dy: tensor<1x29x29x72xf32>, %i: tensor<1x57x57x72xf32>)
    -> (tensor<1x57x57x72xf32>, tensor<1x57x57x72xf32>) {
  // CHECK: dwc.pool2d_backward max ins({{.*}} : tensor<1x57x57x72xf32>, tensor<1x29x29x72xf32>) outs({{.*}} : tensor<1x57x57x72xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] -> tensor<1x57x57x72xf32>
  %0 = dwc.pool2d_backward max ins(%x, %dy : tensor<1x57x57x72xf32>, tensor<1x29x29x72xf32>) outs(%i : tensor<1x57x57x72xf32>)
         window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] -> tensor<1x57x57x72xf32>
  // CHECK: dwc.pool2d_backward avg {{.*}} window = [3, 3] strides = [2, 2] padding = [0, 1, 0, 1] ceil_mode count_include_pad -> tensor<1x57x57x72xf32>
  %1 = dwc.pool2d_backward avg ins(%x, %dy : tensor<1x57x57x72xf32>, tensor<1x29x29x72xf32>) outs(%i : tensor<1x57x57x72xf32>)
         window = [3, 3] strides = [2, 2] padding = [0, 1, 0, 1] ceil_mode count_include_pad -> tensor<1x57x57x72xf32>
  return %0, %1 : tensor<1x57x57x72xf32>, tensor<1x57x57x72xf32>
}

// CHECK-LABEL: func @im2win_conv
func.func @im2win_conv(%x: tensor<1x8x8x3xf32>, %r: tensor<1x6x10x3x3xf32>,
                       %w: tensor<3x3x3x16xf32>, %b: tensor<16xf32>, %y: tensor<1x8x8x16xf32>)
    -> (tensor<1x6x10x3x3xf32>, tensor<1x8x8x16xf32>) {
  // CHECK: dwc.im2win ins({{.*}} : tensor<1x8x8x3xf32>) outs({{.*}} : tensor<1x6x10x3x3xf32>) window = [3, 3] strides = [1, 1] dilations = [1, 1] padding = [0, 0, 1, 1] -> tensor<1x6x10x3x3xf32>
  %0 = dwc.im2win ins(%x : tensor<1x8x8x3xf32>) outs(%r : tensor<1x6x10x3x3xf32>)
         window = [3, 3] strides = [1, 1] dilations = [1, 1] padding = [0, 0, 1, 1] -> tensor<1x6x10x3x3xf32>
  // CHECK: dwc.conv2d ins({{.*}} : tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) bias({{.*}} : tensor<16xf32>) outs({{.*}} : tensor<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf32>
  %1 = dwc.conv2d ins(%x, %w : tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) bias(%b : tensor<16xf32>)
         outs(%y : tensor<1x8x8x16xf32>)
         strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf32>
  return %0, %1 : tensor<1x6x10x3x3xf32>, tensor<1x8x8x16xf32>
}

// CHECK-LABEL: func @memref_form
func.func @memref_form(%x: memref<1x8x8x16xf32>, %w: memref<3x3x16xf32>, %y: memref<1x8x8x16xf32>,
                       %p: memref<1x4x4x16xf32>) {
  // CHECK: dwc.depthwise_conv2d ins({{.*}} : memref<1x8x8x16xf32>, memref<3x3x16xf32>) outs({{.*}} : memref<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]{{$}}
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x8x16xf32>, memref<3x3x16xf32>) outs(%y : memref<1x8x8x16xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  // CHECK: dwc.pool2d avg ins({{.*}} : memref<1x8x8x16xf32>) outs({{.*}} : memref<1x4x4x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0]{{$}}
  dwc.pool2d avg ins(%y : memref<1x8x8x16xf32>) outs(%p : memref<1x4x4x16xf32>)
    window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0]
  return
}

// f64 depthwise ops (forward with bias and acc = f64, backward data and
// filter), tensor form.
// CHECK-LABEL: func @depthwise_f64
func.func @depthwise_f64(%x: tensor<2x9x8x5xf64>, %w: tensor<3x3x5xf64>, %b: tensor<5xf64>,
                         %y: tensor<2x5x4x5xf64>, %dw: tensor<3x3x5xf64>)
    -> (tensor<2x5x4x5xf64>, tensor<2x9x8x5xf64>, tensor<3x3x5xf64>) {
  // CHECK: dwc.depthwise_conv2d ins({{.*}} : tensor<2x9x8x5xf64>, tensor<3x3x5xf64>) bias({{.*}} : tensor<5xf64>) outs({{.*}} : tensor<2x5x4x5xf64>) strides = [2, 2] dilations = [1, 1] padding = [1, 2, 0, 1] acc = f64 -> tensor<2x5x4x5xf64>
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<2x9x8x5xf64>, tensor<3x3x5xf64>) bias(%b : tensor<5xf64>)
         outs(%y : tensor<2x5x4x5xf64>) strides = [2, 2] dilations = [1, 1] padding = [1, 2, 0, 1] acc = f64 -> tensor<2x5x4x5xf64>
  // CHECK: dwc.depthwise_conv2d_backward_data ins({{.*}} : tensor<2x5x4x5xf64>, tensor<3x3x5xf64>) outs({{.*}} : tensor<2x9x8x5xf64>)
  %1 = dwc.depthwise_conv2d_backward_data ins(%0, %w : tensor<2x5x4x5xf64>, tensor<3x3x5xf64>) outs(%x : tensor<2x9x8x5xf64>)
         strides = [2, 2] dilations = [1, 1] padding = [1, 2, 0, 1] -> tensor<2x9x8x5xf64>
  // CHECK: dwc.depthwise_conv2d_backward_filter ins({{.*}} : tensor<2x9x8x5xf64>, tensor<2x5x4x5xf64>) outs({{.*}} : tensor<3x3x5xf64>)
  %2 = dwc.depthwise_conv2d_backward_filter ins(%x, %0 : tensor<2x9x8x5xf64>, tensor<2x5x4x5xf64>) outs(%dw : tensor<3x3x5xf64>)
         strides = [2, 2] dilations = [1, 1] padding = [1, 2, 0, 1] -> tensor<3x3x5xf64>
  return %0, %1, %2 : tensor<2x5x4x5xf64>, tensor<2x9x8x5xf64>, tensor<3x3x5xf64>
}

// The bias gradient: f32 or dY's element type, tensor and memref form.
// CHECK-LABEL: func @backward_bias
func.func @backward_bias(%dy: tensor<2x5x4x6xf16>, %db: tensor<6xf32>, %dyh: tensor<2x5x4x6xf16>, %dbh: tensor<6xf16>,
                         %mdy: memref<1x3x3x8xf64>, %mdb: memref<8xf64>) -> (tensor<6xf32>, tensor<6xf16>) {
  // CHECK: dwc.conv2d_backward_bias ins({{.*}} : tensor<2x5x4x6xf16>) outs({{.*}} : tensor<6xf32>) -> tensor<6xf32>
  %0 = dwc.conv2d_backward_bias ins(%dy : tensor<2x5x4x6xf16>) outs(%db : tensor<6xf32>) -> tensor<6xf32>
  // CHECK: dwc.conv2d_backward_bias ins({{.*}} : tensor<2x5x4x6xf16>) outs({{.*}} : tensor<6xf16>) -> tensor<6xf16>
  %1 = dwc.conv2d_backward_bias ins(%dyh : tensor<2x5x4x6xf16>) outs(%dbh : tensor<6xf16>) -> tensor<6xf16>
  // CHECK: dwc.conv2d_backward_bias ins({{.*}} : memref<1x3x3x8xf64>) outs({{.*}} : memref<8xf64>)
  dwc.conv2d_backward_bias ins(%mdy : memref<1x3x3x8xf64>) outs(%mdb : memref<8xf64>)
  return %0, %1 : tensor<6xf32>, tensor<6xf16>
}

// CHECK-LABEL: func @depthwise_multiplier
func.func @depthwise_multiplier(%x: tensor<1x9x9x5xf16>, %w: tensor<3x3x15xf16>, %b: tensor<15xf16>,
                                %ib: tensor<5xf16>, %i: tensor<1x5x5x15xf16>) -> tensor<1x5x5x15xf16> {
  // CHECK: dwc.depthwise_conv2d ins({{.*}} : tensor<1x9x9x5xf16>, tensor<3x3x15xf16>) bias({{.*}} : tensor<15xf16>) input_bias({{.*}} : tensor<5xf16>) outs({{.*}} : tensor<1x5x5x15xf16>) strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 3 activation = relu input_activation = silu -> tensor<1x5x5x15xf16>
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x9x9x5xf16>, tensor<3x3x15xf16>)
         bias(%b : tensor<15xf16>) input_bias(%ib : tensor<5xf16>) outs(%i : tensor<1x5x5x15xf16>)
         strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 3
         activation = relu input_activation = silu -> tensor<1x5x5x15xf16>
  return %0 : tensor<1x5x5x15xf16>
}

// CHECK-LABEL: func @depthwise_multiplier_backward
func.func @depthwise_multiplier_backward(%x: memref<2x8x8x3xf32>, %dy: memref<2x8x8x6xf32>, %w: memref<3x3x6xf32>,
                                         %dx: memref<2x8x8x3xf32>, %dw: memref<3x3x6xf32>) {
  // CHECK: dwc.depthwise_conv2d_backward_data ins({{.*}} : memref<2x8x8x6xf32>, memref<3x3x6xf32>) outs({{.*}} : memref<2x8x8x3xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<2x8x8x6xf32>, memref<3x3x6xf32>)
    outs(%dx : memref<2x8x8x3xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2
  // CHECK: dwc.depthwise_conv2d_backward_filter ins({{.*}} : memref<2x8x8x3xf32>, memref<2x8x8x6xf32>) outs({{.*}} : memref<3x3x6xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<2x8x8x3xf32>, memref<2x8x8x6xf32>)
    outs(%dw : memref<3x3x6xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2
  return
}
