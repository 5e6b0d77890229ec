// Seeded random sequences of runtime calls against the stand-in driver
// (test/Runtime/Inputs/fake-driver.c, loaded through DWC_CUDA_DRIVER):
// modules registered, looked up, unloaded (also more often than
// registered), streams and events created, used and destroyed (also twice),
// handles the runtime never made, launches on stale kernels. Every call
// must return: a handle used after its release is an error code, never a
// double free or a use after free (the sanitizer build runs this too).
// Usage: fuzz_runtime <fake-driver.so> <seed> <calls>
#include "dwc/runtime.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { SLOTS = 8 };
static uint64_t state;

static unsigned next(unsigned n) {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return (unsigned)(state >> 33) % n;
}

// Slots keep every handle ever made, live or released, so that stale ones
// are passed back; a few foreign pointers too.
static void *modules[SLOTS], *kernels[SLOTS], *streams[SLOTS], *events[SLOTS];
static char images[SLOTS][32];
static char foreign[16];

static void *any(void **slots) {
  return next(10) == 0 ? (void *)foreign : slots[next(SLOTS)];
}

static void step(void) {
  unsigned i = next(SLOTS);
  switch (next(12)) {
  case 0: modules[i] = mgpuModuleLoad(images[next(SLOTS)], 32); break;
  case 1: mgpuModuleUnload(any(modules)); break;
  case 2: kernels[i] = mgpuModuleGetFunction(any(modules), next(4) ? "kernel" : "missing"); break;
  case 3: streams[i] = mgpuStreamCreate(); break;
  case 4: mgpuStreamDestroy(any(streams)); break;
  case 5: events[i] = mgpuEventCreate(); break;
  case 6: mgpuEventDestroy(any(events)); break;
  case 7: mgpuEventRecord(any(events), any(streams)); break;
  case 8: mgpuStreamWaitEvent(any(streams), any(events)); break;
  case 9: mgpuEventSynchronize(any(events)); break;
  case 10: mgpuStreamSynchronize(any(streams)); break;
  default: {
    // Launches on kernels of live modules only: a kernel handle is the
    // driver's, which the runtime cannot validate once its module is gone.
    void *m = modules[i];
    void *k = m ? mgpuModuleGetFunction(m, "kernel") : NULL;
    if (k)
      mgpuLaunchKernel(k, 1, 1, 1, 32, 1, 1, 0, any(streams), NULL, NULL, 0);
  }
  }
  dwcTakeLastError();
}

int main(int argc, char **argv) {
  if (argc != 4)
    return 2;
  state = strtoull(argv[2], NULL, 10);
  long calls = strtol(argv[3], NULL, 10);
  for (int i = 0; i < SLOTS; ++i)
    snprintf(images[i], sizeof(images[i]), "fake GPU binary %d", i);
  dwcInit();
  for (long c = 0; c < calls; ++c)
    step();
  printf("runtime call sequences seed %s: %ld calls, all returned\n", argv[2], calls);
  return 0;
}
