// Kernels of more than 10,000 operations after the NVVM lowering (here the
// streaming tensor-core kernel of a 51-tap f16 filter, ~25,000) are
// optimised by LLVM at -O1: at -O2/-O3 the NVPTX backend's straight-line
// strength reduction took over a second on them, for the same PTX up to
// register names. ptxas keeps the requested level. The small kernels of the
// same function (input transpose, filter band) keep the requested level.
// RUN: dwc-opt %s --dwc-to-nvvm=format=isa | FileCheck %s
// RUN: dwc-opt %s --dwc-to-nvvm="format=isa opt-level=0" | FileCheck %s --check-prefix=O0

// CHECK-DAG: gpu.binary @wide_mma_stream_workspace  [#gpu.object<#nvvm.target<O = 3, {{.*}}"ptxas-cmd-options" = ["--opt-level", "3"]
// CHECK-DAG: gpu.binary @wide_mma_stream_band  [#gpu.object<#nvvm.target<O = 3, {{.*}}"ptxas-cmd-options" = ["--opt-level", "3"]
// CHECK-DAG: gpu.binary @wide_mma_stream  [#gpu.object<#nvvm.target<O = 1, {{.*}}"ptxas-cmd-options" = ["--opt-level", "3"]
// O0-COUNT-3: #nvvm.target<O = 0, {{.*}}"ptxas-cmd-options" = ["--opt-level", "0"]

func.func @wide(%x: tensor<2x16x16x64xf16>, %w: tensor<51x51x64xf16>) -> tensor<2x16x16x64xf16> {
  %e = tensor.empty() : tensor<2x16x16x64xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<2x16x16x64xf16>, tensor<51x51x64xf16>) outs(%e : tensor<2x16x16x64xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [25, 25, 25, 25] -> tensor<2x16x16x64xf16>
  return %y : tensor<2x16x16x64xf16>
}
