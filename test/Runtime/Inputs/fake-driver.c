// A stand-in for libcuda.so.1 (loaded through DWC_CUDA_DRIVER) for testing
// the runtime's host paths on a machine without a GPU: every entry point the
// runtime resolves, no GPU work. It counts the calls the hot path makes
// (fakeCount) and knows one range of "device" addresses, [FAKE_DEV_BASE,
// FAKE_DEV_BASE + 1 TiB): cuPointerGetAttribute refuses anything else, as the
// driver refuses host memory.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FAKE_DEV_BASE 0x100000000000ull
typedef unsigned long long devptr;

enum { GET_FUNCTION, POINTER_QUERY, LAUNCH, MODULE_LOAD, MODULE_UNLOAD, CARVEOUT_SET,
       EVENT_DESTROY, STREAM_DESTROY, COUNTERS };
static int lastCarveout = -1;
int fakeLastCarveout(void) { return lastCarveout; }
static long counts[COUNTERS];
static void *current;
static devptr nextAlloc = FAKE_DEV_BASE;

struct fakeFunction {
  void *module;
  char name[128];
};

long fakeCount(int which) { return which >= 0 && which < COUNTERS ? counts[which] : -1; }
void fakeReset(void) { memset(counts, 0, sizeof(counts)); }

int cuInit(unsigned f) { (void)f; return 0; }
int cuGetErrorString(int r, const char **s) { *s = r == 1 ? "invalid argument" : "fake error"; return 0; }
int cuGetErrorName(int r, const char **s) { *s = r == 1 ? "CUDA_ERROR_INVALID_VALUE" : "CUDA_ERROR_FAKE"; return 0; }
int cuDeviceGetCount(int *n) { *n = 1; return 0; }
int cuDeviceGet(int *d, int i) { *d = i; return i == 0 ? 0 : 101; }
int cuDeviceGetName(char *n, int len, int d) { (void)d; strncpy(n, "fake GPU", len); return 0; }
int cuDeviceGetAttribute(int *v, int a, int d) { (void)a; (void)d; *v = 9; return 0; }
int cuDevicePrimaryCtxRetain(void **c, int d) { (void)d; *c = (void *)0xC0; return 0; }
int cuCtxSetCurrent(void *c) { current = c; return 0; }
int cuCtxGetCurrent(void **c) { *c = current; return 0; }
int cuCtxGetDevice(int *d) { *d = 0; return 0; }
int cuCtxSynchronize(void) { return 0; }
int cuModuleLoadData(void **m, const void *img) {
  (void)img;
  counts[MODULE_LOAD]++;
  *m = malloc(1);
  return 0;
}
int cuModuleLoadDataEx(void **m, const void *img, unsigned n, int *o, void **v) {
  (void)n; (void)o; (void)v;
  return cuModuleLoadData(m, img);
}
int cuModuleUnload(void *m) { counts[MODULE_UNLOAD]++; free(m); return 0; }
int cuModuleGetFunction(void **f, void *m, const char *name) {
  counts[GET_FUNCTION]++;
  if (strcmp(name, "missing") == 0)
    return 500;
  struct fakeFunction *fn = calloc(1, sizeof(*fn));
  fn->module = m;
  strncpy(fn->name, name, sizeof(fn->name) - 1);
  *f = fn;
  return 0;
}
int cuFuncSetAttribute(void *f, int a, int v) {
  (void)f;
  if (a == 9) { // CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT
    counts[CARVEOUT_SET]++;
    lastCarveout = v;
  }
  return 0;
}
int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                   unsigned bz, unsigned smem, void *s, void **p, void **e) {
  (void)f; (void)gx; (void)gy; (void)gz; (void)bx; (void)by; (void)bz; (void)smem;
  (void)s; (void)p; (void)e;
  counts[LAUNCH]++;
  return 0;
}
int cuStreamCreate(void **s, unsigned f) { (void)f; *s = malloc(1); return 0; }
int cuStreamDestroy_v2(void *s) { counts[STREAM_DESTROY]++; free(s); return 0; }
int cuStreamSynchronize(void *s) { (void)s; return 0; }
// Stream 0x2 is "capturing a CUDA graph".
int cuStreamIsCapturing(void *s, int *status) { *status = s == (void *)0x2; return 0; }
int cuStreamWaitEvent(void *s, void *e, unsigned f) { (void)s; (void)e; (void)f; return 0; }
int cuEventCreate(void **e, unsigned f) { (void)f; *e = malloc(1); return 0; }
int cuEventDestroy_v2(void *e) { counts[EVENT_DESTROY]++; free(e); return 0; }
int cuEventRecord(void *e, void *s) { (void)e; (void)s; return 0; }
int cuEventSynchronize(void *e) { (void)e; return 0; }
int cuMemAlloc_v2(devptr *p, size_t n) {
  if (n >= (1ull << 40))
    return 2; // CUDA_ERROR_OUT_OF_MEMORY
  *p = nextAlloc;
  nextAlloc += (n + 255) / 256 * 256;
  return 0;
}
int cuMemAllocManaged(devptr *p, size_t n, unsigned f) { (void)f; return cuMemAlloc_v2(p, n); }
int cuMemFree_v2(devptr p) { (void)p; return 0; }
int cuMemcpyHtoD_v2(devptr d, const void *s, size_t n) { (void)d; (void)s; (void)n; return 0; }
int cuMemcpyDtoH_v2(void *d, devptr s, size_t n) { (void)d; (void)s; (void)n; return 0; }
int cuMemcpyAsync(devptr d, devptr s, size_t n, void *st) { (void)d; (void)s; (void)n; (void)st; return 0; }
int cuMemsetD32_v2(devptr d, unsigned v, size_t n) { (void)d; (void)v; (void)n; return 0; }
int cuMemsetD32Async(devptr d, unsigned v, size_t n, void *s) { (void)d; (void)v; (void)n; (void)s; return 0; }
int cuMemsetD16Async(devptr d, unsigned short v, size_t n, void *s) { (void)d; (void)v; (void)n; (void)s; return 0; }
int cuPointerGetAttribute(void *v, int a, devptr p) {
  (void)a;
  counts[POINTER_QUERY]++;
  if (p < FAKE_DEV_BASE || p >= FAKE_DEV_BASE + (1ull << 40))
    return 1; // CUDA_ERROR_INVALID_VALUE: not memory the driver knows
  *(unsigned *)v = 2; // CU_MEMORYTYPE_DEVICE
  return 0;
}
