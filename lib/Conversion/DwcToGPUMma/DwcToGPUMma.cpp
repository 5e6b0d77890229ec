//===- DwcToGPUMma.cpp - f16/bf16 depthwise conv on tensor cores ----------===//
//
// Lowers the depthwise convolutions (memref form) configured
// #dwc.mma_band or #dwc.mma_ring to the Flash-DWC tensor-core kernels:
// GEMV->GEMM packing of 16 GEMVs x 8 outputs x one width-9 filter fragment
// into one m16n8k16 nvgpu.mma.sync per channel (f32 accumulators),
// compressed 23-element filter vectors, input and filter tiles staged in
// swizzled shared memory by cp.async (zero-fill padding), double-buffered
// over the FH x ceil(FW/9) fragments (mma_ring). Stride-1 backward-data ops
// take the same kernel on the 180-degree rotated filter (rotation fused into
// the filter copies, transposed padding).
// mma_band: K = 16 slices of each filter row's Toeplitz band instead of
// width-9 fragments, mma rows on adjacent output groups sharing the lanes'
// block registers; optional workspaces of filter / input pairs written by a
// first kernel; band rows (T spatial tiles per warp sharing the B
// registers, T R rows and T R + 1 ring slots per block), one barrier per
// stage (one more slot, a third filter buffer). The layout (Configs/Mma.h)
// is shared with the configurations' verifier and dwc-select-kernels; its
// index math is mirrored by test/Conversion/DwcToGPUMma/Inputs/
// {band,packing}_model.py. See the pass description in
// include/dwc/Conversion/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/KernelPass.h"
#include "dwc/Conversion/AsyncCopyPipeline.h"
#include "dwc/Conversion/CooperativeCopy.h"
#include "dwc/Conversion/DepthwiseProblem.h"
#include "dwc/Conversion/IndexEmitter.h"
#include "dwc/Conversion/KernelSelection.h"
#include "dwc/Conversion/LaunchBuilder.h"
#include "dwc/Conversion/MmaEmitter.h"
#include "dwc/Conversion/Passes.h"
#include "dwc/Conversion/SharedMemoryPlan.h"
#include "dwc/Conversion/Swizzle.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_CONVERTDWCTOGPUMMA
#include "dwc/Conversion/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;
using namespace mlir::dwc;
using namespace mlir::dwc::mma;

