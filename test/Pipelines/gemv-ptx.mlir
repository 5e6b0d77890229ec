// PTX of the FP32 GEMV-dataflow kernel through the whole dwc-to-nvvm
// pipeline: 128-bit global loads, a fully unrolled FMA chain per filter row
// (FW taps x TM outputs x 4 channels), 128-bit stores; no spills even for
// 51-wide filters. (The 3x3 op requests the kernel: on its 2-image grid the
// selector takes the f32 tiny-grid row tile.)
// RUN: dwc-opt %s --dwc-to-nvvm=format=isa | %PYTHON %S/Inputs/extract_ptx.py | FileCheck %s
// The filter's shared buffer is 16-byte aligned (dwc-align-workgroup-buffers)
// for its 128-bit cp.async copies and loads:
// RUN: dwc-opt %s --dwc-to-nvvm=format=isa | %PYTHON %S/Inputs/extract_ptx.py | FileCheck %s --check-prefix=SHARED
// SHARED: .shared .align 16 .b8 __wg_f3_gemv_0[
// SHARED: .shared .align 16 .b8 __wg_f51_gemv_0[
// RUN: rm -rf %t && dwc-opt %s --dwc-to-nvvm=format=isa | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t > /dev/null
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/f3_gemv.ptx -o %t/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/f51_gemv.ptx -o %t/b.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// CHECK-LABEL: .entry f3_gemv
// CHECK: .maxntid 128, 1, 1
// Filter rows through shared memory: cp.async.cg (L2 only), groups, waits.
// CHECK: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16
// CHECK: cp.async.commit_group
// CHECK: cp.async.wait_group 1
// CHECK: bar.sync
// CHECK: ld.global.v4.b32
// CHECK: ld.shared.v4.b32
// 3 taps x 8 outputs x 4 channels in one filter-row iteration.
// CHECK-COUNT-96: fma.rn.f32
// CHECK-NOT: fma.rn.f32
// CHECK: st.global.v4.b32
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
func.func @f3(%x: tensor<2x16x32x64xf32>, %w: tensor<3x3x64xf32>) -> tensor<2x16x32x64xf32> {
  %e = tensor.empty() : tensor<2x16x32x64xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<2x16x32x64xf32>, tensor<3x3x64xf32>) outs(%e : tensor<2x16x32x64xf32>)
         strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.gemv<>} -> tensor<2x16x32x64xf32>
  return %y : tensor<2x16x32x64xf32>
}

// CHECK-LABEL: .entry f51_gemv
// 51 taps x 8 outputs x 4 channels.
// CHECK-COUNT-1632: fma.rn.f32
// CHECK-NOT: fma.rn.f32
func.func @f51(%x: tensor<1x64x64x32xf32>, %w: tensor<51x51x32xf32>) -> tensor<1x64x64x32xf32> {
  %e = tensor.empty() : tensor<1x64x64x32xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x64x64x32xf32>, tensor<51x51x32xf32>) outs(%e : tensor<1x64x64x32xf32>)
         strides = [1, 1] dilations = [1, 1] padding = [25, 25, 25, 25] -> tensor<1x64x64x32xf32>
  return %y : tensor<1x64x64x32xf32>
}
