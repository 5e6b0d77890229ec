// The register (taps) backward-filter kernels of the default classes
// assemble for sm_90 with ptxas without spilling (chosen by
// dwc-select-kernels, no request): 56 x 56 x 144 3x3 f16 (64-bit vectors,
// 2 x 28 bands with prefetch), 14 x 14 x 576 3x3 bf16 (4 x 16, prefetch),
// 56 x 56 x 144 3x3 f32 (2 x 32 bands), 28 x 28 x 192 3x3 f32 (2 x 28,
// prefetch), 28 x 28 x 240 5x5 f32 (2 x 28: 238 registers), a 5 x 13 f32
// filter on 7 x 7 maps (64-bit vectors), the slice reduction's two levels,
// and the layer-set classes: 112 x 112 x 32 3x3 f32 (2 x 16 in 128-thread blocks,
// prefetch: 168 registers), 14 x 14 x 384 3x3 f16 (2 x 16, 128 threads,
// prefetch), 14 x 14 x 384 3x3 f32 (4 steps per loop iteration), 28 x 28 x
// 240 5x5 f16 and 28 x 28 x 192 3x3 f16 (4 x 16, prefetch). (14 x 14 x 480
// 3x3 f32, 4 steps per iteration, assembles with an 8-byte spill at 128
// registers: docs/KernelSelection.md.)
// REQUIRES: ptxas
// RUN: rm -rf %t && dwc-opt %s --dwc-to-nvvm=format=isa | %PYTHON %S/../../Pipelines/Inputs/extract_ptx.py --out-dir %t > /dev/null
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c144_f16_bwd_filter_taps.ptx -o %t/a.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c576_bf16_bwd_filter_taps.ptx -o %t/b.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c144_f32_bwd_filter_taps.ptx -o %t/c.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c192_f32_bwd_filter_taps.ptx -o %t/d.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c240_f32_5x5_bwd_filter_taps.ptx -o %t/e.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c768_f32_5x13_bwd_filter_taps.ptx -o %t/f.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c144_f16_bwd_filter_taps_partial.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c144_f16_bwd_filter_taps_reduce.ptx -o %t/h.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c32_f32_bwd_filter_taps.ptx -o %t/i.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c384_f16_bwd_filter_taps.ptx -o %t/j.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c384_f32_bwd_filter_taps.ptx -o %t/k.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c240_f16_5x5_bwd_filter_taps.ptx -o %t/l.cubin 2>&1 | FileCheck %s
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/c192_f16_bwd_filter_taps.ptx -o %t/m.cubin 2>&1 | FileCheck %s

// CHECK: Compiling entry function
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Used {{[0-9]+}} registers

func.func @c144_f16(%x: tensor<64x56x56x144xf16>, %dy: tensor<64x56x56x144xf16>) -> tensor<3x3x144xf16> {
  %e = tensor.empty() : tensor<3x3x144xf16>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<64x56x56x144xf16>, tensor<64x56x56x144xf16>) outs(%e : tensor<3x3x144xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<3x3x144xf16>
  return %dw : tensor<3x3x144xf16>
}

func.func @c576_bf16(%x: tensor<64x14x14x576xbf16>, %dy: tensor<64x14x14x576xbf16>) -> tensor<3x3x576xbf16> {
  %e = tensor.empty() : tensor<3x3x576xbf16>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<64x14x14x576xbf16>, tensor<64x14x14x576xbf16>) outs(%e : tensor<3x3x576xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<3x3x576xbf16>
  return %dw : tensor<3x3x576xbf16>
}

func.func @c144_f32(%x: tensor<64x56x56x144xf32>, %dy: tensor<64x56x56x144xf32>) -> tensor<3x3x144xf32> {
  %e = tensor.empty() : tensor<3x3x144xf32>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<64x56x56x144xf32>, tensor<64x56x56x144xf32>) outs(%e : tensor<3x3x144xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<3x3x144xf32>
  return %dw : tensor<3x3x144xf32>
}

func.func @c192_f32(%x: tensor<64x28x28x192xf32>, %dy: tensor<64x28x28x192xf32>) -> tensor<3x3x192xf32> {
  %e = tensor.empty() : tensor<3x3x192xf32>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<64x28x28x192xf32>, tensor<64x28x28x192xf32>) outs(%e : tensor<3x3x192xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<3x3x192xf32>
  return %dw : tensor<3x3x192xf32>
}

func.func @c240_f32_5x5(%x: tensor<64x28x28x240xf32>, %dy: tensor<64x28x28x240xf32>) -> tensor<5x5x240xf32> {
  %e = tensor.empty() : tensor<5x5x240xf32>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<64x28x28x240xf32>, tensor<64x28x28x240xf32>) outs(%e : tensor<5x5x240xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] -> tensor<5x5x240xf32>
  return %dw : tensor<5x5x240xf32>
}

func.func @c768_f32_5x13(%x: tensor<32x7x7x768xf32>, %dy: tensor<32x7x7x768xf32>) -> tensor<5x13x768xf32> {
  %e = tensor.empty() : tensor<5x13x768xf32>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<32x7x7x768xf32>, tensor<32x7x7x768xf32>) outs(%e : tensor<5x13x768xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 6, 6] -> tensor<5x13x768xf32>
  return %dw : tensor<5x13x768xf32>
}

func.func @c32_f32(%x: tensor<64x112x112x32xf32>, %dy: tensor<64x112x112x32xf32>) -> tensor<3x3x32xf32> {
  %e = tensor.empty() : tensor<3x3x32xf32>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<64x112x112x32xf32>, tensor<64x112x112x32xf32>) outs(%e : tensor<3x3x32xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<3x3x32xf32>
  return %dw : tensor<3x3x32xf32>
}

func.func @c384_f16(%x: tensor<64x14x14x384xf16>, %dy: tensor<64x14x14x384xf16>) -> tensor<3x3x384xf16> {
  %e = tensor.empty() : tensor<3x3x384xf16>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<64x14x14x384xf16>, tensor<64x14x14x384xf16>) outs(%e : tensor<3x3x384xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<3x3x384xf16>
  return %dw : tensor<3x3x384xf16>
}

func.func @c384_f32(%x: tensor<64x14x14x384xf32>, %dy: tensor<64x14x14x384xf32>) -> tensor<3x3x384xf32> {
  %e = tensor.empty() : tensor<3x3x384xf32>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<64x14x14x384xf32>, tensor<64x14x14x384xf32>) outs(%e : tensor<3x3x384xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<3x3x384xf32>
  return %dw : tensor<3x3x384xf32>
}

func.func @c240_f16_5x5(%x: tensor<64x28x28x240xf16>, %dy: tensor<64x28x28x240xf16>) -> tensor<5x5x240xf16> {
  %e = tensor.empty() : tensor<5x5x240xf16>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<64x28x28x240xf16>, tensor<64x28x28x240xf16>) outs(%e : tensor<5x5x240xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 2, 2] -> tensor<5x5x240xf16>
  return %dw : tensor<5x5x240xf16>
}

func.func @c192_f16(%x: tensor<64x28x28x192xf16>, %dy: tensor<64x28x28x192xf16>) -> tensor<3x3x192xf16> {
  %e = tensor.empty() : tensor<3x3x192xf16>
  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<64x28x28x192xf16>, tensor<64x28x28x192xf16>) outs(%e : tensor<3x3x192xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<3x3x192xf16>
  return %dw : tensor<3x3x192xf16>
}
