//===- DwcToGPUMma.cpp - f16/bf16 depthwise conv on tensor cores ----------===//
//
// Lowers eligible f16/bf16 depthwise convolutions (memref form) to the
// Flash-DWC tensor-core kernel: GEMV->GEMM packing of 16 GEMVs x 8 outputs
// x one width-9 filter fragment into one m16n8k16 nvgpu.mma.sync per
// channel (f32 accumulators), compressed 23-element filter vectors, input
// and filter tiles staged in swizzled shared memory by cp.async (zero-fill
// padding), double-buffered over the FH x ceil(FW/9) fragments. Stride-1
// backward-data ops take the same kernel on the 180-degree rotated filter
// (rotation fused into the filter copies, transposed padding).
// Band packing (band-packing, the dwc-to-nvvm default with filter pairs,
// copy split and unrolled slices): K = 16 slices of each filter row's
// Toeplitz band instead of width-9 fragments, mma rows on adjacent output
// groups sharing the lanes' block registers; optional workspaces of filter
// / input pairs written by a first kernel; band rows (T spatial tiles per
// warp sharing the B registers, T R rows and T R + 1 ring slots per block),
// one barrier per stage (one more slot, a third filter buffer), and
// band-auto, the per-shape choice of those (the dwc-to-nvvm default on
// Hopper; evidence in docs/KernelSelection.md). Its index math is mirrored by
// test/Conversion/DwcToGPUMma/Inputs/band_model.py.
// Index math is mirrored by test/Conversion/DwcToGPUMma/Inputs/packing_model.py.
// See the pass description in include/dwc/Conversion/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/KernelSelection.h"
#include "dwc/Conversion/Passes.h"
#include "dwc/Conversion/DepthwiseProblem.h"
#include "dwc/Conversion/IndexEmitter.h"
#include "dwc/Conversion/MmaEmitter.h"
#include "dwc/Conversion/LaunchBuilder.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_CONVERTDWCTOGPUMMA
#include "dwc/Conversion/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;
using namespace mlir::dwc;

namespace {

constexpr int64_t kBN = 64;      // channels per block
// Warps per block: 64 / `warp-channels` (4 warps of 16 channels, or 8 of
// 8); threads = 32 x warps.
constexpr int64_t kVec = 8;      // f16/bf16 per 16-byte chunk
constexpr int64_t kChunks = kBN / kVec;
constexpr int64_t kFrag = 9;     // filter taps per fragment
constexpr int64_t kTM = 8;       // outputs per GEMV (mma N)
constexpr int64_t kGemvs = 16;   // GEMVs per mma (mma M)
constexpr int64_t kZ = 23;       // compressed fragment: 7 zeros, 9 taps, 7 zeros

FailureOr<DepthwiseProblem> problemOf(DepthwiseConv2DOp op, int64_t minFilterWidth,
                                 std::string &why) {
  why = mmaIneligibility(op, op.getInput(), op.getFilter(), op.getInit(),
                      op.getAccType(), op.getStrides(), op.getDilations(),
                      minFilterWidth);
  if (!why.empty())
    return failure();
  return forwardProblem(op);
}

FailureOr<DepthwiseProblem> problemOf(DepthwiseConv2DBackwardDataOp op,
                                 int64_t minFilterWidth, std::string &why) {
  why = mmaIneligibility(op, op.getOutputGrad(), op.getFilter(), op.getInit(),
                      op.getAccType(), op.getStrides(), op.getDilations(),
                      minFilterWidth);
  if (!why.empty())
    return failure();
  return backwardDataProblem(op, why);
}

/// Spatial tile: R rows x G groups of 8 outputs (R * G = 16 GEMVs).
/// G = next power of two >= ceil(OW / 8), clamped to [4, 16] so that the
/// double-buffered tiles stay within 48 KB of static shared memory.
int64_t groupsPerRow(int64_t OW) {
  int64_t g = 4;
  while (g < 16 && 8 * g < OW)
    g *= 2;
  return g;
}

/// Fragments per stage: `frags-per-stage` if set (clamped to nfrag), else
/// the largest divisor of nfrag whose double-buffered tiles fit in
/// `max-smem-kb` (over 48 KB: dynamic shared memory).
constexpr int64_t kStaticSmemBytes = 48 * 1024;
int64_t smemBytes(int64_t fps, int64_t R, int64_t G) {
  return 2 * kBN * 2 * (R * (kTM * G + kFrag * fps - 1) + kZ * fps);
}
/// Row-ring layout: positions padded to kRingPitch elements (144 bytes, 9
/// 16-byte units: consecutive positions start in different bank groups, so
/// no XOR swizzle and no per-load address arithmetic), and one gap position
/// after every 8 input columns (column c at c + c / 8: the A rows of lanes
/// 4 apart, 8 columns apart, land 9 units apart, in different bank groups).
constexpr int64_t kRingPitch = kBN + kVec;
int64_t ringRowPositions(int64_t nfrag, int64_t G) {
  int64_t cols = kTM * G + kFrag * nfrag - 1;
  return cols + (cols + 7) / 8;
}
/// Row-ring mode: R + 1 input row slots and two buffers of nfrag
/// compressed filter vectors.
int64_t ringSmemBytes(int64_t nfrag, int64_t R, int64_t G) {
  return kRingPitch * 2 *
         ((R + 1) * ringRowPositions(nfrag, G) + 2 * kZ * nfrag);
}

/// Band packing: the 8 x (FW + 7) Toeplitz band of a filter row (outputs
/// x inputs of one group of 8 outputs) cut into ceil((FW + 7) / 16) K = 16
/// slices: slice p multiplies input blocks 2p, 2p + 1 (8 columns each,
/// relative to the group) with B[k][i] = v[16p + k - i + 7], v = the filter
/// row with 7 zeros in front and zeros behind (length 16 slices + 7).
int64_t bandSlices(int64_t FW) { return (FW + kTM - 1 + 15) / 16; }
int64_t bandFilterPositions(int64_t FW) { return 16 * bandSlices(FW) + 7; }
/// Input columns of a band row slot: 8G outputs + 16 slices - 8.
int64_t bandRowCols(int64_t FW, int64_t G) {
  return kTM * G + 16 * bandSlices(FW) - kTM;
}
/// Band row slots put one gap position after every 16 columns (column c at
/// c + c / 16): the lanes of a quarter warp read columns 16 g + 2q (+ 8b),
/// g = 0, 1, which then land in 8 distinct 16-byte bank groups.
int64_t bandRowPositions(int64_t FW, int64_t G) {
  int64_t cols = bandRowCols(FW, G);
  return cols + (cols + 15) / 16;
}
/// Filter pairs (band-filter-pairs): position s of a filter buffer holds
/// the pairs (v[s], v[s + 1]) of the 64 channels (s < 16 slices + 6),
/// pitch 272 bytes (64 pairs + 16 bytes: the 8 positions a quarter warp
/// reads land in distinct bank groups).
constexpr int64_t kPairPitch = 2 * kBN + kVec;  // f16 elements
int64_t bandPairPositions(int64_t FW) { return 16 * bandSlices(FW) + 6; }
/// Input pairs (band-input-pairs): a ring slot holds bandRowCols / 2 pair
/// positions of 256 bytes (64 channels x 2 columns), 16-byte chunks
/// XOR-swizzled by pairSwizzle. `slots` ring slots (R + 1; band rows:
/// T R + 1; one barrier per stage: one more) and `bufs` filter buffers (2;
/// one barrier per stage: 3).
int64_t bandSmemBytes(int64_t FW, int64_t slots, int64_t G, bool pairs,
                      bool inputPairs, int64_t bufs = 2) {
  int64_t in = inputPairs ? 4 * kBN * slots * (bandRowCols(FW, G) / 2)
                          : kRingPitch * 2 * slots * bandRowPositions(FW, G);
  if (pairs)
    return in + kPairPitch * 2 * bufs * bandPairPositions(FW);
  return in + kRingPitch * 2 * bufs * bandFilterPositions(FW);
}

struct Emitter : IndexEmitter {
  using IndexEmitter::IndexEmitter;
  /// Element offset of 16-byte chunk `h` of shared row `row` (XOR swizzle
  /// over the 8 chunks of a 128-byte row: conflict-free cp.async writes,
  /// spread fragment reads).
  Value swizzled(Value row, Value h) {
    return mul(xori(h, rem(row, kChunks)), kVec);
  }
  /// Row-ring layout: position of input column `col` (a gap after every
  /// 8 columns; band packing: every 16).
  Value ringCol(Value col, bool band = false) {
    return add(col, div(col, band ? 16 : kChunks));
  }
  /// Input-pairs layout: the XOR swizzle of the 16-byte chunks of pair
  /// position j of a slot, (j mod 4) + 4 ((j / 8) mod 2): the pair positions
  /// 4 (gi0 + b) + q (gi0 = 0, 2) a quarter warp reads hit 8 bank groups.
  Value pairSwizzle(Value j) {
    return add(rem(j, 4), mul(rem(div(j, 8), 2), 4));
  }
};

/// One m16n8k16 mma.sync, f32 accumulators. `aS` (8) and `bS` (4) are the
/// lane's A and B elements in register order (a0..a7, b0..b3), `c` the
/// lane's vector<2x2xf32> {c0, c1; c2, c3}.
Value emitMma(OpBuilder &b, Location loc, ArrayRef<Value> aS,
              ArrayRef<Value> bS, Value c) {
  Type et = aS[0].getType();
  Value a = vector::FromElementsOp::create(b, loc, VectorType::get({4, 2}, et),
                                           aS);
  Value bm = vector::FromElementsOp::create(b, loc,
                                            VectorType::get({2, 2}, et), bS);
  return emitMmaM16N8K16(b, loc, a, bm, c);
}

template <typename OpTy>
struct MmaDepthwiseLowering : OpRewritePattern<OpTy> {
  MmaDepthwiseLowering(MLIRContext *ctx, int64_t minFilterWidth,
                       int64_t fragsPerStage, int64_t maxSmemBytes,
                       bool rowRing, bool bandPacking, bool bandFilterPairs,
                       bool bandInputPairs, bool bandUnroll,
                       bool bandCopySplit, int64_t bandRows,
                       bool bandOneBarrier, bool bandAuto,
                       int64_t warpChannels, int64_t minBlocksPerSm,
                       int64_t targetSmemBytes)
      : OpRewritePattern<OpTy>(ctx, /*benefit=*/3),
        minFilterWidth(minFilterWidth), fragsPerStageOption(fragsPerStage),
        maxSmemBytes(maxSmemBytes), rowRing(rowRing),
        bandPacking(bandPacking), bandFilterPairs(bandFilterPairs),
        bandInputPairs(bandInputPairs), bandUnroll(bandUnroll),
        bandCopySplit(bandCopySplit), bandRows(bandRows),
        bandOneBarrier(bandOneBarrier), bandAuto(bandAuto),
        warpChannels(warpChannels),
        minBlocksPerSm(minBlocksPerSm), targetSmemBytes(targetSmemBytes) {}
  int64_t minFilterWidth;
  int64_t fragsPerStageOption;
  int64_t maxSmemBytes;
  bool rowRing;
  bool bandPacking;
  bool bandFilterPairs;
  bool bandInputPairs;
  bool bandUnroll;
  bool bandCopySplit;
  int64_t bandRows;
  bool bandOneBarrier;
  bool bandAuto;
  int64_t warpChannels;
  int64_t minBlocksPerSm;
  int64_t targetSmemBytes; // the target's shared memory per block

