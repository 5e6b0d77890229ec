//===- DwcToGPUIm2win.cpp - dense conv2d via im2win on CUDA/tensor cores --===//
//
// Lowers memref-form dwc.conv2d ops whose dwc.kernel is an im2win
// configuration (#dwc.im2win_simt, #dwc.im2win_mma, #dwc.im2win_wgmma, chosen
// by dwc-select-kernels) to a blocked, register-tiled GEMM-like kernel over
// the im2win view of the input: the M dimension is the output pixels
// (N*OH*OW, the output is an M x OC row-major matrix in NHWC), N the output
// channels, K = FH*FW*C in the order of the filter (a K x OC row-major
// matrix). Each K tile of the A operand is gathered from the im2win windows,
// either directly from the NHWC input (the window gather fused into the
// loads) or from a materialised im2win tensor (dwc.im2win into a temporary,
// field im2win_tensor). FP32 runs on CUDA cores (8x8 / 16x4 outputs per
// thread), f16/bf16 on tensor cores (mma.sync m16n8k16, f32 accumulators,
// 64x32 outputs per warp) or on Hopper warpgroup MMA (wgmma.mma_async
// reading 128-byte swizzled shared memory through matrix descriptors).
// The kernel reads only its configuration and the target's facts.
// See the pass description in include/dwc/Conversion/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/AsyncCopyPipeline.h"
#include "dwc/Conversion/KernelPass.h"
#include "dwc/Conversion/KernelSelection.h"
#include "dwc/Conversion/Passes.h"
#include "dwc/Conversion/SharedMemoryPlan.h"
#include "dwc/Conversion/Swizzle.h"
#include "dwc/Conversion/WgmmaDescriptor.h"
#include "dwc/Conversion/IndexEmitter.h"
#include "dwc/Conversion/LaunchBuilder.h"
#include "dwc/Conversion/MmaEmitter.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_CONVERTDWCTOGPUIM2WIN
#include "dwc/Conversion/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;
using namespace mlir::dwc;

namespace {

/// `v` collapsed to one dimension.
Value flatten(OpBuilder &ob, Location loc, Value v) {
  auto ty = cast<MemRefType>(v.getType());
  ReassociationIndices all;
  for (int64_t i = 0; i < ty.getRank(); ++i)
    all.push_back(i);
  return memref::CollapseShapeOp::create(ob, loc, v,
                                         ArrayRef<ReassociationIndices>{all});
}

/// The switches of the configuration the kernel builder reads.
struct Switches {
  bool precompute = true;
  bool asyncCopy = true;
  bool swizzle = true;
  bool im2winTensor = false;
  bool wgmmaOverlap = false;  // wgmma: next tile's copies while it runs
  bool stagedStores = true;   // wgmma: output tile through shared memory
  int64_t minBlocksPerSM = 1;
};

struct Emitter : IndexEmitter {
  using IndexEmitter::IndexEmitter;
};

/// Static description of one kernel.
struct Plan {
  Switches sw;
  Type et;
  bool tc = false;
  int64_t V = 4;          // elements per A chunk (16 bytes; 8 bytes for
                          // the wgmma kernel's C % 8 == 4 inputs)
  int64_t VB = 4;         // elements per B chunk (16 bytes)
  int64_t BM = 128, BN = 128, BK = 16;
  bool chunked = true;    // A gathered in 16-byte chunks (C % V == 0)
  bool uniform = true;    // every K tile lies in one (fh, fw) pixel
  int64_t N, IH, IW, C, FH, FW, OC, OH, OW, sh, sw_, dh, dw, pt, pl;
  int64_t IWp = 0;        // width of the im2win tensor
  int64_t M, K, T, MB, NB;
  bool checkH = true, checkW = true;  // input bounds needed
  int64_t S = 2;          // shared-memory buffers (pipeline stages)
  bool wg = false;        // Hopper warpgroup MMA kernel (#dwc.im2win_wgmma)
  int64_t threads = 256;  // threads per block
  int64_t WG = 1;         // warpgroups (wgmma), 64 rows of the tile each
  bool oneBarrier = false;  // wgmma: one barrier per K tile
  bool dynamicSmem = false;  // stages over 48 KB: dynamic shared memory
  int64_t smemBytes = 0;     // dynamic shared memory the launch asks for
  // specialize: warpgroup 0 copies, warpgroups 1..WG multiply; the block
  // loops over output tiles (persistent grid) and the stages are handed
  // over through mbarriers.
  bool spec = false;
  int64_t copyThreads = 256;  // threads that issue the tile copies
  int64_t lag = 1;     // specialize: copy groups in flight per thread
  int64_t grid = 0;    // specialize: blocks of the persistent grid
  bool tma = false;    // tma_filter: B by TMA into the stages, mbarrier each
  bool tmaA = false;   // tma_im2col: A by im2col-mode TMA as well
  int64_t buffers() const { return S; }
};

/// specialize with staged stores: each multiplying warp's 16 output rows x
/// (BN + 8) f16 staging area.
int64_t warpStageBytes(const Plan &p) {
  return im2winWarpStageBytes(p.WG, p.BN);
}

struct KernelBuilder {
  Plan &p;
  OpBuilder &b;
  Location loc;
  Value src, w, bias, y, aS, bS;
  Value tid, mBase, nBase;
  Value srcFlat, w2, y2;
  Value barriers;  // specialize: shared address of the mbarriers
  Value tmap;      // tma_filter: generic pointer to the filter's tensor map
  Value tmapA;     // tma_im2col: the input's im2col tensor map
  Value warpStage; // specialize + staged_stores: per-warp areas
  // Per A copy of this thread (precompute): row offset, ih0, iw0, valid.
  struct Row {
    Value base, ih0, iw0, mValid, m;
  };
  SmallVector<Row> rows;

  Type et() const { return p.et; }
  int64_t aCopies() const {
    return p.chunked ? p.BM * p.BK / p.V / p.copyThreads
                     : p.BM * p.BK / p.copyThreads;
  }
  int64_t aPerRow() const { return p.chunked ? p.BK / p.V : p.BK; }
  int64_t bCopies() const { return p.BK * p.BN / p.VB / p.copyThreads; }

  /// Shared-memory chunk column of B row `k`, chunk `c` (parity swizzle of
  /// the tensor-core kernel: the 8 rows an ldmatrix phase reads land on
  /// 8 different 16-byte bank groups).
  Value bChunk(Emitter &e, Value k, Value c) {
    if (!p.tc || !p.sw.swizzle)
      return c;
    // f(k) = ((k >> 3) & 3) << 1 | (k & 1)
    Value hi = e.mul(e.rem(e.div(k, 8), 4), 2);
    Value lo = e.rem(k, 2);
    return e.xori(c, e.add(hi, lo));
  }

  void build() {
    Emitter e{b, loc};
    tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
    nBase = e.mul(e.rem(bid, p.NB), p.BN);
    mBase = e.mul(e.div(bid, p.NB), p.BM);
    srcFlat = flatten(b, loc, src);
    w2 = memref::CollapseShapeOp::create(
        b, loc, w, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
    y2 = memref::CollapseShapeOp::create(
        b, loc, y, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});

    if (p.spec)
      return buildSpecialized(e, bid);
    if (p.tma) {
      // Thread 0 initialises one mbarrier per stage (one arrival, plus
      // the bytes of the stage's B tile).
      auto first = scf::IfOp::create(b, loc, e.eq(tid, 0), false);
      OpBuilder ib = first.getThenBodyBuilder();
      for (int64_t s = 0; s < p.S; ++s)
        NVVM::MBarrierInitOp::create(
            ib, loc, barrierPtr(ib, Emitter{ib, loc}.cst(s)),
            arith::ConstantIntOp::create(ib, loc, 1, 32), Value());
      gpu::BarrierOp::create(b, loc);
    }
    if (p.sw.precompute)
      for (int64_t i = 0; i < aCopies(); ++i)
        rows.push_back(rowInfo(e, aRowOf(e, i)));

    buildLoop(e);
  }

  /// Tile row (0..BM) of this thread's A copy `i`.
  Value aRowOf(Emitter &e, int64_t i) {
    return e.div(e.add(tid, i * p.copyThreads), aPerRow());
  }
  /// K offset inside the tile of this thread's A copies (the same for all).
  Value aKOf(Emitter &e) {
    Value r = e.rem(tid, aPerRow());
    return p.chunked ? e.mul(r, p.V) : r;
  }

  Row rowInfo(Emitter &e, Value row) {
    Row r;
    r.m = e.add(mBase, row);
    if (p.M % p.BM != 0)
      r.mValid = e.lt(r.m, p.M);
    Value mc = r.mValid ? e.minc(r.m, p.M - 1) : r.m;
    auto co = e.delinearize(mc, {p.N, p.OH, p.OW});
    Value n = co[0], oh = co[1], ow = co[2];
    if (p.sw.im2winTensor) {
      // R[n, oh, ow*sw + fw*dw, fh, c]
      r.base = e.mul(e.add(e.mul(e.add(e.mul(n, p.OH), oh), p.IWp),
                           e.mul(ow, p.sw_)),
                     p.FH * p.C);
      return r;
    }
    r.ih0 = e.add(e.mul(oh, p.sh), -p.pt);
    r.iw0 = e.add(e.mul(ow, p.sw_), -p.pl);
    r.base = e.mul(e.add(e.mul(e.add(e.mul(n, p.IH), r.ih0), p.IW), r.iw0),
                   p.C);
    return r;
  }

  /// Linear source offset of (fh, fw, c) relative to a row base, and the
  /// bounds condition of the element.
  Value kOffset(Emitter &e, Value fh, Value fw, Value c) {
    if (p.sw.im2winTensor)
      return e.add(e.mul(e.add(e.mul(fw, p.dw * p.FH), fh), p.C), c);
    return e.add(e.mul(e.add(e.mul(fh, p.dh * p.IW), e.mul(fw, p.dw)), p.C), c);
  }
  Value inBounds(Emitter &e, const Row &r, Value fh, Value fw) {
    Value ok = r.mValid;
    if (p.checkH) {
      Value ih = e.add(r.ih0, e.mul(fh, p.dh));
      ok = e.andi(ok, e.andi(e.ge(ih, 0), e.lt(ih, p.IH)));
    }
    if (p.checkW) {
      Value iw = e.add(r.iw0, e.mul(fw, p.dw));
      ok = e.andi(ok, e.andi(e.ge(iw, 0), e.lt(iw, p.IW)));
    }
    return ok;
  }

  /// This thread's k of tile `t` as (fh, fw, c), its validity and (with
  /// precompute) its offset relative to a row base; the same for all of its
  /// A copies.
  struct TileK {
    Value fh, fw, c, valid, off;
  };
  TileK tileKOf(Emitter &e, Value t, Value tileOk, Value kk) {
    TileK k;
    if (p.uniform) {
      // The tile lies in one pixel: (fh, fw, c0) once per tile (no
      // loop-carried counters: they cost registers the mma kernel needs).
      int64_t cb = p.C / p.BK;
      k.fh = e.div(t, cb * p.FW);
      k.fw = e.rem(e.div(t, cb), p.FW);
      k.c = e.add(e.mul(e.rem(t, cb), p.BK), kk);
      k.valid = tileOk;
    } else {
      Value lin = e.add(e.mul(t, p.BK), kk);
      if (p.K % p.BK != 0 || tileOk) {
        k.valid = e.lt(lin, p.K);
        lin = e.minc(lin, p.K - 1);
      }
      k.fh = e.div(lin, p.FW * p.C);
      k.fw = e.rem(e.div(lin, p.C), p.FW);
      k.c = e.rem(lin, p.C);
    }
    if (p.sw.precompute)
      k.off = kOffset(e, k.fh, k.fw, k.c);
    return k;
  }

