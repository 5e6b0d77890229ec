//===- DwcToGPUPool.cpp - bandwidth-oriented NHWC pooling kernels ---------===//
//
// Lowers memref-form dwc.pool2d, dwc.pool2d_backward and
// dwc.depthwise_conv2d_pool2d carrying a #dwc.pool_forward,
// #dwc.pool_backward or #dwc.conv_pool configuration (dwc-select-kernels) to
// gpu.launch kernels that read their inputs once and write their outputs
// once: 128-bit channel vectors per thread, strips of outputs along the
// width with width-first register reuse of the overlapping window columns,
// exact padding by clamped loads and selects, f32 accumulation for averages.
// The backward op is a gather (one thread per dX strip or tile) that finds
// the max-pooling argmax from X with the op's tie-breaking. See the pass
// description in include/dwc/Conversion/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/KernelPass.h"
#include "dwc/Conversion/IndexEmitter.h"
#include "dwc/Conversion/LaunchBuilder.h"
#include "dwc/Conversion/Passes.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/MathExtras.h"
#include <optional>

namespace mlir::dwc {
#define GEN_PASS_DEF_CONVERTDWCTOGPUPOOL
#include "dwc/Conversion/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;
using namespace mlir::dwc;

namespace {

/// Window loops up to this length are unrolled at compile time.
constexpr int64_t kMaxUnroll = 8;

/// Whether X column `q` lies in one of `count` windows of width `kw` that
/// start at columns first, first + step, ...: with strides wider than the
/// windows most columns of a strip's span are in none, and are not loaded
/// (an unrolled load per column made compile time grow with the stride).
bool inSomeWindow(int64_t q, int64_t first, int64_t count, int64_t step,
                  int64_t kw) {
  if (q < first)
    return false;
  int64_t i = std::min((q - first) / step, count - 1);
  return q - (first + i * step) < kw;
}

ArrayRef<int64_t> shapeOf(Value v) {
  return cast<MemRefType>(v.getType()).getShape();
}
Type elemOf(Value v) { return cast<MemRefType>(v.getType()).getElementType(); }

/// One windowed pooling kernel: the op's shape, its configuration's channel
/// vector (vw elements, CV vectors per row) and TH rows x TM columns per
/// thread, and the types: `acc` sums, `cty` the window fold (max: the
/// element type, exact).
struct Plan : PoolShape {
  int64_t vw = 1, TH = 1, TM = 1, CV = 1;
  bool includePad = false;
  Type acc, cty;
  std::optional<Activation> activation;
  /// Max gradients: the argmax stored by a first kernel (TA windows per
  /// thread; packed: the 16-bit scan on pairs) or recomputed from X.
  bool storedArgmax = false, packedArgmax = false;
  int64_t TA = 0;
};

Plan planOf(Operation *op, int64_t vectorBits, int64_t rows, int64_t columns,
            bool includePad, Type acc) {
  std::string why;
  Plan p;
  static_cast<PoolShape &>(p) = *poolShapeOf(op, why);
  p.vw = poolVectorWidth(p.elem, p.C, vectorBits);
  p.CV = p.C / p.vw;
  p.TH = rows;
  p.TM = columns;
  p.includePad = includePad;
  p.acc = acc;
  p.cty = p.isMax ? p.elem : acc;
  return p;
}

/// Index arithmetic and `vector<vw x T>` helpers (vw = 1 uses scalar
/// memory accesses).
struct Emitter : ChannelVectorEmitter {
  Emitter(OpBuilder &b, Location loc, int64_t vw)
      : ChannelVectorEmitter(b, loc, vw) {}
  Value splat(Type elem, TypedAttr value) {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vecOf(elem), value));
  }
  Value splatF(Type elem, double v) { return splat(elem, b.getFloatAttr(elem, v)); }
  Value negInf(Type elem) {
    auto ft = cast<FloatType>(elem);
    return splat(elem, b.getFloatAttr(elem, APFloat::getInf(
                                                ft.getFloatSemantics(), true)));
  }
  Value splatI32(int64_t v) {
    return splat(b.getI32Type(), b.getI32IntegerAttr(v));
  }
  Value select(Value cond, Value x, Value y) {
    if (!cond)
      return x;
    return arith::SelectOp::create(b, loc, cond, x, y);
  }
  /// Forward divisor along one dimension for a window starting at `start`:
  /// |[start, start + k) ∩ [lo, hi)| with [lo, hi) = [0, size) or, with
  /// count_include_pad, [-before, size + after).
  Value extent(Value start, int64_t k, int64_t size, int64_t before,
               int64_t after, bool includePad) {
    Value end = minc(add(start, k), includePad ? size + after : size);
    Value begin = maxc(start, includePad ? -before : 0);
    return sub(end, begin);
  }
  Value toFloat(Value index, Type ft) {
    Value i = arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
    return arith::SIToFPOp::create(b, loc, ft, i);
  }
  /// Offers window tap `tapRow + kw` with value `v` to a running argmax
  /// (`max`, `tap`): a strictly greater value wins, so the first maximum in
  /// row-major tap order stays (the op's tie-breaking). Taps outside the
  /// input must come as -inf (`maskOutside`) and the running tap must start
  /// at the window's first tap inside the input (`firstTap`): a window whose
  /// inside values are all -inf keeps that tap. (NaN never wins.)
  void offerArgmax(Value &max, Value &tap, Value v, Value tapRow, int64_t kw) {
    Value better =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, v, max);
    Value here = arith::AddIOp::create(b, loc, tapRow, splatI32(kw));
    max = arith::SelectOp::create(b, loc, better, v, max);
    tap = arith::SelectOp::create(b, loc, better, here, tap);
  }
  /// `v` where `ok` (or always), -inf elsewhere.
  Value maskOutside(Value v, Value ok) {
    Type elem = cast<VectorType>(v.getType()).getElementType();
    return select(ok, v, negInf(elem));
  }
  /// Tap index (broadcast to i32 lanes) of the first tap inside the input
  /// of a KH x KW window whose top-left tap is at (top, left).
  Value firstTap(Value top, Value left, int64_t kw) {
    Value kh0 = maxc(sub(cst(0), top), 0), kw0 = maxc(sub(cst(0), left), 0);
    Value t = add(mul(kh0, kw), kw0);
    return broadcast(arith::IndexCastOp::create(b, loc, b.getI32Type(), t));
  }
  /// `v / count` for a vector `v` and an index count shared by its lanes:
  /// one scalar division (the reciprocal) and a vector multiply, instead of
  /// vw IEEE divisions (a dozen instructions each: with f16 data they cost
  /// as much as the memory traffic). Within 1 ulp of the division.
  Value divideByCount(Value v, Value count, Type ft) {
    Value one = arith::ConstantOp::create(b, loc, b.getFloatAttr(ft, 1.0));
    Value rcp = arith::DivFOp::create(b, loc, one, toFloat(count, ft));
    return arith::MulFOp::create(b, loc, v, broadcast(rcp));
  }
};

/// Folds window column `j` (value `v`) into the strip outputs whose windows
/// hold it: output i covers columns [i*sw, i*sw + KW).
void foldColumn(OpBuilder &b, Location loc, MutableArrayRef<Value> acc,
                Value v, int64_t j, int64_t sw, int64_t KW, bool isMax) {
  for (int64_t i = 0, e = acc.size(); i < e; ++i) {
    if (j < i * sw || j >= i * sw + KW)
      continue;
    acc[i] = isMax ? arith::MaximumFOp::create(b, loc, acc[i], v).getResult()
                   : arith::AddFOp::create(b, loc, acc[i], v).getResult();
  }
}

using LoopBody = function_ref<SmallVector<Value>(
    OpBuilder &, Value iv, std::optional<int64_t> constIv, ValueRange)>;

/// `for iv in [0, n)` carrying `inits`, unrolled when `unroll`.
SmallVector<Value> loop(OpBuilder &b, Location loc, int64_t n, bool unroll,
                        ValueRange inits, LoopBody body) {
  if (unroll) {
    SmallVector<Value> cur(inits);
    for (int64_t i = 0; i < n; ++i)
      cur = body(b, arith::ConstantIndexOp::create(b, loc, i), i, cur);
    return cur;
  }
  auto forOp = scf::ForOp::create(
      b, loc, arith::ConstantIndexOp::create(b, loc, 0),
      arith::ConstantIndexOp::create(b, loc, n),
      arith::ConstantIndexOp::create(b, loc, 1), inits,
      [&](OpBuilder &nb, Location l, Value iv, ValueRange args) {
        scf::YieldOp::create(nb, l, body(nb, iv, std::nullopt, args));
      });
  return SmallVector<Value>(forOp.getResults());
}

/// `cond ? then() : values`, as an scf.if yielding `values`' types; plain
/// `then()` when `cond` is null (always true).
SmallVector<Value> ifThen(OpBuilder &b, Location loc, Value cond,
                          ValueRange values,
                          function_ref<SmallVector<Value>(OpBuilder &)> then) {
  if (!cond)
    return then(b);
  SmallVector<Value> vals(values);
  auto ifOp = scf::IfOp::create(
      b, loc, cond,
      [&](OpBuilder &nb, Location l) { scf::YieldOp::create(nb, l, then(nb)); },
      [&](OpBuilder &nb, Location l) { scf::YieldOp::create(nb, l, vals); });
  return SmallVector<Value>(ifOp.getResults());
}

