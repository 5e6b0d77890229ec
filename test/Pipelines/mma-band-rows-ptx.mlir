// PTX of the dwc-to-nvvm default (the sm_90 per-shape #dwc.mma_band choice) for f16 depthwise convolutions
// on large grids: FW = 31 and 51 on 128x64x64x256 take two rows per warp
// (256 threads, 8 channels per warp, filter rows: no pair kernel, B from
// the filter row with cp.async.cg); FW = 31 keeps two barriers per stage,
// FW = 51 (4 slices) one. FW = 17 takes one row with filter pairs (a first
// kernel) and one barrier. Per warp and stage: 2 tiles x 8 channels x 3
// (4) slices = 48 (64) mma; FW = 17: 16 channels x 2 slices = 32.
// ptxas: no spills. (The ops ask for the family, #dwc.mma_band<>: the
// streaming kernels would take these widths; dwc-select-kernels completes
// the fields.)
// RUN: rm -rf %t && dwc-opt %s --dwc-to-nvvm="format=isa" | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t > /dev/null
// RUN: FileCheck %s --check-prefixes=CHECK,R31 < %t/f31_mma_band.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,R51 < %t/f51_mma_band.ptx
// RUN: FileCheck %s --check-prefix=F17 < %t/f17_mma_band.ptx
// Other chips keep the previous default (one row, filter pairs: a first
// kernel, 128 threads): the per-shape choice is Hopper-only (up to 227 KB per block).
// RUN: rm -rf %t.80 && dwc-opt %s --dwc-to-nvvm="chip=sm_80 format=isa" | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t.80 > /dev/null
// RUN: FileCheck %s --check-prefix=SM80 < %t.80/f31_mma_band.ptx
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/f31_mma_band.ptx -o %t/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/f51_mma_band.ptx -o %t/b.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/f17_mma_band.ptx -o %t/c.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// CHECK: .entry
// CHECK: .maxntid 256, 1, 1
// CHECK: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 16, {{.*}};
// CHECK: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, {{.*}};
// CHECK: cp.async.commit_group;
// CHECK: cp.async.commit_group;
// CHECK-NEXT: cp.async.wait_group 1;
// CHECK-NEXT: bar.sync 0;
// CHECK-NOT: bar.sync
// CHECK: ld.shared.v4.b32
// R31-COUNT-48: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// R51-COUNT-64: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT: mma.sync
// R31: bar.sync 0;
// R51-NOT: bar.sync
// CHECK: st.global.v4.b32

// F17: .maxntid 128, 1, 1
// F17: cp.async.wait_group 1;
// F17-NEXT: bar.sync 0;
// F17-COUNT-32: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// F17-NOT: bar.sync
// F17: st.global.v4.b32

// SM80: .target sm_80
// SM80: .maxntid 128, 1, 1
// SM80-COUNT-48: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
func.func @f31(%x: memref<128x64x64x256xf16>, %w: memref<31x31x256xf16>, %y: memref<128x64x64x256xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<128x64x64x256xf16>, memref<31x31x256xf16>) outs(%y : memref<128x64x64x256xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [15, 15, 15, 15] {dwc.kernel = #dwc.mma_band<>}
  return
}

func.func @f51(%x: memref<128x64x64x256xf16>, %w: memref<51x51x256xf16>, %y: memref<128x64x64x256xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<128x64x64x256xf16>, memref<51x51x256xf16>) outs(%y : memref<128x64x64x256xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [25, 25, 25, 25] {dwc.kernel = #dwc.mma_band<>}
  return
}

func.func @f17(%x: memref<128x64x64x256xf16>, %w: memref<17x17x256xf16>, %y: memref<128x64x64x256xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<128x64x64x256xf16>, memref<17x17x256xf16>) outs(%y : memref<128x64x64x256xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [8, 8, 8, 8] {dwc.kernel = #dwc.mma_band<>}
  return
}
