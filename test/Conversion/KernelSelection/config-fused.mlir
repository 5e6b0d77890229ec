// RUN: dwc-opt %s --split-input-file --dwc-select-kernels | FileCheck %s
// RUN: dwc-opt %s --split-input-file --dwc-select-kernels=diagnose 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY

// A fused depthwise forward goes to a family whose loads and stores apply
// the prologue and epilogue (row tiles, GEMV, planes, the strided forward,
// the direct kernel); the others are refused with that reason.

// The 16-bit 13x13 layer the tensor-core kernels take unfused; fused, the
// row tiles / GEMV take it.
// CHECK-LABEL: func @fused_large_filter
// CHECK: dwc.kernel = #dwc.mma_stream
// CHECK: activation = gelu {dwc.kernel = #dwc.{{(row_tile|gemv)}}
// WHY: remark: dwc.kernel = #dwc.mma_stream
// WHY: remark: dwc.kernel = #dwc.{{(row_tile|gemv)}}{{.*}}refused: {{.*}}mma_stream (the family does not emit a fused prologue or epilogue)
func.func @fused_large_filter(%x: memref<64x28x28x128xf16>, %w: memref<13x13x128xf16>, %y: memref<64x28x28x128xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<64x28x28x128xf16>, memref<13x13x128xf16>) outs(%y : memref<64x28x28x128xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6]
  dwc.depthwise_conv2d ins(%x, %w : memref<64x28x28x128xf16>, memref<13x13x128xf16>) outs(%y : memref<64x28x28x128xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] activation = gelu
  return
}

// -----

// Small maps: the plane kernel takes the plain op and the fused one (its
// staging applies the prologue once per input element).
// CHECK-LABEL: func @fused_small_map
// CHECK: dwc.kernel = #dwc.plane
// CHECK: activation = relu6 input_activation = relu6 {dwc.kernel = #dwc.plane
// WHY: remark: dwc.kernel = #dwc.plane
// WHY: remark: dwc.kernel = #dwc.plane
func.func @fused_small_map(%x: memref<64x7x7x960xf32>, %w: memref<5x5x960xf32>, %b: memref<960xf32>, %y: memref<64x7x7x960xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<64x7x7x960xf32>, memref<5x5x960xf32>) outs(%y : memref<64x7x7x960xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2]
  dwc.depthwise_conv2d ins(%x, %w : memref<64x7x7x960xf32>, memref<5x5x960xf32>) input_bias(%b : memref<960xf32>) outs(%y : memref<64x7x7x960xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] activation = relu6 input_activation = relu6
  return
}

// -----

// The strided forward fuses a clamp prologue: the same choice as unfused.
// CHECK-LABEL: func @fused_mobilenet
// CHECK: dwc.kernel = #dwc.strided_forward
// CHECK: dwc.kernel = #dwc.strided_forward
func.func @fused_mobilenet(%x: memref<64x112x112x96xf16>, %w: memref<3x3x96xf16>, %b: memref<96xf16>, %y: memref<64x56x56x96xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<64x112x112x96xf16>, memref<3x3x96xf16>) outs(%y : memref<64x56x56x96xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [0, 1, 0, 1]
  dwc.depthwise_conv2d ins(%x, %w : memref<64x112x112x96xf16>, memref<3x3x96xf16>) bias(%b : memref<96xf16>) input_bias(%b : memref<96xf16>) outs(%y : memref<64x56x56x96xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [0, 1, 0, 1] activation = relu6 input_activation = relu6
  return
}

// -----

// A transcendental prologue (SiLU) sends the op to the plane kernel on a
// large map and with stride 2: channel groups of a 32-byte sector (16
// f16 channels), the tallest band that fits 48 KiB of staged plane. A
// clamp prologue (ReLU6) keeps the row tiles.
// CHECK-LABEL: func @fused_silu_planes
// CHECK: input_activation = silu {dwc.kernel = #dwc.plane<channels = 2, block_channels = 16, rows = 2, columns = 8, band = 7>}
// CHECK: input_activation = silu {dwc.kernel = #dwc.plane<channels = 2, block_channels = 16, rows = 4, columns = 7, band = 4>}
// CHECK: input_activation = relu6 {dwc.kernel = #dwc.row_tile
// WHY: remark: dwc.kernel = #dwc.plane
// WHY: remark: dwc.kernel = #dwc.plane
// WHY: remark: dwc.kernel = #dwc.row_tile{{.*}}plane (by default only {{.*}}fused forwards with a transcendental prologue
func.func @fused_silu_planes(%x: memref<64x56x56x144xf16>, %w: memref<3x3x144xf16>, %w5: memref<5x5x144xf16>, %b: memref<144xf16>, %y: memref<64x56x56x144xf16>, %y2: memref<64x28x28x144xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<64x56x56x144xf16>, memref<3x3x144xf16>) bias(%b : memref<144xf16>) input_bias(%b : memref<144xf16>) outs(%y : memref<64x56x56x144xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] activation = silu input_activation = silu
  dwc.depthwise_conv2d ins(%x, %w5 : memref<64x56x56x144xf16>, memref<5x5x144xf16>) bias(%b : memref<144xf16>) input_bias(%b : memref<144xf16>) outs(%y2 : memref<64x28x28x144xf16>)
    strides = [2, 2] dilations = [1, 1] padding = [2, 2, 2, 2] activation = silu input_activation = silu
  dwc.depthwise_conv2d ins(%x, %w : memref<64x56x56x144xf16>, memref<3x3x144xf16>) bias(%b : memref<144xf16>) input_bias(%b : memref<144xf16>) outs(%y : memref<64x56x56x144xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] activation = relu6 input_activation = relu6
  return
}
