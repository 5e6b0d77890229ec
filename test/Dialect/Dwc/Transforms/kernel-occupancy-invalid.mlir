// dwc-kernel-occupancy refuses a blocks-per-SM marker outside [1, 32] (a
// larger one used to be truncated to .minnctapersm 0).
// RUN: dwc-opt %s --dwc-kernel-occupancy -split-input-file -verify-diagnostics
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @bad(%p: memref<4xf32>) kernel {
      // expected-error @+1 {{dwc.min_blocks_per_sm must be in [1, 32], got 0}}
      %c0 = arith.constant {dwc.min_blocks_per_sm = 0 : i64} 0 : index
      %f = arith.constant 1.0 : f32
      memref.store %f, %p[%c0] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @huge(%p: memref<4xf32>) kernel {
      // expected-error @+1 {{dwc.min_blocks_per_sm must be in [1, 32], got 4611686018427387904}}
      %c0 = arith.constant {dwc.min_blocks_per_sm = 4611686018427387904 : i64} 0 : index
      %f = arith.constant 1.0 : f32
      memref.store %f, %p[%c0] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// Register budgets outside [16, 255].
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @regs(%p: memref<4xf32>) kernel {
      // expected-error @+1 {{dwc.max_registers must be in [16, 255], got 256}}
      %c0 = arith.constant {dwc.max_registers = 256 : i64} 0 : index
      %f = arith.constant 1.0 : f32
      memref.store %f, %p[%c0] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @few_regs(%p: memref<4xf32>) kernel {
      // expected-error @+1 {{dwc.max_registers must be in [16, 255], got 8}}
      %c0 = arith.constant {dwc.max_registers = 8 : i64} 0 : index
      %f = arith.constant 1.0 : f32
      memref.store %f, %p[%c0] : memref<4xf32>
      gpu.return
    }
  }
}
