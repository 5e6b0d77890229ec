//===- DwcToGPUStrided.cpp - strided depthwise forward and dX kernels -----===//
//
// Lowers eligible memref-form depthwise convolutions with a stride > 1 (see
// the pass description in include/dwc/Conversion/Passes.td):
//
// * forward: a thread owns TH output rows x TQ output columns x V channels
//   and slides a register window of FW input columns ((TH-1)*sh + FH
//   vectors each) along the width; the FW - sw columns two neighbouring
//   outputs share stay in registers, sw new ones are loaded per output
//   column;
// * backward data: a phase-decomposed gather,
//
//   dX[n, h, w, c] = sum dY[n, t - j, q - i, c] * W[ph + sh*j, pw + sw*i, c]
//
// with h + pt = t*sh + ph and w + pl = q*sw + pw (0 <= ph < sh, 0 <= pw < sw):
// the taps a dX pixel receives depend only on its phase (ph, pw), so every
// tap set is static and the inner loop has no divisibility test. A thread
// owns one "super row" t (the sh dX rows of all phases) x TQ consecutive
// super columns q x V channels; per super column it loads one dY column of
// ceil(FH/sh) vectors into a register window of ceil(FW/sw) columns and
// stores sh*sw dX vectors, each the sum of its phase's taps (FH*FW FMAs per
// super pixel: every product once, no atomics).
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/FusedEdges.h"
#include "dwc/Conversion/KernelPass.h"
#include "dwc/Conversion/Passes.h"
#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "dwc/Conversion/IndexEmitter.h"
#include "dwc/Conversion/LaunchBuilder.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include <deque>
#include <limits>