  /// Source offset of an A copy recomputed from (n, oh, ow, fh, fw, c)
  /// (precompute off), linearised the same way as the memref (row-major).
  Value recomputedOffset(Emitter &e, const Row &r, const TileK &k,
                         Value valid, Value zero) {
    Value mc = r.mValid ? e.minc(r.m, p.M - 1) : r.m;
    auto co = e.delinearize(mc, {p.N, p.OH, p.OW});
    SmallVector<Value> sIdx;
    if (p.sw.im2winTensor) {
      sIdx = {co[0], co[1], e.add(e.mul(co[2], p.sw_), e.mul(k.fw, p.dw)),
              k.fh, k.c};
    } else {
      Value ih = e.add(e.add(e.mul(co[1], p.sh), e.mul(k.fh, p.dh)), -p.pt);
      Value iw = e.add(e.add(e.mul(co[2], p.sw_), e.mul(k.fw, p.dw)), -p.pl);
      sIdx = {co[0], e.select(valid, ih, zero), e.select(valid, iw, zero),
              k.c};
    }
    auto shape = cast<MemRefType>(src.getType()).getShape();
    Value lin = sIdx[0];
    for (size_t dI = 1; dI < sIdx.size(); ++dI)
      lin = e.add(e.mul(lin, shape[dI]), sIdx[dI]);
    return lin;
  }

  /// This thread's A copies of a tile (none with tma_im2col: the TMA
  /// thread copies A), appended to `staged`.
  void issueA(OpBuilder &ob, Emitter &e, const TileK &k, Value kk, Value buf,
              Value zero, bool doStoreNow, SmallVectorImpl<Value> &staged) {
    Type vecTy = VectorType::get({p.V}, et());
    auto tokTy = nvgpu::DeviceAsyncTokenType::get(ob.getContext());
    for (int64_t i = 0; i < (p.tmaA ? 0 : aCopies()); ++i) {
      Value row = aRowOf(e, i);
      Row r = p.sw.precompute ? rows[i] : rowInfo(e, row);
      Value valid = e.andi(inBounds(e, r, k.fh, k.fw), k.valid);
      Value dstCol = kk;
      if (p.wg && p.V == 8) // 128-byte swizzle (Swizzle.h)
        dstCol = e.mul(SwizzledRow(e, row).at(e.div(kk, p.V)), p.V);
      else if (p.wg) // 8-byte halves of the swizzled 16-byte chunks
        dstCol = e.add(e.mul(SwizzledRow(e, row).at(e.div(kk, 8)), 8),
                       e.rem(kk, 8));
      SmallVector<Value> dIdx = {buf, row, dstCol};
      Value lin;
      if (!p.sw.precompute) {
        lin = recomputedOffset(e, r, k, valid, zero);
      } else {
        lin = e.add(r.base, k.off);
        if (valid)
          lin = e.select(valid, lin, zero);
      }
      staged.push_back(
          copyA(ob, e, lin, valid, dIdx, vecTy, tokTy, doStoreNow));
    }
  }

  /// Loads/copies of tile `t` (`tileOk` false when t is past the end) into
  /// buffer `buf`. Async copies are issued; plain loads are returned for
  /// storeStaged unless `doStoreNow`.
  SmallVector<Value> issueTile(OpBuilder &ob, Value t, Value tileOk,
                               ArrayRef<Value> ctr, Value buf, bool doStoreNow) {
    Emitter e{ob, loc};
    SmallVector<Value> staged;
    Value zero = e.cst(0);
    Value kk = aKOf(e);
    TileK k = tileKOf(e, t, tileOk, kk);
    issueA(ob, e, k, kk, buf, zero, doStoreNow, staged);
    // B operand: W as a K x OC matrix, BK rows x BN columns.
    if (p.tma)
      issueTmaTile(ob, e, t, tileOk, buf, staged);
    else
      issueB(ob, e, t, tileOk, buf, zero, doStoreNow, staged);
    return staged;
  }

  /// tma_filter: thread 0 expects the tile's bytes on the stage's mbarrier,
  /// then issues one 64 x 64 box per 64-channel half (128-byte swizzle, the
  /// layout the wgmma descriptors read) and, with tma_im2col, the A box.
  void issueTmaTile(OpBuilder &ob, Emitter &e, Value t, Value tileOk,
                    Value buf, SmallVectorImpl<Value> &staged) {
    Value issue = e.eq(tid, 0);
    if (tileOk)
      issue = e.andi(issue, tileOk);
    auto ifOp = scf::IfOp::create(ob, loc, issue, false);
    OpBuilder tb = ifOp.getThenBodyBuilder();
    Emitter te{tb, loc};
    Value bar = barrierPtr(tb, buf);
    Value bytes = arith::ConstantIntOp::create(
        tb, loc, p.BK * p.BN * 2 + (p.tmaA ? p.BM * p.BK * 2 : 0), 32);
    if (p.spec) // the copying threads arrive on full[s] themselves
      NVVM::MBarrierExpectTxOp::create(tb, loc, bar, bytes);
    else
      NVVM::MBarrierArriveExpectTxOp::create(tb, loc, Type(), bar, bytes,
                                             NVVM::MemScopeKind::CTA, false,
                                             Value());
    Value bBase = memref::ExtractAlignedPointerAsIndexOp::create(tb, loc, bS);
    for (int64_t h = 0; h < p.BN / 64; ++h) {
      Value off = te.mul(te.add(te.mul(buf, p.BN / 64), h), 64 * 64 * 2);
      Value dst = clusterPtr(tb, te.add(bBase, off));
      NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
          tb, loc, dst, tmap,
          ValueRange{i32Of(tb, te.add(nBase, 64 * h)),
                     i32Of(tb, te.mul(t, p.BK))},
          bar, ValueRange{}, Value(), Value(), NVVM::TMALoadMode::TILE, false,
          nullptr, Value());
    }
    if (p.tmaA) {
      issueIm2colBox(tb, te, t, buf, bar);
      for (int64_t i = 0; i < aCopies(); ++i)
        staged.insert(staged.begin(), Value());
    }
    for (int64_t i = 0; i < bCopies(); ++i)
      staged.push_back(Value());
  }

  Value i32Of(OpBuilder &ob, Value v) {
    return arith::IndexCastOp::create(ob, loc, ob.getI32Type(), v);
  }

