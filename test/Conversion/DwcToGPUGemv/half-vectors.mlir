// f16/bf16 on the GEMV kernel (#dwc.gemv; the row tiles would take these
// ops, so each op requests the GEMV kernel): by default 64-bit channel
// vectors (4 halves per thread, 32 channels per block) with filter vectors
// read from global memory for filters of at most 9 taps, 128-bit vectors
// with shared filter rows above; the fields that request either; C % 4 == 0
// eligibility of the 64-bit kernel.
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-gemv --canonicalize --cse -split-input-file | FileCheck %s

// 64 channels -> 2 blocks of 32 channels (128 threads, 8 x 4 channels).
// The 3 filter rows unrolled (rows = "unrolled"): per row 7 window loads, then
// per tap one input and one filter vector<4xf16> from global memory
// (8-byte aligned), widened to f32; padding rows are zeroed clamped loads
// (no scf.for, no scf.if); no shared memory, no barrier.
// CHECK-LABEL: func @half3x3
// CHECK: gpu.launch blocks({{[^)]*}}) in ({{[^,]*}} = %c2{{[^,]*}}, {{[^,]*}} = %c1{{[^,]*}}, {{[^)]*}}) threads({{[^)]*}}) in ({{[^,]*}} = %c128{{[^,]*}},
// CHECK-NOT: workgroup
// CHECK-NOT: nvgpu.device_async_copy
// CHECK-NOT: scf.for
// CHECK-COUNT-7: vector.load %arg0{{.*}} {alignment = 8 : i64} : memref<1x8x16x64xf16>, vector<4xf16>
// CHECK: vector.load %arg0{{.*}} vector<4xf16>
// CHECK: vector.load %arg1{{.*}} {alignment = 8 : i64} : memref<3x3x64xf16>, vector<4xf16>
// CHECK-NEXT: arith.extf {{.*}} : vector<4xf16> to vector<4xf32>
// CHECK-COUNT-8: vector.fma
// CHECK-COUNT-22: vector.load %arg0
// CHECK-NOT: vector.load %arg0
// CHECK-NOT: gpu.barrier
// CHECK-NOT: scf.if
// CHECK: arith.truncf {{.*}} : vector<4xf32> to vector<4xf16>
// CHECK-NEXT: vector.store {{.*}} {alignment = 8 : i64} : memref<1x8x16x64xf16>, vector<4xf16>
// rows = "loop": one scf.for over the filter rows, a padding row skipped
// by an scf.if.
// CHECK-LABEL: func @half3x3_loop
// CHECK: scf.for {{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// CHECK: scf.if
// CHECK-COUNT-8: vector.load %arg0
// 128-bit vectors (channels = 8): one block of 64 channels, filter rows in
// shared memory (64 + 8 halves per tap) by 16-byte cp.async.cg.
// CHECK-LABEL: func @half3x3_v128
// CHECK: gpu.launch blocks({{[^)]*}}) in ({{[^,]*}} = %c1{{[^,]*}}, {{[^,]*}} = %c1{{[^,]*}}, {{[^)]*}})
// CHECK-SAME: workgroup(%[[S:.*]] : memref<2x16x72xf16, #gpu.address_space<workgroup>>)
// CHECK: nvgpu.device_async_copy %arg1[{{.*}}], %[[S]][{{.*}}], 8, {{.*}} {bypassL1}
// CHECK: vector.load %arg0{{.*}} {alignment = 16 : i64} : memref<1x8x16x64xf16>, vector<8xf16>
// CHECK: gpu.barrier
func.func @half3x3(%x: memref<1x8x16x64xf16>, %w: memref<3x3x64xf16>, %y: memref<1x8x16x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x16x64xf16>, memref<3x3x64xf16>) outs(%y : memref<1x8x16x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<>}
  return
}
func.func @half3x3_loop(%x: memref<1x8x16x64xf16>, %w: memref<3x3x64xf16>, %y: memref<1x8x16x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x16x64xf16>, memref<3x3x64xf16>) outs(%y : memref<1x8x16x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<rows = "loop">}
  return
}
func.func @half3x3_v128(%x: memref<1x8x16x64xf16>, %w: memref<3x3x64xf16>, %y: memref<1x8x16x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x16x64xf16>, memref<3x3x64xf16>) outs(%y : memref<1x8x16x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<channels = 8>}
  return
}

