// Every legal op compiles in at most 10 s (of CPU time: the suite's other
// jobs share the machine): the largest legal values of each
// attribute that changes the size of the generated code (strides, windows,
// filters, dilations, padding, kernel configuration fields), one process
// per split, through the GPU pipeline to PTX. (Before the bounds: a
// backward-data stride of 16384 took 97 s, a 7x28 max gradient 96 s.)
// (Not in the sanitizer build: the bound is the Release compiler's time.)
// UNSUPPORTED: sanitize
// RUN: %PYTHON %S/Inputs/time_splits.py %s --dwc-opt dwc-opt --limit 10 --arg=--dwc-to-nvvm=format=isa | FileCheck %s
// CHECK: splits, slowest {{.*}} s CPU, 0 over 10 s or failed

// backward data, the largest stride on a small map (direct kernel)
func.func @bwd_data_max_stride(%dy: tensor<1x1x1x8xf32>, %w: tensor<3x3x8xf32>, %i: tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32> {
  %r = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x1x1x8xf32>, tensor<3x3x8xf32>) outs(%i : tensor<1x4x4x8xf32>) strides = [2147483647, 2147483647] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x4x4x8xf32>
  return %r : tensor<1x4x4x8xf32>
}

// -----

// backward data, stride 16384 in height and width
func.func @bwd_data_stride_16384(%dy: tensor<1x1x1x8xf32>, %w: tensor<3x3x8xf32>, %i: tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32> {
  %r = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<1x1x1x8xf32>, tensor<3x3x8xf32>) outs(%i : tensor<1x4x4x8xf32>) strides = [16384, 16384] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x4x4x8xf32>
  return %r : tensor<1x4x4x8xf32>
}

// -----

// backward data, the strided gather's largest stride and filter, widest tile
func.func @bwd_data_gather_widest(%dy: tensor<2x8x8x32xf32>, %w: tensor<7x7x32xf32>, %i: tensor<2x64x64x32xf32>) -> tensor<2x64x64x32xf32> {
  %r = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<2x8x8x32xf32>, tensor<7x7x32xf32>) outs(%i : tensor<2x64x64x32xf32>) strides = [8, 8] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.strided_gather<channels = 4, columns = 32>} -> tensor<2x64x64x32xf32>
  return %r : tensor<2x64x64x32xf32>
}

// -----

// forward, the strided family's largest stride and filter, largest tiles within its bound, loads first
func.func @fwd_strided_largest(%x: tensor<2x512x512x32xf32>, %w: tensor<7x7x32xf32>, %i: tensor<2x64x64x32xf32>) -> tensor<2x64x64x32xf32> {
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<2x512x512x32xf32>, tensor<7x7x32xf32>) outs(%i : tensor<2x64x64x32xf32>) strides = [8, 8] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.strided_forward<channels = 4, rows = 8, columns = 16, loads_first = 1>} -> tensor<2x64x64x32xf32>
  return %r : tensor<2x64x64x32xf32>
}

// -----

// forward, stride 8, the widest tile within the bound
func.func @fwd_strided_widest(%x: tensor<2x512x512x32xf32>, %w: tensor<7x7x32xf32>, %i: tensor<2x64x64x32xf32>) -> tensor<2x64x64x32xf32> {
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<2x512x512x32xf32>, tensor<7x7x32xf32>) outs(%i : tensor<2x64x64x32xf32>) strides = [8, 8] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.strided_forward<channels = 4, rows = 4, columns = 32>} -> tensor<2x64x64x32xf32>
  return %r : tensor<2x64x64x32xf32>
}

// -----

// forward, stride 2, the largest tile a configuration may ask for
func.func @fwd_strided_stride2(%x: tensor<2x128x128x32xf32>, %w: tensor<7x7x32xf32>, %i: tensor<2x64x64x32xf32>) -> tensor<2x64x64x32xf32> {
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<2x128x128x32xf32>, tensor<7x7x32xf32>) outs(%i : tensor<2x64x64x32xf32>) strides = [2, 2] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.strided_forward<channels = 4, rows = 8, columns = 32, loads_first = 1>} -> tensor<2x64x64x32xf32>
  return %r : tensor<2x64x64x32xf32>
}

// -----

// forward, a filter as large as the input (direct kernel)
func.func @fwd_filter_200(%x: tensor<1x200x200x8xf32>, %w: tensor<200x200x8xf32>, %i: tensor<1x1x1x8xf32>) -> tensor<1x1x1x8xf32> {
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x200x200x8xf32>, tensor<200x200x8xf32>) outs(%i : tensor<1x1x1x8xf32>) strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x1x1x8xf32>
  return %r : tensor<1x1x1x8xf32>
}

// -----

// forward, the largest dilation and padding
func.func @fwd_dilation_padding(%x: tensor<1x3x3x8xf32>, %w: tensor<3x3x8xf32>, %i: tensor<1x1x1x8xf32>) -> tensor<1x1x1x8xf32> {
  %r = dwc.depthwise_conv2d ins(%x, %w : tensor<1x3x3x8xf32>, tensor<3x3x8xf32>) outs(%i : tensor<1x1x1x8xf32>) strides = [1073741823, 1073741823] dilations = [1073741823, 1073741823] padding = [1073741823, 1073741823, 1073741823, 1073741823] -> tensor<1x1x1x8xf32>
  return %r : tensor<1x1x1x8xf32>
}

