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

#include "dwc/Conversion/Passes.h"
#include "dwc/Conversion/IndexEmitter.h"
#include "dwc/Conversion/LaunchBuilder.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include <deque>
#include <limits>

namespace mlir::dwc {
#define GEN_PASS_DEF_CONVERTDWCTOGPUSTRIDED
#include "dwc/Conversion/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;
using namespace mlir::dwc;

namespace {

constexpr int64_t kBlockThreads = 256;
/// Filters of more taps are left to the direct kernel: every tap of every
/// step is unrolled and the filter lives in registers (7x7: 49 taps x 1-2
/// channels).
constexpr int64_t kMaxTaps = 49;
/// Backward data: super columns per thread when the option is 0. Measured
/// on the H200 (bench/results/2026-12-01-stride-v1.md, stride-2 layers at
/// batch 64): 4 columns 1.02-1.10x faster than 8 on maps of 56 and more,
/// 16 slower.
constexpr int64_t kDefaultTileWidth = 4;

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

/// Channels per thread: the widest of 128, 64, 32 (and for f32 16) bits
/// that divides C and keeps the FH x FW filter vectors within `filterRegs`
/// f32 registers (the narrowest dividing one otherwise); 0 if none divides
/// C. `vectorBits` > 0 forces the width.
int64_t pickVector(Type elem, int64_t C, int64_t taps, int64_t vectorBits,
                   int64_t filterRegs) {
  int64_t bits = elem.getIntOrFloatBitWidth();
  int64_t minV = elem.isF32() ? 1 : 2;
  if (vectorBits > 0) {
    int64_t v = vectorBits / bits;
    return v >= minV && C % v == 0 ? v : 0;
  }
  int64_t chosen = 0;
  for (int64_t v = 128 / bits; v >= minV; v /= 2) {
    if (C % v != 0)
      continue;
    chosen = v;
    if (taps * v <= filterRegs)
      break;
  }
  return chosen;
}

/// Why a strided convolution with these operands cannot take the kernels,
/// or an empty string.
std::string ineligibility(Operation *op, Value out, Type acc,
                          ArrayRef<int64_t> strides,
                          ArrayRef<int64_t> dilations,
                          ArrayRef<int64_t> padding) {
  auto outType = dyn_cast<MemRefType>(out.getType());
  if (!outType)
    return "tensor form (bufferize first)";
  Type elem = outType.getElementType();
  if (!elem.isF32() && !elem.isF16() && !elem.isBF16())
    return "element type is not f32, f16 or bf16";
  for (Value v : op->getOperands())
    if (cast<MemRefType>(v.getType()).getElementType() != elem)
      return "operands of different element types";
  if (!acc.isF32())
    return "accumulation type is not f32";
  if (llvm::all_of(strides, [](int64_t s) { return s == 1; }))
    return "stride 1 (the GEMV and tensor-core kernels take it)";
  if (llvm::any_of(strides, [](int64_t s) { return s < 1; }))
    return "stride is not positive";
  if (llvm::any_of(dilations, [](int64_t d) { return d != 1; }))
    return "dilation is not 1";
  if (llvm::any_of(padding, [](int64_t p) { return p < 0; }))
    return "negative padding";
  for (Value v : op->getOperands()) {
    auto shape = cast<MemRefType>(v.getType()).getShape();
    if (shape.size() == 3 && shape[0] * shape[1] > kMaxTaps)
      return "filter of more than 49 taps";
  }
  for (Value v : op->getOperands()) {
    auto t = cast<MemRefType>(v.getType());
    if (!t.getLayout().isIdentity())
      return "non-identity layout";
    if (llvm::any_of(t.getShape(), [](int64_t d) { return d <= 0; }))
      return "empty or dynamic operand";
  }
  return "";
}

std::string ineligibility(DepthwiseConv2DBackwardDataOp op) {
  return ineligibility(op, op.getInit(), op.getAccType(), op.getStrides(),
                       op.getDilations(), op.getPadding());
}

std::string ineligibility(DepthwiseConv2DOp op) {
  return ineligibility(op, op.getInit(), op.getAccType(), op.getStrides(),
                       op.getDilations(), op.getPadding());
}

Plan makePlan(DepthwiseConv2DBackwardDataOp op, int64_t V, int64_t tileWidth) {
  auto ig = cast<MemRefType>(op.getInit().getType()).getShape();
  auto og = cast<MemRefType>(op.getOutputGrad().getType()).getShape();
  auto f = cast<MemRefType>(op.getFilter().getType()).getShape();
  auto s = op.getStrides();
  auto p = op.getPadding();
  Plan pl{ig[0], ig[1], ig[2], ig[3], f[0], f[1], og[1], og[2],
          p[0],  p[2],  s[0],  s[1]};
  pl.V = V;
  pl.KH = (pl.FH + pl.sh - 1) / pl.sh;
  pl.KW = (pl.FW + pl.sw - 1) / pl.sw;
  // Super row t covers dX rows t*sh - pt + [0, sh); all of [0, IH) is in
  // t0 .. (IH - 1 + pt) / sh.
  pl.t0 = pl.pt / pl.sh;
  pl.T = (pl.IH - 1 + pl.pt) / pl.sh - pl.t0 + 1;
  pl.q0 = pl.pl / pl.sw;
  pl.Q = (pl.IW - 1 + pl.pl) / pl.sw - pl.q0 + 1;
  pl.TQ = std::min(tileWidth > 0 ? tileWidth : kDefaultTileWidth, pl.Q);
  pl.segs = (pl.Q + pl.TQ - 1) / pl.TQ;
  pl.threads = pl.N * pl.T * pl.segs * (pl.C / V);
  return pl;
}

struct Emitter : F32VectorEmitter {
  using F32VectorEmitter::F32VectorEmitter;
  /// Rounds an f32 vector once to the memory's element type and stores it.
  void store(Value v, Value mem, ValueRange idx) {
    Type elem = cast<MemRefType>(mem.getType()).getElementType();
    if (!elem.isF32())
      v = arith::TruncFOp::create(b, loc, vec(elem), v);
    vector::StoreOp::create(b, loc, v, mem, idx, /*nontemporal=*/false,
                            align(elem));
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
    Value colOk = e.inBounds(q, lo, hi, p.OW);
    Value qc = e.clampIf(colOk, q, p.OW);
    SmallVector<Value> col;
    for (int64_t j = 0; j < p.KH; ++j) {
      Value ok = e.andi(ohOk[j], colOk);
      col.push_back(ok ? e.loadOrZero(dy, ValueRange{n, oh[j], qc, c}, ok)
                       : e.load(dy, ValueRange{n, oh[j], qc, c}));
    }
    return col;
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

/// Replaces `op` with a 1-D launch of `threads` threads (256 per block);
/// `body` gets the global thread id (only for ids below `threads`).
LogicalResult
launchThreads(PatternRewriter &rewriter, Operation *op, int64_t threads,
              function_ref<void(OpBuilder &, Location, Value)> body) {
  int64_t blocks = (threads + kBlockThreads - 1) / kBlockThreads;
  if (blocks > std::numeric_limits<int32_t>::max())
    return rewriter.notifyMatchFailure(op, "grid too large");
  Location loc = op->getLoc();
  rewriter.setInsertionPoint(op);
  auto [launch, b] = createGridLaunch(rewriter, loc, blocks, 1, kBlockThreads);
  IndexEmitter e{b, loc};
  Value gid = e.add(e.mul(launch.getBlockIds().x, kBlockThreads),
                    launch.getThreadIds().x);
  if (threads % kBlockThreads == 0) {
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
    : OpRewritePattern<DepthwiseConv2DBackwardDataOp> {
  StridedBackwardDataLowering(MLIRContext *ctx, int64_t vectorBits,
                              int64_t tileWidth, int64_t filterRegs)
      : OpRewritePattern(ctx, /*benefit=*/2), vectorBits(vectorBits),
        tileWidth(tileWidth), filterRegs(filterRegs) {}
  int64_t vectorBits, tileWidth, filterRegs;

  LogicalResult matchAndRewrite(DepthwiseConv2DBackwardDataOp op,
                                PatternRewriter &rewriter) const override {
    std::string why = ineligibility(op);
    if (!why.empty())
      return rewriter.notifyMatchFailure(op, why);
    auto dxType = cast<MemRefType>(op.getInit().getType());
    auto f = cast<MemRefType>(op.getFilter().getType()).getShape();
    int64_t V = pickVector(dxType.getElementType(), dxType.getShape()[3],
                           f[0] * f[1], vectorBits, filterRegs);
    if (V == 0)
      return rewriter.notifyMatchFailure(
          op, "channel count is not a multiple of the vector width");
    Plan p = makePlan(op, V, tileWidth);
    Value dy = op.getOutputGrad(), w = op.getFilter(), dx = op.getInit();
    return launchThreads(rewriter, op, p.threads,
                         [&](OpBuilder &b, Location loc, Value gid) {
                           emitThread(b, loc, p, dy, w, dx, gid);
                         });
  }
};

//===----------------------------------------------------------------------===//
// Forward
//===----------------------------------------------------------------------===//

/// Forward tiles (TH rows x TQ columns) when the options are 0, measured on
/// the H200 (bench/results/2026-12-01-stride-v1.md): filters of at most 9
/// taps 1 x 4 on outputs of 28+ rows (1.2x the 2 x 8 tile at 112x112 f32:
/// more threads, fewer registers), else 2 x 8 (1.2x 1 x 4 at 28x28); larger
/// filters up to 25 taps 4 x 16 (1.25-1.33x 2 x 8 at 5x5: the (TH-1)*sh +
/// FH input rows of a window column serve 4 output rows); more taps (7x7,
/// not measured) 1 x 8, the largest tile ptxas keeps without spills for f16
/// (4 x 16 spills 904 bytes).
std::pair<int64_t, int64_t> defaultForwardTile(int64_t FH, int64_t FW,
                                               int64_t OH) {
  if (FH * FW > 25)
    return {1, 8};
  if (FH * FW > 9)
    return {4, 16};
  return OH >= 28 ? std::make_pair<int64_t, int64_t>(1, 4)
                  : std::make_pair<int64_t, int64_t>(2, 8);
}

struct ForwardPlan {
  int64_t N, IH, IW, C, FH, FW, OH, OW, pt, pl, sh, sw;
  int64_t V, TH, TQ;
  int64_t inRows;   // (TH - 1) * sh + FH
  int64_t keep;     // window columns shared by neighbouring outputs
  int64_t rowTiles; // ceil(OH / TH)
  int64_t segs;     // ceil(OW / TQ)
  int64_t threads;  // N * rowTiles * segs * C / V
};

ForwardPlan makeForwardPlan(DepthwiseConv2DOp op, int64_t V, int64_t rows,
                            int64_t tileWidth) {
  auto in = cast<MemRefType>(op.getInput().getType()).getShape();
  auto out = cast<MemRefType>(op.getInit().getType()).getShape();
  auto f = cast<MemRefType>(op.getFilter().getType()).getShape();
  auto s = op.getStrides();
  auto pad = op.getPadding();
  ForwardPlan p{in[0], in[1], in[2], in[3], f[0],   f[1],
                out[1], out[2], pad[0], pad[2], s[0], s[1]};
  p.V = V;
  auto [th, tq] = defaultForwardTile(p.FH, p.FW, p.OH);
  p.TH = std::min(rows > 0 ? rows : th, p.OH);
  p.TQ = std::min(tileWidth > 0 ? tileWidth : tq, p.OW);
  p.inRows = (p.TH - 1) * p.sh + p.FH;
  p.keep = std::max<int64_t>(p.FW - p.sw, 0);
  p.rowTiles = (p.OH + p.TH - 1) / p.TH;
  p.segs = (p.OW + p.TQ - 1) / p.TQ;
  p.threads = p.N * p.rowTiles * p.segs * (p.C / V);
  return p;
}

/// The forward kernel body of the thread with global id `gid`.
void emitForwardThread(OpBuilder &b, Location loc, const ForwardPlan &p,
                       Value x, Value w, Value bias, Value y, Value gid) {
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
    Value colOk = e.inBounds(col, lo, hi, p.IW);
    Value cc = e.clampIf(colOk, col, p.IW);
    SmallVector<Value> v;
    for (int64_t j = 0; j < p.inRows; ++j) {
      Value ok = e.andi(ihOk[j], colOk);
      v.push_back(ok ? e.loadOrZero(x, ValueRange{n, ih[j], cc, c}, ok)
                     : e.load(x, ValueRange{n, ih[j], cc, c}));
    }
    return v;
  };

  // window[kw]: input column (ow0 + u) * sw - pl + kw at step u.
  Value iw0 = e.add(e.mul(ow0, p.sw), -p.pl);
  std::deque<SmallVector<Value>> window;
  for (int64_t j = 0; j < p.keep; ++j)
    window.push_back(
        loadColumn(e.add(iw0, j), j - p.pl, owMax * p.sw - p.pl + j));
  for (int64_t u = 0; u < p.TQ; ++u) {
    for (int64_t j = p.keep; j < p.FW; ++j) {
      int64_t off = u * p.sw + j;
      window.push_back(loadColumn(e.add(iw0, off), off - p.pl,
                                  owMax * p.sw - p.pl + off));
    }
    Value ow = e.add(ow0, u);
    Value owOk = e.inBounds(ow, u, owMax + u, p.OW);
    for (int64_t r = 0; r < p.TH; ++r) {
      Value acc = init;
      for (int64_t kh = 0; kh < p.FH; ++kh)
        for (int64_t kw = 0; kw < p.FW; ++kw)
          acc = vector::FMAOp::create(b, loc, window[kw][r * p.sh + kh],
                                      filt[kh * p.FW + kw], acc);
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

struct StridedForwardLowering : OpRewritePattern<DepthwiseConv2DOp> {
  StridedForwardLowering(MLIRContext *ctx, int64_t vectorBits,
                         int64_t tileWidth, int64_t filterRegs, int64_t rows)
      : OpRewritePattern(ctx, /*benefit=*/2), vectorBits(vectorBits),
        tileWidth(tileWidth), filterRegs(filterRegs), rows(rows) {}
  int64_t vectorBits, tileWidth, filterRegs, rows;

  LogicalResult matchAndRewrite(DepthwiseConv2DOp op,
                                PatternRewriter &rewriter) const override {
    std::string why = ineligibility(op);
    if (!why.empty())
      return rewriter.notifyMatchFailure(op, why);
    auto yType = cast<MemRefType>(op.getInit().getType());
    auto f = cast<MemRefType>(op.getFilter().getType()).getShape();
    int64_t V = pickVector(yType.getElementType(), yType.getShape()[3],
                           f[0] * f[1], vectorBits, filterRegs);
    if (V == 0)
      return rewriter.notifyMatchFailure(
          op, "channel count is not a multiple of the vector width");
    ForwardPlan p = makeForwardPlan(op, V, rows, tileWidth);
    Value x = op.getInput(), w = op.getFilter(), bias = op.getBias(),
          y = op.getInit();
    return launchThreads(rewriter, op, p.threads,
                         [&](OpBuilder &b, Location loc, Value gid) {
                           emitForwardThread(b, loc, p, x, w, bias, y, gid);
                         });
  }
};

struct ConvertDwcToGPUStridedPass
    : dwc::impl::ConvertDwcToGPUStridedBase<ConvertDwcToGPUStridedPass> {
  using Base::Base;
  void runOnOperation() override {
    if (vectorBits != 0 && vectorBits != 32 && vectorBits != 64 &&
        vectorBits != 128) {
      getOperation().emitError() << "convert-dwc-to-gpu-strided: vector-bits "
                                    "must be 0, 32, 64 or 128";
      return signalPassFailure();
    }
    if (tileWidth < 0 || tileWidth > 32 || filterRegs < 1 ||
        forwardRows < 0 || forwardRows > 8) {
      getOperation().emitError()
          << "convert-dwc-to-gpu-strided: tile-width must be in [0, 32], "
             "forward-rows in [0, 8] and filter-regs >= 1";
      return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    patterns.add<StridedBackwardDataLowering>(&getContext(), vectorBits,
                                              tileWidth, filterRegs);
    if (forward)
      patterns.add<StridedForwardLowering>(&getContext(), vectorBits,
                                           tileWidth, filterRegs, forwardRows);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
