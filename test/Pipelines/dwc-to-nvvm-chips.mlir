// The fast paths need sm_80 (cp.async, m16n8k16 mma.sync): older chips get
// the direct kernels instead of an LLVM error, newer ones the fast paths
// with the PTX version they need (sm_100: 8.6 by default).
// RUN: dwc-opt %s --dwc-to-nvvm="chip=sm_75 format=isa" | FileCheck %s --check-prefix=SM75
// RUN: dwc-opt %s --dwc-to-nvvm="chip=sm_52 format=isa" | FileCheck %s --check-prefix=SM52
// RUN: dwc-opt %s --dwc-to-nvvm="chip=sm_100 format=isa" | FileCheck %s --check-prefix=SM100
// RUN: dwc-opt %s --dwc-to-nvvm="chip=sm_90 format=isa" | FileCheck %s --check-prefix=SM90
// RUN: dwc-opt %s --dwc-to-nvvm="chip=sm_120a features=+ptx88 format=isa" | FileCheck %s --check-prefix=SM120A

// SM75: .version 8.0
// SM75: .target sm_75
// SM75-NOT: cp.async
// SM75-NOT: mma.sync
// SM52: .target sm_52
// SM52-NOT: cp.async
// SM100: .version 8.6
// SM100: .target sm_100
// SM90: .version 8.0
// SM90: .target sm_90
// SM90: mma.sync
// SM120A: .version 8.8
// SM120A: .target sm_120a

func.func @f(%x: tensor<2x16x16x16xf16>, %w: tensor<9x9x16xf16>, %i: tensor<2x16x16x16xf16>) -> tensor<2x16x16x16xf16> {
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<2x16x16x16xf16>, tensor<9x9x16xf16>) outs(%i : tensor<2x16x16x16xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [4, 4, 4, 4] -> tensor<2x16x16x16xf16>
  return %0 : tensor<2x16x16x16xf16>
}
