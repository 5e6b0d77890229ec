// PTX of the band-packing tensor-core kernel as dwc-to-nvvm builds it for
// f16/bf16 depthwise convolutions requested as the fixed band configuration
// (#dwc.mma_band with filter pairs, split copies, unrolled slices, one row,
// two barriers: the choice on chips other than sm_90; the sm_90 per-shape
// choice: mma-band-rows-ptx.mlir): a first kernel writes the filter pairs
// (two 16-byte loads, two 16-byte stores per thread); the main kernel
// copies input rows (cp.async.ca) and filter pairs (cp.async.cg) per stage
// and runs 16 m16n8k16 mma.sync per warp and slice, the slices unrolled
// (FW = 51: 4 slices, 64 mma between the stage's barriers; FW = 17: 2), B
// registers straight from 128-bit shared loads. With input_pairs (here with
// the slice loop: unroll = false) a second first kernel interleaves the
// input; min_blocks_per_sm reaches the PTX as .minnctapersm. ptxas: no
// spills. (Kernel files: <func>_mma_band, the first kernels
// <func>_mma_band_filter_pairs and <func>_mma_band_input_pairs.)
// RUN: rm -rf %t && sed 's/KERNEL/mma_band<rows = 1, warp_channels = 16, filter_pairs = true, input_pairs = false, one_barrier = false, unroll = true, copy_split = true>/' %s | dwc-opt "--dwc-to-nvvm=format=isa" | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t > /dev/null
// RUN: FileCheck %s --check-prefix=PAIRS < %t/f51_mma_band_filter_pairs.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,UNROLLED < %t/f51_mma_band.ptx
// RUN: FileCheck %s --check-prefix=BF16 < %t/bf16_mma_band.ptx
// RUN: rm -rf %t.ip && sed 's/KERNEL/mma_band<rows = 1, warp_channels = 16, filter_pairs = true, input_pairs = true, one_barrier = false, unroll = false, copy_split = true, min_blocks_per_sm = 1>/' %s | dwc-opt "--dwc-to-nvvm=format=isa" | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t.ip > /dev/null
// RUN: FileCheck %s --check-prefix=PAIRS < %t.ip/f51_mma_band_filter_pairs.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,IP,LOOP < %t.ip/f51_mma_band.ptx
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/f51_mma_band.ptx -o %t/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/bf16_mma_band.ptx -o %t/b.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t.ip/f51_mma_band.ptx -o %t/c.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t.ip/bf16_mma_band.ptx -o %t/d.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// PAIRS: .entry
// PAIRS-COUNT-2: ld.global.v4.b32
// PAIRS-COUNT-2: st.global.v4.b32
// PAIRS-NOT: mma.sync

// CHECK: .entry
// CHECK: .maxntid 128, 1, 1
// IP: .minnctapersm 1
// CHECK: .shared .align 16 .b8 __dynamic_shmem__0
// CHECK: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 16, {{.*}};
// CHECK: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, {{.*}};
// CHECK: cp.async.commit_group;
// CHECK: cp.async.commit_group;
// CHECK-NEXT: cp.async.wait_group 1;
// CHECK-NEXT: bar.sync 0;
// CHECK: ld.shared.v4.b32
// UNROLLED-COUNT-64: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// LOOP-COUNT-16: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT: mma.sync
// CHECK: bar.sync 0;
// CHECK: st.global.v4.b32

// BF16: cp.async.wait_group 1;
// BF16-COUNT-32: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// BF16-NOT: mma.sync
// BF16: st.global.v4.b32

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
func.func @f51(%x: memref<1x64x64x256xf16>, %w: memref<51x51x256xf16>, %y: memref<1x64x64x256xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x64x64x256xf16>, memref<51x51x256xf16>) outs(%y : memref<1x64x64x256xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [25, 25, 25, 25] {dwc.kernel = #dwc.KERNEL}
  return
}

func.func @bf16(%x: memref<1x20x128x72xbf16>, %w: memref<17x17x72xbf16>, %b: memref<72xbf16>, %y: memref<1x20x128x72xbf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x20x128x72xbf16>, memref<17x17x72xbf16>) bias(%b : memref<72xbf16>) outs(%y : memref<1x20x128x72xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [8, 8, 8, 8] {dwc.kernel = #dwc.KERNEL}
  return
}