  int64_t fragsPerStage(int64_t nfrag, int64_t R, int64_t G) const {
    if (fragsPerStageOption > 0)
      return std::min(fragsPerStageOption, nfrag);
    for (int64_t f = nfrag; f > 1; --f)
      if (nfrag % f == 0 && smemBytes(f, R, G) <= maxSmemBytes)
        return f;
    return 1;
  }

  /// Band options for one convolution.
  struct BandChoice {
    int64_t rows, warpChannels;
    bool filterPairs, oneBarrier;
    int64_t maxSmemBytes;  // for band rows and one barrier
  };
  /// The options as given, or with band-auto the configuration measured best
  /// per convolution (docs/KernelSelection.md, "tensor cores"):
  /// * large grids (1024+ blocks of two rows) with 3+ slices (FW >= 26) or
  ///   with one-row tiles (OW > 64) and 2+ slices: two rows per warp, 8
  ///   channels per warp, filter rows (no pair workspace), one 256-thread
  ///   block per SM (up to all of the target's shared memory per block),
  ///   one barrier per stage
  ///   only with 4+ slices (FW >= 42) on tiles of 1 or 2 rows;
  /// * other large grids (1024+ blocks): one row, 16 channels per warp;
  ///   one-row tiles: filter pairs, two barriers (the previous default);
  ///   taller tiles: one barrier, filter pairs from 2 slices on;
  /// * small grids: one row, filter rows (no first kernel), one barrier.
  /// One barrier and two rows are still dropped where they do not fit.
  BandChoice bandChoice(int64_t N, int64_t C, int64_t FW, int64_t OH,
                        int64_t OW, int64_t G, int64_t R) const {
    BandChoice bc{bandRows, warpChannels, bandFilterPairs, bandOneBarrier,
                  maxSmemBytes};
    if (!bandAuto || !bandPacking || !rowRing ||
        bandSmemBytes(FW, R + 1, G, false, bandInputPairs) > maxSmemBytes)
      return bc;
    int64_t nb = bandSlices(FW);
    int64_t tilesW = llvm::divideCeil(OW, kTM * G),
            chunks = llvm::divideCeil(C, kBN);
    int64_t blocks1 = N * llvm::divideCeil(OH, R) * tilesW * chunks;
    int64_t blocks2 = N * llvm::divideCeil(OH, 2 * R) * tilesW * chunks;
    if ((nb >= 3 || (R == 1 && nb >= 2)) && R < OH && blocks2 >= 1024)
      return {2, 8, false, nb >= 4 && R <= 2, targetSmemBytes};
    if (blocks1 < 1024)
      return {1, 16, false, true, maxSmemBytes};
    if (R == 1)
      return {1, 16, true, false, maxSmemBytes};
    return {1, 16, nb >= 2, true, maxSmemBytes};
  }

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (hasOtherKernel(op, ""))
      return rewriter.notifyMatchFailure(op, "dwc.kernel names another kernel");
    std::string why;
    FailureOr<DepthwiseProblem> problem = problemOf(op, minFilterWidth, why);
    if (failed(problem))
      return rewriter.notifyMatchFailure(op, why);

    Value x = problem->x, w = problem->w, bias = problem->bias,
          y = problem->y;
    auto in = cast<MemRefType>(x.getType()).getShape();
    auto f = cast<MemRefType>(w.getType()).getShape();
    auto out = cast<MemRefType>(y.getType()).getShape();
    Type et = cast<MemRefType>(x.getType()).getElementType();
    int64_t N = in[0], IH = in[1], IW = in[2], C = in[3];
    int64_t FH = f[0], FW = f[1], OH = out[1], OW = out[2];
    int64_t pt = problem->pt, pl = problem->pl;
    bool rotate = problem->rotateFilter;

