/* Calls the checked and the trusted entry points of Inputs/dwc.mlir against
 * the stand-in driver whose path is argv[1] (also DWC_CUDA_DRIVER): counts
 * its pointer queries, kernel lookups and launches. */
#include "dwc.h"
#include <dlfcn.h>
#include <stdio.h>

enum { GET_FUNCTION, POINTER_QUERY, LAUNCH };
static long (*count)(int);
static void (*reset)(void);

static void report(const char *what, dwc_status s) {
  printf("%s: %d [%s]", what, (int)s, s ? dwcGetLastErrorMessage() : "");
}

int main(int argc, char **argv) {
  (void)argc;
  void *driver = dlopen(argv[1], RTLD_NOW);
  count = (long (*)(int))dlsym(driver, "fakeCount");
  reset = (void (*)(void))dlsym(driver, "fakeReset");
  void *x, *w, *b, *y, *p;
  if (dwcMalloc(&x, 73728) || dwcMalloc(&w, 2304) || dwcMalloc(&b, 256) ||
      dwcMalloc(&y, 73728) || dwcMalloc(&p, 18432))
    return 1;
  dwcSetStream((void *)0x1); /* queued, as dwc_torch calls them */
  reset();
  dwc_status s = DWC_SUCCESS;
  for (int i = 0; i < 3; ++i)
    s |= dwc_depthwise(x, w, b, y);
  report("checked x3", s);
  printf(" queries: %ld lookups: %ld launches: %ld\n", count(POINTER_QUERY),
         count(GET_FUNCTION), count(LAUNCH));
  long q = count(POINTER_QUERY);
  for (int i = 0; i < 3; ++i)
    s |= dwc_depthwise_trusted(x, w, b, y);
  report("trusted x3", s);
  printf(" queries: %ld lookups: %ld launches: %ld\n", count(POINTER_QUERY) - q,
         count(GET_FUNCTION), count(LAUNCH));
  static float host[32];
  report("checked, host x", dwc_depthwise(host, w, b, y));
  printf(" launches: %ld\n", count(LAUNCH));
  report("trusted, null out", dwc_depthwise_trusted(x, w, b, NULL));
  printf(" launches: %ld\n", count(LAUNCH));
  report("trusted, misaligned w", dwc_depthwise_trusted(x, (char *)w + 8, b, y));
  printf(" launches: %ld\n", count(LAUNCH));
  q = count(POINTER_QUERY);
  report("trusted maxpool", dwc_maxpool_trusted(x, p));
  printf(" queries: %ld\n", count(POINTER_QUERY) - q);
  return 0;
}