  /// tma_im2col: the A tile, tap (fh, fw) and 64-channel chunk of K tile t
  /// for the BM output pixels from the tile's first one (n0, oh0, ow0),
  /// whose window corner is (ow0 - pl, oh0 - pt); the TMA walks the pixels
  /// with the corner's bounding box and zero-fills outside.
  void issueIm2colBox(OpBuilder &tb, Emitter &te, Value t, Value buf,
                      Value bar) {
    int64_t cb = p.C / 64;
    Value tap = te.div(t, cb), c0 = te.mul(te.rem(t, cb), 64);
    Value fh = te.div(tap, p.FW), fw = te.rem(tap, p.FW);
    auto co = te.delinearize(mBase, {p.N, p.OH, p.OW});
    auto i16 = [&](Value v) -> Value {
      return arith::IndexCastOp::create(tb, loc, tb.getI16Type(), v);
    };
    Value aBase = memref::ExtractAlignedPointerAsIndexOp::create(tb, loc, aS);
    Value dst = clusterPtr(tb, te.add(aBase, te.mul(buf, p.BM * p.BK * 2)));
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        tb, loc, dst, tmapA,
        ValueRange{i32Of(tb, c0), i32Of(tb, te.add(co[2], -p.pl)),
                   i32Of(tb, te.add(co[1], -p.pt)), i32Of(tb, co[0])},
        bar, ValueRange{i16(fw), i16(fh)}, Value(), Value(),
        NVVM::TMALoadMode::IM2COL, false, nullptr, Value());
  }

  /// This thread's B copies of tile `t` (16-byte chunks of the K x OC
  /// filter), appended to `staged`.
  void issueB(OpBuilder &ob, Emitter &e, Value t, Value tileOk, Value buf,
              Value zero, bool doStoreNow, SmallVectorImpl<Value> &staged) {
    auto tokTy = nvgpu::DeviceAsyncTokenType::get(ob.getContext());
    Type bVecTy = VectorType::get({p.VB}, et());
    int64_t cpr = p.BN / p.VB;
    for (int64_t i = 0; i < bCopies(); ++i) {
      Value id = e.add(tid, i * p.copyThreads);
      Value kr = e.div(id, cpr), cc = e.rem(id, cpr);
      Value k = e.add(e.mul(t, p.BK), kr);
      Value oc = e.add(nBase, e.mul(cc, p.VB));
      Value valid = tileOk;
      if (p.K % p.BK != 0)
        valid = e.andi(valid, e.lt(k, p.K));
      if (p.OC % p.BN != 0)
        valid = e.andi(valid, e.lt(oc, p.OC));
      SmallVector<Value> dIdx = {buf, kr, e.mul(bChunk(e, kr, cc), p.VB)};
      if (p.wg) // half cc / 8, 128-byte swizzle (Swizzle.h)
        dIdx = {e.add(e.mul(buf, p.BN / 64), e.div(cc, 8)), kr,
                e.mul(SwizzledRow(e, kr).at(e.rem(cc, 8)), p.VB)};
      SmallVector<Value> sIdx = {e.select(valid, k, zero),
                                 e.select(valid, oc, zero)};
      if (p.sw.asyncCopy) {
        Value cnt = valid ? e.select(valid, e.cst(p.VB), zero) : Value();
        nvgpu::DeviceAsyncCopyOp::create(ob, loc, tokTy, bS, dIdx, w2, sIdx,
                                         ob.getIndexAttr(p.VB), cnt,
                                         /*bypassL1=*/ob.getUnitAttr());
        staged.push_back(Value());
        continue;
      }
      Value v = vector::LoadOp::create(ob, loc, bVecTy, w2, sIdx, false,
                                       llvm::Align(16));
      if (valid)
        v = arith::SelectOp::create(ob, loc, valid, v, zeroVec(ob, bVecTy));
      if (doStoreNow) {
        vector::StoreOp::create(ob, loc, v, bS, dIdx, false, llvm::Align(16));
        v = Value();
      }
      staged.push_back(v);
    }
  }

  Value zeroVec(OpBuilder &ob, Type ty) {
    return arith::ConstantOp::create(
        ob, loc, DenseElementsAttr::get(cast<ShapedType>(ty),
                                        ob.getZeroAttr(et())));
  }

  /// One A copy: a 16-byte chunk (cp.async or plain) or a scalar (plain).
  Value copyA(OpBuilder &ob, Emitter &e, Value lin, Value valid,
              ArrayRef<Value> dIdx, Type vecTy, Type tokTy, bool doStoreNow) {
    if (p.chunked && p.sw.asyncCopy) {
      Value cnt = valid ? e.select(valid, e.cst(p.V), e.cst(0)) : Value();
      nvgpu::DeviceAsyncCopyOp::create(ob, loc, tokTy, aS, dIdx, srcFlat,
                                       ValueRange{lin}, ob.getIndexAttr(p.V),
                                       cnt, /*bypassL1=*/nullptr);
      return Value();
    }
    Value v;
    if (p.chunked) {
      v = vector::LoadOp::create(ob, loc, vecTy, srcFlat, ValueRange{lin},
                                 false, llvm::Align(16));
      if (valid)
        v = arith::SelectOp::create(ob, loc, valid, v, zeroVec(ob, vecTy));
    } else {
      v = memref::LoadOp::create(ob, loc, srcFlat, ValueRange{lin});
      if (valid)
        v = arith::SelectOp::create(
            ob, loc, valid, v,
            arith::ConstantOp::create(ob, loc, ob.getZeroAttr(et())));
    }
    if (doStoreNow) {
      storeA(ob, v, dIdx);
      return Value();
    }
    return v;
  }

  void storeA(OpBuilder &ob, Value v, ArrayRef<Value> dIdx) {
    if (p.chunked)
      vector::StoreOp::create(ob, loc, v, aS, dIdx, false, llvm::Align(16));
    else
      memref::StoreOp::create(ob, loc, v, aS, dIdx);
  }

  /// Stores register-staged values of issueTile into buffer `buf`.
  void storeStaged(OpBuilder &ob, ArrayRef<Value> staged, Value buf) {
    Emitter e{ob, loc};
    Value kk = aKOf(e);
    int64_t n = 0;
    for (int64_t i = 0; i < aCopies(); ++i, ++n)
      if (staged[n])
        storeA(ob, staged[n], {buf, aRowOf(e, i), kk});
    int64_t cpr = p.BN / p.VB;
    for (int64_t i = 0; i < bCopies(); ++i, ++n) {
      if (!staged[n])
        continue;
      Value id = e.add(tid, i * p.copyThreads);
      Value kr = e.div(id, cpr), cc = e.rem(id, cpr);
      vector::StoreOp::create(ob, loc, staged[n], bS,
                              ValueRange{buf, kr, e.mul(bChunk(e, kr, cc), p.VB)},
                              false, llvm::Align(16));
    }
  }

  // --- compute --------------------------------------------------------
  int64_t accCount() const {
    return p.wg ? 1 : p.tc ? 16 : (p.BM / 16) * (p.BN / 64);
  }
  Type accType() const {
    if (p.wg) // the m64nBNk16 accumulator fragment: BN / 2 f32 per thread
      return LLVM::LLVMStructType::getLiteral(
          b.getContext(), SmallVector<Type>(p.BN / 2, b.getF32Type()));
    return p.tc ? VectorType::get({2, 2}, b.getF32Type())
                : VectorType::get({4}, b.getF32Type());
  }

  SmallVector<Value> computeTile(OpBuilder &ob, Value buf, ValueRange acc) {
    if (p.wg)
      return computeWG(ob, buf, acc);
    return p.tc ? computeTC(ob, buf, acc) : computeFP32(ob, buf, acc);
  }

  // --- warpgroup MMA (wgmma) ------------------------------------------
  // The operands' descriptor layouts (WgmmaDescriptor.h), 128-byte swizzle.
  // A (BM x 64, k contiguous, K-major): rows of 128 bytes, 8-row groups
  // 1024 bytes apart (stride offset; the leading offset is unused for
  // swizzled K-major operands, 16 bytes by convention). B (64 x 128,
  // channels contiguous, N-major, transposed): two halves of 64 channels
  // 8192 bytes apart (leading offset), 8-row k groups 1024 bytes apart.
  WgmmaLayout layoutA() const {
    return {/*leadingByteOffset=*/16, /*strideByteOffset=*/kSwizzlePeriodBytes};
  }
  WgmmaLayout layoutB() const {
    return {/*leadingByteOffset=*/p.BK * 128,
            /*strideByteOffset=*/kSwizzlePeriodBytes};
  }
  Value descA0, descB0;  // descriptors of buffer 0, k step 0

  SmallVector<Value> computeWG(OpBuilder &ob, Value buf, ValueRange accIn) {
    Emitter e{ob, loc};
    Value acc = accIn[0];
    int64_t aBytes = p.BM * p.BK * 2, bBytes = p.BK * p.BN * 2;
    // Warpgroup w multiplies rows 64w .. 64w + 63 of the A tile.
    Value aOff = e.add(e.mul(buf, aBytes), e.mul(e.div(tid, 128), 64 * 128));
    Value bOff = e.mul(buf, bBytes);
    auto *ctx = ob.getContext();
    NVVM::WGMMATypes ty =
        et().isF16() ? NVVM::WGMMATypes::f16 : NVVM::WGMMATypes::bf16;
    auto shape = NVVM::MMAShapeAttr::get(ctx, 64, p.BN, 16);
    NVVM::WgmmaFenceAlignedOp::create(ob, loc);
    for (int64_t s = 0; s < p.BK / 16; ++s) {
      // k step s: 32 bytes along an A row, 16 rows (2048 bytes) of B.
      Value dA = advanceWgmmaDescriptor(ob, loc, descA0, e.add(aOff, 32 * s));
      Value dB =
          advanceWgmmaDescriptor(ob, loc, descB0, e.add(bOff, 16 * 128 * s));
      acc = NVVM::WgmmaMmaAsyncOp::create(
          ob, loc, acc.getType(), acc, dA, dB, shape, ty, ty,
          NVVM::WGMMATypes::f32, NVVM::WGMMAScaleOut::one,
          NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one,
          NVVM::MMALayout::row, NVVM::MMALayout::row,
          /*satfinite=*/nullptr);
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(ob, loc);
    if (!p.sw.wgmmaOverlap && !p.oneBarrier && !p.spec)
      NVVM::WgmmaWaitGroupSyncOp::create(ob, loc, ob.getI64IntegerAttr(0));
    return {acc};
  }

  SmallVector<Value> computeFP32(OpBuilder &ob, Value buf, ValueRange accIn) {
    Emitter e{ob, loc};
    SmallVector<Value> acc(accIn);
    Value tm = e.div(tid, 16), tn = e.rem(tid, 16);
    int64_t RI = p.BM / 16, CJ = p.BN / 64;
    auto v4 = VectorType::get({4}, et());
    for (int64_t kq = 0; kq < p.BK / 4; ++kq) {
      SmallVector<Value> a(RI);
      for (int64_t i = 0; i < RI; ++i)
        a[i] = vector::LoadOp::create(ob, loc, v4, aS,
                                      ValueRange{buf, e.add(tm, 16 * i),
                                                 e.cst(4 * kq)},
                                      false, llvm::Align(16));
      for (int64_t k4 = 0; k4 < 4; ++k4) {
        SmallVector<Value> bv(CJ);
        for (int64_t j = 0; j < CJ; ++j)
          bv[j] = vector::LoadOp::create(
              ob, loc, v4, bS,
              ValueRange{buf, e.cst(4 * kq + k4), e.add(e.mul(tn, 4), 64 * j)},
              false, llvm::Align(16));
        for (int64_t i = 0; i < RI; ++i) {
          Value s = vector::ExtractOp::create(ob, loc, a[i],
                                              ArrayRef<int64_t>{k4});
          Value sb = vector::BroadcastOp::create(ob, loc, v4, s);
          for (int64_t j = 0; j < CJ; ++j) {
            Value &c = acc[i * CJ + j];
            c = vector::FMAOp::create(ob, loc, sb, bv[j], c);
          }
        }
      }
    }
    return acc;
  }

  SmallVector<Value> computeTC(OpBuilder &ob, Value buf, ValueRange accIn) {
    Emitter e{ob, loc};
    SmallVector<Value> acc(accIn);
    int64_t WN = p.BN / 32;
    Value lane = e.rem(tid, 32), warp = e.div(tid, 32);
    Value wm = e.div(warp, WN), wn = e.rem(warp, WN);
    Value g = e.div(lane, 4), q = e.rem(lane, 4);
    auto v8 = VectorType::get({8}, et());
    auto aTy = VectorType::get({4, 2}, et());
    auto bTy = VectorType::get({2, 2}, et());
    auto ldTy = VectorType::get({4, 2}, et());
    // B via ldmatrix.x4.trans for both k16 steps first: lane L gives row
    // r = L % 8 of matrix i = L / 8 = (n tile 2*np + i / 2, k half i % 2);
    // matrix row r is shared k row 8*(r/2) + 4s + 2*half + r%2 (the k
    // positions whose A values the lane pairs with), 8 consecutive n.
    Value mi = e.div(lane, 8), r = e.rem(lane, 8);
    Value bfr[2][4];
    for (int64_t s = 0; s < 2; ++s) {
      for (int64_t np = 0; np < 2; ++np) {
        Value nt = e.add(e.div(mi, 2), 2 * np);
        Value half = e.rem(mi, 2);
        Value krow = e.add(e.add(e.mul(e.div(r, 2), 8), e.mul(half, 2)),
                           e.add(e.rem(r, 2), 4 * s));
        Value chunk = e.add(e.mul(wn, 4), nt);
        Value col = e.mul(bChunk(e, krow, chunk), 8);
        Value ld = nvgpu::LdMatrixOp::create(ob, loc, ldTy, bS,
                                             ValueRange{buf, krow, col},
                                             /*transpose=*/true,
                                             /*numTiles=*/4);
        // (Scalars and from_elements: n-D shape casts have no NVVM
        // lowering in the pipeline; this becomes register renaming.)
        for (int64_t h2 = 0; h2 < 2; ++h2) {
          SmallVector<Value> el;
          for (int64_t rr = 0; rr < 2; ++rr)
            for (int64_t cc = 0; cc < 2; ++cc)
              el.push_back(vector::ExtractOp::create(
                  ob, loc, ld, ArrayRef<int64_t>{2 * h2 + rr, cc}));
          bfr[s][2 * np + h2] = vector::FromElementsOp::create(ob, loc, bTy, el);
        }
      }
    }
    // A per m16 tile: rows g and g + 8, 8 consecutive k at 8q (both k16
    // steps: the lane's k positions 8q + 4s + {0,1} / {2,3} pair with
    // the B rows above), then its 8 mma.sync.
    for (int64_t mt = 0; mt < 4; ++mt) {
      Value va[2];
      for (int64_t hf = 0; hf < 2; ++hf) {
        Value row = e.add(e.add(e.mul(wm, 64), g), mt * 16 + hf * 8);
        va[hf] = vector::LoadOp::create(ob, loc, v8, aS,
                                        ValueRange{buf, row, e.mul(q, 8)},
                                        false, llvm::Align(16));
      }
      for (int64_t s = 0; s < 2; ++s) {
        int64_t o = 4 * s;
        auto ex = [&](Value v, int64_t i) -> Value {
          return vector::ExtractOp::create(ob, loc, v, ArrayRef<int64_t>{i});
        };
        Value g0 = va[0], g8 = va[1];
        Value av = vector::FromElementsOp::create(
            ob, loc, aTy,
            ValueRange{ex(g0, o), ex(g0, o + 1), ex(g8, o), ex(g8, o + 1),
                       ex(g0, o + 2), ex(g0, o + 3), ex(g8, o + 2),
                       ex(g8, o + 3)});
        for (int64_t nt = 0; nt < 4; ++nt) {
          Value &c = acc[mt * 4 + nt];
          c = emitMmaM16N8K16(ob, loc, av, bfr[s][nt], c);
        }
      }
    }
    return acc;
  }

  /// `body` under `ok` (no condition when null).
  void guarded(OpBuilder &ob, Value ok, function_ref<void(OpBuilder &)> body) {
    if (!ok)
      return body(ob);
    auto ifOp = scf::IfOp::create(ob, loc, ok, false);
    OpBuilder tb = ifOp.getThenBodyBuilder();
    body(tb);
  }

  /// The bias of channels oc.. (`width` of them) as f32, clamped to a valid
  /// channel when `ocOk` may fail; null without bias.
  Value biasAt(OpBuilder &ob, Emitter &e, Value oc, Value ocOk, int64_t width) {
    if (!bias)
      return Value();
    Value occ = ocOk ? e.select(ocOk, oc, e.cst(0)) : oc;
    if (!p.tc)
      return vector::LoadOp::create(ob, loc, VectorType::get({4}, ob.getF32Type()),
                                    bias, ValueRange{occ}, false,
                                    llvm::Align(16));
    Value bv = vector::LoadOp::create(ob, loc, VectorType::get({width}, et()),
                                      bias, ValueRange{occ});
    return arith::ExtFOp::create(ob, loc,
                                 VectorType::get({width}, ob.getF32Type()), bv);
  }

  /// Rows past M need a check when BM does not divide M.
  Value rowOk(Emitter &e, Value ok, Value m) {
    return p.M % p.BM != 0 ? e.andi(ok, e.lt(m, p.M)) : ok;
  }

  void epilogue(OpBuilder &ob, ValueRange acc) {
    if (!p.tc)
      return epilogueFP32(ob, acc);
    if (p.wg)
      return epilogueWG(ob, acc[0]);
    epilogueTC(ob, acc);
  }

  /// CUDA cores: thread (tm, tn) holds rows tm + 16 i, channels 4 tn + 64 j.
  void epilogueFP32(OpBuilder &ob, ValueRange acc) {
    Emitter e{ob, loc};
    Value tm = e.div(tid, 16), tn = e.rem(tid, 16);
    int64_t RI = p.BM / 16, CJ = p.BN / 64;
    for (int64_t j = 0; j < CJ; ++j) {
      Value oc = e.add(e.add(nBase, e.mul(tn, 4)), 64 * j);
      Value ocOk = p.OC % p.BN != 0 ? e.lt(oc, p.OC) : Value();
      Value bv = biasAt(ob, e, oc, ocOk, 4);
      for (int64_t i = 0; i < RI; ++i) {
        Value m = e.add(e.add(mBase, tm), 16 * i);
        Value ok = rowOk(e, ocOk, m);
        Value v = acc[i * CJ + j];
        if (bv)
          v = arith::AddFOp::create(ob, loc, v, bv);
        guarded(ob, ok, [&](OpBuilder &sb) {
          vector::StoreOp::create(sb, loc, v, y2, ValueRange{m, oc}, false,
                                  llvm::Align(16));
        });
      }
    }
  }

  /// mma.sync: warp (wm, wn) holds 64 x 32 outputs as 4 x 4 m16n8 fragments.
  void epilogueTC(OpBuilder &ob, ValueRange acc) {
    Emitter e{ob, loc};
    auto v2 = VectorType::get({2}, et());
    int64_t WN = p.BN / 32;
    Value lane = e.rem(tid, 32), warp = e.div(tid, 32);
    Value wm = e.div(warp, WN), wn = e.rem(warp, WN);
    Value g = e.div(lane, 4), q = e.rem(lane, 4);
    for (int64_t nt = 0; nt < 4; ++nt) {
      Value oc = e.add(e.add(nBase, e.mul(wn, 32)), e.add(e.mul(q, 2), nt * 8));
      Value ocOk = p.OC % p.BN != 0 ? e.lt(oc, p.OC) : Value();
      Value bv = biasAt(ob, e, oc, ocOk, 2);
      for (int64_t mt = 0; mt < 4; ++mt)
        for (int64_t hf = 0; hf < 2; ++hf) {
          Value m = e.add(e.add(mBase, e.mul(wm, 64)), e.add(g, mt * 16 + hf * 8));
          Value ok = rowOk(e, ocOk, m);
          Value v = vector::ExtractOp::create(ob, loc, acc[mt * 4 + nt],
                                              ArrayRef<int64_t>{hf});
          if (bv)
            v = arith::AddFOp::create(ob, loc, v, bv);
          v = arith::TruncFOp::create(ob, loc, v2, v);
          guarded(ob, ok, [&](OpBuilder &sb) {
            vector::StoreOp::create(sb, loc, v, y2, ValueRange{m, oc}, false,
                                    llvm::Align(4));
          });
        }
    }
  }

  /// The lanes of the m64nBNk16 fragment: warp w holds rows 16w + g and
  /// 16w + g + 8; elements 4j .. 4j + 3 are columns 8j + 2q, 8j + 2q + 1 of
  /// row 16w + g, then of row 16w + g + 8.
  struct FragmentLanes {
    Value lane, warp, g, q;
  };

  /// Staged stores: the f16 tile goes into the (idle) B buffers (or the A
  /// buffers when B's are too small) with a row pitch of BN + 8 elements
  /// (the 8 rows of a fragment store on different banks), then every thread
  /// stores 16-byte chunks of whole rows (coalesced 128-byte lines instead
  /// of 16-byte pieces); null where the buffers do not hold the tile or the
  /// pipeline keeps copies in flight.
  Value wgStagingBuffer(OpBuilder &ob, int64_t pitch) {
    auto fits = [&](Value buf) {
      return cast<MemRefType>(buf.getType()).getNumElements() >= p.BM * pitch;
    };
    if (!p.sw.stagedStores || p.spec || p.oneBarrier || p.sw.wgmmaOverlap ||
        !(fits(bS) || fits(aS)))
      return Value();
    // Zero-filling copies of tiles past the end may still be in flight.
    auto tokTy = nvgpu::DeviceAsyncTokenType::get(ob.getContext());
    Value tok =
        nvgpu::DeviceAsyncCreateGroupOp::create(ob, loc, tokTy, ValueRange{});
    nvgpu::DeviceAsyncWaitOp::create(ob, loc, tok, ob.getI32IntegerAttr(0));
    if (p.tma) // generic stores after the TMA (async proxy) writes
      fenceSharedToAsyncProxy(ob, loc);
    gpu::BarrierOp::create(ob, loc);
    return memref::CollapseShapeOp::create(
        ob, loc, fits(bS) ? bS : aS, ArrayRef<ReassociationIndices>{{0, 1, 2}});
  }

  /// The fragment's outputs with bias, as f16/bf16 pairs: into the warp's
  /// staging area, the block's staging buffer `stage`, or straight to Y.
  void wgStoreFragments(OpBuilder &ob, Emitter &e, Value frag,
                        const FragmentLanes &fl, Value stage, int64_t pitch) {
    auto v2f = VectorType::get({2}, ob.getF32Type());
    auto v2 = VectorType::get({2}, et());
    auto elem = [&](int64_t i) -> Value {
      return LLVM::ExtractValueOp::create(ob, loc, frag, ArrayRef<int64_t>{i});
    };
    for (int64_t j = 0; j < p.BN / 8; ++j) {
      Value oc = e.add(e.add(nBase, e.mul(fl.q, 2)), 8 * j);
      Value ocOk = p.OC % p.BN != 0 ? e.lt(oc, p.OC) : Value();
      Value bv = biasAt(ob, e, oc, ocOk, 2);
      for (int64_t hf = 0; hf < 2; ++hf) {
        // (warp w of the block: warpgroup w / 4, rows 64 (w / 4) +
        // 16 (w % 4) = 16 w)
        Value m = e.add(e.add(mBase, e.mul(fl.warp, 16)), e.add(fl.g, 8 * hf));
        Value ok = rowOk(e, ocOk, m);
        Value v = vector::FromElementsOp::create(
            ob, loc, v2f,
            ValueRange{elem(4 * j + 2 * hf), elem(4 * j + 2 * hf + 1)});
        if (bv)
          v = arith::AddFOp::create(ob, loc, v, bv);
        v = arith::TruncFOp::create(ob, loc, v2, v);
        if (warpStage && p.sw.stagedStores) {
          Value r = e.add(fl.g, 8 * hf);
          Value at = e.add(e.mul(fl.warp, 16 * pitch),
                           e.add(e.mul(r, pitch), e.add(e.mul(fl.q, 2), 8 * j)));
          vector::StoreOp::create(ob, loc, v, warpStage, ValueRange{at}, false,
                                  llvm::Align(4));
          continue;
        }
        if (stage) {
          Value r = e.add(e.mul(fl.warp, 16), e.add(fl.g, 8 * hf));
          Value col = e.add(e.mul(fl.q, 2), 8 * j);
          vector::StoreOp::create(ob, loc, v, stage,
                                  ValueRange{e.add(e.mul(r, pitch), col)},
                                  false, llvm::Align(4));
          continue;
        }
        guarded(ob, ok, [&](OpBuilder &sb) {
          vector::StoreOp::create(sb, loc, v, y2, ValueRange{m, oc}, false,
                                  llvm::Align(4));
        });
      }
    }
  }

  /// A staged 16-byte chunk of output row m, channels oc..oc+7.
  void storeRowChunk(OpBuilder &ob, Emitter &e, Value m, Value oc, Value v) {
    Value ok;
    if (p.OC % p.BN != 0)
      ok = e.lt(oc, p.OC);
    guarded(ob, rowOk(e, ok, m), [&](OpBuilder &sb) {
      vector::StoreOp::create(sb, loc, v, y2, ValueRange{m, oc}, false,
                              llvm::Align(16));
    });
  }

  /// Per-warp staging (specialize: no block barrier): the warp reads back
  /// its 16 rows as 16-byte chunks, then syncs again so that the next
  /// tile's fragments do not overwrite unread ones.
  void copyWarpStage(OpBuilder &ob, Emitter &e, const FragmentLanes &fl,
                     int64_t pitch) {
    Value all = arith::ConstantIntOp::create(ob, loc, -1, 32);
    NVVM::SyncWarpOp::create(ob, loc, all);
    auto v8 = VectorType::get({8}, et());
    int64_t cpr = p.BN / 8;
    for (int64_t i = 0; i < 16 * cpr / 32; ++i) {
      Value id = e.add(fl.lane, 32 * i);
      Value r = e.div(id, cpr), c = e.rem(id, cpr);
      Value v = vector::LoadOp::create(
          ob, loc, v8, warpStage,
          ValueRange{e.add(e.mul(fl.warp, 16 * pitch),
                           e.add(e.mul(r, pitch), e.mul(c, 8)))},
          false, llvm::Align(16));
      Value m = e.add(e.add(mBase, e.mul(fl.warp, 16)), r);
      Value oc = e.add(nBase, e.mul(c, 8));
      storeRowChunk(ob, e, m, oc, v);
    }
    NVVM::SyncWarpOp::create(ob, loc, all);
  }

  /// Block staging: after a barrier every thread stores whole-row chunks.
  void copyBlockStage(OpBuilder &ob, Emitter &e, Value stage, int64_t pitch) {
    gpu::BarrierOp::create(ob, loc);
    auto v8 = VectorType::get({8}, et());
    int64_t cpr = p.BN / 8;
    for (int64_t i = 0; i < p.BM * cpr / p.threads; ++i) {
      Value id = e.add(tid, i * p.threads);
      Value r = e.div(id, cpr), c = e.rem(id, cpr);
      Value v = vector::LoadOp::create(
          ob, loc, v8, stage, ValueRange{e.add(e.mul(r, pitch), e.mul(c, 8))},
          false, llvm::Align(16));
      Value m = e.add(mBase, r), oc = e.add(nBase, e.mul(c, 8));
      storeRowChunk(ob, e, m, oc, v);
    }
  }

  /// wgmma: the accumulator fragment to Y, through shared memory where
  /// staged stores apply.
  void epilogueWG(OpBuilder &ob, Value frag) {
    Emitter e{ob, loc};
    FragmentLanes fl;
    fl.lane = e.rem(tid, 32);
    fl.warp = e.div(tid, 32);
    fl.g = e.div(fl.lane, 4);
    fl.q = e.rem(fl.lane, 4);
    int64_t pitch = p.BN + 8;
    Value stage = wgStagingBuffer(ob, pitch);
    wgStoreFragments(ob, e, frag, fl, stage, pitch);
    if (warpStage && p.sw.stagedStores)
      return copyWarpStage(ob, e, fl, pitch);
    if (stage)
      copyBlockStage(ob, e, stage, pitch);
  }

  // --- warp-specialised persistent wgmma kernel (specialize) -----------
  // Warpgroup 0 copies, warpgroups 1..WG multiply. Both walk the same
  // output tiles (tile = block id, + grid size, ...) and count K tiles
  // globally (`it`), so stage it % S and mbarrier phase (it / S) % 2 agree.
  // full[s] (128 arrivals): a copying thread arrives once its copies of
  // the stage have landed (cp.async.wait_group, then fence.proxy.async:
  // its generic-proxy writes become visible to the async proxy that
  // wgmma reads through). empty[s] (128 x WG arrivals): a multiplying
  // thread arrives when the wgmma group that read the stage has finished.

  /// The shared::cluster pointer (bulk tensor copy destination) of a
  /// shared address of this CTA (without a cluster, its own memory).
  Value clusterPtr(OpBuilder &ob, Value sharedAddr) {
    Value p3 = LLVM::IntToPtrOp::create(
        ob, loc, LLVM::LLVMPointerType::get(ob.getContext(), 3),
        arith::IndexCastUIOp::create(ob, loc, ob.getI64Type(), sharedAddr)
            .getResult());
    return LLVM::AddrSpaceCastOp::create(
        ob, loc, LLVM::LLVMPointerType::get(ob.getContext(), 7), p3);
  }

  /// !llvm.ptr<3> of mbarrier `i` (0..S: full, S..2S: empty).
  Value barrierPtr(OpBuilder &ob, Value i) {
    Emitter e{ob, loc};
    Value addr = e.add(barriers, e.mul(i, 8));
    Value a64 = arith::IndexCastUIOp::create(ob, loc, ob.getI64Type(), addr);
    return LLVM::IntToPtrOp::create(
        ob, loc, LLVM::LLVMPointerType::get(ob.getContext(), 3), a64);
  }
  void waitPhase(OpBuilder &ob, Value bar, Value parity) {
    Value ph = arith::IndexCastUIOp::create(ob, loc, ob.getI32Type(), parity);
    NVVM::MBarrierTryWaitParityOp::create(
        ob, loc, bar, ph, arith::ConstantIntOp::create(ob, loc, 1000000, 32));
  }
  void arriveOn(OpBuilder &ob, Value bar) {
    NVVM::MBarrierArriveOp::create(ob, loc, Type(), bar, Value());
  }

  /// Thread 0 initialises the mbarriers (full: the copying threads arrive,
  /// empty: the multiplying ones); the block barrier publishes them.
  void initSpecializedBarriers(Emitter &e) {
    int64_t S = p.S;
    auto first = scf::IfOp::create(b, loc, e.eq(tid, 0), false);
    OpBuilder ib = first.getThenBodyBuilder();
    for (int64_t s = 0; s < S; ++s) {
      NVVM::MBarrierInitOp::create(
          ib, loc, barrierPtr(ib, Emitter{ib, loc}.cst(s)),
          arith::ConstantIntOp::create(ib, loc, p.copyThreads, 32), Value());
      NVVM::MBarrierInitOp::create(
          ib, loc, barrierPtr(ib, Emitter{ib, loc}.cst(S + s)),
          arith::ConstantIntOp::create(ib, loc, 128 * p.WG, 32), Value());
    }
  }

  /// The output tile `tile` of the persistent loop.
  void setTile(Emitter &l, Value tile) {
    nBase = l.mul(l.rem(tile, p.NB), p.BN);
    mBase = l.mul(l.div(tile, p.NB), p.BM);
  }

  /// One K tile of the copying warpgroup (global K tile `it`): wait for
  /// the stage to be free, issue its copies, hand over K tile it - L.
  Value copyStage(OpBuilder &lb, Value t, Value it, Value one) {
    Emitter l{lb, loc};
    auto tokTy = nvgpu::DeviceAsyncTokenType::get(lb.getContext());
    int64_t S = p.S, L = p.lag;
    Value s = l.rem(it, S);
    Value phase = l.rem(l.div(it, S), 2);
    // Stage s is free once the multiplication of K tile it - S has finished
    // (passes at once for it < S).
    waitPhase(lb, barrierPtr(lb, l.add(s, S)), l.xori(phase, one));
    SmallVector<Value> c;
    issueTile(lb, t, Value(), c, s, /*doStoreNow=*/true);
    Value tok =
        nvgpu::DeviceAsyncCreateGroupOp::create(lb, loc, tokTy, ValueRange{});
    // Hand over K tile it - L: its copies have landed.
    auto ready = scf::IfOp::create(lb, loc, l.ge(it, L), false);
    {
      OpBuilder rb = ready.getThenBodyBuilder();
      Emitter r{rb, loc};
      nvgpu::DeviceAsyncWaitOp::create(rb, loc, tok, rb.getI32IntegerAttr(L));
      fenceSharedToAsyncProxy(rb, loc);
      arriveOn(rb, barrierPtr(rb, r.rem(r.add(it, -L), S)));
    }
    return l.add(it, 1);
  }

  /// The copying warpgroup: every tile's K tiles into the stages, then the
  /// hand-over of the last (up to L) K tiles.
  void buildCopyingWarpgroup(OpBuilder &pb, Value bid, Value grid,
                             Value zero, Value one) {
    Emitter pe{pb, loc};
    auto tokTy = nvgpu::DeviceAsyncTokenType::get(pb.getContext());
    int64_t S = p.S, L = p.lag;
    auto tileLoop = scf::ForOp::create(
        pb, loc, bid, pe.cst(p.MB * p.NB), grid, ValueRange{zero},
        [&](OpBuilder &tb, Location, Value tile, ValueRange targs) {
          Emitter te{tb, loc};
          setTile(te, tile);
          rows.clear();
          if (p.sw.precompute)
            for (int64_t i = 0; i < aCopies(); ++i)
              rows.push_back(rowInfo(te, aRowOf(te, i)));
          auto kLoop = scf::ForOp::create(
              tb, loc, zero, te.cst(p.T), one, ValueRange{targs[0]},
              [&](OpBuilder &lb, Location, Value t, ValueRange largs) {
                scf::YieldOp::create(lb, loc,
                                     ValueRange{copyStage(lb, t, largs[0], one)});
              });
          scf::YieldOp::create(tb, loc, kLoop.getResults());
        });
    Value itEnd = tileLoop.getResult(0);
    Value tok =
        nvgpu::DeviceAsyncCreateGroupOp::create(pb, loc, tokTy, ValueRange{});
    nvgpu::DeviceAsyncWaitOp::create(pb, loc, tok, pb.getI32IntegerAttr(0));
    fenceSharedToAsyncProxy(pb, loc);
    Value from = arith::MaxSIOp::create(pb, loc, pe.add(itEnd, -L), zero);
    scf::ForOp::create(pb, loc, from, itEnd, one, ValueRange{},
                       [&](OpBuilder &db, Location, Value j, ValueRange) {
                         Emitter d{db, loc};
                         arriveOn(db, barrierPtr(db, d.rem(j, S)));
                         scf::YieldOp::create(db, loc);
                       });
  }

  /// The multiplying warpgroups: per tile, each K tile once its stage is
  /// full, freeing the stage of the previous one (one group in flight).
  void buildMultiplyingWarpgroups(OpBuilder &cb, Value bid, Value grid,
                                  Value zero, Value one) {
    Emitter ce{cb, loc};
    int64_t S = p.S;
    Value accInit = LLVM::ZeroOp::create(cb, loc, accType()).getResult();
    scf::ForOp::create(
        cb, loc, bid, ce.cst(p.MB * p.NB), grid, ValueRange{zero},
        [&](OpBuilder &tb, Location, Value tile, ValueRange targs) {
          Emitter te{tb, loc};
          setTile(te, tile);
          auto kLoop = scf::ForOp::create(
              tb, loc, zero, te.cst(p.T), one, ValueRange{targs[0], accInit},
              [&](OpBuilder &lb, Location, Value t, ValueRange largs) {
                Emitter l{lb, loc};
                Value it = largs[0];
                Value s = l.rem(it, S);
                waitPhase(lb, barrierPtr(lb, s), l.rem(l.div(it, S), 2));
                Value acc = computeWG(lb, s, ValueRange{largs[1]})[0];
                // The group of K tile it - 1 has finished: free its stage.
                NVVM::WgmmaWaitGroupSyncOp::create(lb, loc,
                                                   lb.getI64IntegerAttr(1));
                auto prev = scf::IfOp::create(lb, loc, l.ge(t, 1), false);
                {
                  OpBuilder rb = prev.getThenBodyBuilder();
                  Emitter r{rb, loc};
                  arriveOn(rb, barrierPtr(rb, r.add(r.rem(r.add(it, -1), S), S)));
                }
                scf::YieldOp::create(lb, loc, ValueRange{l.add(it, 1), acc});
              });
          Value itEnd = kLoop.getResult(0);
          Value acc = kLoop.getResult(1);
          NVVM::WgmmaWaitGroupSyncOp::create(tb, loc, tb.getI64IntegerAttr(0));
          arriveOn(tb, barrierPtr(tb, te.add(te.rem(te.add(itEnd, -1), S), S)));
          epilogue(tb, ValueRange{acc});
          scf::YieldOp::create(tb, loc, ValueRange{itEnd});
        });
  }

  void buildSpecialized(Emitter &e, Value bid) {
    Value zero = e.cst(0), one = e.cst(1);
    Value grid = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
    Value tid0 = tid;
    initSpecializedBarriers(e);
    gpu::BarrierOp::create(b, loc);
    descA0 = wgmmaDescriptor(b, loc, aS, layoutA());
    descB0 = wgmmaDescriptor(b, loc, bS, layoutB());
    auto role = scf::IfOp::create(b, loc, e.lt(tid0, 128),
                                  /*withElseRegion=*/true);
    OpBuilder pb = role.getThenBodyBuilder();
    tid = tid0;
    buildCopyingWarpgroup(pb, bid, grid, zero, one);
    // Multiplying warpgroups (thread ids 0 .. 128 WG within them).
    OpBuilder cb = role.getElseBodyBuilder();
    tid = Emitter{cb, loc}.add(tid0, -128);
    buildMultiplyingWarpgroups(cb, bid, grid, zero, one);
    tid = tid0;
  }

  Value asyncCommit(OpBuilder &ob) { return commitCopyGroup(ob, loc); }
  void asyncWait(OpBuilder &ob, Value tok, int32_t n) {
    waitCopyGroups(ob, loc, tok, n);
  }

  void buildLoop(Emitter &e) {
    Value zero = e.cst(0), one = e.cst(1);
    SmallVector<Value> ctr0 = {zero, zero, zero};
    Value accInit =
        p.wg ? LLVM::ZeroOp::create(b, loc, accType()).getResult()
             : arith::ConstantOp::create(
                   b, loc, DenseElementsAttr::get(cast<ShapedType>(accType()),
                                                  b.getF32FloatAttr(0.0f)))
                   .getResult();
    if (p.wg) {
      descA0 = wgmmaDescriptor(b, loc, aS, layoutA());
      descB0 = wgmmaDescriptor(b, loc, bS, layoutB());
    }
    // Prologue (S > 1): tiles 0 .. S-2 into buffers 0 .. S-2, one cp.async
    // group each.
    SmallVector<Value> ctr = ctr0;
    for (int64_t j = 0; j + 1 < p.S; ++j) {
      Value ok = j < p.T ? Value()
                         : arith::ConstantOp::create(b, loc, b.getBoolAttr(false))
                               .getResult();
      issueTile(b, e.cst(j), ok, ctr, e.cst(j), /*doStoreNow=*/true);
      if (p.sw.asyncCopy)
        asyncCommit(b);
    }
    SmallVector<Value> iter(accCount(), accInit);
    if (p.wg && p.sw.wgmmaOverlap)
      return epilogue(b, buildOverlappedLoop(e, zero, one, iter));
    if (p.wg && p.oneBarrier)
      return epilogue(b, buildOneBarrierLoop(e, zero, one, iter));
    epilogue(b, buildStagedLoop(e, zero, one, iter));
  }

  /// overlap: tile t's wgmma group stays in flight through the rest of the
  /// iteration; the one of tile t - 1 must have finished (in every
  /// warpgroup: barrier) before its buffer is refilled. The last tile waits
  /// for all (inside the loop, so that no read of the accumulators is
  /// scheduled before).
  ValueRange buildOverlappedLoop(Emitter &e, Value zero, Value one,
                                 ValueRange iter) {
    return wgmmaTileLoop(
        e, zero, one, iter,
        [&](OpBuilder &lb, Emitter &l, Value t, Value cur,
            ValueRange args) -> SmallVector<Value> {
          Value acc = computeWG(lb, cur, ValueRange{args[0]})[0];
          auto last = scf::IfOp::create(lb, loc, l.lt(l.add(t, 1), p.T),
                                        /*withElseRegion=*/true);
          {
            OpBuilder tb = last.getThenBodyBuilder();
            NVVM::WgmmaWaitGroupSyncOp::create(tb, loc,
                                               tb.getI64IntegerAttr(1));
            OpBuilder eb = last.getElseBodyBuilder();
            NVVM::WgmmaWaitGroupSyncOp::create(eb, loc,
                                               eb.getI64IntegerAttr(0));
          }
          gpu::BarrierOp::create(lb, loc);
          // Then tile t + 1 has landed.
          issueAhead(lb, l, t);
          asyncWait(lb, asyncCommit(lb), p.S - 2);
          return {acc};
        });
  }

  /// The loop over the T K tiles of the wgmma pipelines, entered once tile
  /// 0 has landed (S - 2 younger groups may be pending): every iteration
  /// fences the generic-proxy copies, waits at a barrier, and `body`
  /// computes on buffer `cur` (t % S) and returns what iteration t yields.
  ValueRange wgmmaTileLoop(
      Emitter &e, Value zero, Value one, ValueRange iter,
      function_ref<SmallVector<Value>(OpBuilder &, Emitter &, Value t,
                                      Value cur, ValueRange)>
          body) {
    asyncWait(b, asyncCommit(b), p.S - 1);
    auto loop = scf::ForOp::create(
        b, loc, zero, e.cst(p.T), one, iter,
        [&](OpBuilder &lb, Location, Value t, ValueRange args) {
          Emitter l{lb, loc};
          fenceSharedToAsyncProxy(lb, loc);
          gpu::BarrierOp::create(lb, loc);
          Value cur = l.rem(t, p.S);
          scf::YieldOp::create(lb, loc, body(lb, l, t, cur, args));
        });
    return loop.getResults();
  }

  /// Issues the copies of tile t + S - 1 (none past the last tile) into
  /// the buffer that tile t - 1 used.
  void issueAhead(OpBuilder &lb, Emitter &l, Value t) {
    Value tn = l.add(t, p.S - 1);
    SmallVector<Value> c;
    issueTile(lb, tn, l.lt(tn, p.T), c, l.rem(tn, p.S), /*doStoreNow=*/true);
  }

  /// barriers = 1: after the one barrier per K tile, tile t is in shared
  /// memory for every thread and every warpgroup has finished tile t - 1
  /// (wait_group 0 before the barrier), so the copies of tile t + S - 1 go
  /// into tile t - 1's buffer while tile t's wgmma group runs; then tile
  /// t + 1 has landed (S - 2 younger groups pending).
  ValueRange buildOneBarrierLoop(Emitter &e, Value zero, Value one,
                                 ValueRange iter) {
    return wgmmaTileLoop(
        e, zero, one, iter,
        [&](OpBuilder &lb, Emitter &l, Value t, Value cur,
            ValueRange args) -> SmallVector<Value> {
          Value acc = computeWG(lb, cur, args)[0];
          issueAhead(lb, l, t);
          Value tok = asyncCommit(lb);
          NVVM::WgmmaWaitGroupSyncOp::create(lb, loc,
                                             lb.getI64IntegerAttr(0));
          asyncWait(lb, tok, p.S - 2);
          return {acc};
        });
  }

  /// The default pipeline: tile t + S - 1 issued into the buffer tile t - 1
  /// used, wait for tile t, barrier, compute, (register-staged stores),
  /// barrier.
  SmallVector<Value> buildStagedLoop(Emitter &e, Value zero, Value one,
                                     ValueRange iter) {
    int64_t S = p.S, nAcc = accCount();
    auto loop = scf::ForOp::create(
        b, loc, zero, e.cst(p.T), one, iter,
        [&](OpBuilder &lb, Location, Value t, ValueRange args) {
          Emitter l{lb, loc};
          SmallVector<Value> acc(args.begin(), args.begin() + nAcc);
          SmallVector<Value> c(args.begin() + nAcc, args.end());
          Value cur = S > 1 ? l.rem(t, S) : zero;
          SmallVector<Value> staged;
          Value next;
          if (S > 1) {
            // (Every thread passed the barrier after computing on the
            // buffer of tile t - 1.)
            Value tn = l.add(t, S - 1);
            next = l.rem(tn, S);
            Value ok = l.lt(tn, p.T);
            staged = issueTile(lb, tn, ok, c, next, /*doStoreNow=*/false);
            if (p.sw.asyncCopy)
              asyncWait(lb, asyncCommit(lb), S - 1); // tile t has landed
            if (p.tma) // and its B tile
              waitPhase(lb, barrierPtr(lb, cur), l.rem(l.div(t, S), 2));
          } else {
            issueTile(lb, t, Value(), c, zero, /*doStoreNow=*/true);
            if (p.sw.asyncCopy)
              asyncWait(lb, asyncCommit(lb), 0);
          }
          if (p.wg)
            fenceSharedToAsyncProxy(lb, loc);
          gpu::BarrierOp::create(lb, loc);
          acc = computeTile(lb, cur, acc);
          if (S > 1)
            storeStaged(lb, staged, next);
          gpu::BarrierOp::create(lb, loc);
          scf::YieldOp::create(lb, loc, acc);
        });
    return SmallVector<Value>(loop.getResults().begin(),
                              loop.getResults().begin() + nAcc);
  }
};

