/* Runs the pooling gradients of Inputs/pool-backward-wide.mlir (windows
 * too wide for the gather strips: the rolled gather) on the GPU and
 * compares them with a host reference: the max gradient goes to the first
 * maximum (row-major) of each window's taps inside the input, the average
 * gradient is divided by the window's divisor. */
#include "pool-backward-wide.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef dwc_status (*Fn)(const void *, const void *, void *);
struct Case {
  const char *name;
  Fn fn;
  int isMax, N, IH, IW, C, KH, KW, sh, sw, pt, pb, pl, pr, incl, OH, OW;
};
static const struct Case cases[] = {
  {"max7x28", dwc_max7x28, 1, 1, 20, 40, 8, 7, 28, 1, 1, 0, 0, 0, 0, 0, 14, 13},
  {"avg7x200", dwc_avg7x200, 0, 1, 10, 210, 8, 7, 200, 1, 1, 0, 0, 0, 0, 0, 4, 11},
  {"maxpad", dwc_maxpad, 1, 2, 17, 50, 4, 5, 40, 2, 3, 2, 1, 10, 5, 0, 8, 9},
  {"avgpad", dwc_avgpad, 0, 2, 17, 50, 4, 5, 40, 2, 3, 2, 1, 10, 5, 1, 8, 9},
  {"maxstored", dwc_maxstored, 1, 1, 8, 80, 8, 3, 40, 1, 1, 0, 0, 0, 0, 0, 6, 41},
};

static int lo(int v) { return v < 0 ? 0 : v; }
static int hi(int v, int n) { return v > n ? n : v; }

/* dx of one case on the host. */
static void reference(const struct Case *k, const float *x, const float *dy, float *dx) {
  int N = k->N, IH = k->IH, IW = k->IW, C = k->C;
  for (int i = 0; i < N * IH * IW * C; ++i)
    dx[i] = 0;
  for (int n = 0; n < N; ++n)
    for (int oh = 0; oh < k->OH; ++oh)
      for (int ow = 0; ow < k->OW; ++ow)
        for (int c = 0; c < C; ++c) {
          int top = oh * k->sh - k->pt, left = ow * k->sw - k->pl;
          float g = dy[((n * k->OH + oh) * k->OW + ow) * C + c];
          if (k->isMax) {
            int best = -1;
            float m = -INFINITY;
            for (int ih = lo(top); ih < hi(top + k->KH, IH); ++ih)
              for (int iw = lo(left); iw < hi(left + k->KW, IW); ++iw) {
                float v = x[((n * IH + ih) * IW + iw) * C + c];
                if (best < 0 || v > m) {
                  m = v;
                  best = (ih * IW + iw);
                }
              }
            dx[(n * IH * IW + best) * C + c] += g;
          } else {
            int h0 = k->incl ? top : lo(top), w0 = k->incl ? left : lo(left);
            int h1 = k->incl ? hi(top + k->KH, IH + k->pb) : hi(top + k->KH, IH);
            int w1 = k->incl ? hi(left + k->KW, IW + k->pr) : hi(left + k->KW, IW);
            float d = g / (float)((h1 - h0) * (w1 - w0));
            for (int ih = lo(top); ih < hi(top + k->KH, IH); ++ih)
              for (int iw = lo(left); iw < hi(left + k->KW, IW); ++iw)
                dx[((n * IH + ih) * IW + iw) * C + c] += d;
          }
        }
}

static void *upload(const void *host, size_t bytes) {
  void *d = NULL;
  if (dwcMalloc(&d, bytes) || dwcMemcpyHtoD(d, host, bytes))
    return NULL;
  return d;
}

int main(void) {
  int bad = 0;
  srand(3);
  for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    const struct Case *k = &cases[i];
    size_t nx = (size_t)k->N * k->IH * k->IW * k->C, ny = (size_t)k->N * k->OH * k->OW * k->C;
    float *x = malloc(nx * 4), *dy = malloc(ny * 4), *dx = malloc(nx * 4), *ref = malloc(nx * 4);
    for (size_t j = 0; j < nx; ++j)
      x[j] = (float)rand() / RAND_MAX - 0.5f;
    for (size_t j = 0; j < ny; ++j)
      dy[j] = (float)rand() / RAND_MAX - 0.5f;
    void *dX = upload(x, nx * 4), *dDy = upload(dy, ny * 4), *dDx = NULL;
    dwcMalloc(&dDx, nx * 4);
    dwc_status s = k->fn(dX, dDy, dDx);
    if (s == DWC_SUCCESS)
      s = dwcMemcpyDtoH(dx, dDx, nx * 4);
    if (s != DWC_SUCCESS) {
      printf("%s: status %d: %s\n", k->name, (int)s, dwcGetLastErrorMessage());
      return 1;
    }
    reference(k, x, dy, ref);
    double err = 0;
    for (size_t j = 0; j < nx; ++j)
      err = fmax(err, fabs((double)dx[j] - ref[j]));
    printf("%s: max abs error %s (%g)\n", k->name, err < 1e-4 ? "ok" : "BAD", err);
    bad |= err >= 1e-4;
    dwcFree(dX), dwcFree(dDy), dwcFree(dDx);
    free(x), free(dy), free(dx), free(ref);
  }
  return bad;
}