    int64_t nfrag = (FW + kFrag - 1) / kFrag;
    int64_t G = groupsPerRow(OW), R = kGemvs / G;
    // Band configuration of this convolution: the options, or with
    // band-auto the measured per-shape choice.
    BandChoice bc = bandChoice(N, C, FW, OH, OW, G, R);
    // 8-channel chunks per warp, warps and threads per block.
    const int64_t wchunks = bc.warpChannels / kVec;
    const int64_t threads = kBN / bc.warpChannels * 32;
    // Fragments per pipeline stage: the F adjacent fragments of one filter
    // row share one input tile of 8G + 9F - 1 positions per row (instead of
    // F tiles of 8G + 8), cutting the shared-memory fill traffic.
    // Row ring: a stage is a whole filter row (all fragments); the R + 1
    // input row slots are renumbered circularly, so each stage copies one
    // new input row and reuses the R - 1 rows the previous stage used.
    // Band packing (a row-ring variant): K = 16 slices of the filter row's
    // Toeplitz band instead of width-9 fragments; GEMV rows g and g + 8 of
    // an mma are adjacent groups 2g, 2g + 1, so the lane's A registers of
    // consecutive slices and of both rows share input blocks.
    bool band = bandPacking && rowRing &&
                bandSmemBytes(FW, R + 1, G, bc.filterPairs, bandInputPairs) <=
                    maxSmemBytes;
    // Band packing with filter pairs: a first kernel writes every filter
    // row's B-register pairs (v[s], v[s + 1]) per channel into a workspace,
    // copied per stage like the filter row, so the B registers need no
    // packing in the multiply loop.
    bool pairs = band && bc.filterPairs;
    // Band packing with input pairs: a first kernel writes the input with
    // the columns of each even-aligned pair interleaved per channel, so one
    // 32-bit word is an A register (no packing in the multiply loop).
    bool inPairs = band && bandInputPairs;
    int64_t par = pl % 2;                  // column pairs start at -par
    int64_t JW = (IW + par + 1) / 2;       // pairs per input row
    int64_t nband = bandSlices(FW);
    // Band rows: each warp multiplies T stacked spatial tiles (R rows x 8G
    // columns each) with the same B registers, the block owns T R output
    // rows and its ring T R + 1 input row slots (one row copied per stage
    // for T times the work). T is halved while the ring exceeds
    // max-smem-kb or the lower tiles would lie wholly below the output.
    // One barrier per stage (band-one-barrier): one more ring slot and a
    // third filter buffer, so that the copies of stage s + 1 never target
    // what stage s - 1 reads (dropped if that does not fit).
    int64_t T = 1;
    bool oneBarrier = false;
    if (band) {
      auto fits = [&](int64_t t, bool ob) {
        return bandSmemBytes(FW, R * t + 1 + ob, G, bc.filterPairs,
                             bandInputPairs, 2 + ob) <= bc.maxSmemBytes;
      };
      T = bc.rows;
      oneBarrier = bc.oneBarrier;
      while (T > 1 && (R * (T / 2) >= OH || !fits(T, oneBarrier)))
        T /= 2;
      if (oneBarrier && !fits(T, true))
        oneBarrier = false;
    }
    const int64_t RB = R * T;  // output rows of a block
    const int64_t slots = RB + 1 + oneBarrier;  // ring slots
    const int64_t zbufs = 2 + oneBarrier;       // filter buffers
    const int64_t nAcc = T * wchunks * kVec;  // accumulators per lane
    bool ring =
        band || (rowRing && ringSmemBytes(nfrag, R, G) <= maxSmemBytes);
    int64_t fps = ring ? nfrag : fragsPerStage(nfrag, R, G);
    int64_t groups = (nfrag + fps - 1) / fps;
    int64_t S = FH * groups;                 // pipeline stages
    int64_t RS = band ? bandRowCols(FW, G)
                      : kTM * G + kFrag * fps - 1;  // shared row columns
    int64_t P = R * RS;                      // input positions per stage
    int64_t ZS = pairs  ? bandPairPositions(FW)
                 : band ? bandFilterPositions(FW)
                        : kZ * fps;          // (compressed) filter positions
    int64_t tilesW = (OW + kTM * G - 1) / (kTM * G);
    int64_t tilesH = (OH + RB - 1) / RB;
    int64_t gridX = N * tilesH * tilesW;
    int64_t gridY = (C + kBN - 1) / kBN;
    if (gridX > (int64_t(1) << 31) - 1 || gridY > 65535)
      return rewriter.notifyMatchFailure(op, "grid too large");

    MLIRContext *ctx = rewriter.getContext();
    auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    int64_t RSg = band ? bandRowPositions(FW, G)
                       : ringRowPositions(fps, G);  // ring slot pitch
    int64_t JR = RS / 2;  // input pairs: pair positions per ring slot
    if (inPairs)
      RSg = JR;
    auto inSmemTy =
        inPairs ? MemRefType::get({1, slots * JR, 2 * kBN}, et, AffineMap(),
                                  wg)
        : ring ? MemRefType::get({1, slots * RSg, kRingPitch}, et,
                                 AffineMap(), wg)
             : MemRefType::get({2, P, kBN}, et, AffineMap(), wg);
    auto zSmemTy = MemRefType::get(
        {zbufs, ZS, pairs ? kPairPitch : ring ? kRingPitch : kBN}, et,
        AffineMap(),
        wg);
    auto chunkTy = VectorType::get({kVec}, et);
    auto accTy = VectorType::get({2, 2}, rewriter.getF32Type());
    auto tokTy = nvgpu::DeviceAsyncTokenType::get(ctx);

