// convert-dwc-to-gpu on the other dwc ops: one gpu.launch each, with the
// thread mapping and the reduction the op's semantics call for.
// RUN: dwc-opt %s --convert-dwc-to-gpu -cse | FileCheck %s

// Max pooling: -inf start, only in-bounds elements take part (scf.if keeps
// the running max for padding), NaN-propagating maximumf.
// CHECK-LABEL: func.func @pool_max
// CHECK: gpu.launch
// CHECK: arith.constant dense<0xFF800000> : vector<4xf32>
// CHECK: scf.if %{{.*}} -> (vector<4xf32>) {
// CHECK:   vector.load {{.*}} : memref<1x9x9x16xf32>, vector<4xf32>
// CHECK:   arith.maximumf
// CHECK: } else {
// CHECK:   scf.yield %{{.*}} : vector<4xf32>
// CHECK: vector.store {{.*}} : memref<1x5x5x16xf32>, vector<4xf32>
func.func @pool_max(%x: memref<1x9x9x16xf32>, %y: memref<1x5x5x16xf32>) {
  dwc.pool2d max ins(%x : memref<1x9x9x16xf32>) outs(%y : memref<1x5x5x16xf32>)
    window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1]
  return
}

// Average pooling, count_include_pad + ceil_mode: f32 sums of predicated
// loads, divided by the window clipped to the padded input [-1, 8 + 1).
// CHECK-LABEL: func.func @pool_avg
// CHECK: gpu.launch
// CHECK: scf.if %{{.*}} -> (vector<8xf16>)
// CHECK: arith.extf {{.*}} : vector<8xf16> to vector<8xf32>
// CHECK: arith.addf {{.*}} : vector<8xf32>
// CHECK: %[[HEND:.*]] = arith.minsi %{{.*}}, %c9 : index
// CHECK-NOT: arith.maxsi
// CHECK: %[[CNT:.*]] = arith.muli
// CHECK: %[[I:.*]] = arith.index_cast %[[CNT]] : index to i64
// CHECK: %[[F:.*]] = arith.sitofp %[[I]] : i64 to f32
// CHECK: %[[D:.*]] = vector.broadcast %[[F]] : f32 to vector<8xf32>
// CHECK: arith.divf %{{.*}}, %[[D]] : vector<8xf32>
// CHECK: arith.truncf {{.*}} : vector<8xf32> to vector<8xf16>
func.func @pool_avg(%x: memref<1x8x8x16xf16>, %y: memref<1x5x5x16xf16>) {
  dwc.pool2d avg ins(%x : memref<1x8x8x16xf16>) outs(%y : memref<1x5x5x16xf16>)
    window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] ceil_mode count_include_pad
  return
}

// Without count_include_pad the divisor counts the elements inside the input.
// CHECK-LABEL: func.func @pool_avg_exclude
// CHECK: arith.minsi %{{.*}}, %c8 : index
// CHECK: arith.maxsi %{{.*}}, %c0 : index
// CHECK: arith.divf
func.func @pool_avg_exclude(%x: memref<1x8x8x16xf32>, %y: memref<1x4x4x16xf32>) {
  dwc.pool2d avg ins(%x : memref<1x8x8x16xf32>) outs(%y : memref<1x4x4x16xf32>)
    window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1]
  return
}

// Global average pooling: one thread per (n, channel vector), loops over H, W.
// CHECK-LABEL: func.func @gap
// CHECK: gpu.launch
// CHECK: scf.for {{.*}} -> (vector<8xf32>)
// CHECK: vector.load {{.*}} : memref<2x7x7x32xf16>, vector<8xf16>
// CHECK: arith.constant dense<4.900000e+01> : vector<8xf32>
// CHECK: arith.divf
// CHECK: vector.store {{.*}}[%{{.*}}, %c0, %c0, %{{.*}}] {{.*}} : memref<2x1x1x32xf16>, vector<8xf16>
func.func @gap(%x: memref<2x7x7x32xf16>, %y: memref<2x1x1x32xf16>) {
  dwc.global_avg_pool ins(%x : memref<2x7x7x32xf16>) outs(%y : memref<2x1x1x32xf16>)
  return
}

