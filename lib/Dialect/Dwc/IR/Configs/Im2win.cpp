//===- Im2win.cpp - the dense conv2d im2win kernels' configurations ---===//
//
// The KernelConfigAttrInterface methods of #dwc.im2win_simt, #dwc.im2win_mma
// and #dwc.im2win_wgmma and the rules of Configs/Im2win.h (shared by their
// verifiers, dwc-select-kernels and convert-dwc-to-gpu-im2win).
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::dwc;

namespace {
/// Largest grid (blocks in x) a launch may have.
constexpr int64_t kMaxGrid = (int64_t(1) << 31) - 1;

/// Whether the operands are shaped: rank-4 input, filter and output, a
/// rank-1 bias (the op's own verifier may not have run yet).
bool hasConv2DOperandRanks(Operation *op) {
  for (auto [i, v] : llvm::enumerate(op->getOperands())) {
    auto t = dyn_cast<ShapedType>(v.getType());
    int64_t rank = (i == 2 && op->getNumOperands() == 4) ? 1 : 4;
    if (!t || !t.hasRank() || t.getRank() != rank)
      return false;
  }
  return op->getNumOperands() == 3 || op->getNumOperands() == 4;
}

/// Operand element types, layouts and sizes the kernels read (element
/// counts, and the GEMM extents below, stay far from overflow).
std::string operandIneligibility(Operation *op, Type elem) {
  return operandsIneligibility(op, elem, int64_t(1) << 40);
}

/// Blocks of a grid of `mTile` x `nTile` output tiles, or why too many.
std::string gridIneligibility(const Im2winShape &s, int64_t mTile,
                              int64_t nTile) {
  int64_t blocks = ((s.M() + mTile - 1) / mTile) * ((s.OC + nTile - 1) / nTile);
  return blocks > kMaxGrid ? "grid too large" : "";
}

/// The rules of the fields the CUDA-core and mma.sync kernels share.
template <typename Attr>
std::string gemmFieldIneligibility(Attr config, const Im2winShape &s) {
  int64_t tileN = config.getTileN(), stages = config.getStages();
  if (tileN != 0 && tileN != 64 && tileN != 128)
    return ("tile_n = " + Twine(tileN) + " is not 64 or 128").str();
  std::string why = rangeIneligibility("stages", stages, 1, 3);
  if (why.empty())
    why = rangeIneligibility("min_blocks_per_sm", config.getMinBlocksPerSm(),
                             1, 32);
  if (!why.empty())
    return why;
  // (What fits is checked on complete configurations: dwc-select-kernels
  // lowers a partial one's stages to it.)
  bool complete = config.isComplete();
  if (complete && stages > 2 && !config.getAsyncCopy().getValue())
    return "async_copy = false keeps at most 2 stages";
  if (complete && stages > 2 && stages > im2winMaxStages(s, tileN))
    return (Twine(stages) + " stages of " + Twine(im2winStageBytes(s, tileN)) +
            " bytes exceed 48 KB of static shared memory")
        .str();
  return tileN ? gridIneligibility(s, im2winTileM(tileN), tileN) : "";
}

} // namespace

std::optional<Im2winShape> dwc::im2winEligibleShape(Operation *op,
                                                    std::string &why) {
  if (!isa<Conv2DOp>(op)) {
    why = "not a dwc.conv2d";
    return std::nullopt;
  }
  why = im2winIneligibility(op);
  if (!why.empty())
    return std::nullopt;
  return im2winShapeOf(op);
}

std::optional<Im2winShape> dwc::im2winShapeOf(Operation *op) {
  auto conv = dyn_cast<Conv2DOp>(op);
  if (!conv || !hasConv2DOperandRanks(op) || conv.getStrides().size() != 2 ||
      conv.getDilations().size() != 2 || conv.getPadding().size() != 4)
    return std::nullopt;
  auto in = cast<ShapedType>(conv.getInput().getType());
  auto f = cast<ShapedType>(conv.getFilter().getType()).getShape();
  auto out = cast<ShapedType>(conv.getInit().getType()).getShape();
  auto x = in.getShape();
  auto st = conv.getStrides(), d = conv.getDilations(), p = conv.getPadding();
  return Im2winShape{in.getElementType(), x[0], x[1], x[2], x[3], f[0], f[1],
                     f[3], out[1], out[2], st[0], st[1], d[0], d[1], p[0],
                     p[1], p[2], p[3]};
}

