//===- DwcToGPUPool.cpp - bandwidth-oriented NHWC pooling kernels ---------===//
//
// Lowers memref-form dwc.pool2d, dwc.pool2d_backward and dwc.global_avg_pool
// to gpu.launch kernels that read their inputs once and write their outputs
// once: 128-bit channel vectors per thread, strips of outputs along the
// width with width-first register reuse of the overlapping window columns,
// exact padding by clamped loads and selects, f32 accumulation for averages.
// The backward op is a gather (one thread per dX strip) that recomputes the
// max-pooling argmax from X with the op's tie-breaking. See the pass
// description in include/dwc/Conversion/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/KernelSelection.h"
#include "dwc/Conversion/Passes.h"
#include "dwc/Conversion/IndexEmitter.h"
#include "dwc/Conversion/LaunchBuilder.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "llvm/Support/MathExtras.h"
#include <limits>
#include <optional>

namespace mlir::dwc {
#define GEN_PASS_DEF_CONVERTDWCTOGPUPOOL
#include "dwc/Conversion/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;
using namespace mlir::dwc;

namespace {

/// Threads per block of the windowed kernels (1-D grid).
constexpr int64_t kBlockSize = 256;
/// Threads per block of global_avg_pool and its widest channel tile.
constexpr int64_t kGapThreads = 256;
constexpr int64_t kGapTileVectors = 32;
/// Window loops up to this length are unrolled at compile time.
constexpr int64_t kMaxUnroll = 8;
/// The forward kernel loads (TM-1)*sw + KW columns per window row, fully
/// unrolled: wider strips are left to the baseline kernel.
constexpr int64_t kMaxColumns = 64;

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

/// Why an op cannot be lowered here at all (empty: it can).
std::string formProblem(Operation *op) {
  if (op->getNumResults() != 0)
    return "tensor form (bufferize first)";
  for (Value v : op->getOperands()) {
    auto t = dyn_cast<MemRefType>(v.getType());
    if (!t)
      return "tensor operand (bufferize first)";
    if (!t.getLayout().isIdentity())
      return "non-identity layout";
  }
  return "";
}

/// 128 bits of channels per thread, or 1 when C is not a multiple.
int64_t vectorWidth(Type elem, int64_t c, int64_t bits = 128) {
  int64_t v = std::max<int64_t>(1, bits / elem.getIntOrFloatBitWidth());
  return c % v == 0 ? v : 1;
}

/// Index arithmetic and `vector<vw x T>` helpers (vw = 1 uses scalar
/// memory accesses).
struct Emitter : IndexEmitter {
  int64_t vw;
  Emitter(OpBuilder &b, Location loc, int64_t vw)
      : IndexEmitter(b, loc), vw(vw) {}