    // Tiles over 48 KB take dynamic shared memory (the runtime raises the
    // kernel's limit at launch); smaller ones are static attributions.
    int64_t bytes = band   ? bandSmemBytes(FW, slots, G, pairs, inPairs, zbufs)
                    : ring ? ringSmemBytes(nfrag, R, G)
                           : smemBytes(fps, R, G);
    if (bytes != (inSmemTy.getNumElements() + zSmemTy.getNumElements()) * 2)
      return rewriter.notifyMatchFailure(
          op, "internal: shared tile sizes disagree with the byte count");
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    Emitter h{rewriter, loc};
    Value one = h.cst(1);
    bool dynamic = bytes > kStaticSmemBytes;
    // Filter-pairs workspace: ws[fh][s][2c + e] = v_fh[s + e][c] (v_fh: the
    // zero-padded filter row, v[t + 7] = tap t; backward data: rotated).
    Value ws;
    if (pairs) {
      int64_t ZP = bandPairPositions(FW);
      ws = memref::AllocOp::create(
          rewriter, loc, MemRefType::get({FH, ZP, 2 * C}, et));
      int64_t total = FH * ZP * (C / kVec);
      auto preAndBuilder = createGridLaunch(
          rewriter, loc, llvm::divideCeil(total, int64_t(128)), 1, 128);
      gpu::LaunchOp pre = preAndBuilder.first;
      OpBuilder &b0 = preAndBuilder.second;
      Emitter k{b0, loc};
      Value id = k.add(k.mul(pre.getBlockIds().x, 128), pre.getThreadIds().x);
      auto ifOp = scf::IfOp::create(b0, loc, k.lt(id, total), false);
      OpBuilder tb = ifOp.getThenBodyBuilder();
      Emitter t{tb, loc};
      Value c8 = t.rem(id, C / kVec), rest = t.div(id, C / kVec);
      Value sp = t.rem(rest, ZP), fh = t.div(rest, ZP);
      Value zeros = arith::ConstantOp::create(
          tb, loc, DenseElementsAttr::get(chunkTy, tb.getZeroAttr(et)));
      Value halves[2];
      for (int64_t e2 = 0; e2 < 2; ++e2) {
        Value tap = t.add(sp, e2 - 7);
        Value valid = t.andi(t.ge(tap, 0), t.lt(tap, FW));
        Value src = t.select(valid, rotate ? t.sub(FW - 1, tap) : tap,
                             t.cst(0));
        Value v = vector::LoadOp::create(
            tb, loc, chunkTy, w,
            ValueRange{rotate ? t.sub(FH - 1, fh) : fh, src, t.mul(c8, kVec)},
            false, llvm::Align(16));
        halves[e2] = arith::SelectOp::create(tb, loc, valid, v, zeros);
      }
      SmallVector<int64_t> lo, hi;
      for (int64_t i = 0; i < kVec / 2; ++i) {
        lo.append({i, i + kVec});
        hi.append({i + kVec / 2, i + kVec / 2 + kVec});
      }
      for (int64_t part = 0; part < 2; ++part) {
        Value v = vector::ShuffleOp::create(tb, loc, halves[0], halves[1],
                                            part ? hi : lo);
        vector::StoreOp::create(
            tb, loc, v, ws,
            ValueRange{fh, sp, t.add(t.mul(c8, 2 * kVec), part * kVec)},
            false, llvm::Align(16));
      }
    }
    // Input-pairs workspace: xp[n][h][j][2c + e] = x[n][h][2j + e - par][c]
    // (zero outside the row).
    Value xp;
    if (inPairs) {
      xp = memref::AllocOp::create(
          rewriter, loc, MemRefType::get({N, IH, JW, 2 * C}, et));
      int64_t total = N * IH * JW * (C / kVec);
      auto preAndBuilder = createGridLaunch(
          rewriter, loc, llvm::divideCeil(total, int64_t(256)), 1, 256);
      gpu::LaunchOp pre = preAndBuilder.first;
      OpBuilder &b0 = preAndBuilder.second;
      Emitter k{b0, loc};
      Value id = k.add(k.mul(pre.getBlockIds().x, 256), pre.getThreadIds().x);
      auto ifOp = scf::IfOp::create(b0, loc, k.lt(id, total), false);
      OpBuilder tb = ifOp.getThenBodyBuilder();
      Emitter t{tb, loc};
      Value c8 = t.rem(id, C / kVec), rest = t.div(id, C / kVec);
      Value j = t.rem(rest, JW);
      rest = t.div(rest, JW);
      Value ih = t.rem(rest, IH), nn = t.div(rest, IH);
      Value zeros = arith::ConstantOp::create(
          tb, loc, DenseElementsAttr::get(chunkTy, tb.getZeroAttr(et)));
      Value halves[2];
      for (int64_t e2 = 0; e2 < 2; ++e2) {
        Value iw = t.add(t.mul(j, 2), e2 - par);
        Value valid = t.andi(t.ge(iw, 0), t.lt(iw, IW));
        Value v = vector::LoadOp::create(
            tb, loc, chunkTy, x,
            ValueRange{nn, ih, t.select(valid, iw, t.cst(0)), t.mul(c8, kVec)},
            false, llvm::Align(16));
        halves[e2] = arith::SelectOp::create(tb, loc, valid, v, zeros);
      }
      SmallVector<int64_t> lo, hi;
      for (int64_t i = 0; i < kVec / 2; ++i) {
        lo.append({i, i + kVec});
        hi.append({i + kVec / 2, i + kVec / 2 + kVec});
      }
      for (int64_t part = 0; part < 2; ++part) {
        Value v = vector::ShuffleOp::create(tb, loc, halves[0], halves[1],
                                            part ? hi : lo);
        vector::StoreOp::create(
            tb, loc, v, xp,
            ValueRange{nn, ih, j, t.add(t.mul(c8, 2 * kVec), part * kVec)},
            false, llvm::Align(16));
      }
    }
    Value dynBytes;
    if (dynamic)
      dynBytes = arith::ConstantIntOp::create(rewriter, loc, bytes, 32);
    auto launchAndBuilder = createGridLaunch(
        rewriter, loc, gridX, gridY, threads,
        dynamic ? TypeRange{} : TypeRange{inSmemTy, zSmemTy}, dynBytes);
    gpu::LaunchOp launch = launchAndBuilder.first;
    OpBuilder &b = launchAndBuilder.second;
    Emitter e{b, loc};
    Value inSmem, zSmem;
    if (dynamic) {
      auto raw = gpu::DynamicSharedMemoryOp::create(
          b, loc,
          MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(),
                          wg));
      int64_t inBytes = inSmemTy.getNumElements() * 2;  // 16-byte multiple
      inSmem = memref::ViewOp::create(b, loc, inSmemTy, raw, e.cst(0),
                                      ValueRange{});
      zSmem = memref::ViewOp::create(b, loc, zSmemTy, raw, e.cst(inBytes),
                                     ValueRange{});
    } else {
      inSmem = launch.getWorkgroupAttributions()[0];
      zSmem = launch.getWorkgroupAttributions()[1];
    }

    // Block and thread coordinates.
    Value tid = launch.getThreadIds().x;
    Value lane = e.rem(tid, 32), warp = e.div(tid, 32);
    Value g = e.div(lane, 4), q = e.rem(lane, 4);
    Value bx = launch.getBlockIds().x;
    Value tw = e.rem(bx, tilesW), rest = e.div(bx, tilesW);
    Value th = e.rem(rest, tilesH), n = e.div(rest, tilesH);
    Value oh0 = e.mul(th, RB), ow0 = e.mul(tw, kTM * G);
    Value cb = e.mul(launch.getBlockIds().y, kBN);
    Value zero = e.cst(0);

