// RUN: dwc-opt %s --dwc-approximate-tanh | FileCheck %s

// An f32 tanh that allows approximate functions becomes tanh.approx.f32.
// CHECK-LABEL: func @approximate
// CHECK: llvm.inline_asm "tanh.approx.f32 $0, $1;", "=f,f" %{{.*}} : (f32) -> f32
// CHECK-NOT: math.tanh
func.func @approximate(%x: f32) -> f32 {
  %t = math.tanh %x fastmath<afn> : f32
  return %t : f32
}

// Refusals: an exact tanh, other types and vectors stay for the upstream
// lowering.
// CHECK-LABEL: func @left
// CHECK-NOT: llvm.inline_asm
// CHECK: math.tanh %{{.*}} : f32
// CHECK: math.tanh %{{.*}} fastmath<afn> : f16
// CHECK: math.tanh %{{.*}} fastmath<afn> : f64
// CHECK: math.tanh %{{.*}} fastmath<afn> : vector<4xf32>
func.func @left(%a: f32, %b: f16, %c: f64, %d: vector<4xf32>) -> (f32, f16, f64, vector<4xf32>) {
  %0 = math.tanh %a : f32
  %1 = math.tanh %b fastmath<afn> : f16
  %2 = math.tanh %c fastmath<afn> : f64
  %3 = math.tanh %d fastmath<afn> : vector<4xf32>
  return %0, %1, %2, %3 : f32, f16, f64, vector<4xf32>
}

// Inside a GPU module, as the dwc-to-nvvm pipeline runs it.
// CHECK-LABEL: gpu.module @kernels
// CHECK: llvm.inline_asm "tanh.approx.f32
gpu.module @kernels {
  gpu.func @k(%x: f32, %m: memref<f32>) kernel {
    %t = math.tanh %x fastmath<afn,contract> : f32
    memref.store %t, %m[] : memref<f32>
    gpu.return
  }
}
