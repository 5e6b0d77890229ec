//===- Mma.cpp - the tensor-core ring/band kernels' configurations --------===//
//
// The KernelConfigAttrInterface methods of #dwc.mma_band and #dwc.mma_ring
// and the rules and layout of Configs/Mma.h (shared by their verifier,
// dwc-select-kernels and convert-dwc-to-gpu-mma).
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"
#include <limits>

using namespace mlir;
using namespace mlir::dwc;
using namespace mlir::dwc::mma;

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

int64_t dwc::mmaGroupsPerRow(int64_t OW) {
  int64_t g = 4;
  while (g < 16 && 8 * g < OW)
    g *= 2;
  return g;
}

int64_t dwc::mmaBandSlices(int64_t FW) { return (FW + kTM - 1 + 15) / 16; }

namespace {
/// Band packing: v = the filter row with 7 zeros in front and zeros behind
/// (16 slices + 7 positions); a ring slot holds 8G outputs + 16 slices - 8
/// input columns with one gap position after every 16 columns (the lanes of
/// a quarter warp then read 8 distinct 16-byte bank groups).
int64_t bandFilterPositions(int64_t FW) { return 16 * mmaBandSlices(FW) + 7; }
int64_t bandRowCols(int64_t FW, int64_t G) {
  return kTM * G + 16 * mmaBandSlices(FW) - kTM;
}
int64_t bandRowPositions(int64_t FW, int64_t G) {
  int64_t cols = bandRowCols(FW, G);
  return cols + (cols + 15) / 16;
}
/// Filter pairs: position s holds (v[s], v[s + 1]) of the 64 channels.
int64_t bandPairPositions(int64_t FW) { return 16 * mmaBandSlices(FW) + 6; }
/// Fragment row ring: one gap position after every 8 input columns.
int64_t ringRowPositions(int64_t nfrag, int64_t G) {
  int64_t cols = kTM * G + kFrag * nfrag - 1;
  return cols + (cols + 7) / 8;
}
int64_t mulSat(int64_t a, int64_t b) {
  return llvm::checkedMul(a, b).value_or(std::numeric_limits<int64_t>::max());
}
} // namespace

int64_t dwc::mmaBandSmemBytes(int64_t FW, int64_t slots, int64_t G,
                              bool pairs, bool inputPairs, int64_t bufs) {
  int64_t in = inputPairs ? 4 * kBN * slots * (bandRowCols(FW, G) / 2)
                          : kRingPitch * 2 * slots * bandRowPositions(FW, G);
  if (pairs)
    return in + kPairPitch * 2 * bufs * bandPairPositions(FW);
  return in + kRingPitch * 2 * bufs * bandFilterPositions(FW);
}

int64_t dwc::mmaRingSmemBytes(int64_t nfrag, int64_t R, int64_t G) {
  return kRingPitch * 2 *
         ((R + 1) * ringRowPositions(nfrag, G) + 2 * kZ * nfrag);
}

int64_t dwc::mmaFragmentSmemBytes(int64_t fps, int64_t R, int64_t G) {
  return 2 * kBN * 2 * (R * (kTM * G + kFrag * fps - 1) + kZ * fps);
}

/// Ring and stage sizes of `p` (fields c, G, R set).
static void planStages(const MmaShape &s, MmaPlan &p) {
  const MmaChoice &c = p.c;
  bool band = c.band, pairs = band && c.filterPairs;
  p.nfrag = (s.FW + kFrag - 1) / kFrag;
  p.T = band ? c.rows : 1;
  bool ob = band && c.oneBarrier;
  p.RB = p.R * p.T;
  p.slots = p.RB + 1 + ob;
  p.zbufs = 2 + ob;
  bool ring = band || c.ring;
  p.fps = ring ? p.nfrag
               : std::min(std::max<int64_t>(c.fragsPerStage, 1), p.nfrag);
  p.groups = (p.nfrag + p.fps - 1) / p.fps;
  p.S = s.FH * p.groups;
  p.RS = band ? bandRowCols(s.FW, p.G) : kTM * p.G + kFrag * p.fps - 1;
  p.P = p.R * p.RS;
  p.ZS = pairs  ? bandPairPositions(s.FW)
         : band ? bandFilterPositions(s.FW)
                : kZ * p.fps;
  p.JR = p.RS / 2;
  p.RSg = band && c.inputPairs ? p.JR
          : band               ? bandRowPositions(s.FW, p.G)
                               : ringRowPositions(p.fps, p.G);
  p.bytes = band ? mmaBandSmemBytes(s.FW, p.slots, p.G, pairs,
                                    c.inputPairs, p.zbufs)
            : ring ? mmaRingSmemBytes(p.nfrag, p.R, p.G)
                   : mmaFragmentSmemBytes(p.fps, p.R, p.G);
}

