//===- DwcTarget.cpp - NVIDIA chips and the dwc target attribute ----------===//

#include "dwc/Dialect/Dwc/IR/DwcTarget.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::dwc;

namespace {
constexpr int64_t KB = 1024;

/// An SM version LLVM's NVPTX backend knows: the first PTX ISA version that
/// supports it, the suffixes it may carry, the SM count of a representative
/// part (the default of sm-count) and its shared memory (CUDA programming
/// guide, "Technical Specifications per Compute Capability").
struct ChipInfo {
  unsigned sm;
  unsigned minPtx;
  const char *suffixes;
  int64_t smCount;
  int64_t sharedMemoryPerBlock; // opt-in maximum
  int64_t sharedMemoryPerSM;
  int64_t threadsPerSM;
  int64_t registersPerSM = 64 * KB;
};

constexpr ChipInfo kChips[] = {
    {50, 40, "", 16, 48 * KB, 64 * KB, 2048},
    {52, 41, "", 24, 48 * KB, 96 * KB, 2048},
    {53, 42, "", 2, 48 * KB, 64 * KB, 2048, 32 * KB},
    {60, 50, "", 56, 48 * KB, 64 * KB, 2048},
    {61, 50, "", 28, 48 * KB, 96 * KB, 2048},
    {62, 50, "", 2, 48 * KB, 64 * KB, 2048, 32 * KB},
    {70, 60, "", 80, 96 * KB, 96 * KB, 2048},
    {72, 61, "", 8, 96 * KB, 96 * KB, 2048},
    {75, 63, "", 40, 64 * KB, 64 * KB, 1024},
    {80, 70, "", 108, 163 * KB, 164 * KB, 2048},
    {86, 71, "", 84, 99 * KB, 100 * KB, 1536},
    {87, 74, "", 16, 163 * KB, 164 * KB, 2048},
    {89, 78, "", 128, 99 * KB, 100 * KB, 1536},
    {90, 78, "a", 132, 227 * KB, 228 * KB, 2048},
    {100, 86, "af", 148, 227 * KB, 228 * KB, 2048},
    {101, 86, "af", 20, 227 * KB, 228 * KB, 1536},
    {103, 88, "af", 148, 227 * KB, 228 * KB, 2048},
    {120, 87, "af", 170, 99 * KB, 100 * KB, 1536},
    {121, 88, "af", 48, 99 * KB, 100 * KB, 1536}};

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

/// The PTX ISA versions LLVM 22's NVPTX backend knows (`llc -march=nvptx64
/// -mattr=help`). It ignores any other "+ptxNN" with a warning and writes
/// its default version, so an unknown one must be refused here.
constexpr unsigned kKnownPtx[] = {32, 40, 41, 42, 43, 50, 60, 61, 62, 63, 64,
                                  65, 70, 71, 72, 73, 74, 75, 76, 77, 78, 80,
                                  81, 82, 83, 84, 85, 86, 87, 88, 90};

bool isKnownPtx(unsigned ptx) { return llvm::is_contained(kKnownPtx, ptx); }

std::string knownPtx() {
  std::string s;
  for (unsigned v : kKnownPtx)
    s += (s.empty() ? "+ptx" : ", +ptx") + std::to_string(v);
  return s;
}

/// Parses "+ptxNN" (the only feature the NVVM target takes).
bool parsePtxFeature(StringRef features, unsigned &ptx) {
  StringRef digits = features;
  if (!digits.consume_front("+ptx") || digits.empty() || digits.size() > 3 ||
      !llvm::all_of(digits, [](char c) { return llvm::isDigit(c); }))
    return false;
  return !digits.getAsInteger(10, ptx);
}

/// The lowest PTX ISA version `chip` (`info`, `suffix`) can be compiled with.
unsigned minPtxOf(const ChipInfo &info, char suffix) {
  // sm_90a (wgmma, setmaxnreg) came with PTX 8.0, the family targets with 8.8.
  unsigned minPtx = std::max(info.minPtx, suffix == 'f' ? 88u : 0u);
  if (info.sm == 90 && suffix == 'a')
    minPtx = std::max(minPtx, 80u);
  return minPtx;
}

/// Checks `features` against the chip's minimum; fills `ptx`.
LogicalResult resolvePtx(StringRef chip, StringRef features, unsigned minPtx,
                         unsigned &ptx,
                         function_ref<LogicalResult(const Twine &)> emitError) {
  ptx = std::max(minPtx, kDefaultPtx);
  if (features.empty())
    return success();
  if (!parsePtxFeature(features, ptx))
    return emitError("features '" + features +
                     "' is not a PTX ISA version of the form +ptx<NN>, "
                     "e.g. +ptx80");
  if (!isKnownPtx(ptx))
    return emitError("features '" + features +
                     "' is not a PTX ISA version LLVM knows (known: " +
                     knownPtx() + ")");
  if (ptx < minPtx)
    return emitError("chip " + chip + " needs PTX ISA " + Twine(minPtx / 10) +
                     "." + Twine(minPtx % 10) + " or newer (features=+ptx" +
                     Twine(minPtx) + "), got " + features);
  return success();
}
} // namespace

