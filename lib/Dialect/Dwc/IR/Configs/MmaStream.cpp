//===- MmaStream.cpp - the streaming tensor-core kernel's configuration ---===//
//
// The KernelConfigAttrInterface methods of #dwc.mma_stream and the rules of
// Configs/MmaStream.h (shared by its verifier, dwc-select-kernels and
// convert-dwc-to-gpu-mma-stream).
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include <limits>

using namespace mlir;
using namespace mlir::dwc;

namespace {
/// Most elements of one operand: keeps every index product of the kernels
/// (and of these rules) far from overflowing.
constexpr int64_t kMaxOperandElements = int64_t(1) << 40;


/// Element types, layouts and sizes of the operands.
std::string operandIneligibility(Operation *op, Type elem) {
  return operandsIneligibility(op, elem, kMaxOperandElements);
}

/// The op-level rules: kind, ranks, types, strides, dilations, padding.
std::string opIneligibility(Operation *op, const DepthwiseConvView &c) {
  if (!hasConvOperandRanks(op) || c.strides.size() != 2 ||
      c.dilations.size() != 2 || c.padding.size() != 4)
    return "operands or attributes of the wrong rank";
  Type elem = cast<ShapedType>(c.x.getType()).getElementType();
  if (!elem.isF16() && !elem.isBF16())
    return "element type is not f16 or bf16";
  if (!c.acc.isF32())
    return "accumulation type is not f32";
  if (llvm::any_of(c.strides, [](int64_t s) { return s != 1; }))
    return "stride is not 1";
  if (llvm::any_of(c.dilations, [](int64_t d) { return d != 1; }))
    return "dilation is not 1";
  if (llvm::any_of(c.padding, [](int64_t p) { return p < 0; }))
    return "negative padding";
  std::string why = operandIneligibility(op, elem);
  if (why.empty() && cast<ShapedType>(c.x.getType()).getDimSize(3) % 8 != 0)
    why = "channel count is not a multiple of 8";
  return why;
}

int64_t nextPowerOf2(int64_t v) {
  int64_t p = 1;
  while (p < v)
    p *= 2;
  return p;
}
} // namespace

std::string dwc::streamIneligibility(Operation *op, StreamShape &s) {
  std::optional<DepthwiseConvView> c = depthwiseConvViewOf(op);
  if (!c)
    return "not a depthwise convolution forward or backward-data op";
  std::string why = opIneligibility(op, *c);
  if (!why.empty())
    return why;
  auto in = cast<ShapedType>(c->x.getType()).getShape();
  auto f = cast<ShapedType>(c->w.getType()).getShape();
  auto out = cast<ShapedType>(c->y.getType()).getShape();
  s = StreamShape{in[0], in[1], in[2], in[3], f[0],
                  f[1],  out[1], out[2], c->padding[0], c->padding[2]};
  if (c->backward) {
    s.pt = s.FH - 1 - c->padding[0];
    s.pl = s.FW - 1 - c->padding[2];
    if (s.pt < 0 || s.pl < 0)
      return "padding larger than the filter extent minus one (negative "
             "transposed padding)";
  }
  return "";
}

StreamShape dwc::swapStreamAxes(const StreamShape &s) {
  return StreamShape{s.N,  s.IW, s.IH, s.C,  s.FW,
                     s.FH, s.OW, s.OH, s.pl, s.pt};
}

StreamTile dwc::streamTile(const StreamShape &s, bool inputB) {
  StreamTile t;
  t.inputB = inputB;
  t.groupWidth = inputB ? 16 : 8;
  const int64_t perTile = kStreamTileOutputs / t.groupWidth;
  t.slices = (s.FW + t.groupWidth - 1 + 15) / 16;
  t.words = inputB ? 2 * t.slices : 2 * t.slices + 1;
  int64_t groups = llvm::divideCeil(s.OW, t.groupWidth);
  if (groups >= perTile) {
    t.span = perTile;
    t.images = 1;
    t.colTiles = llvm::divideCeil(groups, perTile);
  } else {
    // Input A: lanes own groups 2g and 2g + 1 of one image (span >= 2).
    t.span = std::max<int64_t>(inputB ? 1 : 2, nextPowerOf2(groups));
    t.images = perTile / t.span;
    t.colTiles = 1;
  }
  return t;
}

int64_t dwc::streamBandBytes(const StreamShape &s, const StreamTile &t) {
  return s.FH * kStreamWarps * t.bandEntries() * t.entryHalves() * 2;
}

int64_t dwc::streamStageBytes(int64_t rows) {
  return kStreamWarps * rows * kStreamTileOutputs * 2;
}

int64_t dwc::streamInputBytes(const StreamShape &s, const StreamTile &t,
                              int64_t rows) {
  return 2 * (rows + s.FH - 1) * kStreamWarps * t.images * t.segmentLength() *
         2;
}

int64_t dwc::streamWorkspaceLead(const StreamShape &s, bool compact,
                                 bool smemInput) {
  // Compact rows keep pl mod 2 of the left padding (the lanes' 32-bit words
  // stay aligned; mod 8 with smem-input, whose 16-byte copies must too).
  return compact ? s.pl % (smemInput ? 8 : 2) : s.pl;
}