MmaPlan dwc::mmaPlanOf(const MmaShape &s, const MmaChoice &choice) {
  MmaPlan p;
  p.c = choice;
  p.G = mmaGroupsPerRow(s.OW);
  p.R = kGemvs / p.G;
  planStages(s, p);
  p.par = s.pl % 2;
  p.JW = (s.IW + p.par + 1) / 2;
  p.nband = mmaBandSlices(s.FW);
  p.tilesW = llvm::divideCeil(s.OW, kTM * p.G);
  p.tilesH = llvm::divideCeil(s.OH, p.RB);
  p.gridX = mulSat(mulSat(s.N, p.tilesH), p.tilesW);
  p.gridY = llvm::divideCeil(s.C, kBN);
  p.wchunks = choice.warpChannels / kVec;
  p.threads = kBN / choice.warpChannels * 32;
  p.nAcc = p.T * p.wchunks * kVec;
  return p;
}

//===----------------------------------------------------------------------===//
// Rules
//===----------------------------------------------------------------------===//

namespace {

/// Operand shapes, layouts and element types; 31-bit extents.
std::string operandIneligibility(Operation *op, Type elem) {
  std::string why = operandsIneligibility(op, elem);
  if (!why.empty())
    return why;
  for (Value v : op->getOperands())
    if (llvm::any_of(cast<ShapedType>(v.getType()).getShape(),
                     [](int64_t d) { return d >= (int64_t(1) << 31); }))
      return "a dimension of 2^31 or more";
  return "";
}
} // namespace

std::string dwc::mmaKernelIneligibility(Operation *op) {
  std::string why;
  std::optional<DepthwiseConvView> c = depthwiseRuleView(
      op, &DepthwiseConvView::x,
      [](Type t) { return t.isF16() || t.isBF16(); },
      "element type is not f16 or bf16", why);
  if (!c)
    return why;
  if (llvm::any_of(c->strides, [](int64_t s) { return s != 1; }))
    return "stride is not 1";
  why = unitDilationIneligibility(*c);
  if (why.empty())
    why = operandIneligibility(op, elementTypeOf(c->x));
  if (!why.empty())
    return why;
  if (cast<ShapedType>(c->x.getType()).getDimSize(3) % kVec != 0)
    return "channel count is not a multiple of 8";
  MmaShape s = mmaShapeOf(op);
  if (s.pt < 0 || s.pl < 0)
    return "padding larger than the filter extent minus one (negative "
           "transposed padding)";
  return "";
}

MmaShape dwc::mmaShapeOf(Operation *op) {
  DepthwiseConvView c = *depthwiseConvViewOf(op);
  auto in = cast<ShapedType>(c.x.getType()).getShape();
  auto f = cast<ShapedType>(c.w.getType()).getShape();
  auto out = cast<ShapedType>(c.y.getType()).getShape();
  int64_t pt = c.padding[0], pl = c.padding[2];
  if (c.backward) {
    pt = f[0] - 1 - pt;
    pl = f[1] - 1 - pl;
  }
  return MmaShape{in[0], in[1],  in[2],  in[3], f[0],
                  f[1],  out[1], out[2], pt,    pl};
}