// -----

// C = 12 (a multiple of 4, not of 8): the 64-bit kernel takes it (the
// 128-bit one does not fit: kernel-configs-gemv-invalid.mlir). bf16
// likewise; the backward data op takes the same path.
// CHECK-LABEL: func @c12
// CHECK-NOT: dwc.depthwise_conv2d
// CHECK: gpu.launch
// CHECK: vector.load %arg0{{.*}} : memref<2x9x11x12xbf16>, vector<4xbf16>
// CHECK: gpu.launch
// CHECK: vector.load %arg0{{.*}} : memref<2x9x11x12xbf16>, vector<4xbf16>
func.func @c12(%x: memref<2x9x11x12xbf16>, %w: memref<3x3x12xbf16>, %y: memref<2x9x11x12xbf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<2x9x11x12xbf16>, memref<3x3x12xbf16>) outs(%y : memref<2x9x11x12xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<>}
  dwc.depthwise_conv2d_backward_data ins(%x, %w : memref<2x9x11x12xbf16>, memref<3x3x12xbf16>) outs(%y : memref<2x9x11x12xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<>}
  return
}

// -----

// 5 x 5 = 25 taps: 128-bit vectors and shared filter rows by default;
// 64-bit vectors (channels = 4) read the filter from global memory.
// CHECK-LABEL: func @half5x5
// CHECK: gpu.launch blocks({{[^)]*}}) in ({{[^,]*}} = %c1{{[^,]*}}, {{[^,]*}} = %c1{{[^,]*}}, {{[^)]*}})
// CHECK-SAME: workgroup(%[[S:.*]] : memref<2x16x72xf16, #gpu.address_space<workgroup>>)
// CHECK: nvgpu.device_async_copy %arg1[{{.*}}], %[[S]][{{.*}}], 8, {{.*}} {bypassL1}
// CHECK: vector.load %arg0{{.*}} {alignment = 16 : i64} : memref<1x8x16x64xf16>, vector<8xf16>
// CHECK-LABEL: func @half5x5_v64
// CHECK-NOT: workgroup
// CHECK: vector.load %arg1{{.*}} : memref<5x5x64xf16>, vector<4xf16>
func.func @half5x5(%x: memref<1x8x16x64xf16>, %w: memref<5x5x64xf16>, %y: memref<1x8x16x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x16x64xf16>, memref<5x5x64xf16>) outs(%y : memref<1x8x16x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.gemv<>}
  return
}
func.func @half5x5_v64(%x: memref<1x8x16x64xf16>, %w: memref<5x5x64xf16>, %y: memref<1x8x16x64xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x16x64xf16>, memref<5x5x64xf16>) outs(%y : memref<1x8x16x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] {dwc.kernel = #dwc.gemv<channels = 4>}
  return
}

// -----

// f32: 128-bit vectors (4 x f32), shared filter.
// CHECK-LABEL: func @single
// CHECK: workgroup({{.*}} : memref<2x16x36xf32, #gpu.address_space<workgroup>>)
// CHECK: vector.load %arg0{{.*}} {alignment = 16 : i64} : memref<1x8x16x32xf32>, vector<4xf32>
func.func @single(%x: memref<1x8x16x32xf32>, %w: memref<3x3x32xf32>, %y: memref<1x8x16x32xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x8x16x32xf32>, memref<3x3x32xf32>) outs(%y : memref<1x8x16x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<>}
  return
}
