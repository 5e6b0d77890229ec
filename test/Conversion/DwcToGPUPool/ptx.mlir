// The pooling kernels in PTX: 128-bit global loads and stores (f32 x 4 and
// f16 x 8 travel as .v4.b32), several outputs stored per thread (the width
// strip), f16 averaged in f32. format=isa stops at PTX text: no ptxas.
// The ops are given in memref form and lowered by convert-dwc-to-gpu-pool
// explicitly, then by the whole dwc-to-nvvm pipeline (global_avg_pool is
// not here: its gpu.barrier would reach the pipeline's buffer-deallocation
// passes, which run before the GPU passes in the real pipeline).
// (max backward recomputes its argmax here: the stored-argmax workspace
// dealloc would meet the buffer-deallocation passes too, see
// test/Pipelines/pool-backward-ptx.mlir for it through the real pipeline.)
// (3x3 stride 2 forward as single-row strips, #dwc.pool_forward<rows = 1>.)
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-pool --dwc-to-nvvm="format=isa" | FileCheck %s

// CHECK: .entry max_f32_pool_forward
// CHECK: ld.global.v4.b32
// CHECK: max.NaN.f32
// CHECK-COUNT-4: st.global.v4.b32
// CHECK-NOT: st.global
// CHECK: ret;
func.func @max_f32(%x: memref<1x8x8x16xf32>, %y: memref<1x4x4x16xf32>) {
  dwc.pool2d max ins(%x : memref<1x8x8x16xf32>) outs(%y : memref<1x4x4x16xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.pool_forward<rows = 1>}
  return
}

// CHECK: .entry avg_f16_pool_forward
// CHECK: ld.global.v4.b32
// CHECK: cvt.f32.f16
// CHECK: add.{{(rn.)?}}f32
// CHECK: cvt.rn.f16x2.f32
// CHECK: st.global.v4.b32
// CHECK: ret;
func.func @avg_f16(%x: memref<1x8x8x16xf16>, %y: memref<1x4x4x16xf16>) {
  dwc.pool2d avg ins(%x : memref<1x8x8x16xf16>) outs(%y : memref<1x4x4x16xf16>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] count_include_pad {dwc.kernel = #dwc.pool_forward<rows = 1>}
  return
}

// CHECK: .entry max_bwd_pool_backward
// CHECK: ld.global.v4.b32
// CHECK: setp.gt.f32
// CHECK-COUNT-4: st.global.v4.b32
// CHECK: ret;
func.func @max_bwd(%x: memref<1x8x8x16xf32>, %dy: memref<1x4x4x16xf32>, %dx: memref<1x8x8x16xf32>) {
  dwc.pool2d_backward max ins(%x, %dy : memref<1x8x8x16xf32>, memref<1x4x4x16xf32>) outs(%dx : memref<1x8x8x16xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.pool_backward<argmax = "recompute">}
  return
}
