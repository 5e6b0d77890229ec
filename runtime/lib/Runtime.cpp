//===- Runtime.cpp - libdwc_runtime: driver loader, mgpu* and C API -------===//
//
// Host-only runtime of dwc-compiled code. The CUDA driver is opened with
// dlopen("libcuda.so.1") on first use (never linked), so binaries start on
// machines without a driver. Implements the mgpu* entry points called by
// MLIR's gpu-to-llvm host code and the C API of dwc/runtime.h. Nothing here
// aborts: failures are recorded in a thread-local pending error.
//
//===----------------------------------------------------------------------===//

#include "dwc/runtime.h"

#include <atomic>
#include <climits>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace {

//===----------------------------------------------------------------------===//
// The few CUDA driver API types we need (same ABI as cuda.h), so that the
// runtime builds without the CUDA toolkit.
//===----------------------------------------------------------------------===//

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUmemoryPool = struct CUmemPoolHandle_st *;

struct CULaunchAttribute {
  int id;
  char pad[4];
  union {
    char bytes[64];
    struct {
      unsigned x, y, z;
    } clusterDim;
  } value;
};
static_assert(sizeof(CULaunchAttribute) == 72, "CUlaunchAttribute ABI");

struct CULaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  CULaunchAttribute *attrs;
  unsigned numAttrs;
};

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr CUresult CUDA_ERROR_INSUFFICIENT_DRIVER = 35;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
constexpr CUresult CUDA_ERROR_INVALID_IMAGE = 200;
constexpr CUresult CUDA_ERROR_NO_BINARY_FOR_GPU = 209;
constexpr CUresult CUDA_ERROR_INVALID_PTX = 218;
constexpr CUresult CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222;
constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;
constexpr CUresult CUDA_ERROR_ILLEGAL_ADDRESS = 700;
constexpr CUresult CUDA_ERROR_LAUNCH_FAILED = 719;
constexpr unsigned CU_STREAM_NON_BLOCKING = 1;
constexpr unsigned CU_EVENT_DISABLE_TIMING = 2;
constexpr unsigned CU_MEM_ATTACH_GLOBAL = 1;
constexpr int CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
constexpr int CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED = 14;
constexpr int CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_JIT_OPTIMIZATION_LEVEL = 7;
constexpr int CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4;
constexpr int32_t kDefaultSharedMemLimit = 48 * 1024;
constexpr int CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4;

/// Entry points resolved from libcuda.so.1 (versioned names where the
/// driver API has them).
struct DriverApi {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxGetCurrent)(CUcontext *);
  CUresult (*cuCtxGetDevice)(CUdevice *);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                                 void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  CUresult (*cuLaunchKernelEx)(const CULaunchConfig *, CUfunction, void **,
                               void **); // optional (CUDA >= 12.0)
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemAllocManaged)(CUdeviceptr *, size_t, unsigned);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuMemcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemsetD32)(CUdeviceptr, unsigned, size_t);
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream);
  CUresult (*cuMemsetD16Async)(CUdeviceptr, unsigned short, size_t, CUstream);
  CUresult (*cuPointerGetAttribute)(void *, int, CUdeviceptr);
  // Stream-ordered allocation (optional, CUDA >= 11.2): workspaces of the
  // generated host code come from the device's default memory pool, kept
  // cached between calls (release threshold raised once).
  CUresult (*cuMemAllocAsync)(CUdeviceptr *, size_t, CUstream);
  CUresult (*cuMemFreeAsync)(CUdeviceptr, CUstream);
  CUresult (*cuDeviceGetDefaultMemPool)(CUmemoryPool *, CUdevice);
  CUresult (*cuMemPoolSetAttribute)(CUmemoryPool, int, void *);
  // Whether a stream is capturing a CUDA graph (optional): a capture admits
  // only stream-ordered allocations.
  CUresult (*cuStreamIsCapturing)(CUstream, int *);
  // Tensor maps for the Hopper bulk tensor copies (optional, CUDA >= 12).
  CUresult (*cuTensorMapEncodeTiled)(void *, int, unsigned, void *,
                                     const unsigned long long *,
                                     const unsigned long long *,
                                     const unsigned *, const unsigned *, int,
                                     int, int, int);
  CUresult (*cuTensorMapEncodeIm2col)(void *, int, unsigned, void *,
                                      const unsigned long long *,
                                      const unsigned long long *, const int *,
                                      const int *, unsigned, unsigned,
                                      const unsigned *, int, int, int, int);
};

//===----------------------------------------------------------------------===//
// Thread-local pending error.
//===----------------------------------------------------------------------===//

struct ErrorSlot {
  dwc_status status = DWC_SUCCESS;
  std::string message;
};
thread_local ErrorSlot tlsError;
// Status of the most recent failure on this thread, pending or not: what a
// failing C API call returns.
thread_local dwc_status tlsLastFailure = DWC_SUCCESS;
thread_local CUstream tlsExternalStream = nullptr;

bool verbose() {
  static const bool v = [] {
    const char *e = std::getenv("DWC_RUNTIME_VERBOSE");
    return e && *e && std::strcmp(e, "0") != 0;
  }();
  return v;
}

/// Records `status` with a formatted message unless an error is already
/// pending (the first error is the root cause). Returns `status`.
__attribute__((format(printf, 2, 3))) dwc_status
setError(dwc_status status, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  if (verbose())
    std::fprintf(stderr, "dwc runtime: %s\n", buf);
  tlsLastFailure = status;
  if (tlsError.status == DWC_SUCCESS) {
    tlsError.status = status;
    tlsError.message = buf;
  }
  return status;
}

//===----------------------------------------------------------------------===//
// Driver loading and contexts.
//===----------------------------------------------------------------------===//

struct DriverState {
  std::once_flag once;
  std::atomic<bool> ok{false};
  dwc_status status = DWC_ERROR_NO_DRIVER;
  std::string message;
  void *handle = nullptr;
  DriverApi api{};
  int deviceCount = 0;
};
DriverState gDriver;
std::atomic<int> gDefaultDevice{0};
std::atomic<bool> gDefaultDeviceSet{false};
std::mutex gCtxMutex;
std::map<int, CUcontext> gPrimaryContexts;

const DriverApi &cu() { return gDriver.api; }

std::string cuErrorText(CUresult r) {
  const char *name = nullptr, *text = nullptr;
  if (gDriver.api.cuGetErrorName)
    gDriver.api.cuGetErrorName(r, &name);
  if (gDriver.api.cuGetErrorString)
    gDriver.api.cuGetErrorString(r, &text);
  std::string s = text ? text : "unknown error";
  s += " (";
  s += name ? name : "CUDA error";
  s += " " + std::to_string(r) + ")";
  return s;
}

