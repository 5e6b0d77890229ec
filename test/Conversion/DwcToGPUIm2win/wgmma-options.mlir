// #dwc.im2win_wgmma's fields measured slower and kept for experiments:
// n = 256 gives each warpgroup 256 output channels (m64n256k16, 128 f32
// accumulators per thread, B as four 64-channel blocks per stage; one
// warpgroup: 3 stages of 40 KB in dynamic shared memory), lowered by
// dwc-select-kernels to what OC needs in a partial configuration (OC = 200:
// 256, OC = 128: 128, OC = 64: 64); barriers = 1 keeps one barrier per K
// tile: the copies of a later tile are issued after the tile's wgmma group
// is committed, then wait_group 0 and the cp.async wait, no second barrier.
// Bad values and overlap with one barrier are verifier errors.
// RUN: sed 's/im2win_wgmma<>/im2win_wgmma<n = 256>/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-im2win -split-input-file | FileCheck %s --check-prefix=N256
// RUN: sed 's/im2win_wgmma<>/im2win_wgmma<n = 256, warpgroups = 2>/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-im2win -split-input-file | FileCheck %s --check-prefix=N256W2
// RUN: sed 's/im2win_wgmma<>/im2win_wgmma<barriers = 1>/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-im2win -split-input-file | FileCheck %s --check-prefix=ONE
// RUN: sed 's/im2win_wgmma<>/im2win_wgmma<barriers = 2>/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-im2win -split-input-file | FileCheck %s --check-prefix=TWO
// RUN: sed 's/im2win_wgmma<>/im2win_wgmma<n = 96>/' %s | not dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-im2win -split-input-file 2>&1 | FileCheck %s --check-prefix=BADN
// RUN: sed 's/im2win_wgmma<>/im2win_wgmma<barriers = 3>/' %s | not dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-im2win -split-input-file 2>&1 | FileCheck %s --check-prefix=BADB
// RUN: sed 's/im2win_wgmma<>/im2win_wgmma<barriers = 1, overlap = true>/' %s | not dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-im2win -split-input-file 2>&1 | FileCheck %s --check-prefix=BADO

// BADN: does not fit this op: n = 96 is not 64, 128 or 256
// BADB: does not fit this op: barriers = 3 is not in [1, 2]
// BADO: does not fit this op: overlap needs barriers = 2

// N256-LABEL: func @oc200
// N256: gpu.launch_func @oc200_im2win_wgmma::@oc200_im2win_wgmma blocks in (%c5, %c1, %c1) threads in (%c128{{.*}}) dynamic_shared_memory_size %c123904_i32
// N256: memref.view {{.*}} to memref<3x64x64xf16, #gpu.address_space<workgroup>>
// N256: memref.view {{.*}} to memref<12x64x64xf16, #gpu.address_space<workgroup>>
// N256: scf.for
// N256-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 16>
// N256: nvvm.wgmma.wait.group.sync.aligned 0
// N256: gpu.barrier
// N256: scf.yield
// N256-COUNT-128: llvm.extractvalue
// N256: vector.store %{{.*}} : memref<{{.*}}x200xf16>, vector<8xf16>
// N256W2-LABEL: func @oc200
// N256W2: threads in (%c256{{.*}}) dynamic_shared_memory_size %c148480_i32
// N256W2: memref.view {{.*}} to memref<3x128x64xf16, #gpu.address_space<workgroup>>
// N256W2: memref.view {{.*}} to memref<12x64x64xf16, #gpu.address_space<workgroup>>
// N256W2-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 16>
// ONE-LABEL: func @oc200
// ONE: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// ONE: scf.for
// ONE: nvvm.fence.proxy
// ONE-NEXT: gpu.barrier
// ONE: nvvm.wgmma.fence.aligned
// ONE-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>
// ONE: nvvm.wgmma.commit.group.sync.aligned
// ONE-NOT: gpu.barrier
// ONE: nvgpu.device_async_copy
// ONE-NOT: gpu.barrier
// ONE: nvgpu.device_async_create_group
// ONE-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// ONE-NEXT: nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// ONE-NEXT: scf.yield
// TWO-LABEL: func @oc200
// TWO: scf.for
// TWO: gpu.barrier
// TWO-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>
// TWO: nvvm.wgmma.wait.group.sync.aligned 0
// TWO-NOT: nvgpu.device_async_copy
// TWO: gpu.barrier
// TWO-NEXT: scf.yield
module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @oc200(%x: memref<2x17x19x24xf16>, %w: memref<3x3x24x200xf16>, %b: memref<200xf16>, %y: memref<2x8x20x200xf16>) {
    dwc.conv2d ins(%x, %w : memref<2x17x19x24xf16>, memref<3x3x24x200xf16>) bias(%b : memref<200xf16>) outs(%y : memref<2x8x20x200xf16>)
      strides = [2, 1] dilations = [1, 1] padding = [1, 0, 2, 1] {dwc.kernel = #dwc.im2win_wgmma<>}
    return
  }
}

// -----

// OC = 128 and OC = 64: n = 256 is lowered to 128 and 64 channels.
// N256-LABEL: func @oc128
// N256-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>
module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @oc128(%x: memref<1x8x8x64xf16>, %w: memref<3x3x64x128xf16>, %y: memref<1x6x6x128xf16>) {
    dwc.conv2d ins(%x, %w : memref<1x8x8x64xf16>, memref<3x3x64x128xf16>) outs(%y : memref<1x6x6x128xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<>}
    return
  }
}

// -----

// N256-LABEL: func @oc64
// N256-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>
module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @oc64(%x: memref<1x8x8x64xf16>, %w: memref<3x3x64x64xf16>, %y: memref<1x6x6x64xf16>) {
    dwc.conv2d ins(%x, %w : memref<1x8x8x64xf16>, memref<3x3x64x64xf16>) outs(%y : memref<1x6x6x64xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<>}
    return
  }
}
