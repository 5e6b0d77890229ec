//===- MmaStreamSelection.cpp - configuration of the streaming tensor-core kernel ---===//
//
// Which wide-filter f16/bf16 convolutions take the streaming kernel and
// its operand, loop order, rows, prefetch distance, workspace, filter
// placement, grid split and occupancy hint (evidence: docs/KernelSelection.md,
// "streaming tensor-core kernel").
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/KernelSelection.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::dwc;

namespace {
/// Filter widths the streaming kernel takes: at FW = 9 the band kernel of
/// convert-dwc-to-gpu-mma is 1.3-1.4x faster (one slice; the workspace
/// kernel is a third of the time).
constexpr int64_t kMinFilterWidth = 10;
constexpr int64_t kMaxFilterWidth = 64;
/// The widest filter taking the input as the B operand.
constexpr int64_t kInputBMaxWidth = 31;
/// Filter operand registers per lane up to which it stays in registers.
constexpr int64_t kFilterRegisters = 68;
/// Blocks per SM the row blocks are split over the grid to reach.
constexpr int64_t kBlocksPerSmTarget = 4;

/// Input B where its band takes no more slices than input A's (FW + 15 vs
/// FW + 7 columns: FW = 10..17, 26..31, ...): 1.1-1.3x faster there.
bool chooseInputB(int64_t FW) {
  return FW <= kInputBMaxWidth && (FW + 15 + 15) / 16 == (FW + 7 + 15) / 16;
}

/// Row blocks per block: the row blocks of a tile are split until the grid
/// has kBlocksPerSmTarget blocks per SM.
int64_t chooseRowBlocksPerChunk(const StreamShape &s, const StreamTile &t,
                                int64_t rows, TargetAttr target) {
  const int64_t minBlocks = kBlocksPerSmTarget * target.getSmCount();
  int64_t rowBlocks = llvm::divideCeil(s.OH, rows);
  int64_t blocks =
      s.C / kStreamWarps * llvm::divideCeil(s.N, t.images) * t.colTiles;
  int64_t chunks = std::min<int64_t>(
      rowBlocks, std::max<int64_t>(1, llvm::divideCeil(minBlocks, blocks)));
  return llvm::divideCeil(rowBlocks, chunks);
}

/// 2 blocks per SM (ptxas caps the registers) for the input-B and
/// nhwc-input kernels of up to 2 slices where two blocks' shared memory
/// fits: 1.05-1.15x faster (docs/KernelSelection.md, mma_stream).
int64_t chooseBlocksPerSm(const StreamShape &s, const StreamTile &t,
                          int64_t rows, bool smemInput, bool nhwc,
                          TargetAttr target) {
  int64_t bytes = streamBandBytes(s, t) + streamStageBytes(rows) +
                  (smemInput ? streamInputBytes(s, t, rows) : 0);
  return (t.inputB || nhwc) && t.slices <= 2 &&
                 2 * bytes <= target.getSharedMemoryPerBlock()
             ? 2
             : 0;
}

/// The configuration's fields, `given`'s where set, the others chosen
/// (`s`: the shape the kernel sees, axes swapped with stream_columns).
MmaStreamKernelAttr complete(Operation *op, const StreamShape &s,
                             MmaStreamKernelAttr g, TargetAttr target) {
  bool inputB = g.getInputOperand()
                    ? *g.getInputOperand() == StreamInputOperand::B
                    : chooseInputB(s.FW);
  StreamTile t = streamTile(s, inputB);
  // Compact rows up to 2 slices (1.01-1.08x at FW = 13..17); the masks
  // cost the 255-register kernels of wider bands more than they save.
  bool compact = g.getCompactWorkspace() ? g.getCompactWorkspace().getValue()
                                         : t.slices <= 2;
  // Filter rows outer with the input as the B operand (its 16-byte filter
  // operand read once per R mma), input rows outer with it as A (the
  // 8-byte filter operands stay in registers); nhwc-input has only the
  // filter-row order.
  bool filterOrder = g.getLoopOrder()
                         ? *g.getLoopOrder() == StreamLoopOrder::FilterRows
                         : inputB || g.isNhwcInput();
  int64_t rows = g.getRows() ? g.getRows()
                             : (filterOrder && t.slices >= 3 ? 16 : 8);
  int64_t R = std::min<int64_t>(rows, s.OH);
  int64_t prefetch = g.getPrefetch() >= 0 ? g.getPrefetch()
                                          : (filterOrder ? 2 : 4);
  bool inRegisters = g.getFilterInRegisters()
                         ? g.getFilterInRegisters().getValue()
                         : s.FH * t.slices * t.entryHalves() / 2 <=
                               kFilterRegisters;
  int64_t perChunk = g.getRowBlocksPerChunk()
                         ? g.getRowBlocksPerChunk()
                         : chooseRowBlocksPerChunk(s, t, R, target);
  bool smemInput = (g.isSmemInput() || g.isNhwcInput()) && filterOrder;
  int64_t blocksPerSm =
      g.getMinBlocksPerSm() >= 0
          ? g.getMinBlocksPerSm()
          : chooseBlocksPerSm(s, t, R, smemInput, g.isNhwcInput(), target);
  MLIRContext *ctx = op->getContext();
  return MmaStreamKernelAttr::get(
      ctx, inputB ? StreamInputOperand::B : StreamInputOperand::A,
      filterOrder ? StreamLoopOrder::FilterRows : StreamLoopOrder::InputRows,
      rows, prefetch, BoolAttr::get(ctx, compact),
      BoolAttr::get(ctx, inRegisters), perChunk, blocksPerSm,
      g.getSmemInput(), g.getNhwcInput(), g.getOverlapWorkspace(),
      g.getOverlapLookahead(), g.getStreamColumns());
}

/// #dwc.mma_stream for a wide filter of a stride-1 f16/bf16 convolution
/// (or, where the given configuration streams the columns, a tall one).
Attribute selectMmaStream(Operation *op, TargetAttr target, Attribute given,
                          std::string &why) {
  StreamShape s;
  why = streamIneligibility(op, s);
  if (!why.empty())
    return {};
  auto g = dyn_cast_or_null<MmaStreamKernelAttr>(given);
  // Streaming a tall filter's columns is requested, not chosen: it has not
  // been measured on a GPU yet (docs/KernelSelection.md, mma_stream).
  if (g && g.isStreamColumns())
    s = swapStreamAxes(s);
  if (!g && s.FW < kMinFilterWidth) {
    why = "filter narrower than 10 (the band kernel is faster)";
    return {};
  }
  if (!g && s.FW > kMaxFilterWidth) {
    why = "filter wider than 64";
    return {};
  }
  if (!g)
    g = MmaStreamKernelAttr::get(op->getContext(), std::nullopt, std::nullopt,
                                 0, -1, BoolAttr(), BoolAttr(), 0, -1, BoolAttr(),
                                 BoolAttr(), BoolAttr(), 2, BoolAttr());
  MmaStreamKernelAttr config = complete(op, s, g, target);
  why = config.whyNotFor(op);
  return why.empty() ? config : Attribute();
}
} // namespace

void dwc::appendMmaStreamKernelFamilies(
    SmallVectorImpl<KernelFamily> &families) {
  families.push_back(
      {MmaStreamKernelAttr::getMnemonic(), selectMmaStream});
}
