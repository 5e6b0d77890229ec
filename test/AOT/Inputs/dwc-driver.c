/* Calls the dwc-aot entry points of Inputs/dwc.mlir. Without a GPU: the
 * missing driver is reported as a status with a clear message. With a GPU
 * (argument "gpu"): compares with a host reference. */
#include "dwc.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 2, H = 12, W = 12, C = 64, F = 3, PH = 6, PW = 6 };

static int report(const char *what, dwc_status s) {
  printf("%s: %d (%s)%s%s\n", what, (int)s, dwcGetErrorString(s),
         s ? ": " : "", s ? dwcGetLastErrorMessage() : "");
  return s != DWC_SUCCESS;
}

static void *upload(const void *host, size_t bytes) {
  void *d = NULL;
  if (dwcMalloc(&d, bytes) || dwcMemcpyHtoD(d, host, bytes))
    return NULL;
  return d;
}

static int runGpu(void) {
  static float x[N * H * W * C], w[F * F * C], b[C];
  static float y[N * H * W * C], yref[N * H * W * C];
  static float p[N * PH * PW * C], pref[N * PH * PW * C];
  srand(1);
  for (int i = 0; i < N * H * W * C; ++i)
    x[i] = (float)rand() / RAND_MAX - 0.5f;
  for (int i = 0; i < F * F * C; ++i)
    w[i] = (float)rand() / RAND_MAX - 0.5f;
  for (int i = 0; i < C; ++i)
    b[i] = (float)i / C;
  for (int n = 0; n < N; ++n)
    for (int oh = 0; oh < H; ++oh)
      for (int ow = 0; ow < W; ++ow)
        for (int c = 0; c < C; ++c) {
          float acc = b[c];
          for (int fh = 0; fh < F; ++fh)
            for (int fw = 0; fw < F; ++fw) {
              int ih = oh - 1 + fh, iw = ow - 1 + fw;
              if (ih >= 0 && ih < H && iw >= 0 && iw < W)
                acc += x[((n * H + ih) * W + iw) * C + c] * w[(fh * F + fw) * C + c];
            }
          yref[((n * H + oh) * W + ow) * C + c] = acc;
        }
  for (int n = 0; n < N; ++n)
    for (int oh = 0; oh < PH; ++oh)
      for (int ow = 0; ow < PW; ++ow)
        for (int c = 0; c < C; ++c) {
          float m = -INFINITY;
          for (int fh = 0; fh < 2; ++fh)
            for (int fw = 0; fw < 2; ++fw)
              m = fmaxf(m, x[((n * H + 2 * oh + fh) * W + 2 * ow + fw) * C + c]);
          pref[((n * PH + oh) * PW + ow) * C + c] = m;
        }
  if (report("init", dwcInit()))
    return 1;
  void *dx = upload(x, sizeof x), *dw = upload(w, sizeof w), *db = upload(b, sizeof b);
  void *dy = NULL, *dp = NULL;
  if (!dx || !dw || !db || dwcMalloc(&dy, sizeof y) || dwcMalloc(&dp, sizeof p))
    return report("alloc", dwcTakeLastError()), 1;
  if (report("depthwise", dwc_depthwise(dx, dw, db, dy)) ||
      report("maxpool", dwc_maxpool(dx, dp)) ||
      dwcMemcpyDtoH(y, dy, sizeof y) || dwcMemcpyDtoH(p, dp, sizeof p))
    return 1;
  double maxErr = 0;
  for (int i = 0; i < N * H * W * C; ++i)
    maxErr = fmax(maxErr, fabs(y[i] - yref[i]));
  int badPool = 0;
  for (int i = 0; i < N * PH * PW * C; ++i)
    badPool += p[i] != pref[i];
  printf("depthwise max abs error %s (%g)\n", maxErr < 1e-4 ? "ok" : "BAD", maxErr);
  printf("maxpool mismatches %d\n", badPool);
  dwcFree(dx);
  dwcFree(dw);
  dwcFree(db);
  dwcFree(dy);
  dwcFree(dp);
  return maxErr < 1e-4 && !badPool ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "gpu"))
    return runGpu();
  static float buf[4][N * H * W * C] __attribute__((aligned(16)));
  report("depthwise", dwc_depthwise(buf[0], buf[1], buf[2], buf[3]));
  report("maxpool", dwc_maxpool(buf[0], NULL));
  return 0;
}