    // The 14 zero positions of each compressed filter vector, both buffers:
    // written once, never overwritten by the copies. (Band packing: the
    // copies write every position, zero-filling the padding.)
    if (!band) {
      Value zeros = arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(chunkTy, b.getZeroAttr(et)));
      const int64_t total = 2 * 14 * fps * kChunks;
      for (int64_t i = 0; i * threads < total; ++i) {
        auto body = [&](OpBuilder &sb) {
          Emitter s{sb, loc};
          Value id = s.add(tid, i * threads);
          Value buf = s.div(id, 14 * fps * kChunks),
                r = s.rem(id, 14 * fps * kChunks);
          Value t = s.div(r, kChunks), hh = s.rem(r, kChunks);
          Value fi = s.div(t, 14);
          t = s.rem(t, 14);
          // t in [0, 14) -> position t (< 7) or t + 9 (>= 16) of vector fi.
          Value pos = s.add(s.mul(fi, kZ),
                            s.select(s.lt(t, 7), t, s.add(t, kFrag)));
          vector::StoreOp::create(sb, loc, zeros, zSmem,
                                  ValueRange{buf, pos, s.mul(hh, kVec)},
                                  false, llvm::Align(16));
        };
        if ((i + 1) * threads > total) {
          auto ifOp = scf::IfOp::create(b, loc, e.lt(e.add(tid, i * threads), total), false);
          OpBuilder sb = ifOp.getThenBodyBuilder();
          body(sb);
        } else {
          body(b);
        }
      }
    }

    // Copy i of a thread: (position, 16-byte chunk) of `id` = tid + i x
    // threads over `perPos` chunks per position; with band-copy-split as
    // tid / perPos + i x threads / perPos and tid mod perPos (the chunk and
    // the thread's part of the position are the same for every i).
    auto copySlot = [&](Emitter &c, int64_t i, int64_t perPos) {
      if (band && bandCopySplit && threads % perPos == 0)
        return std::make_pair(c.add(c.div(tid, perPos), i * (threads / perPos)),
                              c.rem(tid, perPos));
      Value id = c.add(tid, i * threads);
      return std::make_pair(c.div(id, perPos), c.rem(id, perPos));
    };

    // Stage `s` (filter row s / groups, fragments F (s % groups) ... + F-1)
    // into buffer `buf`: R input rows x (8G + 9F - 1) columns x 64
    // channels, and the 9 taps of each fragment fi into positions
    // 23 fi + 7 .. 23 fi + 15 of the compressed vectors. Out-of-range rows,
    // columns, taps and channels are zero-filled (source count 0).
    auto prefetch = [&](OpBuilder &pb, Value s, Value buf) {
      Emitter p{pb, loc};
      Value fh = p.div(s, groups), j = p.mul(p.rem(s, groups), fps);
      Value ihBase = p.add(p.add(oh0, fh), -pt);
      Value iwBase = p.add(p.add(ow0, p.mul(j, kFrag)), -pl);
      Value eight = p.cst(kVec);
      // (Row ring: the input rows are copied by copyRingRow.)
      int64_t total = ring ? 0 : P * kChunks;
      for (int64_t i = 0; i * threads < total; ++i) {
        auto body = [&](OpBuilder &cb2) {
          Emitter c{cb2, loc};
          Value id = c.add(tid, i * threads);
          Value pos = c.div(id, kChunks), hh = c.rem(id, kChunks);
          Value r = c.div(pos, RS), col = c.rem(pos, RS);
          Value ih = c.add(ihBase, r), iw = c.add(iwBase, col);
          Value ch = c.add(cb, c.mul(hh, kVec));
          Value valid = c.andi(c.andi(c.ge(ih, 0), c.lt(ih, IH)),
                               c.andi(c.ge(iw, 0), c.lt(iw, IW)));
          if (C % kBN != 0)
            valid = c.andi(valid, c.lt(ch, C));
          Value cnt = c.select(valid, eight, zero);
          nvgpu::DeviceAsyncCopyOp::create(
              cb2, loc, tokTy, inSmem,
              ValueRange{buf, pos, c.swizzled(pos, hh)}, x,
              ValueRange{n, c.select(valid, ih, zero),
                         c.select(valid, iw, zero), c.select(valid, ch, zero)},
              cb2.getIndexAttr(kVec), cnt, /*bypassL1=*/nullptr);
        };
        if ((i + 1) * threads > total) {
          auto ifOp = scf::IfOp::create(pb, loc, p.lt(p.add(tid, i * threads), total), false);
          OpBuilder cb2 = ifOp.getThenBodyBuilder();
          body(cb2);
        } else {
          body(pb);
        }
      }
      // Band packing: filter row fh into v[0 .. ZS): v[t + 7] = tap t,
      // zero-filled outside the filter.
      if (pairs) {
        // 16-byte chunks of 4 channels' pairs: ZS positions x 16 chunks.
        const int64_t ptotal = ZS * 2 * kChunks;
        for (int64_t i = 0; i * threads < ptotal; ++i) {
          auto body = [&](OpBuilder &fb) {
            Emitter c{fb, loc};
            auto [pos, hh] = copySlot(c, i, 2 * kChunks);
            Value col = c.add(c.mul(cb, 2), c.mul(hh, kVec));
            Value valid;
            if (C % kBN != 0)
              valid = c.lt(col, 2 * C);
            nvgpu::DeviceAsyncCopyOp::create(
                fb, loc, tokTy, zSmem, ValueRange{buf, pos, c.mul(hh, kVec)},
                ws,
                ValueRange{fh, pos, valid ? c.select(valid, col, zero) : col},
                fb.getIndexAttr(kVec),
                valid ? c.select(valid, eight, zero) : eight,
                /*bypassL1=*/fb.getUnitAttr());
          };
          if ((i + 1) * threads > ptotal) {
            auto ifOp = scf::IfOp::create(
                pb, loc, p.lt(p.add(tid, i * threads), ptotal), false);
            OpBuilder fb = ifOp.getThenBodyBuilder();
            body(fb);
          } else {
            body(pb);
          }
        }
        return;
      }
      if (band) {
        const int64_t vtotal = ZS * kChunks;
        for (int64_t i = 0; i * threads < vtotal; ++i) {
          auto body = [&](OpBuilder &fb) {
            Emitter c{fb, loc};
            auto [pos, hh] = copySlot(c, i, kChunks);
            Value tap = c.add(pos, -7);
            Value ch = c.add(cb, c.mul(hh, kVec));
            Value valid = c.andi(c.ge(tap, 0), c.lt(tap, FW));
            if (C % kBN != 0)
              valid = c.andi(valid, c.lt(ch, C));
            nvgpu::DeviceAsyncCopyOp::create(
                fb, loc, tokTy, zSmem, ValueRange{buf, pos, c.mul(hh, kVec)},
                w,
                ValueRange{rotate ? c.sub(FH - 1, fh) : fh,
                           c.select(valid, rotate ? c.sub(FW - 1, tap) : tap,
                                    zero),
                           c.select(valid, ch, zero)},
                fb.getIndexAttr(kVec), c.select(valid, eight, zero),
                /*bypassL1=*/fb.getUnitAttr());
          };
          if ((i + 1) * threads > vtotal) {
            auto ifOp = scf::IfOp::create(
                pb, loc, p.lt(p.add(tid, i * threads), vtotal), false);
            OpBuilder fb = ifOp.getThenBodyBuilder();
            body(fb);
          } else {
            body(pb);
          }
        }
        return;
      }
      // Filter taps: F x 9 positions x 8 chunks = 72 F copies.
      const int64_t ztotal = fps * kFrag * kChunks;
      for (int64_t i = 0; i * threads < ztotal; ++i) {
        auto ifOp = scf::IfOp::create(
            pb, loc, p.lt(p.add(tid, i * threads), ztotal), false);
        OpBuilder fb = ifOp.getThenBodyBuilder();
        Emitter c{fb, loc};
        Value id = c.add(tid, i * threads);
        Value t = c.div(id, kChunks), hh = c.rem(id, kChunks);
        Value fi = c.div(t, kFrag);
        t = c.rem(t, kFrag);
        Value tap = c.add(c.mul(c.add(j, fi), kFrag), t);
        Value ch = c.add(cb, c.mul(hh, kVec));
        Value valid;
        if (FW != groups * fps * kFrag)
          valid = c.lt(tap, FW);
        if (C % kBN != 0)
          valid = c.andi(valid, c.lt(ch, C));
        Value zpos = c.add(c.mul(fi, kZ), c.add(t, 7));
        Value cnt = valid ? c.select(valid, eight, zero) : eight;
        nvgpu::DeviceAsyncCopyOp::create(
            fb, loc, tokTy, zSmem,
            ValueRange{buf, zpos,
                       ring ? c.mul(hh, kVec) : c.swizzled(zpos, hh)},
            w,
            ValueRange{rotate ? c.sub(FH - 1, fh) : fh,
                       c.select(valid, rotate ? c.sub(FW - 1, tap) : tap, zero),
                       c.select(valid, ch, zero)},
            fb.getIndexAttr(kVec), cnt, /*bypassL1=*/fb.getUnitAttr());
      }
    };

    // Row ring: input row t (ih = oh0 + t - pt, t in [0, FH + RB - 1)) into
    // slot t mod `slots` (RB + 1, + 1 with one barrier per stage): 8G + 9
    // nfrag - 1 positions x 64 channels (RB = R without band rows).
    auto copyRingRow = [&](OpBuilder &pb, Value t) {
      Emitter p{pb, loc};
      Value ih = p.add(p.add(oh0, t), -pt);
      Value rowOk = p.andi(p.ge(ih, 0), p.lt(ih, IH));
      Value slotBase = p.mul(p.rem(t, slots), RSg);
      Value iwBase = p.add(ow0, -pl);
      Value eight = p.cst(kVec);
      if (inPairs) {
        // Pair positions j of the slot: workspace pair (ow0 - pl + par) / 2
        // + j, 16 chunks of 4 channels' pairs, chunk u at u ^ swizzle(j).
        Value slotJ = p.mul(p.rem(t, slots), JR);
        Value jBase = p.add(p.div(ow0, 2), -((pl - par) / 2));
        int64_t total = JR * 2 * kChunks;
        for (int64_t i = 0; i * threads < total; ++i) {
          auto body = [&](OpBuilder &cb2) {
            Emitter c{cb2, loc};
            auto [j, u] = copySlot(c, i, 2 * kChunks);
            Value jg = c.add(jBase, j);
            Value col = c.add(c.mul(cb, 2), c.mul(u, kVec));
            Value valid = c.andi(rowOk, c.andi(c.ge(jg, 0), c.lt(jg, JW)));
            if (C % kBN != 0)
              valid = c.andi(valid, c.lt(col, 2 * C));
            Value cnt = c.select(valid, eight, zero);
            nvgpu::DeviceAsyncCopyOp::create(
                cb2, loc, tokTy, inSmem,
                ValueRange{zero, c.add(slotJ, j),
                           c.mul(c.xori(u, c.pairSwizzle(j)), kVec)},
                xp,
                ValueRange{n, c.select(valid, ih, zero),
                           c.select(valid, jg, zero),
                           c.select(valid, col, zero)},
                cb2.getIndexAttr(kVec), cnt, /*bypassL1=*/nullptr);
          };
          if ((i + 1) * threads > total) {
            auto ifOp = scf::IfOp::create(
                pb, loc, p.lt(p.add(tid, i * threads), total), false);
            OpBuilder cb2 = ifOp.getThenBodyBuilder();
            body(cb2);
          } else {
            body(pb);
          }
        }
        return;
      }
      int64_t total = RS * kChunks;
      for (int64_t i = 0; i * threads < total; ++i) {
        auto body = [&](OpBuilder &cb2) {
          Emitter c{cb2, loc};
          auto [col, hh] = copySlot(c, i, kChunks);
          Value pos = c.add(slotBase, c.ringCol(col, band));
          Value iw = c.add(iwBase, col);
          Value ch = c.add(cb, c.mul(hh, kVec));
          Value valid = c.andi(rowOk, c.andi(c.ge(iw, 0), c.lt(iw, IW)));
          if (C % kBN != 0)
            valid = c.andi(valid, c.lt(ch, C));
          Value cnt = c.select(valid, eight, zero);
          nvgpu::DeviceAsyncCopyOp::create(
              cb2, loc, tokTy, inSmem,
              ValueRange{zero, pos, c.mul(hh, kVec)}, x,
              ValueRange{n, c.select(valid, ih, zero),
                         c.select(valid, iw, zero), c.select(valid, ch, zero)},
              cb2.getIndexAttr(kVec), cnt, /*bypassL1=*/nullptr);
        };
        if ((i + 1) * threads > total) {
          auto ifOp = scf::IfOp::create(
              pb, loc, p.lt(p.add(tid, i * threads), total), false);
          OpBuilder cb2 = ifOp.getThenBodyBuilder();
          body(cb2);
        } else {
          body(pb);
        }
      }
    };

    // Per-lane GEMV rows g and g + 8 of the mma are GEMVs m = g and g + 8
    // (band packing: m = 2g and 2g + 1): row r(m) = m / G of the tile,
    // group m % G; base position r * RS + 8 * (m % G).
    auto gemvRow = [&](Emitter &c, int64_t mi) {
      Value m = band ? c.add(c.mul(g, 2), mi) : c.add(g, 8 * mi);
      return std::make_pair(c.div(m, G), c.rem(m, G));
    };

    // Accumulators: 16 channels per warp, one vector<2x2xf32> each; the
    // bias (if any) is the initial value.
    SmallVector<Value> accInit;
    for (int64_t cg = 0; cg < wchunks; ++cg) {
      if (!bias) {
        Value z = arith::ConstantOp::create(
            b, loc, DenseElementsAttr::get(accTy, b.getF32FloatAttr(0.0f)));
        accInit.append(kVec, z);
        continue;
      }
      Value ch = e.add(cb, e.mul(e.add(e.mul(warp, wchunks), cg), kVec));
      if (C % kBN != 0)
        ch = e.select(e.lt(ch, C), ch, zero);
      Value bv = vector::LoadOp::create(b, loc, chunkTy, bias, ValueRange{ch},
                                        false, llvm::Align(16));
      bv = arith::ExtFOp::create(
          b, loc, VectorType::get({kVec}, b.getF32Type()), bv);
      for (int64_t k = 0; k < kVec; ++k) {
        Value s = vector::ExtractOp::create(b, loc, bv, ArrayRef<int64_t>{k});
        accInit.push_back(vector::BroadcastOp::create(b, loc, accTy, s));
      }
    }
    // Band rows: tile t's accumulators at t x wchunks x 8 + (same init).
    {
      SmallVector<Value> tile0(accInit);
      for (int64_t t = 1; t < T; ++t)
        accInit.append(tile0.begin(), tile0.end());
    }

    if (ring) {
      // Input rows 0 .. RB-1; prefetch adds filter row 0 to the group.
      for (int64_t t = 0; t < RB; ++t)
        copyRingRow(b, e.cst(t));
    }
    prefetch(b, zero, zero);
    auto firstGroup =
        nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokTy, ValueRange{});
    // Blocks per SM wanted (dwc-kernel-occupancy turns the marker into
    // nvvm.minctasm on the outlined kernel).
    if (minBlocksPerSm > 0)
      firstGroup->setAttr("dwc.min_blocks_per_sm",
                          b.getI64IntegerAttr(minBlocksPerSm));

    auto loop = scf::ForOp::create(
        b, loc, zero, e.cst(S), one, accInit,
        [&](OpBuilder &lb, Location, Value s, ValueRange accs) {
          Emitter l{lb, loc};
          Value buf = l.rem(s, zbufs);
          Value next = l.add(s, 1);
          if (S > 1) {
            auto ifNext = scf::IfOp::create(lb, loc, l.lt(next, S), false);
            OpBuilder nb = ifNext.getThenBodyBuilder();
            Emitter ne{nb, loc};
            if (ring)
              copyRingRow(nb, ne.add(s, RB));
            prefetch(nb, next,
                     zbufs == 2 ? ne.sub(ne.cst(1), buf) : ne.rem(next, zbufs));
          }
          Value tok = nvgpu::DeviceAsyncCreateGroupOp::create(lb, loc, tokTy,
                                                              ValueRange{});
          nvgpu::DeviceAsyncWaitOp::create(lb, loc, tok, lb.getI32IntegerAttr(1));
          gpu::BarrierOp::create(lb, loc);

          // One fragment's products: per 8-channel chunk, 8 A and 4 B loads
          // of 16 bytes, then 8 mma.sync. `fa` / `fz`: the fragment's
          // offsets in the input rows (9 fi) and the compressed vectors
          // (23 fi).
          auto emitFragment = [&](OpBuilder &fb, Value fa, Value fz,
                                  SmallVector<Value> &acc) {
            Emitter l{fb, loc};
            // A rows g, g+8; columns k = 2q, 2q+1, 2q+8, 2q+9.
            static constexpr int64_t kOff[4] = {0, 1, 8, 9};
            // Shared positions of the 8 A loads (both chunks use them).
            Value aPos[2][4];
            for (int64_t mi = 0; mi < 2; ++mi) {
              auto [r, gi] = gemvRow(l, mi);
              Value col = l.add(l.add(l.mul(gi, kTM), l.mul(q, 2)), fa);
              if (!ring) {
                Value base = l.add(l.mul(r, RS), col);
                for (int64_t kk = 0; kk < 4; ++kk)
                  aPos[mi][kk] = l.add(base, kOff[kk]);
                continue;
              }
              // Ring: GEMV row r reads input row s + r, in its slot.
              Value slotBase = l.mul(l.rem(l.add(s, r), R + 1), RSg);
              for (int64_t kk = 0; kk < 4; ++kk)
                aPos[mi][kk] =
                    l.add(slotBase, l.ringCol(l.add(col, kOff[kk])));
            }
            for (int64_t cg = 0; cg < wchunks; ++cg) {
              Value hh = l.add(l.mul(warp, wchunks), cg);
              auto load = [&](Value mem, Value row) -> Value {
                bool ringIn = ring && mem == inSmem;
                return vector::LoadOp::create(
                    fb, loc, chunkTy, mem,
                    ValueRange{ringIn ? zero : buf, row,
                               ring ? l.mul(hh, kVec) : l.swizzled(row, hh)},
                    false, llvm::Align(16));
              };
              Value va[2][4];
              for (int64_t mi = 0; mi < 2; ++mi)
                for (int64_t kk = 0; kk < 4; ++kk)
                  va[mi][kk] = load(inSmem, aPos[mi][kk]);
              // B[k][i] = z[k - i + 7] at k = 2q, 2q+1, 2q+8, 2q+9, i = g.
              Value vb[4];
              Value zbase = l.add(l.add(l.sub(l.mul(q, 2), g), 7), fz);
              for (int64_t kk = 0; kk < 4; ++kk)
                vb[kk] = load(zSmem, l.add(zbase, kOff[kk]));
              for (int64_t k = 0; k < kVec; ++k) {
                auto ex = [&](Value v) {
                  return vector::ExtractOp::create(fb, loc, v,
                                                   ArrayRef<int64_t>{k})
                      .getResult();
                };
                SmallVector<Value> aS = {ex(va[0][0]), ex(va[0][1]),
                                         ex(va[1][0]), ex(va[1][1]),
                                         ex(va[0][2]), ex(va[0][3]),
                                         ex(va[1][2]), ex(va[1][3])};
                SmallVector<Value> bS = {ex(vb[0]), ex(vb[1]), ex(vb[2]),
                                         ex(vb[3])};
                Value &cacc = acc[cg * kVec + k];
                cacc = emitMma(fb, loc, aS, bS, cacc);
              }
            }
          };
          // Band packing: slice p of GEMV pair (2g, 2g + 1) reads input
          // blocks 2p, 2p + 1 (row 2g) and 2p + 1, 2p + 2 (row 2g + 1),
          // relative to group 2g. A lane's block b register (columns 2q,
          // 2q + 1 of block b, one channel) is packed once from two
          // 16-byte loads (8 channels) and used by both rows; block 2p + 2
          // is carried into slice p + 1 as its block 2p. The slices run in
          // an scf.for (iter_args: accumulators and the carried block) or,
          // with band-unroll, unrolled with constant offsets.
          // Band rows (T > 1): tile t of the warp is output rows t R ..
          // t R + R - 1 of the block (input rows s + t R + r); the B
          // registers of a slice are loaded once for the T tiles, each tile
          // has its own accumulators (index (t wchunks + cg) 8 + k) and
          // carried block registers.
          auto emitBand = [&](OpBuilder &bb, Value s, SmallVector<Value> &acc) {
            Emitter l{bb, loc};
            auto pairTy = VectorType::get({2}, et);
            Value m0 = l.mul(g, 2);
            Value r = l.div(m0, G), gi0 = l.rem(m0, G);
            // Block b of the lane: column 8 (gi0 + b) + 2q at position
            // base + 8b + b / 2 (gi0 is even: one gap per 2 blocks); with
            // input pairs at pair position 4 (gi0 + b) + q of the slot.
            SmallVector<Value> laneBase, laneJ;
            for (int64_t t = 0; t < T; ++t) {
              Value slotBase =
                  l.mul(l.rem(l.add(s, l.add(r, t * R)), slots), RSg);
              laneBase.push_back(l.add(
                  slotBase, l.add(l.add(l.mul(gi0, kTM), l.div(gi0, 2)),
                                  l.mul(q, 2))));
              laneJ.push_back(l.add(slotBase, l.add(l.mul(gi0, 4), q)));
            }
            Value zLane = l.add(l.sub(l.mul(q, 2), g), 7);
            auto ld = [&](OpBuilder &fb, Value mem, Value bufIdx, Value pos,
                          int64_t cg) -> Value {
              Emitter c{fb, loc};
              Value hh = c.add(c.mul(warp, wchunks), cg);
              return vector::LoadOp::create(
                  fb, loc, chunkTy, mem, ValueRange{bufIdx, pos, c.mul(hh, kVec)},
                  false, llvm::Align(16));
            };
            auto ex = [&](OpBuilder &fb, Value v, int64_t k) {
              return vector::ExtractOp::create(fb, loc, v, ArrayRef<int64_t>{k})
                  .getResult();
            };
            // The 8 channels' registers of block `blk` (columns 2q, 2q + 1)
            // of tile `t`.
            auto blockPacks = [&](OpBuilder &fb, int64_t t, Value blk,
                                  int64_t cg, SmallVector<Value> &out) {
              Emitter c{fb, loc};
              if (inPairs) {
                // Two 16-byte loads of 4 channels' pairs each; a pair is
                // the register as is.
                // pairSwizzle(4 (gi0 + b) + q) with gi0 even:
                // q + 4 ((gi0 / 2 + b / 2) mod 2).
                Value sw = c.add(
                    q, c.mul(c.rem(c.add(c.div(gi0, 2), c.div(blk, 2)), 2), 4));
                Value hh = c.add(c.mul(warp, wchunks), cg);
                for (int64_t e2 = 0; e2 < 2; ++e2) {
                  Value u = c.add(c.mul(hh, 2), e2);
                  Value v = vector::LoadOp::create(
                      fb, loc, chunkTy, inSmem,
                      ValueRange{zero, c.add(laneJ[t], c.mul(blk, 4)),
                                 c.mul(c.xori(u, sw), kVec)},
                      false, llvm::Align(16));
                  for (int64_t i = 0; i < kVec / 2; ++i)
                    out.push_back(vector::ShuffleOp::create(
                        fb, loc, v, v, ArrayRef<int64_t>{2 * i, 2 * i + 1}));
                }
                return;
              }
              Value pos =
                  c.add(laneBase[t], c.add(c.mul(blk, 8), c.div(blk, 2)));
              Value v0 = ld(fb, inSmem, zero, pos, cg);
              Value v1 = ld(fb, inSmem, zero, c.add(pos, 1), cg);
              for (int64_t k = 0; k < kVec; ++k)
                out.push_back(vector::FromElementsOp::create(
                    fb, loc, pairTy, ValueRange{ex(fb, v0, k), ex(fb, v1, k)}));
            };
            SmallVector<Value> init(acc);
            for (int64_t t = 0; t < T; ++t)
              for (int64_t cg = 0; cg < wchunks; ++cg)
                blockPacks(bb, t, zero, cg, init);
            // Slice p: accumulators and carried block registers in `args`,
            // the same out.
            auto slice = [&](OpBuilder &fb, Value p, ValueRange args,
                             SmallVector<Value> &a) {
                  Emitter c{fb, loc};
                  a.assign(args.begin(), args.begin() + nAcc);
                  SmallVector<Value> carried(nAcc);
                  Value zb = c.add(zLane, c.mul(p, 16));
                  for (int64_t cg = 0; cg < wchunks; ++cg) {
                    // Tile 0's blocks 2p + 1, 2p + 2 first (the order of
                    // the single-tile kernel), then B, shared by the tiles.
                    SmallVector<Value> b1s[4], b2s[4];
                    blockPacks(fb, 0, c.add(c.mul(p, 2), 1), cg, b1s[0]);
                    blockPacks(fb, 0, c.add(c.mul(p, 2), 2), cg, b2s[0]);
                    // B: v[zb], v[zb + 1] (b0, b1) and v[zb + 8], v[zb + 9]
                    // (b2, b3): 4 loads of 8 channels each, or with filter
                    // pairs 4 loads of 4 channels' pairs; shared by the T
                    // tiles.
                    Value vb[4];
                    static constexpr int64_t kOff[4] = {0, 1, 8, 9};
                    Value hhB = c.add(c.mul(warp, wchunks), cg);
                    for (int64_t kk = 0; kk < 4; ++kk) {
                      if (!pairs) {
                        vb[kk] = ld(fb, zSmem, buf, c.add(zb, kOff[kk]), cg);
                        continue;
                      }
                      // kk: pair position zb + 8 (kk / 2), channels
                      // 4 (kk % 2) .. + 3 of the chunk.
                      vb[kk] = vector::LoadOp::create(
                          fb, loc, chunkTy, zSmem,
                          ValueRange{buf, c.add(zb, 8 * (kk / 2)),
                                     c.add(c.mul(hhB, 2 * kVec),
                                           (kk % 2) * kVec)},
                          false, llvm::Align(16));
                    }
                    for (int64_t t = 0; t < T; ++t) {
                      SmallVector<Value> &b1 = b1s[t], &b2 = b2s[t];
                      if (t > 0) {
                        blockPacks(fb, t, c.add(c.mul(p, 2), 1), cg, b1);
                        blockPacks(fb, t, c.add(c.mul(p, 2), 2), cg, b2);
                      }
                      int64_t base = (t * wchunks + cg) * kVec;
                      for (int64_t k = 0; k < kVec; ++k) {
                        Value b0 = args[nAcc + base + k];
                        SmallVector<Value> aS = {
                            ex(fb, b0, 0),    ex(fb, b0, 1),
                            ex(fb, b1[k], 0), ex(fb, b1[k], 1),
                            ex(fb, b1[k], 0), ex(fb, b1[k], 1),
                            ex(fb, b2[k], 0), ex(fb, b2[k], 1)};
                        SmallVector<Value> bS;
                        if (!pairs) {
                          bS = {ex(fb, vb[0], k), ex(fb, vb[1], k),
                                ex(fb, vb[2], k), ex(fb, vb[3], k)};
                        } else {
                          int64_t j = 2 * (k % 4);
                          Value lo = vb[k / 4], hi = vb[2 + k / 4];
                          bS = {ex(fb, lo, j), ex(fb, lo, j + 1),
                                ex(fb, hi, j), ex(fb, hi, j + 1)};
                        }
                        Value &cacc = a[base + k];
                        cacc = emitMma(fb, loc, aS, bS, cacc);
                        carried[base + k] = b2[k];
                      }
                    }
                  }
                  a.append(carried.begin(), carried.end());
            };
            if (bandUnroll && nband <= 8) {
              // Unrolled: constant slice offsets (immediate addresses).
              SmallVector<Value> cur(init);
              for (int64_t p = 0; p < nband; ++p) {
                SmallVector<Value> next;
                slice(bb, l.cst(p), cur, next);
                cur = std::move(next);
              }
              for (int64_t i = 0; i < nAcc; ++i)
                acc[i] = cur[i];
              return;
            }
            auto sliceLoop = scf::ForOp::create(
                bb, loc, zero, l.cst(nband), one, init,
                [&](OpBuilder &fb, Location, Value p, ValueRange args) {
                  SmallVector<Value> a;
                  slice(fb, p, args, a);
                  scf::YieldOp::create(fb, loc, a);
                });
            for (int64_t i = 0; i < nAcc; ++i)
              acc[i] = sliceLoop.getResult(i);
          };
          SmallVector<Value> acc(accs);
          if (band) {
            emitBand(lb, s, acc);
          } else if (ring && fps > 1) {
            // Row ring: the fragments of the row in a loop (unrolled, the
            // hoisted loads of all fragments would exceed 255 registers).
            auto fragLoop = scf::ForOp::create(
                lb, loc, zero, l.cst(fps), one, acc,
                [&](OpBuilder &fb, Location, Value fi, ValueRange fAccs) {
                  Emitter fl{fb, loc};
                  SmallVector<Value> a(fAccs);
                  emitFragment(fb, fl.mul(fi, kFrag), fl.mul(fi, kZ), a);
                  scf::YieldOp::create(fb, loc, a);
                });
            acc.assign(fragLoop.getResults().begin(),
                       fragLoop.getResults().end());
          } else {
            for (int64_t fi = 0; fi < fps; ++fi)
              emitFragment(lb, l.cst(fi * kFrag), l.cst(fi * kZ), acc);
          }
          // Everyone is done with `buf` before iteration s + 1 refills it
          // (one barrier per stage: iteration s + 1 refills what stage
          // s - 1 read, and every thread is past that when it passes the
          // barrier of stage s).
          if (!oneBarrier)
            gpu::BarrierOp::create(lb, loc);
          scf::YieldOp::create(lb, loc, acc);
        });

    // Epilogue: lane holds D[g][2q + e], D[g + 8][2q + e] of 8 channels per
    // chunk: one 16-byte store of 8 channels per output position.
    auto outVecTy = VectorType::get({kVec}, b.getF32Type());
    // Band rows: tile t's outputs are rows t R + r of the block.
    for (int64_t tc = 0; tc < T * wchunks; ++tc) {
      int64_t t = tc / wchunks, cg = tc % wchunks;
      Value ch = e.add(cb, e.mul(e.add(e.mul(warp, wchunks), cg), kVec));
      for (int64_t mi = 0; mi < 2; ++mi) {
        auto [r, gi] = gemvRow(e, mi);
        Value oh = e.add(oh0, e.add(r, t * R));
        for (int64_t el = 0; el < 2; ++el) {
          Value ow = e.add(e.add(ow0, e.mul(gi, kTM)), e.add(e.mul(q, 2), el));
          SmallVector<Value> vals;
          for (int64_t k = 0; k < kVec; ++k)
            vals.push_back(vector::ExtractOp::create(
                b, loc, loop.getResult(tc * kVec + k),
                ArrayRef<int64_t>{mi, el}));
          Value v = vector::FromElementsOp::create(b, loc, outVecTy, vals);
          v = arith::TruncFOp::create(b, loc, chunkTy, v);
          Value ok;
          if (OH % RB != 0)
            ok = e.lt(oh, OH);
          if (OW % (kTM * G) != 0)
            ok = e.andi(ok, e.lt(ow, OW));
          if (C % kBN != 0)
            ok = e.andi(ok, e.lt(ch, C));
          auto store = [&](OpBuilder &sb) {
            vector::StoreOp::create(sb, loc, v, y, ValueRange{n, oh, ow, ch},
                                    false, llvm::Align(16));
          };
          if (ok) {
            auto ifOp = scf::IfOp::create(b, loc, ok, false);
            OpBuilder sb = ifOp.getThenBodyBuilder();
            store(sb);
          } else {
            store(b);
          }
        }
      }
    }
    rewriter.setInsertionPointAfter(launch);
    for (Value buf : {ws, xp})
      if (buf)
        memref::DeallocOp::create(rewriter, loc, buf);
    rewriter.eraseOp(op);
    return success();
  }
};