int64_t dwc::streamWorkspacePitch(const StreamShape &s, bool compact,
                                  bool smemInput) {
  if (!compact)
    return llvm::alignTo(s.OW + s.FW - 1, 8);
  return llvm::alignTo(s.IW + streamWorkspaceLead(s, compact, smemInput), 8);
}

int64_t dwc::streamProducersPerSet(const StreamShape &s, const StreamTile &t,
                                   int64_t pitch) {
  // One unit: 8 columns x 8 channels; 2 units a thread and round, 2 rounds.
  int64_t unitsPerSet = t.images * s.IH * (s.C / 8) * (pitch / 8);
  return llvm::divideCeil(unitsPerSet, kStreamThreads * 2 * 2);
}

//===----------------------------------------------------------------------===//
// #dwc.mma_stream
//===----------------------------------------------------------------------===//

namespace {
/// Field ranges and the combinations the kernel does not have.
std::string fieldIneligibility(MmaStreamKernelAttr c) {
  std::string why = rangeIneligibility("rows", c.getRows(), 1, 32);
  if (why.empty() && (c.getPrefetch() < -1 || c.getPrefetch() > 8))
    why = "prefetch = " + std::to_string(c.getPrefetch()) +
          " is not in [0, 8]";
  if (why.empty())
    why = rangeIneligibility("row_blocks_per_chunk", c.getRowBlocksPerChunk(),
                             1, std::numeric_limits<int32_t>::max());
  if (why.empty() && (c.getMinBlocksPerSm() < -1 || c.getMinBlocksPerSm() > 8))
    why = "min_blocks_per_sm = " + std::to_string(c.getMinBlocksPerSm()) +
          " is not in [0, 8]";
  if (why.empty() &&
      (c.getOverlapLookahead() < 1 || c.getOverlapLookahead() > 64))
    why = "overlap_lookahead = " + std::to_string(c.getOverlapLookahead()) +
          " is not in [1, 64]";
  if (!why.empty())
    return why;
  if ((c.isSmemInput() || c.isNhwcInput()) &&
      c.getLoopOrder() == StreamLoopOrder::InputRows)
    return "smem_input and nhwc_input need loop_order = filter_rows";
  if (c.isNhwcInput() && c.isOverlapWorkspace())
    return "nhwc_input has no workspace to overlap";
  if (c.isNhwcInput() && c.isStreamColumns())
    return "stream_columns needs the workspace (not nhwc_input)";
  return "";
}

/// Whether the workspace rows are compact (not set: padded, the larger
/// workspace, for the grid bound).
bool isCompact(MmaStreamKernelAttr c) {
  return c.getCompactWorkspace() && c.getCompactWorkspace().getValue();
}

/// Shared memory and grid size of a configuration whose input operand and
/// rows are set.
std::string sizeIneligibility(Operation *op, MmaStreamKernelAttr c,
                              const StreamShape &s) {
  StreamTile t = streamTile(s, *c.getInputOperand() == StreamInputOperand::B);
  const int64_t rows = std::min<int64_t>(c.getRows(), s.OH);
  const int64_t maxBytes =
      TargetAttr::lookup(op).getSharedMemoryPerBlock();
  int64_t bytes = streamBandBytes(s, t) + streamStageBytes(rows);
  if (bytes > maxBytes)
    return "filter band and output stage exceed the target's " +
           std::to_string(maxBytes / 1024) + " KB of shared memory";
  if ((c.isSmemInput() || c.isNhwcInput()) &&
      bytes + streamInputBytes(s, t, rows) > maxBytes)
    return "input buffers, filter band and output stage exceed the "
           "target's " +
           std::to_string(maxBytes / 1024) + " KB of shared memory";
  if (!c.getRowBlocksPerChunk())
    return "";
  const int64_t rowBlocks = llvm::divideCeil(s.OH, rows);
  const int64_t sets = llvm::divideCeil(s.N, t.images);
  int64_t grid = s.C / kStreamWarps * sets * t.colTiles *
                 llvm::divideCeil(rowBlocks, std::min(c.getRowBlocksPerChunk(),
                                                      rowBlocks));
  if (c.isOverlapWorkspace())
    grid += sets * streamProducersPerSet(
                       s, t,
                       streamWorkspacePitch(s, isCompact(c), c.isSmemInput()));
  if (grid > std::numeric_limits<int32_t>::max())
    return "grid too large";
  return "";
}
} // namespace

StringRef MmaStreamKernelAttr::getFamily() const { return getMnemonic(); }

bool MmaStreamKernelAttr::isComplete() const {
  return getInputOperand() && getLoopOrder() && getRows() &&
         getPrefetch() >= 0 && getCompactWorkspace() &&
         getFilterInRegisters() && getRowBlocksPerChunk() &&
         getMinBlocksPerSm() >= 0;
}

std::string MmaStreamKernelAttr::whyNotFor(Operation *op) const {
  StreamShape s;
  std::string why = streamIneligibility(op, s);
  if (why.empty())
    why = fieldIneligibility(*this);
  if (isStreamColumns())
    s = swapStreamAxes(s);
  if (why.empty() && getInputOperand() && getRows())
    why = sizeIneligibility(op, *this, s);
  return why;
}
