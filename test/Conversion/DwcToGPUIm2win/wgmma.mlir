// convert-dwc-to-gpu-im2win on an sm_90a target: f16/bf16 convolutions
// get #dwc.im2win_wgmma from dwc-select-kernels (or as written on the op,
// the fields filled in), the Hopper warpgroup-MMA kernel: one warpgroup (128
// threads, 64 x 128 tiles, 2 static stages aligned by llvm.align; the
// automatic choice below 2048 blocks of 128 rows, as for these small
// shapes) or two (warpgroups = 2: 256 threads, 128 x 128 tiles, 3 stages of
// 32 KB in dynamic shared memory aligned to 1024 bytes in the kernel); K
// tiles of 64, 128-byte swizzled cp.async copies, four nvvm.wgmma.mma_async
// per tile, wait_group 0 before the next tile, or, with overlap = true,
// wait_group 1 (the tile's group in flight while the next copies are
// issued; 4 stages, here 96 KB of dynamic shared memory; wait_group 0 in the
// last iteration). The other kernels stay available as configurations:
// #dwc.im2win_mma (also for C = 3 windows under 64 elements) and, for f32,
// #dwc.im2win_simt. Each RUN line rewrites the ops' configuration with sed
// (the variant the old pass options selected); configurations that do not
// fit are verifier errors.
// RUN: dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-im2win -split-input-file %s | FileCheck %s
// RUN: sed 's/im2win_wgmma<>/im2win_wgmma<warpgroups = 2>/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-im2win -split-input-file | FileCheck %s --check-prefix=TWO
// RUN: sed 's/im2win_wgmma<>/im2win_wgmma<overlap = true>/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-im2win -split-input-file | FileCheck %s --check-prefix=OVL
// RUN: sed 's/im2win_wgmma<>/im2win_mma<async_copy = false>/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-im2win -split-input-file | FileCheck %s --check-prefix=NOASYNC
// RUN: sed 's/im2win_wgmma<>/im2win_mma<>/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-im2win -split-input-file | FileCheck %s --check-prefix=OFF
// RUN: sed 's/im2win_wgmma<>/im2win_wgmma<staged_stores = false>/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-im2win -split-input-file | FileCheck %s --check-prefix=NOSTAGE
// RUN: sed 's/im2win_wgmma<>/im2win_wgmma<tma_im2col = false>/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-im2win -split-input-file | FileCheck %s --check-prefix=NOTMAI
// RUN: sed 's/im2win_wgmma<>/im2win_mma<>/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-im2win -split-input-file | FileCheck %s --check-prefix=NOPAD
// RUN: sed 's/im2win_mma<>/im2win_wgmma<>/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-im2win -split-input-file | FileCheck %s --check-prefix=PADALL
// RUN: sed 's/im2win_wgmma<>/im2win_wgmma<specialize = true>/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-im2win -split-input-file | FileCheck %s --check-prefix=SPEC
// RUN: sed -e 's/im2win_wgmma<>/im2win_wgmma<specialize = true, warpgroups = 2>/' -e 's/sm_count = 132/sm_count = 4/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-im2win -split-input-file | FileCheck %s --check-prefix=SPEC2
// RUN: sed 's/im2win_wgmma<>/im2win_wgmma<tma_filter = true>/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-im2win -split-input-file | FileCheck %s --check-prefix=TMA
// RUN: sed 's/im2win_wgmma<>/im2win_wgmma<specialize = true, tma_filter = true>/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-im2win -split-input-file | FileCheck %s --check-prefix=SPECT
// RUN: sed 's/im2win_wgmma<>/im2win_wgmma<warpgroups = 3>/' %s | not dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-im2win -split-input-file 2>&1 | FileCheck %s --check-prefix=BADWG
// RUN: sed 's/im2win_wgmma<>/im2win_wgmma<specialize = true, overlap = true>/' %s | not dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-im2win -split-input-file 2>&1 | FileCheck %s --check-prefix=BADSPEC
// On sm_90 (no wgmma) the configuration is refused:
// RUN: sed 's/sm_90a/sm_90/' %s | not dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-im2win -split-input-file 2>&1 | FileCheck %s --check-prefix=SM90

// BADWG: 'dwc.kernel' #dwc.im2win_wgmma<warpgroups = 3> does not fit this op: warpgroups = 3 is not 1, 2 or 4
// BADSPEC: does not fit this op: specialize excludes overlap and barriers = 1
// SM90: does not fit this op: target sm_90 has no wgmma (sm_90a has)