namespace {

struct Emitter : IndexEmitter {
  using IndexEmitter::IndexEmitter;
  /// Element offset of 16-byte chunk `h` of shared row `row` (the 128-byte
  /// swizzle of Swizzle.h: conflict-free cp.async writes, spread fragment
  /// reads).
  Value swizzled(Value row, Value h) {
    static_assert(kChunks == kSwizzleRows, "a row is one swizzle period");
    return mul(SwizzledRow(*this, row).at(h), kVec);
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

/// Stores the pairs of two chunks of 8 channels, (h0[c], h1[c]) for c in
/// 0..7, as two chunks (channels 0-3, 4-7) at `index(part)`.
using IndexFn = llvm::function_ref<SmallVector<Value>(int64_t)>;
void storeInterleavedPairs(OpBuilder &b, Location loc, Value h0, Value h1,
                           Value mem, IndexFn index) {
  SmallVector<int64_t> lo, hi;
  for (int64_t i = 0; i < kVec / 2; ++i) {
    lo.append({i, i + kVec});
    hi.append({i + kVec / 2, i + kVec / 2 + kVec});
  }
  for (int64_t part = 0; part < 2; ++part) {
    Value v = vector::ShuffleOp::create(b, loc, h0, h1, part ? hi : lo);
    vector::StoreOp::create(b, loc, v, mem, index(part), false,
                            llvm::Align(16));
  }
}

/// Band rows: the lane's positions in the ring (one entry per tile t) and
/// its group pair.
struct BandLane {
  Value r, gi0, zLane;
  SmallVector<Value> laneBase, laneJ;
};

/// The kernel of one convolution: the plan, the operands and the values of
/// the launch every part of the kernel reads.
struct MmaKernel {
  const MmaShape &s;
  const MmaPlan &p;
  const DepthwiseProblem &prob;
  Location loc;
  Type et;
  bool band, ring, pairs, inPairs, oneBarrier;
  VectorType chunkTy, accTy;
  Type tokTy;
  MemRefType inSmemTy, zSmemTy;
  Value one, ws, xp;
  // In the launch.
  gpu::LaunchOp launch;
  Value tid, lane, warp, g, q, n, oh0, ow0, cb, zero, inSmem, zSmem;

  MmaKernel(const MmaShape &s, const MmaPlan &p, const DepthwiseProblem &prob,
            Location loc, MLIRContext *ctx);

  // Workspaces (first kernels).
  void emitFilterPairsWorkspace(RewriterBase &rewriter);
  void emitInputPairsWorkspace(RewriterBase &rewriter);
  // The kernel.
  void emitLaunch(RewriterBase &rewriter, int64_t bytes);
  void emitBlockCoordinates(OpBuilder &b);
  void zeroCompressedPads(OpBuilder &b);
  std::pair<Value, Value> copySlot(Emitter &c, int64_t i, int64_t perPos);
  void prefetch(OpBuilder &pb, Value stage, Value buf);
  void copyInputTile(OpBuilder &pb, Value buf, Value ihBase, Value iwBase,
                     Value eight);
  void copyFilterPairs(OpBuilder &pb, Value fh, Value buf, Value eight);
  void copyBandFilter(OpBuilder &pb, Value fh, Value buf, Value eight);
  void copyFragmentTaps(OpBuilder &pb, Value fh, Value j, Value buf,
                        Value eight);
  void copyRingRow(OpBuilder &pb, Value t);
  void copyPairRow(OpBuilder &pb, Value t, Value ih, Value rowOk, Value eight);
  void copyInputChunk(OpBuilder &ob, Emitter &c,
                      function_ref<SmallVector<Value>()> dst, Value src,
                      Value row, Value column, Value channel,
                      int64_t channels, Value valid, Value eight);
  std::pair<Value, Value> gemvRow(Emitter &c, int64_t mi);
  SmallVector<Value> initAccumulators(OpBuilder &b);
  scf::ForOp emitStageLoop(OpBuilder &b, SmallVector<Value> accInit);
  void emitStage(OpBuilder &lb, Value stage, ValueRange accs);
  void emitFragment(OpBuilder &fb, Value stage, Value buf, Value fa, Value fz,
                    SmallVector<Value> &acc);
  void emitFragmentProducts(OpBuilder &fb, Value buf, Value aPos[2][4],
                            Value fz, int64_t cg, SmallVector<Value> &acc);
  // Band packing.
  void emitBand(OpBuilder &bb, Value stage, Value buf, SmallVector<Value> &acc);
  BandLane bandLane(OpBuilder &bb, Value stage);
  Value loadChunk(OpBuilder &fb, Value mem, Value bufIdx, Value pos,
                  int64_t cg);
  void blockPacks(OpBuilder &fb, const BandLane &bl, int64_t t, Value blk,
                  int64_t cg, SmallVector<Value> &out);
  void loadBandB(OpBuilder &fb, Value buf, Value zb, int64_t cg, Value vb[4]);
  void bandSlice(OpBuilder &fb, const BandLane &bl, Value buf, Value slice,
                 ValueRange args, SmallVector<Value> &a);
  void bandSliceTile(OpBuilder &fb, int64_t base, ValueRange args,
                     ArrayRef<Value> b1, ArrayRef<Value> b2, Value vb[4],
                     SmallVector<Value> &a, SmallVector<Value> &carried);
  void emitEpilogue(OpBuilder &b, scf::ForOp loop);
};

MmaKernel::MmaKernel(const MmaShape &s, const MmaPlan &p,
                     const DepthwiseProblem &prob, Location loc,
                     MLIRContext *ctx)
    : s(s), p(p), prob(prob), loc(loc),
      et(cast<MemRefType>(prob.x.getType()).getElementType()),
      band(p.c.band), ring(p.c.band || p.c.ring),
      pairs(p.c.band && p.c.filterPairs),
      inPairs(p.c.band && p.c.inputPairs),
      oneBarrier(p.c.band && p.c.oneBarrier) {
  auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  inSmemTy =
      inPairs ? MemRefType::get({1, p.slots * p.JR, 2 * kBN}, et, AffineMap(),
                                wg)
      : ring  ? MemRefType::get({1, p.slots * p.RSg, kRingPitch}, et,
                                AffineMap(), wg)
              : MemRefType::get({2, p.P, kBN}, et, AffineMap(), wg);
  zSmemTy = MemRefType::get(
      {p.zbufs, p.ZS, pairs ? kPairPitch : ring ? kRingPitch : kBN}, et,
      AffineMap(), wg);
  chunkTy = VectorType::get({kVec}, et);
  accTy = VectorType::get({2, 2}, Float32Type::get(ctx));
  tokTy = nvgpu::DeviceAsyncTokenType::get(ctx);
}

/// A workspace kernel of `total` threads, `threads` a block, named
/// `<func>_mma_band_<role>`: a builder inside the guard id < total and the
/// thread's id.
std::pair<OpBuilder, Value> workspaceLaunch(RewriterBase &rewriter,
                                            Location loc, int64_t total,
                                            int64_t threads, StringRef role) {
  auto [pre, b0] = createGridLaunch(
      rewriter, loc, llvm::divideCeil(total, threads), 1, threads);
  nameKernel(pre, MmaBandKernelAttr::getMnemonic(), role);
  Emitter k{b0, loc};
  Value id =
      k.add(k.mul(pre.getBlockIds().x, threads), pre.getThreadIds().x);
  auto ifOp = scf::IfOp::create(b0, loc, k.lt(id, total), false);
  return {ifOp.getThenBodyBuilder(), id};
}

/// Filter-pairs workspace: ws[fh][s][2c + e] = v_fh[s + e][c] (v_fh: the
/// zero-padded filter row, v[t + 7] = tap t; backward data: rotated).
void MmaKernel::emitFilterPairsWorkspace(RewriterBase &rewriter) {
  const int64_t FH = s.FH, FW = s.FW, C = s.C, ZP = p.ZS;
  const bool rotate = prob.rotateFilter;
  ws = memref::AllocOp::create(rewriter, loc,
                               MemRefType::get({FH, ZP, 2 * C}, et));
  auto [tb, id] = workspaceLaunch(rewriter, loc, FH * ZP * (C / kVec),
                                  /*threads=*/128, "filter_pairs");
  Emitter t{tb, loc};
  Value c8 = t.rem(id, C / kVec), rest = t.div(id, C / kVec);
  Value sp = t.rem(rest, ZP), fh = t.div(rest, ZP);
  Value zeros = arith::ConstantOp::create(
      tb, loc, DenseElementsAttr::get(chunkTy, tb.getZeroAttr(et)));
  Value halves[2];
  for (int64_t e2 = 0; e2 < 2; ++e2) {
    Value tap = t.add(sp, e2 - 7);
    Value valid = t.andi(t.ge(tap, 0), t.lt(tap, FW));
    Value src = t.select(valid, rotate ? t.sub(FW - 1, tap) : tap, t.cst(0));
    Value v = vector::LoadOp::create(
        tb, loc, chunkTy, prob.w,
        ValueRange{rotate ? t.sub(FH - 1, fh) : fh, src, t.mul(c8, kVec)},
        false, llvm::Align(16));
    halves[e2] = arith::SelectOp::create(tb, loc, valid, v, zeros);
  }
  storeInterleavedPairs(tb, loc, halves[0], halves[1], ws, [&](int64_t part) {
    return SmallVector<Value>{fh, sp,
                              t.add(t.mul(c8, 2 * kVec), part * kVec)};
  });
}

/// Input-pairs workspace: xp[n][h][j][2c + e] = x[n][h][2j + e - par][c]
/// (zero outside the row).
void MmaKernel::emitInputPairsWorkspace(RewriterBase &rewriter) {
  const int64_t N = s.N, IH = s.IH, IW = s.IW, C = s.C, JW = p.JW,
                par = p.par;
  xp = memref::AllocOp::create(rewriter, loc,
                               MemRefType::get({N, IH, JW, 2 * C}, et));
  auto [tb, id] = workspaceLaunch(rewriter, loc, N * IH * JW * (C / kVec),
                                  /*threads=*/256, "input_pairs");
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
        tb, loc, chunkTy, prob.x,
        ValueRange{nn, ih, t.select(valid, iw, t.cst(0)), t.mul(c8, kVec)},
        false, llvm::Align(16));
    halves[e2] = arith::SelectOp::create(tb, loc, valid, v, zeros);
  }
  storeInterleavedPairs(tb, loc, halves[0], halves[1], xp, [&](int64_t part) {
    return SmallVector<Value>{nn, ih, j,
                              t.add(t.mul(c8, 2 * kVec), part * kVec)};
  });
}

/// The kernel's launch (tiles over 48 KB take dynamic shared memory, the
/// runtime raises the kernel's limit at launch; smaller ones are static
/// attributions) and its shared buffers.
void MmaKernel::emitLaunch(RewriterBase &rewriter, int64_t bytes) {
  bool dynamic = bytes > kStaticSmemBytes;
  Value dynBytes;
  if (dynamic)
    dynBytes = arith::ConstantIntOp::create(rewriter, loc, bytes, 32);
  auto launchAndBuilder = createGridLaunch(
      rewriter, loc, p.gridX, p.gridY, p.threads,
      dynamic ? TypeRange{} : TypeRange{inSmemTy, zSmemTy}, dynBytes);
  launch = launchAndBuilder.first;
  nameKernel(launch, band ? MmaBandKernelAttr::getMnemonic()
                          : MmaRingKernelAttr::getMnemonic());
  OpBuilder &b = launchAndBuilder.second;
  Emitter e{b, loc};
  if (dynamic) {
    SharedMemoryPlan smem;
    smem.add("input", inSmemTy.getNumElements() * 2);
    smem.add("filter", zSmemTy.getNumElements() * 2);
    assert(smem.totalBytes() <= bytes && "the launch holds the buffers");
    Value raw = dynamicSharedBuffer(b, loc);
    inSmem = viewRegion(b, loc, raw, smem, "input", inSmemTy);
    zSmem = viewRegion(b, loc, raw, smem, "filter", zSmemTy);
  } else {
    inSmem = launch.getWorkgroupAttributions()[0];
    zSmem = launch.getWorkgroupAttributions()[1];
  }
  emitBlockCoordinates(b);
  // The 14 zero positions of each compressed filter vector, both buffers:
  // written once, never overwritten by the copies. (Band packing: the
  // copies write every position, zero-filling the padding.)
  if (!band)
    zeroCompressedPads(b);
  SmallVector<Value> accInit = initAccumulators(b);
  if (ring) {
    // Input rows 0 .. RB-1; prefetch adds filter row 0 to the group.
    for (int64_t t = 0; t < p.RB; ++t)
      copyRingRow(b, e.cst(t));
  }
  prefetch(b, zero, zero);
  Operation *firstGroup = commitCopyGroup(b, loc).getDefiningOp();
  // Blocks per SM wanted (dwc-kernel-occupancy turns the marker into
  // nvvm.minctasm on the outlined kernel).
  if (p.c.minBlocksPerSm > 0)
    firstGroup->setAttr("dwc.min_blocks_per_sm",
                        b.getI64IntegerAttr(p.c.minBlocksPerSm));
  scf::ForOp loop = emitStageLoop(b, std::move(accInit));
  emitEpilogue(b, loop);
}

/// Block and thread coordinates.
void MmaKernel::emitBlockCoordinates(OpBuilder &b) {
  Emitter e{b, loc};
  tid = launch.getThreadIds().x;
  lane = e.rem(tid, 32), warp = e.div(tid, 32);
  g = e.div(lane, 4), q = e.rem(lane, 4);
  Value bx = launch.getBlockIds().x;
  Value tw = e.rem(bx, p.tilesW), rest = e.div(bx, p.tilesW);
  Value th = e.rem(rest, p.tilesH);
  n = e.div(rest, p.tilesH);
  oh0 = e.mul(th, p.RB), ow0 = e.mul(tw, kTM * p.G);
  cb = e.mul(launch.getBlockIds().y, kBN);
  zero = e.cst(0);
}

void MmaKernel::zeroCompressedPads(OpBuilder &b) {
  const int64_t fps = p.fps;
  Value zeros = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(chunkTy, b.getZeroAttr(et)));
  const int64_t total = 2 * 14 * fps * kChunks;
  emitCooperativeRounds(b, loc, tid, p.threads, total,
                        [&](OpBuilder &sb, int64_t i) {
    Emitter s{sb, loc};
    Value id = s.add(tid, i * p.threads);
    Value buf = s.div(id, 14 * fps * kChunks),
          r = s.rem(id, 14 * fps * kChunks);
    Value t = s.div(r, kChunks), hh = s.rem(r, kChunks);
    Value fi = s.div(t, 14);
    t = s.rem(t, 14);
    // t in [0, 14) -> position t (< 7) or t + 9 (>= 16) of vector fi.
    Value pos = s.add(s.mul(fi, kZ),
                      s.select(s.lt(t, 7), t, s.add(t, kFrag)));
    vector::StoreOp::create(sb, loc, zeros, zSmem,
                            ValueRange{buf, pos, s.mul(hh, kVec)}, false,
                            llvm::Align(16));
  });
}

