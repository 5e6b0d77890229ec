// RUN: dwc-opt %s --dwc-attach-target | FileCheck %s --check-prefix=H200
// RUN: dwc-opt %s --dwc-attach-target="chip=sm_90a sm-count=114" | FileCheck %s --check-prefix=H100PCIE
// RUN: dwc-opt %s --dwc-attach-target="chip=sm_80" | FileCheck %s --check-prefix=A100
// RUN: dwc-opt %s --dwc-attach-target="chip=sm_100" | FileCheck %s --check-prefix=B200
// RUN: dwc-opt %s --dwc-attach-target="chip=sm_89" | FileCheck %s --check-prefix=ADA
// RUN: dwc-opt %s --dwc-attach-target --dwc-attach-target | FileCheck %s --check-prefix=H200
// RUN: dwc-opt %s --dwc-attach-target --dwc-detach-target | FileCheck %s --check-prefix=DETACH
// RUN: not dwc-opt %s --dwc-attach-target="chip=sm_90a" --dwc-attach-target 2>&1 | FileCheck %s --check-prefix=CLASH
// RUN: not dwc-opt %s --dwc-attach-target="chip=sm90" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not dwc-opt %s --dwc-attach-target="chip=sm_90 features=+ptx70" 2>&1 | FileCheck %s --check-prefix=PTX
// RUN: not dwc-opt %s --dwc-attach-target="sm-count=2000" 2>&1 | FileCheck %s --check-prefix=SMS

// H200: module attributes {dwc.target = #dwc.target<chip = "sm_90", features = "+ptx80", sm_count = 132, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>}
// H100PCIE: #dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 114, shared_memory_per_block = 232448, shared_memory_per_sm = 233472, threads_per_sm = 2048, registers_per_sm = 65536>
// A100: #dwc.target<chip = "sm_80", features = "+ptx80", sm_count = 108, shared_memory_per_block = 166912, shared_memory_per_sm = 167936, threads_per_sm = 2048, registers_per_sm = 65536>
// ADA: #dwc.target<chip = "sm_89", features = "+ptx80", sm_count = 128, shared_memory_per_block = 101376, shared_memory_per_sm = 102400, threads_per_sm = 1536, registers_per_sm = 65536>
// B200: #dwc.target<chip = "sm_100", features = "+ptx86", sm_count = 148,
// DETACH-NOT: dwc.target
// CLASH: error: dwc-attach-target: the module targets #dwc.target<chip = "sm_90a"{{.*}} but the pipeline compiles for #dwc.target<chip = "sm_90",
// CHIP: error: dwc-attach-target: chip 'sm90' is not an NVIDIA GPU architecture of the form sm_<version>[a|f]
// PTX: error: dwc-attach-target: chip sm_90 needs PTX ISA 7.8 or newer (features=+ptx78), got +ptx70
// SMS: error: dwc-attach-target: sm-count 2000 is not in [1, 1024]
func.func @f() {
  return
}