//===----------------------------------------------------------------------===//
// Plans: what the configuration says, with the shape's extents
//===----------------------------------------------------------------------===//

/// The shape fields of a plan.
void planShape(Plan &p, const Im2winShape &s) {
  p.et = s.elem;
  p.tc = !s.isF32();
  p.N = s.N; p.IH = s.IH; p.IW = s.IW; p.C = s.C;
  p.FH = s.FH; p.FW = s.FW; p.OC = s.OC; p.OH = s.OH; p.OW = s.OW;
  p.sh = s.sh; p.sw_ = s.sw; p.dh = s.dh; p.dw = s.dw;
  p.pt = s.padTop; p.pl = s.padLeft;
  p.IWp = s.IW + s.padLeft + s.padRight;
}

/// The GEMM extents and bounds checks, once the tiles are known.
void planExtents(Plan &p) {
  p.uniform = p.chunked && p.C % p.BK == 0 && p.sw.precompute;
  p.M = p.N * p.OH * p.OW;
  p.K = p.FH * p.FW * p.C;
  p.T = (p.K + p.BK - 1) / p.BK;
  p.MB = (p.M + p.BM - 1) / p.BM;
  p.NB = (p.OC + p.BN - 1) / p.BN;
  // Input rows/columns can leave the input only with padding or a window
  // reaching past the end; the im2win tensor holds the padding.
  p.checkH = p.pt > 0 || (p.OH - 1) * p.sh + (p.FH - 1) * p.dh - p.pt >= p.IH;
  p.checkW = p.pl > 0 || (p.OW - 1) * p.sw_ + (p.FW - 1) * p.dw - p.pl >= p.IW;
  if (p.sw.im2winTensor)
    p.checkH = p.checkW = false;
}