// -----

// backward filter, a filter as large as the input
func.func @bwd_filter_200(%x: tensor<1x200x200x8xf32>, %dy: tensor<1x1x1x8xf32>, %i: tensor<200x200x8xf32>) -> tensor<200x200x8xf32> {
  %r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<1x200x200x8xf32>, tensor<1x1x1x8xf32>) outs(%i : tensor<200x200x8xf32>) strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] -> tensor<200x200x8xf32>
  return %r : tensor<200x200x8xf32>
}

// -----

// max gradient, a 7x28 window (recomputed argmax)
func.func @pool_bwd_max_7x28(%x: tensor<1x56x56x32xf32>, %dy: tensor<1x50x29x32xf32>, %i: tensor<1x56x56x32xf32>) -> tensor<1x56x56x32xf32> {
  %r = dwc.pool2d_backward max ins(%x, %dy : tensor<1x56x56x32xf32>, tensor<1x50x29x32xf32>) outs(%i : tensor<1x56x56x32xf32>) window = [7, 28] strides = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x56x56x32xf32>
  return %r : tensor<1x56x56x32xf32>
}

// -----

// max gradient, a window as large as the input, f16
func.func @pool_bwd_max_full(%x: tensor<1x64x1000x8xf16>, %dy: tensor<1x1x1x8xf16>, %i: tensor<1x64x1000x8xf16>) -> tensor<1x64x1000x8xf16> {
  %r = dwc.pool2d_backward max ins(%x, %dy : tensor<1x64x1000x8xf16>, tensor<1x1x1x8xf16>) outs(%i : tensor<1x64x1000x8xf16>) window = [64, 1000] strides = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x64x1000x8xf16>
  return %r : tensor<1x64x1000x8xf16>
}

// -----

// avg gradient, a 7x200 window, stride 1
func.func @pool_bwd_avg_wide(%x: tensor<1x56x400x32xf32>, %dy: tensor<1x50x201x32xf32>, %i: tensor<1x56x400x32xf32>) -> tensor<1x56x400x32xf32> {
  %r = dwc.pool2d_backward avg ins(%x, %dy : tensor<1x56x400x32xf32>, tensor<1x50x201x32xf32>) outs(%i : tensor<1x56x400x32xf32>) window = [7, 200] strides = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x56x400x32xf32>
  return %r : tensor<1x56x400x32xf32>
}

// -----

// max gradient, the widest strips a configuration may ask for
func.func @pool_bwd_max_widest_strips(%x: tensor<1x56x56x32xf32>, %dy: tensor<1x50x50x32xf32>, %i: tensor<1x56x56x32xf32>) -> tensor<1x56x56x32xf32> {
  %r = dwc.pool2d_backward max ins(%x, %dy : tensor<1x56x56x32xf32>, tensor<1x50x50x32xf32>) outs(%i : tensor<1x56x56x32xf32>) window = [7, 7] strides = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.pool_backward<rows = 1, columns = 64, argmax = "recompute">} -> tensor<1x56x56x32xf32>
  return %r : tensor<1x56x56x32xf32>
}

// -----

// max pooling, a window as large as the input, large strides
func.func @pool_fwd_full(%x: tensor<1x64x1000x8xf32>, %i: tensor<1x1x1x8xf32>) -> tensor<1x1x1x8xf32> {
  %r = dwc.pool2d max ins(%x : tensor<1x64x1000x8xf32>) outs(%i : tensor<1x1x1x8xf32>) window = [64, 1000] strides = [2147483647, 2147483647] padding = [0, 0, 0, 0] -> tensor<1x1x1x8xf32>
  return %r : tensor<1x1x1x8xf32>
}

// -----

// convolution + pooling, wide pooling window and stride
func.func @conv_pool_wide(%x: tensor<1x64x1000x8xf32>, %w: tensor<3x3x8xf32>, %i: tensor<1x1x1x8xf32>) -> tensor<1x1x1x8xf32> {
  %r = dwc.depthwise_conv2d_pool2d max ins(%x, %w : tensor<1x64x1000x8xf32>, tensor<3x3x8xf32>) outs(%i : tensor<1x1x1x8xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] window = [64, 1000] pool_strides = [2147483647, 2147483647] pool_padding = [0, 0, 0, 0] -> tensor<1x1x1x8xf32>
  return %r : tensor<1x1x1x8xf32>
}

// -----

// im2win, a window as large as the input
func.func @im2win_wide(%x: tensor<1x64x200x8xf32>, %i: tensor<1x1x200x64x8xf32>) -> tensor<1x1x200x64x8xf32> {
  %r = dwc.im2win ins(%x : tensor<1x64x200x8xf32>) outs(%i : tensor<1x1x200x64x8xf32>) window = [64, 200] strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x1x200x64x8xf32>
  return %r : tensor<1x1x200x64x8xf32>
}

// -----

// dense convolution, a filter as large as the input
func.func @conv2d_wide(%x: tensor<1x64x200x8xf32>, %w: tensor<64x200x8x16xf32>, %i: tensor<1x1x1x16xf32>) -> tensor<1x1x1x16xf32> {
  %r = dwc.conv2d ins(%x, %w : tensor<1x64x200x8xf32>, tensor<64x200x8x16xf32>) outs(%i : tensor<1x1x1x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] -> tensor<1x1x1x16xf32>
  return %r : tensor<1x1x1x16xf32>
}