// CHECK-LABEL: func @f16
// (Stride 2: no im2col tensor map, the A tiles by the cp.async gather.)
// CHECK-NOT: dwcTensorMapIm2col
// CHECK: gpu.launch_func @f16_im2win_wgmma::@f16_im2win_wgmma {{.*}} threads in (%c128{{.*}}) args
// CHECK: gpu.func @f16_im2win_wgmma({{.*}}) workgroup(%{{.*}} : memref<2x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %{{.*}} : memref<4x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK: memref.extract_aligned_pointer_as_index
// CHECK: memref.extract_aligned_pointer_as_index
// CHECK: nvgpu.device_async_copy {{.*}} 8, %{{.*}} : memref<{{.*}}xf16> to memref<2x64x64xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_copy {{.*}} 8 {bypassL1} : memref<{{.*}}x128xf16> to memref<4x64x64xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_create_group
// CHECK: scf.for
// CHECK: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: gpu.barrier
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: gpu.barrier
// CHECK: scf.yield
// Staged stores: all copies done, barrier, the f16 fragments into the idle
// B buffers (row pitch 136), barrier, 16-byte rows chunks to the output.
// CHECK: nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK: memref.collapse_shape %{{.*}} {{\[}}[0, 1, 2]] : memref<4x64x64xf16, #gpu.address_space<workgroup>> into memref<16384xf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-32: llvm.extractvalue
// CHECK: arith.truncf %{{.*}} : vector<2xf32> to vector<2xf16>
// CHECK: vector.store %{{.*}} : memref<16384xf16, #gpu.address_space<workgroup>>, vector<2xf16>
// CHECK: gpu.barrier
// CHECK: vector.load %{{.*}} : memref<16384xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: vector.store %{{.*}} : memref<32x128xf16>, vector<8xf16>
// NOSTAGE-LABEL: func @f16
// NOSTAGE-NOT: memref<16384xf16
// NOSTAGE: vector.store %{{.*}} : memref<32x128xf16>, vector<2xf16>
// Warp specialisation: one copying warpgroup + one multiplying (256
// threads), a persistent grid (here the one tile), 3 stages of 24 KB +
// 6 mbarriers + 4 per-warp staging areas (16 x 136 f16) in dynamic shared
// memory; thread 0 initialises full[s] (128 arrivals) and empty[s] (128);
// the copying warpgroup waits for a free stage, issues its copies, hands K
// tile it - 1 over (wait_group 1, proxy fence, arrive) and the rest after
// its loop; the multiplying one waits for a full stage, keeps one wgmma
// group in flight and frees the previous stage; each warp stages its 16
// output rows and syncs only itself.
// SPEC-LABEL: func @f16
// SPEC: gpu.launch_func @f16_im2win_wgmma::@f16_im2win_wgmma blocks in (%c1{{.*}}, %c1, %c1) threads in (%c256{{.*}}) dynamic_shared_memory_size %c92208_i32
// SPEC: gpu.func @f16_im2win_wgmma
// SPEC: gpu.grid_dim x
// SPEC: nvvm.mbarrier.init %{{.*}}, %c128_i32 : !llvm.ptr<3>, i32
// SPEC: gpu.barrier
// SPEC: scf.if
// SPEC: scf.for
// SPEC: scf.for
// SPEC: nvvm.mbarrier.try_wait.parity
// SPEC: nvgpu.device_async_copy
// SPEC: nvgpu.device_async_create_group
// SPEC: scf.if
// SPEC-NEXT: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// SPEC-NEXT: nvvm.fence.proxy
// SPEC: nvvm.mbarrier.arrive
// SPEC: } else {
// SPEC: scf.for
// SPEC: nvvm.mbarrier.try_wait.parity
// SPEC-COUNT-4: nvvm.wgmma.mma_async
// SPEC: nvvm.wgmma.wait.group.sync.aligned 1
// SPEC: nvvm.mbarrier.arrive
// SPEC: nvvm.wgmma.wait.group.sync.aligned 0
// SPEC: nvvm.mbarrier.arrive
// SPEC: vector.store %{{.*}} : memref<8704xf16, #gpu.address_space<workgroup>>, vector<2xf16>
// SPEC: nvvm.bar.warp.sync
// SPEC: vector.load %{{.*}} : memref<8704xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// SPEC: vector.store %{{.*}} : memref<32x128xf16>, vector<8xf16>
// SPEC: nvvm.bar.warp.sync
// SPEC-NOT: gpu.barrier
// SPEC: gpu.return
// tma_filter: the host asks the runtime for the filter's tensor map (K x OC =
// 576 x 128, row stride 256 bytes, 64 x 64 boxes, f16 = 6, 128-byte swizzle
// = 3) and passes it as an i64; the kernel does nothing without one (0);
// thread 0 initialises one mbarrier per stage (1 arrival) and, per tile,
// expects its 16 KB and issues one bulk tensor copy per 64-channel half;
// every thread waits on the stage's phase after the cp.async wait.
// TMA: func.func private @dwcTensorMap2D(i64, i64, i64, i64, i32, i32, i32, i32) -> i64
// TMA-LABEL: func @f16
// TMA: %[[TM:.*]] = call @dwcTensorMap2D(%{{.*}}, %c576_i64, %c128_i64, %c256_i64, %c64_i32, %c64_i32{{.*}}, %c6_i32, %c3_i32) : (i64, i64, i64, i64, i32, i32, i32, i32) -> i64
// TMA: gpu.launch_func @f16_im2win_wgmma::@f16_im2win_wgmma {{.*}} dynamic_shared_memory_size %c50208_i32 args({{.*}}, %[[TM]] : i64)
// TMA: gpu.func @f16_im2win_wgmma({{.*}}, %[[ARG:.*]]: i64) kernel
// TMA: arith.cmpi ne, %[[ARG]], %c0_i64
// TMA: scf.if
// TMA: %[[DESC:.*]] = llvm.inttoptr %[[ARG]] : i64 to !llvm.ptr
// TMA: nvvm.mbarrier.init %{{.*}}, %c1_i32 : !llvm.ptr<3>, i32
// TMA: gpu.barrier
// TMA: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c16384_i32 : !llvm.ptr<3>, i32
// TMA: llvm.addrspacecast %{{.*}} : !llvm.ptr<3> to !llvm.ptr<7>
// TMA-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[DESC]], %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// TMA: scf.for
// TMA: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// TMA: nvvm.mbarrier.try_wait.parity
// TMA: nvvm.fence.proxy
// TMA: gpu.barrier
// TMA-COUNT-4: nvvm.wgmma.mma_async
// SPEC2-LABEL: func @f16
// SPEC2: threads in (%c384{{.*}}) dynamic_shared_memory_size %c199760_i32
// With tma_filter the first copying thread only expects the B bytes on
// full[s] (the copying threads arrive themselves).
// SPECT-LABEL: func @f16
// SPECT: scf.for
// SPECT: nvvm.mbarrier.try_wait.parity
// SPECT: nvvm.mbarrier.expect_tx %{{.*}}, %c16384_i32 : !llvm.ptr<3>, i32
// SPECT-NOT: nvvm.mbarrier.arrive.expect_tx
// SPECT: nvvm.cp.async.bulk.tensor.shared.cluster.global
// TWO-LABEL: func @f16
// TWO: gpu.launch_func @f16_im2win_wgmma::@f16_im2win_wgmma {{.*}} threads in (%c256{{.*}}) dynamic_shared_memory_size %c99328_i32
// TWO: gpu.func @f16_im2win_wgmma({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// TWO: %[[RAW:.*]] = gpu.dynamic_shared_memory
// TWO: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[RAW]]
// TWO: %[[NEG:.*]] = arith.subi %{{.*}}, %[[BASE]]
// TWO: %[[PAD:.*]] = arith.andi %[[NEG]], %c1023
// TWO: memref.view %[[RAW]][%[[PAD]]][] : {{.*}} to memref<3x128x64xf16, #gpu.address_space<workgroup>>
// TWO: memref.view %[[RAW]]{{.*}} to memref<6x64x64xf16, #gpu.address_space<workgroup>>
// TWO: scf.for
// TWO: nvgpu.device_async_wait %{{.*}} {numGroups = 2 : i32}
// TWO: arith.divui %{{.*}}, %c128
// TWO-COUNT-4: nvvm.wgmma.mma_async
// OVL-LABEL: func @f16
// OVL: threads in (%c128{{.*}}) dynamic_shared_memory_size %c99328_i32
// OVL: memref.view {{.*}} to memref<4x64x64xf16, #gpu.address_space<workgroup>>
// OVL: memref.view {{.*}} to memref<8x64x64xf16, #gpu.address_space<workgroup>>
// OVL: nvgpu.device_async_wait %{{.*}} {numGroups = 3 : i32}
// OVL: scf.for
// OVL: nvvm.fence.proxy
// OVL: gpu.barrier
// OVL-COUNT-4: nvvm.wgmma.mma_async
// OVL: nvvm.wgmma.commit.group.sync.aligned
// OVL: scf.if
// OVL: nvvm.wgmma.wait.group.sync.aligned 1
// OVL: } else {
// OVL: nvvm.wgmma.wait.group.sync.aligned 0
// OVL: gpu.barrier
// OVL: nvgpu.device_async_copy
// OVL: nvgpu.device_async_wait %{{.*}} {numGroups = 2 : i32}
// OVL: scf.yield
// NOASYNC-LABEL: func @f16
// NOASYNC-NOT: nvvm.wgmma
// NOASYNC: nvgpu.mma.sync
// OFF-LABEL: func @f16
// OFF-NOT: nvvm.wgmma
// OFF: nvgpu.mma.sync
module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @f16(%x: memref<2x9x9x64xf16>, %w: memref<3x3x64x128xf16>, %b: memref<128xf16>, %y: memref<2x4x4x128xf16>) {
    dwc.conv2d ins(%x, %w : memref<2x9x9x64xf16>, memref<3x3x64x128xf16>) bias(%b : memref<128xf16>) outs(%y : memref<2x4x4x128xf16>)
      strides = [2, 2] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<>}
    return
  }
}