/// The CUDA-core (f32) and mma.sync (f16/bf16) kernels: 256 threads,
/// BM x BN = 256 x 64 or 128 x 128, K tiles of 16 / 32.
template <typename Attr>
Plan planGemm(const Im2winShape &s, Attr c) {
  Plan p;
  p.sw.precompute = c.getPrecompute().getValue();
  p.sw.asyncCopy = c.getAsyncCopy().getValue();
  p.sw.im2winTensor = c.getIm2winTensor().getValue();
  p.sw.minBlocksPerSM = c.getMinBlocksPerSm();
  if constexpr (std::is_same_v<Attr, Im2winMmaKernelAttr>)
    p.sw.swizzle = c.getSwizzle().getValue();
  planShape(p, s);
  p.V = p.VB = p.tc ? 8 : 4;
  p.BK = im2winTileK(s);
  p.BN = c.getTileN();
  p.BM = im2winTileM(p.BN);
  p.chunked = p.C % p.V == 0;
  p.S = c.getStages();
  p.copyThreads = p.threads;
  planExtents(p);
  return p;
}

/// The warpgroup kernel: WG warpgroups of 128 threads (one more copying
/// with specialize), 64 rows each x BN channels, K tiles of 64.
Plan planWgmma(const Im2winShape &s, Im2winWgmmaKernelAttr c,
               TargetAttr target) {
  Plan p;
  p.sw.precompute = c.getPrecompute().getValue();
  p.sw.im2winTensor = c.getIm2winTensor().getValue();
  p.sw.wgmmaOverlap = c.getOverlap().getValue();
  p.sw.stagedStores = c.getStagedStores().getValue();
  p.sw.minBlocksPerSM = c.getMinBlocksPerSm();
  planShape(p, s);
  p.V = p.VB = 8;
  // C % 8 == 4: A in 8-byte chunks (one per 4 channels).
  p.chunked = true;
  if (p.C % 8 != 0)
    p.V = 4;
  p.wg = true;
  p.WG = c.getWarpgroups();
  p.BM = 64 * p.WG;
  p.BN = c.getN();
  p.BK = kIm2winWgmmaBK;
  p.threads = 128 * p.WG;
  p.oneBarrier = c.getBarriers() == 1;
  p.spec = c.getSpecialize().getValue();
  if (p.spec)
    p.threads = 128 * (p.WG + 1);
  p.copyThreads = p.spec ? 128 : p.threads;
  p.S = c.getStages();
  p.lag = p.S - 2;
  p.tmaA = c.getTmaIm2col().getValue();
  p.tma = c.getTmaFilter().getValue() || p.tmaA;
  Im2winWgmmaSharedMemory smem = im2winWgmmaSharedMemory(
      p.WG, p.BN, p.S, p.spec, p.tma, p.sw.stagedStores);
  p.dynamicSmem = smem.dynamic;
  p.smemBytes = smem.bytes;
  planExtents(p);
  // The persistent grid of specialize: every SM's share of blocks (two
  // with one multiplying warpgroup), at most one per output tile.
  int64_t blocksPerSM = p.WG == 1 ? 2 : 1;
  if (p.spec)
    p.grid = std::min<int64_t>(p.MB * p.NB, target.getSmCount() * blocksPerSM);
  return p;
}