/// Copy i of a thread: (position, 16-byte chunk) of `id` = tid + i x
/// threads over `perPos` chunks per position; with copy_split as
/// tid / perPos + i x threads / perPos and tid mod perPos (the chunk and
/// the thread's part of the position are the same for every i).
std::pair<Value, Value> MmaKernel::copySlot(Emitter &c, int64_t i,
                                            int64_t perPos) {
  if (band && p.c.copySplit && p.threads % perPos == 0)
    return std::make_pair(c.add(c.div(tid, perPos), i * (p.threads / perPos)),
                          c.rem(tid, perPos));
  Value id = c.add(tid, i * p.threads);
  return std::make_pair(c.div(id, perPos), c.rem(id, perPos));
}

/// Stage `stage` (filter row stage / groups, fragments F (stage % groups)
/// ... + F-1) into buffer `buf`: R input rows x (8G + 9F - 1) columns x 64
/// channels, and the 9 taps of each fragment fi into positions
/// 23 fi + 7 .. 23 fi + 15 of the compressed vectors. Out-of-range rows,
/// columns, taps and channels are zero-filled (source count 0). (Row ring:
/// the input rows are copied by copyRingRow.)
void MmaKernel::prefetch(OpBuilder &pb, Value stage, Value buf) {
  Emitter e{pb, loc};
  Value fh = e.div(stage, p.groups), j = e.mul(e.rem(stage, p.groups), p.fps);
  Value ihBase = e.add(e.add(oh0, fh), -s.pt);
  Value iwBase = e.add(e.add(ow0, e.mul(j, kFrag)), -s.pl);
  Value eight = e.cst(kVec);
  if (!ring)
    copyInputTile(pb, buf, ihBase, iwBase, eight);
  if (pairs)
    return copyFilterPairs(pb, fh, buf, eight);
  if (band)
    return copyBandFilter(pb, fh, buf, eight);
  copyFragmentTaps(pb, fh, j, buf, eight);
}