// -----

// bf16, OC = 72 (not a multiple of the 128-channel tile: zero-filled B
// columns, guarded stores), C = 24 (K tiles straddle filter taps).
// CHECK-LABEL: func @bf16
// (C = 24: K tiles straddle taps, no im2col tensor map.)
// CHECK-NOT: dwcTensorMapIm2col
// CHECK: nvvm.wgmma.mma_async {{.*}} A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK: scf.if
// CHECK: vector.store %{{.*}} : memref<{{.*}}x72xbf16>, vector<8xbf16>
module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @bf16(%x: memref<1x8x8x24xbf16>, %w: memref<3x3x24x72xbf16>, %y: memref<1x8x8x72xbf16>) {
    dwc.conv2d ins(%x, %w : memref<1x8x8x24xbf16>, memref<3x3x24x72xbf16>) outs(%y : memref<1x8x8x72xbf16>)
      strides = [1, 1] dilations = [2, 2] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.im2win_wgmma<>}
    return
  }
}

// -----

// OC <= 64: 64-channel tiles (m64n64k16). C % 64 == 0 with unit strides:
// by default both operands by TMA - the filter's tiled map and the input's
// im2col map (1 x 8 x 8 x 64, window corner over [0, 5] x [0, 5]: upper
// corners -2, 64 channels x 64 pixels per copy) from the runtime, one
// mbarrier per stage (3 stages, dynamic shared memory); thread 0 expects
// both tiles' bytes (8 KB + 8 KB) and issues the im2col box (tap offsets
// fw, fh) and the filter box. tma_im2col = false: cp.async, three
// static 16 KB stages.
// CHECK-LABEL: func @oc64
// CHECK: call @dwcTensorMap2D(%{{.*}}, %c576_i64, %c64_i64, %c128_i64,
// CHECK: call @dwcTensorMapIm2col(%{{.*}}, %c1_i64, %c8_i64, %c8_i64{{.*}}, %c64_i64{{.*}}, %c0_i32, %c0_i32{{.*}}, %c-2_i32, %c-2_i32{{.*}}, %c64_i32{{.*}}, %c64_i32{{.*}}, %c6_i32{{.*}}, %c3_i32{{.*}})
// CHECK: gpu.func @oc64_im2win_wgmma({{.*}}, %{{.*}}: i64, %{{.*}}: i64) kernel
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c16384_i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[%{{.*}}, %{{.*}}] :
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] im2col[%{{.*}}, %{{.*}}] {mode = #nvvm.tma_load_mode<im2col>}
// CHECK: scf.for
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>
// NOTMAI-LABEL: func @oc64
// NOTMAI: gpu.func @oc64_im2win_wgmma({{.*}}) workgroup(%{{.*}} : memref<3x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %{{.*}} : memref<3x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
// NOTMAI-NOT: nvvm.cp.async.bulk.tensor
// NOTMAI-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>
module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @oc64(%x: memref<1x8x8x64xf16>, %w: memref<3x3x64x64xf16>, %y: memref<1x6x6x64xf16>) {
    dwc.conv2d ins(%x, %w : memref<1x8x8x64xf16>, memref<3x3x64x64xf16>) outs(%y : memref<1x6x6x64xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<>}
    return
  }
}