Plan planOf(Conv2DOp op, KernelConfigAttrInterface config) {
  Im2winShape s = *im2winShapeOf(op);
  if (auto c = dyn_cast<Im2winWgmmaKernelAttr>(config))
    return planWgmma(s, c, TargetAttr::lookup(op));
  if (auto c = dyn_cast<Im2winMmaKernelAttr>(config))
    return planGemm(s, c);
  return planGemm(s, cast<Im2winSimtKernelAttr>(config));
}

/// The im2win configuration of `op` the pass emits, or failure: ops with
/// none (or an incomplete one), on tensors, or one that does not fit are
/// left alone.
FailureOr<KernelConfigAttrInterface> configOf(Conv2DOp op,
                                              PatternRewriter &rewriter) {
  auto config = op->getAttrOfType<KernelConfigAttrInterface>(kKernelAttrName);
  if (!config || !isa<Im2winSimtKernelAttr, Im2winMmaKernelAttr,
                      Im2winWgmmaKernelAttr>(config))
    return rewriter.notifyMatchFailure(op, "no im2win dwc.kernel");
  if (!config.isComplete())
    return rewriter.notifyMatchFailure(
        op, "incomplete dwc.kernel (run dwc-select-kernels)");
  if (!isa<MemRefType>(op.getInit().getType()))
    return rewriter.notifyMatchFailure(op, "tensor form (bufferize first)");
  std::string why = config.whyNotFor(op);
  if (!why.empty())
    return rewriter.notifyMatchFailure(op, why);
  return config;
}