/// Runs `body` only when `cond` holds (or always when it is null).
void guarded(OpBuilder &b, Location loc, Value cond,
             function_ref<void(OpBuilder &)> body) {
  if (!cond)
    return body(b);
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElse=*/false);
  OpBuilder tb = ifOp.getThenBodyBuilder();
  body(tb);
}

/// 1-D launch of `total` threads in blocks of kPoolBlockSize in place of
/// `op`, named after the op's kernel family (and `role`); `body` gets the
/// global thread id (only ids below `total`).
void emitLaunch(RewriterBase &rewriter, Operation *op, int64_t total,
                StringRef role,
                function_ref<void(OpBuilder &, Value gid)> body) {
  Location loc = op->getLoc();
  rewriter.setInsertionPoint(op);
  auto [launch, b] = createGridLaunch(
      rewriter, loc, llvm::divideCeil(total, kPoolBlockSize), 1,
      kPoolBlockSize);
  nameKernel(launch,
             op->getAttrOfType<KernelConfigAttrInterface>(kKernelAttrName)
                 .getFamily(),
             role);
  Emitter e{b, loc, 1};
  Value gid = e.add(e.mul(launch.getBlockIds().x, kPoolBlockSize),
                    launch.getThreadIds().x);
  Value inRange;
  if (total % kPoolBlockSize != 0)
    inRange = e.cmp(arith::CmpIPredicate::ult, gid, e.cst(total));
  guarded(b, loc, inRange, [&](OpBuilder &tb) { body(tb, gid); });
}

/// The epilogue of a strip of pooled outputs y[n, oh, ow0 + i, c]: avg
/// divides by the forward divisor of each window (rows from `hs`, columns
/// from `wbase + i*sw`, over a KH x KW window on an IH x IW input padded by
/// `pad`), then the activation, the rounding to y's type and the store,
/// guarded where ow0 + i may reach OW (from output `guardFrom` on).
struct PooledStripStore {
  bool isMax, includePad;
  Type acc;
  std::optional<Activation> activation;
  int64_t KH, KW, sw, IH, IW, OW, guardFrom;
  ArrayRef<int64_t> pad;

  void emit(Emitter &e, ArrayRef<Value> res, Value y, Value n, Value oh,
            Value ow0, Value c, Value hs, Value wbase) const {
    OpBuilder &b = e.b;
    Location loc = e.loc;
    Value rows;
    if (!isMax)
      rows = e.extent(hs, KH, IH, pad[0], pad[1], includePad);
    for (int64_t i = 0, m = res.size(); i < m; ++i) {
      Value ow = e.add(ow0, i);
      Value r = res[i];
      if (!isMax) {
        Value ws = e.add(wbase, i * sw);
        Value cnt = b.createOrFold<arith::MulIOp>(
            loc, rows, e.extent(ws, KW, IW, pad[2], pad[3], includePad));
        r = e.divideByCount(r, cnt, acc);
      }
      r = applyActivation(b, loc, r, activation);
      Value val = e.convert(r, elemOf(y));
      Value ok;
      if (guardFrom + i >= OW)
        ok = e.cmp(arith::CmpIPredicate::slt, ow, e.cst(OW));
      guarded(b, loc, ok, [&](OpBuilder &sb) {
        Emitter{sb, loc, e.vw}.store(val, y, {n, oh, ow, c});
      });
    }
  }
};

//===----------------------------------------------------------------------===//
// pool2d
//===----------------------------------------------------------------------===//

/// One window row `ih` (window row `kh` of every strip output) folded into
/// the strip's accumulators `accs`: each column of the strip loaded once
/// and folded into every output whose window holds it (width-first). A
/// window row outside the input contributes nothing.
SmallVector<Value> foldStripRow(OpBuilder &bh, Location loc, const Plan &p,
                                Value x, Value n, Value c, Value hs,
                                Value wbase, Value neutral, Value kh,
                                std::optional<int64_t> ckh, ValueRange accs) {
  Emitter eh{bh, loc, p.vw};
  int64_t cols = (p.TM - 1) * p.sw + p.KW;
  int64_t OWc = llvm::divideCeil(p.OW, p.TM);
  int64_t khLo = ckh ? *ckh : 0, khHi = ckh ? *ckh : p.KH - 1;
  Value ih = eh.add(hs, kh);
  Value rowOk =
      eh.inBounds(ih, khLo - p.pt, (p.OH - 1) * p.sh + khHi - p.pt, p.IH);
  return ifThen(bh, loc, rowOk, accs, [&](OpBuilder &rb) {
    Emitter r{rb, loc, p.vw};
    SmallVector<Value> a(accs);
    for (int64_t j = 0; j < cols; ++j) {
      Value iw = r.add(wbase, j);
      Value ok = r.inBounds(iw, j - p.pl, (OWc - 1) * p.TM * p.sw - p.pl + j,
                            p.IW);
      Value v = r.convert(r.load(x, {n, ih, r.clampIf(ok, iw, p.IW), c}),
                          p.cty);
      v = r.select(ok, v, neutral);
      foldColumn(rb, loc, a, v, j, p.sw, p.KW, p.isMax);
    }
    return a;
  });
}

/// A thread of a single-row strip kernel: its first output (n, oh, ow0) and
/// channel c, and the input row and column where its first window starts.
struct RowStrip {
  Value n, oh, ow0, c, top, wbase;
};

/// Launches one thread per strip of `perThread` consecutive outputs of one
/// row of the N x OH x OW pooling output x vw channels; `body` gets the
/// thread's emitter, strip and the number of strips per row.
void emitRowStripLaunch(
    PatternRewriter &rewriter, Operation *op, const Plan &p,
    int64_t perThread, StringRef role,
    function_ref<void(OpBuilder &, Emitter &, const RowStrip &, int64_t)>
        body) {
  Location loc = op->getLoc();
  int64_t strips = llvm::divideCeil(p.OW, perThread);
  int64_t total = p.N * p.OH * strips * p.CV;
  emitLaunch(rewriter, op, total, role, [&](OpBuilder &b, Value gid) {
    Emitter e{b, loc, p.vw};
    auto co = e.delinearize(gid, {p.N, p.OH, strips, p.CV});
    RowStrip s;
    s.n = co[0], s.oh = co[1], s.ow0 = e.mul(co[2], perThread),
    s.c = e.mul(co[3], p.vw);
    s.top = e.add(e.mul(s.oh, p.sh), -p.pt);
    s.wbase = e.add(e.mul(s.ow0, p.sw), -p.pl);
    body(b, e, s, strips);
  });
}

/// Single-row strips: a thread owns TM consecutive outputs of one row x vw
/// channels and visits its KH window rows.
void emitForwardStrips(PatternRewriter &rewriter, Pool2DOp op,
                       const Plan &p) {
  Value x = op.getInput(), y = op.getInit();
  Location loc = op.getLoc();
  emitRowStripLaunch(rewriter, op, p, p.TM, "", [&](OpBuilder &b, Emitter &e,
                                                    const RowStrip &s,
                                                    int64_t OWc) {
    Value n = s.n, oh = s.oh, ow0 = s.ow0, c = s.c, hs = s.top,
          wbase = s.wbase;
    Value neutral = p.isMax ? e.negInf(p.cty) : e.splatF(p.cty, 0.0);
    SmallVector<Value> inits(p.TM, neutral);
    auto res = loop(b, loc, p.KH, p.KH <= kMaxUnroll, inits,
                    [&](OpBuilder &bh, Value kh, std::optional<int64_t> ckh,
                        ValueRange accs) {
                      return foldStripRow(bh, loc, p, x, n, c, hs, wbase,
                                          neutral, kh, ckh, accs);
                    });
    int64_t pad[4] = {p.pt, p.pb, p.pl, p.pr};
    PooledStripStore{p.isMax, p.includePad, p.acc, p.activation, p.KH, p.KW,
                     p.sw, p.IH, p.IW, p.OW, (OWc - 1) * p.TM, pad}
        .emit(e, res, y, n, oh, ow0, c, hs, wbase);
  });
}

/// The separable row-tiled kernel's thread: TH output rows x TM outputs x
/// vw channels. The (TH-1)*sh + KH input rows of the tile are visited in
/// order, each loaded once (columns of the strip once each, width-first):
/// the row partial of every strip output (its KW taps folded) is folded
/// into the accumulators of the output rows whose window holds the row; an
/// output row is divided and stored right after its last window row. Rows
/// and columns outside the input are clamped loads whose values are
/// replaced by the neutral element (no branches, so loads of consecutive
/// rows may overlap).
struct RowTileThread {
  const Plan &p;
  Pool2DOp op;
  Emitter &e;
  int64_t OHt, OWc, cols;
  Value n, oh0, ow0, c, hs0, wbase, neutral;
  SmallVector<Value> colIdx, colOk, colCnt;
  SmallVector<SmallVector<Value>> accs;

  RowTileThread(const Plan &p, Pool2DOp op, Emitter &e, Value gid)
      : p(p), op(op), e(e), OHt(llvm::divideCeil(p.OH, p.TH)),
        OWc(llvm::divideCeil(p.OW, p.TM)), cols((p.TM - 1) * p.sw + p.KW) {
    auto co = e.delinearize(gid, {p.N, OHt, OWc, p.CV});
    n = co[0], oh0 = e.mul(co[1], p.TH), ow0 = e.mul(co[2], p.TM),
    c = e.mul(co[3], p.vw);
    hs0 = e.add(e.mul(oh0, p.sh), -p.pt);
    wbase = e.add(e.mul(ow0, p.sw), -p.pl);
    neutral = p.isMax ? e.negInf(p.cty) : e.splatF(p.cty, 0.0);
  }