dwc_status statusOf(CUresult r) {
  switch (r) {
  case CUDA_ERROR_INVALID_VALUE:
    return DWC_ERROR_INVALID_VALUE;
  case CUDA_ERROR_OUT_OF_MEMORY:
    return DWC_ERROR_OUT_OF_MEMORY;
  case CUDA_ERROR_INSUFFICIENT_DRIVER:
    return DWC_ERROR_NO_DRIVER;
  case CUDA_ERROR_NO_DEVICE:
    return DWC_ERROR_NO_DEVICE;
  case CUDA_ERROR_INVALID_IMAGE:
  case CUDA_ERROR_NO_BINARY_FOR_GPU:
  case CUDA_ERROR_INVALID_PTX:
  case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
    return DWC_ERROR_INVALID_IMAGE;
  case CUDA_ERROR_NOT_FOUND:
    return DWC_ERROR_NOT_FOUND;
  default:
    if (r >= CUDA_ERROR_ILLEGAL_ADDRESS && r <= CUDA_ERROR_LAUNCH_FAILED)
      return DWC_ERROR_LAUNCH_FAILED;
    return DWC_ERROR_CUDA;
  }
}

/// Records a failed driver call; returns false when `r` is an error.
bool check(CUresult r, const char *what) {
  if (r == CUDA_SUCCESS)
    return true;
  setError(statusOf(r), "%s: %s", what, cuErrorText(r).c_str());
  return false;
}

template <typename F>
bool resolve(F &fn, const char *name, bool required, std::string &missing) {
  fn = reinterpret_cast<F>(dlsym(gDriver.handle, name));
  if (!fn && required) {
    if (!missing.empty())
      missing += ", ";
    missing += name;
  }
  return fn != nullptr;
}

void loadDriver() {
  DriverState &d = gDriver;
  const char *path = std::getenv("DWC_CUDA_DRIVER");
  if (!path || !*path)
    path = "libcuda.so.1";
  d.handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!d.handle) {
    const char *why = dlerror();
    d.status = DWC_ERROR_NO_DRIVER;
    d.message = std::string("no CUDA driver (") + path +
                " not found): " + (why ? why : "dlopen failed");
    return;
  }
  DriverApi &a = d.api;
  std::string missing;
  resolve(a.cuInit, "cuInit", true, missing);
  resolve(a.cuGetErrorString, "cuGetErrorString", true, missing);
  resolve(a.cuGetErrorName, "cuGetErrorName", true, missing);
  resolve(a.cuDeviceGetCount, "cuDeviceGetCount", true, missing);
  resolve(a.cuDeviceGet, "cuDeviceGet", true, missing);
  resolve(a.cuDeviceGetName, "cuDeviceGetName", true, missing);
  resolve(a.cuDeviceGetAttribute, "cuDeviceGetAttribute", true, missing);
  resolve(a.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", true,
          missing);
  resolve(a.cuCtxSetCurrent, "cuCtxSetCurrent", true, missing);
  resolve(a.cuCtxGetCurrent, "cuCtxGetCurrent", true, missing);
  resolve(a.cuCtxGetDevice, "cuCtxGetDevice", true, missing);
  resolve(a.cuCtxSynchronize, "cuCtxSynchronize", true, missing);
  resolve(a.cuModuleLoadData, "cuModuleLoadData", true, missing);
  resolve(a.cuModuleLoadDataEx, "cuModuleLoadDataEx", true, missing);
  resolve(a.cuModuleUnload, "cuModuleUnload", true, missing);
  resolve(a.cuModuleGetFunction, "cuModuleGetFunction", true, missing);
  resolve(a.cuFuncSetAttribute, "cuFuncSetAttribute", true, missing);
  resolve(a.cuLaunchKernel, "cuLaunchKernel", true, missing);
  resolve(a.cuLaunchKernelEx, "cuLaunchKernelEx", false, missing);
  resolve(a.cuStreamCreate, "cuStreamCreate", true, missing);
  resolve(a.cuStreamDestroy, "cuStreamDestroy_v2", true, missing);
  resolve(a.cuStreamSynchronize, "cuStreamSynchronize", true, missing);
  resolve(a.cuStreamWaitEvent, "cuStreamWaitEvent", true, missing);
  resolve(a.cuEventCreate, "cuEventCreate", true, missing);
  resolve(a.cuEventDestroy, "cuEventDestroy_v2", true, missing);
  resolve(a.cuEventRecord, "cuEventRecord", true, missing);
  resolve(a.cuEventSynchronize, "cuEventSynchronize", true, missing);
  resolve(a.cuMemAlloc, "cuMemAlloc_v2", true, missing);
  resolve(a.cuMemAllocManaged, "cuMemAllocManaged", true, missing);
  resolve(a.cuMemFree, "cuMemFree_v2", true, missing);
  resolve(a.cuMemcpyHtoD, "cuMemcpyHtoD_v2", true, missing);
  resolve(a.cuMemcpyDtoH, "cuMemcpyDtoH_v2", true, missing);
  resolve(a.cuMemcpyAsync, "cuMemcpyAsync", true, missing);
  resolve(a.cuMemsetD32, "cuMemsetD32_v2", true, missing);
  resolve(a.cuMemsetD32Async, "cuMemsetD32Async", true, missing);
  resolve(a.cuMemsetD16Async, "cuMemsetD16Async", true, missing);
  resolve(a.cuPointerGetAttribute, "cuPointerGetAttribute", true, missing);
  resolve(a.cuMemAllocAsync, "cuMemAllocAsync", false, missing);
  resolve(a.cuMemFreeAsync, "cuMemFreeAsync", false, missing);
  resolve(a.cuDeviceGetDefaultMemPool, "cuDeviceGetDefaultMemPool", false,
          missing);
  resolve(a.cuMemPoolSetAttribute, "cuMemPoolSetAttribute", false, missing);
  resolve(a.cuStreamIsCapturing, "cuStreamIsCapturing", false, missing);
  resolve(a.cuTensorMapEncodeTiled, "cuTensorMapEncodeTiled", false, missing);
  resolve(a.cuTensorMapEncodeIm2col, "cuTensorMapEncodeIm2col", false,
          missing);
  if (!missing.empty()) {
    d.status = DWC_ERROR_NO_DRIVER;
    d.message =
        std::string("CUDA driver ") + path + " is too old: missing " + missing;
    return;
  }
  CUresult r = a.cuInit(0);
  if (r != CUDA_SUCCESS) {
    d.status = statusOf(r);
    if (d.status != DWC_ERROR_NO_DRIVER)
      d.status = DWC_ERROR_NO_DEVICE;
    d.message = "cuInit failed: " + cuErrorText(r);
    return;
  }
  r = a.cuDeviceGetCount(&d.deviceCount);
  if (r != CUDA_SUCCESS || d.deviceCount <= 0) {
    d.status = DWC_ERROR_NO_DEVICE;
    d.message = "no CUDA device found";
    return;
  }
  d.status = DWC_SUCCESS;
  d.ok.store(true, std::memory_order_release);
}

