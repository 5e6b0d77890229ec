// PTX of the streaming band kernel as dwc-to-nvvm builds it for f16/bf16
// depthwise convolutions with FW >= 10 (convert-dwc-to-gpu-mma-stream):
// three kernels per convolution - the channel-major workspace (8 x 16-byte
// loads and stores per thread), the band workspace, and the streaming
// kernel: 32-bit global loads of the input words, the filter operand from
// 128-bit shared loads (input B: FW = 17, 2 blocks per SM as .minnctapersm)
// or 64-bit ones (input A: FW = 21 bf16), R x FH x slices mma.sync per row
// block (8 x 17 x 2 = 272; 8 x 5 x 2 = 80). ptxas: no spills.
// RUN: rm -rf %t && dwc-opt %s --dwc-to-nvvm=format=isa | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t > /dev/null
// RUN: FileCheck %s --check-prefix=PRE < %t/f17_mma_stream_workspace.ptx
// RUN: FileCheck %s --check-prefix=F17 < %t/f17_mma_stream.ptx
// RUN: FileCheck %s --check-prefix=F21 < %t/f21_mma_stream.ptx
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/f17_mma_stream.ptx -o %t/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90 -v %t/f21_mma_stream.ptx -o %t/b.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// PRE-COUNT-8: ld.global.v4.b32
// PRE-COUNT-8: st.global.v4.b32

// F17: .minnctapersm 2
// F17: ld.global.b32
// F17: ld.shared.v4.b32
// F17-COUNT-272: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// F17-NOT: mma.sync
// F17: bar.sync
// F17: st.global.v4.b32

// F21-NOT: .minnctapersm
// F21: ld.shared.v2.b32
// F21-COUNT-80: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// F21-NOT: mma.sync

// PTXAS: 0 bytes spill stores, 0 bytes spill loads

func.func @f17(%x: tensor<2x16x128x64xf16>, %w: tensor<17x17x64xf16>) -> tensor<2x16x128x64xf16> {
  %init = tensor.empty() : tensor<2x16x128x64xf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<2x16x128x64xf16>, tensor<17x17x64xf16>) outs(%init : tensor<2x16x128x64xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [8, 8, 8, 8] -> tensor<2x16x128x64xf16>
  return %y : tensor<2x16x128x64xf16>
}

func.func @f21(%x: tensor<2x16x40x64xbf16>, %w: tensor<5x21x64xbf16>) -> tensor<2x16x40x64xbf16> {
  %init = tensor.empty() : tensor<2x16x40x64xbf16>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<2x16x40x64xbf16>, tensor<5x21x64xbf16>) outs(%init : tensor<2x16x40x64xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [2, 2, 10, 10] -> tensor<2x16x40x64xbf16>
  return %y : tensor<2x16x40x64xbf16>
}