// -----

// C = 3, 3 x 3 window (27 < pad-min-k elements): no 16-byte A chunk; the
// mma.sync kernel takes it; asked for #dwc.im2win_wgmma it is padded as
// below.
// CHECK-LABEL: func @c3
// CHECK-NOT: nvvm.wgmma
// CHECK: nvgpu.mma.sync
// PADALL-LABEL: func @c3
// PADALL: memref.alloc() : memref<1x15x15x4xf16>
// PADALL: nvvm.wgmma.mma_async
module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @c3(%x: memref<1x15x15x3xf16>, %w: memref<3x3x3x64xf16>, %y: memref<1x7x7x64xf16>) {
    dwc.conv2d ins(%x, %w : memref<1x15x15x3xf16>, memref<3x3x3x64xf16>) outs(%y : memref<1x7x7x64xf16>)
      strides = [2, 2] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_mma<>}
    return
  }
}

// -----

// f32: the CUDA-core kernel.
// CHECK-LABEL: func @f32
// CHECK-NOT: nvvm.wgmma
// CHECK: vector.fma
module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @f32(%x: memref<1x8x8x32xf32>, %w: memref<3x3x32x64xf32>, %y: memref<1x8x8x64xf32>) {
    dwc.conv2d ins(%x, %w : memref<1x8x8x32xf32>, memref<3x3x32x64xf32>) outs(%y : memref<1x8x8x64xf32>)
      strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
    return
  }
}