/// Loads the driver once; records its failure on every call.
bool ensureDriver() {
  std::call_once(gDriver.once, loadDriver);
  if (gDriver.ok.load(std::memory_order_acquire))
    return true;
  setError(gDriver.status, "%s", gDriver.message.c_str());
  return false;
}

/// Makes sure a context is current: the caller's (e.g. PyTorch's) when one
/// is, else the primary context of the default device. Returns it, or null
/// (error recorded).
CUcontext ensureContext() {
  if (!ensureDriver())
    return nullptr;
  CUcontext cur = nullptr;
  if (cu().cuCtxGetCurrent(&cur) != CUDA_SUCCESS)
    cur = nullptr;
  int want = gDefaultDevice.load();
  if (cur) {
    if (!gDefaultDeviceSet.load())
      return cur;
    CUdevice dev = -1;
    if (cu().cuCtxGetDevice(&dev) == CUDA_SUCCESS) {
      CUdevice wantDev = -1;
      if (cu().cuDeviceGet(&wantDev, want) == CUDA_SUCCESS && dev == wantDev)
        return cur;
    }
  }
  if (want < 0 || want >= gDriver.deviceCount) {
    setError(DWC_ERROR_NO_DEVICE, "device %d does not exist (%d devices)", want,
             gDriver.deviceCount);
    return nullptr;
  }
  CUcontext ctx = nullptr;
  {
    std::lock_guard<std::mutex> lock(gCtxMutex);
    auto it = gPrimaryContexts.find(want);
    if (it != gPrimaryContexts.end()) {
      ctx = it->second;
    } else {
      CUdevice dev;
      if (!check(cu().cuDeviceGet(&dev, want), "cuDeviceGet"))
        return nullptr;
      if (!check(cu().cuDevicePrimaryCtxRetain(&ctx, dev),
                 "cuDevicePrimaryCtxRetain"))
        return nullptr;
      gPrimaryContexts[want] = ctx;
    }
  }
  if (!check(cu().cuCtxSetCurrent(ctx), "cuCtxSetCurrent"))
    return nullptr;
  return ctx;
}

//===----------------------------------------------------------------------===//
// Module records (lazy per-context loading, cache) and stream pool.
//===----------------------------------------------------------------------===//

struct ModuleRecord {
  const void *data;
  size_t size;
  bool jit;
  int optLevel;
  int refs = 0;
  std::mutex mutex;
  std::vector<std::pair<CUcontext, CUmodule>> loaded;
  /// Kernels looked up so far: found by the name's address first (generated
  /// host code passes the same constant string on every launch), confirmed
  /// by its text (a caller may reuse a buffer for another name). The list
  /// belongs to the record, so nothing outlives a module's unload.
  struct Function {
    CUcontext ctx;
    const char *namePtr;
    std::string name;
    CUfunction fn;
  };
  std::vector<Function> functions;
};

/// The cached kernel `name` of `rec` in `ctx`, or null. Call with
/// rec->mutex held. No allocation: the hot path of every launch.
CUfunction cachedFunction(ModuleRecord *rec, CUcontext ctx, const char *name) {
  for (const ModuleRecord::Function &f : rec->functions)
    if (f.ctx == ctx && f.namePtr == name && f.name == name)
      return f.fn;
  for (ModuleRecord::Function &f : rec->functions)
    if (f.ctx == ctx && f.name == name) {
      f.namePtr = name; // same kernel, other string: remember this address
      return f.fn;
    }
  return nullptr;
}

std::mutex gModulesMutex;
// Never destroyed: compiled code unregisters its modules from global
// destructors (mgpuModuleUnload), which for a library loaded with dlopen
// (e.g. by Python's ctypes) run from _dl_fini, after the exit handlers that
// destroy this library's own globals.
std::map<std::pair<const void *, size_t>, ModuleRecord *> &gModules =
    *new std::map<std::pair<const void *, size_t>, ModuleRecord *>();

// The records mgpuModuleLoad* handed out and not yet released (under
// gModulesMutex): a handle used after its last unload (unloaded twice,
// looked up after unload) is refused with an error, never dereferenced.
std::unordered_set<const ModuleRecord *> &gLiveModules =
    *new std::unordered_set<const ModuleRecord *>();

