// The image backward-filter kernel with copy = "async": two strip buffers;
// the block issues the cp.async copies of its first strip before the strip
// loop (one group), and per strip those of the next one into the other buffer (none
// after the last), commits one group, waits until at most the next strip's
// group is in flight, reads the current buffer between two barriers.
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-backward-filter --canonicalize --cse -split-input-file | FileCheck %s

// The shape of image.mlir's @f16_7x7 (1696 halves per strip): twice the
// shared memory; 120 input vectors over 112 threads (2 per thread), 72 dY
// vectors (1), 16-byte cp.async (8 halves, L1 bypassed).
// CHECK-LABEL: func @async_f16_7x7
// CHECK: gpu.launch {{.*}} function(@async_f16_7x7_bwd_filter_image) workgroup(%[[SM:.*]] : memref<3392xf16, #gpu.address_space<workgroup>>)
// CHECK-NOT: gpu.barrier
// CHECK: nvgpu.device_async_copy %arg0[{{.*}}], %[[SM]][{{.*}}], 8 {bypassL1} : memref<2x5x6x40xf16> to memref<3392xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_copy %arg0
// CHECK: nvgpu.device_async_copy %arg1
// The first strip's copies are a group of their own.
// CHECK-NEXT: nvgpu.device_async_create_group
// CHECK-NEXT: scf.for
// The next strip, if any, into the other buffer.
// CHECK: scf.if
// CHECK-COUNT-2: nvgpu.device_async_copy %arg0
// CHECK: nvgpu.device_async_copy %arg1
// CHECK: %[[G:.*]] = nvgpu.device_async_create_group
// CHECK-NEXT: nvgpu.device_async_wait %[[G]] {numGroups = 1 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK: scf.for {{.*}} = %c0 to %c3
// CHECK: vector.load %[[SM]]{{.*}} : memref<3392xf16, #gpu.address_space<workgroup>>, vector<2xf16>
// CHECK: vector.fma
// The reads end before the next step's copies overwrite the buffer.
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield
// CHECK: function(@async_f16_7x7_bwd_filter_image_reduce)
func.func @async_f16_7x7(%x: memref<2x5x6x40xf16>, %dy: memref<2x5x6x40xf16>, %dw: memref<7x7x40xf16>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<2x5x6x40xf16>, memref<2x5x6x40xf16>) outs(%dw : memref<7x7x40xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 3, units = 2, copy = "async">}
  return
}

// -----

// One strip per block: no copies inside the loop, all groups waited for,
// no barrier after the reads.
// CHECK-LABEL: func @async_one_strip
// CHECK: function(@async_one_strip_bwd_filter_image) workgroup(%[[SM:.*]] : memref<3392xf16, #gpu.address_space<workgroup>>)
// CHECK: nvgpu.device_async_copy %arg1
// CHECK-NEXT: nvgpu.device_async_create_group
// CHECK-NEXT: scf.for
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: %[[G:.*]] = nvgpu.device_async_create_group
// CHECK-NEXT: nvgpu.device_async_wait %[[G]] {numGroups = 0 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: gpu.terminator
func.func @async_one_strip(%x: memref<2x5x6x40xf16>, %dy: memref<2x5x6x40xf16>, %dw: memref<7x7x40xf16>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<2x5x6x40xf16>, memref<2x5x6x40xf16>) outs(%dw : memref<7x7x40xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 3, units = 1, copy = "async">}
  return
}

// -----

// Two strips past 48 KB: dynamic shared memory (2 x (14 x (14 x 64 + 32) +
// 14 x 14 x 64) = 51072 halves = 102144 bytes).
// CHECK-LABEL: func @async_dynamic
// CHECK: gpu.launch {{.*}} dynamic_shared_memory_size %c102144_i32
// CHECK: gpu.dynamic_shared_memory
// CHECK: memref.view {{.*}} to memref<51072xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_copy
func.func @async_dynamic(%x: memref<2x14x14x64xf16>, %dy: memref<2x14x14x64xf16>, %dw: memref<7x7x64xf16>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<2x14x14x64xf16>, memref<2x14x14x64xf16>) outs(%dw : memref<7x7x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.bwd_filter_image<channels = 64, rows = 14, units = 2, copy = "async">}
  return
}