bool dwc::parseChip(StringRef chip, unsigned &sm, char &suffix) {
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

FailureOr<TargetDescription>
dwc::resolveTarget(StringRef chip, StringRef features, int64_t smCount,
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
  unsigned ptx = 0;
  if (failed(resolvePtx(chip, features, minPtxOf(*info, suffix), ptx,
                        emitError)))
    return failure();
  if (smCount < 0 || smCount > 1024)
    return emitError("sm-count " + Twine(smCount) +
                     " is not in [1, 1024] (0: the chip's, " +
                     Twine(info->smCount) + " for sm_" + Twine(sm) + ")");
  return TargetDescription{chip.str(),
                           "+ptx" + std::to_string(ptx),
                           smCount ? smCount : info->smCount,
                           info->sharedMemoryPerBlock,
                           info->sharedMemoryPerSM,
                           info->threadsPerSM,
                           info->registersPerSM};
}

unsigned TargetDescription::getSmVersion() const {
  unsigned sm = 0;
  char suffix = 0;
  (void)parseChip(chip, sm, suffix);
  return sm;
}

bool TargetDescription::hasWgmma() const {
  return getSmVersion() == 90 && StringRef(chip).ends_with("a");
}

TargetAttr TargetDescription::toAttr(MLIRContext *ctx) const {
  return TargetAttr::get(ctx, chip, features, smCount, sharedMemoryPerBlock,
                         sharedMemoryPerSM, threadsPerSM, registersPerSM);
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

LogicalResult
TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError, StringRef chip,
                   StringRef features, int64_t smCount,
                   int64_t sharedMemoryPerBlock, int64_t sharedMemoryPerSM,
                   int64_t threadsPerSM, int64_t registersPerSM) {
  unsigned sm = 0;
  char suffix = 0;
  if (!parseChip(chip, sm, suffix) || !findChip(sm))
    return emitError() << "chip '" << chip
                       << "' is not a known sm_<version>[a|f] (known: "
                       << knownChips() << ")";
  unsigned ptx = 0;
  if (!parsePtxFeature(features, ptx) || !isKnownPtx(ptx))
    return emitError() << "features '" << features
                       << "' is not a known PTX ISA version +ptx<NN> (known: "
                       << knownPtx() << ")";
  if (smCount < 1 || smCount > 1024)
    return emitError() << "sm_count " << smCount << " is not in [1, 1024]";
  if (sharedMemoryPerSM < 1 || sharedMemoryPerSM > 16 * 1024 * KB)
    return emitError() << "shared_memory_per_sm " << sharedMemoryPerSM
                       << " is not in [1, 16 MiB]";
  if (sharedMemoryPerBlock < 1 || sharedMemoryPerBlock > sharedMemoryPerSM)
    return emitError() << "shared_memory_per_block " << sharedMemoryPerBlock
                       << " is not in [1, shared_memory_per_sm = "
                       << sharedMemoryPerSM << "]";
  if (threadsPerSM < 32 || threadsPerSM > 65536)
    return emitError() << "threads_per_sm " << threadsPerSM
                       << " is not in [32, 65536]";
  if (registersPerSM < 1024 || registersPerSM > 16 * 1024 * KB)
    return emitError() << "registers_per_sm " << registersPerSM
                       << " is not in [1024, 16 Mi]";
  return success();
}

unsigned TargetAttr::getSmVersion() const {
  unsigned sm = 0;
  char suffix = 0;
  (void)parseChip(getChip(), sm, suffix);
  return sm;
}

bool TargetAttr::hasWgmma() const {
  return getSmVersion() == 90 && getChip().ends_with("a");
}

TargetAttr TargetAttr::getDefault(MLIRContext *ctx) {
  const ChipInfo *info = findChip(90);
  return TargetAttr::get(ctx, "sm_90", "+ptx80", info->smCount,
                         info->sharedMemoryPerBlock, info->sharedMemoryPerSM,
                         info->threadsPerSM, info->registersPerSM);
}

TargetAttr TargetAttr::lookup(Operation *op) {
  for (Operation *o = op; o; o = o->getParentOp())
    if (auto module = dyn_cast<ModuleOp>(o))
      if (auto target = module->getAttrOfType<TargetAttr>(kAttrName))
        return target;
  return getDefault(op->getContext());
}