void MmaKernel::copyInputTile(OpBuilder &pb, Value buf, Value ihBase,
                              Value iwBase, Value eight) {
  emitCooperativeRounds(pb, loc, tid, p.threads, p.P * kChunks,
                        [&](OpBuilder &cb2, int64_t i) {
    Emitter c{cb2, loc};
    Value id = c.add(tid, i * p.threads);
    Value pos = c.div(id, kChunks), hh = c.rem(id, kChunks);
    Value r = c.div(pos, p.RS), col = c.rem(pos, p.RS);
    Value ih = c.add(ihBase, r), iw = c.add(iwBase, col);
    Value ch = c.add(cb, c.mul(hh, kVec));
    Value valid = c.andi(c.andi(c.ge(ih, 0), c.lt(ih, s.IH)),
                         c.andi(c.ge(iw, 0), c.lt(iw, s.IW)));
    copyInputChunk(
        cb2, c,
        [&]() -> SmallVector<Value> {
          return {buf, pos, c.swizzled(pos, hh)};
        },
        prob.x, ih, iw, ch, s.C, valid, eight);
  });
}

/// The zero-filling cp.async of one 16-byte input chunk: element (n, row,
/// column, channel) of `src` to `inSmem` at dst(); zeros where !valid or
/// channel >= channels.
void MmaKernel::copyInputChunk(OpBuilder &ob, Emitter &c,
                               function_ref<SmallVector<Value>()> dst,
                               Value src, Value row, Value column,
                               Value channel, int64_t channels, Value valid,
                               Value eight) {
  if (s.C % kBN != 0)
    valid = c.andi(valid, c.lt(channel, channels));
  Value cnt = c.select(valid, eight, zero);
  nvgpu::DeviceAsyncCopyOp::create(
      ob, loc, tokTy, inSmem, dst(), src,
      ValueRange{n, c.select(valid, row, zero), c.select(valid, column, zero),
                 c.select(valid, channel, zero)},
      ob.getIndexAttr(kVec), cnt, /*bypassL1=*/nullptr);
}

/// Band packing with filter pairs: workspace row fh, 16-byte chunks of 4
/// channels' pairs (ZS positions x 16 chunks).
void MmaKernel::copyFilterPairs(OpBuilder &pb, Value fh, Value buf,
                                Value eight) {
  emitCooperativeRounds(pb, loc, tid, p.threads, p.ZS * 2 * kChunks,
                        [&](OpBuilder &fb, int64_t i) {
    Emitter c{fb, loc};
    auto [pos, hh] = copySlot(c, i, 2 * kChunks);
    Value col = c.add(c.mul(cb, 2), c.mul(hh, kVec));
    Value valid;
    if (s.C % kBN != 0)
      valid = c.lt(col, 2 * s.C);
    nvgpu::DeviceAsyncCopyOp::create(
        fb, loc, tokTy, zSmem, ValueRange{buf, pos, c.mul(hh, kVec)}, ws,
        ValueRange{fh, pos, valid ? c.select(valid, col, zero) : col},
        fb.getIndexAttr(kVec), valid ? c.select(valid, eight, zero) : eight,
        /*bypassL1=*/fb.getUnitAttr());
  });
}

/// Band packing: filter row fh into v[0 .. ZS): v[t + 7] = tap t,
/// zero-filled outside the filter.
void MmaKernel::copyBandFilter(OpBuilder &pb, Value fh, Value buf,
                               Value eight) {
  const bool rotate = prob.rotateFilter;
  const int64_t FH = s.FH, FW = s.FW;
  emitCooperativeRounds(pb, loc, tid, p.threads, p.ZS * kChunks,
                        [&](OpBuilder &fb, int64_t i) {
    Emitter c{fb, loc};
    auto [pos, hh] = copySlot(c, i, kChunks);
    Value tap = c.add(pos, -7);
    Value ch = c.add(cb, c.mul(hh, kVec));
    Value valid = c.andi(c.ge(tap, 0), c.lt(tap, FW));
    if (s.C % kBN != 0)
      valid = c.andi(valid, c.lt(ch, s.C));
    nvgpu::DeviceAsyncCopyOp::create(
        fb, loc, tokTy, zSmem, ValueRange{buf, pos, c.mul(hh, kVec)}, prob.w,
        ValueRange{rotate ? c.sub(FH - 1, fh) : fh,
                   c.select(valid, rotate ? c.sub(FW - 1, tap) : tap, zero),
                   c.select(valid, ch, zero)},
        fb.getIndexAttr(kVec), c.select(valid, eight, zero),
        /*bypassL1=*/fb.getUnitAttr());
  });
}

/// Filter taps: F x 9 positions x 8 chunks = 72 F copies (every round
/// guarded).
void MmaKernel::copyFragmentTaps(OpBuilder &pb, Value fh, Value j, Value buf,
                                 Value eight) {
  const bool rotate = prob.rotateFilter;
  const int64_t FH = s.FH, FW = s.FW;
  emitCooperativeRounds(
      pb, loc, tid, p.threads, p.fps * kFrag * kChunks,
      [&](OpBuilder &fb, int64_t i) {
        Emitter c{fb, loc};
        Value id = c.add(tid, i * p.threads);
        Value t = c.div(id, kChunks), hh = c.rem(id, kChunks);
        Value fi = c.div(t, kFrag);
        t = c.rem(t, kFrag);
        Value tap = c.add(c.mul(c.add(j, fi), kFrag), t);
        Value ch = c.add(cb, c.mul(hh, kVec));
        Value valid;
        if (FW != p.groups * p.fps * kFrag)
          valid = c.lt(tap, FW);
        if (s.C % kBN != 0)
          valid = c.andi(valid, c.lt(ch, s.C));
        Value zpos = c.add(c.mul(fi, kZ), c.add(t, 7));
        Value cnt = valid ? c.select(valid, eight, zero) : eight;
        nvgpu::DeviceAsyncCopyOp::create(
            fb, loc, tokTy, zSmem,
            ValueRange{buf, zpos,
                       ring ? c.mul(hh, kVec) : c.swizzled(zpos, hh)},
            prob.w,
            ValueRange{rotate ? c.sub(FH - 1, fh) : fh,
                       c.select(valid, rotate ? c.sub(FW - 1, tap) : tap,
                                zero),
                       c.select(valid, ch, zero)},
            fb.getIndexAttr(kVec), cnt, /*bypassL1=*/fb.getUnitAttr());
      },
      /*guardAll=*/true);
}

