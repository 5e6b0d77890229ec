// dwc-check-reserved-symbols refuses top-level symbols named like the
// runtime's entry points or the symbols of the generated host code, and
// leaves other modules unchanged.
// RUN: dwc-opt %s -dwc-check-reserved-symbols -split-input-file -verify-diagnostics | FileCheck %s
// Every entry point the runtime exports (runtime.h) is refused.
// RUN: sed -n 's/^DWC_RT_API[^(]*[ *]\([A-Za-z0-9_]*\)(.*/\1/p' %dwc_src/runtime/include/dwc/runtime.h > %t.names
// RUN: test $(wc -l < %t.names) -gt 30
// RUN: for n in $(cat %t.names); do printf 'func.func @%%s() {\n  return\n}\n' $n > %t.in; not dwc-opt -dwc-check-reserved-symbols %t.in 2> %t.err; grep -q "symbol name '$n' is reserved" %t.err || echo "not refused: $n"; done > %t.missed
// RUN: not test -s %t.missed

// expected-error @+1 {{symbol name 'mgpuLaunchKernel' is reserved for the dwc runtime and the generated host code}}
func.func @mgpuLaunchKernel(%a: index) {
  return
}

// -----

// expected-error @+1 {{symbol name 'mgpuModuleLoad' is reserved}}
func.func private @mgpuModuleLoad(!llvm.ptr, i64) -> !llvm.ptr

// -----

// expected-error @+1 {{symbol name '_mlir_ciface_f' is reserved}}
func.func @_mlir_ciface_f() {
  return
}

// -----

// expected-error @+1 {{symbol name 'dwcTakeLastError' is reserved}}
func.func @dwcTakeLastError() -> i32 {
  %c = arith.constant 0 : i32
  return %c : i32
}

// -----

// expected-error @+1 {{symbol name 'malloc' is reserved}}
func.func @malloc(%n: i64) {
  return
}

// -----

// expected-error @+1 {{symbol name 'mgpuStreamCreate' is reserved}}
memref.global "private" @mgpuStreamCreate : memref<4xf32> = dense<0.0>

// -----

// Names that merely look alike are fine: dwc_<name> entry points, dwc
// followed by a lower-case letter or an underscore, mgp.
// CHECK-LABEL: func @dwc_conv
// CHECK-LABEL: func @dwconv
// CHECK-LABEL: func @mgp
// CHECK-LABEL: func @my_mgpuLaunchKernel
func.func @dwc_conv() {
  return
}
func.func @dwconv() {
  return
}
func.func @mgp() {
  return
}
func.func @my_mgpuLaunchKernel() {
  return
}
