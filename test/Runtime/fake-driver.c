// The runtime's per-call paths against a stand-in driver (Inputs/fake-driver.c,
// loaded through DWC_CUDA_DRIVER), so they run without a GPU: kernel handles
// are looked up in the driver once per (module, context, name) -- found again
// by the name's address, never stale after a buffer is reused for another
// name or after a module is unloaded and registered again --, the public
// pointer check still asks the driver and refuses host memory, and no kernel
// is launched after a failed allocation of the same call.
// RUN: %host_cc -shared -fPIC %S/Inputs/fake-driver.c -o %t-driver.so
// RUN: %host_cc %s %dwc_rt_cflags %dwc_rt_ldflags -ldl -o %t
// RUN: env DWC_CUDA_DRIVER=%t-driver.so %t %t-driver.so | FileCheck %s

#include "dwc/runtime.h"
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

enum { GET_FUNCTION, POINTER_QUERY, LAUNCH, MODULE_LOAD, MODULE_UNLOAD };
static long (*fakeCount)(int);

static void report(const char *what, dwc_status s) {
  printf("%s: %d [%s]\n", what, (int)s, s == DWC_SUCCESS ? "" : dwcGetLastErrorMessage());
  dwcTakeLastError();
}

int main(int argc, char **argv) {
  (void)argc;
  void *driver = dlopen(argv[1], RTLD_NOW);
  fakeCount = (long (*)(int))dlsym(driver, "fakeCount");
  report("init", dwcInit());
  // CHECK: init: 0 []

  static const char image[32] = "fake GPU binary";
  void *m = mgpuModuleLoad((void *)image, sizeof(image));
  void *k1 = mgpuModuleGetFunction(m, "kernel_a");
  void *k2 = mgpuModuleGetFunction(m, "kernel_a");
  char buf[32];
  strcpy(buf, "kernel_a");
  void *k3 = mgpuModuleGetFunction(m, buf); // same name, other address
  printf("same: %d %d lookups: %ld loads: %ld\n", k1 == k2, k1 == k3,
         fakeCount(GET_FUNCTION), fakeCount(MODULE_LOAD));
  // CHECK-NEXT: same: 1 1 lookups: 1 loads: 1
  strcpy(buf, "kernel_b"); // the buffer now names another kernel
  void *k4 = mgpuModuleGetFunction(m, buf);
  void *k5 = mgpuModuleGetFunction(m, buf);
  printf("other: %d %d lookups: %ld\n", k4 != k1 && k4 != NULL, k4 == k5,
         fakeCount(GET_FUNCTION));
  // CHECK-NEXT: other: 1 1 lookups: 2
  printf("missing: %p\n", mgpuModuleGetFunction(m, "missing"));
  // CHECK-NEXT: missing: (nil)
  report("missing", dwcTakeLastError());
  // CHECK-NEXT: missing: 9 [kernel 'missing' not found in the GPU binary: {{.*}}]

  // Unloaded and registered again (a library closed and reopened at the
  // same address): a new record, the driver is asked again.
  mgpuModuleUnload(m);
  void *m2 = mgpuModuleLoad((void *)image, sizeof(image));
  void *k6 = mgpuModuleGetFunction(m2, "kernel_a");
  printf("reloaded: unloads: %ld loads: %ld lookups: %ld fresh: %d\n",
         fakeCount(MODULE_UNLOAD), fakeCount(MODULE_LOAD), fakeCount(GET_FUNCTION),
         k6 != NULL && k6 != k1);
  // CHECK-NEXT: reloaded: unloads: 1 loads: 2 lookups: 4 fresh: 1

  void *dev = NULL;
  report("malloc", dwcMalloc(&dev, 1024));
  // CHECK-NEXT: malloc: 0 []
  long q0 = fakeCount(POINTER_QUERY);
  report("device", dwcCheckPointerNamed(dev, 16, "in0"));
  // CHECK-NEXT: device: 0 []
  float host[8];
  report("host", dwcCheckPointerNamed(host + 4, 16, "in1"));
  // CHECK-NEXT: host: 3 [argument in1 (0x{{[0-9a-f]+}}) is not a CUDA device pointer (host memory?)]
  report("host unnamed", dwcCheckPointer((const char *)dev - 0x100000000000ll + 0x1000, 16));
  // CHECK-NEXT: host unnamed: 3 [pointer (0x{{[0-9a-f]+}}) is not a CUDA device pointer (host memory?)]
  report("null", dwcCheckPointerNamed(NULL, 16, "out0"));
  // CHECK-NEXT: null: 3 [argument out0 is null]
  report("misaligned", dwcCheckPointerNamed((char *)dev + 4, 16, "out0"));
  // CHECK-NEXT: misaligned: 4 [argument out0 (0x{{[0-9a-f]+}}) is not 16-byte aligned]
  printf("driver queries: %ld\n", fakeCount(POINTER_QUERY) - q0);
  // CHECK-NEXT: driver queries: 3

  void *params[1] = {&dev};
  dwcSetStream((void *)0x1);
  for (int i = 0; i < 3; ++i)
    mgpuLaunchKernel(mgpuModuleGetFunction(m2, "kernel_a"), 1, 1, 1, 32, 1, 1, 0,
                     mgpuStreamCreate(), params, NULL, 1);
  dwcSetStream(NULL);
  printf("launches: %ld lookups: %ld pending: %d\n", fakeCount(LAUNCH), fakeCount(GET_FUNCTION),
         (int)dwcPeekLastError());
  // CHECK-NEXT: launches: 3 lookups: 4 pending: 0

  // A workspace that cannot be allocated: the call's kernels are not
  // launched on its null pointer; the allocation is the error reported.
  void *ws = mgpuMemAlloc(1ull << 41, NULL, false);
  mgpuLaunchKernel(mgpuModuleGetFunction(m2, "kernel_a"), 1, 1, 1, 32, 1, 1, 0, NULL,
                   params, NULL, 1);
  printf("workspace: %p launches: %ld\n", ws, fakeCount(LAUNCH));
  // CHECK-NEXT: workspace: (nil) launches: 3
  report("after", dwcTakeLastError());
  // CHECK-NEXT: after: 7 [mgpuMemAlloc(2199023255552 bytes): {{.*}}]
  mgpuLaunchKernel(mgpuModuleGetFunction(m2, "kernel_a"), 1, 1, 1, 32, 1, 1, 0, NULL,
                   params, NULL, 1);
  printf("next call launches: %ld\n", fakeCount(LAUNCH));
  // CHECK-NEXT: next call launches: 4

  // Inside a graph capture only a stream-ordered workspace may be allocated
  // (this driver has no cuMemAllocAsync): a clear error, not a cuMemAlloc
  // that invalidates the caller's capture.
  printf("capturing: %p\n", mgpuMemAlloc(64, (void *)0x2, false));
  // CHECK-NEXT: capturing: (nil)
  report("capture", dwcTakeLastError());
  // CHECK-NEXT: capture: 3 [mgpuMemAlloc(64 bytes): a workspace inside a CUDA graph capture needs the stream-ordered allocator {{.*}}]
  void *plain = mgpuMemAlloc(64, (void *)0x3, false);
  printf("not capturing: %d pending: %d\n", plain != NULL, (int)dwcPeekLastError());
  // CHECK-NEXT: not capturing: 1 pending: 0
  mgpuModuleUnload(m2);
  printf("modules: %d\n", dwcGetModuleCount());
  // CHECK-NEXT: modules: 0
  return 0;
}
