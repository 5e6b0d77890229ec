// Runtime on a machine without a CUDA driver: dwcInit reports it clearly,
// mgpu* entry points fail softly (first error kept), pointer checks work.
// UNSUPPORTED: gpu
// RUN: %host_cc %s %dwc_rt_cflags %dwc_rt_ldflags -o %t
// RUN: %t | FileCheck %s
// Forcing a missing driver gives the same answers on any machine.
// RUN: env DWC_CUDA_DRIVER=libdwc-no-such-driver.so.1 %t | FileCheck %s --check-prefix=FORCED

#include "dwc/runtime.h"
#include <stdio.h>

static void report(const char *what, dwc_status s) {
  printf("%s: %d (%s) [%s]\n", what, (int)s, dwcGetErrorString(s),
         s == DWC_SUCCESS ? "" : dwcGetLastErrorMessage());
}

int main(void) {
  dwc_status s = dwcInit();
  report("init", s);
  // CHECK: init: 1 (no CUDA driver (libcuda.so.1 not found or too old)) [no CUDA driver (libcuda.so.1 not found): {{.*}}]
  // FORCED: init: 1 (no CUDA driver {{.*}}) [no CUDA driver (libdwc-no-such-driver.so.1 not found): {{.*}}]
  report("take", dwcTakeLastError());
  // CHECK-NEXT: take: 1
  report("take again", dwcTakeLastError());
  // CHECK-NEXT: take again: 0 (success)

  // Module registration needs no driver; the same image gives one record.
  static const char image[32] = "not a real GPU binary";
  void *m1 = mgpuModuleLoad((void *)image, sizeof(image));
  void *m2 = mgpuModuleLoad((void *)image, sizeof(image));
  printf("cached: %d modules: %d pending: %d\n", m1 == m2 && m1,
         dwcGetModuleCount(), (int)dwcPeekLastError());
  // CHECK-NEXT: cached: 1 modules: 1 pending: 0

  // What gpu-to-llvm host code does for a launch: all fail softly.
  void *fn = mgpuModuleGetFunction(m1, "kernel");
  void *stream = mgpuStreamCreate();
  void *params[1] = {0};
  mgpuLaunchKernel(fn, 4, 1, 1, 256, 1, 1, 0, stream, params, NULL, 1);
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
  void *buf = mgpuMemAlloc(1024, stream, false);
  mgpuMemcpy(buf, (void *)image, 16, stream);
  mgpuMemset32(buf, 0, 4, stream);
  mgpuMemset16(buf, 0, 4, stream);
  mgpuMemFree(buf, stream);
  void *ev = mgpuEventCreate();
  mgpuEventRecord(ev, stream);
  mgpuStreamWaitEvent(stream, ev);
  mgpuEventSynchronize(ev);
  mgpuEventDestroy(ev);
  printf("fn: %p stream: %p buf: %p event: %p\n", fn, stream, buf, ev);
  // CHECK-NEXT: fn: (nil) stream: (nil) buf: (nil) event: (nil)
  report("after launch", dwcTakeLastError());
  // CHECK-NEXT: after launch: 1 (no CUDA driver {{.*}}) [no CUDA driver (libcuda.so.1 not found): {{.*}}]

  // Tensor maps for the TMA kernels need the driver too.
  printf("tensor map: %llu\n",
         (unsigned long long)dwcTensorMap2D(0x10000, 576, 128, 256, 64, 64, 6, 3));
  // CHECK-NEXT: tensor map: 0
  report("after tensor map", dwcTakeLastError());
  // CHECK-NEXT: after tensor map: 1 (no CUDA driver {{.*}})

  void *dev = (void *)0x1;
  report("malloc", dwcMalloc(&dev, 256));
  // CHECK-NEXT: malloc: 1
  printf("malloc result: %p\n", dev);
  // CHECK-NEXT: malloc result: (nil)
  report("memcpy", dwcMemcpyHtoD((void *)0x1000, image, 16));
  // CHECK-NEXT: memcpy: 1
  report("sync", dwcSynchronize());
  // CHECK-NEXT: sync: 1
  dwcTakeLastError();

  // Pointer checks.
  report("null", dwcCheckPointer(NULL, 16));
  // CHECK-NEXT: null: 3 (invalid value) [pointer is null]
  dwcTakeLastError();
  report("misaligned",
         dwcCheckPointerNamed((const void *)0x1008, 16, "in0"));
  // CHECK-NEXT: misaligned: 4 (misaligned pointer) [argument in0 (0x1008) is not 16-byte aligned]
  dwcTakeLastError();
  report("aligned", dwcCheckPointerNamed((const void *)0x1010, 16, "out0"));
  // CHECK-NEXT: aligned: 0 (success)
  report("bad alignment", dwcCheckPointer((const void *)0x1010, 12));
  // CHECK-NEXT: bad alignment: 3 (invalid value) [dwcCheckPointer: alignment 12 is not a power of two]
  dwcTakeLastError();

  // External stream mode: the caller's stream is handed out, never
  // synchronised or destroyed by compiled code.
  void *ext = (void *)0x5000;
  dwcSetStream(ext);
  void *s2 = mgpuStreamCreate();
  mgpuStreamSynchronize(s2);
  mgpuStreamDestroy(s2);
  printf("external: %d get: %d pending: %d\n", s2 == ext, dwcGetStream() == ext,
         (int)dwcPeekLastError());
  // CHECK-NEXT: external: 1 get: 1 pending: 0
  dwcSetStream(NULL);

  mgpuModuleUnload(m2);
  printf("modules: %d\n", dwcGetModuleCount());
  // CHECK-NEXT: modules: 1
  mgpuModuleUnload(m1);
  printf("modules: %d\n", dwcGetModuleCount());
  // CHECK-NEXT: modules: 0
  return 0;
}
