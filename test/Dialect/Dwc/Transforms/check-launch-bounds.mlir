// dwc-check-launch-bounds rejects constant grids and blocks the GPU cannot
// launch (empty, too many blocks or threads) and accepts the others.
// RUN: dwc-opt %s --dwc-check-launch-bounds -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @ok
func.func @ok(%n: index) {
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %big = arith.constant 2147483647 : index
  %c65535 = arith.constant 65535 : index
  // CHECK: gpu.launch
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %big, %gy = %c65535, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1024, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  // Dynamic sizes are left alone.
  // CHECK: gpu.launch
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}

// -----

func.func @empty_grid() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{kernel launch with 0 blocks along x (the GPU takes 1 to 2147483647)}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c0, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}

// -----

func.func @grid_x() {
  %c1 = arith.constant 1 : index
  %big = arith.constant 2147483648 : index
  // expected-error @+1 {{kernel launch with 2147483648 blocks along x}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %big, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}

// -----

func.func @grid_y() {
  %c1 = arith.constant 1 : index
  %c65536 = arith.constant 65536 : index
  // expected-error @+1 {{kernel launch with 65536 blocks along y (the GPU takes 1 to 65535)}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c65536, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}

// -----

func.func @grid_z() {
  %c1 = arith.constant 1 : index
  %c65536 = arith.constant 65536 : index
  // expected-error @+1 {{kernel launch with 65536 blocks along z}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c65536)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}

// -----

func.func @block_x() {
  %c1 = arith.constant 1 : index
  %c2048 = arith.constant 2048 : index
  // expected-error @+1 {{kernel launch with 2048 threads along x (the GPU takes 1 to 1024)}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c2048, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}

// -----

func.func @block_y() {
  %c1 = arith.constant 1 : index
  %c2048 = arith.constant 2048 : index
  // expected-error @+1 {{kernel launch with 2048 threads along y}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c2048, %sz = %c1) {
    gpu.terminator
  }
  return
}

// -----

func.func @block_z() {
  %c1 = arith.constant 1 : index
  %c65 = arith.constant 65 : index
  // expected-error @+1 {{kernel launch with 65 threads along z (the GPU takes 1 to 64)}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c65) {
    gpu.terminator
  }
  return
}

// -----

func.func @block_total() {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{kernel launch with blocks of more than 1024 threads}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c64, %sz = %c1) {
    gpu.terminator
  }
  return
}
