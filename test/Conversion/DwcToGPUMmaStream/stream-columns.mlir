// stream_columns: a filter taller than wide (19 x 5) streamed along the
// columns. The kernel sees the swapped shape (9 rows of 20 columns, a 5 x 19
// filter); only the operands' index order swaps back: the workspace loads
// put the kernel's column (clamped to the operand's height, 20) in the
// height position, the band reads the filter as w[tap][row], the output
// stores put the kernel's column (guarded by 20) in the height position.
// With stream_columns = false the same op streams its rows (the width, 9,
// clamped in the width position; w[row][tap]). (The selector completes the
// given partial configurations.)
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-mma-stream -split-input-file | FileCheck %s
// RUN: sed 's/stream_columns = true/stream_columns = false/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-mma-stream -split-input-file | FileCheck %s --check-prefix=ROWS

// CHECK-LABEL: func @tall
// CHECK: %[[IC:.*]] = arith.minsi %{{.*}}, %c19{{.*}} : index
// CHECK-NEXT: vector.load %arg0[%{{.*}}, %[[IC]], %{{.*}}, %{{.*}}] {{.*}} : memref<2x20x9x8xf16>, vector<8xf16>
// CHECK: %[[TAP:.*]] = arith.select %{{.*}}, %{{.*}}, %c0{{.*}} : index
// CHECK-NEXT: memref.load %arg1[%[[TAP]], %{{.*}}, %{{.*}}] : memref<19x5x8xf16>
// CHECK: nvgpu.mma.sync
// CHECK: arith.cmpi slt, %[[COL:.*]], %c20{{.*}} : index
// CHECK: vector.store %{{.*}}, %arg2[%{{.*}}, %[[COL]], %{{.*}}, %{{.*}}] {{.*}} : memref<2x20x9x8xf16>, vector<8xf16>
// CHECK-NOT: dwc.depthwise_conv2d
// ROWS-LABEL: func @tall
// ROWS: %[[IC:.*]] = arith.minsi %{{.*}}, %c8{{.*}} : index
// ROWS-NEXT: vector.load %arg0[%{{.*}}, %{{.*}}, %[[IC]], %{{.*}}] {{.*}} : memref<2x20x9x8xf16>, vector<8xf16>
// ROWS: %[[TAP:.*]] = arith.select %{{.*}}, %{{.*}}, %c0{{.*}} : index
// ROWS-NEXT: memref.load %arg1[%{{.*}}, %[[TAP]], %{{.*}}] : memref<19x5x8xf16>
func.func @tall(%x: memref<2x20x9x8xf16>, %w: memref<19x5x8xf16>, %y: memref<2x20x9x8xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<2x20x9x8xf16>, memref<19x5x8xf16>) outs(%y : memref<2x20x9x8xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [9, 9, 2, 2] {dwc.kernel = #dwc.mma_stream<stream_columns = true>}
  return
}

// -----

// Backward data: the rotated filter, read as w[18 - tap][4 - row] (the
// kernel's FW - 1 = 18 is the operand's FH - 1).
// CHECK-LABEL: func @tall_backward_data
// CHECK: %[[S:.*]] = arith.subi %c18, %{{.*}} : index
// CHECK: %[[R:.*]] = arith.subi %c4, %{{.*}} : index
// CHECK-NEXT: memref.load %arg1[%[[S]], %[[R]], %{{.*}}] : memref<19x5x8xbf16>
// CHECK-NOT: dwc.depthwise_conv2d_backward_data
func.func @tall_backward_data(%dy: memref<2x20x9x8xbf16>, %w: memref<19x5x8xbf16>, %dx: memref<2x20x9x8xbf16>) {
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<2x20x9x8xbf16>, memref<19x5x8xbf16>) outs(%dx : memref<2x20x9x8xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [9, 9, 2, 2] {dwc.kernel = #dwc.mma_stream<stream_columns = true>}
  return
}
