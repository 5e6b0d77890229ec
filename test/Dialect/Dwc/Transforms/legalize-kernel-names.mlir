// dwc-legalize-kernel-names renames outlined kernels and their modules to
// PTX identifiers, updates their launches, and leaves legal names and host
// functions alone.
// RUN: dwc-opt %s --dwc-legalize-kernel-names | FileCheck %s

module attributes {gpu.container_module} {
  // CHECK: gpu.module @conv_1_kernel {
  // CHECK:   gpu.func @conv_1_kernel() kernel
  gpu.module @"conv-1_kernel" {
    gpu.func @"conv-1_kernel"() kernel { gpu.return }
  }
  // A legal name that the first rename would produce: the second gets _1.
  // CHECK: gpu.module @a_b_kernel {
  // CHECK:   gpu.func @a_b_kernel() kernel
  gpu.module @a_b_kernel {
    gpu.func @a_b_kernel() kernel { gpu.return }
  }
  // CHECK: gpu.module @a_b_kernel_1 {
  // CHECK:   gpu.func @a_b_kernel() kernel
  gpu.module @"a.b_kernel" {
    gpu.func @"a.b_kernel"() kernel { gpu.return }
  }
  // A name starting with a digit.
  // CHECK: gpu.module @_1x_kernel {
  gpu.module @"1x_kernel" {
    gpu.func @"1x_kernel"() kernel { gpu.return }
  }
  // CHECK-LABEL: func.func @"conv-1"
  func.func @"conv-1"() {
    %c1 = arith.constant 1 : index
    // CHECK: gpu.launch_func  @conv_1_kernel::@conv_1_kernel
    gpu.launch_func @"conv-1_kernel"::@"conv-1_kernel" blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    // CHECK: gpu.launch_func  @a_b_kernel::@a_b_kernel
    gpu.launch_func @a_b_kernel::@a_b_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    // CHECK: gpu.launch_func  @a_b_kernel_1::@a_b_kernel
    gpu.launch_func @"a.b_kernel"::@"a.b_kernel" blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    // CHECK: gpu.launch_func  @_1x_kernel::@_1x_kernel
    gpu.launch_func @"1x_kernel"::@"1x_kernel" blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
