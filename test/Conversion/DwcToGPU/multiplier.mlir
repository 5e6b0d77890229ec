// The direct kernels of a channel multiplier M > 1: one output element per
// thread (consecutive output channels share input channels, so no channel
// vectors); output channel c reads input channel c / M (forward, backward
// filter) and input channel c gathers output channels c*M + m (backward
// data, a loop over m).
// RUN: dwc-opt %s --convert-dwc-to-gpu -cse | FileCheck %s

// Forward, M = 2, with a bias (per output channel) and an input_bias (per
// input channel): 1*8*8*32 threads, channel = gid % 32.
// CHECK-LABEL: func.func @forward
// CHECK-SAME: (%[[X:.*]]: memref<1x8x8x16xf32>, %[[W:.*]]: memref<3x3x32xf32>, %[[B:.*]]: memref<32xf32>, %[[IB:.*]]: memref<16xf32>, %[[Y:.*]]: memref<1x8x8x32xf32>)
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[C8]],
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[OC:.*]] = arith.remui %{{.*}}, %[[C32]] : index
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[IC:.*]] = arith.divui %[[OC]], %[[C2]] : index
// CHECK: memref.load %[[B]][%[[OC]]] : memref<32xf32>
// CHECK: memref.load %[[IB]][%[[IC]]] : memref<16xf32>
// CHECK: memref.load %[[X]][%{{.*}}, %{{.*}}, %{{.*}}, %[[IC]]] : memref<1x8x8x16xf32>
// CHECK: memref.load %[[W]][%{{.*}}, %{{.*}}, %[[OC]]] : memref<3x3x32xf32>
// CHECK-NOT: vector.load
// CHECK: memref.store %{{.*}}, %[[Y]][%{{.*}}, %{{.*}}, %{{.*}}, %[[OC]]] : memref<1x8x8x32xf32>
func.func @forward(%x: memref<1x8x8x16xf32>, %w: memref<3x3x32xf32>, %b: memref<32xf32>, %ib: memref<16xf32>, %y: memref<1x8x8x32xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x8x16xf32>, memref<3x3x32xf32>) bias(%b : memref<32xf32>) input_bias(%ib : memref<16xf32>)
    outs(%y : memref<1x8x8x32xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2 input_activation = relu
  return
}

// Backward data, M = 3: one thread per input-gradient element (1*8*8*16),
// a loop over m around the window reading output channel c*3 + m.
// CHECK-LABEL: func.func @backward_data
// CHECK-SAME: (%[[DY:.*]]: memref<1x8x8x48xf32>, %[[W:.*]]: memref<3x3x48xf32>, %[[DX:.*]]: memref<1x8x8x16xf32>)
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[C:.*]] = arith.remui %{{.*}}, %[[C16]] : index
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: scf.for %[[M:.*]] = %{{.*}} to %[[C3]]
// CHECK: %[[CM:.*]] = arith.muli %[[C]], %[[C3]] : index
// CHECK: %[[OC:.*]] = arith.addi %[[CM]], %[[M]] : index
// CHECK: memref.load %[[DY]][%{{.*}}, %{{.*}}, %{{.*}}, %[[OC]]] : memref<1x8x8x48xf32>
// CHECK: memref.load %[[W]][%{{.*}}, %{{.*}}, %[[OC]]] : memref<3x3x48xf32>
// CHECK: memref.store %{{.*}}, %[[DX]][%{{.*}}, %{{.*}}, %{{.*}}, %[[C]]] : memref<1x8x8x16xf32>
func.func @backward_data(%dy: memref<1x8x8x48xf32>, %w: memref<3x3x48xf32>, %dx: memref<1x8x8x16xf32>) {
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<1x8x8x48xf32>, memref<3x3x48xf32>) outs(%dx : memref<1x8x8x16xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 3
  return
}

// Backward filter, M = 2: one thread per filter-gradient element
// (3*3*32), filter channel c reading input channel c / 2.
// CHECK-LABEL: func.func @backward_filter
// CHECK-SAME: (%[[X:.*]]: memref<1x8x8x16xf32>, %[[DY:.*]]: memref<1x8x8x32xf32>, %[[DW:.*]]: memref<3x3x32xf32>)
// CHECK: %[[C288:.*]] = arith.constant 288 : index
// CHECK: arith.cmpi ult, %{{.*}}, %[[C288]] : index
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[OC:.*]] = arith.remui %{{.*}}, %[[C32]] : index
// CHECK: %[[IC:.*]] = arith.divui %[[OC]], %{{.*}} : index
// CHECK: memref.load %[[X]][%{{.*}}, %{{.*}}, %{{.*}}, %[[IC]]] : memref<1x8x8x16xf32>
// CHECK: memref.load %[[DY]][%{{.*}}, %{{.*}}, %{{.*}}, %[[OC]]] : memref<1x8x8x32xf32>
// CHECK: memref.store %{{.*}}, %[[DW]][%{{.*}}, %{{.*}}, %[[OC]]] : memref<3x3x32xf32>
func.func @backward_filter(%x: memref<1x8x8x16xf32>, %dy: memref<1x8x8x32xf32>, %dw: memref<3x3x32xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<1x8x8x16xf32>, memref<1x8x8x32xf32>) outs(%dw : memref<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2
  return
}
