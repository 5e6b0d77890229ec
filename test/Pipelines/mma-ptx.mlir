// PTX of the f16/bf16 tensor-core kernel (convert-dwc-to-gpu-mma):
// m16n8k16 mma.sync with f32 accumulators (f16 and bf16), cp.async 16-byte
// copies (inputs .ca, filters .cg, zero-fill counts), commit/wait groups,
// 128-bit shared loads and global stores; ptxas: no spills. With the row
// ring (#dwc.mma_ring<ring = true>) f51 and bf16 take dynamic shared memory (the
// __dynamic_shmem__ symbol), f3 static shared memory (under 48 KB). Memref-level functions go through the pass and then
// the GPU half of dwc-to-nvvm, spelled out (with convert-nvgpu-to-nvvm)
// until the pass is wired into the pipeline (the buffer-deallocation
// passes at its start refuse cp.async groups, so the pass must run after
// them there).
// RUN: dwc-opt %s --pass-pipeline="builtin.module(convert-dwc-to-gpu-mma,convert-host-buffers-to-gpu,gpu-kernel-outlining,gpu.module(canonicalize,cse),func.func(llvm-request-c-wrappers,gpu-async-region),nvvm-attach-target{chip=sm_90 features=+ptx80 O=3},convert-scf-to-cf,expand-strided-metadata,lower-affine,gpu.module(convert-nvgpu-to-nvvm,convert-gpu-to-nvvm,canonicalize,cse,reconcile-unrealized-casts),gpu-to-llvm,finalize-memref-to-llvm,convert-to-llvm,reconcile-unrealized-casts,gpu-module-to-binary{format=isa},canonicalize)" > %t.mlir
// RUN: %PYTHON %S/Inputs/extract_ptx.py --out-dir %t.d < %t.mlir | FileCheck %s
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t.d/f3_mma_ring.ptx -o %t.a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t.d/f51_mma_ring.ptx -o %t.b.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t.d/bf16_mma_ring.ptx -o %t.c.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// CHECK-LABEL: .entry f3_mma_ring
// CHECK: .maxntid 128, 1, 1
// CHECK: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 16, {{.*}};
// CHECK: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, {{.*}};
// CHECK: cp.async.commit_group;
// CHECK: cp.async.commit_group;
// CHECK-NEXT: cp.async.wait_group 1;
// CHECK-NEXT: bar.sync 0;
// CHECK: ld.shared.v4.b32
// 16 channels per warp, one mma per channel and stage.
// CHECK-COUNT-16: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT: mma.sync
// CHECK: bar.sync 0;
// CHECK: st.global.v4.b32
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS: bytes smem
func.func @f3(%x: memref<2x16x32x64xf16>, %w: memref<3x3x64xf16>, %y: memref<2x16x32x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<2x16x32x64xf16>, memref<3x3x64xf16>) outs(%y : memref<2x16x32x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.mma_ring<ring = true, frags_per_stage = 1, warp_channels = 16>}
  return
}

// CHECK-LABEL: .entry f51_mma_ring
// CHECK: .shared .align 16 .b8 __dynamic_shmem__0
// CHECK: cp.async.ca.shared.global
// CHECK: cp.async.wait_group 1;
// CHECK-COUNT-16: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT: mma.sync
func.func @f51(%x: memref<1x64x64x256xf16>, %w: memref<51x51x256xf16>, %y: memref<1x64x64x256xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x64x64x256xf16>, memref<51x51x256xf16>) outs(%y : memref<1x64x64x256xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [25, 25, 25, 25] {dwc.kernel = #dwc.mma_ring<ring = true, frags_per_stage = 6, warp_channels = 16>}
  return
}

// CHECK-LABEL: .entry bf16_mma_ring
// CHECK: cp.async.ca.shared.global
// CHECK: cp.async.wait_group 1;
// CHECK-COUNT-16: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK-NOT: mma.sync
// CHECK: st.global.v4.b32
func.func @bf16(%x: memref<1x20x128x72xbf16>, %w: memref<5x5x72xbf16>, %b: memref<72xbf16>, %y: memref<1x20x128x72xbf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x20x128x72xbf16>, memref<5x5x72xbf16>) bias(%b : memref<72xbf16>) outs(%y : memref<1x20x128x72xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.mma_ring<ring = true, frags_per_stage = 1, warp_channels = 16>}
  return
}