namespace {
/// Field ranges of a choice (0: left to dwc-select-kernels).
std::string fieldIneligibility(const MmaChoice &c, int64_t nfrag) {
  if (c.band && c.rows != 1 && c.rows != 2 && c.rows != 4)
    return "rows = " + std::to_string(c.rows) + " is not 1, 2 or 4";
  if (c.warpChannels != 8 && c.warpChannels != 16)
    return "warp_channels = " + std::to_string(c.warpChannels) +
           " is not 8 or 16";
  std::string why =
      rangeIneligibility("min_blocks_per_sm", c.minBlocksPerSm, 1, 32);
  if (!why.empty() || c.band)
    return why;
  why = rangeIneligibility("frags_per_stage", c.fragsPerStage, 1, 16);
  if (why.empty() && c.ring && c.fragsPerStage &&
      c.fragsPerStage < nfrag)
    why = "a row ring stages all " + std::to_string(nfrag) +
          " fragments of a filter row (frags_per_stage = " +
          std::to_string(c.fragsPerStage) + ")";
  return why;
}

/// Grids of the kernel and of its workspace kernels.
std::string gridIneligibility(const MmaShape &s, const MmaPlan &p) {
  constexpr int64_t kMaxGridX = (int64_t(1) << 31) - 1;
  if (p.gridX > kMaxGridX || p.gridY > 65535)
    return "grid too large";
  int64_t c8 = s.C / kVec;
  int64_t pairs = p.c.band && p.c.filterPairs
                      ? mulSat(mulSat(s.FH, p.ZS), c8) / 128
                      : 0;
  int64_t inPairs = p.c.band && p.c.inputPairs
                        ? mulSat(mulSat(mulSat(s.N, s.IH), p.JW), c8) / 256
                        : 0;
  if (pairs >= kMaxGridX || inPairs >= kMaxGridX)
    return "workspace kernel grid too large";
  return "";
}
} // namespace

std::string dwc::mmaPlanIneligibility(Operation *op, const MmaChoice &choice,
                                      int64_t smemPerBlock) {
  MmaShape s = mmaShapeOf(op);
  int64_t nfrag = (s.FW + kFrag - 1) / kFrag;
  std::string why = fieldIneligibility(choice, nfrag);
  if (!why.empty())
    return why;
  MmaPlan p = mmaPlanOf(s, choice);
  why = gridIneligibility(s, p);
  if (!why.empty())
    return why;
  if (p.bytes > smemPerBlock)
    return "needs " + std::to_string(p.bytes) +
           " bytes of shared memory per block, the target has " +
           std::to_string(smemPerBlock);
  return "";
}

//===----------------------------------------------------------------------===//
// #dwc.mma_band, #dwc.mma_ring
//===----------------------------------------------------------------------===//

static bool isTrue(BoolAttr b) { return b && b.getValue(); }

MmaChoice dwc::mmaChoiceOf(MmaBandKernelAttr config) {
  MmaChoice c;
  c.band = true;
  c.rows = config.getRows() ? config.getRows() : 1;
  c.warpChannels = config.getWarpChannels() ? config.getWarpChannels() : 16;
  c.filterPairs = isTrue(config.getFilterPairs());
  c.inputPairs = isTrue(config.getInputPairs());
  c.oneBarrier = isTrue(config.getOneBarrier());
  c.unroll = isTrue(config.getUnroll());
  c.copySplit = isTrue(config.getCopySplit());
  c.minBlocksPerSm = config.getMinBlocksPerSm();
  return c;
}

MmaChoice dwc::mmaChoiceOf(MmaRingKernelAttr config) {
  MmaChoice c;
  c.ring = isTrue(config.getRing());
  c.fragsPerStage = config.getFragsPerStage();
  c.warpChannels = config.getWarpChannels() ? config.getWarpChannels() : 16;
  c.minBlocksPerSm = config.getMinBlocksPerSm();
  return c;
}

/// The rules shared by both configurations.
static std::string configIneligibility(Operation *op, const MmaChoice &c) {
  std::string why = mmaKernelIneligibility(op);
  if (!why.empty())
    return why;
  return mmaPlanIneligibility(
      op, c, TargetAttr::lookup(op).getSharedMemoryPerBlock());
}

StringRef MmaBandKernelAttr::getFamily() const { return getMnemonic(); }
bool MmaBandKernelAttr::isComplete() const {
  return getRows() && getWarpChannels() && getFilterPairs() &&
         getInputPairs() && getOneBarrier() && getUnroll() && getCopySplit();
}
std::string MmaBandKernelAttr::whyNotFor(Operation *op) const {
  return configIneligibility(op, mmaChoiceOf(*this));
}

StringRef MmaRingKernelAttr::getFamily() const { return getMnemonic(); }
bool MmaRingKernelAttr::isComplete() const {
  return getRing() && getFragsPerStage() && getWarpChannels();
}
std::string MmaRingKernelAttr::whyNotFor(Operation *op) const {
  return configIneligibility(op, mmaChoiceOf(*this));
}
