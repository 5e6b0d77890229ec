//===- GPUTarget.h - the GPU a dwc pipeline compiles for --------*- C++ -*-===//
//
// The CUDA toolkit the GPU pipeline runs ptxas from. (The chip itself is
// described by #dwc.target, dwc/Dialect/Dwc/IR/DwcTarget.h.)
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