  Value fold(Value a, Value v) {
    if (p.isMax)
      return arith::MaximumFOp::create(e.b, e.loc, a, v);
    return arith::AddFOp::create(e.b, e.loc, a, v);
  }

  /// Columns of the strip: clamped index and validity, static per j; the
  /// width divisors, shared by the output rows.
  void prepareColumns() {
    colIdx.resize(cols);
    colOk.resize(cols);
    for (int64_t j = 0; j < cols; ++j) {
      Value iw = e.add(wbase, j);
      colOk[j] =
          e.inBounds(iw, j - p.pl, (OWc - 1) * p.TM * p.sw - p.pl + j, p.IW);
      colIdx[j] = e.clampIf(colOk[j], iw, p.IW);
    }
    colCnt.resize(p.TM);
    if (!p.isMax)
      for (int64_t i = 0; i < p.TM; ++i)
        colCnt[i] = e.extent(e.add(wbase, i * p.sw), p.KW, p.IW, p.pl, p.pr,
                             p.includePad);
  }

  /// Input row t of the tile: the KW taps of each strip output.
  SmallVector<Value> rowPartials(int64_t t) {
    Value ih = e.add(hs0, t);
    Value rowOk =
        e.inBounds(ih, t - p.pt, (OHt - 1) * p.TH * p.sh - p.pt + t, p.IH);
    Value ihc = e.clampIf(rowOk, ih, p.IH);
    SmallVector<Value> part(p.TM);
    for (int64_t j = 0; j < cols; ++j) {
      Value v = e.convert(e.load(op.getInput(), {n, ihc, colIdx[j], c}),
                          p.cty);
      v = e.select(colOk[j], v, neutral);
      for (int64_t i = 0; i < p.TM; ++i) {
        if (j < i * p.sw || j >= i * p.sw + p.KW)
          continue;
        part[i] = part[i] ? fold(part[i], v) : v;
      }
    }
    for (int64_t i = 0; i < p.TM; ++i)
      part[i] = e.select(rowOk, part[i], neutral);
    return part;
  }

  /// Output row r after its last window row: divide, activate, store.
  void storeRow(int64_t r) {
    OpBuilder &b = e.b;
    Location loc = e.loc;
    Value oh = e.add(oh0, r);
    Value rowCnt;
    if (!p.isMax)
      rowCnt = e.extent(e.add(hs0, r * p.sh), p.KH, p.IH, p.pt, p.pb,
                        p.includePad);
    Value rowStore;
    if ((OHt - 1) * p.TH + r >= p.OH)
      rowStore = e.cmp(arith::CmpIPredicate::slt, oh, e.cst(p.OH));
    for (int64_t i = 0; i < p.TM; ++i) {
      Value res = accs[r][i];
      if (!p.isMax) {
        Value cnt = b.createOrFold<arith::MulIOp>(loc, rowCnt, colCnt[i]);
        res = e.divideByCount(res, cnt, p.acc);
      }
      res = applyActivation(b, loc, res, p.activation);
      Value val = e.convert(res, elemOf(op.getInit()));
      Value ow = e.add(ow0, i);
      Value ok = rowStore;
      if ((OWc - 1) * p.TM + i >= p.OW)
        ok = e.andi(ok, e.cmp(arith::CmpIPredicate::slt, ow, e.cst(p.OW)));
      guarded(b, loc, ok, [&](OpBuilder &sb) {
        Emitter es{sb, loc, p.vw};
        es.store(val, op.getInit(), {n, oh, ow, c});
      });
      accs[r][i] = Value();
    }
  }

  void emit() {
    prepareColumns();
    accs.assign(p.TH, SmallVector<Value>(p.TM));
    for (int64_t t = 0, rows = (p.TH - 1) * p.sh + p.KH; t < rows; ++t) {
      SmallVector<Value> part = rowPartials(t);
      // Fold into the output rows r with r*sh <= t < r*sh + KH.
      for (int64_t r = 0; r < p.TH; ++r) {
        if (t < r * p.sh || t >= r * p.sh + p.KH)
          continue;
        for (int64_t i = 0; i < p.TM; ++i)
          accs[r][i] = fold(accs[r][i] ? accs[r][i] : neutral, part[i]);
        if (t == r * p.sh + p.KH - 1)
          storeRow(r);
      }
    }
  }
};

void emitForwardRowTiles(PatternRewriter &rewriter, Pool2DOp op,
                         const Plan &p) {
  int64_t total = p.N * llvm::divideCeil(p.OH, p.TH) *
                  llvm::divideCeil(p.OW, p.TM) * p.CV;
  emitLaunch(rewriter, op, total, "", [&](OpBuilder &b, Value gid) {
    Emitter e{b, op.getLoc(), p.vw};
    RowTileThread(p, op, e, gid).emit();
  });
}

/// dwc.pool2d with a #dwc.pool_forward configuration: row tiles (rows > 1)
/// or single-row strips.
struct Pool2DForward : KernelPattern<Pool2DOp, PoolForwardKernelAttr> {
  using KernelPattern::KernelPattern;

