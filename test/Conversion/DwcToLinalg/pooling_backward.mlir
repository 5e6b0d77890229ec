// Lowering of dwc.pool2d_backward to linalg (gather form).
// max: a two-result reduction recomputes each window's argmax tap from X
// (taps outside the input skipped by index, ties keep the smaller tap);
// dY and the tap are spread by the strides into tensors of extent
// IH + KH - 1 (tap -1 elsewhere) and a stride-1 reduction adds dY where the
// spread tap is the current one. avg: dY / divisor in f32 first, then the
// same spread and reduction over every tap, rounded once.
// RUN: dwc-opt --convert-dwc-to-linalg %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-DAG: #[[XIN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 2 + d4, d2 * 2 + d5, d3)>
// CHECK-DAG: #[[WIN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[P32:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 - d4 + 2, d2 - d5 + 1, d3)>

// ceil_mode: OH = 4 (the last window overhangs); X padded with -inf to 9x7.
// CHECK-LABEL: func.func @max_ceil
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<1x7x6x5xf32>
// CHECK: %[[XP:.+]] = tensor.pad %arg0 low[0, 1, 0, 0] high[0, 1, 1, 0]
// CHECK: } : tensor<1x7x6x5xf32> to tensor<1x9x7x5xf32>
// CHECK: %[[MAXI:.+]] = linalg.fill {{.*}} -> tensor<1x4x3x5xf32>
// CHECK: %[[TAPI:.+]] = linalg.fill ins(%{{.*}} : i32) outs(%{{.*}} : tensor<1x4x3x5xi32>)
// CHECK: %[[AM:.+]]:2 = linalg.generic {indexing_maps = [#[[XIN]], #[[WIN]], #[[OUT]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[XP]], %{{.*}} : tensor<1x9x7x5xf32>, tensor<3x2xf32>) outs(%[[MAXI]], %[[TAPI]] : tensor<1x4x3x5xf32>, tensor<1x4x3x5xi32>)
// Tie-breaking: a tap wins when none is set, when it is greater, or when
// it is equal and earlier; only taps inside the input count.
// CHECK: %[[UNSET:.+]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK: %[[GT:.+]] = arith.cmpf ogt
// CHECK: %[[EQ:.+]] = arith.cmpf oeq
// CHECK: %[[EARLIER:.+]] = arith.cmpi slt
// CHECK: arith.andi %[[EQ]], %[[EARLIER]]
// CHECK: %[[WINS:.+]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK: arith.select %[[WINS]]
// CHECK: arith.select %[[WINS]]
// CHECK: linalg.yield
// dY and the taps spread by the strides (window row oh at row 1 + 2*oh).
// CHECK: %[[PDY:.+]] = tensor.insert_slice %arg1 into %{{.*}}[0, 1, 1, 0] [1, 4, 3, 5] [1, 2, 2, 1] : tensor<1x4x3x5xf32> into tensor<1x9x7x5xf32>
// CHECK: %[[PTAP:.+]] = tensor.insert_slice %[[AM]]#1 into %{{.*}}[0, 1, 1, 0] [1, 4, 3, 5] [1, 2, 2, 1] : tensor<1x4x3x5xi32> into tensor<1x9x7x5xi32>
// CHECK: %[[ZERO:.+]] = linalg.fill {{.*}} outs(%[[INIT]] : tensor<1x7x6x5xf32>)
// CHECK: %[[DX:.+]] = linalg.generic {indexing_maps = [#[[P32]], #[[P32]], #[[WIN]], #[[OUT]]]
// CHECK-SAME: ins(%[[PDY]], %[[PTAP]], %{{.*}} : tensor<1x9x7x5xf32>, tensor<1x9x7x5xi32>, tensor<3x2xf32>) outs(%[[ZERO]] : tensor<1x7x6x5xf32>)
// CHECK: %[[HIT:.+]] = arith.cmpi eq
// CHECK: arith.select %[[HIT]]
// CHECK: arith.addf
// CHECK: return %[[DX]]
func.func @max_ceil(%x: tensor<1x7x6x5xf32>, %dy: tensor<1x4x3x5xf32>) -> tensor<1x7x6x5xf32> {
  %init = tensor.empty() : tensor<1x7x6x5xf32>
  %r = dwc.pool2d_backward max ins(%x, %dy : tensor<1x7x6x5xf32>, tensor<1x4x3x5xf32>) outs(%init : tensor<1x7x6x5xf32>) window = [3, 2] strides = [2, 2] padding = [1, 0, 0, 1] ceil_mode -> tensor<1x7x6x5xf32>
  return %r : tensor<1x7x6x5xf32>
}