void *registerModule(const void *data, size_t size, bool jit, int optLevel) {
  if (!data || size == 0) {
    setError(DWC_ERROR_INVALID_VALUE, "mgpuModuleLoad: empty GPU binary");
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(gModulesMutex);
  ModuleRecord *&rec = gModules[{data, size}];
  if (!rec) {
    rec = new ModuleRecord();
    rec->data = data;
    rec->size = size;
    rec->jit = jit;
    rec->optLevel = optLevel;
    gLiveModules.insert(rec);
  }
  ++rec->refs;
  return rec;
}

/// Returns the driver module of `rec` in `ctx`, loading it on first use.
/// Call with rec->mutex held.
CUmodule moduleIn(ModuleRecord *rec, CUcontext ctx) {
  for (auto &p : rec->loaded)
    if (p.first == ctx)
      return p.second;
  CUmodule mod = nullptr;
  CUresult r;
  if (rec->jit) {
    int opts[] = {CU_JIT_OPTIMIZATION_LEVEL};
    void *vals[] = {reinterpret_cast<void *>(
        static_cast<intptr_t>(rec->optLevel < 0 ? 0 : rec->optLevel))};
    r = cu().cuModuleLoadDataEx(&mod, rec->data, 1, opts, vals);
  } else {
    r = cu().cuModuleLoadData(&mod, rec->data);
  }
  if (r != CUDA_SUCCESS) {
    char name[128] = "?";
    CUdevice dev = 0;
    int major = 0, minor = 0;
    if (cu().cuCtxGetDevice(&dev) == CUDA_SUCCESS) {
      cu().cuDeviceGetName(name, sizeof(name), dev);
      cu().cuDeviceGetAttribute(
          &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
      cu().cuDeviceGetAttribute(
          &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    }
    setError(statusOf(r) == DWC_ERROR_CUDA ? DWC_ERROR_INVALID_IMAGE
                                           : statusOf(r),
             "cannot load the GPU binary (%zu bytes, %s) on %s (sm_%d%d): %s",
             rec->size, rec->jit ? "PTX" : "cubin/fatbin", name, major, minor,
             cuErrorText(r).c_str());
    return nullptr;
  }
  rec->loaded.emplace_back(ctx, mod);
  return mod;
}

std::mutex gStreamMutex;
std::map<CUcontext, std::vector<CUstream>> gStreamPool;
// Streams mgpuStreamCreate handed out and events mgpuEventCreate made, not
// yet destroyed (under gStreamMutex): destroying one twice would pool a
// stream twice or hand the driver a destroyed event.
std::unordered_set<void *> gStreamsOut, gLiveEvents;

/// Whether `handle` is in `live` (under gStreamMutex); else records an error
/// naming `what`.
bool isLive(const std::unordered_set<void *> &live, void *handle,
            const char *what) {
  std::lock_guard<std::mutex> lock(gStreamMutex);
  if (live.count(handle))
    return true;
  setError(DWC_ERROR_INVALID_VALUE, "%s: %p is not a live handle (destroyed "
           "already, or not created by the runtime)", what, handle);
  return false;
}
constexpr size_t kMaxPooledStreams = 8;

bool fitsUnsigned(intptr_t v) { return v >= 0 && v <= (intptr_t)UINT_MAX; }

void launch(const char *what, CUfunction fn, intptr_t cx, intptr_t cy,
            intptr_t cz, intptr_t gx, intptr_t gy, intptr_t gz, intptr_t bx,
            intptr_t by, intptr_t bz, int32_t smem, void *stream, void **params,
            void **extra) {
  // A call whose earlier step failed (a workspace allocation, a copy) runs no
  // more kernels: they would get a null or stale buffer -- an illegal address
  // that poisons the whole context -- and the call reports its first error.
  if (tlsError.status != DWC_SUCCESS)
    return;
  if (!ensureContext())
    return;
  if (!fn) {
    setError(DWC_ERROR_INVALID_VALUE, "%s: null kernel handle", what);
    return;
  }
  // Empty tensors give empty grids: nothing to run.
  if (gx == 0 || gy == 0 || gz == 0 || bx == 0 || by == 0 || bz == 0)
    return;
  if (!fitsUnsigned(gx) || !fitsUnsigned(gy) || !fitsUnsigned(gz) ||
      !fitsUnsigned(bx) || !fitsUnsigned(by) || !fitsUnsigned(bz) || smem < 0) {
    setError(DWC_ERROR_INVALID_VALUE,
             "%s: invalid launch grid (%ld,%ld,%ld) block (%ld,%ld,%ld) "
             "smem %d",
             what, (long)gx, (long)gy, (long)gz, (long)bx, (long)by, (long)bz,
             smem);
    return;
  }
  if (smem > kDefaultSharedMemLimit &&
      !check(cu().cuFuncSetAttribute(
                 fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem),
             "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)"))
    return;
  CUresult r;
  if (cx == 1 && cy == 1 && cz == 1) {
    r = cu().cuLaunchKernel(fn, gx, gy, gz, bx, by, bz, smem,
                            static_cast<CUstream>(stream), params, extra);
  } else {
    if (!cu().cuLaunchKernelEx) {
      setError(DWC_ERROR_NO_DRIVER,
               "%s: the CUDA driver lacks cuLaunchKernelEx (clusters)", what);
      return;
    }
    if (cx * cy * cz > 8)
      cu().cuFuncSetAttribute(
          fn, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
    CULaunchAttribute attr{};
    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim.x = cx;
    attr.value.clusterDim.y = cy;
    attr.value.clusterDim.z = cz;
    CULaunchConfig cfg{};
    cfg.gridDimX = gx;
    cfg.gridDimY = gy;
    cfg.gridDimZ = gz;
    cfg.blockDimX = bx;
    cfg.blockDimY = by;
    cfg.blockDimZ = bz;
    cfg.sharedMemBytes = smem;
    cfg.hStream = static_cast<CUstream>(stream);
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    r = cu().cuLaunchKernelEx(&cfg, fn, params, extra);
  }
  if (r != CUDA_SUCCESS) {
    dwc_status s = statusOf(r);
    if (s == DWC_ERROR_CUDA || s == DWC_ERROR_INVALID_VALUE)
      s = DWC_ERROR_LAUNCH_FAILED;
    setError(s,
             "%s: launch of grid (%ld,%ld,%ld) block (%ld,%ld,%ld) smem %d "
             "failed: %s",
             what, (long)gx, (long)gy, (long)gz, (long)bx, (long)by, (long)bz,
             smem, cuErrorText(r).c_str());
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// C API.
//===----------------------------------------------------------------------===//

extern "C" {

dwc_status dwcInit(void) {
  if (!ensureContext())
    return tlsLastFailure;
  return DWC_SUCCESS;
}

const char *dwcGetErrorString(dwc_status status) {
  switch (status) {
  case DWC_SUCCESS:
    return "success";
  case DWC_ERROR_NO_DRIVER:
    return "no CUDA driver (libcuda.so.1 not found or too old)";
  case DWC_ERROR_NO_DEVICE:
    return "no CUDA device";
  case DWC_ERROR_INVALID_VALUE:
    return "invalid value";
  case DWC_ERROR_MISALIGNED:
    return "misaligned pointer";
  case DWC_ERROR_LAUNCH_FAILED:
    return "kernel launch failed";
  case DWC_ERROR_CUDA:
    return "CUDA driver error";
  case DWC_ERROR_OUT_OF_MEMORY:
    return "out of device memory";
  case DWC_ERROR_INVALID_IMAGE:
    return "GPU binary cannot be loaded on this device";
  case DWC_ERROR_NOT_FOUND:
    return "kernel not found";
  }
  return "unknown dwc status";
}

const char *dwcGetLastErrorMessage(void) { return tlsError.message.c_str(); }

dwc_status dwcTakeLastError(void) {
  dwc_status s = tlsError.status;
  tlsError.status = DWC_SUCCESS;
  return s;
}

dwc_status dwcPeekLastError(void) { return tlsError.status; }

dwc_status dwcSetStream(void *cuStream) {
  tlsExternalStream = static_cast<CUstream>(cuStream);
  return DWC_SUCCESS;
}

void *dwcGetStream(void) { return tlsExternalStream; }

#define DWC_FAIL_STATUS() (tlsLastFailure)

dwc_status dwcMalloc(void **devPtr, size_t bytes) {
  if (!devPtr)
    return setError(DWC_ERROR_INVALID_VALUE, "dwcMalloc: null result pointer");
  *devPtr = nullptr;
  if (bytes == 0)
    return DWC_SUCCESS;
  if (!ensureContext())
    return DWC_FAIL_STATUS();
  CUdeviceptr p = 0;
  CUresult r = cu().cuMemAlloc(&p, bytes);
  if (r != CUDA_SUCCESS)
    return setError(statusOf(r), "dwcMalloc(%zu bytes): %s", bytes,
                    cuErrorText(r).c_str());
  *devPtr = reinterpret_cast<void *>(p);
  return DWC_SUCCESS;
}

dwc_status dwcFree(void *devPtr) {
  if (!devPtr)
    return DWC_SUCCESS;
  if (!ensureContext())
    return DWC_FAIL_STATUS();
  if (!check(cu().cuMemFree(reinterpret_cast<CUdeviceptr>(devPtr)), "dwcFree"))
    return DWC_FAIL_STATUS();
  return DWC_SUCCESS;
}

static dwc_status copy(void *dst, const void *src, size_t bytes, bool toDev) {
  const char *what = toDev ? "dwcMemcpyHtoD" : "dwcMemcpyDtoH";
  if (bytes == 0)
    return DWC_SUCCESS;
  if (!dst || !src)
    return setError(DWC_ERROR_INVALID_VALUE, "%s: null pointer", what);
  if (!ensureContext())
    return DWC_FAIL_STATUS();
  CUresult r;
  if (CUstream s = tlsExternalStream) {
    r = cu().cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                           reinterpret_cast<CUdeviceptr>(src), bytes, s);
    if (r == CUDA_SUCCESS)
      r = cu().cuStreamSynchronize(s);
  } else if (toDev) {
    r = cu().cuMemcpyHtoD(reinterpret_cast<CUdeviceptr>(dst), src, bytes);
  } else {
    r = cu().cuMemcpyDtoH(dst, reinterpret_cast<CUdeviceptr>(src), bytes);
  }
  if (!check(r, what))
    return DWC_FAIL_STATUS();
  return DWC_SUCCESS;
}

dwc_status dwcMemcpyHtoD(void *dstDev, const void *srcHost, size_t bytes) {
  return copy(dstDev, srcHost, bytes, true);
}

dwc_status dwcMemcpyDtoH(void *dstHost, const void *srcDev, size_t bytes) {
  return copy(dstHost, srcDev, bytes, false);
}

dwc_status dwcMemset32(void *dstDev, uint32_t value, size_t count) {
  if (count == 0)
    return DWC_SUCCESS;
  if (!dstDev)
    return setError(DWC_ERROR_INVALID_VALUE, "dwcMemset32: null pointer");
  if (!ensureContext())
    return DWC_FAIL_STATUS();
  CUresult r;
  if (CUstream s = tlsExternalStream) {
    r = cu().cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dstDev), value,
                              count, s);
    if (r == CUDA_SUCCESS)
      r = cu().cuStreamSynchronize(s);
  } else {
    r = cu().cuMemsetD32(reinterpret_cast<CUdeviceptr>(dstDev), value, count);
  }
  if (!check(r, "dwcMemset32"))
    return DWC_FAIL_STATUS();
  return DWC_SUCCESS;
}

dwc_status dwcSynchronize(void) {
  if (!ensureContext())
    return DWC_FAIL_STATUS();
  CUresult r = tlsExternalStream ? cu().cuStreamSynchronize(tlsExternalStream)
                                 : cu().cuCtxSynchronize();
  if (!check(r, "dwcSynchronize"))
    return DWC_FAIL_STATUS();
  return DWC_SUCCESS;
}

dwc_status dwcCheckPointerNamed(const void *ptr, size_t alignment,
                                const char *name) {
  // "argument <name>" or "pointer": formatted only when a check fails (this
  // runs for every argument of every call).
  const char *pre = name ? "argument " : "", *what = name ? name : "pointer";
  if (!ptr)
    return setError(DWC_ERROR_INVALID_VALUE, "%s%s is null", pre, what);
  if (alignment > 1) {
    if (alignment & (alignment - 1))
      return setError(DWC_ERROR_INVALID_VALUE,
                      "dwcCheckPointer: alignment %zu is not a power of two",
                      alignment);
    if (reinterpret_cast<uintptr_t>(ptr) & (alignment - 1))
      return setError(DWC_ERROR_MISALIGNED, "%s%s (%p) is not %zu-byte aligned",
                      pre, what, ptr, alignment);
  }
  // Only when the driver is already up: checking must not initialise it.
  if (gDriver.ok.load(std::memory_order_acquire)) {
    unsigned memType = 0;
    CUresult r =
        cu().cuPointerGetAttribute(&memType, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                   reinterpret_cast<CUdeviceptr>(ptr));
    if (r == CUDA_ERROR_INVALID_VALUE)
      return setError(DWC_ERROR_INVALID_VALUE,
                      "%s%s (%p) is not a CUDA device pointer (host memory?)",
                      pre, what, ptr);
  }
  return DWC_SUCCESS;
}

dwc_status dwcCheckPointer(const void *ptr, size_t alignment) {
  return dwcCheckPointerNamed(ptr, alignment, nullptr);
}

dwc_status dwcGetDeviceInfo(char *name, size_t nameSize, int *ccMajor,
                            int *ccMinor) {
  if (!ensureContext())
    return DWC_FAIL_STATUS();
  CUdevice dev;
  if (!check(cu().cuCtxGetDevice(&dev), "cuCtxGetDevice"))
    return DWC_FAIL_STATUS();
  if (name && nameSize > 0) {
    name[0] = 0;
    cu().cuDeviceGetName(name, nameSize > INT_MAX ? INT_MAX : (int)nameSize,
                         dev);
  }
  if (ccMajor)
    cu().cuDeviceGetAttribute(
        ccMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
  if (ccMinor)
    cu().cuDeviceGetAttribute(
        ccMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
  return DWC_SUCCESS;
}

int dwcGetModuleCount(void) {
  std::lock_guard<std::mutex> lock(gModulesMutex);
  return (int)gModules.size();
}

//===----------------------------------------------------------------------===//
// mgpu* entry points (LLVM 22 GPUToLLVM signatures).
//===----------------------------------------------------------------------===//

void *mgpuModuleLoad(void *data, size_t gpuBlobSize) {
  // No driver work here: this runs from global constructors. The driver
  // module is loaded on first use (mgpuModuleGetFunction).
  return registerModule(data, gpuBlobSize, /*jit=*/false, 0);
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  if (!data) {
    setError(DWC_ERROR_INVALID_VALUE, "mgpuModuleLoadJIT: null PTX");
    return nullptr;
  }
  return registerModule(data, std::strlen(static_cast<const char *>(data)) + 1,
                        /*jit=*/true, optLevel);
}

void mgpuModuleUnload(void *module) {
  if (!module)
    return;
  auto *rec = static_cast<ModuleRecord *>(module);
  {
    std::lock_guard<std::mutex> lock(gModulesMutex);
    if (!gLiveModules.count(rec)) {
      setError(DWC_ERROR_INVALID_VALUE,
               "mgpuModuleUnload: %p is not a loaded module (unloaded "
               "already?)", module);
      return;
    }
    if (--rec->refs > 0)
      return;
    gModules.erase({rec->data, rec->size});
    gLiveModules.erase(rec);
  }
  // A lookup that found the record live before holds its mutex: wait for it.
  { std::lock_guard<std::mutex> drain(rec->mutex); }
  // Runs from global destructors too: errors of a shutting-down driver are
  // ignored.
  if (gDriver.ok.load(std::memory_order_acquire))
    for (auto &p : rec->loaded)
      cu().cuModuleUnload(p.second);
  delete rec;
}

/// DWC_SMEM_CARVEOUT=P, P in 0..100: every kernel's preferred shared-memory
/// carveout (per cent of the SM's unified L1 / shared memory), set when the
/// kernel is looked up; unset, empty or anything else: the driver's choice
/// (-1). For timing kernels inside a model: an SM switches its carveout
/// between neighbouring kernels that prefer different ones, which a kernel
/// timed back to back with itself never does.
static int smemCarveout() {
  static const int value = [] {
    const char *e = std::getenv("DWC_SMEM_CARVEOUT");
    if (!e || !*e)
      return -1;
    char *end = nullptr;
    long v = std::strtol(e, &end, 10);
    return *end == '\0' && v >= 0 && v <= 100 ? static_cast<int>(v) : -1;
  }();
  return value;
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  CUcontext ctx = ensureContext();
  if (!ctx)
    return nullptr;
  if (!module || !name) {
    setError(DWC_ERROR_INVALID_VALUE,
             "mgpuModuleGetFunction: null module or kernel name");
    return nullptr;
  }
  auto *rec = static_cast<ModuleRecord *>(module);
  // The record's mutex is taken while the module list's is held, so that
  // an unload cannot free it in between (mgpuModuleUnload drains it).
  std::unique_lock<std::mutex> modules(gModulesMutex);
  if (!gLiveModules.count(rec)) {
    setError(DWC_ERROR_INVALID_VALUE,
             "mgpuModuleGetFunction: %p is not a loaded module (unloaded "
             "already?)", module);
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(rec->mutex);
  modules.unlock();
  if (CUfunction fn = cachedFunction(rec, ctx, name))
    return fn;
  CUmodule mod = moduleIn(rec, ctx);
  if (!mod)
    return nullptr;
  CUfunction fn = nullptr;
  CUresult r = cu().cuModuleGetFunction(&fn, mod, name);
  if (r != CUDA_SUCCESS) {
    setError(r == CUDA_ERROR_NOT_FOUND ? DWC_ERROR_NOT_FOUND : statusOf(r),
             "kernel '%s' not found in the GPU binary: %s", name,
             cuErrorText(r).c_str());
    return nullptr;
  }
  // A preference, not a requirement: a driver that refuses it runs the
  // kernel with its own choice.
  if (int carveout = smemCarveout(); carveout >= 0)
    cu().cuFuncSetAttribute(
        fn, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, carveout);
  rec->functions.push_back({ctx, name, name, fn});
  return fn;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t /*paramsCount*/) {
  launch("mgpuLaunchKernel", static_cast<CUfunction>(function), 1, 1, 1, gridX,
         gridY, gridZ, blockX, blockY, blockZ, smem, stream, params, extra);
}

void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t smem, void *stream, void **params,
                             void **extra, size_t /*paramsCount*/) {
  launch("mgpuLaunchClusterKernel", static_cast<CUfunction>(function), clusterX,
         clusterY, clusterZ, gridX, gridY, gridZ, blockX, blockY, blockZ, smem,
         stream, params, extra);
}

void *mgpuStreamCreate(void) {
  if (tlsExternalStream)
    return tlsExternalStream;
  CUcontext ctx = ensureContext();
  if (!ctx)
    return nullptr;
  {
    std::lock_guard<std::mutex> lock(gStreamMutex);
    auto &pool = gStreamPool[ctx];
    if (!pool.empty()) {
      CUstream s = pool.back();
      pool.pop_back();
      gStreamsOut.insert(s);
      return s;
    }
  }
  CUstream s = nullptr;
  if (!check(cu().cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate"))
    return nullptr;
  std::lock_guard<std::mutex> lock(gStreamMutex);
  gStreamsOut.insert(s);
  return s;
}

void mgpuStreamDestroy(void *stream) {
  if (!stream || stream == tlsExternalStream ||
      !gDriver.ok.load(std::memory_order_acquire))
    return;
  CUcontext ctx = ensureContext();
  if (!ctx)
    return;
  {
    std::lock_guard<std::mutex> lock(gStreamMutex);
    if (!gStreamsOut.erase(stream)) {
      setError(DWC_ERROR_INVALID_VALUE,
               "mgpuStreamDestroy: %p is not a stream of mgpuStreamCreate "
               "(destroyed already?)", stream);
      return;
    }
    auto &pool = gStreamPool[ctx];
    if (pool.size() < kMaxPooledStreams) {
      pool.push_back(static_cast<CUstream>(stream));
      return;
    }
  }
  check(cu().cuStreamDestroy(static_cast<CUstream>(stream)), "cuStreamDestroy");
}

void mgpuStreamSynchronize(void *stream) {
  if (stream && stream == tlsExternalStream)
    return; // the caller synchronises its own stream
  if (!ensureContext())
    return;
  CUresult r = cu().cuStreamSynchronize(static_cast<CUstream>(stream));
  if (r != CUDA_SUCCESS)
    setError(statusOf(r), "kernel execution failed (cuStreamSynchronize): %s",
             cuErrorText(r).c_str());
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  if (!ensureContext())
    return;
  if (!event) {
    setError(DWC_ERROR_INVALID_VALUE, "mgpuStreamWaitEvent: null event");
    return;
  }
  if (!isLive(gLiveEvents, event, "mgpuStreamWaitEvent"))
    return;
  check(cu().cuStreamWaitEvent(static_cast<CUstream>(stream),
                               static_cast<CUevent>(event), 0),
        "cuStreamWaitEvent");
}

void *mgpuEventCreate(void) {
  if (!ensureContext())
    return nullptr;
  CUevent e = nullptr;
  if (!check(cu().cuEventCreate(&e, CU_EVENT_DISABLE_TIMING), "cuEventCreate"))
    return nullptr;
  std::lock_guard<std::mutex> lock(gStreamMutex);
  gLiveEvents.insert(e);
  return e;
}

void mgpuEventDestroy(void *event) {
  if (!event || !ensureContext())
    return;
  {
    std::lock_guard<std::mutex> lock(gStreamMutex);
    if (!gLiveEvents.erase(event)) {
      setError(DWC_ERROR_INVALID_VALUE,
               "mgpuEventDestroy: %p is not a live event (destroyed "
               "already?)", event);
      return;
    }
  }
  check(cu().cuEventDestroy(static_cast<CUevent>(event)), "cuEventDestroy");
}

void mgpuEventSynchronize(void *event) {
  if (!ensureContext())
    return;
  if (!event) {
    setError(DWC_ERROR_INVALID_VALUE, "mgpuEventSynchronize: null event");
    return;
  }
  if (!isLive(gLiveEvents, event, "mgpuEventSynchronize"))
    return;
  check(cu().cuEventSynchronize(static_cast<CUevent>(event)),
        "cuEventSynchronize");
}

void mgpuEventRecord(void *event, void *stream) {
  if (!ensureContext())
    return;
  if (!event) {
    setError(DWC_ERROR_INVALID_VALUE, "mgpuEventRecord: null event");
    return;
  }
  if (!isLive(gLiveEvents, event, "mgpuEventRecord"))
    return;
  check(cu().cuEventRecord(static_cast<CUevent>(event),
                           static_cast<CUstream>(stream)),
        "cuEventRecord");
}

/// Whether device allocations on a stream use the stream-ordered allocator:
/// the driver has it and DWC_STREAM_ORDERED_ALLOC is not 0. The current
/// device's default pool keeps freed memory cached (release threshold
/// UINT64_MAX), so a workspace allocated and freed on every call costs no
/// cuMemAlloc/cuMemFree (cuMemFree synchronises the device) after the first.
static bool streamOrderedAlloc() {
  static std::once_flag once;
  static bool enabled = false;
  std::call_once(once, [] {
    const DriverApi &a = cu();
    const char *e = std::getenv("DWC_STREAM_ORDERED_ALLOC");
    if ((e && std::strcmp(e, "0") == 0) || !a.cuMemAllocAsync ||
        !a.cuMemFreeAsync)
      return;
    enabled = true;
    CUdevice dev;
    CUmemoryPool pool = nullptr;
    if (a.cuDeviceGetDefaultMemPool && a.cuMemPoolSetAttribute &&
        a.cuCtxGetDevice(&dev) == CUDA_SUCCESS &&
        a.cuDeviceGetDefaultMemPool(&pool, dev) == CUDA_SUCCESS) {
      uint64_t keep = UINT64_MAX;
      a.cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &keep);
    }
  });
  return enabled;
}

/// Whether `stream` is capturing a CUDA graph (false when the driver cannot
/// say).
static bool isCapturing(void *stream) {
  int status = 0; // CU_STREAM_CAPTURE_STATUS_NONE
  return stream && cu().cuStreamIsCapturing &&
         cu().cuStreamIsCapturing(static_cast<CUstream>(stream), &status) ==
             CUDA_SUCCESS &&
         status != 0;
}

void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared) {
  if (sizeBytes == 0)
    return nullptr;
  if (!ensureContext())
    return nullptr;
  // cuMemAlloc inside a capture is refused by the driver and invalidates the
  // whole capture (the caller's graph, not only this call): refuse it here.
  if ((isHostShared || !streamOrderedAlloc()) && isCapturing(stream)) {
    setError(DWC_ERROR_INVALID_VALUE,
             "mgpuMemAlloc(%llu bytes): a workspace inside a CUDA graph capture "
             "needs the stream-ordered allocator (cuMemAllocAsync; "
             "DWC_STREAM_ORDERED_ALLOC=0 turns it off)",
             (unsigned long long)sizeBytes);
    return nullptr;
  }
  CUdeviceptr p = 0;
  CUresult r =
      isHostShared
          ? cu().cuMemAllocManaged(&p, sizeBytes, CU_MEM_ATTACH_GLOBAL)
      : stream && streamOrderedAlloc()
          ? cu().cuMemAllocAsync(&p, sizeBytes, static_cast<CUstream>(stream))
          : cu().cuMemAlloc(&p, sizeBytes);
  if (r != CUDA_SUCCESS) {
    setError(statusOf(r), "mgpuMemAlloc(%llu bytes%s): %s",
             (unsigned long long)sizeBytes, isHostShared ? ", managed" : "",
             cuErrorText(r).c_str());
    return nullptr;
  }
  return reinterpret_cast<void *>(p);
}

void mgpuMemFree(void *ptr, void *stream) {
  if (!ptr || !ensureContext())
    return;
  // A pointer from cuMemAllocAsync is freed in stream order; freeing a
  // cuMemAlloc pointer with cuMemFreeAsync is also valid (the driver
  // synchronises), so the choice only has to match the allocation's stream.
  if (stream && streamOrderedAlloc()) {
    check(cu().cuMemFreeAsync(reinterpret_cast<CUdeviceptr>(ptr),
                              static_cast<CUstream>(stream)),
          "cuMemFreeAsync");
    return;
  }
  check(cu().cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)), "cuMemFree");
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
  if (sizeBytes == 0 || !ensureContext())
    return;
  if (!dst || !src) {
    setError(DWC_ERROR_INVALID_VALUE, "mgpuMemcpy: null pointer");
    return;
  }
  check(cu().cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                           reinterpret_cast<CUdeviceptr>(src), sizeBytes,
                           static_cast<CUstream>(stream)),
        "cuMemcpyAsync");
}

void mgpuMemset32(void *dst, uint32_t value, size_t count, void *stream) {
  if (count == 0 || !ensureContext())
    return;
  if (!dst) {
    setError(DWC_ERROR_INVALID_VALUE, "mgpuMemset32: null pointer");
    return;
  }
  check(cu().cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                              static_cast<CUstream>(stream)),
        "cuMemsetD32Async");
}

void mgpuMemset16(void *dst, uint16_t value, size_t count, void *stream) {
  if (count == 0 || !ensureContext())
    return;
  if (!dst) {
    setError(DWC_ERROR_INVALID_VALUE, "mgpuMemset16: null pointer");
    return;
  }
  check(cu().cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                              static_cast<CUstream>(stream)),
        "cuMemsetD16Async");
}

namespace {
/// Device copy of an encoded tensor map, cached by `key`.
uint64_t cachedTensorMap(std::vector<uint64_t> key,
                         const std::function<CUresult(void *)> &encode,
                         const char *what) {
  static std::mutex mapsMutex;
  static std::map<std::vector<uint64_t>, CUdeviceptr> maps;
  std::lock_guard<std::mutex> lock(mapsMutex);
  auto it = maps.find(key);
  if (it != maps.end())
    return it->second;
  alignas(64) unsigned char map[128] = {};
  if (!check(encode(map), what))
    return 0;
  CUdeviceptr dev = 0;
  if (!check(cu().cuMemAlloc(&dev, sizeof(map)), "cuMemAlloc (tensor map)"))
    return 0;
  if (!check(cu().cuMemcpyHtoD(dev, map, sizeof(map)),
             "cuMemcpyHtoD (tensor map)")) {
    cu().cuMemFree(dev);
    return 0;
  }
  maps.emplace(std::move(key), dev);
  return dev;
}
} // namespace

uint64_t dwcTensorMap2D(uint64_t base, uint64_t rows, uint64_t cols,
                        uint64_t rowStrideBytes, uint32_t boxRows,
                        uint32_t boxCols, uint32_t dataType, uint32_t swizzle) {
  CUcontext ctx = ensureContext();
  if (!ctx)
    return 0;
  if (!cu().cuTensorMapEncodeTiled) {
    setError(DWC_ERROR_NO_DRIVER,
             "dwcTensorMap2D: the driver has no cuTensorMapEncodeTiled "
             "(CUDA 12 or newer needed)");
    return 0;
  }
  if (base % 16 != 0 || rowStrideBytes % 16 != 0 || rows == 0 || cols == 0 ||
      boxRows == 0 || boxCols == 0 || boxRows > 256 || boxCols > 256) {
    setError(DWC_ERROR_INVALID_VALUE,
             "dwcTensorMap2D: unsupported matrix (base %% 16 = %llu, row "
             "stride %llu bytes, %llu x %llu, box %u x %u)",
             (unsigned long long)(base % 16), (unsigned long long)rowStrideBytes,
             (unsigned long long)rows, (unsigned long long)cols, boxRows,
             boxCols);
    return 0;
  }
  std::vector<uint64_t> key = {reinterpret_cast<uint64_t>(ctx), 1, base, rows,
                               cols, rowStrideBytes, boxRows, boxCols,
                               dataType, swizzle};
  return cachedTensorMap(
      std::move(key),
      [&](void *map) {
        // Dimensions innermost first.
        unsigned long long dims[2] = {cols, rows};
        unsigned long long strides[1] = {rowStrideBytes};
        unsigned box[2] = {boxCols, boxRows}, elementStrides[2] = {1, 1};
        return cu().cuTensorMapEncodeTiled(
            map, int(dataType), 2, reinterpret_cast<void *>(base), dims,
            strides, box, elementStrides, /*interleave=*/0, int(swizzle),
            /*l2Promotion=*/0, /*oobFill=*/0);
      },
      "cuTensorMapEncodeTiled");
}


uint64_t dwcTensorMapIm2col(uint64_t base, uint64_t n, uint64_t h, uint64_t w,
                            uint64_t c, int32_t lowerW, int32_t lowerH,
                            int32_t upperW, int32_t upperH, uint32_t channels,
                            uint32_t pixels, uint32_t dataType,
                            uint32_t swizzle) {
  CUcontext ctx = ensureContext();
  if (!ctx)
    return 0;
  if (!cu().cuTensorMapEncodeIm2col) {
    setError(DWC_ERROR_NO_DRIVER,
             "dwcTensorMapIm2col: the driver has no cuTensorMapEncodeIm2col "
             "(CUDA 12 or newer needed)");
    return 0;
  }
  if (base % 16 != 0 || (c * 2) % 16 != 0 || !n || !h || !w || !c ||
      !channels || !pixels || channels > 256 || pixels > 256) {
    setError(DWC_ERROR_INVALID_VALUE,
             "dwcTensorMapIm2col: unsupported tensor (base %% 16 = %llu, "
             "%llux%llux%llux%llu, %u channels x %u pixels)",
             (unsigned long long)(base % 16), (unsigned long long)n,
             (unsigned long long)h, (unsigned long long)w,
             (unsigned long long)c, channels, pixels);
    return 0;
  }
  std::vector<uint64_t> key = {reinterpret_cast<uint64_t>(ctx), 2, base, n, h,
                               w, c, uint64_t(uint32_t(lowerW)),
                               uint64_t(uint32_t(lowerH)),
                               uint64_t(uint32_t(upperW)),
                               uint64_t(uint32_t(upperH)), channels, pixels,
                               dataType, swizzle};
  return cachedTensorMap(
      std::move(key),
      [&](void *map) {
        // Dimensions innermost first: C, W, H, N; byte strides of W, H, N.
        unsigned long long dims[4] = {c, w, h, n};
        unsigned long long strides[3] = {c * 2, w * c * 2, h * w * c * 2};
        int lower[2] = {lowerW, lowerH}, upper[2] = {upperW, upperH};
        unsigned elementStrides[4] = {1, 1, 1, 1};
        return cu().cuTensorMapEncodeIm2col(
            map, int(dataType), 4, reinterpret_cast<void *>(base), dims,
            strides, lower, upper, channels, pixels, elementStrides,
            /*interleave=*/0, int(swizzle), /*l2Promotion=*/0, /*oobFill=*/0);
      },
      "cuTensorMapEncodeIm2col");
}

__attribute__((visibility("default"))) uint64_t _mlir_ciface_dwcTensorMapIm2col(
    uint64_t base, uint64_t n, uint64_t h, uint64_t w, uint64_t c,
    int32_t lowerW, int32_t lowerH, int32_t upperW, int32_t upperH,
    uint32_t channels, uint32_t pixels, uint32_t dataType, uint32_t swizzle) {
  return dwcTensorMapIm2col(base, n, h, w, c, lowerW, lowerH, upperW, upperH,
                            channels, pixels, dataType, swizzle);
}

// The generated host code calls its declarations through their C-interface
// names (llvm.emit_c_interface on every function): same scalar arguments.
__attribute__((visibility("default"))) uint64_t
_mlir_ciface_dwcTensorMap2D(uint64_t base, uint64_t rows, uint64_t cols,
                            uint64_t rowStrideBytes, uint32_t boxRows,
                            uint32_t boxCols, uint32_t dataType,
                            uint32_t swizzle) {
  return dwcTensorMap2D(base, rows, cols, rowStrideBytes, boxRows, boxCols,
                        dataType, swizzle);
}

void mgpuSetDefaultDevice(int32_t device) {
  gDefaultDevice.store(device);
  gDefaultDeviceSet.store(true);
}

} // extern "C"