/// Row ring: input row t (ih = oh0 + t - pt, t in [0, FH + RB - 1)) into
/// slot t mod `slots` (RB + 1, + 1 with one barrier per stage): 8G + 9
/// nfrag - 1 positions x 64 channels (RB = R without band rows).
void MmaKernel::copyRingRow(OpBuilder &pb, Value t) {
  Emitter e{pb, loc};
  Value ih = e.add(e.add(oh0, t), -s.pt);
  Value rowOk = e.andi(e.ge(ih, 0), e.lt(ih, s.IH));
  Value slotBase = e.mul(e.rem(t, p.slots), p.RSg);
  Value iwBase = e.add(ow0, -s.pl);
  Value eight = e.cst(kVec);
  if (inPairs)
    return copyPairRow(pb, t, ih, rowOk, eight);
  emitCooperativeRounds(pb, loc, tid, p.threads, p.RS * kChunks,
                        [&](OpBuilder &cb2, int64_t i) {
    Emitter c{cb2, loc};
    auto [col, hh] = copySlot(c, i, kChunks);
    Value pos = c.add(slotBase, c.ringCol(col, band));
    Value iw = c.add(iwBase, col);
    Value ch = c.add(cb, c.mul(hh, kVec));
    Value valid = c.andi(rowOk, c.andi(c.ge(iw, 0), c.lt(iw, s.IW)));
    copyInputChunk(
        cb2, c,
        [&]() -> SmallVector<Value> {
          return {zero, pos, c.mul(hh, kVec)};
        },
        prob.x, ih, iw, ch, s.C, valid, eight);
  });
}

/// Input pairs: pair positions j of the slot: workspace pair
/// (ow0 - pl + par) / 2 + j, 16 chunks of 4 channels' pairs, chunk u at
/// u ^ swizzle(j).
void MmaKernel::copyPairRow(OpBuilder &pb, Value t, Value ih, Value rowOk,
                            Value eight) {
  Emitter e{pb, loc};
  Value slotJ = e.mul(e.rem(t, p.slots), p.JR);
  Value jBase = e.add(e.div(ow0, 2), -((s.pl - p.par) / 2));
  emitCooperativeRounds(pb, loc, tid, p.threads, p.JR * 2 * kChunks,
                        [&](OpBuilder &cb2, int64_t i) {
    Emitter c{cb2, loc};
    auto [j, u] = copySlot(c, i, 2 * kChunks);
    Value jg = c.add(jBase, j);
    Value col = c.add(c.mul(cb, 2), c.mul(u, kVec));
    Value valid = c.andi(rowOk, c.andi(c.ge(jg, 0), c.lt(jg, p.JW)));
    copyInputChunk(
        cb2, c,
        [&]() -> SmallVector<Value> {
          return {zero, c.add(slotJ, j),
                  c.mul(c.xori(u, c.pairSwizzle(j)), kVec)};
        },
        xp, ih, jg, col, 2 * s.C, valid, eight);
  });
}

/// Per-lane GEMV rows g and g + 8 of the mma are GEMVs m = g and g + 8
/// (band packing: m = 2g and 2g + 1): row r(m) = m / G of the tile,
/// group m % G; base position r * RS + 8 * (m % G).
std::pair<Value, Value> MmaKernel::gemvRow(Emitter &c, int64_t mi) {
  Value m = band ? c.add(c.mul(g, 2), mi) : c.add(g, 8 * mi);
  return std::make_pair(c.div(m, p.G), c.rem(m, p.G));
}

/// Accumulators: warp_channels channels per warp, one vector<2x2xf32>
/// each; the bias (if any) is the initial value. Band rows: tile t's
/// accumulators at t x wchunks x 8 + (the same initial values).
SmallVector<Value> MmaKernel::initAccumulators(OpBuilder &b) {
  Emitter e{b, loc};
  SmallVector<Value> accInit;
  for (int64_t cg = 0; cg < p.wchunks; ++cg) {
    if (!prob.bias) {
      Value z = arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(accTy, b.getF32FloatAttr(0.0f)));
      accInit.append(kVec, z);
      continue;
    }
    Value ch = e.add(cb, e.mul(e.add(e.mul(warp, p.wchunks), cg), kVec));
    if (s.C % kBN != 0)
      ch = e.select(e.lt(ch, s.C), ch, zero);
    Value bv = vector::LoadOp::create(b, loc, chunkTy, prob.bias,
                                      ValueRange{ch}, false, llvm::Align(16));
    bv = arith::ExtFOp::create(
        b, loc, VectorType::get({kVec}, b.getF32Type()), bv);
    for (int64_t k = 0; k < kVec; ++k) {
      Value sc = vector::ExtractOp::create(b, loc, bv, ArrayRef<int64_t>{k});
      accInit.push_back(vector::BroadcastOp::create(b, loc, accTy, sc));
    }
  }
  SmallVector<Value> tile0(accInit);
  for (int64_t t = 1; t < p.T; ++t)
    accInit.append(tile0.begin(), tile0.end());
  return accInit;
}

scf::ForOp MmaKernel::emitStageLoop(OpBuilder &b, SmallVector<Value> accInit) {
  Emitter e{b, loc};
  return scf::ForOp::create(
      b, loc, zero, e.cst(p.S), one, accInit,
      [&](OpBuilder &lb, Location, Value stage, ValueRange accs) {
        emitStage(lb, stage, accs);
      });
}

