// RUN: dwc-opt %s --split-input-file --dwc-select-kernels | FileCheck %s
// RUN: dwc-opt %s --split-input-file --dwc-select-kernels=diagnose 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY

// A depthwise op with a channel multiplier M > 1 goes to the direct kernel:
// every other family pairs each input channel with one filter channel and
// is refused with that reason, also where it takes the same layer with
// M = 1 (the first op of each function).

// FastViT's patch embedding (7x7, stride 2, 48 -> 96 channels, f16): the
// strided forward takes it without the multiplier.
// CHECK-LABEL: func @patch_embed
// CHECK: dwc.kernel = #dwc.strided_forward
// CHECK: channel_multiplier = 2 {dwc.kernel = #dwc.direct}
// WHY: remark: dwc.kernel = #dwc.strided_forward
// WHY: remark: dwc.kernel = #dwc.direct: chosen; refused: {{.*}}row_tile (channel_multiplier 2: the family pairs each input channel with one filter channel){{.*}}; strided_forward (channel_multiplier 2: the family pairs each input channel with one filter channel)
func.func @patch_embed(%x: memref<64x56x56x48xf16>, %w1: memref<7x7x48xf16>, %w2: memref<7x7x96xf16>, %b: memref<96xf16>,
                       %y1: memref<64x28x28x48xf16>, %y2: memref<64x28x28x96xf16>) {
  dwc.depthwise_conv2d ins(%x, %w1 : memref<64x56x56x48xf16>, memref<7x7x48xf16>) outs(%y1 : memref<64x28x28x48xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [3, 3, 3, 3]
  dwc.depthwise_conv2d ins(%x, %w2 : memref<64x56x56x48xf16>, memref<7x7x96xf16>) bias(%b : memref<96xf16>) outs(%y2 : memref<64x28x28x96xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [3, 3, 3, 3] channel_multiplier = 2
  return
}

// -----

// Stride 1, f32, fused (input_bias per input channel, ReLU), M = 3: the
// GEMV kernel takes the layer with M = 1.
// CHECK-LABEL: func @fused_stride1
// CHECK: dwc.kernel = #dwc.gemv
// CHECK: channel_multiplier = 3 activation = {{ *}}relu {dwc.kernel = #dwc.direct}
// WHY: remark: dwc.kernel = #dwc.gemv
// WHY: remark: dwc.kernel = #dwc.direct: chosen; refused: {{.*}}gemv (channel_multiplier 3: the family pairs each input channel with one filter channel)
func.func @fused_stride1(%x: memref<64x7x7x384xf32>, %w1: memref<3x3x384xf32>, %w3: memref<3x3x1152xf32>, %ib: memref<384xf32>,
                         %y1: memref<64x7x7x384xf32>, %y3: memref<64x7x7x1152xf32>) {
  dwc.depthwise_conv2d ins(%x, %w1 : memref<64x7x7x384xf32>, memref<3x3x384xf32>) input_bias(%ib : memref<384xf32>) outs(%y1 : memref<64x7x7x384xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] activation = relu
  dwc.depthwise_conv2d ins(%x, %w3 : memref<64x7x7x384xf32>, memref<3x3x1152xf32>) input_bias(%ib : memref<384xf32>) outs(%y3 : memref<64x7x7x1152xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 3 activation = relu
  return
}

// -----

// Backward data and backward filter of M = 2.
// CHECK-LABEL: func @backward
// CHECK: dwc.depthwise_conv2d_backward_data {{.*}} channel_multiplier = 2 {dwc.kernel = #dwc.direct}
// CHECK: dwc.depthwise_conv2d_backward_filter {{.*}} channel_multiplier = 2 {dwc.kernel = #dwc.direct}
// WHY: remark: dwc.kernel = #dwc.direct: chosen; refused: {{.*}}gemv (channel_multiplier 2: the family pairs each input channel with one filter channel); strided_gather (channel_multiplier 2: the family pairs each input channel with one filter channel)
// WHY: remark: dwc.kernel = #dwc.direct: chosen; refused: bwd_filter_taps (channel_multiplier 2: the family pairs each input channel with one filter channel); bwd_filter_image (channel_multiplier 2: {{.*}}); bwd_filter_stream (channel_multiplier 2: {{.*}}); bwd_filter_split_z (channel_multiplier 2: {{.*}})
func.func @backward(%x: memref<64x28x28x128xf16>, %dy: memref<64x28x28x256xf16>, %w: memref<3x3x256xf16>,
                    %dx: memref<64x28x28x128xf16>, %dw: memref<3x3x256xf32>) {
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<64x28x28x256xf16>, memref<3x3x256xf16>) outs(%dx : memref<64x28x28x128xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<64x28x28x128xf16>, memref<64x28x28x256xf16>) outs(%dw : memref<3x3x256xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2
  return
}

// -----

// #dwc.direct given on an M > 1 op is kept.
// CHECK-LABEL: func @direct_given
// CHECK: channel_multiplier = 4 {dwc.kernel = #dwc.direct}
// WHY: remark: dwc.kernel = #dwc.direct: given
func.func @direct_given(%x: memref<2x9x9x5xf32>, %w: memref<3x3x20xf32>, %y: memref<2x9x9x20xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<2x9x9x5xf32>, memref<3x3x20xf32>) outs(%y : memref<2x9x9x20xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 4 {dwc.kernel = #dwc.direct}
  return
}