std::string dwc::im2winIneligibility(Operation *op) {
  std::optional<Im2winShape> s = im2winShapeOf(op);
  if (!s)
    return "not a dwc.conv2d with operands and attributes of the right ranks";
  Type et = s->elem;
  if (!et.isF32() && !et.isF16() && !et.isBF16())
    return "unsupported element type";
  if (!cast<Conv2DOp>(op).getAccType().isF32())
    return "accumulation type is not f32";
  std::string why = operandIneligibility(op, et);
  if (!why.empty())
    return why;
  if (llvm::any_of(ArrayRef<int64_t>{s->sh, s->sw, s->dh, s->dw},
                   [](int64_t v) { return v < 1; }) ||
      llvm::any_of(ArrayRef<int64_t>{s->padTop, s->padBottom, s->padLeft,
                                     s->padRight},
                   [](int64_t v) { return v < 0; }))
    return "non-positive stride or dilation, or negative padding";
  int64_t vec = 16 / (et.getIntOrFloatBitWidth() / 8);
  if (s->OC % vec != 0)
    return "output channel count is not a multiple of 128 bits";
  return "";
}

int64_t dwc::im2winStageBytes(const Im2winShape &s, int64_t tileN) {
  return (im2winTileM(tileN) + tileN) * im2winTileK(s) *
         (s.isF32() ? 4 : 2);
}

int64_t dwc::im2winMaxStages(const Im2winShape &s, int64_t tileN) {
  return std::max<int64_t>(
      2, std::min<int64_t>(3, kIm2winStaticSharedMemory /
                                  im2winStageBytes(s, tileN)));
}

int64_t dwc::im2winWgmmaMaxN(int64_t OC) {
  return (OC + 63) / 64 * 64 <= 64 ? 64 : OC <= 128 ? 128 : 256;
}

Im2winWgmmaSharedMemory
dwc::im2winWgmmaSharedMemory(int64_t warpgroups, int64_t n, int64_t stages,
                             bool specialize, bool tma, bool stagedStores) {
  int64_t buffers = stages * im2winWgmmaStageBytes(warpgroups, n);
  bool dynamic = buffers > kIm2winStaticSharedMemory || specialize || tma;
  if (!dynamic)
    return {false, buffers};
  return {true, buffers + 1024 + (specialize || tma ? 16 * stages : 0) +
                    (specialize && stagedStores
                         ? im2winWarpStageBytes(warpgroups, n)
                         : 0)};
}

bool dwc::im2winTmaIm2colFits(const Im2winShape &s) {
  auto corner = [](int64_t v) { return v >= -128 && v <= 127; };
  return s.C % 64 == 0 && s.sh == 1 && s.sw == 1 && s.dh == 1 && s.dw == 1 &&
         corner(-s.padTop) && corner(-s.padLeft) &&
         corner(s.padBottom - (s.FH - 1)) && corner(s.padRight - (s.FW - 1));
}

//===----------------------------------------------------------------------===//
// #dwc.im2win_simt, #dwc.im2win_mma
//===----------------------------------------------------------------------===//

StringRef Im2winSimtKernelAttr::getFamily() const { return getMnemonic(); }
bool Im2winSimtKernelAttr::isComplete() const {
  return getTileN() && getStages() && getMinBlocksPerSm() && getPrecompute() &&
         getAsyncCopy() && getIm2winTensor();
}
std::string Im2winSimtKernelAttr::whyNotFor(Operation *op) const {
  std::string why;
  std::optional<Im2winShape> s = im2winEligibleShape(op, why);
  if (!s)
    return why;
  if (!s->isF32())
    return "element type is not f32 (f16/bf16 take im2win_mma or "
           "im2win_wgmma)";
  return gemmFieldIneligibility(*this, *s);
}

StringRef Im2winMmaKernelAttr::getFamily() const { return getMnemonic(); }
bool Im2winMmaKernelAttr::isComplete() const {
  return getTileN() && getStages() && getMinBlocksPerSm() && getPrecompute() &&
         getAsyncCopy() && getIm2winTensor() && getSwizzle();
}
std::string Im2winMmaKernelAttr::whyNotFor(Operation *op) const {
  std::string why;
  std::optional<Im2winShape> s = im2winEligibleShape(op, why);
  if (!s)
    return why;
  if (s->isF32())
    return "element type is f32 (mma.sync takes f16/bf16)";
  return gemmFieldIneligibility(*this, *s);
}

//===----------------------------------------------------------------------===//
// #dwc.im2win_wgmma
//===----------------------------------------------------------------------===//