/// One pipeline stage: the copies of stage + 1 in flight, the wait for
/// this stage's, its products.
void MmaKernel::emitStage(OpBuilder &lb, Value stage, ValueRange accs) {
  Emitter l{lb, loc};
  Value buf = l.rem(stage, p.zbufs);
  Value next = l.add(stage, 1);
  if (p.S > 1) {
    auto ifNext = scf::IfOp::create(lb, loc, l.lt(next, p.S), false);
    OpBuilder nb = ifNext.getThenBodyBuilder();
    Emitter ne{nb, loc};
    if (ring)
      copyRingRow(nb, ne.add(stage, p.RB));
    prefetch(nb, next,
             p.zbufs == 2 ? ne.sub(ne.cst(1), buf) : ne.rem(next, p.zbufs));
  }
  // Stage t + 1 copies in flight while stage t is read.
  waitCopyGroups(lb, loc, commitCopyGroup(lb, loc), /*pending=*/1);
  gpu::BarrierOp::create(lb, loc);

  SmallVector<Value> acc(accs);
  if (band) {
    emitBand(lb, stage, buf, acc);
  } else if (ring && p.fps > 1) {
    // Row ring: the fragments of the row in a loop (unrolled, the hoisted
    // loads of all fragments would exceed 255 registers).
    auto fragLoop = scf::ForOp::create(
        lb, loc, zero, l.cst(p.fps), one, acc,
        [&](OpBuilder &fb, Location, Value fi, ValueRange fAccs) {
          Emitter fl{fb, loc};
          SmallVector<Value> a(fAccs);
          emitFragment(fb, stage, buf, fl.mul(fi, kFrag), fl.mul(fi, kZ), a);
          scf::YieldOp::create(fb, loc, a);
        });
    acc.assign(fragLoop.getResults().begin(), fragLoop.getResults().end());
  } else {
    for (int64_t fi = 0; fi < p.fps; ++fi)
      emitFragment(lb, stage, buf, l.cst(fi * kFrag), l.cst(fi * kZ), acc);
  }
  // Everyone is done with `buf` before iteration s + 1 refills it (one
  // barrier per stage: iteration s + 1 refills what stage s - 1 read, and
  // every thread is past that when it passes the barrier of stage s).
  if (!oneBarrier)
    gpu::BarrierOp::create(lb, loc);
  scf::YieldOp::create(lb, loc, acc);
}

/// One fragment's products: per 8-channel chunk, 8 A and 4 B loads of 16
/// bytes, then 8 mma.sync. `fa` / `fz`: the fragment's offsets in the input
/// rows (9 fi) and the compressed vectors (23 fi).
void MmaKernel::emitFragment(OpBuilder &fb, Value stage, Value buf, Value fa,
                             Value fz, SmallVector<Value> &acc) {
  Emitter l{fb, loc};
  // A rows g, g+8; columns k = 2q, 2q+1, 2q+8, 2q+9.
  const auto &kOff = kMmaK16LaneK;
  // Shared positions of the 8 A loads (both chunks use them).
  Value aPos[2][4];
  for (int64_t mi = 0; mi < 2; ++mi) {
    auto [r, gi] = gemvRow(l, mi);
    Value col = l.add(l.add(l.mul(gi, kTM), l.mul(q, 2)), fa);
    if (!ring) {
      Value base = l.add(l.mul(r, p.RS), col);
      for (int64_t kk = 0; kk < 4; ++kk)
        aPos[mi][kk] = l.add(base, kOff[kk]);
      continue;
    }
    // Ring: GEMV row r reads input row s + r, in its slot.
    Value slotBase = l.mul(l.rem(l.add(stage, r), p.R + 1), p.RSg);
    for (int64_t kk = 0; kk < 4; ++kk)
      aPos[mi][kk] = l.add(slotBase, l.ringCol(l.add(col, kOff[kk])));
  }
  for (int64_t cg = 0; cg < p.wchunks; ++cg)
    emitFragmentProducts(fb, buf, aPos, fz, cg, acc);
}

void MmaKernel::emitFragmentProducts(OpBuilder &fb, Value buf,
                                     Value aPos[2][4], Value fz, int64_t cg,
                                     SmallVector<Value> &acc) {
  const auto &kOff = kMmaK16LaneK;
  Emitter l{fb, loc};
  Value hh = l.add(l.mul(warp, p.wchunks), cg);
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
      return vector::ExtractOp::create(fb, loc, v, ArrayRef<int64_t>{k})
          .getResult();
    };
    SmallVector<Value> aS = {ex(va[0][0]), ex(va[0][1]), ex(va[1][0]),
                             ex(va[1][1]), ex(va[0][2]), ex(va[0][3]),
                             ex(va[1][2]), ex(va[1][3])};
    SmallVector<Value> bS = {ex(vb[0]), ex(vb[1]), ex(vb[2]), ex(vb[3])};
    Value &cacc = acc[cg * kVec + k];
    cacc = emitMma(fb, loc, aS, bS, cacc);
  }
}

/// Band packing: slice p of GEMV pair (2g, 2g + 1) reads input blocks 2p,
/// 2p + 1 (row 2g) and 2p + 1, 2p + 2 (row 2g + 1), relative to group 2g.
/// A lane's block b register (columns 2q, 2q + 1 of block b, one channel)
/// is packed once from two 16-byte loads (8 channels) and used by both
/// rows; block 2p + 2 is carried into slice p + 1 as its block 2p. The
/// slices run in an scf.for (iter_args: accumulators and the carried block)
/// or, with `unroll`, unrolled with constant offsets. Band rows (T > 1):
/// tile t of the warp is output rows t R .. t R + R - 1 of the block (input
/// rows s + t R + r); the B registers of a slice are loaded once for the T
/// tiles, each tile has its own accumulators (index (t wchunks + cg) 8 + k)
/// and carried block registers.
void MmaKernel::emitBand(OpBuilder &bb, Value stage, Value buf,
                         SmallVector<Value> &acc) {
  Emitter l{bb, loc};
  BandLane bl = bandLane(bb, stage);
  SmallVector<Value> init(acc);
  for (int64_t t = 0; t < p.T; ++t)
    for (int64_t cg = 0; cg < p.wchunks; ++cg)
      blockPacks(bb, bl, t, zero, cg, init);
  if (p.c.unroll && p.nband <= 8) {
    // Unrolled: constant slice offsets (immediate addresses).
    SmallVector<Value> cur(init);
    for (int64_t sl = 0; sl < p.nband; ++sl) {
      SmallVector<Value> next;
      bandSlice(bb, bl, buf, l.cst(sl), cur, next);
      cur = std::move(next);
    }
    for (int64_t i = 0; i < p.nAcc; ++i)
      acc[i] = cur[i];
    return;
  }
  auto sliceLoop = scf::ForOp::create(
      bb, loc, zero, l.cst(p.nband), one, init,
      [&](OpBuilder &fb, Location, Value sl, ValueRange args) {
        SmallVector<Value> a;
        bandSlice(fb, bl, buf, sl, args, a);
        scf::YieldOp::create(fb, loc, a);
      });
  for (int64_t i = 0; i < p.nAcc; ++i)
    acc[i] = sliceLoop.getResult(i);
}

