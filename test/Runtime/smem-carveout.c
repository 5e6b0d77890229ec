// DWC_SMEM_CARVEOUT: the preferred shared-memory carveout set on each kernel
// once, when it is looked up (per cent, 0..100), against the stand-in driver
// (Inputs/fake-driver.c); unset, empty or malformed values leave the driver's
// choice and never fail the lookup.
// RUN: %host_cc -shared -fPIC %S/Inputs/fake-driver.c -o %t-driver.so
// RUN: %host_cc %s %dwc_rt_cflags %dwc_rt_ldflags -ldl -o %t
// RUN: env DWC_CUDA_DRIVER=%t-driver.so DWC_SMEM_CARVEOUT=50 %t %t-driver.so | FileCheck %s --check-prefix=SET
// RUN: env DWC_CUDA_DRIVER=%t-driver.so DWC_SMEM_CARVEOUT=0 %t %t-driver.so | FileCheck %s --check-prefix=ZERO
// RUN: env DWC_CUDA_DRIVER=%t-driver.so %t %t-driver.so | FileCheck %s --check-prefix=UNSET
// RUN: env DWC_CUDA_DRIVER=%t-driver.so DWC_SMEM_CARVEOUT=101 %t %t-driver.so | FileCheck %s --check-prefix=UNSET
// RUN: env DWC_CUDA_DRIVER=%t-driver.so DWC_SMEM_CARVEOUT=-1 %t %t-driver.so | FileCheck %s --check-prefix=UNSET
// RUN: env DWC_CUDA_DRIVER=%t-driver.so DWC_SMEM_CARVEOUT=50x %t %t-driver.so | FileCheck %s --check-prefix=UNSET
// RUN: env DWC_CUDA_DRIVER=%t-driver.so DWC_SMEM_CARVEOUT= %t %t-driver.so | FileCheck %s --check-prefix=UNSET

#include "dwc/runtime.h"
#include <dlfcn.h>
#include <stdio.h>

enum { CARVEOUT_SET = 5 };

int main(int argc, char **argv) {
  (void)argc;
  void *driver = dlopen(argv[1], RTLD_NOW);
  long (*count)(int) = (long (*)(int))dlsym(driver, "fakeCount");
  int (*last)(void) = (int (*)(void))dlsym(driver, "fakeLastCarveout");
  static const char image[32] = "fake GPU binary";
  void *m = mgpuModuleLoad((void *)image, sizeof(image));
  void *a = mgpuModuleGetFunction(m, "kernel_a");
  void *a2 = mgpuModuleGetFunction(m, "kernel_a"); // cached: not set again
  void *b = mgpuModuleGetFunction(m, "kernel_b");
  printf("found: %d %d %d, carveout set %ld times, last %d, status %d\n", a != 0, a2 == a,
         b != 0, count(CARVEOUT_SET), last(), (int)dwcTakeLastError());
  // SET: found: 1 1 1, carveout set 2 times, last 50, status 0
  // ZERO: found: 1 1 1, carveout set 2 times, last 0, status 0
  // UNSET: found: 1 1 1, carveout set 0 times, last -1, status 0
  mgpuModuleUnload(m);
  return 0;
}