  VectorType vecOf(Type elem) { return VectorType::get({vw}, elem); }
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
  Value broadcast(Value scalar) {
    return vector::BroadcastOp::create(b, loc, vecOf(scalar.getType()), scalar);
  }
  unsigned bytesOf(Type t) { return t.getIntOrFloatBitWidth() / 8; }
  Value load(Value mem, ValueRange idx) {
    Type elem = elemOf(mem);
    if (vw == 1) {
      Value s = memref::LoadOp::create(b, loc, mem, idx);
      return vector::FromElementsOp::create(b, loc, vecOf(elem), s);
    }
    return vector::LoadOp::create(b, loc, vecOf(elem), mem, idx,
                                  /*nontemporal=*/false,
                                  llvm::Align(vw * bytesOf(elem)));
  }
  void store(Value v, Value mem, ValueRange idx) {
    if (vw == 1) {
      Value s = vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{0});
      memref::StoreOp::create(b, loc, s, mem, idx);
      return;
    }
    vector::StoreOp::create(b, loc, v, mem, idx, /*nontemporal=*/false,
                            llvm::Align(vw * bytesOf(elemOf(mem))));
  }
  Value convert(Value v, Type to) {
    Type from = cast<VectorType>(v.getType()).getElementType();
    if (from == to)
      return v;
    if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
      return arith::ExtFOp::create(b, loc, vecOf(to), v);
    return arith::TruncFOp::create(b, loc, vecOf(to), v);
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

/// A 1-D launch of `grid` blocks of `block` threads in place of `op`.
std::pair<gpu::LaunchOp, OpBuilder>
createLaunch(RewriterBase &rewriter, Operation *op, int64_t grid, int64_t block,
             TypeRange workgroup = {}) {
  rewriter.setInsertionPoint(op);
  return createGridLaunch(rewriter, op->getLoc(), grid, 1, block, workgroup);
}

/// 1-D launch of `total` threads in blocks of kBlockSize; `body` gets the
/// global thread id (only ids below `total`).
void emitLaunch(RewriterBase &rewriter, Operation *op, int64_t total,
                function_ref<void(OpBuilder &, Value gid)> body,
                bool eraseOp = true) {
  Location loc = op->getLoc();
  auto [launch, b] = createLaunch(rewriter, op,
                                  llvm::divideCeil(total, kBlockSize),
                                  kBlockSize);
  Emitter e{b, loc, 1};
  Value gid = e.add(e.mul(launch.getBlockIds().x, kBlockSize),
                    launch.getThreadIds().x);
  Value inRange;
  if (total % kBlockSize != 0)
    inRange = e.cmp(arith::CmpIPredicate::ult, gid, e.cst(total));
  guarded(b, loc, inRange, [&](OpBuilder &tb) { body(tb, gid); });
  if (eraseOp)
    rewriter.eraseOp(op);
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

bool gridTooLarge(int64_t threads, int64_t perBlock) {
  return llvm::divideCeil(threads, perBlock) >
         std::numeric_limits<int32_t>::max();
}

//===----------------------------------------------------------------------===//
// pool2d
//===----------------------------------------------------------------------===//

/// Outputs per thread along the width.
int64_t forwardStrip(int64_t ow, int64_t sw) {
  return std::min<int64_t>(ow, sw == 1 ? 8 : 4);
}

/// Row-tiled forward kernel (windows overlapping in height): output rows per
/// thread by default, 32-bit registers allowed for the live partial results,
/// and the most input vectors loaded (unrolled) per thread tile.
constexpr int64_t kRowTile = 8;
constexpr int64_t kDefaultTileAccRegs = 48;
constexpr int64_t kMaxTileLoads = 128;
/// Strided backward gather tiles: most windows visited (unrolled) and most
/// dX positions held per thread.
constexpr int64_t kMaxTileWindows = 32;
constexpr int64_t kMaxTilePositions = 16;

/// Shape of a row-tiled forward thread tile: TH output rows x TM outputs
/// along the width.
struct RowTile {
  int64_t th, tm;
};

/// The row tile for a forward pool2d, or nullopt for the single-row strip
/// kernel. `request`: 0 = automatic (8 rows whenever the windows overlap in
/// height, KH > sh: each input row then serves several output rows), 1 =
/// never, >= 2 = that many rows when KH > sh.
///
/// While input row t is folded in, the output rows whose windows hold it
/// are live: ceil(KH/sh) rows of TM accumulators, the newest being the row
/// partial itself. TM is the widest of the strip width (8 for sw = 1, else
/// 4), 4, 2, 1 keeping ceil(KH/sh) * TM * (vw * bits(accumulator) / 32)
/// within `accRegs` (kDefaultTileAccRegs; 3x3 stride 1: f32 TM = 4, f16/bf16 max TM = 4,
/// f16/bf16 avg with f32 sums TM = 2; ptxas then stays at <= 128 registers,
/// two 256-thread blocks per SM, no spills; a budget of 96 gave ~175). TH = min(OH, kRowTile or the request),
/// halved while the tile's (TH-1)*sh + KH rows x (TM-1)*sw + KW columns
/// exceed kMaxTileLoads.
std::optional<RowTile> forwardRowTile(int64_t request, int64_t accRegs,
                                      int64_t OH, int64_t OW,
                                      int64_t KH, int64_t KW, int64_t sh,
                                      int64_t sw, int64_t vw, Type cty) {
  if (request == 1 || KH <= sh)
    return std::nullopt;
  int64_t live = llvm::divideCeil(KH, sh);
  int64_t regs = std::max<int64_t>(1, vw * cty.getIntOrFloatBitWidth() / 32);
  int64_t tm = forwardStrip(OW, sw);
  while (tm > 1 && live * tm * regs > accRegs)
    tm /= 2;
  int64_t th = std::min<int64_t>(OH, request == 0 ? kRowTile : request);
  int64_t cols = (tm - 1) * sw + KW;
  while (th > 2 && ((th - 1) * sh + KH) * cols > kMaxTileLoads)
    th /= 2;
  if (th < 2 || ((th - 1) * sh + KH) * cols > kMaxTileLoads)
    return std::nullopt;
  return RowTile{th, tm};
}

struct Pool2DForward : OpRewritePattern<Pool2DOp> {
  Pool2DForward(MLIRContext *ctx, int64_t rowTile, int64_t accRegs,
                int64_t vectorBits)
      : OpRewritePattern(ctx, /*benefit=*/2), rowTile(rowTile),
        accRegs(accRegs), vectorBits(vectorBits) {}
  int64_t rowTile, accRegs, vectorBits;

  LogicalResult matchAndRewrite(Pool2DOp op,
                                PatternRewriter &rewriter) const override {
    if (hasOtherKernel(op, ""))
      return rewriter.notifyMatchFailure(op, "dwc.kernel names another kernel");
    std::string why = formProblem(op);
    if (!why.empty())
      return rewriter.notifyMatchFailure(op, why);
    Value x = op.getInput(), y = op.getInit();
    Type elt = elemOf(x);
    auto in = shapeOf(x), out = shapeOf(y);
    int64_t N = in[0], IH = in[1], IW = in[2], C = in[3];
    int64_t OH = out[1], OW = out[2];
    int64_t vw = vectorWidth(elt, C, vectorBits);
    if (vw == 1)
      return rewriter.notifyMatchFailure(op, "channels not a multiple of the vector width");
    auto k = op.getWindow(), s = op.getStrides(), p = op.getPadding();
    int64_t KH = k[0], KW = k[1], sh = s[0], sw = s[1];
    int64_t pt = p[0], pl = p[2];
    int64_t TM = forwardStrip(OW, sw);
    int64_t cols = (TM - 1) * sw + KW;
    if (cols > kMaxColumns)
      return rewriter.notifyMatchFailure(op, "window too wide for the register strip");
    bool isMax = op.getKind() == PoolKind::Max;
    bool includePad = op.getCountIncludePad();
    Type acc = op.getAccType();
    // Max compares in the element type (exact), avg sums in acc.
    Type cty = isMax ? elt : acc;
    Location loc = op.getLoc();
    int64_t CV = C / vw;
    // Stride-1 averages of 16-bit data (8 f32 sums per channel vector):
    // by default one output per row and 4 rows per thread, whose lower
    // register use keeps more threads resident.
    int64_t tileRequest = rowTile, tileRegs = accRegs;
    if (!isMax && sh == 1 && sw == 1 && rowTile == 0 &&
        accRegs == kDefaultTileAccRegs &&
        vw * acc.getIntOrFloatBitWidth() / 32 == 8) {
      tileRequest = 4;
      tileRegs = 24;
    }
    if (auto tile = forwardRowTile(tileRequest, tileRegs, OH, OW, KH, KW, sh,
                                   sw, vw, cty)) {
      int64_t total = N * llvm::divideCeil(OH, tile->th) *
                      llvm::divideCeil(OW, tile->tm) * CV;
      if (!gridTooLarge(total, kBlockSize)) {
        emitRowTiled(rewriter, op, *tile, total);
        return success();
      }
    }
    int64_t OWc = llvm::divideCeil(OW, TM);
    int64_t total = N * OH * OWc * CV;
    if (gridTooLarge(total, kBlockSize))
      return rewriter.notifyMatchFailure(op, "grid too large");

    emitLaunch(rewriter, op, total, [&](OpBuilder &b, Value gid) {
      Emitter e{b, loc, vw};
      auto co = e.delinearize(gid, {N, OH, OWc, CV});
      Value n = co[0], oh = co[1], ow0 = e.mul(co[2], TM),
            c = e.mul(co[3], vw);
      Value hs = e.add(e.mul(oh, sh), -pt);
      Value wbase = e.add(e.mul(ow0, sw), -pl);
      Value neutral = isMax ? e.negInf(cty) : e.splatF(cty, 0.0);
      SmallVector<Value> inits(TM, neutral);
      auto res = loop(
          b, loc, KH, KH <= kMaxUnroll, inits,
          [&](OpBuilder &bh, Value kh, std::optional<int64_t> ckh,
              ValueRange accs) -> SmallVector<Value> {
            Emitter eh{bh, loc, vw};
            int64_t khLo = ckh ? *ckh : 0, khHi = ckh ? *ckh : KH - 1;
            Value ih = eh.add(hs, kh);
            Value rowOk =
                eh.inBounds(ih, khLo - pt, (OH - 1) * sh + khHi - pt, IH);
            // A window row outside the input contributes nothing.
            return ifThen(bh, loc, rowOk, accs, [&](OpBuilder &rb) {
              Emitter r{rb, loc, vw};
              SmallVector<Value> a(accs);
              // Width-first: each column of the strip once, folded into
              // every output whose window holds it.
              for (int64_t j = 0; j < cols; ++j) {
                Value iw = r.add(wbase, j);
                Value ok = r.inBounds(iw, j - pl,
                                      (OWc - 1) * TM * sw - pl + j, IW);
                Value v = r.convert(
                    r.load(x, {n, ih, r.clampIf(ok, iw, IW), c}), cty);
                v = r.select(ok, v, neutral);
                foldColumn(rb, loc, a, v, j, sw, KW, isMax);
              }
              return a;
            });
          });
      PooledStripStore{isMax, includePad, acc, op.getActivation(), KH, KW,
                       sw, IH, IW, OW, (OWc - 1) * TM, p}
          .emit(e, res, y, n, oh, ow0, c, hs, wbase);
    });
    return success();
  }

  /// Separable row-tiled kernel: a thread owns TH consecutive output rows x
  /// TM outputs along the width x vw channels. The (TH-1)*sh + KH input rows
  /// of the tile are visited in order, each loaded once (columns of the
  /// strip once each, width-first): the row partial of every strip output
  /// (its KW taps folded) is folded into the accumulators of the output rows
  /// whose window holds the row; an output row is divided and stored right
  /// after its last window row. Rows and columns outside the input are
  /// clamped loads whose values are replaced by the neutral element (no
  /// branches, so loads of consecutive rows may overlap).
  void emitRowTiled(PatternRewriter &rewriter, Pool2DOp op, RowTile tile,
                    int64_t total) const {
    Value x = op.getInput(), y = op.getInit();
    Type elt = elemOf(x);
    auto in = shapeOf(x), out = shapeOf(y);
    int64_t N = in[0], IH = in[1], IW = in[2], C = in[3];
    int64_t OH = out[1], OW = out[2];
    int64_t vw = vectorWidth(elt, C, vectorBits);
    auto k = op.getWindow(), s = op.getStrides(), p = op.getPadding();
    int64_t KH = k[0], KW = k[1], sh = s[0], sw = s[1];
    int64_t pt = p[0], pb = p[1], pl = p[2], pr = p[3];
    int64_t TH = tile.th, TM = tile.tm;
    int64_t cols = (TM - 1) * sw + KW, rows = (TH - 1) * sh + KH;
    int64_t OHt = llvm::divideCeil(OH, TH), OWc = llvm::divideCeil(OW, TM);
    int64_t CV = C / vw;
    bool isMax = op.getKind() == PoolKind::Max;
    bool includePad = op.getCountIncludePad();
    Type acc = op.getAccType();
    Type cty = isMax ? elt : acc;
    Location loc = op.getLoc();

    emitLaunch(rewriter, op, total, [&](OpBuilder &b, Value gid) {
      Emitter e{b, loc, vw};
      auto co = e.delinearize(gid, {N, OHt, OWc, CV});
      Value n = co[0], oh0 = e.mul(co[1], TH), ow0 = e.mul(co[2], TM),
            c = e.mul(co[3], vw);
      Value hs0 = e.add(e.mul(oh0, sh), -pt);
      Value wbase = e.add(e.mul(ow0, sw), -pl);
      Value neutral = isMax ? e.negInf(cty) : e.splatF(cty, 0.0);
      auto fold = [&](Value a, Value v) -> Value {
        if (isMax)
          return arith::MaximumFOp::create(b, loc, a, v);
        return arith::AddFOp::create(b, loc, a, v);
      };
      // Columns of the strip: clamped index and validity, static per j.
      SmallVector<Value> colIdx(cols), colOk(cols);
      for (int64_t j = 0; j < cols; ++j) {
        Value iw = e.add(wbase, j);
        colOk[j] = e.inBounds(iw, j - pl, (OWc - 1) * TM * sw - pl + j, IW);
        colIdx[j] = e.clampIf(colOk[j], iw, IW);
      }
      // Width divisors, shared by the output rows.
      SmallVector<Value> colCnt(TM);
      if (!isMax)
        for (int64_t i = 0; i < TM; ++i)
          colCnt[i] = e.extent(e.add(wbase, i * sw), KW, IW, pl, pr,
                               includePad);
      SmallVector<SmallVector<Value>> accs(TH, SmallVector<Value>(TM));
      for (int64_t t = 0; t < rows; ++t) {
        Value ih = e.add(hs0, t);
        Value rowOk = e.inBounds(ih, t - pt, (OHt - 1) * TH * sh - pt + t, IH);
        Value ihc = e.clampIf(rowOk, ih, IH);
        // Row partials: the KW taps of each strip output in this row.
        SmallVector<Value> part(TM);
        for (int64_t j = 0; j < cols; ++j) {
          Value v = e.convert(e.load(x, {n, ihc, colIdx[j], c}), cty);
          v = e.select(colOk[j], v, neutral);
          for (int64_t i = 0; i < TM; ++i) {
            if (j < i * sw || j >= i * sw + KW)
              continue;
            part[i] = part[i] ? fold(part[i], v) : v;
          }
        }
        for (int64_t i = 0; i < TM; ++i)
          part[i] = e.select(rowOk, part[i], neutral);
        // Fold into the output rows r with r*sh <= t < r*sh + KH.
        for (int64_t r = 0; r < TH; ++r) {
          if (t < r * sh || t >= r * sh + KH)
            continue;
          for (int64_t i = 0; i < TM; ++i)
            accs[r][i] = fold(accs[r][i] ? accs[r][i] : neutral, part[i]);
          if (t != r * sh + KH - 1)
            continue;
          // Last window row of output row r: divide and store.
          Value oh = e.add(oh0, r);
          Value rowCnt;
          if (!isMax)
            rowCnt = e.extent(e.add(hs0, r * sh), KH, IH, pt, pb, includePad);
          Value rowStore;
          if ((OHt - 1) * TH + r >= OH)
            rowStore = e.cmp(arith::CmpIPredicate::slt, oh, e.cst(OH));
          for (int64_t i = 0; i < TM; ++i) {
            Value res = accs[r][i];
            if (!isMax) {
              Value cnt =
                  b.createOrFold<arith::MulIOp>(loc, rowCnt, colCnt[i]);
              res = e.divideByCount(res, cnt, acc);
            }
            res = applyActivation(b, loc, res, op.getActivation());
            Value val = e.convert(res, elemOf(y));
            Value ow = e.add(ow0, i);
            Value ok = rowStore;
            if ((OWc - 1) * TM + i >= OW)
              ok = e.andi(ok, e.cmp(arith::CmpIPredicate::slt, ow, e.cst(OW)));
            guarded(b, loc, ok, [&](OpBuilder &sb) {
              Emitter es{sb, loc, vw};
              es.store(val, y, {n, oh, ow, c});
            });
            accs[r][i] = Value();
          }
        }
      }
    });
  }
};

//===----------------------------------------------------------------------===//
// pool2d_backward
//===----------------------------------------------------------------------===//

/// How max pool2d_backward finds each window's argmax.
enum class ArgmaxMode { Auto, Recompute, Stored };

std::optional<ArgmaxMode> parseArgmaxMode(StringRef s) {
  if (s == "auto")
    return ArgmaxMode::Auto;
  if (s == "recompute")
    return ArgmaxMode::Recompute;
  if (s == "stored")
    return ArgmaxMode::Stored;
  return std::nullopt;
}

struct Pool2DBackward : OpRewritePattern<Pool2DBackwardOp> {
  Pool2DBackward(MLIRContext *ctx, ArgmaxMode argmax, int64_t rowTile,
                 int64_t accRegs, int64_t strip, int64_t backwardRows,
                 int64_t argmaxStrip, bool packedArgmax)
      : OpRewritePattern(ctx, /*benefit=*/2), argmax(argmax),
        rowTile(rowTile), accRegs(accRegs), strip(strip),
        backwardRows(backwardRows), argmaxStrip(argmaxStrip),
        packedArgmax(packedArgmax) {}
  ArgmaxMode argmax;
  int64_t rowTile, accRegs, strip, backwardRows, argmaxStrip;
  bool packedArgmax;

  /// Strided gather as tiles aligned to the stride: a thread owns TH dX rows
  /// x TM dX columns (multiples of sh and sw) x V channels. Because the tile
  /// origin is a multiple of the stride, the windows covering the tile and
  /// the tap (kh, kw) at which each covers each tile position are static:
  /// the NR x NW windows are visited once each (one dY vector load, for max
  /// one i8 tap-vector load from the stored argmax `taps`), each adds to the
  /// tile positions it covers, with no per-row parity branch and no
  /// division per window (avg: reciprocal row and column divisors, NR + NW
  /// scalar divisions per thread). Windows outside [0, OH) x [0, OW) are
  /// clamped loads replaced by zero; positions outside dX are not stored.
  using TapsFn = function_ref<SmallVector<Value>(OpBuilder &, Value n,
                                                  Value oh, Value iw0,
                                                  Value c)>;
  /// (Max without a stored argmax: `recomputeTaps` scans X for the NW
  /// windows of each covering window row instead.)
  void emitGatherTiles(PatternRewriter &rewriter, Pool2DBackwardOp op,
                       Value taps, TapsFn recomputeTaps, int64_t TH,
                       int64_t TM) const {
    Value dy = op.getOutputGrad(), dx = op.getInit();
    Type elt = elemOf(dx);
    auto in = shapeOf(dx), out = shapeOf(dy);
    int64_t N = in[0], IH = in[1], IW = in[2], C = in[3];
    int64_t OH = out[1], OW = out[2];
    int64_t vw = vectorWidth(elt, C);
    auto k = op.getWindow(), s = op.getStrides(), p = op.getPadding();
    int64_t KH = k[0], KW = k[1], sh = s[0], sw = s[1];
    int64_t pt = p[0], pb = p[1], pl = p[2], pr = p[3];
    bool isMax = op.getKind() == PoolKind::Max;
    bool includePad = op.getCountIncludePad();
    Type acc = op.getAccType();
    Location loc = op.getLoc();
    int64_t dh0 = llvm::divideCeilSigned(pt - KH + 1, sh);
    int64_t dw0 = llvm::divideCeilSigned(pl - KW + 1, sw);
    int64_t NR = 0, NW = 0;
    while ((dh0 + NR) * sh - pt <= TH - 1)
      ++NR;
    while ((dw0 + NW) * sw - pl <= TM - 1)
      ++NW;
    int64_t IHt = llvm::divideCeil(IH, TH), IWt = llvm::divideCeil(IW, TM);
    int64_t CV = C / vw;
    int64_t total = N * IHt * IWt * CV;
    emitLaunch(rewriter, op, total, [&](OpBuilder &b, Value gid) {
      Emitter e{b, loc, vw};
      auto co = e.delinearize(gid, {N, IHt, IWt, CV});
      Value n = co[0], c = e.mul(co[3], vw);
      Value ih0 = e.mul(co[1], TH), iw0 = e.mul(co[2], TM);
      Value ohBase = e.add(e.mul(co[1], TH / sh), dh0);
      Value owBase = e.add(e.mul(co[2], TM / sw), dw0);
      Value zero = e.splatF(acc, 0.0);
      Value one = arith::ConstantOp::create(b, loc, b.getFloatAttr(acc, 1.0));
      auto reciprocal = [&](Value count) -> Value {
        return arith::DivFOp::create(b, loc, one, e.toFloat(count, acc));
      };
      // Window columns: validity, clamped index, avg 1 / column divisor.
      SmallVector<Value> colOk(NW), owIdx(NW), colRcp(NW);
      for (int64_t j = 0; j < NW; ++j) {
        Value ow = e.add(owBase, j);
        colOk[j] = e.inBounds(ow, dw0 + j, (IWt - 1) * (TM / sw) + dw0 + j, OW);
        owIdx[j] = e.clampIf(colOk[j], ow, OW);
        if (!isMax)
          colRcp[j] = reciprocal(e.extent(e.add(e.mul(owIdx[j], sw), -pl), KW,
                                          IW, pl, pr, includePad));
      }
      SmallVector<SmallVector<Value>> accs(TH, SmallVector<Value>(TM, zero));
      for (int64_t r = 0; r < NR; ++r) {
        Value oh = e.add(ohBase, r);
        Value rowOk =
            e.inBounds(oh, dh0 + r, (IHt - 1) * (TH / sh) + dh0 + r, OH);
        Value ohc = e.clampIf(rowOk, oh, OH);
        Value rowRcp;
        if (!isMax)
          rowRcp = reciprocal(
              e.extent(e.add(e.mul(ohc, sh), -pt), KH, IH, pt, pb, includePad));
        SmallVector<Value> rowTaps;
        if (isMax && !taps)
          rowTaps = recomputeTaps(b, n, ohc, iw0, c);
        for (int64_t j = 0; j < NW; ++j) {
          Value g = e.convert(e.load(dy, {n, ohc, owIdx[j], c}), acc);
          if (!isMax) {
            Value scale = arith::MulFOp::create(b, loc, rowRcp, colRcp[j]);
            g = arith::MulFOp::create(b, loc, g, e.broadcast(scale));
          }
          g = e.select(e.andi(rowOk, colOk[j]), g, zero);
          Value wtaps;
          if (isMax && taps)
            wtaps = arith::ExtSIOp::create(b, loc, e.vecOf(b.getI32Type()),
                                           e.load(taps, {n, ohc, owIdx[j], c}));
          else if (isMax)
            wtaps = rowTaps[j];
          for (int64_t t = 0; t < TH; ++t) {
            int64_t kh = t + pt - (dh0 + r) * sh;
            if (kh < 0 || kh >= KH)
              continue;
            for (int64_t i = 0; i < TM; ++i) {
              int64_t kw = i + pl - (dw0 + j) * sw;
              if (kw < 0 || kw >= KW)
                continue;
              Value contrib = g;
              if (isMax) {
                Value hit = arith::CmpIOp::create(
                    b, loc, arith::CmpIPredicate::eq, wtaps,
                    e.splatI32(kh * KW + kw));
                contrib = arith::SelectOp::create(b, loc, hit, g, zero);
              }
              accs[t][i] = arith::AddFOp::create(b, loc, accs[t][i], contrib);
            }
          }
        }
      }
      for (int64_t t = 0; t < TH; ++t) {
        Value ih = e.add(ih0, t);
        Value rowStore;
        if ((IHt - 1) * TH + t >= IH)
          rowStore = e.cmp(arith::CmpIPredicate::slt, ih, e.cst(IH));
        for (int64_t i = 0; i < TM; ++i) {
          Value iw = e.add(iw0, i);
          Value ok = rowStore;
          if ((IWt - 1) * TM + i >= IW)
            ok = e.andi(ok, e.cmp(arith::CmpIPredicate::slt, iw, e.cst(IW)));
          Value val = e.convert(accs[t][i], elt);
          guarded(b, loc, ok, [&](OpBuilder &sb) {
            Emitter{sb, loc, vw}.store(val, dx, {n, ih, iw, c});
          });
        }
      }
    }, /*eraseOp=*/false);
  }

  /// Stride-1 average backward as row tiles: dX[ih, iw] is the sum of
  /// dY[oh, ow] / divisor(oh, ow) over oh = ih + pt - kh, ow = iw + pl - kw,
  /// i.e. a KH x KW box sum of the scaled dY, computed like the forward
  /// row-tiled kernel. A thread owns TH dX rows x TM dX columns x V
  /// channels and visits the TH + KH - 1 dY rows of its tile once, each dY
  /// column of the row once (scaled by the reciprocal row and column
  /// divisors, one scalar product per vector), folding the row partial of
  /// every dX column into the dX rows it belongs to; a dX row is stored
  /// after its last dY row. dY rows/columns outside [0, OH) x [0, OW) are
  /// clamped loads replaced by zero.
  void emitAvgRows(PatternRewriter &rewriter, Pool2DBackwardOp op,
                   RowTile tile) const {
    Value x = op.getInput(), dy = op.getOutputGrad(), dx = op.getInit();
    Type elt = elemOf(x);
    auto in = shapeOf(x), out = shapeOf(dy);
    int64_t N = in[0], IH = in[1], IW = in[2], C = in[3];
    int64_t OH = out[1], OW = out[2];
    int64_t vw = vectorWidth(elt, C);
    auto k = op.getWindow(), p = op.getPadding();
    int64_t KH = k[0], KW = k[1];
    int64_t pt = p[0], pb = p[1], pl = p[2], pr = p[3];
    int64_t TH = tile.th, TM = tile.tm;
    int64_t rows = TH + KH - 1, cols = TM + KW - 1;
    int64_t IHt = llvm::divideCeil(IH, TH), IWt = llvm::divideCeil(IW, TM);
    int64_t CV = C / vw;
    bool includePad = op.getCountIncludePad();
    Type acc = op.getAccType();
    Location loc = op.getLoc();
    int64_t total = N * IHt * IWt * CV;
    emitLaunch(rewriter, op, total, [&](OpBuilder &b, Value gid) {
      Emitter e{b, loc, vw};
      auto co = e.delinearize(gid, {N, IHt, IWt, CV});
      Value n = co[0], ih0 = e.mul(co[1], TH), iw0 = e.mul(co[2], TM),
            c = e.mul(co[3], vw);
      Value ohLo = e.add(ih0, pt - (KH - 1));
      Value owLo = e.add(iw0, pl - (KW - 1));
      Value zero = e.splatF(acc, 0.0);
      Value one = arith::ConstantOp::create(b, loc, b.getFloatAttr(acc, 1.0));
      auto reciprocal = [&](Value count) -> Value {
        return arith::DivFOp::create(b, loc, one, e.toFloat(count, acc));
      };
      // dY columns of the tile: clamped index, validity, 1 / column divisor.
      SmallVector<Value> colIdx(cols), colOk(cols), colRcp(cols);
      for (int64_t j = 0; j < cols; ++j) {
        Value ow = e.add(owLo, j);
        int64_t lo = pl - (KW - 1) + j;
        colOk[j] = e.inBounds(ow, lo, (IWt - 1) * TM + lo, OW);
        colIdx[j] = e.clampIf(colOk[j], ow, OW);
        colRcp[j] = reciprocal(
            e.extent(e.add(colIdx[j], -pl), KW, IW, pl, pr, includePad));
      }
      SmallVector<SmallVector<Value>> accs(TH, SmallVector<Value>(TM));
      for (int64_t t = 0; t < rows; ++t) {
        Value oh = e.add(ohLo, t);
        int64_t lo = pt - (KH - 1) + t;
        Value rowOk = e.inBounds(oh, lo, (IHt - 1) * TH + lo, OH);
        Value ohc = e.clampIf(rowOk, oh, OH);
        Value rowRcp = reciprocal(
            e.extent(e.add(ohc, -pt), KH, IH, pt, pb, includePad));
        SmallVector<Value> part(TM);
        for (int64_t j = 0; j < cols; ++j) {
          Value g = e.convert(e.load(dy, {n, ohc, colIdx[j], c}), acc);
          Value scale = arith::MulFOp::create(b, loc, rowRcp, colRcp[j]);
          g = arith::MulFOp::create(b, loc, g, e.broadcast(scale));
          g = e.select(e.andi(rowOk, colOk[j]), g, zero);
          // dX column i takes dY columns j in [i, i + KW).
          for (int64_t i = 0; i < TM; ++i) {
            if (j < i || j >= i + KW)
              continue;
            part[i] = part[i] ? arith::AddFOp::create(b, loc, part[i], g)
                                    .getResult()
                              : g;
          }
        }
        // dX row r takes dY rows t in [r, r + KH).
        for (int64_t r = 0; r < TH; ++r) {
          if (t < r || t >= r + KH)
            continue;
          for (int64_t i = 0; i < TM; ++i)
            accs[r][i] = accs[r][i] ? arith::AddFOp::create(
                                          b, loc, accs[r][i], part[i])
                                          .getResult()
                                    : part[i];
          if (t != r + KH - 1)
            continue;
          Value ih = e.add(ih0, r);
          Value rowStore;
          if ((IHt - 1) * TH + r >= IH)
            rowStore = e.cmp(arith::CmpIPredicate::slt, ih, e.cst(IH));
          for (int64_t i = 0; i < TM; ++i) {
            Value iw = e.add(iw0, i);
            Value ok = rowStore;
            if ((IWt - 1) * TM + i >= IW)
              ok = e.andi(ok, e.cmp(arith::CmpIPredicate::slt, iw, e.cst(IW)));
            Value val = e.convert(accs[r][i], elemOf(dx));
            guarded(b, loc, ok, [&](OpBuilder &sb) {
              Emitter{sb, loc, vw}.store(val, dx, {n, ih, iw, c});
            });
            accs[r][i] = Value();
          }
        }
      }
    });
  }

  /// The stored-argmax kernel's body for 16-bit data on packed pairs: two
  /// lanes per 32-bit register, one `set.gt.u32.{f16x2,bf16x2}` per pair
  /// and tap (a 0xFFFF mask per half, strictly greater: NaN never wins) and
  /// two bitwise blends (value, i16 tap index), instead of a compare and
  /// two selects per lane. Same results as offerArgmax.
  void emitPackedArgmax(OpBuilder &b, Emitter &e, Pool2DBackwardOp op,
                        Value n, Value oh, Value ow0, Value c, Value top,
                        Value wbase, int64_t TA, int64_t colsA, int64_t OWa,
                        Value taps) const {
    Value x = op.getInput();
    Type elt = elemOf(x);
    Location loc = op.getLoc();
    auto in = shapeOf(x);
    int64_t IH = in[1], IW = in[2];
    int64_t OH = shapeOf(op.getOutputGrad())[1];
    int64_t OW = shapeOf(op.getOutputGrad())[2];
    auto k = op.getWindow(), s = op.getStrides(), p = op.getPadding();
    int64_t KH = k[0], KW = k[1], sh = s[0], sw = s[1];
    int64_t pt = p[0], pl = p[2];
    int64_t vw = e.vw, P = vw / 2;
    Type i32 = b.getI32Type();
    auto c32 = [&](OpBuilder &bb, int64_t v) -> Value {
      return arith::ConstantOp::create(bb, loc, bb.getI32IntegerAttr(v));
    };
    int64_t negInfPair = elt.isF16() ? 0xFC00FC00LL : 0xFF80FF80LL;
    StringRef setGt = elt.isF16() ? "set.gt.u32.f16x2 $0, $1, $2;"
                                  : "set.gt.u32.bf16x2 $0, $1, $2;";
    auto pairTap = [&](OpBuilder &bb, Value t) { // t | t << 16
      return arith::MulIOp::create(bb, loc, t, c32(bb, 0x10001)).getResult();
    };
    // State: per window, P packed maxima then P packed tap pairs.
    SmallVector<Value> inits;
    for (int64_t i = 0; i < TA; ++i) {
      Value t = e.firstTap(top, e.add(wbase, i * sw), KW);
      Value t0 = vector::ExtractOp::create(b, loc, t, ArrayRef<int64_t>{0});
      for (int64_t q = 0; q < P; ++q)
        inits.push_back(c32(b, negInfPair));
      for (int64_t q = 0; q < P; ++q)
        inits.push_back(pairTap(b, t0));
    }
    auto state = loop(
        b, loc, KH, KH <= kMaxUnroll, inits,
        [&](OpBuilder &xb, Value kh, std::optional<int64_t> ckh,
            ValueRange st) -> SmallVector<Value> {
          Emitter ex{xb, loc, vw};
          int64_t rLo = ckh ? *ckh : 0, rHi = ckh ? *ckh : KH - 1;
          Value ih = ex.add(top, kh);
          Value rowOk = ex.inBounds(ih, rLo - pt, (OH - 1) * sh - pt + rHi, IH);
          Value ihc = ex.clampIf(rowOk, ih, IH);
          SmallVector<Value> cur(st);
          Value rowTap = pairTap(
              xb, arith::IndexCastOp::create(xb, loc, i32, ex.mul(kh, KW)));
          for (int64_t q = 0; q < colsA; ++q) {
            if (!inSomeWindow(q, 0, TA, sw, KW))
              continue;
            Value iw = ex.add(wbase, q);
            Value colOk =
                ex.inBounds(iw, q - pl, (OWa - 1) * TA * sw - pl + q, IW);
            Value ok = ex.andi(rowOk, colOk);
            Value v = ex.maskOutside(
                ex.load(x, {n, ihc, ex.clampIf(colOk, iw, IW), c}), ok);
            Value vp = vector::BitCastOp::create(
                xb, loc, VectorType::get({P}, i32), v);
            SmallVector<Value> vs(P);
            for (int64_t q2 = 0; q2 < P; ++q2)
              vs[q2] = vector::ExtractOp::create(xb, loc, vp,
                                                 ArrayRef<int64_t>{q2});
            for (int64_t i = 0; i < TA; ++i) {
              int64_t kw = q - i * sw;
              if (kw < 0 || kw >= KW)
                continue;
              Value here = arith::AddIOp::create(xb, loc, rowTap,
                                                 c32(xb, kw * 0x10001));
              for (int64_t q2 = 0; q2 < P; ++q2) {
                Value &mx = cur[i * 2 * P + q2];
                Value &tp = cur[i * 2 * P + P + q2];
                Value m = LLVM::InlineAsmOp::create(
                              xb, loc, i32, ValueRange{vs[q2], mx}, setGt,
                              "=r,r,r", /*has_side_effects=*/false,
                              /*is_align_stack=*/false,
                              LLVM::tailcallkind::TailCallKind::None,
                              /*asm_dialect=*/LLVM::AsmDialectAttr(),
                              /*operand_attrs=*/ArrayAttr())
                              .getResult(0);
                Value notM = arith::XOrIOp::create(xb, loc, m, c32(xb, -1));
                auto blend = [&](Value a, Value old) -> Value {
                  return arith::OrIOp::create(
                      xb, loc, arith::AndIOp::create(xb, loc, a, m),
                      arith::AndIOp::create(xb, loc, old, notM));
                };
                mx = blend(vs[q2], mx);
                tp = blend(here, tp);
              }
            }
          }
          return cur;
        });
    for (int64_t i = 0; i < TA; ++i) {
      SmallVector<Value> tp(state.begin() + i * 2 * P + P,
                            state.begin() + (i + 1) * 2 * P);
      Value packedTaps = vector::FromElementsOp::create(
          b, loc, VectorType::get({P}, i32), tp);
      Value t16 = vector::BitCastOp::create(
          b, loc, VectorType::get({vw}, b.getIntegerType(16)), packedTaps);
      Value t8 = arith::TruncIOp::create(b, loc, e.vecOf(b.getIntegerType(8)),
                                         t16);
      Value ow = e.add(ow0, i);
      Value ok;
      if ((OWa - 1) * TA + i >= OW)
        ok = e.cmp(arith::CmpIPredicate::slt, ow, e.cst(OW));
      guarded(b, loc, ok, [&](OpBuilder &sb) {
        Emitter{sb, loc, vw}.store(t8, taps, {n, oh, ow, c});
      });
    }
  }

  LogicalResult matchAndRewrite(Pool2DBackwardOp op,
                                PatternRewriter &rewriter) const override {
    if (hasOtherKernel(op, ""))
      return rewriter.notifyMatchFailure(op, "dwc.kernel names another kernel");
    std::string why = formProblem(op);
    if (!why.empty())
      return rewriter.notifyMatchFailure(op, why);
    Value x = op.getInput(), dy = op.getOutputGrad(), dx = op.getInit();
    Type elt = elemOf(x);
    auto in = shapeOf(x), out = shapeOf(dy);
    int64_t N = in[0], IH = in[1], IW = in[2], C = in[3];
    int64_t OH = out[1], OW = out[2];
    int64_t vw = vectorWidth(elt, C);
    auto k = op.getWindow(), s = op.getStrides(), p = op.getPadding();
    int64_t KH = k[0], KW = k[1], sh = s[0], sw = s[1];
    int64_t pt = p[0], pb = p[1], pl = p[2], pr = p[3];
    // Strip of TM dX positions, a multiple of sw so that the windows
    // covering it sit at static offsets: window j (ow = iw0/sw + d0 + j)
    // covers strip position i at tap kw = i - (d0 + j)*sw + pl.
    bool isMax = op.getKind() == PoolKind::Max;
    bool overlap = KH > sh || KW > sw;
    bool narrow = elt.getIntOrFloatBitWidth() == 16;
    // 16-bit max backward with the stored argmax: 2-wide gather strips and
    // one window per argmax thread (fewer live registers, more resident
    // threads).
    bool narrowStoredMax = isMax && narrow && overlap &&
                           argmax != ArgmaxMode::Recompute;
    int64_t stripReq = strip ? strip : (narrowStoredMax ? 2 : 4);
    int64_t TM = sw * llvm::divideCeil(std::min<int64_t>(stripReq, IW), sw);
    // A strip is a multiple of the stride, unrolled: wider ones only make
    // the compile time grow with the stride.
    if (TM > kMaxColumns)
      return rewriter.notifyMatchFailure(op, "stride wider than 64 columns");
    int64_t d0 = llvm::divideCeilSigned(pl - KW + 1, sw);
    int64_t NW = 0;
    while ((d0 + NW) * sw - pl <= TM - 1)
      ++NW;
    int64_t IWc = llvm::divideCeil(IW, TM), CV = C / vw;
    int64_t total = N * IH * IWc * CV;
    if (gridTooLarge(total, kBlockSize))
      return rewriter.notifyMatchFailure(op, "grid too large");
    bool includePad = op.getCountIncludePad();
    Type acc = op.getAccType();
    Location loc = op.getLoc();
    // Stride-1 average backward: row tiles (a box sum), unless disabled.
    if (!isMax && sh == 1 && sw == 1 && vw > 1 && rowTile != 1) {
      if (auto tile = forwardRowTile(rowTile, accRegs, IH, IW, KH, KW, 1, 1,
                                     vw, acc)) {
        int64_t rowsTotal = N * llvm::divideCeil(IH, tile->th) *
                            llvm::divideCeil(IW, tile->tm) * CV;
        if (!gridTooLarge(rowsTotal, kBlockSize)) {
          emitAvgRows(rewriter, op, *tile);
          return success();
        }
      }
    }
    // X columns scanned for the argmax of the strip's windows, relative to
    // iw0: [qLo, qHi].
    int64_t qLo = d0 * sw - pl, qHi = (d0 + NW - 1) * sw - pl + KW - 1;

    // For the NW windows (oh, iw0/sw + d0 + j) of a strip: the tap
    // kh*KW + kw of the first maximum (row-major) over the window's taps
    // inside the input, as vector<vw x i32>. The window rows
    // are scanned in order, each X column of the windows' union loaded
    // once per row and offered to every window holding it, in kw order.
    auto argmaxTaps = [&](OpBuilder &rb, Value n, Value oh, Value iw0,
                          Value c) -> SmallVector<Value> {
      Emitter r{rb, loc, vw};
      Value top = r.add(r.mul(oh, sh), -pt);
      SmallVector<Value> inits(NW, r.negInf(elt));
      for (int64_t j = 0; j < NW; ++j)
        inits.push_back(
            r.firstTap(top, r.add(iw0, (d0 + j) * sw - pl), KW));
      auto state = loop(
          rb, loc, KH, KH <= kMaxUnroll, inits,
          [&](OpBuilder &xb, Value kr, std::optional<int64_t> ckr,
              ValueRange st) -> SmallVector<Value> {
            Emitter ex{xb, loc, vw};
            int64_t rLo = ckr ? *ckr : 0, rHi = ckr ? *ckr : KH - 1;
            Value xr = ex.add(top, kr);
            Value rowOk = ex.inBounds(xr, rLo - pt, (OH - 1) * sh - pt + rHi, IH);
            Value xrc = ex.clampIf(rowOk, xr, IH);
            SmallVector<Value> mv(st.begin(), st.begin() + NW),
                mt(st.begin() + NW, st.end());
            Value tapRow = ex.broadcast(arith::IndexCastOp::create(
                xb, loc, xb.getI32Type(), ex.mul(kr, KW)));
            for (int64_t q = qLo; q <= qHi; ++q) {
              if (!inSomeWindow(q, qLo, NW, sw, KW))
                continue;
              Value iw = ex.add(iw0, q);
              Value colOk = ex.inBounds(iw, q, (IWc - 1) * TM + q, IW);
              Value ok = ex.andi(rowOk, colOk);
              Value v = ex.maskOutside(
                  ex.load(x, {n, xrc, ex.clampIf(colOk, iw, IW), c}), ok);
              for (int64_t j = 0; j < NW; ++j) {
                int64_t kw = q - ((d0 + j) * sw - pl);
                if (kw < 0 || kw >= KW)
                  continue;
                ex.offerArgmax(mv[j], mt[j], v, tapRow, kw);
              }
            }
            SmallVector<Value> next(mv);
            next.append(mt);
            return next;
          });
      return SmallVector<Value>(state.begin() + NW, state.end());
    };

    // Stored argmax: when windows overlap, every window's argmax would be
    // recomputed by each dX strip it covers (3x3 stride 2: ~4.5 times, 9
    // loads each), so a first kernel computes it once per window (forward
    // strip, width-first) into an i8 workspace of tap indices and the
    // gather reads those instead of X.
    // Non-overlapping windows (2x2 stride 2) recompute: X is then read once
    // either way and no workspace is needed.
    int64_t TA = argmaxStrip ? std::min(argmaxStrip, OW)
                 : narrowStoredMax ? 1
                                   : forwardStrip(OW, sw);
    int64_t colsA = (TA - 1) * sw + KW;
    bool stored = isMax && KH * KW <= 127 && colsA <= kMaxColumns &&
                  (argmax == ArgmaxMode::Stored ||
                   (argmax == ArgmaxMode::Auto && overlap));
    // Strided windows: stride-aligned gather tiles (avg, and max with the
    // stored argmax), unless disabled (backward-row-tile=1).
    std::optional<RowTile> tile;
    if ((sh > 1 || sw > 1) && vw > 1 && backwardRows != 1 &&
        (!isMax || stored ||
         (argmax == ArgmaxMode::Recompute && overlap))) {
      int64_t th = sh * std::max<int64_t>(
                            1, llvm::divideCeil(backwardRows ? backwardRows
                                                             : sh, sh));
      int64_t nr = llvm::divideCeil(th + KH - 1, sh) + 1;
      int64_t nw = llvm::divideCeil(TM + KW - 1, sw) + 1;
      int64_t tiles = N * llvm::divideCeil(IH, th) * IWc * CV;
      if (nr * nw <= kMaxTileWindows && th * TM <= kMaxTilePositions &&
          !gridTooLarge(tiles, kBlockSize))
        tile = RowTile{th, TM};
    }
    bool packed = stored && packedArgmax && narrow && vw % 2 == 0;
    Value taps;
    if (stored) {
      int64_t OWa = llvm::divideCeil(OW, TA);
      int64_t totalA = N * OH * OWa * CV;
      if (gridTooLarge(totalA, kBlockSize))
        return rewriter.notifyMatchFailure(op, "grid too large");
      rewriter.setInsertionPoint(op);
      taps = memref::AllocOp::create(
          rewriter, loc,
          MemRefType::get({N, OH, OW, C}, rewriter.getIntegerType(8)));
      emitLaunch(
          rewriter, op, totalA,
          [&](OpBuilder &b, Value gid) {
            Emitter e{b, loc, vw};
            auto co = e.delinearize(gid, {N, OH, OWa, CV});
            Value n = co[0], oh = co[1], ow0 = e.mul(co[2], TA),
                  c = e.mul(co[3], vw);
            Value top = e.add(e.mul(oh, sh), -pt);
            Value wbase = e.add(e.mul(ow0, sw), -pl);
            if (packed) {
              emitPackedArgmax(b, e, op, n, oh, ow0, c, top, wbase, TA,
                               colsA, OWa, taps);
              return;
            }
            SmallVector<Value> inits(TA, e.negInf(elt));
            for (int64_t i = 0; i < TA; ++i)
              inits.push_back(e.firstTap(top, e.add(wbase, i * sw), KW));
            auto state = loop(
                b, loc, KH, KH <= kMaxUnroll, inits,
                [&](OpBuilder &xb, Value kh, std::optional<int64_t> ckh,
                    ValueRange st) -> SmallVector<Value> {
                  Emitter ex{xb, loc, vw};
                  int64_t rLo = ckh ? *ckh : 0, rHi = ckh ? *ckh : KH - 1;
                  Value ih = ex.add(top, kh);
                  Value rowOk =
                      ex.inBounds(ih, rLo - pt, (OH - 1) * sh - pt + rHi, IH);
                  Value ihc = ex.clampIf(rowOk, ih, IH);
                  SmallVector<Value> mv(st.begin(), st.begin() + TA),
                      mt(st.begin() + TA, st.end());
                  Value tapRow = ex.broadcast(arith::IndexCastOp::create(
                      xb, loc, xb.getI32Type(), ex.mul(kh, KW)));
                  for (int64_t q = 0; q < colsA; ++q) {
            if (!inSomeWindow(q, 0, TA, sw, KW))
              continue;
                    if (!inSomeWindow(q, 0, TA, sw, KW))
                      continue;
                    Value iw = ex.add(wbase, q);
                    Value colOk =
                        ex.inBounds(iw, q - pl, (OWa - 1) * TA * sw - pl + q, IW);
                    Value ok = ex.andi(rowOk, colOk);
                    Value v = ex.maskOutside(
                        ex.load(x, {n, ihc, ex.clampIf(colOk, iw, IW), c}),
                        ok);
                    for (int64_t i = 0; i < TA; ++i) {
                      int64_t kw = q - i * sw;
                      if (kw < 0 || kw >= KW)
                        continue;
                      ex.offerArgmax(mv[i], mt[i], v, tapRow, kw);
                    }
                  }
                  SmallVector<Value> next(mv);
                  next.append(mt);
                  return next;
                });
            for (int64_t i = 0; i < TA; ++i) {
              Value t8 = arith::TruncIOp::create(
                  b, loc, e.vecOf(b.getIntegerType(8)), state[TA + i]);
              Value ow = e.add(ow0, i);
              Value ok;
              if ((OWa - 1) * TA + i >= OW)
                ok = e.cmp(arith::CmpIPredicate::slt, ow, e.cst(OW));
              guarded(b, loc, ok, [&](OpBuilder &sb) {
                Emitter{sb, loc, vw}.store(t8, taps, {n, oh, ow, c});
              });
            }
          },
          /*eraseOp=*/false);
    }

    if (tile) {
      emitGatherTiles(rewriter, op, taps, argmaxTaps, tile->th, tile->tm);
    } else {
    emitLaunch(rewriter, op, total, [&](OpBuilder &b, Value gid) {
      Emitter e{b, loc, vw};
      auto co = e.delinearize(gid, {N, IH, IWc, CV});
      Value n = co[0], ih = co[1], iwc = co[2], c = e.mul(co[3], vw);
      Value iw0 = e.mul(iwc, TM);
      Value owBase = e.add(e.mul(iwc, TM / sw), d0);
      Value zero = e.splatF(acc, 0.0);
      SmallVector<Value> inits(TM, zero);
      // Windows whose row range holds ih: oh*sh = ih + pt - kh.
      auto res = loop(
          b, loc, KH, KH <= kMaxUnroll, inits,
          [&](OpBuilder &bh, Value kh, std::optional<int64_t> ckh,
              ValueRange accs) -> SmallVector<Value> {
            Emitter eh{bh, loc, vw};
            int64_t khLo = ckh ? *ckh : 0, khHi = ckh ? *ckh : KH - 1;
            Value ohNum = eh.sub(eh.add(ih, pt), kh);
            Value cond;
            if (pt - khHi < 0)
              cond = eh.cmp(arith::CmpIPredicate::sge, ohNum, eh.cst(0));
            if ((IH - 1) + pt - khLo > (OH - 1) * sh)
              cond = eh.andi(cond, eh.cmp(arith::CmpIPredicate::sle, ohNum,
                                          eh.cst((OH - 1) * sh)));
            if (sh > 1) {
              // (ih + pt - kh) % sh == 0, on a non-negative operand.
              Value r = eh.rem(eh.add(ohNum, sh * KH), sh);
              cond = eh.andi(cond, eh.cmp(arith::CmpIPredicate::eq, r,
                                          eh.cst(0)));
            }
            return ifThen(bh, loc, cond, accs, [&](OpBuilder &rb) {
              Emitter r{rb, loc, vw};
              Value oh = r.div(ohNum, sh);
              SmallVector<Value> a(accs);
              // Validity and clamped index of window j.
              SmallVector<Value> wOk(NW), owIdx(NW);
              for (int64_t j = 0; j < NW; ++j) {
                Value ow = r.add(owBase, j);
                wOk[j] = r.inBounds(ow, d0 + j,
                                    (IWc - 1) * (TM / sw) + d0 + j, OW);
                owIdx[j] = r.clampIf(wOk[j], ow, OW);
              }
              SmallVector<Value> wtaps;
              if (isMax && stored) {
                for (int64_t j = 0; j < NW; ++j)
                  wtaps.push_back(arith::ExtSIOp::create(
                      rb, loc, r.vecOf(rb.getI32Type()),
                      r.load(taps, {n, oh, owIdx[j], c})));
              } else if (isMax) {
                wtaps = argmaxTaps(rb, n, oh, iw0, c);
              }
              Value rows;
              if (!isMax)
                rows = r.extent(r.add(r.mul(oh, sh), -pt), KH, IH, pt, pb,
                                includePad);
              for (int64_t j = 0; j < NW; ++j) {
                Value g = r.convert(r.load(dy, {n, oh, owIdx[j], c}), acc);
                if (!isMax) {
                  Value ws = r.add(r.mul(owIdx[j], sw), -pl);
                  Value cnt = rb.createOrFold<arith::MulIOp>(
                      loc, rows, r.extent(ws, KW, IW, pl, pr, includePad));
                  g = r.divideByCount(g, cnt, acc);
                }
                g = r.select(wOk[j], g, zero);
                Value tapBase;
                if (isMax)
                  tapBase = r.broadcast(arith::IndexCastOp::create(
                      rb, loc, rb.getI32Type(), r.mul(kh, KW)));
                for (int64_t i = 0; i < TM; ++i) {
                  int64_t kw = i - (d0 + j) * sw + pl;
                  if (kw < 0 || kw >= KW)
                    continue;
                  Value contrib = g;
                  if (isMax) {
                    Value want = arith::AddIOp::create(rb, loc, tapBase,
                                                       r.splatI32(kw));
                    Value hit = arith::CmpIOp::create(
                        rb, loc, arith::CmpIPredicate::eq, wtaps[j], want);
                    contrib = arith::SelectOp::create(rb, loc, hit, g, zero);
                  }
                  a[i] = arith::AddFOp::create(rb, loc, a[i], contrib);
                }
              }
              return a;
            });
          });
      for (int64_t i = 0; i < TM; ++i) {
        Value iw = e.add(iw0, i);
        Value val = e.convert(res[i], elemOf(dx));
        Value ok;
        if ((IWc - 1) * TM + i >= IW)
          ok = e.cmp(arith::CmpIPredicate::slt, iw, e.cst(IW));
        guarded(b, loc, ok, [&](OpBuilder &sb) {
          Emitter es{sb, loc, vw};
          es.store(val, dx, {n, ih, iw, c});
        });
      }
    }, /*eraseOp=*/false);
    }
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

/// Most filter taps the fused convolution + pooling kernel computes per
/// convolution output (its recomputation of overlapping windows grows with
/// the filter; beyond this the GEMV convolution and the pooling kernel are
/// faster apart).
constexpr int64_t kMaxFusedTaps = 49;
/// The same for 16-bit data, whose unfused GEMV convolution is faster from
/// 5x5 on.
constexpr int64_t kMaxFusedTaps16 = 9;
/// f32 lanes the fused kernel may keep live (conv columns + a filter row).
constexpr int64_t kFusedAccLanes = 96;

/// Depthwise convolution with a pooling epilogue in one kernel: a thread
/// owns a strip of TM pooled outputs x V channels of one pooled row. For
/// each pooling window row (a convolution row inside [0, OH)), the strip's
/// (TM-1)*sw + KW convolution columns are computed in registers: per filter
/// row, the input columns they need are loaded once each (width-first) and
/// each feeds the FW convolution columns holding it; bias added, the value
/// rounded to the element type (the unfused op's rounding), then folded
/// into every pooled output whose window holds the column (columns outside
/// [0, OW) are the pooling padding: skipped). The convolution output never
/// goes to memory. Stride-1 undilated convolutions only.
struct ConvPoolForward : OpRewritePattern<DepthwiseConv2DPool2DOp> {
  ConvPoolForward(MLIRContext *ctx) : OpRewritePattern(ctx, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(DepthwiseConv2DPool2DOp op,
                                PatternRewriter &rewriter) const override {
    if (hasOtherKernel(op, ""))
      return rewriter.notifyMatchFailure(op, "dwc.kernel names another kernel");
    std::string why = formProblem(op);
    if (!why.empty())
      return rewriter.notifyMatchFailure(op, why);
    Value x = op.getInput(), w = op.getFilter(), bias = op.getBias(),
          y = op.getInit();
    Type elt = elemOf(x);
    auto in = shapeOf(x), f = shapeOf(w), out = shapeOf(y);
    int64_t N = in[0], IH = in[1], IW = in[2], C = in[3];
    int64_t FH = f[0], FW = f[1];
    auto conv = op.getConvShape();
    int64_t OH = conv[1], OW = conv[2], PH = out[1], PW = out[2];
    auto cs = op.getStrides(), cd = op.getDilations(), cp = op.getPadding();
    if (cs[0] != 1 || cs[1] != 1 || cd[0] != 1 || cd[1] != 1)
      return rewriter.notifyMatchFailure(op, "strided or dilated convolution");
    bool narrow = elt.getIntOrFloatBitWidth() == 16;
    if (FH * FW > (narrow ? kMaxFusedTaps16 : kMaxFusedTaps))
      return rewriter.notifyMatchFailure(
          op, narrow ? "16-bit filter larger than 9 taps"
                     : "filter larger than 49 taps");
    int64_t vw = vectorWidth(elt, C);
    if (vw == 1)
      return rewriter.notifyMatchFailure(
          op, "channels not a multiple of the vector width");
    int64_t cpt = cp[0], cpl = cp[2];
    auto k = op.getWindow(), s = op.getPoolStrides(), p = op.getPoolPadding();
    int64_t KH = k[0], KW = k[1], sh = s[0], sw = s[1];
    int64_t pt = p[0], pl = p[2];
    // Live f32 lanes: the strip's conv columns and one filter row; TM from
    // the pooling strip down to 1 until they fit kFusedAccLanes (wider
    // strips spill).
    int64_t TM = forwardStrip(PW, sw);
    auto lanes = [&] { return ((TM - 1) * sw + KW + FW) * vw; };
    while (TM > 1 && lanes() > kFusedAccLanes)
      TM /= 2;
    int64_t cols = (TM - 1) * sw + KW;
    if (cols + FW - 1 > kMaxColumns)
      return rewriter.notifyMatchFailure(op, "window too wide for the register strip");
    int64_t PWc = llvm::divideCeil(PW, TM), CV = C / vw;
    int64_t total = N * PH * PWc * CV;
    if (gridTooLarge(total, kBlockSize))
      return rewriter.notifyMatchFailure(op, "grid too large");
    bool isMax = op.getKind() == PoolKind::Max;
    bool includePad = op.getCountIncludePad();
    Type acc = op.getAccType();
    Type pty = isMax ? elt : acc; // pooling in the element type for max
    Location loc = op.getLoc();

    emitLaunch(rewriter, op, total, [&](OpBuilder &b, Value gid) {
      Emitter e{b, loc, vw};
      auto co = e.delinearize(gid, {N, PH, PWc, CV});
      Value n = co[0], ph = co[1], pw0 = e.mul(co[2], TM),
            c = e.mul(co[3], vw);
      Value hs = e.add(e.mul(ph, sh), -pt);
      Value wbase = e.add(e.mul(pw0, sw), -pl); // first conv column
      Value neutral = isMax ? e.negInf(pty) : e.splatF(pty, 0.0);
      Value zero = e.splatF(acc, 0.0);
      Value biasV = bias ? e.convert(e.load(bias, {c}), acc) : zero;
      // Convolution columns of the strip: validity (inside [0, OW)).
      SmallVector<Value> colOk(cols);
      for (int64_t q = 0; q < cols; ++q)
        colOk[q] = e.inBounds(e.add(wbase, q), q - pl,
                              (PWc - 1) * TM * sw - pl + q, OW);
      SmallVector<Value> inits(TM, neutral);
      auto res = loop(
          b, loc, KH, KH <= kMaxUnroll, inits,
          [&](OpBuilder &bh, Value kh, std::optional<int64_t> ckh,
              ValueRange accs) -> SmallVector<Value> {
            Emitter eh{bh, loc, vw};
            int64_t khLo = ckh ? *ckh : 0, khHi = ckh ? *ckh : KH - 1;
            Value r = eh.add(hs, kh); // convolution row
            Value rowOk =
                eh.inBounds(r, khLo - pt, (PH - 1) * sh + khHi - pt, OH);
            return ifThen(bh, loc, rowOk, accs, [&](OpBuilder &rb) {
              Emitter ec{rb, loc, vw};
              SmallVector<Value> convAcc(cols, biasV);
              Value ir0 = ec.add(r, -cpt);
              Value ic0 = ec.add(wbase, -cpl);
              for (int64_t fh = 0; fh < FH; ++fh) {
                Value ir = ec.add(ir0, fh);
                // Input rows outside [0, IH) are the zero padding.
                Value irOk = ec.inBounds(ir, khLo - pt - cpt + fh,
                                         (PH - 1) * sh + khHi - pt - cpt + fh,
                                         IH);
                Value irc = ec.clampIf(irOk, ir, IH);
                SmallVector<Value> taps(FW);
                for (int64_t fw = 0; fw < FW; ++fw)
                  taps[fw] = ec.convert(ec.load(w, {ec.cst(fh), ec.cst(fw), c}),
                                        acc);
                for (int64_t j = 0; j < cols + FW - 1; ++j) {
                  Value ic = ec.add(ic0, j);
                  int64_t lo = j - pl - cpl;
                  Value ok = ec.andi(
                      irOk, ec.inBounds(ic, lo, (PWc - 1) * TM * sw + lo, IW));
                  Value v = ec.convert(
                      ec.load(x, {n, irc, ec.clampIf(ok, ic, IW), c}), acc);
                  v = ec.select(ok, v, zero);
                  // Input column j feeds conv column q = j - fw.
                  for (int64_t fw = 0; fw < FW; ++fw) {
                    int64_t q = j - fw;
                    if (q < 0 || q >= cols)
                      continue;
                    convAcc[q] = vector::FMAOp::create(rb, loc, v, taps[fw],
                                                     convAcc[q]);
                  }
                }
              }
              SmallVector<Value> a(accs);
              for (int64_t q = 0; q < cols; ++q) {
                // The unfused convolution's rounding to the element type.
                Value cv = ec.convert(ec.convert(convAcc[q], elt), pty);
                cv = ec.select(colOk[q], cv, neutral);
                foldColumn(rb, loc, a, cv, q, sw, KW, isMax);
              }
              return a;
            });
          });
      // The pooling input is the convolution's OH x OW output.
      PooledStripStore{isMax, includePad, acc, op.getActivation(), KH, KW,
                       sw, OH, OW, PW, (PWc - 1) * TM, p}
          .emit(e, res, y, n, ph, pw0, c, hs, wbase);
    });
    return success();
  }
};

//===----------------------------------------------------------------------===//
// global_avg_pool
//===----------------------------------------------------------------------===//

/// One block per (n, tile of CT channel vectors); its R = 256 / CT thread
/// rows take every R-th position of H*W, the R partial sums meet in
/// workgroup memory and the first row adds them in order and divides.
struct GlobalAvgPool : OpRewritePattern<GlobalAvgPoolOp> {
  GlobalAvgPool(MLIRContext *ctx) : OpRewritePattern(ctx, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(GlobalAvgPoolOp op,
                                PatternRewriter &rewriter) const override {
    if (hasOtherKernel(op, ""))
      return rewriter.notifyMatchFailure(op, "dwc.kernel names another kernel");
    std::string why = formProblem(op);
    if (!why.empty())
      return rewriter.notifyMatchFailure(op, why);
    Value x = op.getInput(), y = op.getInit();
    Type elt = elemOf(x);
    auto in = shapeOf(x);
    int64_t N = in[0], H = in[1], W = in[2], C = in[3];
    int64_t vw = vectorWidth(elt, C);
    if (vw == 1)
      return rewriter.notifyMatchFailure(op, "channels not a multiple of 128 bits");
    int64_t CV = C / vw;
    int64_t CT = std::min(CV, kGapTileVectors);
    int64_t R = kGapThreads / CT;
    int64_t tiles = llvm::divideCeil(CV, CT);
    if (N * tiles > std::numeric_limits<int32_t>::max())
      return rewriter.notifyMatchFailure(op, "grid too large");
    Type acc = op.getAccType();
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto wgSpace = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    auto partialType =
        MemRefType::get({R, CT, vw}, acc, MemRefLayoutAttrInterface(), wgSpace);
    auto [launch, b] =
        createLaunch(rewriter, op, N * tiles, CT * R, TypeRange{partialType});
    Value partial = launch.getWorkgroupAttributions()[0];
    Emitter e{b, loc, vw};
    Value bid = launch.getBlockIds().x, tid = launch.getThreadIds().x;
    Value n = e.div(bid, tiles);
    Value cvl = e.rem(tid, CT), row = e.div(tid, CT);
    Value cv = e.add(e.mul(e.rem(bid, tiles), CT), cvl);
    Value active;
    if (CV % CT != 0)
      active = e.cmp(arith::CmpIPredicate::ult, cv, e.cst(CV));
    Value c = e.mul(e.clampIf(active, cv, CV), vw);
    // x viewed as N x (H*W) x C.
    Value flat = memref::CollapseShapeOp::create(
        b, loc, x, SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}});
    Value zero = e.splatF(acc, 0.0);
    auto sum = ifThen(b, loc, active, zero, [&](OpBuilder &ab) {
      auto forOp = scf::ForOp::create(
          ab, loc, row, Emitter{ab, loc, vw}.cst(H * W),
          Emitter{ab, loc, vw}.cst(R), ValueRange{zero},
          [&](OpBuilder &fb, Location, Value pos, ValueRange a) {
            Emitter f{fb, loc, vw};
            Value v = f.convert(f.load(flat, {n, pos, c}), acc);
            scf::YieldOp::create(
                fb, loc, ValueRange{arith::AddFOp::create(fb, loc, a[0], v)});
          });
      return SmallVector<Value>(forOp.getResults());
    });
    Value c0 = e.cst(0);
    vector::StoreOp::create(b, loc, sum[0], partial, ValueRange{row, cvl, c0});
    gpu::BarrierOp::create(b, loc);
    Value first = e.cmp(arith::CmpIPredicate::eq, row, c0);
    guarded(b, loc, e.andi(first, active), [&](OpBuilder &sb) {
      Emitter s{sb, loc, vw};
      Value t = zero;
      for (int64_t q = 0; q < R; ++q)
        t = arith::AddFOp::create(
            sb, loc, t,
            vector::LoadOp::create(sb, loc, s.vecOf(acc), partial,
                                   ValueRange{s.cst(q), cvl, s.cst(0)}));
      t = arith::DivFOp::create(sb, loc, t, s.splatF(acc, double(H * W)));
      s.store(s.convert(t, elemOf(y)), y, {n, s.cst(0), s.cst(0), c});
    });
    rewriter.eraseOp(op);
    return success();
  }
};

struct ConvertDwcToGPUPoolPass
    : dwc::impl::ConvertDwcToGPUPoolBase<ConvertDwcToGPUPoolPass> {
  using ConvertDwcToGPUPoolBase::ConvertDwcToGPUPoolBase;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    if (vectorBits != 32 && vectorBits != 64 && vectorBits != 128) {
      getOperation()->emitError()
          << "convert-dwc-to-gpu-pool: vector-bits must be 32, 64 or 128";
      return signalPassFailure();
    }
    patterns.add<Pool2DForward>(&getContext(), rowTile.getValue(),
                                tileAccRegs.getValue(), vectorBits.getValue());
    std::optional<ArgmaxMode> mode = parseArgmaxMode(maxBackwardArgmax);
    if (!mode) {
      getOperation()->emitError()
          << "convert-dwc-to-gpu-pool: max-backward-argmax must be auto, "
             "recompute or stored, not '"
          << maxBackwardArgmax << "'";
      return signalPassFailure();
    }
    if (argmaxStrip < 0 || argmaxStrip > 8) {
      getOperation()->emitError()
          << "convert-dwc-to-gpu-pool: argmax-strip must be in [0, 8]";
      return signalPassFailure();
    }
    if (backwardRowTile < 0 || backwardRowTile > 8) {
      getOperation()->emitError()
          << "convert-dwc-to-gpu-pool: backward-row-tile must be in [0, 8]";
      return signalPassFailure();
    }
    if (backwardStrip < 0 || backwardStrip > 16) {
      getOperation()->emitError()
          << "convert-dwc-to-gpu-pool: backward-strip must be in [0, 16]";
      return signalPassFailure();
    }
    patterns.add<Pool2DBackward>(&getContext(), *mode, rowTile.getValue(),
                                 tileAccRegs.getValue(),
                                 backwardStrip.getValue(),
                                 backwardRowTile.getValue(),
                                 argmaxStrip.getValue(),
                                 packedArgmax.getValue());
    patterns.add<GlobalAvgPool>(&getContext());
    if (fuseConv)
      patterns.add<ConvPoolForward>(&getContext());
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
