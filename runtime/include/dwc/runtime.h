/*===- dwc/runtime.h - C API of libdwc_runtime -------------------*- C -*-===*
 *
 * libdwc_runtime: host-side runtime of code compiled by dwc. It loads the
 * CUDA driver (libcuda.so.1) with dlopen on first use, so programs linked
 * against it start on machines without a driver and report that cleanly.
 * It also provides the mgpu* entry points that MLIR's gpu-to-llvm host code
 * calls (declared at the end of this header).
 *
 * Errors: every failing call records a status and a message in a
 * thread-local slot. The first error recorded since the last
 * dwcTakeLastError() is kept (later failures that follow from it do not
 * overwrite the root cause).
 *
 *===----------------------------------------------------------------------===*/

#ifndef DWC_RUNTIME_H
#define DWC_RUNTIME_H

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#if defined(_WIN32)
#define DWC_RT_API
#else
#define DWC_RT_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum dwc_status {
  DWC_SUCCESS = 0,
  DWC_ERROR_NO_DRIVER = 1,      /* libcuda.so.1 missing or too old */
  DWC_ERROR_NO_DEVICE = 2,      /* driver present, no usable GPU */
  DWC_ERROR_INVALID_VALUE = 3,  /* null pointer, bad argument */
  DWC_ERROR_MISALIGNED = 4,     /* pointer not aligned as required */
  DWC_ERROR_LAUNCH_FAILED = 5,  /* kernel launch or execution failed */
  DWC_ERROR_CUDA = 6,           /* any other CUDA driver error */
  DWC_ERROR_OUT_OF_MEMORY = 7,  /* device allocation failed */
  DWC_ERROR_INVALID_IMAGE = 8,  /* GPU binary does not load on this device */
  DWC_ERROR_NOT_FOUND = 9       /* kernel not found in a GPU binary */
} dwc_status;

/* Loads the driver, initialises it and makes the primary context of the
 * default device (0 unless mgpuSetDefaultDevice chose another) current on
 * the calling thread when no context is current. Idempotent; every other
 * call initialises lazily, so calling it is optional. */
DWC_RT_API dwc_status dwcInit(void);

/* Static description of a status ("no CUDA driver", ...). */
DWC_RT_API const char *dwcGetErrorString(dwc_status status);

/* Message of the pending error of this thread ("" when none). The pointer
 * stays valid until the next runtime call on this thread. */
DWC_RT_API const char *dwcGetLastErrorMessage(void);

/* Returns the pending error of this thread and clears it (the message stays
 * readable through dwcGetLastErrorMessage until the next error). */
DWC_RT_API dwc_status dwcTakeLastError(void);

/* Returns the pending error without clearing it. */
DWC_RT_API dwc_status dwcPeekLastError(void);

/* External stream mode (per thread). With a non-null CUstream (for example
 * PyTorch's current stream), compiled code queues its kernels and copies on
 * that stream and returns without synchronising: the caller synchronises.
 * NULL restores the default: the runtime uses its own streams and every
 * compiled call synchronises before returning. The runtime's own streams
 * are non-blocking, so they are NOT ordered with the legacy default stream:
 * a caller whose stream handle is 0 (PyTorch's default stream) must pass
 * CU_STREAM_LEGACY, (void *)0x1, not NULL. */
DWC_RT_API dwc_status dwcSetStream(void *cuStream);
DWC_RT_API void *dwcGetStream(void);

/* Device memory helpers (synchronous; they use the current context). */
DWC_RT_API dwc_status dwcMalloc(void **devPtr, size_t bytes);
DWC_RT_API dwc_status dwcFree(void *devPtr);
DWC_RT_API dwc_status dwcMemcpyHtoD(void *dstDev, const void *srcHost,
                                    size_t bytes);
DWC_RT_API dwc_status dwcMemcpyDtoH(void *dstHost, const void *srcDev,
                                    size_t bytes);
DWC_RT_API dwc_status dwcMemset32(void *dstDev, uint32_t value, size_t count);
/* Waits for the external stream when one is set, else for the context. */
DWC_RT_API dwc_status dwcSynchronize(void);

/* Checks an argument pointer: NULL -> DWC_ERROR_INVALID_VALUE, not a
 * multiple of `alignment` (a power of two; 0 or 1: no check) ->
 * DWC_ERROR_MISALIGNED. When the driver is already loaded, a pointer the
 * driver does not know gives DWC_ERROR_INVALID_VALUE (host memory passed
 * where a device pointer is expected). Failures are recorded as the pending
 * error; `name` (may be NULL) names the argument in the message
 * ("argument <name> is null"). */
DWC_RT_API dwc_status dwcCheckPointer(const void *ptr, size_t alignment);
DWC_RT_API dwc_status dwcCheckPointerNamed(const void *ptr, size_t alignment,
                                           const char *name);