//===----------------------------------------------------------------------===//
// Host side: temporaries, tensor maps, the outlined kernel and its launch
//===----------------------------------------------------------------------===//

/// The separate transform (im2win_tensor): dwc.im2win into a temporary
/// (lowered by convert-dwc-to-gpu) that the kernel reads; null otherwise.
Value materialiseIm2win(Conv2DOp op, const Plan &p, PatternRewriter &rewriter) {
  if (!p.sw.im2winTensor)
    return Value();
  Location loc = op.getLoc();
  auto rTy = MemRefType::get({p.N, p.OH, p.IWp, p.FH, p.C}, p.et);
  Value tmp = memref::AllocOp::create(rewriter, loc, rTy);
  Im2winOp::create(rewriter, loc, TypeRange{}, op.getInput(), tmp,
                   rewriter.getDenseI64ArrayAttr({p.FH, p.FW}),
                   op.getStridesAttr(), op.getDilationsAttr(),
                   op.getPaddingAttr());
  return tmp;
}

/// Declares the runtime entry `name` (returning an i64) once.
void declareRuntimeFn(ModuleOp module, PatternRewriter &rewriter, Location loc,
                      StringRef name, ArrayRef<Type> params) {
  if (module.lookupSymbol<func::FuncOp>(name))
    return;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(module.getBody());
  func::FuncOp::create(rewriter, loc, name,
                       rewriter.getFunctionType(params, {rewriter.getI64Type()}))
      .setPrivate();
}

/// The tensor maps of tma_filter / tma_im2col, encoded (and cached) by the
/// runtime, appended to the kernel arguments; 0 means the runtime could not
/// (error pending): the kernel then does nothing.
void appendTensorMaps(Conv2DOp op, const Plan &p, PatternRewriter &rewriter,
                      SmallVectorImpl<Value> &args) {
  if (!p.tma)
    return;
  Location loc = op.getLoc();
  ModuleOp module = op->getParentOfType<ModuleOp>();
  Type i64 = rewriter.getI64Type(), i32 = rewriter.getI32Type();
  auto c64 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(rewriter, loc, v, 64);
  };
  auto c32 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(rewriter, loc, v, 32);
  };
  auto pointer = [&](Value m) -> Value {
    return arith::IndexCastUIOp::create(
        rewriter, loc, i64,
        memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, m));
  };
  // The filter as a K x OC matrix: 64 x 64 boxes, 128-byte swizzle, zero
  // fill past K and OC. CU_TENSOR_MAP_DATA_TYPE_FLOAT16 = 6, BFLOAT16 = 9;
  // SWIZZLE_128B = 3.
  StringRef fnName = "dwcTensorMap2D";
  declareRuntimeFn(module, rewriter, loc, fnName,
                   {i64, i64, i64, i64, i32, i32, i32, i32});
  int64_t dataType = p.et.isF16() ? 6 : 9;
  Value base = pointer(op.getFilter());
  args.push_back(func::CallOp::create(
                     rewriter, loc, fnName, TypeRange{i64},
                     ValueRange{base, c64(p.K), c64(p.OC), c64(p.OC * 2),
                                c32(64), c32(64), c32(dataType), c32(3)})
                     .getResult(0));
  if (!p.tmaA)
    return;
  // The input's im2col map: BM output pixels x 64 channels per copy, the
  // window's corner over [-pl, W - 1 + pr - (FW - 1)] x [-pt, H - 1 + pb -
  // (FH - 1)].
  StringRef im2colName = "dwcTensorMapIm2col";
  declareRuntimeFn(module, rewriter, loc, im2colName,
                   {i64, i64, i64, i64, i64, i32, i32, i32, i32, i32, i32, i32,
                    i32});
  auto pad = op.getPadding();
  Value xBase = pointer(op.getInput());
  args.push_back(
      func::CallOp::create(
          rewriter, loc, im2colName, TypeRange{i64},
          ValueRange{xBase, c64(p.N), c64(p.IH), c64(p.IW), c64(p.C),
                     c32(-pad[2]), c32(-pad[0]), c32(pad[3] - (p.FW - 1)),
                     c32(pad[1] - (p.FH - 1)), c32(64), c32(p.BM),
                     c32(dataType), c32(3)})
          .getResult(0));
}

/// The shared A and B stage buffers: [S][BM][BK] and [S][BK][BN] (wgmma: B
/// as 64-channel halves, [S * BN / 64][BK][64]).
struct SharedTiles {
  MemRefType a, b;
  int64_t bytes() const {
    return (a.getNumElements() + b.getNumElements()) *
           (a.getElementTypeBitWidth() / 8);
  }
};
SharedTiles sharedTilesOf(const Plan &p, MLIRContext *ctx) {
  auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  int64_t NBUF = p.buffers();
  SharedTiles t;
  t.a = MemRefType::get({NBUF, p.BM, p.BK}, p.et, AffineMap(), wg);
  t.b = MemRefType::get({NBUF, p.BK, p.BN}, p.et, AffineMap(), wg);
  if (p.wg)
    t.b = MemRefType::get({NBUF * (p.BN / 64), p.BK, 64}, p.et, AffineMap(),
                          wg);
  return t;
}

/// The kernel's name: <func>_<family>, unique in the module.
std::string kernelNameOf(Conv2DOp op, ModuleOp module, StringRef family) {
  std::string name = "dwc_conv_" + family.str();
  if (auto fn = op->getParentOfType<FunctionOpInterface>())
    name = (fn.getName() + "_" + family).str();
  for (int i = 0; SymbolTable::lookupSymbolIn(module, name); ++i)
    name = (name + "_" + std::to_string(i));
  return name;
}

/// The outlined kernel (not left to gpu-kernel-outlining, so that it can
/// carry launch bounds: known_block_size and, with min_blocks_per_sm > 1,
/// nvvm.minctasm), its body ending in gpu.return.
gpu::GPUFuncOp createKernelFunc(ModuleOp module, Location loc, StringRef name,
                                const Plan &p, ValueRange args,
                                SharedTiles tiles) {
  MLIRContext *ctx = module.getContext();
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  UnitAttr::get(ctx));
  OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
  auto gm = gpu::GPUModuleOp::create(mb, loc, name);
  OpBuilder fb = OpBuilder::atBlockBegin(gm.getBody());
  auto fty = FunctionType::get(ctx, args.getTypes(), {});
  auto kernel = gpu::GPUFuncOp::create(
      fb, loc, name, fty,
      p.dynamicSmem ? TypeRange{} : TypeRange{tiles.a, tiles.b}, TypeRange{});
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), fb.getUnitAttr());
  // The 128-byte swizzle of the wgmma operands repeats every 1024 bytes:
  // the descriptors assume buffers aligned to it.
  if (p.wg && !p.dynamicSmem)
    for (unsigned i = 0; i < 2; ++i)
      kernel.setWorkgroupAttributionAttr(
          i, LLVM::LLVMDialect::getAlignAttrName(),
          fb.getI64IntegerAttr(kSwizzlePeriodBytes));
  kernel.setKnownBlockSizeAttr(
      fb.getDenseI32ArrayAttr({int32_t(p.threads), 1, 1}));
  // Launch bound on request only: two blocks per SM (128 registers) for
  // the 128 x 128 tensor-core kernel measured 0.93-1.03x the time of one
  // block (docs/KernelSelection.md), and ptxas spills under that bound for
  // the f32 kernel, the element-wise gather, 256 x 64 tiles and padded
  // inputs.
  if (p.sw.minBlocksPerSM > 1)
    kernel->setAttr("nvvm.minctasm",
                    fb.getI32IntegerAttr(p.sw.minBlocksPerSM));
  Block &entry = kernel.getBody().front();
  OpBuilder b = OpBuilder::atBlockEnd(&entry);
  gpu::ReturnOp::create(b, loc);
  return kernel;
}