struct ConvertDwcToGPUMmaPass
    : dwc::impl::ConvertDwcToGPUMmaBase<ConvertDwcToGPUMmaPass> {
  using Base::Base;
  void runOnOperation() override {
    if (warpChannels != 8 && warpChannels != 16) {
      getOperation().emitError()
          << "convert-dwc-to-gpu-mma: warp-channels must be 8 or 16, got "
          << static_cast<int64_t>(warpChannels);
      return signalPassFailure();
    }
    if (bandRows != 1 && bandRows != 2 && bandRows != 4) {
      getOperation().emitError()
          << "convert-dwc-to-gpu-mma: band-rows must be 1, 2 or 4, got "
          << static_cast<int64_t>(bandRows);
      return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    patterns.add<MmaDepthwiseLowering<DepthwiseConv2DOp>,
                 MmaDepthwiseLowering<DepthwiseConv2DBackwardDataOp>>(
        &getContext(), minFilterWidth, fragsPerStage, maxSmemKb * 1024,
        rowRing, bandPacking, bandFilterPairs, bandInputPairs, bandUnroll,
        bandCopySplit, bandRows, bandOneBarrier, bandAuto, warpChannels,
        minBlocksPerSm,
        dwc::TargetAttr::lookup(getOperation()).getSharedMemoryPerBlock());
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
