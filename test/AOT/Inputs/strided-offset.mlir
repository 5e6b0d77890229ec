func.func @f(%x: memref<1x8x8x8xf32, strided<[512, 64, 8, 1], offset: 4>>, %w: memref<3x3x8xf32>, %y: memref<1x8x8x8xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x8x8xf32, strided<[512, 64, 8, 1], offset: 4>>, memref<3x3x8xf32>) outs(%y : memref<1x8x8x8xf32>)
         strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}