/// The shared buffers of a kernel with dynamic shared memory: A and B from
/// the first 1024-byte boundary on (the launch asks for 1 KB more), then
/// the mbarriers (specialize: 2 x S, full then empty; tma: S, B of stage s
/// landed), then the warps' staging areas (specialize + staged stores).
void viewDynamicShared(OpBuilder &b, Location loc, const Plan &p,
                       SharedTiles tiles, KernelBuilder &kb) {
  Emitter e{b, loc};
  auto wg = gpu::AddressSpaceAttr::get(b.getContext(),
                                       gpu::AddressSpace::Workgroup);
  Value raw = dynamicSharedBuffer(b, loc);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, raw);
  Value pad = arith::AndIOp::create(b, loc, e.sub(0, base),
                                    e.cst(kSwizzlePeriodBytes - 1));
  kb.aS = memref::ViewOp::create(b, loc, tiles.a, raw, pad, ValueRange{});
  kb.bS = memref::ViewOp::create(b, loc, tiles.b, raw,
                                 e.add(pad, tiles.a.getNumElements() * 2),
                                 ValueRange{});
  int64_t tileBytes =
      (tiles.a.getNumElements() + tiles.b.getNumElements()) * 2;
  if (p.spec || p.tma)
    kb.barriers = e.add(e.add(base, pad), tileBytes);
  if (p.spec && p.sw.stagedStores)
    kb.warpStage = memref::ViewOp::create(
        b, loc, MemRefType::get({warpStageBytes(p) / 2}, p.et, AffineMap(), wg),
        raw, e.add(pad, tileBytes + 16 * p.S), ValueRange{});
}

/// The kernel body: shared buffers, the tensor-map guard (no tensor map:
/// the runtime reported why, nothing to do) and the builder's code.
void buildKernelBody(gpu::GPUFuncOp kernel, Plan &p, SharedTiles tiles,
                     bool hasBias) {
  Location loc = kernel.getLoc();
  Block &entry = kernel.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  unsigned nArgs = entry.getNumArguments();
  Value kx = entry.getArgument(0), kw = entry.getArgument(1);
  Value kbias = hasBias ? entry.getArgument(2) : Value();
  Value ky = entry.getArgument(hasBias ? 3 : 2);
  Value aS, bS;
  if (!p.dynamicSmem) {
    aS = kernel.getWorkgroupAttributions()[0];
    bS = kernel.getWorkgroupAttributions()[1];
  }
  KernelBuilder kb{p, b, loc, kx, kw, kbias, ky, aS, bS};
  if (p.dynamicSmem)
    viewDynamicShared(b, loc, p, tiles, kb);
  if (p.tma) {
    auto nonzero = [&](Value v) -> Value {
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v,
                                   arith::ConstantIntOp::create(b, loc, 0, 64));
    };
    Value cond = nonzero(entry.getArgument(nArgs - 1));
    if (p.tmaA)
      cond = arith::AndIOp::create(b, loc, cond,
                                   nonzero(entry.getArgument(nArgs - 2)));
    auto ok = scf::IfOp::create(b, loc, cond, false);
    b.setInsertionPoint(ok.thenBlock()->getTerminator());
    auto ptr = LLVM::LLVMPointerType::get(b.getContext());
    kb.tmap = LLVM::IntToPtrOp::create(
        b, loc, ptr, entry.getArgument(nArgs - (p.tmaA ? 2 : 1)));
    if (p.tmaA)
      kb.tmapA =
          LLVM::IntToPtrOp::create(b, loc, ptr, entry.getArgument(nArgs - 1));
  }
  kb.build();
}

struct Im2winConvLowering : OpRewritePattern<Conv2DOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<KernelConfigAttrInterface> config = configOf(op, rewriter);
    if (failed(config))
      return failure();
    if (needsChannelPadding(op, *config))
      return padChannelsAndLower(op, rewriter);
    Plan p = planOf(op, *config);
    lower(op, p, config->getFamily(), rewriter);
    return success();
  }

  /// The kernel of plan `p` and its launch in place of `op`.
  void lower(Conv2DOp op, Plan &p, StringRef family,
             PatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    Value bias = op.getBias();
    Value tmp = materialiseIm2win(op, p, rewriter);
    ModuleOp module = op->getParentOfType<ModuleOp>();
    std::string name = kernelNameOf(op, module, family);
    SmallVector<Value> args = {tmp ? tmp : op.getInput(), op.getFilter()};
    if (bias)
      args.push_back(bias);
    args.push_back(op.getInit());
    appendTensorMaps(op, p, rewriter, args);
    SharedTiles tiles = sharedTilesOf(p, rewriter.getContext());
    gpu::GPUFuncOp kernel =
        createKernelFunc(module, loc, name, p, args, tiles);
    buildKernelBody(kernel, p, tiles, bool(bias));

    Emitter h{rewriter, loc};
    Value one = h.cst(1);
    Value smem;
    if (p.dynamicSmem)
      smem = arith::ConstantIntOp::create(rewriter, loc, p.smemBytes, 32);
    gpu::LaunchFuncOp::create(
        rewriter, loc, kernel,
        gpu::KernelDim3{h.cst(p.spec ? p.grid : p.MB * p.NB), one, one},
        gpu::KernelDim3{h.cst(p.threads), one, one}, smem, args);
    if (tmp)
      memref::DeallocOp::create(rewriter, loc, tmp);
    rewriter.eraseOp(op);
  }

  /// The warpgroup kernel needs C % 4 == 0: other f16/bf16 inputs (e.g. the
  /// C = 3 first layers) are padded to a multiple of 4 channels first
  /// (dwc-select-kernels gives them the warpgroup kernel only where that
  /// pays off).
  static bool needsChannelPadding(Conv2DOp op,
                                  KernelConfigAttrInterface config) {
    auto xTy = cast<MemRefType>(op.getInput().getType());
    return isa<Im2winWgmmaKernelAttr>(config) && xTy.getShape()[3] % 4 != 0;
  }

  /// Zero-pads the channels of x (N x H x W x C) and w (FH x FW x C x OC)
  /// to C4 = C rounded up to 4 in two temporaries (two element-wise
  /// kernels: one thread per input pixel writing 8-byte chunks, one per
  /// filter element), then lowers the convolution on them.
  LogicalResult padChannelsAndLower(Conv2DOp op,
                                    PatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    auto xTy = cast<MemRefType>(op.getInput().getType());
    auto wTy = cast<MemRefType>(op.getFilter().getType());
    Type et = xTy.getElementType();
    auto xs = xTy.getShape(), ws = wTy.getShape();
    int64_t C4 = (xs[3] + 3) / 4 * 4;
    Value xp = memref::AllocOp::create(
        rewriter, loc, MemRefType::get({xs[0], xs[1], xs[2], C4}, et));
    Value wp = memref::AllocOp::create(
        rewriter, loc, MemRefType::get({ws[0], ws[1], C4, ws[3]}, et));
    padInputChannels(op, xp, rewriter);
    padFilterChannels(op, wp, rewriter);
    auto padded = cast<Conv2DOp>(rewriter.clone(*op));
    padded.getInputMutable().assign(xp);
    padded.getFilterMutable().assign(wp);
    rewriter.setInsertionPointAfter(padded);
    memref::DeallocOp::create(rewriter, loc, xp);
    memref::DeallocOp::create(rewriter, loc, wp);
    rewriter.eraseOp(op);
    return matchAndRewrite(padded, rewriter);
  }


  /// A launch of one thread per element of `total`, named after the
  /// convolution's kernel with `role`: the builder inside the bounds check
  /// and the element index.
  static std::pair<OpBuilder, Value> elementwise(Conv2DOp op, int64_t total,
                                                 StringRef role,
                                                 PatternRewriter &rewriter) {
    constexpr int64_t kThreads = 256;
    Location loc = op.getLoc();
    auto [launch, ob] = createGridLaunch(
        rewriter, loc, (total + kThreads - 1) / kThreads, 1, kThreads);
    nameKernel(launch, Im2winWgmmaKernelAttr::getMnemonic(), role);
    Emitter g{ob, loc};
    Value id = g.add(g.mul(launch.getBlockIds().x, kThreads),
                     launch.getThreadIds().x);
    if (total % kThreads == 0)
      return {ob, id};
    return {scf::IfOp::create(ob, loc, g.lt(id, total), false)
                .getThenBodyBuilder(),
            id};
  }

  /// One thread per input pixel: C4 / 4 chunks of 4 channels into `xp`.
  static void padInputChannels(Conv2DOp op, Value xp,
                               PatternRewriter &rewriter) {
    Location loc = op.getLoc();
    auto xs = cast<MemRefType>(op.getInput().getType()).getShape();
    Type et = cast<MemRefType>(xp.getType()).getElementType();
    int64_t C = xs[3], C4 = cast<MemRefType>(xp.getType()).getShape()[3];
    auto [b, pix] = elementwise(op, xs[0] * xs[1] * xs[2], "pad_input",
                                rewriter);
    Emitter e{b, loc};
    Value src = flatten(b, loc, op.getInput()), dst = flatten(b, loc, xp);
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(et));
    for (int64_t j = 0; j < C4 / 4; ++j) {
      SmallVector<Value> el;
      for (int64_t i = 0; i < 4; ++i) {
        int64_t c = 4 * j + i;
        el.push_back(c < C ? memref::LoadOp::create(
                                 b, loc, src, ValueRange{e.add(e.mul(pix, C), c)})
                                 .getResult()
                           : zero);
      }
      Value v = vector::FromElementsOp::create(b, loc, VectorType::get({4}, et),
                                               el);
      vector::StoreOp::create(b, loc, v, dst,
                              ValueRange{e.add(e.mul(pix, C4), 4 * j)}, false,
                              llvm::Align(8));
    }
  }

  /// One thread per padded filter element (tap, c, oc) of `wp`.
  static void padFilterChannels(Conv2DOp op, Value wp,
                                PatternRewriter &rewriter) {
    Location loc = op.getLoc();
    auto ws = cast<MemRefType>(wp.getType()).getShape();
    Type et = cast<MemRefType>(wp.getType()).getElementType();
    int64_t C = cast<MemRefType>(op.getFilter().getType()).getShape()[2];
    int64_t C4 = ws[2], OC = ws[3];
    auto [b, id] = elementwise(op, ws[0] * ws[1] * C4 * OC, "pad_filter",
                               rewriter);
    Emitter e{b, loc};
    Value src = flatten(b, loc, op.getFilter()), dst = flatten(b, loc, wp);
    auto co = e.delinearize(id, {ws[0] * ws[1], C4, OC});
    Value ok = e.lt(co[1], C);
    Value at = e.add(e.mul(e.add(e.mul(co[0], C), e.minc(co[1], C - 1)), OC),
                     co[2]);
    Value v = memref::LoadOp::create(b, loc, src, ValueRange{at});
    v = arith::SelectOp::create(
        b, loc, ok, v, arith::ConstantOp::create(b, loc, b.getZeroAttr(et)));
    memref::StoreOp::create(b, loc, v, dst, ValueRange{id});
  }
};

struct ConvertDwcToGPUIm2winPass
    : PatternKernelPass<ConvertDwcToGPUIm2winPass,
                        dwc::impl::ConvertDwcToGPUIm2winBase,
                        /*benefit=*/2,
                        Im2winConvLowering> {
  using PatternKernelPass::PatternKernelPass;
};

} // namespace
