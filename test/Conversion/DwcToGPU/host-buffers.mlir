// convert-host-buffers-to-gpu: host-side buffer management becomes GPU
// buffer management; host code that would touch buffer contents is refused.
// RUN: dwc-opt %s --convert-host-buffers-to-gpu -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @alloc_copy_dealloc
// CHECK-SAME: (%[[A:.*]]: memref<1x8x8x16xf32>, %[[B:.*]]: memref<1x8x8x16xf32>)
// CHECK: %[[T:.*]] = gpu.alloc () : memref<1x8x8x16xf32>
// CHECK: gpu.memcpy %[[T]], %[[A]] : memref<1x8x8x16xf32>, memref<1x8x8x16xf32>
// CHECK: gpu.memcpy %[[B]], %[[T]] : memref<1x8x8x16xf32>, memref<1x8x8x16xf32>
// CHECK: gpu.dealloc %[[T]] : memref<1x8x8x16xf32>
// CHECK-NOT: memref.
func.func @alloc_copy_dealloc(%a: memref<1x8x8x16xf32>, %b: memref<1x8x8x16xf32>) {
  %t = memref.alloc() {alignment = 64 : i64} : memref<1x8x8x16xf32>
  memref.copy %a, %t : memref<1x8x8x16xf32> to memref<1x8x8x16xf32>
  memref.copy %t, %b : memref<1x8x8x16xf32> to memref<1x8x8x16xf32>
  memref.dealloc %t : memref<1x8x8x16xf32>
  return
}

// -----

// Ops inside gpu.launch are device code and stay as they are.
// CHECK-LABEL: func.func @device_code_untouched
// CHECK: gpu.launch
// CHECK: memref.load
// CHECK: memref.store
func.func @device_code_untouched(%a: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<4xf32>
    memref.store %v, %a[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// A constant (memref.get_global) gets a device copy, freed before returning.
memref.global "private" constant @weights : memref<3x3x16xf32> = dense<1.0>
// CHECK-LABEL: func.func @constant
// CHECK: %[[H:.*]] = memref.get_global @weights : memref<3x3x16xf32>
// CHECK: %[[D:.*]] = gpu.alloc () : memref<3x3x16xf32>
// CHECK: gpu.memcpy %[[D]], %[[H]]
// CHECK: call @use(%[[D]])
// CHECK: gpu.dealloc %[[D]]
// CHECK-NEXT: return
func.func private @use(memref<3x3x16xf32>)
func.func @constant() {
  %w = memref.get_global @weights : memref<3x3x16xf32>
  call @use(%w) : (memref<3x3x16xf32>) -> ()
  return
}

// -----

func.func @host_load(%a: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'memref.load' reads or writes a buffer on the host, but in the GPU pipeline every buffer is device memory}}
  %v = memref.load %a[%c0] : memref<4xf32>
  return %v : f32
}

// -----

func.func @host_alloca() {
  // expected-error @+1 {{memref.alloca in host code}}
  %a = memref.alloca() : memref<4xf32>
  return
}

// -----

func.func @strided_copy(%a: memref<4x4xf32, strided<[8, 1]>>, %b: memref<4x4xf32>) {
  // expected-error @+1 {{memref.copy between non-contiguous buffers has no GPU lowering}}
  memref.copy %a, %b : memref<4x4xf32, strided<[8, 1]>> to memref<4x4xf32>
  return
}
