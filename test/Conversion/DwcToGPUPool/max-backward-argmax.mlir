// convert-dwc-to-gpu-pool, max pool2d_backward: where the argmax comes from.
// Overlapping windows (3x3 stride 2) store it by default: an argmax kernel
// writes one i8 tap per window into a workspace the gather kernel reads;
// non-overlapping windows (2x2 stride 2) recompute it in the gather; the
// configuration field argmax forces either. Avg backward needs no argmax.
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-pool -split-input-file | FileCheck %s --check-prefix=AUTO
// RUN: sed 's/^  dwc.pool2d_backward max .*$/& {dwc.kernel = #dwc.pool_backward<argmax = "recompute">}/' %s \
// RUN:   | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-pool -split-input-file | FileCheck %s --check-prefix=RECOMPUTE
// RUN: sed 's/^  dwc.pool2d_backward max .*$/& {dwc.kernel = #dwc.pool_backward<argmax = "stored">}/' %s \
// RUN:   | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-pool -split-input-file | FileCheck %s --check-prefix=STORED

// AUTO-LABEL: func @max_bwd_3x3_s2
// AUTO: %[[WS:.*]] = memref.alloc() : memref<1x4x4x16xi8>
// First kernel: per window the first maximum's tap, truncated to i8.
// AUTO: gpu.launch
// AUTO: arith.cmpf ogt, %{{.*}}, %{{.*}} : vector<4xf32>
// AUTO: arith.trunci %{{.*}} : vector<4xi32> to vector<4xi8>
// AUTO: vector.store %{{.*}}, %[[WS]]{{.*}} : memref<1x4x4x16xi8>, vector<4xi8>
// AUTO: gpu.terminator
// Gather: the taps are read back, X is not.
// AUTO: gpu.launch
// AUTO-NOT: vector.load %arg0
// AUTO: vector.load %[[WS]]{{.*}} : memref<1x4x4x16xi8>, vector<4xi8>
// AUTO: arith.extsi %{{.*}} : vector<4xi8> to vector<4xi32>
// AUTO: arith.cmpi eq, %{{.*}}, %{{.*}} : vector<4xi32>
// AUTO: vector.store %{{.*}}, %arg2
// AUTO: gpu.terminator
// AUTO: memref.dealloc %[[WS]] : memref<1x4x4x16xi8>

// RECOMPUTE-LABEL: func @max_bwd_3x3_s2
// RECOMPUTE-NOT: memref.alloc
// RECOMPUTE: gpu.launch
// RECOMPUTE: vector.load %arg0
// RECOMPUTE: arith.cmpf ogt
// RECOMPUTE-NOT: gpu.launch
// RECOMPUTE: return
func.func @max_bwd_3x3_s2(%x: memref<1x8x8x16xf32>, %dy: memref<1x4x4x16xf32>, %dx: memref<1x8x8x16xf32>) {
  dwc.pool2d_backward max ins(%x, %dy : memref<1x8x8x16xf32>, memref<1x4x4x16xf32>) outs(%dx : memref<1x8x8x16xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1]
  return
}

// -----

// AUTO-LABEL: func @max_bwd_2x2_s2
// AUTO-NOT: memref.alloc
// AUTO: gpu.launch
// AUTO: vector.load %arg0
// AUTO-NOT: gpu.launch
// AUTO: return
// STORED-LABEL: func @max_bwd_2x2_s2
// STORED: memref.alloc() : memref<1x4x4x16xi8>
// STORED-COUNT-2: gpu.launch
// STORED: memref.dealloc
func.func @max_bwd_2x2_s2(%x: memref<1x8x8x16xf32>, %dy: memref<1x4x4x16xf32>, %dx: memref<1x8x8x16xf32>) {
  dwc.pool2d_backward max ins(%x, %dy : memref<1x8x8x16xf32>, memref<1x4x4x16xf32>) outs(%dx : memref<1x8x8x16xf32>) window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0]
  return
}

// -----

// AUTO-LABEL: func @avg_bwd_3x3_s2
// AUTO-NOT: memref.alloc
// AUTO: gpu.launch
// AUTO-NOT: vector.load %arg0
// AUTO: vector.load %arg1
// AUTO: arith.divf
// AUTO: vector.store %{{.*}}, %arg2
// STORED-LABEL: func @avg_bwd_3x3_s2
// STORED-NOT: memref.alloc
func.func @avg_bwd_3x3_s2(%x: memref<1x8x8x16xf32>, %dy: memref<1x4x4x16xf32>, %dx: memref<1x8x8x16xf32>) {
  dwc.pool2d_backward avg ins(%x, %dy : memref<1x8x8x16xf32>, memref<1x4x4x16xf32>) outs(%dx : memref<1x8x8x16xf32>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1]
  return
}

// -----

// 16-bit data: the argmax kernel scans packed pairs, one
// set.gt.u32.f16x2 (inline PTX, a 0xFFFF mask per half) per pair and tap and
// bitwise blends of the values and of the i16 tap pairs; the taps are
// unpacked to i8 for the workspace (argmax = "packed", chosen for 16-bit
// data); argmax = "stored" keeps per-lane compares and selects (what the
// host emulation runs).
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-pool -split-input-file | FileCheck %s --check-prefix=PACKED
// RUN: sed 's/^  dwc.pool2d_backward max .*$/& {dwc.kernel = #dwc.pool_backward<argmax = "stored">}/' %s \
// RUN:   | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-pool -split-input-file | FileCheck %s --check-prefix=LANES
// AUTO-LABEL: func @max_bwd_f16
// RECOMPUTE-LABEL: func @max_bwd_f16
// STORED-LABEL: func @max_bwd_f16
// PACKED-LABEL: func @max_bwd_f16
// PACKED: gpu.launch
// PACKED: vector.bitcast %{{.*}} : vector<8xf16> to vector<4xi32>
// PACKED: llvm.inline_asm "set.gt.u32.f16x2 $0, $1, $2;", "=r,r,r" %{{.*}}, %{{.*}} : (i32, i32) -> i32
// PACKED: arith.andi
// PACKED: arith.ori
// PACKED: vector.bitcast %{{.*}} : vector<4xi32> to vector<8xi16>
// PACKED: arith.trunci %{{.*}} : vector<8xi16> to vector<8xi8>
// PACKED: gpu.terminator
// LANES-LABEL: func @max_bwd_f16
// LANES-NOT: llvm.inline_asm
// LANES: arith.cmpf ogt, %{{.*}}, %{{.*}} : vector<8xf16>
func.func @max_bwd_f16(%x: memref<1x8x8x16xf16>, %dy: memref<1x4x4x16xf16>, %dx: memref<1x8x8x16xf16>) {
  dwc.pool2d_backward max ins(%x, %dy : memref<1x8x8x16xf16>, memref<1x4x4x16xf16>) outs(%dx : memref<1x8x8x16xf16>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1]
  return
}