// -----

// avg, f16: dY / divisor in f32 (count_include_pad clips to [-1, 8)), the
// sum in f32, one truncf into the destination. X is not read.
// CHECK-LABEL: func.func @avg_f16_incl
// CHECK-NOT: tensor.pad
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<1x7x7x8xf16>
// CHECK: %[[G:.+]] = linalg.generic {{.*}} ins(%arg1 : tensor<1x4x4x8xf16>) outs(%{{.*}} : tensor<1x4x4x8xf32>)
// CHECK: arith.maxsi %{{.*}}, %c-1
// CHECK: arith.minsi %{{.*}}, %c8
// CHECK: %[[CNT:.+]] = arith.sitofp
// CHECK: %[[E:.+]] = arith.extf
// CHECK: arith.divf %[[E]], %[[CNT]] : f32
// CHECK: %[[PG:.+]] = tensor.insert_slice %[[G]] into %{{.*}}[0, 1, 1, 0] [1, 4, 4, 8] [1, 2, 2, 1] : tensor<1x4x4x8xf32> into tensor<1x9x9x8xf32>
// CHECK: %[[S:.+]] = linalg.generic {{.*}} ins(%[[PG]], %{{.*}} : tensor<1x9x9x8xf32>, tensor<3x3xf32>) outs(%{{.*}} : tensor<1x7x7x8xf32>)
// CHECK-NOT: arith.select
// CHECK: arith.addf
// CHECK: %[[R:.+]] = linalg.generic {{.*}} ins(%[[S]] : tensor<1x7x7x8xf32>) outs(%[[INIT]] : tensor<1x7x7x8xf16>)
// CHECK: arith.truncf
// CHECK: return %[[R]]
func.func @avg_f16_incl(%x: tensor<1x7x7x8xf16>, %dy: tensor<1x4x4x8xf16>) -> tensor<1x7x7x8xf16> {
  %init = tensor.empty() : tensor<1x7x7x8xf16>
  %r = dwc.pool2d_backward avg ins(%x, %dy : tensor<1x7x7x8xf16>, tensor<1x4x4x8xf16>) outs(%init : tensor<1x7x7x8xf16>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] count_include_pad -> tensor<1x7x7x8xf16>
  return %r : tensor<1x7x7x8xf16>
}

// -----

// Stride 3 > window 2: dY lands every third row/column of the spread, the
// positions in no window only ever see zeros.
// CHECK-LABEL: func.func @avg_stride_gt_window
// CHECK: tensor.insert_slice {{.*}} [1, 3, 3, 2] [1, 3, 3, 1]
func.func @avg_stride_gt_window(%x: tensor<1x8x8x2xf32>, %dy: tensor<1x3x3x2xf32>) -> tensor<1x8x8x2xf32> {
  %init = tensor.empty() : tensor<1x8x8x2xf32>
  %r = dwc.pool2d_backward avg ins(%x, %dy : tensor<1x8x8x2xf32>, tensor<1x3x3x2xf32>) outs(%init : tensor<1x8x8x2xf32>) window = [2, 2] strides = [3, 3] padding = [1, 0, 1, 0] -> tensor<1x8x8x2xf32>
  return %r : tensor<1x8x8x2xf32>
}

// -----

// The memref form is refused.
func.func @memref_form(%x: memref<1x4x4x4xf32>, %dy: memref<1x2x2x4xf32>, %dx: memref<1x4x4x4xf32>) {
  // expected-error @+1 {{expects tensor operands; run before bufferization}}
  dwc.pool2d_backward max ins(%x, %dy : memref<1x4x4x4xf32>, memref<1x2x2x4xf32>) outs(%dx : memref<1x4x4x4xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0]
  return
}
