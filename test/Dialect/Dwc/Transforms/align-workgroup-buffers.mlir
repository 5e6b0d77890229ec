// dwc-align-workgroup-buffers: every workgroup attribution of a gpu.func
// gets llvm.align >= 16 (larger ones kept, private attributions untouched);
// the NVVM lowering then emits a 16-byte aligned shared global.
// RUN: dwc-opt %s --dwc-align-workgroup-buffers | FileCheck %s
// RUN: dwc-opt %s --dwc-align-workgroup-buffers --convert-gpu-to-nvvm | FileCheck %s --check-prefix=NVVM
// RUN: dwc-opt %s --dwc-align-workgroup-buffers=alignment=32 | FileCheck %s --check-prefix=A32
// RUN: not dwc-opt %s --dwc-align-workgroup-buffers=alignment=12 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: alignment must be a power of two

// CHECK-LABEL: gpu.func @k
// CHECK-SAME: workgroup(%{{.*}} : memref<64xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<8xf16, #gpu.address_space<workgroup>> {llvm.align = 64 : i64})
// CHECK-SAME: private(%{{.*}} : memref<4xf32, #gpu.address_space<private>>)
// NVVM: llvm.mlir.global internal @__wg_k_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x f32>
// NVVM: llvm.mlir.global internal @__wg_k_1() {addr_space = 3 : i32, alignment = 64 : i64} : !llvm.array<8 x f16>
// A32: workgroup(%{{.*}} : memref<64xf32, #gpu.address_space<workgroup>> {llvm.align = 32 : i64}, %{{.*}} : memref<8xf16, #gpu.address_space<workgroup>> {llvm.align = 64 : i64})
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%p: memref<64xf32>)
        workgroup(%a : memref<64xf32, #gpu.address_space<workgroup>>,
                  %h : memref<8xf16, #gpu.address_space<workgroup>> {llvm.align = 64 : i64})
        private(%r : memref<4xf32, #gpu.address_space<private>>) kernel {
      %c0 = arith.constant 0 : index
      %v = vector.load %p[%c0] : memref<64xf32>, vector<4xf32>
      vector.store %v, %a[%c0] : memref<64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      gpu.return
    }
  }
}
