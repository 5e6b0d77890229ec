// Max pool2d_backward with overlapping windows through dwc-to-nvvm: two
// kernels (argmax into an i8 workspace, then the gather), the workspace
// allocated and freed on the function's stream (stream-ordered in the
// runtime), and the i8 taps moved 8 channels at a time (64-bit accesses).
// RUN: dwc-opt %s --dwc-to-nvvm="format=isa" | FileCheck %s

// CHECK-LABEL: llvm.func @max_bwd
// CHECK: %[[S:.*]] = llvm.call @mgpuStreamCreate()
// CHECK: %[[WS:.*]] = llvm.call @mgpuMemAlloc(%{{.*}}, %[[S]], %{{.*}})
// CHECK: gpu.launch_func <%[[S]] : !llvm.ptr> @max_bwd_pool_backward_argmax::@max_bwd_pool_backward_argmax
// CHECK: gpu.launch_func <%[[S]] : !llvm.ptr> @max_bwd_pool_backward::@max_bwd_pool_backward {{.*}} args({{.*}}%[[WS]] : !llvm.ptr
// CHECK: llvm.call @mgpuMemFree(%[[WS]], %[[S]])
// CHECK: llvm.call @mgpuStreamSynchronize(%[[S]])
// Argmax kernel: packed f16x2 comparisons into 0xFFFF masks (inline PTX),
// taps stored as 8 x i8.
// CHECK: .entry max_bwd_pool_backward_argmax(
// CHECK: set.gt.u32.f16x2
// CHECK: st.global.v2.b32
// Gather kernel: taps loaded as 8 x i8, dY summed in f32, 128-bit stores.
// CHECK: .entry max_bwd_pool_backward(
// CHECK: ld.global.v2.b32
// CHECK: prmt.b32
// CHECK: add.rn.f32
// CHECK: cvt.rn.f16x2.f32
// CHECK: st.global.v4.b32
func.func @max_bwd(%x: tensor<2x16x16x32xf16>, %dy: tensor<2x8x8x32xf16>) -> tensor<2x16x16x32xf16> {
  %init = tensor.empty() : tensor<2x16x16x32xf16>
  %dx = dwc.pool2d_backward max ins(%x, %dy : tensor<2x16x16x32xf16>, tensor<2x8x8x32xf16>) outs(%init : tensor<2x16x16x32xf16>) window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] -> tensor<2x16x16x32xf16>
  return %dx : tensor<2x16x16x32xf16>
}
