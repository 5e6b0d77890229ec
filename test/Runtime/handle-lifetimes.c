// Handles used after their release are error codes, never a freed record
// dereferenced or a handle passed to the driver twice (runtime.h: the mgpu*
// entry points never abort): a module unloaded once more than it was
// registered, a kernel looked up after the last unload, an event or a
// stream destroyed twice, an event used after its destruction, and handles
// the runtime never made. Runs against the stand-in driver (no GPU).
// RUN: %host_cc -shared -fPIC %S/Inputs/fake-driver.c -o %t-driver.so
// RUN: %host_cc %s %dwc_rt_cflags %dwc_rt_ldflags -ldl -o %t
// RUN: env DWC_CUDA_DRIVER=%t-driver.so %t %t-driver.so | FileCheck %s

#include "dwc/runtime.h"
#include <dlfcn.h>
#include <stdio.h>

enum { GET_FUNCTION, POINTER_QUERY, LAUNCH, MODULE_LOAD, MODULE_UNLOAD, CARVEOUT_SET,
       EVENT_DESTROY, STREAM_DESTROY };
static long (*fakeCount)(int);

static void report(const char *what) {
  dwc_status s = dwcTakeLastError();
  printf("%s: %d [%s]\n", what, (int)s, s == DWC_SUCCESS ? "" : dwcGetLastErrorMessage());
}

int main(int argc, char **argv) {
  (void)argc;
  void *driver = dlopen(argv[1], RTLD_NOW);
  fakeCount = (long (*)(int))dlsym(driver, "fakeCount");
  dwcInit();

  // Modules: one image registered twice is one record with two references.
  static const char image[32] = "fake GPU binary";
  void *m = mgpuModuleLoad((void *)image, sizeof(image));
  void *again = mgpuModuleLoad((void *)image, sizeof(image));
  printf("one record: %d kernel: %d\n", m == again, mgpuModuleGetFunction(m, "k") != NULL);
  // CHECK: one record: 1 kernel: 1
  mgpuModuleUnload(m);
  mgpuModuleUnload(again);
  report("unload twice after loading twice");
  // CHECK-NEXT: unload twice after loading twice: 0 []
  mgpuModuleUnload(m);
  report("unload once more");
  // CHECK-NEXT: unload once more: 3 [mgpuModuleUnload: {{.*}} is not a loaded module (unloaded already?)]
  printf("lookup after unload: %p\n", mgpuModuleGetFunction(m, "k"));
  // CHECK-NEXT: lookup after unload: (nil)
  report("lookup after unload");
  // CHECK-NEXT: lookup after unload: 3 [mgpuModuleGetFunction: {{.*}} is not a loaded module (unloaded already?)]
  mgpuModuleUnload((void *)image);
  report("unload of a foreign pointer");
  // CHECK-NEXT: unload of a foreign pointer: 3 [mgpuModuleUnload: {{.*}} is not a loaded module
  printf("driver unloads: %ld\n", fakeCount(MODULE_UNLOAD));
  // CHECK-NEXT: driver unloads: 1

  // Events.
  void *s = mgpuStreamCreate();
  void *e = mgpuEventCreate();
  mgpuEventRecord(e, s);
  mgpuEventDestroy(e);
  report("event destroyed");
  // CHECK-NEXT: event destroyed: 0 []
  mgpuEventDestroy(e);
  report("event destroyed twice");
  // CHECK-NEXT: event destroyed twice: 3 [mgpuEventDestroy: {{.*}} is not a live event (destroyed already?)]
  mgpuEventRecord(e, s);
  report("record after destroy");
  // CHECK-NEXT: record after destroy: 3 [mgpuEventRecord: {{.*}} is not a live handle
  mgpuEventSynchronize(e);
  report("synchronize after destroy");
  // CHECK-NEXT: synchronize after destroy: 3 [mgpuEventSynchronize: {{.*}} is not a live handle
  mgpuStreamWaitEvent(s, e);
  report("wait after destroy");
  // CHECK-NEXT: wait after destroy: 3 [mgpuStreamWaitEvent: {{.*}} is not a live handle
  mgpuEventDestroy((void *)image);
  report("foreign event");
  // CHECK-NEXT: foreign event: 3 [mgpuEventDestroy: {{.*}} is not a live event
  printf("driver event destroys: %ld\n", fakeCount(EVENT_DESTROY));
  // CHECK-NEXT: driver event destroys: 1

  // Streams: a stream destroyed twice is pooled once (two later streams
  // are distinct).
  mgpuStreamDestroy(s);
  report("stream destroyed");
  // CHECK-NEXT: stream destroyed: 0 []
  mgpuStreamDestroy(s);
  report("stream destroyed twice");
  // CHECK-NEXT: stream destroyed twice: 3 [mgpuStreamDestroy: {{.*}} is not a stream of mgpuStreamCreate (destroyed already?)]
  void *s1 = mgpuStreamCreate(), *s2 = mgpuStreamCreate();
  printf("distinct streams: %d\n", s1 != s2 && s1 && s2);
  // CHECK-NEXT: distinct streams: 1
  mgpuStreamDestroy(s1);
  mgpuStreamDestroy(s2);
  report("streams destroyed");
  // CHECK-NEXT: streams destroyed: 0 []
  return 0;
}