// -----

// C = 3, 7 x 7 window (147 elements): x and w zero-padded to 4 channels in
// temporaries (one thread per pixel, 8-byte stores; one per filter
// element), then the wgmma kernel with 8-byte A copies (.ca) on them; the
// temporaries are freed after it. #dwc.im2win_mma: the element-wise gather.
// CHECK-LABEL: func @c3w7
// CHECK: %[[XP:.*]] = memref.alloc() : memref<1x21x21x4xf16>
// CHECK: %[[WP:.*]] = memref.alloc() : memref<7x7x4x64xf16>
// CHECK: gpu.launch
// CHECK: vector.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %cst{{.*}} : vector<4xf16>
// CHECK: vector.store %{{.*}} : memref<1764xf16>, vector<4xf16>
// CHECK: gpu.launch
// CHECK: arith.select
// CHECK: memref.store %{{.*}} : memref<12544xf16>
// CHECK: gpu.launch_func @c3w7_im2win_wgmma::@c3w7_im2win_wgmma {{.*}} args(%[[XP]] : memref<1x21x21x4xf16>, %[[WP]] : memref<7x7x4x64xf16>
// CHECK: memref.dealloc %[[XP]]
// CHECK: memref.dealloc %[[WP]]
// CHECK: nvgpu.device_async_copy {{.*}} 4, %{{.*}} : memref<1764xf16> to memref<3x64x64xf16, #gpu.address_space<workgroup>>
// CHECK: nvvm.wgmma.mma_async
// NOPAD-LABEL: func @c3w7
// NOPAD-NOT: memref.alloc
// NOPAD: nvgpu.mma.sync
module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @c3w7(%x: memref<1x21x21x3xf16>, %w: memref<7x7x3x64xf16>, %y: memref<1x8x8x64xf16>) {
    dwc.conv2d ins(%x, %w : memref<1x21x21x3xf16>, memref<7x7x3x64xf16>) outs(%y : memref<1x8x8x64xf16>)
      strides = [2, 2] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<>}
    return
  }
}

// -----

// C = 12 (C % 8 == 4): no padding, A in 8-byte chunks (two per 16-byte
// swizzled chunk: column ((k / 8) ^ (row % 8)) * 8 + k % 8).
// CHECK-LABEL: func @c12
// CHECK-NOT: memref.alloc
// CHECK: nvgpu.device_async_copy {{.*}} 4, %{{.*}} : memref<{{.*}}xf16> to memref<{{.*}}x64x64xf16, #gpu.address_space<workgroup>>
// CHECK: nvvm.wgmma.mma_async
module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @c12(%x: memref<1x8x8x12xf16>, %w: memref<3x3x12x64xf16>, %y: memref<1x6x6x64xf16>) {
    dwc.conv2d ins(%x, %w : memref<1x8x8x12xf16>, memref<3x3x12x64xf16>) outs(%y : memref<1x6x6x64xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0]
    return
  }
}

// -----

// A 3 x 131 window: the im2col map's corner pr - (FW - 1) = -130 does not
// fit its 8-bit field, so the A tiles keep the cp.async gather (the filter
// still comes by TMA only with tma_filter).
// CHECK-LABEL: func @wide
// CHECK-NOT: dwcTensorMapIm2col
// CHECK: nvgpu.device_async_copy
// CHECK: nvvm.wgmma.mma_async
module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @wide(%x: memref<1x4x140x64xf16>, %w: memref<3x131x64x64xf16>, %y: memref<1x2x10x64xf16>) {
    dwc.conv2d ins(%x, %w : memref<1x4x140x64xf16>, memref<3x131x64x64xf16>) outs(%y : memref<1x2x10x64xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0]
    return
  }
}