/// Block b of the lane: column 8 (gi0 + b) + 2q at position base + 8b +
/// b / 2 (gi0 is even: one gap per 2 blocks); with input pairs at pair
/// position 4 (gi0 + b) + q of the slot.
BandLane MmaKernel::bandLane(OpBuilder &bb, Value stage) {
  Emitter l{bb, loc};
  BandLane bl;
  Value m0 = l.mul(g, 2);
  bl.r = l.div(m0, p.G), bl.gi0 = l.rem(m0, p.G);
  for (int64_t t = 0; t < p.T; ++t) {
    Value slotBase =
        l.mul(l.rem(l.add(stage, l.add(bl.r, t * p.R)), p.slots), p.RSg);
    bl.laneBase.push_back(l.add(
        slotBase, l.add(l.add(l.mul(bl.gi0, kTM), l.div(bl.gi0, 2)),
                        l.mul(q, 2))));
    bl.laneJ.push_back(l.add(slotBase, l.add(l.mul(bl.gi0, 4), q)));
  }
  bl.zLane = l.add(l.sub(l.mul(q, 2), g), 7);
  return bl;
}

/// The 16-byte chunk of channel group `cg` of the warp at `pos`.
Value MmaKernel::loadChunk(OpBuilder &fb, Value mem, Value bufIdx, Value pos,
                           int64_t cg) {
  Emitter c{fb, loc};
  Value hh = c.add(c.mul(warp, p.wchunks), cg);
  return vector::LoadOp::create(fb, loc, chunkTy, mem,
                                ValueRange{bufIdx, pos, c.mul(hh, kVec)},
                                false, llvm::Align(16));
}

static Value extractAt(OpBuilder &fb, Location loc, Value v, int64_t k) {
  return vector::ExtractOp::create(fb, loc, v, ArrayRef<int64_t>{k})
      .getResult();
}

/// The 8 channels' registers of block `blk` (columns 2q, 2q + 1) of tile
/// `t`, appended to `out`.
void MmaKernel::blockPacks(OpBuilder &fb, const BandLane &bl, int64_t t,
                           Value blk, int64_t cg, SmallVector<Value> &out) {
  Emitter c{fb, loc};
  if (inPairs) {
    // Two 16-byte loads of 4 channels' pairs each; a pair is the register
    // as is. pairSwizzle(4 (gi0 + b) + q) with gi0 even:
    // q + 4 ((gi0 / 2 + b / 2) mod 2).
    Value sw = c.add(
        q, c.mul(c.rem(c.add(c.div(bl.gi0, 2), c.div(blk, 2)), 2), 4));
    Value hh = c.add(c.mul(warp, p.wchunks), cg);
    for (int64_t e2 = 0; e2 < 2; ++e2) {
      Value u = c.add(c.mul(hh, 2), e2);
      Value v = vector::LoadOp::create(
          fb, loc, chunkTy, inSmem,
          ValueRange{zero, c.add(bl.laneJ[t], c.mul(blk, 4)),
                     c.mul(c.xori(u, sw), kVec)},
          false, llvm::Align(16));
      for (int64_t i = 0; i < kVec / 2; ++i)
        out.push_back(vector::ShuffleOp::create(
            fb, loc, v, v, ArrayRef<int64_t>{2 * i, 2 * i + 1}));
    }
    return;
  }
  auto pairTy = VectorType::get({2}, et);
  Value pos = c.add(bl.laneBase[t], c.add(c.mul(blk, 8), c.div(blk, 2)));
  Value v0 = loadChunk(fb, inSmem, zero, pos, cg);
  Value v1 = loadChunk(fb, inSmem, zero, c.add(pos, 1), cg);
  for (int64_t k = 0; k < kVec; ++k)
    out.push_back(vector::FromElementsOp::create(
        fb, loc, pairTy,
        ValueRange{extractAt(fb, loc, v0, k), extractAt(fb, loc, v1, k)}));
}

/// B: v[zb], v[zb + 1] (b0, b1) and v[zb + 8], v[zb + 9] (b2, b3): 4 loads
/// of 8 channels each, or with filter pairs 4 loads of 4 channels' pairs;
/// shared by the T tiles.
void MmaKernel::loadBandB(OpBuilder &fb, Value buf, Value zb, int64_t cg,
                          Value vb[4]) {
  Emitter c{fb, loc};
  const auto &kOff = kMmaK16LaneK;
  Value hhB = c.add(c.mul(warp, p.wchunks), cg);
  for (int64_t kk = 0; kk < 4; ++kk) {
    if (!pairs) {
      vb[kk] = loadChunk(fb, zSmem, buf, c.add(zb, kOff[kk]), cg);
      continue;
    }
    // kk: pair position zb + 8 (kk / 2), channels 4 (kk % 2) .. + 3 of the
    // chunk.
    vb[kk] = vector::LoadOp::create(
        fb, loc, chunkTy, zSmem,
        ValueRange{buf, c.add(zb, 8 * (kk / 2)),
                   c.add(c.mul(hhB, 2 * kVec), (kk % 2) * kVec)},
        false, llvm::Align(16));
  }
}

/// Slice `slice`: accumulators and carried block registers in `args`, the
/// same out in `a`.
void MmaKernel::bandSlice(OpBuilder &fb, const BandLane &bl, Value buf,
                          Value slice, ValueRange args,
                          SmallVector<Value> &a) {
  Emitter c{fb, loc};
  a.assign(args.begin(), args.begin() + p.nAcc);
  SmallVector<Value> carried(p.nAcc);
  Value zb = c.add(bl.zLane, c.mul(slice, 16));
  for (int64_t cg = 0; cg < p.wchunks; ++cg) {
    // Tile 0's blocks 2p + 1, 2p + 2 first (the order of the single-tile
    // kernel), then B, shared by the tiles.
    SmallVector<Value> b1s[4], b2s[4];
    blockPacks(fb, bl, 0, c.add(c.mul(slice, 2), 1), cg, b1s[0]);
    blockPacks(fb, bl, 0, c.add(c.mul(slice, 2), 2), cg, b2s[0]);
    Value vb[4];
    loadBandB(fb, buf, zb, cg, vb);
    for (int64_t t = 0; t < p.T; ++t) {
      if (t > 0) {
        blockPacks(fb, bl, t, c.add(c.mul(slice, 2), 1), cg, b1s[t]);
        blockPacks(fb, bl, t, c.add(c.mul(slice, 2), 2), cg, b2s[t]);
      }
      bandSliceTile(fb, (t * p.wchunks + cg) * kVec, args, b1s[t], b2s[t],
                    vb, a, carried);
    }
  }
  a.append(carried.begin(), carried.end());
}

