//===- GPUTarget.h - the GPU a dwc pipeline compiles for --------*- C++ -*-===//
//
// The chip and PTX features of the GPU pipeline, checked once and turned into
// facts the kernel choice needs (which instructions exist on the chip), so
// that a chip without cp.async or mma.sync gets the direct kernels instead of
// an LLVM error, and a bad chip or PTX version a diagnostic.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_PIPELINES_GPUTARGET_H
#define DWC_PIPELINES_GPUTARGET_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include <string>

namespace mlir {
namespace dwc {

/// A validated NVIDIA target: `sm_<version>[a|f]` with a PTX ISA version.
struct GPUTarget {
  std::string chip;     // as NVVM expects it, e.g. "sm_90a"
  unsigned smVersion;   // 90 for sm_90 and sm_90a
  char suffix;          // 'a' (architecture-specific), 'f' (family) or 0
  unsigned ptxVersion;  // 80 for PTX ISA 8.0
  std::string features; // "+ptx80"

  /// cp.async and the m16n8k16 f16/bf16 mma.sync of the fast paths.
  bool hasAmpereInstructions() const { return smVersion >= 80; }
  /// Hopper warpgroup MMA (wgmma) exists only on sm_90a.
  bool hasWgmma() const { return smVersion == 90 && suffix == 'a'; }
};

/// Checks `chip` and `features` (empty: the lowest PTX ISA version the dwc
/// kernels are compiled with, 8.0, or the chip's minimum where that is
/// higher) and fills `target`; reports what is wrong through `emitError`.
LogicalResult
resolveGPUTarget(StringRef chip, StringRef features, GPUTarget &target,
                 function_ref<LogicalResult(const Twine &)> emitError);

/// The CUDA toolkit directory whose bin/ptxas the pipeline runs: `toolkit`
/// when given (it must hold bin/ptxas), else $CUDA_HOME, /usr/local/cuda or
/// the directory above a ptxas on PATH. Fails with a message when none has
/// ptxas.
LogicalResult
resolveCudaToolkit(StringRef toolkit, std::string &resolved,
                   function_ref<LogicalResult(const Twine &)> emitError);

} // namespace dwc
} // namespace mlir

#endif // DWC_PIPELINES_GPUTARGET_H
