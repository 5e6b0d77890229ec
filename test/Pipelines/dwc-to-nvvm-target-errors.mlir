// dwc-to-nvvm checks its options before building the pipeline: a bad chip,
// PTX version, format, opt-level, sm-count or toolkit, or an option it does not have, is a diagnostic and a non-zero exit, never an abort.
// RUN: not dwc-opt %s --dwc-to-nvvm="chip=" 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not dwc-opt %s --dwc-to-nvvm="chip=sm90" 2>&1 | FileCheck %s --check-prefix=NOUNDERSCORE
// RUN: not dwc-opt %s --dwc-to-nvvm="chip=SM_90" 2>&1 | FileCheck %s --check-prefix=UPPER
// RUN: not dwc-opt %s --dwc-to-nvvm="chip=sm_90x" 2>&1 | FileCheck %s --check-prefix=SUFFIX
// RUN: not dwc-opt %s --dwc-to-nvvm="chip=sm_80a" 2>&1 | FileCheck %s --check-prefix=NOVARIANT
// RUN: not dwc-opt %s --dwc-to-nvvm="chip=sm_91" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not dwc-opt %s --dwc-to-nvvm="chip=sm_100 features=+ptx80" 2>&1 | FileCheck %s --check-prefix=OLDPTX
// RUN: not dwc-opt %s --dwc-to-nvvm="chip=sm_90a features=+ptx78" 2>&1 | FileCheck %s --check-prefix=OLDPTX90A
// RUN: not dwc-opt %s --dwc-to-nvvm="features=ptx80" 2>&1 | FileCheck %s --check-prefix=BADFEATURE
// RUN: not dwc-opt %s --dwc-to-nvvm="format=ptx" 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not dwc-opt %s --dwc-to-nvvm="opt-level=7 format=isa" 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not dwc-opt %s --dwc-to-nvvm="sm-count=-1 format=isa" 2>&1 | FileCheck %s --check-prefix=SMS
// RUN: not dwc-opt %s --dwc-to-nvvm="format=bin toolkit=/nonexistent" 2>&1 | FileCheck %s --check-prefix=TOOLKIT
// PTX versions LLVM does not know are refused, not ignored (LLVM would
// write its default version), and a given toolkit is checked for PTX text
// too.
// RUN: for v in 999 79 89 100 0 1 +80 8a; do not dwc-opt %s --dwc-to-nvvm="features=+ptx$v format=isa" 2>&1 | FileCheck %s --check-prefix=UNKNOWNPTX; done
// RUN: not dwc-opt %s --dwc-to-nvvm="format=isa toolkit=/nonexistent" 2>&1 | FileCheck %s --check-prefix=TOOLKIT
// An error that an upstream pass reports without failing (a toolkit with
// ptxas but no libdevice) fails the pipeline: no output, a non-zero exit.
// RUN: rm -rf %t && mkdir -p %t/tk/bin && printf '#!/bin/sh\nexit 1\n' > %t/tk/bin/ptxas && chmod +x %t/tk/bin/ptxas
// RUN: not dwc-opt %s --dwc-to-nvvm="format=isa toolkit=%t/tk" -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=LIBDEVICE
// RUN: not test -e %t/out.mlir
// Which kernel implements an op is its dwc.kernel configuration, not an
// option: the former kernel options are unknown options.
// RUN: for o in fast-paths=false tensor-cores=false lower-other-ops=false conv-options=x gemv-options=x mma-options=x stream-options=x pool-options=x global-pool-options=x bwd-filter-options=x bwd-filter-z=2; do not dwc-opt %s --dwc-to-nvvm="$o" 2>&1 | FileCheck %s --check-prefix=REMOVED; done

// EMPTY: error: chip '' is not an NVIDIA GPU architecture of the form sm_<version>[a|f] (known: sm_50,
// NOUNDERSCORE: error: chip 'sm90' is not an NVIDIA GPU architecture
// UPPER: error: chip 'SM_90' is not an NVIDIA GPU architecture
// SUFFIX: error: chip 'sm_90x' is not an NVIDIA GPU architecture
// NOVARIANT: error: chip 'sm_80a': sm_80 has no 'a' variant
// UNKNOWN: error: chip 'sm_91' is not an NVIDIA GPU architecture
// OLDPTX: error: chip sm_100 needs PTX ISA 8.6 or newer (features=+ptx86), got +ptx80
// OLDPTX90A: error: chip sm_90a needs PTX ISA 8.0 or newer (features=+ptx80), got +ptx78
// BADFEATURE: error: features 'ptx80' is not a PTX ISA version of the form +ptx<NN>
// FORMAT: error: dwc-to-nvvm: format 'ptx' is not one of isa (PTX text), bin (cubin), fatbin
// OPT: error: dwc-to-nvvm: opt-level 7 is not in [0, 3]
// SMS: error: sm-count -1 is not in [1, 1024] (0: the chip's, 132 for sm_90)
// TOOLKIT: error: toolkit '/nonexistent' has no bin/ptxas
// UNKNOWNPTX: error: features '+ptx{{.*}}' is not a {{(PTX ISA version LLVM knows \(known: \+ptx32, .*, \+ptx90\))|(PTX ISA version of the form \+ptx<NN>)}}
// UNKNOWNPTX-NOT: ignoring feature
// LIBDEVICE: error: LibDevice path: {{.*}}tk/nvvm/libdevice/libdevice.10.bc does not exist
// REMOVED: no such option
// CHECK-NOT: LLVM ERROR

func.func @f(%x: tensor<1x8x8x8xf16>, %w: tensor<3x3x8xf16>, %i: tensor<1x8x8x8xf16>) -> tensor<1x8x8x8xf16> {
  %0 = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x8xf16>, tensor<3x3x8xf16>) outs(%i : tensor<1x8x8x8xf16>)
         strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x8xf16>
  return %0 : tensor<1x8x8x8xf16>
}
