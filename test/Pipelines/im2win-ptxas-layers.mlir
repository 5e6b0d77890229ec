// ptxas -v on the dense conv2d kernels at benchmark sizes (batch 128,
// layers cv8 and cv9 of BRIEF.md section 3, f16 and f32): no spills with
// the default launch bounds (256 threads, no minimum of blocks per SM), nor
// for the 128 x 128 tensor-core kernel of cv8 with min_blocks_per_sm = 2
// (then within 128 registers).
// REQUIRES: ptxas
// RUN: rm -rf %t %t.2 && dwc-opt %s --dwc-to-nvvm="format=isa" | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t > /dev/null
// RUN: FileCheck %s --check-prefix=NOBOUND < %t/cv8_f16_im2win_mma.ptx
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/cv8_f16_im2win_mma.ptx -o %t/a.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/cv9_f16_im2win_mma.ptx -o %t/b.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/cv8_f32_im2win_simt.ptx -o %t/c.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: sed 's/im2win_mma<>/im2win_mma<min_blocks_per_sm = 2>/' %s | dwc-opt --dwc-to-nvvm="format=isa" | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t.2 > /dev/null
// RUN: FileCheck %s --check-prefix=BOUND < %t.2/cv8_f16_im2win_mma.ptx
// RUN: %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t.2/cv8_f16_im2win_mma.ptx -o %t.2/a.cubin 2>&1 | FileCheck %s --check-prefixes=NOSPILL,REGS

// NOSPILL: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// REGS: Used 128 registers
// BOUND: .minnctapersm 2
// NOBOUND-NOT: .minnctapersm

func.func @cv8_f16(%x: tensor<128x112x112x64xf16>, %w: tensor<3x3x64x128xf16>) -> tensor<128x110x110x128xf16> {
  %i = tensor.empty() : tensor<128x110x110x128xf16>
  %y = dwc.conv2d ins(%x, %w : tensor<128x112x112x64xf16>, tensor<3x3x64x128xf16>) outs(%i : tensor<128x110x110x128xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_mma<>} -> tensor<128x110x110x128xf16>
  return %y : tensor<128x110x110x128xf16>
}

func.func @cv9_f16(%x: tensor<128x56x56x64xf16>, %w: tensor<3x3x64x64xf16>) -> tensor<128x54x54x64xf16> {
  %i = tensor.empty() : tensor<128x54x54x64xf16>
  %y = dwc.conv2d ins(%x, %w : tensor<128x56x56x64xf16>, tensor<3x3x64x64xf16>) outs(%i : tensor<128x54x54x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] -> tensor<128x54x54x64xf16>
  return %y : tensor<128x54x54x64xf16>
}

func.func @cv8_f32(%x: tensor<128x112x112x64xf32>, %w: tensor<3x3x64x128xf32>) -> tensor<128x110x110x128xf32> {
  %i = tensor.empty() : tensor<128x110x110x128xf32>
  %y = dwc.conv2d ins(%x, %w : tensor<128x112x112x64xf32>, tensor<3x3x64x128xf32>) outs(%i : tensor<128x110x110x128xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] -> tensor<128x110x110x128xf32>
  return %y : tensor<128x110x110x128xf32>
}
