//===- GPUTarget.cpp - the GPU a dwc pipeline compiles for ----------------===//

#include "dwc/Pipelines/GPUTarget.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include <cstdlib>

using namespace mlir;

namespace {
/// An SM version LLVM's NVPTX backend knows, with the first PTX ISA version
/// that supports it and the suffixes it may carry.
struct ChipInfo {
  unsigned sm;
  unsigned minPtx;
  const char *suffixes;
};

constexpr ChipInfo kChips[] = {
    {50, 40, ""},    {52, 41, ""},    {53, 42, ""},    {60, 50, ""},
    {61, 50, ""},    {62, 50, ""},    {70, 60, ""},    {72, 61, ""},
    {75, 63, ""},    {80, 70, ""},    {86, 71, ""},    {87, 74, ""},
    {89, 78, ""},    {90, 78, "a"},   {100, 86, "af"}, {101, 86, "af"},
    {103, 88, "af"}, {120, 87, "af"}, {121, 88, "af"}};

/// The PTX ISA version the dwc kernels are written against (cp.async,
/// mma.sync, wgmma on sm_90a): the default wherever the chip allows it.
constexpr unsigned kDefaultPtx = 80;

const ChipInfo *findChip(unsigned sm) {
  for (const ChipInfo &c : kChips)
    if (c.sm == sm)
      return &c;
  return nullptr;
}

std::string knownChips() {
  std::string s;
  for (const ChipInfo &c : kChips)
    s += (s.empty() ? "sm_" : ", sm_") + std::to_string(c.sm);
  return s;
}

/// Splits "sm_<digits>[a|f]" into its version and suffix.
bool parseChip(StringRef chip, unsigned &sm, char &suffix) {
  StringRef rest = chip;
  if (!rest.consume_front("sm_") || rest.empty())
    return false;
  suffix = 0;
  if (rest.back() == 'a' || rest.back() == 'f') {
    suffix = rest.back();
    rest = rest.drop_back();
  }
  return !rest.empty() &&
         llvm::all_of(rest, [](char c) { return llvm::isDigit(c); }) &&
         !rest.getAsInteger(10, sm);
}

/// Parses "+ptxNN" (the only feature the NVVM target takes).
bool parsePtxFeature(StringRef features, unsigned &ptx) {
  StringRef digits = features;
  if (!digits.consume_front("+ptx") || digits.empty() || digits.size() > 3)
    return false;
  return !digits.getAsInteger(10, ptx);
}
} // namespace

LogicalResult
dwc::resolveGPUTarget(StringRef chip, StringRef features, GPUTarget &target,
                      function_ref<LogicalResult(const Twine &)> emitError) {
  unsigned sm = 0;
  char suffix = 0;
  const ChipInfo *info = parseChip(chip, sm, suffix) ? findChip(sm) : nullptr;
  if (!info)
    return emitError("chip '" + chip +
                     "' is not an NVIDIA GPU architecture of the form "
                     "sm_<version>[a|f] (known: " +
                     knownChips() + ")");
  if (suffix && !StringRef(info->suffixes).contains(suffix))
    return emitError("chip '" + chip + "': sm_" + Twine(sm) + " has no '" +
                     Twine(suffix) + "' variant");
  // sm_90a (wgmma, setmaxnreg) came with PTX 8.0, the family targets with 8.8.
  unsigned minPtx = std::max(info->minPtx, suffix == 'f' ? 88u : 0u);
  if (sm == 90 && suffix == 'a')
    minPtx = std::max(minPtx, 80u);
  unsigned ptx = std::max(minPtx, kDefaultPtx);
  if (!features.empty()) {
    if (!parsePtxFeature(features, ptx))
      return emitError("features '" + features +
                       "' is not a PTX ISA version of the form +ptx<NN>, "
                       "e.g. +ptx80");
    if (ptx < minPtx)
      return emitError("chip " + chip + " needs PTX ISA " + Twine(minPtx / 10) +
                       "." + Twine(minPtx % 10) + " or newer (features=+ptx" +
                       Twine(minPtx) + "), got " + features);
  }
  target.chip = chip.str();
  target.smVersion = sm;
  target.suffix = suffix;
  target.ptxVersion = ptx;
  target.features = "+ptx" + std::to_string(ptx);
  return success();
}

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
