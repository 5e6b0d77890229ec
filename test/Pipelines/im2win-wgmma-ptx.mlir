// PTX of the wgmma kernel of convert-dwc-to-gpu-im2win (#dwc.im2win_wgmma,
// what dwc-select-kernels chooses for f16/bf16 on sm_90a) through the whole
// dwc-to-nvvm pipeline for chip=sm_90a: cp.async stages, fence.proxy.async
// before the barrier, four wgmma.mma_async m64n128k16 (f32 accumulators, B
// transposed: imm-trans-b 1) per K tile between wgmma.fence and
// commit/wait; with two warpgroups the stages live in dynamic shared
// memory, with one (the automatic choice at this size) in 48 KB of static
// shared memory aligned to 1024 bytes; OC = 64 takes m64n64k16; overlap
// waits for all but the last group. ptxas -arch=sm_90a: no spills. Each
// variant is a configuration the RUN line writes on the ops (#dwc.im2win_mma:
// the mma.sync kernel); on an sm_90 target the wgmma configuration does not
// verify.
// RUN: rm -rf %t && sed 's/im2win_wgmma<>/im2win_wgmma<warpgroups = 2, tma_im2col = false>/' %s | dwc-opt --dwc-to-nvvm="format=isa chip=sm_90a" | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t > /dev/null
// RUN: FileCheck %s --check-prefixes=WG,WG2 < %t/cv10_f16_im2win_wgmma.ptx
// RUN: FileCheck %s --check-prefix=N64 < %t/cv9_bf16_im2win_wgmma.ptx
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90a -v %t/cv10_f16_im2win_wgmma.ptx -o %t/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90a -v %t/cv9_bf16_im2win_wgmma.ptx -o %t/b.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: rm -rf %t.1 && sed 's/im2win_wgmma<>/im2win_wgmma<warpgroups = 1, tma_im2col = false>/' %s | dwc-opt --dwc-to-nvvm="format=isa chip=sm_90a" | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t.1 > /dev/null
// RUN: FileCheck %s --check-prefixes=WG,WG1 < %t.1/cv10_f16_im2win_wgmma.ptx
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90a -v %t.1/cv10_f16_im2win_wgmma.ptx -o %t.1/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: rm -rf %t.o && sed 's/im2win_wgmma<>/im2win_wgmma<overlap = true>/' %s | dwc-opt --dwc-to-nvvm="format=isa chip=sm_90a" | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t.o > /dev/null
// RUN: FileCheck %s --check-prefix=OVL < %t.o/cv10_f16_im2win_wgmma.ptx
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90a -v %t.o/cv10_f16_im2win_wgmma.ptx -o %t.o/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: rm -rf %t.a && dwc-opt %s --dwc-to-nvvm="format=isa chip=sm_90a" | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t.a > /dev/null
// RUN: FileCheck %s --check-prefix=TMAI < %t.a/cv10_f16_im2win_wgmma.ptx
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90a -v %t.a/cv10_f16_im2win_wgmma.ptx -o %t.a/d.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: rm -rf %t.m && sed 's/im2win_wgmma<>/im2win_mma<>/' %s | dwc-opt --dwc-to-nvvm="format=isa chip=sm_90a" | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t.m > /dev/null
// RUN: FileCheck %s --check-prefix=MMA < %t.m/cv10_f16_im2win_mma.ptx
// RUN: sed 's/sm_90a/sm_90/' %s | not dwc-opt --dwc-to-nvvm="format=isa" 2>&1 | FileCheck %s --check-prefix=SM90
// Staged output stores (default): the fragments into shared memory, then
// 16-byte global stores. The C = 3 7x7 layer: two padding kernels, then
// the wgmma kernel with 8-byte A copies. specialize: mbarrier
// hand-over between a copying and two multiplying warpgroups, 5 stages
// (lag 3), per-warp staged stores, no block barrier in the loops; ptxas:
// no spills.
// RUN: FileCheck %s --check-prefix=STAGE < %t.a/cv10_f16_im2win_wgmma.ptx
// RUN: FileCheck %s --check-prefix=PAD < %t.a/cv3_f16_im2win_wgmma.ptx
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90a -v %t.a/cv3_f16_im2win_wgmma.ptx -o %t.a/c.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: rm -rf %t.s && sed 's/im2win_wgmma<>/im2win_wgmma<specialize = true, warpgroups = 2>/' %s | dwc-opt --dwc-to-nvvm="format=isa chip=sm_90a" | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t.s > /dev/null
// RUN: FileCheck %s --check-prefix=SPEC < %t.s/cv10_f16_im2win_wgmma.ptx
// RUN: rm -rf %t.t && sed 's/im2win_wgmma<>/im2win_wgmma<tma_filter = true>/' %s | dwc-opt --dwc-to-nvvm="format=isa chip=sm_90a" | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t.t > /dev/null
// RUN: FileCheck %s --check-prefix=TMA < %t.t/cv10_f16_im2win_wgmma.ptx
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90a -v %t.t/cv10_f16_im2win_wgmma.ptx -o %t.t/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90a -v %t.s/cv10_f16_im2win_wgmma.ptx -o %t.s/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// WG: .target sm_90a
// WG-LABEL: .entry cv10_f16_im2win_wgmma
// WG2: .maxntid 256, 1, 1
// WG2: .shared .align 16 .b8 __dynamic_shmem__0;
// WG1: .maxntid 128, 1, 1
// WG1: .shared .align 1024 .b8 __wg_cv10_f16_im2win_wgmma_0[16384];
// WG1: .shared .align 1024 .b8 __wg_cv10_f16_im2win_wgmma_1[32768];
// WG: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 16
// WG: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16
// WG: cp.async.commit_group;
// WG: cp.async.wait_group
// WG-NEXT: fence.proxy.async.shared::cta;
// WG-NEXT: bar.sync 0;
// WG: wgmma.fence.sync.aligned;
// WG-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, p, 1,  1, 0,  1;
// WG: wgmma.commit_group.sync.aligned;
// WG-NEXT: wgmma.wait_group.sync.aligned 0;
// WG-NEXT: bar.sync 0;

