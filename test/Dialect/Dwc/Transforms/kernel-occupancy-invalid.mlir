// dwc-kernel-occupancy refuses a blocks-per-SM marker below 1.
// RUN: dwc-opt %s --dwc-kernel-occupancy -verify-diagnostics
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @bad(%p: memref<4xf32>) kernel {
      // expected-error @+1 {{dwc.min_blocks_per_sm must be at least 1}}
      %c0 = arith.constant {dwc.min_blocks_per_sm = 0 : i64} 0 : index
      %f = arith.constant 1.0 : f32
      memref.store %f, %p[%c0] : memref<4xf32>
      gpu.return
    }
  }
}
