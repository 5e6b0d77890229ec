// PTX of the dense conv2d kernels of convert-dwc-to-gpu-im2win through the
// whole dwc-to-nvvm pipeline: the f16 tensor-core kernel uses cp.async
// (16-byte, zero-fill), commit/wait groups, ldmatrix.trans and m16n8k16
// mma.sync with f32 accumulators; the f32 kernel cp.async and f32 FMAs;
// ptxas -v: no spills for either, also for C = 3 (element-wise gather) and
// the ablation variant without cp.async, double buffering, precomputed
// offsets and swizzle (the configurations the RUN line writes on the ops).
// RUN: rm -rf %t && dwc-opt %s --dwc-to-nvvm=format=isa | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t > /dev/null
// RUN: cat %t/conv_f16_im2win_mma.ptx | FileCheck %s --check-prefix=TC
// RUN: cat %t/conv_f32_im2win_simt.ptx | FileCheck %s --check-prefix=F32
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/conv_f16_im2win_mma.ptx -o %t/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/conv_f32_im2win_simt.ptx -o %t/b.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/conv_c3_f16_im2win_mma.ptx -o %t/c.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: rm -rf %t.v && sed -e 's/im2win_mma<>/im2win_mma<stages = 1, async_copy = false, precompute = false, swizzle = false>/' -e 's/im2win_simt<>/im2win_simt<stages = 1, async_copy = false, precompute = false>/' %s | dwc-opt --dwc-to-nvvm="format=isa" | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t.v > /dev/null
// RUN: cat %t.v/conv_f16_im2win_mma.ptx | FileCheck %s --check-prefix=PLAIN
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t.v/conv_f16_im2win_mma.ptx -o %t/d.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t.v/conv_f32_im2win_simt.ptx -o %t/e.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// TC-LABEL: .entry conv_f16_im2win_mma
// TC: .maxntid 256, 1, 1
// TC: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 16
// TC: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16
// TC: cp.async.commit_group;
// TC: cp.async.wait_group 2;
// TC: bar.sync 0;
// TC: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// TC: ld.shared.v4.b32
// TC-COUNT-32: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// TC: bar.sync 0;

// F32-LABEL: .entry conv_f32_im2win_simt
// F32: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 16
// F32: cp.async.wait_group 2;
// F32: ld.shared.v4.b32
// F32: fma.rn.f32
// F32: st.global.v4.b32

// PLAIN-LABEL: .entry conv_f16_im2win_mma
// PLAIN-NOT: cp.async
// PLAIN: ld.global
// PLAIN: mma.sync.aligned.m16n8k16

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

func.func @conv_f16(%x: tensor<4x28x28x128xf16>, %w: tensor<3x3x128x128xf16>) -> tensor<4x28x28x128xf16> {
  %i = tensor.empty() : tensor<4x28x28x128xf16>
  %y = dwc.conv2d ins(%x, %w : tensor<4x28x28x128xf16>, tensor<3x3x128x128xf16>) outs(%i : tensor<4x28x28x128xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.im2win_mma<>} -> tensor<4x28x28x128xf16>
  return %y : tensor<4x28x28x128xf16>
}

func.func @conv_f32(%x: tensor<4x28x28x128xf32>, %w: tensor<3x3x128x128xf32>) -> tensor<4x28x28x128xf32> {
  %i = tensor.empty() : tensor<4x28x28x128xf32>
  %y = dwc.conv2d ins(%x, %w : tensor<4x28x28x128xf32>, tensor<3x3x128x128xf32>) outs(%i : tensor<4x28x28x128xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.im2win_simt<>} -> tensor<4x28x28x128xf32>
  return %y : tensor<4x28x28x128xf32>
}

func.func @conv_c3_f16(%x: tensor<2x57x57x3xf16>, %w: tensor<11x11x3x64xf16>) -> tensor<2x12x12x64xf16> {
  %i = tensor.empty() : tensor<2x12x12x64xf16>
  %y = dwc.conv2d ins(%x, %w : tensor<2x57x57x3xf16>, tensor<11x11x3x64xf16>) outs(%i : tensor<2x12x12x64xf16>)
    strides = [4, 4] dilations = [1, 1] padding = [0, 0, 0, 0] -> tensor<2x12x12x64xf16>
  return %y : tensor<2x12x12x64xf16>
}
