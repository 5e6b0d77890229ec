/* Calls the dwc-aot entry point dwc_scale (Inputs/scale.mlir).
 * Without a GPU: checks that bad pointers and the missing driver are reported
 * as statuses with clear messages. With a GPU (argument "gpu"): checks the
 * numbers, in the default and in the external stream mode. */
#include "scale.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static int report(const char *what, dwc_status s) {
  printf("%s: %d (%s)%s%s\n", what, (int)s, dwcGetErrorString(s),
         s ? ": " : "", s ? dwcGetLastErrorMessage() : "");
  return s != DWC_SUCCESS;
}

static int runGpu(void) {
  enum { N = 1024 };
  float in[N], out[N];
  void *din = NULL, *dout = NULL;
  for (int i = 0; i < N; ++i)
    in[i] = (float)i - 100.0f;
  if (report("init", dwcInit()) || report("malloc", dwcMalloc(&din, sizeof in)) ||
      report("malloc", dwcMalloc(&dout, sizeof out)) ||
      report("h2d", dwcMemcpyHtoD(din, in, sizeof in)))
    return 1;
  for (int mode = 0; mode < 2; ++mode) {
    void *stream = NULL;
    memset(out, 0, sizeof out);
    dwcMemset32(dout, 0, N);
    if (mode == 1) {
      stream = mgpuStreamCreate(); /* any CUstream, e.g. PyTorch's */
      dwcSetStream(stream);
    }
    if (report(mode ? "scale (external stream)" : "scale", dwc_scale(din, dout)))
      return 1;
    if (mode == 1) {
      report("sync", dwcSynchronize());
      dwcSetStream(NULL);
      mgpuStreamDestroy(stream);
    }
    if (report("d2h", dwcMemcpyDtoH(out, dout, sizeof out)))
      return 1;
    int bad = 0;
    for (int i = 0; i < N; ++i)
      bad += fabsf(out[i] - (2.0f * in[i] + 1.0f)) > 0.0f;
    printf("mode %d: mismatches %d, out[0]=%g out[1023]=%g\n", mode, bad,
           out[0], out[N - 1]);
    if (bad)
      return 1;
  }
  /* A host pointer is refused before any kernel runs. */
  report("host pointer", dwc_scale(in, dout));
  dwcFree(din);
  dwcFree(dout);
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "gpu"))
    return runGpu();
  static float buf[2][1024] __attribute__((aligned(16)));
  report("null", dwc_scale(NULL, buf[1]));
  report("misaligned", dwc_scale(buf[0], (char *)buf[1] + 4));
  report("pending after return", dwcPeekLastError());
  report("no driver", dwc_scale(buf[0], buf[1]));
  report("init", dwcInit());
  return 0;
}
