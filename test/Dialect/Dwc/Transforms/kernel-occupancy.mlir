// dwc-kernel-occupancy: dwc.min_blocks_per_sm markers inside a kernel
// become nvvm.minctasm on the gpu.func (the largest marker; a larger
// existing value is kept), markers are removed everywhere; the NVVM
// lowering turns the attribute into .minnctapersm. dwc.max_registers
// markers become nvvm.maxnreg (the smallest marker, or a smaller existing
// value), .maxnreg in PTX. A marker out of range is an error
// (kernel-occupancy-invalid.mlir).
// RUN: dwc-opt %s --dwc-kernel-occupancy | FileCheck %s
// RUN: dwc-opt %s --pass-pipeline="builtin.module(dwc-kernel-occupancy,nvvm-attach-target{chip=sm_90 features=+ptx80},gpu.module(convert-gpu-to-nvvm,reconcile-unrealized-casts),gpu-module-to-binary{format=isa})" | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: gpu.func @two
// CHECK-SAME: nvvm.minctasm = 3 : i32
// CHECK-NOT: dwc.min_blocks_per_sm
// CHECK-LABEL: gpu.func @none
// CHECK-NOT: nvvm.minctasm
// CHECK-LABEL: gpu.func @keep
// CHECK-SAME: nvvm.minctasm = 4 : i32
// CHECK-NOT: dwc.min_blocks_per_sm
// CHECK-LABEL: gpu.func @regs
// CHECK-SAME: nvvm.maxnreg = 128 : i32
// CHECK-NOT: dwc.max_registers
// CHECK-LABEL: gpu.func @regs_keep
// CHECK-SAME: nvvm.maxnreg = 64 : i32
// CHECK-NOT: dwc.max_registers
// PTX: .entry two
// PTX: .minnctapersm 3
// PTX: .entry regs
// PTX: .maxnreg 128
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @two(%p: memref<4xf32>) kernel {
      %c0 = arith.constant {dwc.min_blocks_per_sm = 2 : i64} 0 : index
      %f = arith.constant {dwc.min_blocks_per_sm = 3 : i64} 1.0 : f32
      memref.store %f, %p[%c0] : memref<4xf32>
      gpu.return
    }
    gpu.func @none(%p: memref<4xf32>) kernel {
      gpu.return
    }
    gpu.func @keep(%p: memref<4xf32>) kernel attributes {nvvm.minctasm = 4 : i32} {
      %c0 = arith.constant {dwc.min_blocks_per_sm = 2 : i64} 0 : index
      %f = arith.constant 1.0 : f32
      memref.store %f, %p[%c0] : memref<4xf32>
      gpu.return
    }
    gpu.func @regs(%p: memref<4xf32>) kernel {
      %c0 = arith.constant {dwc.max_registers = 255 : i64} 0 : index
      %f = arith.constant {dwc.max_registers = 128 : i64} 1.0 : f32
      memref.store %f, %p[%c0] : memref<4xf32>
      gpu.return
    }
    gpu.func @regs_keep(%p: memref<4xf32>) kernel attributes {nvvm.maxnreg = 64 : i32} {
      %c0 = arith.constant {dwc.max_registers = 255 : i64} 0 : index
      %f = arith.constant 1.0 : f32
      memref.store %f, %p[%c0] : memref<4xf32>
      gpu.return
    }
  }
}
