// PTX of the wgmma kernel's experimental fields through dwc-to-nvvm for
// chip=sm_90a on the cv11 layer (f16, 256 -> 256 channels, 3x3):
// n = 256 issues four wgmma.mma_async m64n256k16 per K tile (one or
// two warpgroups, dynamic shared memory); barriers = 1 leaves one
// bar.sync in the kernel (two by default). ptxas -arch=sm_90a: no spills.
// RUN: rm -rf %t && sed 's/im2win_wgmma<>/im2win_wgmma<n = 256>/' %s | dwc-opt --dwc-to-nvvm="format=isa chip=sm_90a" | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t > /dev/null
// RUN: FileCheck %s --check-prefix=N256 < %t/cv11_im2win_wgmma.ptx
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90a -v %t/cv11_im2win_wgmma.ptx -o %t/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: rm -rf %t.2 && sed 's/im2win_wgmma<>/im2win_wgmma<n = 256, warpgroups = 2>/' %s | dwc-opt --dwc-to-nvvm="format=isa chip=sm_90a" | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t.2 > /dev/null
// RUN: FileCheck %s --check-prefix=N256 < %t.2/cv11_im2win_wgmma.ptx
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90a -v %t.2/cv11_im2win_wgmma.ptx -o %t.2/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: rm -rf %t.1 && sed 's/im2win_wgmma<>/im2win_wgmma<barriers = 1>/' %s | dwc-opt --dwc-to-nvvm="format=isa chip=sm_90a" | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t.1 > /dev/null
// RUN: FileCheck %s --check-prefix=ONE < %t.1/cv11_im2win_wgmma.ptx
// RUN: %if ptxas %{ %cuda_toolkit/bin/ptxas -arch=sm_90a -v %t.1/cv11_im2win_wgmma.ptx -o %t.1/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: rm -rf %t.d && dwc-opt %s --dwc-to-nvvm="format=isa chip=sm_90a" | %PYTHON %S/Inputs/extract_ptx.py --out-dir %t.d > /dev/null
// RUN: FileCheck %s --check-prefix=TWO < %t.d/cv11_im2win_wgmma.ptx

// N256: .target sm_90a
// N256-LABEL: .entry cv11_im2win_wgmma
// N256: .shared .align 16 .b8 __dynamic_shmem__0;
// N256-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
// N256: wgmma.wait_group.sync.aligned 0;

// ONE-LABEL: .entry cv11_im2win_wgmma
// ONE: bar.sync 0;
// ONE-NOT: bar.sync
// ONE-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16
// ONE: wgmma.commit_group.sync.aligned;
// ONE: cp.async.cg.shared.global
// ONE: wgmma.wait_group.sync.aligned 0;
// ONE-NOT: bar.sync

// TWO-LABEL: .entry cv11_im2win_wgmma
// TWO: bar.sync 0;
// TWO: wgmma.wait_group.sync.aligned 0;
// TWO-NEXT: bar.sync 0;

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

module attributes {dwc.target = #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>} {
  func.func @cv11(%x: tensor<128x14x14x256xf16>, %w: tensor<3x3x256x256xf16>) -> tensor<128x12x12x256xf16> {
    %i = tensor.empty() : tensor<128x12x12x256xf16>
    %y = dwc.conv2d ins(%x, %w : tensor<128x14x14x256xf16>, tensor<3x3x256x256xf16>) outs(%i : tensor<128x12x12x256xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.im2win_wgmma<>} -> tensor<128x12x12x256xf16>
    return %y : tensor<128x12x12x256xf16>
  }
}
