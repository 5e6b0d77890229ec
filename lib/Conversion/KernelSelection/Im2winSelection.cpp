//===- Im2winSelection.cpp - configurations of the dense conv2d kernels ---===//
//
// Which im2win kernel a dense dwc.conv2d takes and its tile and pipeline
// (evidence: docs/KernelSelection.md, "dense conv2d"): the warpgroup kernel
// on targets with wgmma for f16/bf16, else mma.sync; f32 on CUDA cores.
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/KernelSelection.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"

using namespace mlir;
using namespace mlir::dwc;

namespace {
/// wgmma with C % 4 != 0: the channels are zero-padded to a multiple of 4
/// only for windows of at least this many elements (FH * FW * C); below,
/// the mma.sync kernel's element-wise gather is cheaper than the padding
/// (3x3 C = 3 measured 1.07-1.16x slower padded).
constexpr int64_t kPadMinK = 64;
/// wgmma: two warpgroups (128-row tiles) when that still gives this many
/// blocks, else one.
constexpr int64_t kTwoWarpgroupBlocks = 2048;
/// Most stages of the warp-specialised kernel.
constexpr int64_t kMaxSpecializedStages = 8;

BoolAttr flagOr(MLIRContext *ctx, BoolAttr given, bool dflt) {
  return given ? given : BoolAttr::get(ctx, dflt);
}

/// Channels per block tile of the CUDA-core / mma.sync kernels: 64 (256 x 64
/// tiles) when OC <= 64, else 128.
int64_t gemmTileN(const Im2winShape &s) { return s.OC <= 64 ? 64 : 128; }

/// Stages of the CUDA-core / mma.sync kernels: 1 (one buffer) only when
/// given; 2 with register-staged loads; else as many as fit in 48 KB of
/// static shared memory (at most 3), a given count lowered to that.
int64_t gemmStages(const Im2winShape &s, int64_t tileN, int64_t given,
                   bool asyncCopy) {
  int64_t fit = im2winMaxStages(s, tileN);
  return given == 1    ? 1
         : !asyncCopy ? 2
         : given      ? std::max<int64_t>(2, std::min(given, fit))
                      : fit;
}

/// #dwc.im2win_simt or #dwc.im2win_mma: the fields they share.
template <typename Attr>
Attribute selectGemm(Operation *op, Attribute given, std::string &why,
                     bool wantF32) {
  std::optional<Im2winShape> s = im2winEligibleShape(op, why);
  if (!s)
    return {};
  if (s->isF32() != wantF32) {
    why = wantF32 ? "element type is not f32" : "element type is f32";
    return {};
  }
  MLIRContext *ctx = op->getContext();
  auto g = dyn_cast_or_null<Attr>(given);
  int64_t tileN = g && g.getTileN() ? g.getTileN() : gemmTileN(*s);
  BoolAttr async = flagOr(ctx, g ? g.getAsyncCopy() : BoolAttr(), true);
  int64_t stages =
      gemmStages(*s, tileN, g ? g.getStages() : 0, async.getValue());
  int64_t minBlocks = g && g.getMinBlocksPerSm() ? g.getMinBlocksPerSm() : 1;
  BoolAttr pre = flagOr(ctx, g ? g.getPrecompute() : BoolAttr(), true);
  BoolAttr tensor = flagOr(ctx, g ? g.getIm2winTensor() : BoolAttr(), false);
  if constexpr (std::is_same_v<Attr, Im2winMmaKernelAttr>)
    return Attr::get(ctx, tileN, stages, minBlocks, pre, async, tensor,
                     flagOr(ctx, g ? g.getSwizzle() : BoolAttr(), true));
  else
    return Attr::get(ctx, tileN, stages, minBlocks, pre, async, tensor);
}

Attribute selectSimt(Operation *op, TargetAttr, Attribute given,
                     std::string &why) {
  return selectGemm<Im2winSimtKernelAttr>(op, given, why, /*wantF32=*/true);
}

Attribute selectMma(Operation *op, TargetAttr, Attribute given,
                    std::string &why) {
  return selectGemm<Im2winMmaKernelAttr>(op, given, why, /*wantF32=*/false);
}

//===----------------------------------------------------------------------===//
// #dwc.im2win_wgmma
//===----------------------------------------------------------------------===//

/// The fields of a wgmma configuration while it is completed.
struct WgmmaChoice {
  int64_t warpgroups, n, stages, barriers, minBlocks;
  bool overlap, specialize, tmaFilter, tmaIm2col, stagedStores, precompute,
      im2winTensor;
};

/// Why the warpgroup kernel does not take `s` unless asked to, or "".
std::string wgmmaRefusal(const Im2winShape &s, TargetAttr target,
                         bool asked) {
  if (!target.hasWgmma())
    return ("target " + target.getChip() + " has no wgmma (sm_90a has)").str();
  if (s.isF32())
    return "element type is f32";
  if (!asked && s.C % 4 != 0 && s.K() < kPadMinK)
    return "C % 4 != 0 with a window of fewer than 64 elements (the "
           "mma.sync gather is faster than padding the channels)";
  return "";
}

/// Warpgroups and channels per warpgroup: two warpgroups when 128-row tiles
/// still give 2048 blocks, else one (the better choice on each of the 8 f16
/// layers); 64 channels when OC <= 64, else 128 (a given n lowered to what
/// OC needs).
void chooseWgmmaTile(const Im2winShape &s, WgmmaChoice &c) {
  int64_t tiles128 = (s.M() + 127) / 128 * ((s.OC + 127) / 128);
  if (!c.warpgroups)
    c.warpgroups = tiles128 >= kTwoWarpgroupBlocks ? 2 : 1;
  int64_t n = s.OC <= 64 ? 64 : 128;
  c.n = c.n ? std::min(c.n, im2winWgmmaMaxN(s.OC)) : n;
}

/// Stages: 3 when they fit in 48 KB of static shared memory, else 2 when
/// they do, else 3 in dynamic shared memory (4 with overlap), lowered to
/// what the target's shared memory per block holds (less 1 KB of
/// alignment); the warp-specialised kernel as many as fit (at most 8) in the
/// block's share of the SM (2 blocks with one multiplying warpgroup).
int64_t chooseWgmmaStages(const WgmmaChoice &c, int64_t given,
                          TargetAttr target) {
  int64_t stageBytes = im2winWgmmaStageBytes(c.warpgroups, c.n);
  int64_t smem = target.getSharedMemoryPerBlock();
  if (c.specialize) {
    int64_t blocksPerSM = c.warpgroups == 1 ? 2 : 1;
    int64_t room = smem / blocksPerSM - 1024 - 16 * kMaxSpecializedStages -
                   (c.stagedStores ? im2winWarpStageBytes(c.warpgroups, c.n)
                                   : 0);
    return std::max<int64_t>(
        3, given ? given
                 : std::min<int64_t>(kMaxSpecializedStages, room / stageBytes));
  }
  int64_t S = given                                        ? given
              : c.overlap                                  ? 4
              : 3 * stageBytes <= kIm2winStaticSharedMemory ? 3
              : 2 * stageBytes <= kIm2winStaticSharedMemory ? 2
                                                           : 3;
  if (c.overlap)
    S = std::max<int64_t>(S, 3);
  while (S > (c.overlap ? 3 : 2) && S * stageBytes + 1024 > smem)
    --S;
  return S;
}

/// Copies: A by im2col TMA (with B by TMA) where the input allows it and
/// the two-barrier pipeline runs (1.0-1.19x faster than the cp.async
/// gather), unless asked otherwise; B by TMA alone only when asked.
void chooseWgmmaCopies(const Im2winShape &s, Im2winWgmmaKernelAttr g,
                       WgmmaChoice &c) {
  bool pipelineOk = c.barriers == 2 && !c.overlap;
  BoolAttr givenFilter = g ? g.getTmaFilter() : BoolAttr();
  if (g && g.getTmaIm2col())
    c.tmaIm2col = g.getTmaIm2col().getValue();
  else
    c.tmaIm2col = pipelineOk && im2winTmaIm2colFits(s) && !c.im2winTensor &&
                  c.precompute && !c.specialize &&
                  im2winFlag(givenFilter, true);
  c.tmaFilter = givenFilter ? givenFilter.getValue() : c.tmaIm2col;
}

Attribute selectWgmma(Operation *op, TargetAttr target, Attribute given,
                      std::string &why) {
  std::optional<Im2winShape> s = im2winEligibleShape(op, why);
  if (!s)
    return {};
  auto g = dyn_cast_or_null<Im2winWgmmaKernelAttr>(given);
  why = wgmmaRefusal(*s, target, /*asked=*/bool(g));
  if (!why.empty())
    return {};
  auto flag = [&](BoolAttr a, bool dflt) { return im2winFlag(a, dflt); };
  WgmmaChoice c{g ? g.getWarpgroups() : 0, g ? g.getN() : 0, 0,
                g && g.getBarriers() ? g.getBarriers() : 2,
                g && g.getMinBlocksPerSm() ? g.getMinBlocksPerSm() : 1,
                flag(g ? g.getOverlap() : BoolAttr(), false),
                flag(g ? g.getSpecialize() : BoolAttr(), false), false, false,
                flag(g ? g.getStagedStores() : BoolAttr(), true),
                flag(g ? g.getPrecompute() : BoolAttr(), true),
                flag(g ? g.getIm2winTensor() : BoolAttr(), false)};
  chooseWgmmaTile(*s, c);
  c.stages = chooseWgmmaStages(c, g ? g.getStages() : 0, target);
  chooseWgmmaCopies(*s, g, c);
  MLIRContext *ctx = op->getContext();
  auto b = [&](bool v) { return BoolAttr::get(ctx, v); };
  return Im2winWgmmaKernelAttr::get(
      ctx, c.warpgroups, c.n, c.stages, c.barriers, c.minBlocks, b(c.overlap),
      b(c.specialize), b(c.tmaFilter), b(c.tmaIm2col), b(c.stagedStores),
      b(c.precompute), b(c.im2winTensor));
}
} // namespace

void dwc::appendIm2winKernelFamilies(SmallVectorImpl<KernelFamily> &families) {
  families.push_back({Im2winWgmmaKernelAttr::getMnemonic(), selectWgmma});
  families.push_back({Im2winMmaKernelAttr::getMnemonic(), selectMma});
  families.push_back({Im2winSimtKernelAttr::getMnemonic(), selectSimt});
}