// OVL-LABEL: .entry cv10_f16_im2win_wgmma
// OVL: wgmma.wait_group.sync.aligned 0;
// OVL-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16
// OVL: wgmma.commit_group.sync.aligned;
// OVL: wgmma.wait_group.sync.aligned 1;

// MMA-LABEL: .entry cv10_f16_im2win_mma
// MMA-NOT: wgmma
// MMA: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// N64-LABEL: .entry cv9_bf16_im2win_wgmma
// N64-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16

// The default at sm_90a for C % 64 == 0, stride 1 (cv10): both operands by
// TMA (im2col mode for the input), mbarrier per stage, no cp.async.
// TMAI-LABEL: .entry cv10_f16_im2win_wgmma
// TMAI-NOT: cp.async.ca
// TMAI: mbarrier.arrive.expect_tx.shared.b64
// TMAI: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// TMAI: cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [{{.*}}], [{{.*}}, {{{.*}}}], [{{.*}}], {{{.*}}};
// TMAI: mbarrier.try_wait.parity.shared.b64
// TMAI-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// TMAI: st.global.v4.b32

// STAGE-LABEL: .entry cv10_f16_im2win_wgmma
// STAGE: wgmma.wait_group.sync.aligned 0;
// STAGE: cp.async.wait_group 0;
// STAGE: st.shared.b32
// STAGE: bar.sync 0;
// STAGE: ld.shared.v4.b32
// STAGE: st.global.v4.b32

// PAD-LABEL: .entry cv3_f16_im2win_wgmma
// PAD: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 8
// PAD: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16

// SPEC-LABEL: .entry cv10_f16_im2win_wgmma
// SPEC: .maxntid 384, 1, 1
// SPEC: mbarrier.init.shared.b64
// SPEC: mbarrier.try_wait.parity.shared.b64
// SPEC: cp.async.wait_group 3;
// SPEC-NEXT: fence.proxy.async.shared::cta;
// SPEC: mbarrier.arrive.shared.b64
// SPEC: wgmma.wait_group.sync.aligned 1;
// SPEC: bar.warp.sync
// SPEC: st.global.v4.b32

// TMA-LABEL: .entry cv10_f16_im2win_wgmma
// TMA: mbarrier.init.shared.b64
// TMA: mbarrier.arrive.expect_tx.shared.b64
// TMA: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// TMA: mbarrier.try_wait.parity.shared.b64

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// SM90: does not fit this op: target sm_90 has no wgmma (sm_90a has)

module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @cv10_f16(%x: tensor<128x28x28x128xf16>, %w: tensor<3x3x128x128xf16>) -> tensor<128x26x26x128xf16> {
    %i = tensor.empty() : tensor<128x26x26x128xf16>
    %y = dwc.conv2d ins(%x, %w : tensor<128x28x28x128xf16>, tensor<3x3x128x128xf16>) outs(%i : tensor<128x26x26x128xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<>} -> tensor<128x26x26x128xf16>
    return %y : tensor<128x26x26x128xf16>
  }

  func.func @cv9_bf16(%x: tensor<128x56x56x64xbf16>, %w: tensor<3x3x64x64xbf16>) -> tensor<128x54x54x64xbf16> {
    %i = tensor.empty() : tensor<128x54x54x64xbf16>
    %y = dwc.conv2d ins(%x, %w : tensor<128x56x56x64xbf16>, tensor<3x3x64x64xbf16>) outs(%i : tensor<128x54x54x64xbf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<>} -> tensor<128x54x54x64xbf16>
    return %y : tensor<128x54x54x64xbf16>
  }

  func.func @cv3_f16(%x: tensor<2x45x45x3xf16>, %w: tensor<7x7x3x64xf16>) -> tensor<2x20x20x64xf16> {
    %i = tensor.empty() : tensor<2x20x20x64xf16>
    %y = dwc.conv2d ins(%x, %w : tensor<2x45x45x3xf16>, tensor<7x7x3x64xf16>) outs(%i : tensor<2x20x20x64xf16>)
      strides = [2, 2] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<>} -> tensor<2x20x20x64xf16>
    return %y : tensor<2x20x20x64xf16>
  }
}
