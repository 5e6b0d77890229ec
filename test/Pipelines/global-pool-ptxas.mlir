// The global-average-pooling kernels of convert-dwc-to-gpu-global-pool,
// through the whole dwc-to-nvvm pipeline, assemble for sm_90 with ptxas
// without spilling: a classifier head (f32, 7 loads per thread), a
// squeeze-excite input (f16, an scf.for of 8 loads and the butterfly),
// scalar channels (C = 77, bf16), and the gradient (f16 stores).
// REQUIRES: ptxas
// RUN: rm -rf %t && dwc-opt %s --dwc-to-nvvm=format=isa | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t > /dev/null
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/head_f32_global_pool.ptx -o %t/a.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/se_f16_global_pool.ptx -o %t/b.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/odd_bf16_global_pool.ptx -o %t/c.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/grad_f16_global_pool_backward.ptx -o %t/d.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX < %t/head_f32_global_pool.ptx
// RUN: FileCheck %s --check-prefix=GRAD < %t/grad_f16_global_pool_backward.ptx

// CHECK: Compiling entry function
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Used {{[0-9]+}} registers

// PTX-COUNT-7: ld.global.v4.b32
// PTX: bar.sync
// PTX: div.rn.f32
// PTX: st.global.v4.b32
// GRAD: ld.global.v4.b32
// GRAD-COUNT-7: st.global.v4.b32
// GRAD-NOT: ld.global

func.func @head_f32(%x: tensor<128x7x7x768xf32>) -> tensor<128x1x1x768xf32> {
  %init = tensor.empty() : tensor<128x1x1x768xf32>
  %y = dwc.global_avg_pool ins(%x : tensor<128x7x7x768xf32>) outs(%init : tensor<128x1x1x768xf32>) -> tensor<128x1x1x768xf32>
  return %y : tensor<128x1x1x768xf32>
}

func.func @se_f16(%x: tensor<128x56x56x96xf16>) -> tensor<128x1x1x96xf16> {
  %init = tensor.empty() : tensor<128x1x1x96xf16>
  %y = dwc.global_avg_pool ins(%x : tensor<128x56x56x96xf16>) outs(%init : tensor<128x1x1x96xf16>) -> tensor<128x1x1x96xf16>
  return %y : tensor<128x1x1x96xf16>
}

func.func @odd_bf16(%x: tensor<3x7x9x77xbf16>) -> tensor<3x1x1x77xbf16> {
  %init = tensor.empty() : tensor<3x1x1x77xbf16>
  %y = dwc.global_avg_pool ins(%x : tensor<3x7x9x77xbf16>) outs(%init : tensor<3x1x1x77xbf16>) -> tensor<3x1x1x77xbf16>
  return %y : tensor<3x1x1x77xbf16>
}

func.func @grad_f16(%x: tensor<128x7x7x768xf16>, %dy: tensor<128x1x1x768xf16>) -> tensor<128x7x7x768xf16> {
  %init = tensor.empty() : tensor<128x7x7x768xf16>
  %dx = dwc.pool2d_backward avg ins(%x, %dy : tensor<128x7x7x768xf16>, tensor<128x1x1x768xf16>) outs(%init : tensor<128x7x7x768xf16>) window = [7, 7] strides = [7, 7] padding = [0, 0, 0, 0] -> tensor<128x7x7x768xf16>
  return %dx : tensor<128x7x7x768xf16>
}