/// The 8 mma of one tile and channel group in a slice: A from the carried
/// block b0 and blocks b1, b2; B from `vb`.
void MmaKernel::bandSliceTile(OpBuilder &fb, int64_t base, ValueRange args,
                              ArrayRef<Value> b1, ArrayRef<Value> b2,
                              Value vb[4], SmallVector<Value> &a,
                              SmallVector<Value> &carried) {
  auto ex = [&](Value v, int64_t k) { return extractAt(fb, loc, v, k); };
  for (int64_t k = 0; k < kVec; ++k) {
    Value b0 = args[p.nAcc + base + k];
    SmallVector<Value> aS = {ex(b0, 0),    ex(b0, 1),    ex(b1[k], 0),
                             ex(b1[k], 1), ex(b1[k], 0), ex(b1[k], 1),
                             ex(b2[k], 0), ex(b2[k], 1)};
    SmallVector<Value> bS;
    if (!pairs) {
      bS = {ex(vb[0], k), ex(vb[1], k), ex(vb[2], k), ex(vb[3], k)};
    } else {
      int64_t j = 2 * (k % 4);
      Value lo = vb[k / 4], hi = vb[2 + k / 4];
      bS = {ex(lo, j), ex(lo, j + 1), ex(hi, j), ex(hi, j + 1)};
    }
    Value &cacc = a[base + k];
    cacc = emitMma(fb, loc, aS, bS, cacc);
    carried[base + k] = b2[k];
  }
}

/// Epilogue: lane holds D[g][2q + e], D[g + 8][2q + e] of 8 channels per
/// chunk: one 16-byte store of 8 channels per output position. Band rows:
/// tile t's outputs are rows t R + r of the block.
void MmaKernel::emitEpilogue(OpBuilder &b, scf::ForOp loop) {
  Emitter e{b, loc};
  auto outVecTy = VectorType::get({kVec}, b.getF32Type());
  for (int64_t tc = 0; tc < p.T * p.wchunks; ++tc) {
    int64_t t = tc / p.wchunks, cg = tc % p.wchunks;
    Value ch = e.add(cb, e.mul(e.add(e.mul(warp, p.wchunks), cg), kVec));
    for (int64_t mi = 0; mi < 2; ++mi) {
      auto [r, gi] = gemvRow(e, mi);
      Value oh = e.add(oh0, e.add(r, t * p.R));
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
        if (s.OH % p.RB != 0)
          ok = e.lt(oh, s.OH);
        if (s.OW % (kTM * p.G) != 0)
          ok = e.andi(ok, e.lt(ow, s.OW));
        if (s.C % kBN != 0)
          ok = e.andi(ok, e.lt(ch, s.C));
        OpBuilder::InsertionGuard guard(b);
        if (ok)
          b.setInsertionPointToStart(
              scf::IfOp::create(b, loc, ok, false).thenBlock());
        vector::StoreOp::create(b, loc, v, prob.y, ValueRange{n, oh, ow, ch},
                                false, llvm::Align(16));
      }
    }
  }
}

/// The choice of the op's complete #dwc.mma_band / #dwc.mma_ring
/// configuration; `why` when it has none the kernel can run.
std::optional<MmaChoice> configuredChoice(Operation *op, std::string &why) {
  auto config = op->getAttrOfType<KernelConfigAttrInterface>(kKernelAttrName);
  std::optional<MmaChoice> choice;
  if (auto band = dyn_cast_or_null<MmaBandKernelAttr>(config))
    choice = mmaChoiceOf(band);
  else if (auto ring = dyn_cast_or_null<MmaRingKernelAttr>(config))
    choice = mmaChoiceOf(ring);
  if (!choice || !config.isComplete()) {
    why = "no complete #dwc.mma_band or #dwc.mma_ring dwc.kernel";
    return std::nullopt;
  }
  if (!isa<MemRefType>(op->getOperands().back().getType())) {
    why = "tensor form (bufferize first)";
    return std::nullopt;
  }
  why = config.whyNotFor(op);
  if (!why.empty())
    return std::nullopt;
  return choice;
}

DepthwiseProblem problemOf(DepthwiseConv2DOp op) { return forwardProblem(op); }
DepthwiseProblem problemOf(DepthwiseConv2DBackwardDataOp op) {
  std::string why;  // (the configuration's rules refused a negative padding)
  return *backwardDataProblem(op, why);
}

template <typename OpTy>
struct MmaDepthwiseLowering : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    std::string why;
    std::optional<MmaChoice> choice = configuredChoice(op, why);
    if (!choice)
      return rewriter.notifyMatchFailure(op, why);
    DepthwiseProblem problem = problemOf(op);
    MmaShape shape = mmaShapeOf(op);
    MmaPlan plan = mmaPlanOf(shape, *choice);
    Location loc = op.getLoc();
    MmaKernel k(shape, plan, problem, loc, rewriter.getContext());
    if (plan.bytes !=
        (k.inSmemTy.getNumElements() + k.zSmemTy.getNumElements()) * 2)
      return rewriter.notifyMatchFailure(
          op, "internal: shared tile sizes disagree with the byte count");
    rewriter.setInsertionPoint(op);
    k.one = Emitter{rewriter, loc}.cst(1);
    if (k.pairs)
      k.emitFilterPairsWorkspace(rewriter);
    if (k.inPairs)
      k.emitInputPairsWorkspace(rewriter);
    k.emitLaunch(rewriter, plan.bytes);
    rewriter.setInsertionPointAfter(k.launch);
    for (Value buf : {k.ws, k.xp})
      if (buf)
        memref::DeallocOp::create(rewriter, loc, buf);
    rewriter.eraseOp(op);
    return success();
  }
};

struct ConvertDwcToGPUMmaPass
    : PatternKernelPass<ConvertDwcToGPUMmaPass,
                        dwc::impl::ConvertDwcToGPUMmaBase,
                        /*benefit=*/3,
                        MmaDepthwiseLowering<DepthwiseConv2DOp>,
                        MmaDepthwiseLowering<DepthwiseConv2DBackwardDataOp>> {
  using PatternKernelPass::PatternKernelPass;
};

} // namespace
