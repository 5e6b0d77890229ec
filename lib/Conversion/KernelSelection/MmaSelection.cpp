//===- MmaSelection.cpp - the tensor-core ring/band configurations --------===//
//
// #dwc.mma_band and #dwc.mma_ring for stride-1 f16/bf16 depthwise
// convolutions and input gradients from FW = 9 (evidence:
// docs/KernelSelection.md, "tensor-core band / fragments"): the band kernel with filter
// pairs, split copies and unrolled slices where its ring fits the shared
// memory budget, on sm_90 its rows / warp channels / filter rows / barriers
// chosen per shape; else the fragment row ring; else per-fragment stages.
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/KernelSelection.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"
#include <limits>

using namespace mlir;
using namespace mlir::dwc;

namespace {
/// Narrower filters are faster on the CUDA-core kernels (measured: the GEMV
/// kernel up to FW = 7, the ring kernel from FW = 9, on the H200's forward
/// grid, 2026-11-30; the real-network 3x3-7x7 layers
/// at batch 32 / 64 run 1.1-5x slower on either tensor-core kernel,
/// docs/KernelSelection.md, "tensor-core band and fragments").
constexpr int64_t kMinFilterWidth = 9;
/// Shared memory the band and fragment rings may take per block (two-row
/// band blocks on sm_90: all of the target's).
constexpr int64_t kSmemBudget = 112 * 1024;
/// Grids of at least this many blocks count as large.
constexpr int64_t kLargeGrid = 1024;

/// Why the family does not take `op` before any configuration is looked at.
std::string opIneligibility(Operation *op, bool given) {
  std::string why = mmaKernelIneligibility(op);
  if (why.empty() && !given && mmaShapeOf(op).FW < kMinFilterWidth)
    why = "filter narrower than 9 (the GEMV kernel is faster)";
  return why;
}

/// The band configuration measured best per shape on sm_90 (H200,
/// 2026-11-30: 1.0-1.22x the fixed default), used on sm_90 where the ring
/// without filter pairs fits the budget; elsewhere one row of 16 channels
/// per warp, filter pairs, two barriers. `budget`: the shared memory the
/// rows and the barrier may take.
MmaChoice bandDefaults(const MmaShape &s, TargetAttr target, bool inputPairs,
                       int64_t &budget) {
  MmaChoice c;
  c.band = true;
  c.filterPairs = true;
  budget = kSmemBudget;
  int64_t G = mmaGroupsPerRow(s.OW), R = 16 / G;
  if (target.getSmVersion() != 90 ||
      mmaBandSmemBytes(s.FW, R + 1, G, false, inputPairs) > kSmemBudget)
    return c;
  int64_t nb = mmaBandSlices(s.FW);
  int64_t tilesW = llvm::divideCeil(s.OW, 8 * G),
          chunks = llvm::divideCeil(s.C, 64);
  // (Saturating: each size is below 2^31, their product may not be.)
  auto blocks = [&](int64_t rows) {
    int64_t n = s.N;
    for (int64_t f : {int64_t(llvm::divideCeil(s.OH, rows)), tilesW, chunks})
      n = llvm::checkedMul(n, f).value_or(std::numeric_limits<int64_t>::max());
    return n;
  };
  int64_t blocks1 = blocks(R), blocks2 = blocks(2 * R);
  // Two rows, 8 channels per warp, filter rows, one 256-thread block per SM.
  if ((nb >= 3 || (R == 1 && nb >= 2)) && R < s.OH && blocks2 >= kLargeGrid) {
    c.rows = 2, c.warpChannels = 8, c.filterPairs = false;
    c.oneBarrier = nb >= 4 && R <= 2;
    budget = target.getSharedMemoryPerBlock();
    return c;
  }
  // Small grids: filter rows (no first kernel), one barrier.
  if (blocks1 < kLargeGrid) {
    c.filterPairs = false, c.oneBarrier = true;
    return c;
  }
  // One-row tiles keep the fixed configuration; taller ones take one
  // barrier, filter pairs from 2 slices on.
  if (R > 1)
    c.filterPairs = nb >= 2, c.oneBarrier = true;
  return c;
}

/// The fields the user gave override the chosen ones.
void applyGiven(MmaBandKernelAttr g, MmaChoice &c) {
  if (!g)
    return;
  if (g.getRows())
    c.rows = g.getRows();
  if (g.getWarpChannels())
    c.warpChannels = g.getWarpChannels();
  auto set = [](BoolAttr b, bool &field) {
    if (b)
      field = b.getValue();
  };
  set(g.getFilterPairs(), c.filterPairs);
  set(g.getInputPairs(), c.inputPairs);
  set(g.getOneBarrier(), c.oneBarrier);
  set(g.getUnroll(), c.unroll);
  set(g.getCopySplit(), c.copySplit);
  c.minBlocksPerSm = g.getMinBlocksPerSm();
}

/// Chosen rows are halved while the ring exceeds `budget` or the lower
/// tiles would lie wholly below the output; a chosen one barrier is dropped
/// where its extra slot and buffer do not fit.
void fitRows(const MmaShape &s, MmaBandKernelAttr g, int64_t budget,
             MmaChoice &c) {
  int64_t G = mmaGroupsPerRow(s.OW), R = 16 / G;
  auto fits = [&](int64_t t, bool ob) {
    return mmaBandSmemBytes(s.FW, R * t + 1 + ob, G, c.filterPairs,
                            c.inputPairs, 2 + ob) <= budget;
  };
  if (!g || !g.getRows())
    while (c.rows > 1 &&
           (R * (c.rows / 2) >= s.OH || !fits(c.rows, c.oneBarrier)))
      c.rows /= 2;
  if ((!g || !g.getOneBarrier()) && c.oneBarrier && !fits(c.rows, true))
    c.oneBarrier = false;
}

/// #dwc.mma_band where the band ring fits.
Attribute selectMmaBand(Operation *op, TargetAttr target, Attribute given,
                        std::string &why) {
  auto g = dyn_cast_or_null<MmaBandKernelAttr>(given);
  why = opIneligibility(op, g != nullptr);
  if (!why.empty())
    return {};
  MmaShape s = mmaShapeOf(op);
  bool inputPairs = g && g.getInputPairs() && g.getInputPairs().getValue();
  int64_t budget;
  MmaChoice c = bandDefaults(s, target, inputPairs, budget);
  c.unroll = c.copySplit = true;
  applyGiven(g, c);
  int64_t G = mmaGroupsPerRow(s.OW), R = 16 / G;
  int64_t limit = g ? target.getSharedMemoryPerBlock() : kSmemBudget;
  if (mmaBandSmemBytes(s.FW, R + 1, G, c.filterPairs, c.inputPairs) > limit) {
    why = "the band ring exceeds the 112 KB budget of shared memory";
    return {};
  }
  fitRows(s, g, g ? std::max(budget, limit) : budget, c);
  why = mmaPlanIneligibility(op, c, target.getSharedMemoryPerBlock());
  if (!why.empty())
    return {};
  auto b = [&](bool v) { return BoolAttr::get(op->getContext(), v); };
  return MmaBandKernelAttr::get(op->getContext(), c.rows, c.warpChannels,
                                b(c.filterPairs), b(c.inputPairs),
                                b(c.oneBarrier), b(c.unroll), b(c.copySplit),
                                c.minBlocksPerSm);
}

/// #dwc.mma_ring: the fragment row ring where it fits the budget, else one
/// fragment per stage.
Attribute selectMmaRing(Operation *op, TargetAttr target, Attribute given,
                        std::string &why) {
  auto g = dyn_cast_or_null<MmaRingKernelAttr>(given);
  why = opIneligibility(op, g != nullptr);
  if (!why.empty())
    return {};
  MmaShape s = mmaShapeOf(op);
  int64_t G = mmaGroupsPerRow(s.OW), R = 16 / G;
  int64_t nfrag = llvm::divideCeil(s.FW, 9);
  MmaChoice c;
  c.ring = g && g.getRing() ? g.getRing().getValue()
                            : mmaRingSmemBytes(nfrag, R, G) <= kSmemBudget;
  c.fragsPerStage = g && g.getFragsPerStage() ? g.getFragsPerStage()
                    : c.ring                  ? nfrag
                                              : 1;
  if (g && g.getWarpChannels())
    c.warpChannels = g.getWarpChannels();
  c.minBlocksPerSm = g ? g.getMinBlocksPerSm() : 0;
  why = mmaPlanIneligibility(op, c, target.getSharedMemoryPerBlock());
  if (!why.empty())
    return {};
  return MmaRingKernelAttr::get(op->getContext(),
                                BoolAttr::get(op->getContext(), c.ring),
                                c.fragsPerStage, c.warpChannels,
                                c.minBlocksPerSm);
}
} // namespace

void dwc::appendMmaKernelFamilies(SmallVectorImpl<KernelFamily> &families) {
  families.push_back({MmaBandKernelAttr::getMnemonic(), selectMmaBand});
  families.push_back({MmaRingKernelAttr::getMnemonic(), selectMmaRing});
}