namespace mlir::dwc {
#define GEN_PASS_DEF_CONVERTDWCTOGPUSTRIDED
#include "dwc/Conversion/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;
using namespace mlir::dwc;

namespace {

/// The register budget of a `loads_first` tile (the most a thread has).
constexpr int64_t kMaxRegistersPerThread = 255;
/// The launch geometry of one op.
struct Plan {
  int64_t N, IH, IW, C, FH, FW, OH, OW, pt, pl, sh, sw;
  int64_t V;       // channels per thread
  int64_t KH, KW;  // dY rows / columns a super pixel reads: ceil(F / s)
  int64_t t0, T;   // first super row, super rows
  int64_t q0, Q;   // first super column, super columns
  int64_t TQ;      // super columns per thread
  int64_t segs;    // ceil(Q / TQ)
  int64_t threads; // N * T * segs * C / V
};

Plan makePlan(DepthwiseConv2DBackwardDataOp op, StridedGatherKernelAttr config) {
  auto ig = cast<MemRefType>(op.getInit().getType()).getShape();
  auto og = cast<MemRefType>(op.getOutputGrad().getType()).getShape();
  auto f = cast<MemRefType>(op.getFilter().getType()).getShape();
  auto s = op.getStrides();
  auto p = op.getPadding();
  Plan pl{ig[0], ig[1], ig[2], ig[3], f[0], f[1], og[1], og[2],
          p[0],  p[2],  s[0],  s[1]};
  pl.V = config.getChannels();
  pl.KH = (pl.FH + pl.sh - 1) / pl.sh;
  pl.KW = (pl.FW + pl.sw - 1) / pl.sw;
  // Super row t covers dX rows t*sh - pt + [0, sh); all of [0, IH) is in
  // t0 .. (IH - 1 + pt) / sh.
  pl.t0 = pl.pt / pl.sh;
  pl.T = (pl.IH - 1 + pl.pt) / pl.sh - pl.t0 + 1;
  pl.q0 = pl.pl / pl.sw;
  pl.Q = (pl.IW - 1 + pl.pl) / pl.sw - pl.q0 + 1;
  pl.TQ = std::min(config.getColumns(), pl.Q);
  pl.segs = (pl.Q + pl.TQ - 1) / pl.TQ;
  pl.threads = pl.N * pl.T * pl.segs * (pl.C / pl.V);
  return pl;
}

struct Emitter : F32VectorEmitter {
  using F32VectorEmitter::F32VectorEmitter;
  /// Column `col` (statically in [lo, hi]) of the rows `rows` of the NHWC
  /// buffer `mem` of width `width`, channels from `c`: zeros where the row
  /// (`rowOk`) or the column lies outside the buffer.
  /// `fused` (may be null): the forward's prologue applies to the loads.
  SmallVector<Value> loadColumn(Value mem, Value n, ArrayRef<Value> rows,
                                ArrayRef<Value> rowOk, Value c, Value col,
                                int64_t lo, int64_t hi, int64_t width,
                                FusionEmitter *fused = nullptr) {
    Value colOk = inBounds(col, lo, hi, width);
    Value cc = clampIf(colOk, col, width);
    SmallVector<Value> v;
    for (auto [row, ok0] : llvm::zip_equal(rows, rowOk)) {
      Value ok = andi(ok0, colOk);
      SmallVector<Value, 4> at{n, row, cc, c};
      if (fused)
        v.push_back(fused->input(*this, load(mem, at), ok));
      else
        v.push_back(ok ? loadOrZero(mem, at, ok) : load(mem, at));
    }
    return v;
  }
};

/// The kernel body of the thread with global id `gid` (< threads).
void emitThread(OpBuilder &b, Location loc, const Plan &p, Value dy, Value w,
                Value dx, Value gid) {
  Emitter e{b, loc, p.V};
  auto co = e.delinearize(gid, {p.N, p.T, p.segs, p.C / p.V});
  Value n = co[0], t = e.add(co[1], p.t0), c = e.mul(co[3], p.V);
  Value qStart = e.add(e.mul(co[2], p.TQ), p.q0);
  const int64_t tHi = p.t0 + p.T - 1;
  const int64_t qLo = p.q0 - (p.KW - 1), qHi = p.q0 + p.segs * p.TQ - 1;

  // The filter in f32 registers: tap (kh, kw) at filt[kh * FW + kw].
  SmallVector<Value> filt;
  for (int64_t kh = 0; kh < p.FH; ++kh)
    for (int64_t kw = 0; kw < p.FW; ++kw)
      filt.push_back(e.load(w, ValueRange{e.cst(kh), e.cst(kw), c}));

  // dY rows t - j (j < KH) and whether they lie inside dY.
  SmallVector<Value> oh, ohOk;
  for (int64_t j = 0; j < p.KH; ++j) {
    Value o = e.add(t, -j);
    Value ok = e.inBounds(o, p.t0 - j, tHi - j, p.OH);
    ohOk.push_back(ok);
    oh.push_back(e.clampIf(ok, o, p.OH));
  }
  // dX rows of the phases and whether they lie inside dX.
  SmallVector<Value> h, hOk;
  for (int64_t ph = 0; ph < p.sh; ++ph) {
    Value r = e.add(e.mul(t, p.sh), ph - p.pt);
    hOk.push_back(e.inBounds(r, p.t0 * p.sh + ph - p.pt,
                             tHi * p.sh + ph - p.pt, p.IH));
    h.push_back(r);
  }

  // Column q of the KH dY rows (zeros outside dY); `lo`, `hi` bound q.
  auto loadColumn = [&](Value q, int64_t lo, int64_t hi) {
    return e.loadColumn(dy, n, oh, ohOk, c, q, lo, hi, p.OW);
  };

  // window[i] holds dY column q - (KW - 1) + i.
  std::deque<SmallVector<Value>> window;
  for (int64_t i = p.KW - 1; i >= 1; --i)
    window.push_back(loadColumn(e.add(qStart, -i), qLo, qHi - i));
  for (int64_t u = 0; u < p.TQ; ++u) {
    Value q = e.add(qStart, u);
    window.push_back(loadColumn(q, p.q0 + u, qHi));
    for (int64_t pw = 0; pw < p.sw; ++pw) {
      Value col = e.add(e.mul(q, p.sw), pw - p.pl);
      Value wOk = e.inBounds(col, p.q0 * p.sw + u * p.sw + pw - p.pl,
                             qHi * p.sw + pw - p.pl, p.IW);
      for (int64_t ph = 0; ph < p.sh; ++ph) {
        Value acc = e.zeros();
        for (int64_t j = 0; ph + p.sh * j < p.FH; ++j)
          for (int64_t i = 0; pw + p.sw * i < p.FW; ++i)
            acc = vector::FMAOp::create(
                b, loc, window[p.KW - 1 - i][j],
                filt[(ph + p.sh * j) * p.FW + pw + p.sw * i], acc);
        Value ok = e.andi(hOk[ph], wOk);
        if (!ok) {
          e.store(acc, dx, ValueRange{n, h[ph], col, c});
          continue;
        }
        auto ifOp = scf::IfOp::create(b, loc, ok, /*withElseRegion=*/false);
        OpBuilder tb = ifOp.getThenBodyBuilder();
        Emitter te{tb, loc, p.V};
        te.store(acc, dx, ValueRange{n, h[ph], col, c});
      }
    }
    window.pop_front();
  }
}

/// Replaces `op` with a 1-D launch of `threads` threads (`blockThreads` per
/// block); `body` gets the global thread id (only for ids below `threads`).
LogicalResult
launchThreads(PatternRewriter &rewriter, Operation *op, int64_t threads,
              int64_t blockThreads,
              function_ref<void(OpBuilder &, Location, Value)> body) {
  int64_t blocks = (threads + blockThreads - 1) / blockThreads;
  if (blocks > std::numeric_limits<int32_t>::max())
    return rewriter.notifyMatchFailure(op, "grid too large");
  Location loc = op->getLoc();
  rewriter.setInsertionPoint(op);
  auto [launch, b] = createGridLaunch(rewriter, loc, blocks, 1, blockThreads);
  nameKernel(launch, op->getAttrOfType<KernelConfigAttrInterface>(
                           kKernelAttrName)
                         .getFamily());
  IndexEmitter e{b, loc};
  Value gid = e.add(e.mul(launch.getBlockIds().x, blockThreads),
                    launch.getThreadIds().x);
  if (threads % blockThreads == 0) {
    body(b, loc, gid);
  } else {
    auto ifOp = scf::IfOp::create(b, loc, e.lt(gid, threads),
                                  /*withElseRegion=*/false);
    OpBuilder tb = ifOp.getThenBodyBuilder();
    body(tb, loc, gid);
  }
  rewriter.eraseOp(op);
  return success();
}

struct StridedBackwardDataLowering
    : KernelPattern<DepthwiseConv2DBackwardDataOp, StridedGatherKernelAttr> {
  using KernelPattern::KernelPattern;

  LogicalResult emit(DepthwiseConv2DBackwardDataOp op,
                     StridedGatherKernelAttr config,
                     PatternRewriter &rewriter) const override {
    Plan p = makePlan(op, config);
    Value dy = op.getOutputGrad(), w = op.getFilter(), dx = op.getInit();
    return launchThreads(rewriter, op, p.threads, kStridedBlockThreads,
                         [&](OpBuilder &b, Location loc, Value gid) {
                           emitThread(b, loc, p, dy, w, dx, gid);
                         });
  }
};

//===----------------------------------------------------------------------===//
// Forward
//===----------------------------------------------------------------------===//

struct ForwardPlan {
  int64_t N, IH, IW, C, FH, FW, OH, OW, pt, pl, sh, sw;
  int64_t V, TH, TQ;
  int64_t inRows;   // (TH - 1) * sh + FH
  int64_t keep;     // window columns shared by neighbouring outputs
  int64_t rowTiles; // ceil(OH / TH)
  int64_t segs;     // ceil(OW / TQ)
  int64_t threads;  // N * rowTiles * segs * C / V
  bool loadsFirst;  // every window column loaded before the first FMA
};

ForwardPlan makeForwardPlan(DepthwiseConv2DOp op,
                            StridedForwardKernelAttr config) {
  auto in = cast<MemRefType>(op.getInput().getType()).getShape();
  auto out = cast<MemRefType>(op.getInit().getType()).getShape();
  auto f = cast<MemRefType>(op.getFilter().getType()).getShape();
  auto s = op.getStrides();
  auto pad = op.getPadding();
  ForwardPlan p{in[0], in[1], in[2], in[3], f[0],   f[1],
                out[1], out[2], pad[0], pad[2], s[0], s[1]};
  p.V = config.getChannels();
  p.TH = std::min(config.getRows(), p.OH);
  p.TQ = std::min(config.getColumns(), p.OW);
  p.inRows = (p.TH - 1) * p.sh + p.FH;
  p.keep = std::max<int64_t>(p.FW - p.sw, 0);
  p.rowTiles = (p.OH + p.TH - 1) / p.TH;
  p.segs = (p.OW + p.TQ - 1) / p.TQ;
  p.threads = p.N * p.rowTiles * p.segs * (p.C / p.V);
  p.loadsFirst = config.getLoadsFirst() != 0;
  return p;
}

/// The forward kernel body of the thread with global id `gid`.
void emitForwardThread(OpBuilder &b, Location loc, const ForwardPlan &p,
                       Value x, Value w, Value bias, Value y, Value gid,
                       FusionEmitter fused) {
  Emitter e{b, loc, p.V};
  auto co = e.delinearize(gid, {p.N, p.rowTiles, p.segs, p.C / p.V});
  Value n = co[0], c = e.mul(co[3], p.V);
  Value oh0 = e.mul(co[1], p.TH), ow0 = e.mul(co[2], p.TQ);
  const int64_t ohMax = (p.rowTiles - 1) * p.TH, owMax = (p.segs - 1) * p.TQ;

  SmallVector<Value> filt;
  for (int64_t kh = 0; kh < p.FH; ++kh)
    for (int64_t kw = 0; kw < p.FW; ++kw)
      filt.push_back(e.load(w, ValueRange{e.cst(kh), e.cst(kw), c}));
  Value init = bias ? e.load(bias, ValueRange{c}) : e.zeros();
  fused.prepare(e, c);
  FusionEmitter *prologue = fused.fusion.hasPrologue() ? &fused : nullptr;
  // loads_first: an explicit register budget (dwc-kernel-occupancy makes
  // the marker nvvm.maxnreg), without which ptxas 13 moves loads back
  // behind earlier FMAs to save registers.
  if (p.loadsFirst)
    filt.front().getDefiningOp()->setAttr(
        "dwc.max_registers",
        IntegerAttr::get(IntegerType::get(b.getContext(), 64),
                         kMaxRegistersPerThread));

  // Input rows ih0 + j of the window and whether they lie inside X.
  Value ih0 = e.add(e.mul(oh0, p.sh), -p.pt);
  SmallVector<Value> ih, ihOk;
  for (int64_t j = 0; j < p.inRows; ++j) {
    Value r = e.add(ih0, j);
    Value ok = e.inBounds(r, j - p.pt, ohMax * p.sh - p.pt + j, p.IH);
    ihOk.push_back(ok);
    ih.push_back(e.clampIf(ok, r, p.IH));
  }
  // Output rows of the tile that exist (the last tile may be cut).
  SmallVector<Value> ohOk;
  for (int64_t r = 0; r < p.TH; ++r)
    ohOk.push_back(e.inBounds(e.add(oh0, r), r, ohMax + r, p.OH));

  // Input column `col` of the window rows; `lo`, `hi` bound it.
  auto loadColumn = [&](Value col, int64_t lo, int64_t hi) {
    return e.loadColumn(x, n, ih, ihOk, c, col, lo, hi, p.IW, prologue);
  };

  // window[kw]: input column (ow0 + u) * sw - pl + kw at step u.
  Value iw0 = e.add(e.mul(ow0, p.sw), -p.pl);
  auto loadOffset = [&](int64_t off) {
    return loadColumn(e.add(iw0, off), off - p.pl, owMax * p.sw - p.pl + off);
  };
  // loads_first: every column of the tile loaded before the first FMA
  // (columns between the windows of a stride wider than the filter are
  // never used: their loads are dead code).
  SmallVector<SmallVector<Value>> preloaded;
  if (p.loadsFirst)
    for (int64_t off = 0; off < (p.TQ - 1) * p.sw + p.FW; ++off)
      preloaded.push_back(loadOffset(off));
  auto column = [&](int64_t off) {
    return p.loadsFirst ? preloaded[off] : loadOffset(off);
  };
  std::deque<SmallVector<Value>> window;
  for (int64_t j = 0; j < p.keep; ++j)
    window.push_back(column(j));
  for (int64_t u = 0; u < p.TQ; ++u) {
    for (int64_t j = p.keep; j < p.FW; ++j)
      window.push_back(column(u * p.sw + j));
    Value ow = e.add(ow0, u);
    Value owOk = e.inBounds(ow, u, owMax + u, p.OW);
    for (int64_t r = 0; r < p.TH; ++r) {
      Value acc = init;
      for (int64_t kh = 0; kh < p.FH; ++kh)
        for (int64_t kw = 0; kw < p.FW; ++kw)
          acc = vector::FMAOp::create(b, loc, window[kw][r * p.sh + kh],
                                      filt[kh * p.FW + kw], acc);
      acc = fused.output(e, acc);
      Value ok = e.andi(ohOk[r], owOk);
      Value oh = e.add(oh0, r);
      if (!ok) {
        e.store(acc, y, ValueRange{n, oh, ow, c});
        continue;
      }
      auto ifOp = scf::IfOp::create(b, loc, ok, /*withElseRegion=*/false);
      OpBuilder tb = ifOp.getThenBodyBuilder();
      Emitter te{tb, loc, p.V};
      te.store(acc, y, ValueRange{n, oh, ow, c});
    }
    for (int64_t j = p.keep; j < p.FW; ++j)
      window.pop_front();
  }
}

struct StridedForwardLowering
    : KernelPattern<DepthwiseConv2DOp, StridedForwardKernelAttr> {
  using KernelPattern::KernelPattern;

  LogicalResult emit(DepthwiseConv2DOp op, StridedForwardKernelAttr config,
                     PatternRewriter &rewriter) const override {
    ForwardPlan p = makeForwardPlan(op, config);
    Value x = op.getInput(), w = op.getFilter(), bias = op.getBias(),
          y = op.getInit();
    int64_t blockThreads = config.getBlockThreads()
                               ? config.getBlockThreads()
                               : kStridedBlockThreads;
    return launchThreads(rewriter, op, p.threads, blockThreads,
                         [&](OpBuilder &b, Location loc, Value gid) {
                           emitForwardThread(
                               b, loc, p, x, w, bias, y, gid,
                               FusionEmitter{DepthwiseFusion::of(op), Value()});
                         });
  }
};

struct ConvertDwcToGPUStridedPass
    : PatternKernelPass<ConvertDwcToGPUStridedPass,
                        dwc::impl::ConvertDwcToGPUStridedBase,
                        /*benefit=*/2,
                        StridedBackwardDataLowering,
                        StridedForwardLowering> {
  using PatternKernelPass::PatternKernelPass;
};

} // namespace
