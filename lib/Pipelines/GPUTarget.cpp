//===- GPUTarget.cpp - the CUDA toolkit of the GPU pipeline ---------------===//

#include "dwc/Pipelines/GPUTarget.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include <cstdlib>

using namespace mlir;

static bool hasPtxas(StringRef dir) {
  SmallString<256> p(dir);
  llvm::sys::path::append(p, "bin", "ptxas");
  return llvm::sys::fs::can_execute(p);
}

LogicalResult
dwc::resolveCudaToolkit(StringRef toolkit, std::string &resolved,
                        function_ref<LogicalResult(const Twine &)> emitError) {
  if (!toolkit.empty()) {
    if (!hasPtxas(toolkit))
      return emitError("toolkit '" + toolkit +
                       "' has no bin/ptxas (give the CUDA toolkit directory, "
                       "e.g. toolkit=/usr/local/cuda)");
    resolved = toolkit.str();
    return success();
  }
  SmallVector<std::string> candidates;
  if (const char *home = std::getenv("CUDA_HOME"))
    candidates.push_back(home);
  candidates.push_back("/usr/local/cuda");
  if (auto ptxas = llvm::sys::findProgramByName("ptxas"))
    candidates.push_back(
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(*ptxas))
            .str());
  for (const std::string &dir : candidates)
    if (hasPtxas(dir)) {
      resolved = dir;
      return success();
    }
  return emitError("no CUDA toolkit with bin/ptxas found (looked at "
                   "$CUDA_HOME, /usr/local/cuda and PATH): pass toolkit=<dir> "
                   "or use format=isa for PTX text");
}
