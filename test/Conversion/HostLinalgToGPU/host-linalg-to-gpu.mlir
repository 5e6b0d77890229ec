// RUN: dwc-opt %s --convert-host-linalg-to-gpu --cse | FileCheck %s
// RUN: dwc-opt %s --convert-host-linalg-to-gpu=block-size=128 --cse | FileCheck %s --check-prefix=B128
// RUN: dwc-opt %s --pass-pipeline='builtin.module(convert-host-linalg-to-gpu,func.func(convert-parallel-loops-to-gpu))' | FileCheck %s --check-prefix=LAUNCH

#id = affine_map<(d0, d1) -> (d0, d1)>

// An element-wise generic: one thread per element, 1200 elements in blocks
// of 256 with a bounds guard, the flat index delinearized.
// CHECK-LABEL: func.func @elementwise
// CHECK-DAG: %[[C1200:.*]] = arith.constant 1200 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[C300:.*]] = arith.constant 300 : index
// CHECK: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%[[C1200]]) step (%[[C256]])
// CHECK: scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%[[C256]])
// CHECK: %[[J:.*]] = arith.addi %[[I]], %[[T]]
// CHECK: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %[[C1200]]
// CHECK: scf.if %[[IN]]
// CHECK-DAG: %[[COL:.*]] = arith.remsi %[[J]], %[[C300]]
// CHECK-DAG: %[[ROW:.*]] = arith.divsi %[[J]], %[[C300]]
// CHECK: %[[X:.*]] = memref.load %arg0[%[[ROW]], %[[COL]]]
// CHECK: %[[E:.*]] = math.erf %[[X]]
// CHECK: memref.store %[[E]], %arg1[%[[ROW]], %[[COL]]]
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_x
// B128-LABEL: func.func @elementwise
// B128: arith.constant 128 : index
// LAUNCH-LABEL: func.func @elementwise
// LAUNCH: gpu.launch blocks
// LAUNCH: math.erf
// LAUNCH: gpu.terminator
// LAUNCH-NOT: scf.parallel
func.func @elementwise(%a: memref<4x300xf32>, %b: memref<4x300xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4x300xf32>) outs(%b : memref<4x300xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.erf %x : f32
    linalg.yield %e : f32
  }
  return
}

// A reduction over the middle dimension: the parallel dimensions (d0, d2)
// are moved outermost and mapped; the reduction is a sequential loop in
// each thread.
// CHECK-LABEL: func.func @middle_reduction
// CHECK-DAG: %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG: %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG: %[[C24:.*]] = arith.constant 24 : index
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[C24]])
// CHECK: scf.parallel
// CHECK: scf.if
// CHECK-DAG: %[[D2:.*]] = arith.remsi %{{.*}}, %[[C6]]
// CHECK-DAG: %[[D0:.*]] = arith.divsi %{{.*}}, %[[C6]]
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[C5]]
// CHECK: memref.load %arg0[%[[D0]], %[[K]], %[[D2]]]
// CHECK: memref.load %arg1[%[[D0]], %[[D2]]]
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %arg1[%[[D0]], %[[D2]]]
func.func @middle_reduction(%a: memref<4x5x6xf32>, %b: memref<4x6xf32>) {
  linalg.reduce ins(%a : memref<4x5x6xf32>) outs(%b : memref<4x6xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// A full reduction (no parallel dimension) runs in one thread of one block
// (a loop shorter than a block gets a block of its length).
// CHECK-LABEL: func.func @full_reduction
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[C1]]) step (%[[C1]])
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[C1]]) step (%[[C1]])
// CHECK: scf.for %{{.*}} = %{{.*}} to %c7
// CHECK: memref.load %arg0[
// CHECK: memref.store %{{.*}}, %arg1[]
// CHECK: {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK: {mapping = [#gpu.loop_dim_map<processor = block_x
func.func @full_reduction(%a: memref<7xf32>, %b: memref<f32>) {
  linalg.reduce ins(%a : memref<7xf32>) outs(%b : memref<f32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// Named ops are generalized: a matmul is a thread per output element with
// the K loop inside.
// CHECK-LABEL: func.func @matmul
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c15)
// CHECK: scf.for
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @matmul(%a: memref<3x8xf32>, %b: memref<8x5xf32>, %c: memref<3x5xf32>) {
  linalg.matmul ins(%a, %b : memref<3x8xf32>, memref<8x5xf32>) outs(%c : memref<3x5xf32>)
  return
}

// A copy into a strided view (a pad's interior) becomes a kernel; a
// contiguous copy is left to convert-host-buffers-to-gpu (gpu.memcpy).
// CHECK-LABEL: func.func @copies
// CHECK: %[[SV:.*]] = memref.subview
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c48)
// CHECK: %[[V:.*]] = memref.load %arg0[
// CHECK: memref.store %[[V]], %[[SV]][
// CHECK: memref.copy %arg0, %arg2 : memref<1x3x4x4xf32> to memref<1x3x4x4xf32>
func.func @copies(%a: memref<1x3x4x4xf32>, %b: memref<1x3x6x6xf32>, %c: memref<1x3x4x4xf32>) {
  %sv = memref.subview %b[0, 0, 1, 1] [1, 3, 4, 4] [1, 1, 1, 1]
      : memref<1x3x6x6xf32> to memref<1x3x4x4xf32, strided<[108, 36, 6, 1], offset: 7>>
  memref.copy %a, %sv : memref<1x3x4x4xf32> to memref<1x3x4x4xf32, strided<[108, 36, 6, 1], offset: 7>>
  memref.copy %a, %c : memref<1x3x4x4xf32> to memref<1x3x4x4xf32>
  return
}

// Ops already in kernels are left alone.
// CHECK-LABEL: func.func @in_launch
// CHECK: gpu.launch
// CHECK-NEXT: linalg.fill
func.func @in_launch(%b: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z2 = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    linalg.fill ins(%z : f32) outs(%b : memref<4xf32>)
    gpu.terminator
  }
  return
}