  LogicalResult emit(Pool2DOp op, PoolForwardKernelAttr config,
                     PatternRewriter &rewriter) const override {
    Plan p = planOf(op, config.getVectorBits(), config.getRows(),
                    config.getColumns(), op.getCountIncludePad(),
                    op.getAccType());
    p.activation = op.getActivation();
    if (p.TH > 1)
      emitForwardRowTiles(rewriter, op, p);
    else
      emitForwardStrips(rewriter, op, p);
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// pool2d_backward
//===----------------------------------------------------------------------===//

/// The argmax of `count` windows of one output row (first input row `top`)
/// whose first columns are base + first + j * sw, `base` in the static
/// range [baseLo, baseHi]: per window the tap kh*KW + kw of the first
/// maximum (row-major) over its taps inside the input, as vector<vw x i32>
/// (offerArgmax: a compare and two selects per tap and lane). The window
/// rows are scanned in order, each X column of the windows' union loaded
/// once per row and offered to every window holding it, in kw order.
SmallVector<Value> scanWindowArgmax(Emitter &e, const Plan &p, Value x,
                                    Value n, Value c, Value top, Value base,
                                    int64_t baseLo, int64_t baseHi,
                                    int64_t first, int64_t count) {
  Location loc = e.loc;
  // X columns scanned, relative to base: [first, last].
  int64_t last = first + (count - 1) * p.sw + p.KW - 1;
  SmallVector<Value> inits(count, e.negInf(p.elem));
  for (int64_t j = 0; j < count; ++j)
    inits.push_back(e.firstTap(top, e.add(base, first + j * p.sw), p.KW));
  auto state = loop(
      e.b, loc, p.KH, p.KH <= kMaxUnroll, inits,
      [&](OpBuilder &xb, Value kh, std::optional<int64_t> ckh,
          ValueRange st) -> SmallVector<Value> {
        Emitter ex{xb, loc, p.vw};
        int64_t rLo = ckh ? *ckh : 0, rHi = ckh ? *ckh : p.KH - 1;
        Value ih = ex.add(top, kh);
        Value rowOk =
            ex.inBounds(ih, rLo - p.pt, (p.OH - 1) * p.sh - p.pt + rHi, p.IH);
        Value ihc = ex.clampIf(rowOk, ih, p.IH);
        SmallVector<Value> mv(st.begin(), st.begin() + count),
            mt(st.begin() + count, st.end());
        Value tapRow = ex.broadcast(arith::IndexCastOp::create(
            xb, loc, xb.getI32Type(), ex.mul(kh, p.KW)));
        for (int64_t q = first; q <= last; ++q) {
          if (!inSomeWindow(q, first, count, p.sw, p.KW))
            continue;
          Value iw = ex.add(base, q);
          Value colOk = ex.inBounds(iw, baseLo + q, baseHi + q, p.IW);
          Value ok = ex.andi(rowOk, colOk);
          Value v = ex.maskOutside(
              ex.load(x, {n, ihc, ex.clampIf(colOk, iw, p.IW), c}), ok);
          for (int64_t j = 0; j < count; ++j) {
            int64_t kw = q - (first + j * p.sw);
            if (kw >= 0 && kw < p.KW)
              ex.offerArgmax(mv[j], mt[j], v, tapRow, kw);
          }
        }
        SmallVector<Value> next(mv);
        next.append(mt);
        return next;
      });
  return SmallVector<Value>(state.begin() + count, state.end());
}

/// For the NW windows (oh, iw0/sw + d0 + j) of a strip of TM dX positions:
/// their argmax taps (scanWindowArgmax).
SmallVector<Value> recomputeArgmax(OpBuilder &rb, Location loc, const Plan &p,
                                   Value x, Value n, Value oh, Value iw0,
                                   Value c) {
  int64_t d0, NW;
  std::tie(d0, NW) = coveringWindows(p.pl, p.KW, p.sw, p.TM);
  int64_t IWc = llvm::divideCeil(p.IW, p.TM);
  Emitter r{rb, loc, p.vw};
  Value top = r.add(r.mul(oh, p.sh), -p.pt);
  return scanWindowArgmax(r, p, x, n, c, top, iw0, 0, (IWc - 1) * p.TM,
                          d0 * p.sw - p.pl, NW);
}

/// Stores the i8 taps (`tapsOf(i)`, built in window order) of the TA
/// windows (oh, ow0 + i) of an argmax thread.
void storeTaps(Emitter &e, const Plan &p, function_ref<Value(int64_t)> tapsOf,
               Value taps, Value n, Value oh, Value ow0, Value c,
               int64_t OWa) {
  for (int64_t i = 0; i < p.TA; ++i) {
    Value t8 = tapsOf(i);
    Value ow = e.add(ow0, i);
    Value ok;
    if ((OWa - 1) * p.TA + i >= p.OW)
      ok = e.cmp(arith::CmpIPredicate::slt, ow, e.cst(p.OW));
    guarded(e.b, e.loc, ok, [&](OpBuilder &sb) {
      Emitter{sb, e.loc, p.vw}.store(t8, taps, {n, oh, ow, c});
    });
  }
}

/// The stored-argmax thread's scan per lane: the TA windows of its strip
/// (scanWindowArgmax).
SmallVector<Value> scanArgmaxLanes(Emitter &e, const Plan &p, Value x, Value n,
                                   Value c, Value top, Value wbase,
                                   int64_t OWa) {
  return scanWindowArgmax(e, p, x, n, c, top, wbase, -p.pl,
                          (OWa - 1) * p.TA * p.sw - p.pl, 0, p.TA);
}

/// The packed 16-bit argmax scan: two lanes per 32-bit register, one
/// `set.gt.u32.{f16x2,bf16x2}` per pair and tap (a 0xFFFF mask per half,
/// strictly greater: NaN never wins) and two bitwise blends (value, i16 tap
/// index), instead of a compare and two selects per lane. Same results as
/// offerArgmax. State: per window, P packed maxima then P packed tap pairs.
struct PackedArgmaxScan {
  const Plan &p;
  Location loc;
  int64_t P;

  Value c32(OpBuilder &bb, int64_t v) const {
    return arith::ConstantOp::create(bb, loc, bb.getI32IntegerAttr(v));
  }
  /// t | t << 16.
  Value pairTap(OpBuilder &bb, Value t) const {
    return arith::MulIOp::create(bb, loc, t, c32(bb, 0x10001)).getResult();
  }

  SmallVector<Value> inits(Emitter &e, Value top, Value wbase) const {
    int64_t negInfPair = p.elem.isF16() ? 0xFC00FC00LL : 0xFF80FF80LL;
    SmallVector<Value> st;
    for (int64_t i = 0; i < p.TA; ++i) {
      Value t = e.firstTap(top, e.add(wbase, i * p.sw), p.KW);
      Value t0 = vector::ExtractOp::create(e.b, loc, t, ArrayRef<int64_t>{0});
      for (int64_t q = 0; q < P; ++q)
        st.push_back(c32(e.b, negInfPair));
      for (int64_t q = 0; q < P; ++q)
        st.push_back(pairTap(e.b, t0));
    }
    return st;
  }

  /// Offers the P pairs `vs` at tap pair `here` to window i's state.
  void offer(OpBuilder &xb, MutableArrayRef<Value> cur, int64_t i,
             ArrayRef<Value> vs, Value here) const {
    StringRef setGt = p.elem.isF16() ? "set.gt.u32.f16x2 $0, $1, $2;"
                                     : "set.gt.u32.bf16x2 $0, $1, $2;";
    for (int64_t q2 = 0; q2 < P; ++q2) {
      Value &mx = cur[i * 2 * P + q2];
      Value &tp = cur[i * 2 * P + P + q2];
      Value m = LLVM::InlineAsmOp::create(
                    xb, loc, xb.getI32Type(), ValueRange{vs[q2], mx}, setGt,
                    "=r,r,r", /*has_side_effects=*/false,
                    /*is_align_stack=*/false,
                    LLVM::tailcallkind::TailCallKind::None,
                    /*asm_dialect=*/LLVM::AsmDialectAttr(),
                    /*operand_attrs=*/ArrayAttr())
                    .getResult(0);
      Value notM = arith::XOrIOp::create(xb, loc, m, c32(xb, -1));
      auto blend = [&](Value a, Value old) -> Value {
        return arith::OrIOp::create(xb, loc,
                                    arith::AndIOp::create(xb, loc, a, m),
                                    arith::AndIOp::create(xb, loc, old, notM));
      };
      mx = blend(vs[q2], mx);
      tp = blend(here, tp);
    }
  }

  /// One window row: each X column of the TA windows loaded once, split
  /// into pairs, offered to every window holding it.
  SmallVector<Value> row(OpBuilder &xb, Value x, Value n, Value c, Value top,
                         Value wbase, int64_t OWa, Value kh,
                         std::optional<int64_t> ckh, ValueRange st) const {
    Emitter ex{xb, loc, p.vw};
    int64_t colsA = (p.TA - 1) * p.sw + p.KW;
    int64_t rLo = ckh ? *ckh : 0, rHi = ckh ? *ckh : p.KH - 1;
    Value ih = ex.add(top, kh);
    Value rowOk =
        ex.inBounds(ih, rLo - p.pt, (p.OH - 1) * p.sh - p.pt + rHi, p.IH);
    Value ihc = ex.clampIf(rowOk, ih, p.IH);
    SmallVector<Value> cur(st);
    Value rowTap = pairTap(xb, arith::IndexCastOp::create(
                                   xb, loc, xb.getI32Type(), ex.mul(kh, p.KW)));
    for (int64_t q = 0; q < colsA; ++q) {
      if (!inSomeWindow(q, 0, p.TA, p.sw, p.KW))
        continue;
      Value iw = ex.add(wbase, q);
      Value colOk = ex.inBounds(iw, q - p.pl,
                                (OWa - 1) * p.TA * p.sw - p.pl + q, p.IW);
      Value ok = ex.andi(rowOk, colOk);
      Value v = ex.maskOutside(
          ex.load(x, {n, ihc, ex.clampIf(colOk, iw, p.IW), c}), ok);
      Value vp = vector::BitCastOp::create(
          xb, loc, VectorType::get({P}, xb.getI32Type()), v);
      SmallVector<Value> vs(P);
      for (int64_t q2 = 0; q2 < P; ++q2)
        vs[q2] =
            vector::ExtractOp::create(xb, loc, vp, ArrayRef<int64_t>{q2});
      for (int64_t i = 0; i < p.TA; ++i) {
        int64_t kw = q - i * p.sw;
        if (kw < 0 || kw >= p.KW)
          continue;
        Value here =
            arith::AddIOp::create(xb, loc, rowTap, c32(xb, kw * 0x10001));
        offer(xb, cur, i, vs, here);
      }
    }
    return cur;
  }

  /// Window i's packed tap pairs as vector<vw x i8>.
  Value taps(Emitter &e, ArrayRef<Value> state, int64_t i) const {
    OpBuilder &b = e.b;
    SmallVector<Value> tp(state.begin() + i * 2 * P + P,
                          state.begin() + (i + 1) * 2 * P);
    Value packedTaps = vector::FromElementsOp::create(
        b, loc, VectorType::get({P}, b.getI32Type()), tp);
    Value t16 = vector::BitCastOp::create(
        b, loc, VectorType::get({p.vw}, b.getIntegerType(16)), packedTaps);
    return arith::TruncIOp::create(b, loc, e.vecOf(b.getIntegerType(8)), t16);
  }
};

/// The stored-argmax kernel: one thread per TA windows of a row (forward
/// strip, width-first) writes each window's tap index to `taps`.
void emitArgmaxKernel(PatternRewriter &rewriter, Pool2DBackwardOp op,
                      const Plan &p, Value taps) {
  Location loc = op.getLoc();
  Value x = op.getInput();
  emitRowStripLaunch(rewriter, op, p, p.TA, "argmax", [&](OpBuilder &b,
                                                          Emitter &e,
                                                          const RowStrip &s,
                                                          int64_t OWa) {
    Value n = s.n, oh = s.oh, ow0 = s.ow0, c = s.c, top = s.top,
          wbase = s.wbase;
    if (p.packedArgmax) {
      PackedArgmaxScan scan{p, loc, p.vw / 2};
      auto state = loop(b, loc, p.KH, p.KH <= kMaxUnroll,
                        scan.inits(e, top, wbase),
                        [&](OpBuilder &xb, Value kh,
                            std::optional<int64_t> ckh, ValueRange st) {
                          return scan.row(xb, x, n, c, top, wbase, OWa, kh,
                                          ckh, st);
                        });
      storeTaps(
          e, p, [&](int64_t i) { return scan.taps(e, state, i); }, taps, n,
          oh, ow0, c, OWa);
      return;
    }
    SmallVector<Value> lanes = scanArgmaxLanes(e, p, x, n, c, top, wbase, OWa);
    storeTaps(
        e, p,
        [&](int64_t i) -> Value {
          return arith::TruncIOp::create(b, loc, e.vecOf(b.getIntegerType(8)),
                                         lanes[i]);
        },
        taps, n, oh, ow0, c, OWa);
  });
}

/// Stores a dX row tile: positions (ih0 + t, iw0 + i) inside dX.
void storeTile(Emitter &e, const Plan &p, Value dx, Value n, Value ih0,
               Value iw0, Value c, ArrayRef<SmallVector<Value>> accs,
               int64_t IHt, int64_t IWt, int64_t t) {
  Value ih = e.add(ih0, t);
  Value rowStore;
  if ((IHt - 1) * p.TH + t >= p.IH)
    rowStore = e.cmp(arith::CmpIPredicate::slt, ih, e.cst(p.IH));
  for (int64_t i = 0; i < p.TM; ++i) {
    Value iw = e.add(iw0, i);
    Value ok = rowStore;
    if ((IWt - 1) * p.TM + i >= p.IW)
      ok = e.andi(ok, e.cmp(arith::CmpIPredicate::slt, iw, e.cst(p.IW)));
    Value val = e.convert(accs[t][i], elemOf(dx));
    guarded(e.b, e.loc, ok, [&](OpBuilder &sb) {
      Emitter{sb, e.loc, p.vw}.store(val, dx, {n, ih, iw, c});
    });
  }
}

/// The strided gather as tiles aligned to the stride: a thread owns TH dX
/// rows x TM dX columns (multiples of sh and sw) x vw channels. Because the
/// tile origin is a multiple of the stride, the windows covering the tile
/// and the tap (kh, kw) at which each covers each tile position are static:
/// the NR x NW windows are visited once each (one dY vector load, for max
/// one i8 tap-vector load from the stored argmax `taps`, or the argmax
/// recomputed from X per covering window row), each adds to the tile
/// positions it covers, with no per-row parity branch and no division per
/// window (avg: reciprocal row and column divisors, NR + NW scalar
/// divisions per thread). Windows outside [0, OH) x [0, OW) are clamped
/// loads replaced by zero; positions outside dX are not stored.
struct GatherTileThread {
  const Plan &p;
  Pool2DBackwardOp op;
  Value taps;
  Emitter &e;
  int64_t dh0, NR, dw0, NW, IHt, IWt;
  Value n, c, ih0, iw0, ohBase, owBase, zero, one;
  SmallVector<Value> colOk, owIdx, colRcp;
  SmallVector<SmallVector<Value>> accs;

  GatherTileThread(const Plan &p, Pool2DBackwardOp op, Value taps, Emitter &e,
                   Value gid)
      : p(p), op(op), taps(taps), e(e), IHt(llvm::divideCeil(p.IH, p.TH)),
        IWt(llvm::divideCeil(p.IW, p.TM)) {
    std::tie(dh0, NR) = coveringWindows(p.pt, p.KH, p.sh, p.TH);
    std::tie(dw0, NW) = coveringWindows(p.pl, p.KW, p.sw, p.TM);
    auto co = e.delinearize(gid, {p.N, IHt, IWt, p.CV});
    n = co[0], c = e.mul(co[3], p.vw);
    ih0 = e.mul(co[1], p.TH), iw0 = e.mul(co[2], p.TM);
    ohBase = e.add(e.mul(co[1], p.TH / p.sh), dh0);
    owBase = e.add(e.mul(co[2], p.TM / p.sw), dw0);
    zero = e.splatF(p.acc, 0.0);
    one = arith::ConstantOp::create(e.b, e.loc, e.b.getFloatAttr(p.acc, 1.0));
  }

  Value reciprocal(Value count) {
    return arith::DivFOp::create(e.b, e.loc, one, e.toFloat(count, p.acc));
  }

  /// Window columns: validity, clamped index, avg 1 / column divisor.
  void prepareColumns() {
    colOk.resize(NW), owIdx.resize(NW), colRcp.resize(NW);
    for (int64_t j = 0; j < NW; ++j) {
      Value ow = e.add(owBase, j);
      colOk[j] =
          e.inBounds(ow, dw0 + j, (IWt - 1) * (p.TM / p.sw) + dw0 + j, p.OW);
      owIdx[j] = e.clampIf(colOk[j], ow, p.OW);
      if (!p.isMax)
        colRcp[j] = reciprocal(e.extent(e.add(e.mul(owIdx[j], p.sw), -p.pl),
                                        p.KW, p.IW, p.pl, p.pr, p.includePad));
    }
  }

  /// Window (r, j)'s contribution `g` (max: where its tap is the argmax).
  void addWindow(int64_t r, int64_t j, Value g, Value wtaps) {
    OpBuilder &b = e.b;
    for (int64_t t = 0; t < p.TH; ++t) {
      int64_t kh = t + p.pt - (dh0 + r) * p.sh;
      if (kh < 0 || kh >= p.KH)
        continue;
      for (int64_t i = 0; i < p.TM; ++i) {
        int64_t kw = i + p.pl - (dw0 + j) * p.sw;
        if (kw < 0 || kw >= p.KW)
          continue;
        Value contrib = g;
        if (p.isMax) {
          Value hit = arith::CmpIOp::create(b, e.loc, arith::CmpIPredicate::eq,
                                            wtaps, e.splatI32(kh * p.KW + kw));
          contrib = arith::SelectOp::create(b, e.loc, hit, g, zero);
        }
        accs[t][i] = arith::AddFOp::create(b, e.loc, accs[t][i], contrib);
      }
    }
  }

  /// The NW windows of covering window row r.
  void visitWindowRow(int64_t r) {
    OpBuilder &b = e.b;
    Location loc = e.loc;
    Value oh = e.add(ohBase, r);
    Value rowOk =
        e.inBounds(oh, dh0 + r, (IHt - 1) * (p.TH / p.sh) + dh0 + r, p.OH);
    Value ohc = e.clampIf(rowOk, oh, p.OH);
    Value rowRcp;
    if (!p.isMax)
      rowRcp = reciprocal(e.extent(e.add(e.mul(ohc, p.sh), -p.pt), p.KH, p.IH,
                                   p.pt, p.pb, p.includePad));
    SmallVector<Value> rowTaps;
    if (p.isMax && !taps)
      rowTaps = recomputeArgmax(b, loc, p, op.getInput(), n, ohc, iw0, c);
    for (int64_t j = 0; j < NW; ++j) {
      Value g = e.convert(e.load(op.getOutputGrad(), {n, ohc, owIdx[j], c}),
                          p.acc);
      if (!p.isMax) {
        Value scale = arith::MulFOp::create(b, loc, rowRcp, colRcp[j]);
        g = arith::MulFOp::create(b, loc, g, e.broadcast(scale));
      }
      g = e.select(e.andi(rowOk, colOk[j]), g, zero);
      Value wtaps;
      if (p.isMax && taps)
        wtaps = arith::ExtSIOp::create(b, loc, e.vecOf(b.getI32Type()),
                                       e.load(taps, {n, ohc, owIdx[j], c}));
      else if (p.isMax)
        wtaps = rowTaps[j];
      addWindow(r, j, g, wtaps);
    }
  }

  void emit() {
    prepareColumns();
    accs.assign(p.TH, SmallVector<Value>(p.TM, zero));
    for (int64_t r = 0; r < NR; ++r)
      visitWindowRow(r);
    for (int64_t t = 0; t < p.TH; ++t)
      storeTile(e, p, op.getInit(), n, ih0, iw0, c, accs, IHt, IWt, t);
  }
};

/// Stride-1 average backward as row tiles: dX[ih, iw] is the sum of
/// dY[oh, ow] / divisor(oh, ow) over oh = ih + pt - kh, ow = iw + pl - kw,
/// i.e. a KH x KW box sum of the scaled dY, computed like the forward
/// row-tiled kernel. A thread owns TH dX rows x TM dX columns x vw
/// channels and visits the TH + KH - 1 dY rows of its tile once, each dY
/// column of the row once (scaled by the reciprocal row and column
/// divisors, one scalar product per vector), folding the row partial of
/// every dX column into the dX rows it belongs to; a dX row is stored
/// after its last dY row. dY rows/columns outside [0, OH) x [0, OW) are
/// clamped loads replaced by zero.
struct AvgRowThread {
  const Plan &p;
  Pool2DBackwardOp op;
  Emitter &e;
  int64_t IHt, IWt, cols;
  Value n, ih0, iw0, c, ohLo, owLo, zero, one;
  SmallVector<Value> colIdx, colOk, colRcp;
  SmallVector<SmallVector<Value>> accs;

  AvgRowThread(const Plan &p, Pool2DBackwardOp op, Emitter &e, Value gid)
      : p(p), op(op), e(e), IHt(llvm::divideCeil(p.IH, p.TH)),
        IWt(llvm::divideCeil(p.IW, p.TM)), cols(p.TM + p.KW - 1) {
    auto co = e.delinearize(gid, {p.N, IHt, IWt, p.CV});
    n = co[0], ih0 = e.mul(co[1], p.TH), iw0 = e.mul(co[2], p.TM),
    c = e.mul(co[3], p.vw);
    ohLo = e.add(ih0, p.pt - (p.KH - 1));
    owLo = e.add(iw0, p.pl - (p.KW - 1));
    zero = e.splatF(p.acc, 0.0);
    one = arith::ConstantOp::create(e.b, e.loc, e.b.getFloatAttr(p.acc, 1.0));
  }

  Value reciprocal(Value count) {
    return arith::DivFOp::create(e.b, e.loc, one, e.toFloat(count, p.acc));
  }
  Value add(Value a, Value v) {
    return a ? arith::AddFOp::create(e.b, e.loc, a, v).getResult() : v;
  }

  /// dY columns of the tile: clamped index, validity, 1 / column divisor.
  void prepareColumns() {
    colIdx.resize(cols), colOk.resize(cols), colRcp.resize(cols);
    for (int64_t j = 0; j < cols; ++j) {
      Value ow = e.add(owLo, j);
      int64_t lo = p.pl - (p.KW - 1) + j;
      colOk[j] = e.inBounds(ow, lo, (IWt - 1) * p.TM + lo, p.OW);
      colIdx[j] = e.clampIf(colOk[j], ow, p.OW);
      colRcp[j] = reciprocal(e.extent(e.add(colIdx[j], -p.pl), p.KW, p.IW,
                                      p.pl, p.pr, p.includePad));
    }
  }

  /// dY row t of the tile: the scaled dY summed per dX column (dX column i
  /// takes dY columns j in [i, i + KW)).
  SmallVector<Value> rowPartials(int64_t t) {
    OpBuilder &b = e.b;
    Location loc = e.loc;
    Value oh = e.add(ohLo, t);
    int64_t lo = p.pt - (p.KH - 1) + t;
    Value rowOk = e.inBounds(oh, lo, (IHt - 1) * p.TH + lo, p.OH);
    Value ohc = e.clampIf(rowOk, oh, p.OH);
    Value rowRcp = reciprocal(
        e.extent(e.add(ohc, -p.pt), p.KH, p.IH, p.pt, p.pb, p.includePad));
    SmallVector<Value> part(p.TM);
    for (int64_t j = 0; j < cols; ++j) {
      Value g = e.convert(e.load(op.getOutputGrad(), {n, ohc, colIdx[j], c}),
                          p.acc);
      Value scale = arith::MulFOp::create(b, loc, rowRcp, colRcp[j]);
      g = arith::MulFOp::create(b, loc, g, e.broadcast(scale));
      g = e.select(e.andi(rowOk, colOk[j]), g, zero);
      for (int64_t i = 0; i < p.TM; ++i)
        if (j >= i && j < i + p.KW)
          part[i] = add(part[i], g);
    }
    return part;
  }

  void emit() {
    prepareColumns();
    accs.assign(p.TH, SmallVector<Value>(p.TM));
    for (int64_t t = 0, rows = p.TH + p.KH - 1; t < rows; ++t) {
      SmallVector<Value> part = rowPartials(t);
      // dX row r takes dY rows t in [r, r + KH).
      for (int64_t r = 0; r < p.TH; ++r) {
        if (t < r || t >= r + p.KH)
          continue;
        for (int64_t i = 0; i < p.TM; ++i)
          accs[r][i] = add(accs[r][i], part[i]);
        if (t != r + p.KH - 1)
          continue;
        storeTile(e, p, op.getInit(), n, ih0, iw0, c, accs, IHt, IWt, r);
        for (int64_t i = 0; i < p.TM; ++i)
          accs[r][i] = Value();
      }
    }
  }
};

/// One window row kh of the strip gather: the windows whose row range
/// holds ih (oh*sh = ih + pt - kh) add to the strip positions they cover.
struct GatherStripRow {
  const Plan &p;
  mutable Pool2DBackwardOp op; // (op accessors are not const)
  Value taps, n, ih, iw0, c, owBase, zero;
  int64_t d0, NW, IWc;

  /// Whether window row kh of dX row ih is a window's row: inside [0, OH)
  /// and on the stride.
  Value condition(Emitter &eh, Value ohNum, int64_t khLo,
                  int64_t khHi) const {
    Value cond;
    if (p.pt - khHi < 0)
      cond = eh.cmp(arith::CmpIPredicate::sge, ohNum, eh.cst(0));
    if ((p.IH - 1) + p.pt - khLo > (p.OH - 1) * p.sh)
      cond = eh.andi(cond, eh.cmp(arith::CmpIPredicate::sle, ohNum,
                                  eh.cst((p.OH - 1) * p.sh)));
    if (p.sh > 1) {
      // (ih + pt - kh) % sh == 0, on a non-negative operand.
      Value r = eh.rem(eh.add(ohNum, p.sh * p.KH), p.sh);
      cond = eh.andi(cond, eh.cmp(arith::CmpIPredicate::eq, r, eh.cst(0)));
    }
    return cond;
  }

  /// The row's NW windows (window row oh) added to the accumulators `a`.
  void addWindows(OpBuilder &rb, Value oh, Value kh,
                  MutableArrayRef<Value> a) const {
    Location loc = op.getLoc();
    Emitter r{rb, loc, p.vw};
    // Validity and clamped index of window j.
    SmallVector<Value> wOk(NW), owIdx(NW);
    for (int64_t j = 0; j < NW; ++j) {
      Value ow = r.add(owBase, j);
      wOk[j] = r.inBounds(ow, d0 + j, (IWc - 1) * (p.TM / p.sw) + d0 + j, p.OW);
      owIdx[j] = r.clampIf(wOk[j], ow, p.OW);
    }
    SmallVector<Value> wtaps;
    if (p.isMax && taps) {
      for (int64_t j = 0; j < NW; ++j)
        wtaps.push_back(arith::ExtSIOp::create(
            rb, loc, r.vecOf(rb.getI32Type()),
            r.load(taps, {n, oh, owIdx[j], c})));
    } else if (p.isMax) {
      wtaps = recomputeArgmax(rb, loc, p, op.getInput(), n, oh, iw0, c);
    }
    Value rows;
    if (!p.isMax)
      rows = r.extent(r.add(r.mul(oh, p.sh), -p.pt), p.KH, p.IH, p.pt, p.pb,
                      p.includePad);
    for (int64_t j = 0; j < NW; ++j) {
      Value g = r.convert(r.load(op.getOutputGrad(), {n, oh, owIdx[j], c}),
                          p.acc);
      if (!p.isMax) {
        Value ws = r.add(r.mul(owIdx[j], p.sw), -p.pl);
        Value cnt = rb.createOrFold<arith::MulIOp>(
            loc, rows, r.extent(ws, p.KW, p.IW, p.pl, p.pr, p.includePad));
        g = r.divideByCount(g, cnt, p.acc);
      }
      g = r.select(wOk[j], g, zero);
      Value tapBase;
      if (p.isMax)
        tapBase = r.broadcast(arith::IndexCastOp::create(
            rb, loc, rb.getI32Type(), r.mul(kh, p.KW)));
      for (int64_t i = 0; i < p.TM; ++i) {
        int64_t kw = i - (d0 + j) * p.sw + p.pl;
        if (kw < 0 || kw >= p.KW)
          continue;
        Value contrib = g;
        if (p.isMax) {
          Value want = arith::AddIOp::create(rb, loc, tapBase, r.splatI32(kw));
          Value hit = arith::CmpIOp::create(rb, loc, arith::CmpIPredicate::eq,
                                            wtaps[j], want);
          contrib = arith::SelectOp::create(rb, loc, hit, g, zero);
        }
        a[i] = arith::AddFOp::create(rb, loc, a[i], contrib);
      }
    }
  }

  SmallVector<Value> operator()(OpBuilder &bh, Value kh,
                                std::optional<int64_t> ckh,
                                ValueRange accs) const {
    Emitter eh{bh, op.getLoc(), p.vw};
    int64_t khLo = ckh ? *ckh : 0, khHi = ckh ? *ckh : p.KH - 1;
    Value ohNum = eh.sub(eh.add(ih, p.pt), kh);
    Value cond = condition(eh, ohNum, khLo, khHi);
    return ifThen(bh, op.getLoc(), cond, accs, [&](OpBuilder &rb) {
      Emitter r{rb, op.getLoc(), p.vw};
      Value oh = r.div(ohNum, p.sh);
      SmallVector<Value> a(accs);
      addWindows(rb, oh, kh, a);
      return a;
    });
  }
};

/// The gather on single-row strips: a thread owns TM consecutive dX
/// positions (a multiple of the width stride, so that the windows covering
/// it sit at static offsets: window j, ow = iw0/sw + d0 + j, covers strip
/// position i at tap kw = i - (d0 + j)*sw + pl) x vw channels.
void emitGatherStrips(PatternRewriter &rewriter, Pool2DBackwardOp op,
                      const Plan &p, Value taps) {
  Location loc = op.getLoc();
  Value dx = op.getInit();
  int64_t d0, NW;
  std::tie(d0, NW) = coveringWindows(p.pl, p.KW, p.sw, p.TM);
  int64_t IWc = llvm::divideCeil(p.IW, p.TM);
  int64_t total = p.N * p.IH * IWc * p.CV;
  emitLaunch(rewriter, op, total, "", [&](OpBuilder &b, Value gid) {
    Emitter e{b, loc, p.vw};
    auto co = e.delinearize(gid, {p.N, p.IH, IWc, p.CV});
    Value n = co[0], ih = co[1], iwc = co[2], c = e.mul(co[3], p.vw);
    Value iw0 = e.mul(iwc, p.TM);
    Value owBase = e.add(e.mul(iwc, p.TM / p.sw), d0);
    Value zero = e.splatF(p.acc, 0.0);
    SmallVector<Value> inits(p.TM, zero);
    GatherStripRow row{p,      op,   taps, n,  ih, iw0, c,
                       owBase, zero, d0,   NW, IWc};
    auto res = loop(b, loc, p.KH, p.KH <= kMaxUnroll, inits, row);
    for (int64_t i = 0; i < p.TM; ++i) {
      Value iw = e.add(iw0, i);
      Value val = e.convert(res[i], elemOf(dx));
      Value ok;
      if ((IWc - 1) * p.TM + i >= p.IW)
        ok = e.cmp(arith::CmpIPredicate::slt, iw, e.cst(p.IW));
      guarded(b, loc, ok, [&](OpBuilder &sb) {
        Emitter{sb, loc, p.vw}.store(val, dx, {n, ih, iw, c});
      });
    }
  });
}

/// Most operations a strip thread's unrolled code may hold (its window
/// loops unrolled up to kMaxUnroll, its NW covering windows always): wider
/// windows take the rolled gather, whose code does not grow with them (a
/// 7x28 max gradient's strips took 96 s to compile).
constexpr int64_t kMaxStripWork = 4096;

/// Estimated operations of a gather-strip thread: per unrolled window row,
/// NW windows x TM positions, and the recomputed argmax's NW x KW offers
/// per unrolled scan row.
int64_t stripWork(const Plan &p) {
  auto [d0, NW] = coveringWindows(p.pl, p.KW, p.sw, p.TM);
  (void)d0;
  int64_t rows = p.KH <= kMaxUnroll ? p.KH : 1;
  int64_t work = NW * p.TM;
  if (p.isMax && !p.storedArgmax)
    work += rows * NW * p.KW;
  return rows * work;
}

/// `(num + d - 1) / d` clamped below by 0, for any sign of `num` (a signed
/// division truncates towards zero, which the clamp makes a ceiling).
Value ceilDivAtLeast0(Emitter &e, Value num, int64_t d) {
  Value q = e.b.createOrFold<arith::DivSIOp>(e.loc, e.add(num, d - 1), e.cst(d));
  return e.maxc(q, 0);
}

/// The argmax tap (kh * KW + kw, as i32 lanes) of window (oh, ow) whose
/// top-left tap is at (top, left): rolled loops over its taps with the
/// op's tie-breaking (offerArgmax), taps outside the input as -inf.
Value rolledArgmax(Emitter &e, const Plan &p, Value x, Value n, Value c,
                   Value top, Value left) {
  Location loc = e.loc;
  SmallVector<Value> inits = {e.negInf(p.elem), e.firstTap(top, left, p.KW)};
  auto res = loop(e.b, loc, p.KH, false, inits,
      [&](OpBuilder &hb, Value kh, std::optional<int64_t>, ValueRange st) {
        Emitter eh{hb, loc, p.vw};
        Value ih = eh.add(top, kh);
        Value rowOk = eh.inBounds(ih, -1, p.IH, p.IH);
        Value ihc = eh.clampIf(rowOk, ih, p.IH);
        return loop(hb, loc, p.KW, false, st,
            [&](OpBuilder &wb, Value kw, std::optional<int64_t>,
                ValueRange acc) -> SmallVector<Value> {
              Emitter ew{wb, loc, p.vw};
              Value iw = ew.add(left, kw);
              Value colOk = ew.inBounds(iw, -1, p.IW, p.IW);
              Value v = ew.maskOutside(
                  ew.load(x, {n, ihc, ew.clampIf(colOk, iw, p.IW), c}),
                  ew.andi(rowOk, colOk));
              Value tap = ew.broadcast(arith::IndexCastOp::create(
                  wb, loc, wb.getI32Type(), ew.add(ew.mul(kh, p.KW), kw)));
              Value better = arith::CmpFOp::create(
                  wb, loc, arith::CmpFPredicate::OGT, v, acc[0]);
              return {arith::SelectOp::create(wb, loc, better, v, acc[0]),
                      arith::SelectOp::create(wb, loc, better, tap, acc[1])};
            });
      });
  return res[1];
}

/// The gather with every loop rolled, for windows too wide for the strips
/// (stripWork): a thread owns one dX position x vw channels and loops over
/// the windows covering it (their range computed at run time), adding each
/// window's gradient (avg: divided by its divisor; max: where its argmax,
/// stored or recomputed, is this position).
void emitRolledGather(PatternRewriter &rewriter, Pool2DBackwardOp op,
                      const Plan &p, Value taps) {
  Location loc = op.getLoc();
  Value dx = op.getInit(), dy = op.getOutputGrad(), x = op.getInput();
  int64_t total = p.N * p.IH * p.IW * p.CV;
  emitLaunch(rewriter, op, total, "", [&](OpBuilder &b, Value gid) {
    Emitter e{b, loc, p.vw};
    auto co = e.delinearize(gid, {p.N, p.IH, p.IW, p.CV});
    Value n = co[0], ih = co[1], iw = co[2], c = e.mul(co[3], p.vw);
    // Windows oh with oh*sh <= ih + pt < oh*sh + KH, inside [0, OH).
    Value hNum = e.add(ih, p.pt), wNum = e.add(iw, p.pl);
    Value ohLo = ceilDivAtLeast0(e, e.add(hNum, 1 - p.KH), p.sh);
    Value ohEnd = e.minc(e.add(e.b.createOrFold<arith::DivSIOp>(
                                   loc, hNum, e.cst(p.sh)), 1), p.OH);
    Value owLo = ceilDivAtLeast0(e, e.add(wNum, 1 - p.KW), p.sw);
    Value owEnd = e.minc(e.add(e.b.createOrFold<arith::DivSIOp>(
                                   loc, wNum, e.cst(p.sw)), 1), p.OW);
    Value zero = e.splatF(p.acc, 0.0);
    auto rows = scf::ForOp::create(b, loc, ohLo, e.maxc(ohEnd, 0), e.cst(1),
                                   ValueRange{zero});
    OpBuilder hb = OpBuilder::atBlockBegin(rows.getBody());
    Emitter eh{hb, loc, p.vw};
    Value oh = rows.getInductionVar();
    Value top = eh.add(eh.mul(oh, p.sh), -p.pt);
    auto cols = scf::ForOp::create(hb, loc, owLo, eh.maxc(owEnd, 0),
                                   eh.cst(1), rows.getRegionIterArgs());
    scf::YieldOp::create(hb, loc, cols.getResults());
    OpBuilder wb = OpBuilder::atBlockBegin(cols.getBody());
    Emitter ew{wb, loc, p.vw};
    Value ow = cols.getInductionVar();
    Value left = ew.add(ew.mul(ow, p.sw), -p.pl);
    Value g = ew.convert(ew.load(dy, {n, oh, ow, c}), p.acc);
    if (!p.isMax) {
      Value cnt = ew.mul(
          ew.extent(top, p.KH, p.IH, p.pt, p.pb, p.includePad),
          ew.extent(left, p.KW, p.IW, p.pl, p.pr, p.includePad));
      g = ew.divideByCount(g, cnt, p.acc);
    } else {
      Value tap = taps ? arith::ExtSIOp::create(
                             wb, loc, ew.vecOf(wb.getI32Type()),
                             ew.load(taps, {n, oh, ow, c}))
                       : rolledArgmax(ew, p, x, n, c, top, left);
      Value here = ew.broadcast(arith::IndexCastOp::create(
          wb, loc, wb.getI32Type(),
          ew.add(ew.mul(ew.sub(ih, top), p.KW), ew.sub(iw, left))));
      Value hit = arith::CmpIOp::create(wb, loc, arith::CmpIPredicate::eq,
                                        tap, here);
      g = arith::SelectOp::create(wb, loc, hit, g, zero);
    }
    scf::YieldOp::create(
        wb, loc, ValueRange{arith::AddFOp::create(
                     wb, loc, cols.getRegionIterArgs()[0], g)});
    e.store(e.convert(rows.getResult(0), elemOf(dx)), dx, {n, ih, iw, c});
  });
}

/// dwc.pool2d_backward with a #dwc.pool_backward configuration: the
/// stored-argmax kernel first where configured, then the gather (stride-1
/// average row tiles, strided tiles or single-row strips).
struct Pool2DBackward : KernelPattern<Pool2DBackwardOp, PoolBackwardKernelAttr> {
  using KernelPattern::KernelPattern;

  LogicalResult emit(Pool2DBackwardOp op, PoolBackwardKernelAttr config,
                     PatternRewriter &rewriter) const override {
    Plan p = planOf(op, 128, config.getRows(), config.getColumns(),
                    op.getCountIncludePad(), op.getAccType());
    StringRef argmax = config.getArgmax();
    p.storedArgmax = argmax == "stored" || argmax == "packed";
    p.packedArgmax = argmax == "packed";
    p.TA = std::min(config.getArgmaxColumns(), p.OW);
    Location loc = op.getLoc();
    Value taps;
    if (p.storedArgmax) {
      rewriter.setInsertionPoint(op);
      taps = memref::AllocOp::create(
          rewriter, loc,
          MemRefType::get({p.N, p.OH, p.OW, p.C}, rewriter.getIntegerType(8)));
      emitArgmaxKernel(rewriter, op, p, taps);
    }
    int64_t tiles = p.N * llvm::divideCeil(p.IH, p.TH) *
                    llvm::divideCeil(p.IW, p.TM) * p.CV;
    auto tileLaunch = [&](auto thread) {
      emitLaunch(rewriter, op, tiles, "", [&](OpBuilder &b, Value gid) {
        Emitter e{b, loc, p.vw};
        thread(e, gid);
      });
    };
    if (p.TH > 1 && p.sh == 1 && p.sw == 1)
      tileLaunch([&](Emitter &e, Value gid) {
        AvgRowThread(p, op, e, gid).emit();
      });
    else if (p.TH > 1)
      tileLaunch([&](Emitter &e, Value gid) {
        GatherTileThread(p, op, taps, e, gid).emit();
      });
    else if (stripWork(p) > kMaxStripWork)
      emitRolledGather(rewriter, op, p, taps);
    else
      emitGatherStrips(rewriter, op, p, taps);
    if (taps) {
      rewriter.setInsertionPoint(op);
      memref::DeallocOp::create(rewriter, loc, taps);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// depthwise_conv2d_pool2d
//===----------------------------------------------------------------------===//

/// The fused kernel's shape: an IH x IW input convolved (FH x FW, stride 1)
/// to OH x OW, pooled (KH x KW, stride sh x sw) to PH x PW, TM pooled
/// outputs per thread, PWc strips per row.
struct ConvPoolPlan {
  int64_t N, IH, IW, C, FH, FW, OH, OW, PH, PW, KH, KW, sh, sw, pt, pl, cpt,
      cpl, vw, CV, TM, PWc, cols;
  bool isMax;
  Type elt, acc, pty; // pooling in the element type for max
};

ConvPoolPlan convPoolPlanOf(DepthwiseConv2DPool2DOp op, int64_t columns) {
  auto in = shapeOf(op.getInput()), f = shapeOf(op.getFilter()),
       out = shapeOf(op.getInit());
  auto conv = op.getConvShape();
  auto k = op.getWindow(), s = op.getPoolStrides(), p = op.getPoolPadding();
  ConvPoolPlan cp;
  cp.N = in[0], cp.IH = in[1], cp.IW = in[2], cp.C = in[3];
  cp.FH = f[0], cp.FW = f[1];
  cp.OH = conv[1], cp.OW = conv[2], cp.PH = out[1], cp.PW = out[2];
  cp.KH = k[0], cp.KW = k[1], cp.sh = s[0], cp.sw = s[1];
  cp.pt = p[0], cp.pl = p[2];
  cp.cpt = op.getPadding()[0], cp.cpl = op.getPadding()[2];
  cp.elt = elemOf(op.getInput());
  cp.vw = poolVectorWidth(cp.elt, cp.C);
  cp.CV = cp.C / cp.vw;
  cp.TM = columns;
  cp.PWc = llvm::divideCeil(cp.PW, cp.TM);
  cp.cols = (cp.TM - 1) * cp.sw + cp.KW;
  cp.isMax = op.getKind() == PoolKind::Max;
  cp.acc = op.getAccType();
  cp.pty = cp.isMax ? cp.elt : cp.acc;
  return cp;
}

/// A fused thread's strip: pooled row ph, outputs pw0 + i, channels c.
struct ConvPoolStrip {
  const ConvPoolPlan &p;
  mutable DepthwiseConv2DPool2DOp op; // (op accessors are not const)
  Value n, c, hs, wbase, neutral, zero, biasV;
  SmallVector<Value> colOk;

  /// The strip's convolution columns of convolution row `r` (pooling window
  /// row kh in [khLo, khHi]): per filter row, the input columns they need
  /// loaded once each, each feeding the FW convolution columns holding it.
  SmallVector<Value> convColumns(Emitter &ec, Value r, int64_t khLo,
                                 int64_t khHi) const {
    Value x = op.getInput(), w = op.getFilter();
    SmallVector<Value> convAcc(p.cols, biasV);
    Value ir0 = ec.add(r, -p.cpt);
    Value ic0 = ec.add(wbase, -p.cpl);
    for (int64_t fh = 0; fh < p.FH; ++fh) {
      Value ir = ec.add(ir0, fh);
      // Input rows outside [0, IH) are the zero padding.
      Value irOk = ec.inBounds(ir, khLo - p.pt - p.cpt + fh,
                               (p.PH - 1) * p.sh + khHi - p.pt - p.cpt + fh,
                               p.IH);
      Value irc = ec.clampIf(irOk, ir, p.IH);
      SmallVector<Value> taps(p.FW);
      for (int64_t fw = 0; fw < p.FW; ++fw)
        taps[fw] =
            ec.convert(ec.load(w, {ec.cst(fh), ec.cst(fw), c}), p.acc);
      for (int64_t j = 0; j < p.cols + p.FW - 1; ++j) {
        Value ic = ec.add(ic0, j);
        int64_t lo = j - p.pl - p.cpl;
        Value ok = ec.andi(
            irOk, ec.inBounds(ic, lo, (p.PWc - 1) * p.TM * p.sw + lo, p.IW));
        Value v = ec.convert(
            ec.load(x, {n, irc, ec.clampIf(ok, ic, p.IW), c}), p.acc);
        v = ec.select(ok, v, zero);
        // Input column j feeds conv column q = j - fw.
        for (int64_t fw = 0; fw < p.FW; ++fw) {
          int64_t q = j - fw;
          if (q >= 0 && q < p.cols)
            convAcc[q] =
                vector::FMAOp::create(ec.b, ec.loc, v, taps[fw], convAcc[q]);
        }
      }
    }
    return convAcc;
  }

  /// Pooling window row kh: its convolution row, when inside [0, OH),
  /// computed and folded into the strip's accumulators.
  SmallVector<Value> operator()(OpBuilder &bh, Value kh,
                                std::optional<int64_t> ckh,
                                ValueRange accs) const {
    Location loc = op.getLoc();
    Emitter eh{bh, loc, p.vw};
    int64_t khLo = ckh ? *ckh : 0, khHi = ckh ? *ckh : p.KH - 1;
    Value r = eh.add(hs, kh); // convolution row
    Value rowOk =
        eh.inBounds(r, khLo - p.pt, (p.PH - 1) * p.sh + khHi - p.pt, p.OH);
    return ifThen(bh, loc, rowOk, accs, [&](OpBuilder &rb) {
      Emitter ec{rb, loc, p.vw};
      SmallVector<Value> convAcc = convColumns(ec, r, khLo, khHi);
      SmallVector<Value> a(accs);
      for (int64_t q = 0; q < p.cols; ++q) {
        // The unfused convolution's rounding to the element type.
        Value cv = ec.convert(ec.convert(convAcc[q], p.elt), p.pty);
        cv = ec.select(colOk[q], cv, neutral);
        foldColumn(rb, loc, a, cv, q, p.sw, p.KW, p.isMax);
      }
      return a;
    });
  }
};

/// dwc.depthwise_conv2d_pool2d with a #dwc.conv_pool configuration.
struct ConvPoolForward : KernelPattern<DepthwiseConv2DPool2DOp, ConvPoolKernelAttr> {
  using KernelPattern::KernelPattern;

  LogicalResult emit(DepthwiseConv2DPool2DOp op, ConvPoolKernelAttr config,
                     PatternRewriter &rewriter) const override {
    ConvPoolPlan p = convPoolPlanOf(op, config.getColumns());
    Location loc = op.getLoc();
    int64_t total = p.N * p.PH * p.PWc * p.CV;
    emitLaunch(rewriter, op, total, "", [&](OpBuilder &b, Value gid) {
      Emitter e{b, loc, p.vw};
      auto co = e.delinearize(gid, {p.N, p.PH, p.PWc, p.CV});
      Value n = co[0], ph = co[1], pw0 = e.mul(co[2], p.TM),
            c = e.mul(co[3], p.vw);
      Value hs = e.add(e.mul(ph, p.sh), -p.pt);
      Value wbase = e.add(e.mul(pw0, p.sw), -p.pl); // first conv column
      Value neutral = p.isMax ? e.negInf(p.pty) : e.splatF(p.pty, 0.0);
      Value zero = e.splatF(p.acc, 0.0);
      Value bias = op.getBias();
      Value biasV = bias ? e.convert(e.load(bias, {c}), p.acc) : zero;
      // Convolution columns of the strip: validity (inside [0, OW)).
      SmallVector<Value> colOk(p.cols);
      for (int64_t q = 0; q < p.cols; ++q)
        colOk[q] = e.inBounds(e.add(wbase, q), q - p.pl,
                              (p.PWc - 1) * p.TM * p.sw - p.pl + q, p.OW);
      SmallVector<Value> inits(p.TM, neutral);
      ConvPoolStrip strip{p, op, n, c, hs, wbase, neutral, zero, biasV, colOk};
      auto res = loop(b, loc, p.KH, p.KH <= kMaxUnroll, inits, strip);
      // The pooling input is the convolution's OH x OW output.
      PooledStripStore{p.isMax, op.getCountIncludePad(), p.acc,
                       op.getActivation(), p.KH, p.KW, p.sw, p.OH, p.OW, p.PW,
                       (p.PWc - 1) * p.TM, op.getPoolPadding()}
          .emit(e, res, op.getInit(), n, ph, pw0, c, hs, wbase);
    });
    rewriter.eraseOp(op);
    return success();
  }
};

struct ConvertDwcToGPUPoolPass
    : PatternKernelPass<ConvertDwcToGPUPoolPass,
                        dwc::impl::ConvertDwcToGPUPoolBase,
                        /*benefit=*/1,
                        Pool2DForward,
                        Pool2DBackward,
                        ConvPoolForward> {
  using PatternKernelPass::PatternKernelPass;
};

} // namespace