/* Device name and compute capability of the default device. */
DWC_RT_API dwc_status dwcGetDeviceInfo(char *name, size_t nameSize,
                                       int *ccMajor, int *ccMinor);

/* Number of modules (GPU binaries) currently registered/loaded; for tests of
 * the module cache. */
DWC_RT_API int dwcGetModuleCount(void);

/*===--- mgpu* entry points called by MLIR gpu-to-llvm host code ---------===*
 * Signatures follow LLVM 22's GPUToLLVM lowering. They never abort: failures
 * are recorded as the pending error and null/no-op results are returned.
 * Module handles are runtime records: the driver module is loaded lazily, on
 * first use, in the context current at that time (one per context), and the
 * same image registered twice gives the same record.                       */
/* Tensor map (CUtensorMap, in device memory, for cp.async.bulk.tensor) of a
 * row-major rows x cols matrix at device address `base` with a row stride of
 * `rowStrideBytes` (a multiple of 16), boxes of boxRows x boxCols elements,
 * element type `dataType` and shared-memory swizzle `swizzle` (the
 * CUtensorMapDataType / CUtensorMapSwizzle values of cuda.h), zero fill out
 * of bounds. Generated kernels call it before their launch. Maps are cached
 * per (context, address, shape, box, type, swizzle); returns the device
 * address of the map, or 0 with a pending error (no driver support, bad
 * arguments).                                                             */
DWC_RT_API uint64_t dwcTensorMap2D(uint64_t base, uint64_t rows, uint64_t cols,
                                   uint64_t rowStrideBytes, uint32_t boxRows,
                                   uint32_t boxCols, uint32_t dataType,
                                   uint32_t swizzle);
/* Im2col tensor map of an N x H x W x C (NHWC) tensor at `base` for the
 * kernels' window gather: each copy loads `pixels` consecutive output
 * pixels x `channels` channels, for one filter tap given as offsets at copy
 * time; the window's top-left corner ranges over [lowerW, W - 1 + upperW]
 * x [lowerH, H - 1 + upperH] (lower = -padding, upper = padding - (F - 1)),
 * unit strides, zero fill. Cached like dwcTensorMap2D; 0 with a pending
 * error when it cannot be encoded.                                        */
DWC_RT_API uint64_t dwcTensorMapIm2col(uint64_t base, uint64_t n, uint64_t h,
                                       uint64_t w, uint64_t c, int32_t lowerW,
                                       int32_t lowerH, int32_t upperW,
                                       int32_t upperH, uint32_t channels,
                                       uint32_t pixels, uint32_t dataType,
                                       uint32_t swizzle);
DWC_RT_API void *mgpuModuleLoad(void *data, size_t gpuBlobSize);
DWC_RT_API void *mgpuModuleLoadJIT(void *data, int optLevel);
DWC_RT_API void mgpuModuleUnload(void *module);
DWC_RT_API void *mgpuModuleGetFunction(void *module, const char *name);
DWC_RT_API void mgpuLaunchKernel(void *function, intptr_t gridX,
                                 intptr_t gridY, intptr_t gridZ,
                                 intptr_t blockX, intptr_t blockY,
                                 intptr_t blockZ, int32_t smem, void *stream,
                                 void **params, void **extra,
                                 size_t paramsCount);
DWC_RT_API void mgpuLaunchClusterKernel(
    void *function, intptr_t clusterX, intptr_t clusterY, intptr_t clusterZ,
    intptr_t gridX, intptr_t gridY, intptr_t gridZ, intptr_t blockX,
    intptr_t blockY, intptr_t blockZ, int32_t smem, void *stream,
    void **params, void **extra, size_t paramsCount);
DWC_RT_API void *mgpuStreamCreate(void);
DWC_RT_API void mgpuStreamDestroy(void *stream);
DWC_RT_API void mgpuStreamSynchronize(void *stream);
DWC_RT_API void mgpuStreamWaitEvent(void *stream, void *event);
DWC_RT_API void *mgpuEventCreate(void);
DWC_RT_API void mgpuEventDestroy(void *event);
DWC_RT_API void mgpuEventSynchronize(void *event);
DWC_RT_API void mgpuEventRecord(void *event, void *stream);
DWC_RT_API void *mgpuMemAlloc(uint64_t sizeBytes, void *stream,
                              bool isHostShared);
DWC_RT_API void mgpuMemFree(void *ptr, void *stream);
DWC_RT_API void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                           void *stream);
DWC_RT_API void mgpuMemset32(void *dst, uint32_t value, size_t count,
                             void *stream);
DWC_RT_API void mgpuMemset16(void *dst, uint16_t value, size_t count,
                             void *stream);
DWC_RT_API void mgpuSetDefaultDevice(int32_t device);
#ifdef __cplusplus
}
#endif

#endif /* DWC_RUNTIME_H */
