// Runtime on a GPU: allocate, copy, set and read back device memory; pointer
// checks recognise host memory; stream pool and external stream mode.
// REQUIRES: gpu
// RUN: %host_cc %s %dwc_rt_cflags %dwc_rt_ldflags -o %t
// RUN: %t | FileCheck %s

#include "dwc/runtime.h"
#include <stdio.h>
#include <stdlib.h>

#define CHECK_OK(x)                                                            \
  do {                                                                         \
    dwc_status s_ = (x);                                                       \
    if (s_ != DWC_SUCCESS) {                                                   \
      printf("FAILED %s: %s: %s\n", #x, dwcGetErrorString(s_),                 \
             dwcGetLastErrorMessage());                                        \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main(void) {
  CHECK_OK(dwcInit());
  char name[128];
  int major = 0, minor = 0;
  CHECK_OK(dwcGetDeviceInfo(name, sizeof(name), &major, &minor));
  printf("device: %s sm_%d%d\n", name, major, minor);
  // CHECK: device: {{.+}} sm_{{[0-9]+}}

  enum { N = 1 << 20 };
  unsigned *host = (unsigned *)malloc(N * sizeof(unsigned));
  unsigned *back = (unsigned *)malloc(N * sizeof(unsigned));
  for (unsigned i = 0; i < N; ++i)
    host[i] = i * 2654435761u;
  void *dev = NULL;
  CHECK_OK(dwcMalloc(&dev, N * sizeof(unsigned)));
  CHECK_OK(dwcCheckPointerNamed(dev, 256, "dev"));
  CHECK_OK(dwcMemcpyHtoD(dev, host, N * sizeof(unsigned)));
  CHECK_OK(dwcMemcpyDtoH(back, dev, N * sizeof(unsigned)));
  int bad = 0;
  for (unsigned i = 0; i < N; ++i)
    bad += back[i] != host[i];
  printf("roundtrip mismatches: %d\n", bad);
  // CHECK: roundtrip mismatches: 0
  CHECK_OK(dwcMemset32(dev, 0xdeadbeefu, N));
  CHECK_OK(dwcMemcpyDtoH(back, dev, N * sizeof(unsigned)));
  bad = 0;
  for (unsigned i = 0; i < N; ++i)
    bad += back[i] != 0xdeadbeefu;
  printf("memset mismatches: %d\n", bad);
  // CHECK: memset mismatches: 0

  dwc_status s = dwcCheckPointerNamed(host, 16, "host");
  printf("host pointer: %d %s\n", (int)s, dwcGetLastErrorMessage());
  // CHECK: host pointer: 3 argument host ({{.*}}) is not a CUDA device pointer
  dwcTakeLastError();

  // mgpu* path with the runtime's streams (pooled) and an external stream.
  void *s1 = mgpuStreamCreate();
  mgpuMemset32(dev, 7u, N, s1);
  mgpuStreamSynchronize(s1);
  mgpuStreamDestroy(s1);
  void *s2 = mgpuStreamCreate();
  printf("pooled stream reused: %d\n", s1 == s2);
  // CHECK: pooled stream reused: 1
  CHECK_OK(dwcSetStream(s2));
  void *s3 = mgpuStreamCreate();
  void *tmp = mgpuMemAlloc(N * sizeof(unsigned), s3, false);
  mgpuMemcpy(tmp, dev, N * sizeof(unsigned), s3);
  mgpuMemcpy(back, tmp, N * sizeof(unsigned), s3);
  mgpuStreamSynchronize(s3); // no-op: external
  mgpuStreamDestroy(s3);     // no-op: external
  CHECK_OK(dwcSynchronize());
  mgpuMemFree(tmp, s3);
  CHECK_OK(dwcSetStream(NULL));
  mgpuStreamDestroy(s2);
  bad = 0;
  for (unsigned i = 0; i < N; ++i)
    bad += back[i] != 7u;
  printf("external stream: %d mismatches: %d\n", s3 == s2, bad);
  // CHECK: external stream: 1 mismatches: 0
  CHECK_OK(dwcTakeLastError());
  CHECK_OK(dwcFree(dev));
  free(host);
  free(back);
  printf("done\n");
  // CHECK: done
  return 0;
}
