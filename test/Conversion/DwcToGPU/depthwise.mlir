// Depthwise forward on memrefs -> one gpu.launch: 1-D grid of 256-thread
// blocks, channel-vector fastest, predicated (zero-padding) window loads,
// f32 fma accumulation, one rounding, vector store.
// RUN: dwc-opt %s --convert-dwc-to-gpu -cse | FileCheck %s

// f32, C % 4 == 0: 128-bit vector<4xf32> loads, 3x3 unrolled, bias init.
// CHECK-LABEL: func.func @dw_f32
// CHECK-SAME: (%[[X:.*]]: memref<1x8x8x16xf32>, %[[W:.*]]: memref<3x3x16xf32>, %[[B:.*]]: memref<16xf32>, %[[Y:.*]]: memref<1x8x8x16xf32>)
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C1]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]]) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C256]]
// CHECK: %[[BASE:.*]] = arith.muli %[[BX]], %{{.*}} : index
// CHECK: %[[GID:.*]] = arith.addi %[[BASE]], %[[TX]] : index
// 1*8*8*(16/4) = 256 threads: no bounds check needed.
// CHECK-NOT: arith.cmpi ult
// CHECK: %[[CV:.*]] = arith.remui %[[GID]], %{{.*}} : index
// CHECK: %[[C:.*]] = arith.muli %[[CV]], %{{.*}} : index
// CHECK: %[[ACC0:.*]] = vector.load %[[B]][%[[C]]] {alignment = 16 : i64} : memref<16xf32>, vector<4xf32>
// First tap (fh = 0, fw = 0) is padding at the top-left: both bounds checked.
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi sge
// CHECK: %[[OK:.*]] = arith.andi
// CHECK: %[[XV:.*]] = scf.if %[[OK]] -> (vector<4xf32>) {
// CHECK:   vector.load %[[X]]{{.*}} {alignment = 16 : i64} : memref<1x8x8x16xf32>, vector<4xf32>
// CHECK: } else {
// CHECK:   arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK: }
// CHECK: %[[WV:.*]] = vector.load %[[W]]{{.*}} : memref<3x3x16xf32>, vector<4xf32>
// CHECK: vector.fma %[[XV]], %[[WV]], %[[ACC0]] : vector<4xf32>
// The centre tap (the fifth) needs no predicate.
// CHECK-COUNT-3: vector.fma
// CHECK-NOT: scf.if
// CHECK: vector.load %[[X]]{{.*}} : memref<1x8x8x16xf32>, vector<4xf32>
// CHECK-COUNT-5: vector.fma
// CHECK-NOT: vector.fma
// CHECK: vector.store %{{.*}}, %[[Y]]{{.*}} {alignment = 16 : i64} : memref<1x8x8x16xf32>, vector<4xf32>
// CHECK: gpu.terminator
func.func @dw_f32(%x: memref<1x8x8x16xf32>, %w: memref<3x3x16xf32>, %b: memref<16xf32>, %y: memref<1x8x8x16xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x8x16xf32>, memref<3x3x16xf32>) bias(%b : memref<16xf32>)
    outs(%y : memref<1x8x8x16xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}

// f16, C % 8 == 0: vector<8xf16> loads, extf to f32, fma in f32, one truncf.
// Strides, dilations and asymmetric padding; 2*3*10*3 = 180 threads -> bounds check.
// CHECK-LABEL: func.func @dw_f16
// CHECK: gpu.launch
// CHECK: %[[GID:.*]] = arith.addi
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[GID]], %{{.*}} : index
// CHECK: scf.if %[[IN]] {
// CHECK: vector.load {{.*}} : memref<24xf16>, vector<8xf16>
// CHECK: arith.extf {{.*}} : vector<8xf16> to vector<8xf32>
// CHECK: scf.if {{.*}} -> (vector<8xf16>)
// CHECK: vector.load {{.*}} {alignment = 16 : i64} : memref<2x9x10x24xf16>, vector<8xf16>
// CHECK: arith.extf {{.*}} : vector<8xf16> to vector<8xf32>
// CHECK: vector.fma {{.*}} : vector<8xf32>
// CHECK-COUNT-14: vector.fma {{.*}} : vector<8xf32>
// CHECK-NOT: vector.fma
// CHECK: %[[R:.*]] = arith.truncf {{.*}} : vector<8xf32> to vector<8xf16>
// CHECK: vector.store %[[R]], {{.*}} : memref<2x3x10x24xf16>, vector<8xf16>
func.func @dw_f16(%x: memref<2x9x10x24xf16>, %w: memref<5x3x24xf16>, %b: memref<24xf16>, %y: memref<2x3x10x24xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<2x9x10x24xf16>, memref<5x3x24xf16>) bias(%b : memref<24xf16>)
    outs(%y : memref<2x3x10x24xf16>) strides = [2, 1] dilations = [1, 2] padding = [1, 0, 2, 2]
  return
}

// bf16 with C = 7 (not a multiple of 8): scalar path; 9x9 filter -> scf.for loops.
// CHECK-LABEL: func.func @dw_scalar
// CHECK: gpu.launch
// CHECK-NOT: vector.load
// CHECK: scf.for %[[FH:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<1xf32>)
// CHECK: scf.for %[[FW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<1xf32>)
// CHECK: scf.if %{{.*}} -> (vector<1xbf16>)
// CHECK: memref.load {{.*}} : memref<1x8x8x7xbf16>
// CHECK: memref.load {{.*}}[%[[FH]], %[[FW]], %{{.*}}] : memref<9x9x7xbf16>
// CHECK: vector.fma {{.*}} : vector<1xf32>
// CHECK: arith.truncf {{.*}} : vector<1xf32> to vector<1xbf16>
// CHECK: memref.store {{.*}} : memref<1x8x8x7xbf16>
func.func @dw_scalar(%x: memref<1x8x8x7xbf16>, %w: memref<9x9x7xbf16>, %y: memref<1x8x8x7xbf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x8x7xbf16>, memref<9x9x7xbf16>)
    outs(%y : memref<1x8x8x7xbf16>) strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4]
  return
}

// A strided (non-identity) layout falls back to the scalar path.
// CHECK-LABEL: func.func @dw_strided_layout
// CHECK-NOT: vector.load
// CHECK: memref.load
// CHECK: vector.fma {{.*}} : vector<1xf32>
func.func @dw_strided_layout(%x: memref<1x4x4x8xf32, strided<[256, 64, 16, 1]>>, %w: memref<1x1x8xf32>, %y: memref<1x4x4x8xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x4x4x8xf32, strided<[256, 64, 16, 1]>>, memref<1x1x8xf32>)
    outs(%y : memref<1x4x4x8xf32>) strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0]
  return
}