// Backward data with stride 2: a tap contributes only when ih + pt - fh is
// divisible by the stride and the quotient is a valid output row.
// CHECK-LABEL: func.func @bwd_data
// CHECK: gpu.launch
// CHECK: arith.remsi %{{.*}}, %c2 : index
// CHECK: arith.cmpi eq
// CHECK: arith.divsi %{{.*}}, %c2 : index
// CHECK: scf.if %{{.*}} -> (vector<4xf32>)
// CHECK: vector.load {{.*}} : memref<2x8x8x32xf32>, vector<4xf32>
// CHECK: vector.fma
// CHECK: vector.store {{.*}} : memref<2x16x16x32xf32>, vector<4xf32>
func.func @bwd_data(%dy: memref<2x8x8x32xf32>, %w: memref<3x3x32xf32>, %dx: memref<2x16x16x32xf32>) {
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<2x8x8x32xf32>, memref<3x3x32xf32>)
    outs(%dx : memref<2x16x16x32xf32>) strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// Backward filter: 3*3*(32/8) = 36 threads, each looping over n, oh, ow in f32.
// CHECK-LABEL: func.func @bwd_filter
// CHECK: gpu.launch
// CHECK: arith.cmpi ult, %{{.*}}, %c36 : index
// CHECK: scf.for {{.*}} -> (vector<8xf32>)
// CHECK: scf.for {{.*}} -> (vector<8xf32>)
// CHECK: scf.for {{.*}} -> (vector<8xf32>)
// CHECK: vector.fma {{.*}} : vector<8xf32>
// CHECK: vector.store {{.*}} : memref<3x3x32xf32>, vector<8xf32>
func.func @bwd_filter(%x: memref<2x16x16x32xf16>, %dy: memref<2x16x16x32xf16>, %dw: memref<3x3x32xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<2x16x16x32xf16>, memref<2x16x16x32xf16>)
    outs(%dw : memref<3x3x32xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// im2win: one thread per output element (C = 3: scalar), a predicated copy.
// CHECK-LABEL: func.func @im2win
// CHECK: gpu.launch
// CHECK: scf.if %{{.*}} -> (vector<1xf32>)
// CHECK: memref.load {{.*}} : memref<1x8x8x3xf32>
// CHECK: memref.store {{.*}} : memref<1x6x10x3x3xf32>
func.func @im2win(%x: memref<1x8x8x3xf32>, %r: memref<1x6x10x3x3xf32>) {
  dwc.im2win ins(%x : memref<1x8x8x3xf32>) outs(%r : memref<1x6x10x3x3xf32>)
    window = [3, 3] strides = [1, 1] dilations = [1, 1] padding = [0, 0, 1, 1]
  return
}

// Dense conv2d: vectors along the output channels, the input element is a
// predicated scalar broadcast; loop over the input channels.
// CHECK-LABEL: func.func @conv
// CHECK: gpu.launch
// CHECK: vector.load {{.*}} : memref<32xf16>, vector<8xf16>
// CHECK: scf.for {{.*}} -> (vector<8xf32>)
// CHECK: scf.for {{.*}} -> (vector<8xf32>)
// CHECK: scf.if %{{.*}} -> (vector<1xf16>)
// CHECK: memref.load {{.*}} : memref<1x14x14x16xf16>
// CHECK: vector.broadcast {{.*}} : f32 to vector<8xf32>
// CHECK: vector.load {{.*}} : memref<3x3x16x32xf16>, vector<8xf16>
// CHECK: vector.fma {{.*}} : vector<8xf32>
// CHECK: vector.store {{.*}} : memref<1x14x14x32xf16>, vector<8xf16>
func.func @conv(%x: memref<1x14x14x16xf16>, %w: memref<3x3x16x32xf16>, %b: memref<32xf16>, %y: memref<1x14x14x32xf16>) {
  dwc.conv2d ins(%x, %w : memref<1x14x14x16xf16>, memref<3x3x16x32xf16>) bias(%b : memref<32xf16>)
    outs(%y : memref<1x14x14x32xf16>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}