namespace {
/// The ranges of the wgmma kernel's integer fields.
std::string wgmmaRangeIneligibility(Im2winWgmmaKernelAttr c,
                                    const Im2winShape &s) {
  int64_t wg = c.getWarpgroups(), n = c.getN();
  if (wg != 0 && wg != 1 && wg != 2 && wg != 4)
    return ("warpgroups = " + Twine(wg) + " is not 1, 2 or 4").str();
  if (n != 0 && n != 64 && n != 128 && n != 256)
    return ("n = " + Twine(n) + " is not 64, 128 or 256").str();
  // (A partial configuration's n is lowered to what OC needs.)
  if (c.isComplete() && n > im2winWgmmaMaxN(s.OC))
    return ("n = " + Twine(n) + " is wider than OC = " + Twine(s.OC) +
            " needs")
        .str();
  std::string why = rangeIneligibility("barriers", c.getBarriers(), 1, 2);
  if (why.empty())
    why = rangeIneligibility("stages", c.getStages(), 2, 8);
  if (why.empty())
    why = rangeIneligibility("min_blocks_per_sm", c.getMinBlocksPerSm(), 1, 32);
  return why;
}

/// The combinations of the wgmma kernel's pipeline flags.
std::string wgmmaPipelineIneligibility(Im2winWgmmaKernelAttr c) {
  bool overlap = im2winFlag(c.getOverlap(), false);
  bool spec = im2winFlag(c.getSpecialize(), false);
  bool oneBarrier = c.getBarriers() == 1;
  if (overlap && oneBarrier)
    return "overlap needs barriers = 2";
  if (spec && (overlap || oneBarrier))
    return "specialize excludes overlap and barriers = 1 (it has no block "
           "barriers)";
  if (spec && c.getWarpgroups() == 4)
    return "specialize takes 1 or 2 multiplying warpgroups";
  if ((overlap || spec) && c.getStages() == 2)
    return "overlap and specialize need at least 3 stages";
  if (im2winFlag(c.getTmaFilter(), false) && (overlap || oneBarrier))
    return "tma_filter needs the two-barrier pipeline (no overlap, "
           "barriers = 2)";
  return "";
}

/// The rules of the wgmma kernel's operand copies.
std::string wgmmaCopyIneligibility(Im2winWgmmaKernelAttr c,
                                   const Im2winShape &s) {
  bool tensor = im2winFlag(c.getIm2winTensor(), false);
  if (tensor && s.C % 4 != 0)
    return "im2win_tensor needs C % 4 == 0 (the channels are not padded)";
  if (!im2winFlag(c.getTmaIm2col(), false))
    return "";
  if (!im2winFlag(c.getTmaFilter(), true))
    return "tma_im2col needs tma_filter (B by TMA as well)";
  if (!im2winTmaIm2colFits(s))
    return "tma_im2col needs C % 64 == 0, unit strides and dilations and "
           "window corners in [-128, 127]";
  if (tensor || !im2winFlag(c.getPrecompute(), true) ||
      im2winFlag(c.getSpecialize(), false))
    return "tma_im2col excludes im2win_tensor, precompute = false and "
           "specialize";
  return "";
}

/// Shared memory and grid of a wgmma config whose tile fields are set.
std::string wgmmaSizeIneligibility(Im2winWgmmaKernelAttr c,
                                   const Im2winShape &s, TargetAttr target) {
  int64_t wg = c.getWarpgroups(), n = c.getN(), stages = c.getStages();
  if (!wg || !n)
    return "";
  bool spec = im2winFlag(c.getSpecialize(), false);
  if (stages && c.isComplete()) {
    bool tma = im2winFlag(c.getTmaFilter(), false) ||
               im2winFlag(c.getTmaIm2col(), false);
    Im2winWgmmaSharedMemory smem = im2winWgmmaSharedMemory(
        wg, n, stages, spec, tma, im2winFlag(c.getStagedStores(), true));
    if (smem.dynamic && smem.bytes > target.getSharedMemoryPerBlock())
      return (Twine(smem.bytes) + " bytes of shared memory exceed the "
              "target's " + Twine(target.getSharedMemoryPerBlock()) +
              " per block")
          .str();
  }
  return spec ? "" : gridIneligibility(s, 64 * wg, n);
}
} // namespace

StringRef Im2winWgmmaKernelAttr::getFamily() const { return getMnemonic(); }
bool Im2winWgmmaKernelAttr::isComplete() const {
  return getWarpgroups() && getN() && getStages() && getBarriers() &&
         getMinBlocksPerSm() && getOverlap() && getSpecialize() &&
         getTmaFilter() && getTmaIm2col() && getStagedStores() &&
         getPrecompute() && getIm2winTensor();
}
std::string Im2winWgmmaKernelAttr::whyNotFor(Operation *op) const {
  std::string why;
  std::optional<Im2winShape> s = im2winEligibleShape(op, why);
  if (!s)
    return why;
  TargetAttr target = TargetAttr::lookup(op);
  if (!target.hasWgmma())
    return ("target " + target.getChip() + " has no wgmma (sm_90a has)").str();
  if (s->isF32())
    return "element type is f32 (wgmma takes f16/bf16)";
  why = wgmmaRangeIneligibility(*this, *s);
  if (why.empty())
    why = wgmmaPipelineIneligibility(*this);
  if (why.empty())
    why = wgmmaCopyIneligibility(*this, *s);
  if (why.empty())
    why = wgmmaSizeIneligibility(*this, *s, target);
  return why;
}
