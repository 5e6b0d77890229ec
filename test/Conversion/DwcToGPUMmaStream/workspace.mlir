// The channel-major workspace of convert-dwc-to-gpu-mma-stream. Compact
// (compact_workspace = true, and by default for bands of up to 2 slices): rows
// keep the left padding modulo 2 (lead) and none of the right; lanes mask
// the words left of a row (shift = PL - lead > 0) or past its pitch with one
// loop-invariant select each, their loads going to the zero row's start.
// compact_workspace = false (and the default for 3 or more slices): whole padded
// rows, no masks where the lanes stay inside them.
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-mma-stream -split-input-file | FileCheck %s --check-prefixes=CHECK,AUTO
// RUN: sed 's/rows = 2>/rows = 2, compact_workspace = true>/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-mma-stream -split-input-file | FileCheck %s --check-prefixes=CHECK,COMPACT
// RUN: sed 's/rows = 2>/rows = 2, compact_workspace = false>/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-mma-stream -split-input-file | FileCheck %s --check-prefix=PADDED

// FW = 13, PL = 6: lead 0, shift 6; pitch 128 (padded: 140 -> 144), rows
// of 256 bytes; 1 x 6 x 16 x 128 + a zero row of 144 (the lanes read padded
// columns 0 .. 144, workspace columns -6 .. 138: both masks).
// CHECK-LABEL: func @lead_only
// CHECK: memref.alloc() : memref<12432xf16>
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK: arith.cmpi slt, %[[XC:.*]], %c128
// CHECK-NEXT: arith.constant 0
// CHECK-NEXT: arith.cmpi sge, %[[XC]]
// CHECK: arith.select %{{.*}}, %{{.*}}, %c12288{{.*}} : index
// CHECK: arith.select {{.*}} : vector<2xf16>
// PADDED-LABEL: func @lead_only
// PADDED: memref.alloc() : memref<13968xf16>
// PADDED-NOT: arith.select {{.*}} : vector<2xf16>
// PADDED: nvgpu.mma.sync
func.func @lead_only(%x: memref<1x6x128x16xf16>, %w: memref<13x13x16xf16>, %y: memref<1x6x128x16xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x6x128x16xf16>, memref<13x13x16xf16>)
    outs(%y : memref<1x6x128x16xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.mma_stream<rows = 2>}
  return
}

// -----

// FW = 31 (3 slices), PL = 15: lead 1, shift 14; pitch 40 + 1 -> 48
// (padded: 70 -> 72, the default here); two images of 3 groups a tile,
// lanes read padded columns up to 96, so workspace columns -14 .. 82: both
// masks; zero row max(48, 88) = 88.
// CHECK-LABEL: func @lead_and_shift
// AUTO: memref.alloc() : memref<2400xf16>
// COMPACT: memref.alloc() : memref<1624xf16>
// COMPACT: gpu.launch
// COMPACT: gpu.launch
// COMPACT: gpu.launch
// COMPACT-COUNT-6: arith.cmpi sge, %{{.*}}, %c0
// COMPACT: arith.select %{{.*}}, %{{.*}}, %c1536{{.*}} : index
// CHECK: arith.select {{.*}} : vector<2xf16>
// PADDED-LABEL: func @lead_and_shift
// PADDED: memref.alloc() : memref<2400xf16>
// PADDED: arith.select %{{.*}}, %{{.*}}, %c2304{{.*}} : index
// PADDED: arith.select {{.*}} : vector<2xf16>
func.func @lead_and_shift(%x: memref<1x4x40x8xf16>, %w: memref<31x31x8xf16>, %y: memref<1x4x40x8xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x4x40x8xf16>, memref<31x31x8xf16>)
    outs(%y : memref<1x4x40x8xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [15, 15, 15, 15] {dwc.kernel = #dwc.mma_stream<rows = 2>}
  return
}
