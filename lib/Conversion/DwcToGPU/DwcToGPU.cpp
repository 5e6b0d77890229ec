//===- DwcToGPU.cpp - dwc ops to direct GPU kernels -----------------------===//
//
// The correctness baseline of the GPU path. Every dwc op in memref form
// becomes one `gpu.launch` (outlined later by gpu-kernel-outlining) that
// computes the op's documented semantics directly:
//
// * 1-D launch, 256 threads per block, a bounds check on the global thread
//   id; each thread owns one output element-vector, threads are laid out
//   NHWC-coalesced (consecutive threads on consecutive channel vectors);
// * V = 128 bits of channels per thread (2 x f64, 4 x f32, 8 x f16/bf16) when the
//   channel count is a multiple of V and the vectorised buffers have the
//   identity layout, otherwise V = 1 (scalar loads); V = 1 also for a
//   depthwise channel multiplier M > 1 (output channel c reads input
//   channel c / M: consecutive outputs share inputs);
// * zero padding by predication: the window coordinates are compared with
//   the input bounds and the load sits in an scf.if (no out-of-bounds read);
// * sums in the op's accumulation type (f32 unless `acc` says f64; f64 for
//   f64 depthwise convolutions), one rounding to the element type at the end.
//
// The buffers are read through their base pointers: the vector path assumes
// they are 16-byte aligned (any cudaMalloc'ed / gpu.alloc'ed buffer is).
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/KernelPass.h"
#include "dwc/Conversion/KernelSelection.h"
#include "dwc/Conversion/Passes.h"
#include "dwc/Conversion/LaunchBuilder.h"
#include "dwc/Conversion/FusedEdges.h"
#include "dwc/Conversion/IndexEmitter.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/APFloat.h"
#include <limits>
#include <optional>

namespace mlir::dwc {
#define GEN_PASS_DEF_CONVERTDWCTOGPU
#include "dwc/Conversion/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;
using namespace mlir::dwc;

namespace {

/// Threads per block of every baseline kernel.
constexpr int64_t kBlockSize = 256;
/// Loops with at most this many iterations are unrolled at compile time.
constexpr int64_t kMaxUnroll = 7;
/// A 2-D window is unrolled completely only while it holds at most this many
/// widened (f32) elements per thread, FH * FW * V: beyond, the loads of the
/// whole window are scheduled ahead of the FMAs and the kernel spills (a 7x7
/// window is unrolled for f32, V = 4, but not for f16, V = 8).
constexpr int64_t kMaxUnrolledWindowElems = 196;

/// Whether to unroll the width loop and the height loop of a window.
std::pair<bool, bool> windowUnroll(int64_t fh, int64_t fw, int64_t vw) {
  bool unrollW = fw <= kMaxUnroll;
  bool unrollH =
      unrollW && fh <= kMaxUnroll && fh * fw * vw <= kMaxUnrolledWindowElems;
  return {unrollW, unrollH};
}

ArrayRef<int64_t> shapeOf(Value v) {
  return cast<MemRefType>(v.getType()).getShape();
}
Type elemOf(Value v) { return cast<MemRefType>(v.getType()).getElementType(); }

/// Elements per thread along the innermost (channel) dimension: 128 bits when
/// `extent` allows it and every buffer in `vectorised` has the identity
/// layout, else 1.
int64_t pickVectorWidth(Type elem, int64_t extent, ArrayRef<Value> vectorised) {
  int64_t v = 128 / elem.getIntOrFloatBitWidth();
  if (extent % v != 0)
    return 1;
  for (Value buf : vectorised)
    if (buf && !cast<MemRefType>(buf.getType()).getLayout().isIdentity())
      return 1;
  return v;
}

/// Builds the body of one kernel. Values of "vector kind" are always
/// `vector<vw x T>` (also for vw = 1, where loads/stores are scalar).
struct KernelEmitter : ChannelVectorEmitter {
  Type acc;
  KernelEmitter(OpBuilder &b, Location loc, int64_t vw, Type acc)
      : ChannelVectorEmitter(b, loc, vw), acc(acc) {}

  Value splat(Type elem, const APFloat &value) {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vecOf(elem), b.getFloatAttr(elem, value)));
  }
  Value splat(Type elem, double value) {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vecOf(elem), b.getFloatAttr(elem, value)));
  }
  Value zero(Type elem) { return splat(elem, 0.0); }
  /// Like `load`, but yields zeros where `ok` is false (no memory access).
  Value predLoad(Value ok, Value mem, ValueRange idx) {
    if (!ok)
      return load(mem, idx);
    SmallVector<Value> indices(idx);
    auto ifOp = scf::IfOp::create(
        b, loc, ok,
        [&](OpBuilder &nb, Location l) {
          KernelEmitter e{nb, l, vw, acc};
          scf::YieldOp::create(nb, l, e.load(mem, indices));
        },
        [&](OpBuilder &nb, Location l) {
          KernelEmitter e{nb, l, vw, acc};
          scf::YieldOp::create(nb, l, e.zero(elemOf(mem)));
        });
    return ifOp.getResult(0);
  }
  Value toAcc(Value v) { return convert(v, acc); }
  Value fma(Value x, Value y, Value z) {
    return vector::FMAOp::create(b, loc, x, y, z);
  }
};

using LoopBody = function_ref<SmallVector<Value>(
    OpBuilder &, Location, Value iv, std::optional<int64_t> constIv,
    ValueRange iterArgs)>;

/// Emits `for iv in [0, n)` carrying `inits`; unrolled at compile time when
/// `unroll` (then the body also gets the constant value of `iv`). With
/// `keepRolled`, the scf.for carries an annotation that stops LLVM from
/// unrolling it (the outer loop of a window: unrolled, all the window's loads
/// are hoisted ahead of the FMAs and the kernel spills).
SmallVector<Value> emitLoop(OpBuilder &b, Location loc, int64_t n, bool unroll,
                            ValueRange inits, LoopBody body,
                            bool keepRolled = false) {
  if (unroll) {
    SmallVector<Value> cur(inits);
    for (int64_t i = 0; i < n; ++i)
      cur = body(b, loc, arith::ConstantIndexOp::create(b, loc, i), i, cur);
    return cur;
  }
  Value lb = arith::ConstantIndexOp::create(b, loc, 0);
  Value ub = arith::ConstantIndexOp::create(b, loc, n);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto forOp = scf::ForOp::create(
      b, loc, lb, ub, one, inits,
      [&](OpBuilder &nb, Location l, Value iv, ValueRange args) {
        scf::YieldOp::create(nb, l, body(nb, l, iv, std::nullopt, args));
      });
  if (keepRolled) {
    MLIRContext *ctx = b.getContext();
    auto noUnroll = LLVM::LoopUnrollAttr::get(
        ctx, /*disable=*/b.getBoolAttr(true), {}, {}, {}, {}, {}, {});
    auto annotation = LLVM::LoopAnnotationAttr::get(
        ctx, {}, {}, {}, noUnroll, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {});
    forOp->setAttr("llvm.loop_annotation", annotation);
  }
  return SmallVector<Value>(forOp.getResults());
}

/// Static range [lo, hi] of a loop variable.
std::pair<int64_t, int64_t> ivRange(std::optional<int64_t> c, int64_t n) {
  return c ? std::make_pair(*c, *c) : std::make_pair<int64_t, int64_t>(0, n - 1);
}

/// Per-row work of a window loop: the emitter of the row's body, the row
/// variable and its static range [lo, hi].
using WindowRow =
    function_ref<void(KernelEmitter &, Value r, int64_t lo, int64_t hi)>;
/// One tap of a window loop: the column variable, its static range and the
/// carried values; returns the new carried values.
using WindowTap = function_ref<SmallVector<Value>(
    KernelEmitter &, Value c, int64_t lo, int64_t hi, ValueRange carried)>;

/// The two loops over a `rows` x `cols` window (rows outside), carrying
/// `init`: `row` runs once per row before the row's taps, `tap` once per
/// window position. `keepRowsRolled` as in emitLoop.
SmallVector<Value> emitWindow(KernelEmitter &e, int64_t rows, int64_t cols,
                              bool unrollRows, bool unrollCols,
                              ValueRange init, WindowRow row, WindowTap tap,
                              bool keepRowsRolled) {
  int64_t vw = e.vw;
  Type acc = e.acc;
  return emitLoop(
      e.b, e.loc, rows, unrollRows, init,
      [&](OpBuilder &bh, Location l, Value r, std::optional<int64_t> cr,
          ValueRange a) -> SmallVector<Value> {
        KernelEmitter eh{bh, l, vw, acc};
        auto [rLo, rHi] = ivRange(cr, rows);
        row(eh, r, rLo, rHi);
        return emitLoop(
            bh, l, cols, unrollCols, a,
            [&](OpBuilder &bw, Location l2, Value c,
                std::optional<int64_t> cc,
                ValueRange a2) -> SmallVector<Value> {
              KernelEmitter ew{bw, l2, vw, acc};
              auto [cLo, cHi] = ivRange(cc, cols);
              return tap(ew, c, cLo, cHi, a2);
            });
      },
      keepRowsRolled);
}

/// Replaces `op` with a 1-D gpu.launch of `total` threads; `body` receives
/// the global thread id (only called for ids below `total`).
void emitLaunch(RewriterBase &rewriter, Operation *op, int64_t total,
                function_ref<void(OpBuilder &, Location, Value gid)> body) {
  Location loc = op->getLoc();
  rewriter.setInsertionPoint(op);
  int64_t blocks = (total + kBlockSize - 1) / kBlockSize;
  auto launchAndBuilder = createGridLaunch(rewriter, loc, blocks, 1, kBlockSize);
  gpu::LaunchOp launch = launchAndBuilder.first;
  nameKernel(launch, DirectKernelAttr::getMnemonic());
  OpBuilder &b = launchAndBuilder.second;
  Value bid = launch.getBlockIds().x, tid = launch.getThreadIds().x;
  Value bsz = arith::ConstantIndexOp::create(b, loc, kBlockSize);
  Value gid = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, bid, bsz), tid);
  if (total % kBlockSize == 0) {
    body(b, loc, gid);
  } else {
    Value n = arith::ConstantIndexOp::create(b, loc, total);
    Value inRange =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, gid, n);
    auto ifOp = scf::IfOp::create(b, loc, inRange, /*withElse=*/false);
    OpBuilder tb = ifOp.getThenBodyBuilder();
    body(tb, loc, gid);
  }
  rewriter.eraseOp(op);
}

/// Replaces `op` with a launch of one thread per point of the `dims` grid,
/// whose last dimension counts vectors of `vw` channels; `body` gets the
/// thread's emitter and coordinates, the last one its first channel.
void emitVectorLaunch(
    RewriterBase &rewriter, Operation *op, ArrayRef<int64_t> dims, int64_t vw,
    Type acc,
    function_ref<void(OpBuilder &, Location, KernelEmitter &, ArrayRef<Value>)>
        body) {
  int64_t total = 1;
  for (int64_t d : dims)
    total *= d;
  emitLaunch(rewriter, op, total, [&](OpBuilder &b, Location loc, Value gid) {
    KernelEmitter e{b, loc, vw, acc};
    SmallVector<Value> co = e.delinearize(gid, dims);
    co.back() = e.mul(co.back(), vw);
    body(b, loc, e, co);
  });
}

/// The extents a direct kernel of a windowed op reads: the NHWC side `in`
/// (input or input gradient), the filter window and the output side.
struct WindowExtents {
  int64_t N, IH, IW, C, FH, FW, OH, OW;
};
WindowExtents extentsOf(Value in, Value filter, Value out) {
  auto i = shapeOf(in), f = shapeOf(filter), o = shapeOf(out);
  return {i[0], i[1], i[2], i[3], f[0], f[1], o[1], o[2]};
}

/// Along one dimension of a forward window: the input coordinate of window
/// offset `f` (static range [lo, hi], dilation `dil`) from `base` (the
/// output coordinate times the stride), and `ok` (null: true) and-ed with
/// whether it lies in the input of `size` (padding `pad` before it, `out`
/// outputs of stride `stride`; checks the static range makes true fold).
Value windowInput(KernelEmitter &e, Value base, Value f, int64_t dil,
                  int64_t pad, int64_t lo, int64_t hi, int64_t stride,
                  int64_t out, int64_t size, Value &ok) {
  Value i = e.add(e.add(base, e.mul(f, dil)), -pad);
  ok = e.andi(ok, e.inBounds(i, lo * dil - pad,
                             (out - 1) * stride + hi * dil - pad, size));
  return i;
}

/// The input coordinates of a forward window (depthwise and dense
/// convolution) of the output at (ohBase, owBase) / strides: per window row
/// the filter row, the input row and its check; per tap the input column and
/// the tap's check.
struct ForwardWindow {
  Value ohBase, owBase;
  ArrayRef<int64_t> s, d, p;
  WindowExtents x;
  Value fh, ih, hOk;

  void row(KernelEmitter &eh, Value r, int64_t lo, int64_t hi) {
    fh = r;
    hOk = Value();
    ih = windowInput(eh, ohBase, fh, d[0], p[0], lo, hi, s[0], x.OH, x.IH, hOk);
  }
  /// The input column of tap `fw` and whether the tap reads the input.
  std::pair<Value, Value> column(KernelEmitter &ew, Value fw, int64_t lo,
                                 int64_t hi) {
    Value ok = hOk;
    Value iw =
        windowInput(ew, owBase, fw, d[1], p[2], lo, hi, s[1], x.OW, x.IW, ok);
    return {iw, ok};
  }
};

/// The patterns of this pass: each op becomes its direct kernel unless its
/// dwc.kernel names another family.
template <typename OpTy> struct DirectLowering : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const final {
    if (hasOtherKernel(op, "direct"))
      return rewriter.notifyMatchFailure(op, "dwc.kernel names another kernel");
    emit(op, rewriter);
    return success();
  }
  virtual void emit(OpTy op, PatternRewriter &rewriter) const = 0;
};

//===----------------------------------------------------------------------===//
// Depthwise convolution, forward
//===----------------------------------------------------------------------===//

/// A fused forward's prologue on an input vector in the accumulation type:
/// input_activation(x + input_bias).
Value prologueOf(KernelEmitter &e, DepthwiseConv2DOp op, Value x,
                 Value inBias) {
  if (inBias)
    x = arith::AddFOp::create(e.b, e.loc, x, inBias);
  return DepthwiseFusion::of(op).activate(e.b, e.loc, x,
                                          op.getInputActivation());
}

struct DepthwiseConv2DLowering : DirectLowering<DepthwiseConv2DOp> {
  using DirectLowering::DirectLowering;
  void emit(DepthwiseConv2DOp op, PatternRewriter &rewriter) const override {
    Value x = op.getInput(), w = op.getFilter(), bias = op.getBias(),
          y = op.getInit();
    WindowExtents ext = extentsOf(x, w, y);
    auto [N, IH, IW, C, FH, FW, OH, OW] = ext;
    auto s = op.getStrides(), d = op.getDilations(), p = op.getPadding();
    // With channel_multiplier M > 1 a thread's output channel c reads input
    // channel c / M: consecutive outputs share inputs, so no channel
    // vectors (one output element per thread).
    int64_t m = op.getMultiplier();
    int64_t vw = m > 1 ? 1 : pickVectorWidth(elemOf(x), C, {x, w, bias, y});
    Type acc = op.getAccType();
    auto [unrollW, unrollH] = windowUnroll(FH, FW, vw);

    emitVectorLaunch(rewriter, op, {N, OH, OW, C * m / vw}, vw, acc,
                     [&](OpBuilder &, Location, KernelEmitter &e,
                         ArrayRef<Value> co) {
      Value n = co[0], oh = co[1], ow = co[2], c = co[3];
      Value ic = m > 1 ? e.div(c, m) : c;
      Value init = bias ? e.toAcc(e.load(bias, {c})) : e.zero(acc);
      Value inBias = op.getInputBias()
                         ? e.toAcc(e.load(op.getInputBias(), {ic}))
                         : Value();
      ForwardWindow win{e.mul(oh, s[0]), e.mul(ow, s[1]), s, d, p, ext};
      auto row = [&](KernelEmitter &eh, Value r, int64_t lo, int64_t hi) {
        win.row(eh, r, lo, hi);
      };
      auto tap = [&](KernelEmitter &ew, Value fw, int64_t lo, int64_t hi,
                     ValueRange a) -> SmallVector<Value> {
        auto [iw, ok] = win.column(ew, fw, lo, hi);
        Value xv = ew.toAcc(ew.predLoad(ok, x, {n, win.ih, iw, ic}));
        if (op.isFused()) // the prologue; padding stays zero
          xv = ew.select(ok, prologueOf(ew, op, xv, inBias), ew.zero(acc));
        Value wv = ew.toAcc(ew.load(w, {win.fh, fw, c}));
        return {ew.fma(xv, wv, a[0])};
      };
      auto res = emitWindow(e, FH, FW, unrollH, unrollW, init, row, tap,
                            /*keepRowsRolled=*/!unrollH);
      Value out = DepthwiseFusion::of(op).activate(e.b, e.loc, res[0],
                                                   op.getActivation());
      e.store(e.convert(out, elemOf(y)), y, {n, oh, ow, c});
    });
  }
};

//===----------------------------------------------------------------------===//
// Depthwise convolution, backward data
//===----------------------------------------------------------------------===//

struct DepthwiseConv2DBackwardDataLowering : DirectLowering<DepthwiseConv2DBackwardDataOp> {
  using DirectLowering::DirectLowering;
  void emit(DepthwiseConv2DBackwardDataOp op, PatternRewriter &rewriter) const override {
    Value dy = op.getOutputGrad(), w = op.getFilter(), dx = op.getInit();
    auto [N, IH, IW, C, FH, FW, OH, OW] = extentsOf(dx, w, dy);
    auto s = op.getStrides(), d = op.getDilations(), p = op.getPadding();
    // channel_multiplier M > 1: input channel c gathers output channels
    // c*M + m, which are no channel vector (one element per thread).
    int64_t m = op.getMultiplier();
    int64_t vw = m > 1 ? 1 : pickVectorWidth(elemOf(dx), C, {dy, w, dx});
    Type acc = op.getAccType();
    auto [unrollW, unrollH] = windowUnroll(FH, FW, vw);

    // dX[n, ih, iw, c] = sum_{fh, fw} dY[n, oh, ow, c] * W[fh, fw, c] with
    // oh = (ih + pt - fh*dh) / sh when that is exact and in [0, OH).
    auto dyIndex = [](KernelEmitter &e, Value pos, int64_t pad, Value f,
                  int64_t dil, int64_t stride, int64_t outSize, int64_t posHi,
                  int64_t fLo, int64_t fHi, Value &ok) -> Value {
      Value t = e.sub(e.add(pos, pad), e.mul(f, dil));
      int64_t tLo = pad - fHi * dil, tHi = posHi + pad - fLo * dil;
      if (tLo < 0)
        ok = e.andi(ok, e.cmp(arith::CmpIPredicate::sge, t, e.cst(0)));
      Value o = t;
      if (stride > 1) {
        Value st = e.cst(stride);
        Value rem = e.b.createOrFold<arith::RemSIOp>(e.loc, t, st);
        ok = e.andi(ok, e.cmp(arith::CmpIPredicate::eq, rem, e.cst(0)));
        o = e.b.createOrFold<arith::DivSIOp>(e.loc, t, st);
      }
      if (tHi / stride >= outSize)
        ok = e.andi(ok, e.cmp(arith::CmpIPredicate::slt, o, e.cst(outSize)));
      return o;
    };

    emitVectorLaunch(rewriter, op, {N, IH, IW, C / vw}, vw, acc,
                     [&](OpBuilder &, Location, KernelEmitter &e,
                         ArrayRef<Value> co) {
      Value n = co[0], ih = co[1], iw = co[2], c = co[3];
      Value fh, oh, hOk;
      Value oc = c; // the output channel the taps read
      auto row = [&](KernelEmitter &eh, Value r, int64_t lo, int64_t hi) {
        fh = r;
        hOk = Value();
        oh = dyIndex(eh, ih, p[0], fh, d[0], s[0], OH, IH - 1, lo, hi, hOk);
      };
      auto tapAt = [&](KernelEmitter &ew, Value fw, int64_t lo, int64_t hi,
                       ValueRange a) -> SmallVector<Value> {
        Value ok = hOk;
        Value ow = dyIndex(ew, iw, p[2], fw, d[1], s[1], OW, IW - 1, lo, hi, ok);
        Value g = ew.toAcc(ew.predLoad(ok, dy, {n, oh, ow, oc}));
        Value wv = ew.toAcc(ew.load(w, {fh, fw, oc}));
        return {ew.fma(g, wv, a[0])};
      };
      auto window = [&](KernelEmitter &ew, ValueRange init) {
        return emitWindow(ew, FH, FW, unrollH, unrollW, init, row, tapAt,
                          /*keepRowsRolled=*/!unrollH);
      };
      SmallVector<Value> res =
          m == 1 ? window(e, e.zero(acc))
                 : emitLoop(e.b, e.loc, m, /*unroll=*/false, e.zero(acc),
                            [&](OpBuilder &bm, Location lm, Value mi,
                                std::optional<int64_t>, ValueRange a) {
                              KernelEmitter em{bm, lm, vw, acc};
                              oc = em.add(em.mul(c, m), mi);
                              return window(em, a);
                            });
      e.store(e.convert(res[0], elemOf(dx)), dx, {n, ih, iw, c});
    });
  }
};

//===----------------------------------------------------------------------===//
// Depthwise convolution, backward filter
//===----------------------------------------------------------------------===//

struct DepthwiseConv2DBackwardFilterLowering : DirectLowering<DepthwiseConv2DBackwardFilterOp> {
  using DirectLowering::DirectLowering;
  void emit(DepthwiseConv2DBackwardFilterOp op, PatternRewriter &rewriter) const override {
    Value x = op.getInput(), dy = op.getOutputGrad(), dw = op.getInit();
    auto [N, IH, IW, C, FH, FW, OH, OW] = extentsOf(x, dw, dy);
    auto s = op.getStrides(), d = op.getDilations(), p = op.getPadding();
    // channel_multiplier M > 1: filter channel c reads input channel c / M
    // (no channel vector: one element per thread).
    int64_t m = op.getMultiplier();
    int64_t vw = m > 1 ? 1 : pickVectorWidth(elemOf(x), C, {x, dy, dw});
    Type acc = op.getAccType();

    // One thread per (fh, fw, channel vector), looping over n, oh, ow.
    emitVectorLaunch(rewriter, op, {FH, FW, C * m / vw}, vw, acc,
                     [&](OpBuilder &b, Location loc, KernelEmitter &e,
                         ArrayRef<Value> co) {
      Value fh = co[0], fw = co[1], c = co[2];
      Value ic = m > 1 ? e.div(c, m) : c;
      Value hOff = e.add(e.mul(fh, d[0]), -p[0]);
      Value wOff = e.add(e.mul(fw, d[1]), -p[2]);
      auto res = emitLoop(
          b, loc, N, false, e.zero(acc),
          [&](OpBuilder &bn, Location l, Value n, std::optional<int64_t>,
              ValueRange a) -> SmallVector<Value> {
            KernelEmitter en{bn, l, vw, acc};
            Value oh, ih, hOk;
            auto row = [&](KernelEmitter &eh, Value r, int64_t, int64_t) {
              oh = r;
              ih = eh.add(eh.mul(oh, s[0]), hOff);
              hOk = eh.inBounds(ih, -p[0],
                                (OH - 1) * s[0] + (FH - 1) * d[0] - p[0], IH);
            };
            auto tap = [&](KernelEmitter &ew, Value ow, int64_t, int64_t,
                           ValueRange a2) -> SmallVector<Value> {
              Value iw = ew.add(ew.mul(ow, s[1]), wOff);
              Value ok = ew.andi(
                  hOk, ew.inBounds(iw, -p[2],
                                   (OW - 1) * s[1] + (FW - 1) * d[1] - p[2],
                                   IW));
              Value xv = ew.toAcc(ew.predLoad(ok, x, {n, ih, iw, ic}));
              Value g = ew.toAcc(ew.load(dy, {n, oh, ow, c}));
              return {ew.fma(xv, g, a2[0])};
            };
            return emitWindow(en, OH, OW, false, false, a, row, tap,
                              /*keepRowsRolled=*/false);
          });
      e.store(e.convert(res[0], elemOf(dw)), dw, {fh, fw, c});
    });
  }
};

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

struct Pool2DLowering : DirectLowering<Pool2DOp> {
  using DirectLowering::DirectLowering;
  void emit(Pool2DOp op, PatternRewriter &rewriter) const override {
    Value x = op.getInput(), y = op.getInit();
    auto in = shapeOf(x), out = shapeOf(y);
    int64_t N = in[0], IH = in[1], IW = in[2], C = in[3];
    int64_t OH = out[1], OW = out[2];
    auto k = op.getWindow(), s = op.getStrides(), p = op.getPadding();
    int64_t KH = k[0], KW = k[1];
    bool isMax = op.getKind() == PoolKind::Max;
    bool includePad = op.getCountIncludePad();
    int64_t vw = pickVectorWidth(elemOf(x), C, {x, y});
    Type acc = op.getAccType();
    auto [unrollW, unrollH] = windowUnroll(KH, KW, vw);

    emitVectorLaunch(rewriter, op, {N, OH, OW, C / vw}, vw, acc,
                     [&](OpBuilder &b, Location loc, KernelEmitter &e,
                         ArrayRef<Value> co) {
      Value n = co[0], oh = co[1], ow = co[2], c = co[3];
      Value hs = e.add(e.mul(oh, s[0]), -p[0]);
      Value ws = e.add(e.mul(ow, s[1]), -p[2]);
      const llvm::fltSemantics &sem = cast<FloatType>(acc).getFloatSemantics();
      Value init = isMax ? e.splat(acc, APFloat::getInf(sem, /*Negative=*/true))
                         : e.zero(acc);
      Value ih, hOk;
      auto row = [&](KernelEmitter &eh, Value kh, int64_t lo, int64_t hi) {
        ih = eh.add(hs, kh);
        hOk = eh.inBounds(ih, lo - p[0], (OH - 1) * s[0] + hi - p[0], IH);
      };
      auto tap = [&](KernelEmitter &ew, Value kw, int64_t lo, int64_t hi,
                     ValueRange a) -> SmallVector<Value> {
        OpBuilder &bw = ew.b;
        Location l2 = ew.loc;
        Value iw = ew.add(ws, kw);
        Value ok = ew.andi(
            hOk, ew.inBounds(iw, lo - p[2], (OW - 1) * s[1] + hi - p[2], IW));
        if (!isMax)
          return {arith::AddFOp::create(
              bw, l2, a[0], ew.toAcc(ew.predLoad(ok, x, {n, ih, iw, c})))};
        // Max: padding never takes part.
        auto update = [&](OpBuilder &ib, Location il) -> Value {
          KernelEmitter ei{ib, il, vw, acc};
          Value v = ei.toAcc(ei.load(x, {n, ih, iw, c}));
          return arith::MaximumFOp::create(ib, il, a[0], v);
        };
        if (!ok)
          return {update(bw, l2)};
        auto ifOp = scf::IfOp::create(
            bw, l2, ok,
            [&](OpBuilder &ib, Location il) {
              scf::YieldOp::create(ib, il, update(ib, il));
            },
            [&](OpBuilder &ib, Location il) {
              scf::YieldOp::create(ib, il, a[0]);
            });
        return {ifOp.getResult(0)};
      };
      auto res = emitWindow(e, KH, KW, unrollH, unrollW, init, row, tap,
                            /*keepRowsRolled=*/!unrollH);
      Value r = res[0];
      if (!isMax) {
        // Divisor: elements inside the input, or (count_include_pad) the
        // window clipped to the padded input [-pt, IH + pb).
        auto count = [&](Value start, int64_t win, int64_t size,
                         int64_t padHi) -> Value {
          Value end = arith::MinSIOp::create(b, loc, e.add(start, win),
                                             e.cst(size + (includePad ? padHi : 0)));
          Value begin = start;
          if (!includePad)
            begin = arith::MaxSIOp::create(b, loc, start, e.cst(0));
          return e.sub(end, begin);
        };
        Value cnt = arith::MulIOp::create(b, loc, count(hs, KH, IH, p[1]),
                                          count(ws, KW, IW, p[3]));
        Value cntI = arith::IndexCastOp::create(b, loc, b.getI64Type(), cnt);
        Value cntF = arith::SIToFPOp::create(b, loc, acc, cntI);
        r = arith::DivFOp::create(b, loc, r, e.broadcast(cntF));
      }
      r = applyActivation(b, loc, r, op.getActivation());
      e.store(e.convert(r, elemOf(y)), y, {n, oh, ow, c});
    });
  }
};

struct GlobalAvgPoolLowering : DirectLowering<GlobalAvgPoolOp> {
  using DirectLowering::DirectLowering;
  void emit(GlobalAvgPoolOp op, PatternRewriter &rewriter) const override {
    Value x = op.getInput(), y = op.getInit();
    auto in = shapeOf(x);
    int64_t N = in[0], H = in[1], W = in[2], C = in[3];
    int64_t vw = pickVectorWidth(elemOf(x), C, {x, y});
    Type acc = op.getAccType();

    emitVectorLaunch(rewriter, op, {N, C / vw}, vw, acc,
                     [&](OpBuilder &b, Location loc, KernelEmitter &e,
                         ArrayRef<Value> co) {
      Value n = co[0], c = co[1];
      Value h;
      auto row = [&](KernelEmitter &, Value r, int64_t, int64_t) { h = r; };
      auto tap = [&](KernelEmitter &ew, Value w, int64_t, int64_t,
                     ValueRange a) -> SmallVector<Value> {
        return {arith::AddFOp::create(ew.b, ew.loc, a[0],
                                      ew.toAcc(ew.load(x, {n, h, w, c})))};
      };
      auto res = emitWindow(e, H, W, false, W <= kMaxUnroll, e.zero(acc), row,
                            tap, /*keepRowsRolled=*/false);
      Value r = arith::DivFOp::create(b, loc, res[0],
                                      e.splat(acc, double(H * W)));
      Value zero = e.cst(0);
      e.store(e.convert(r, elemOf(y)), y, {n, zero, zero, c});
    });
  }
};

/// dB[c] = sum over the N * OH rows and OW columns of dY: one thread per
/// channel vector walks all of them (the fallback of the slice reduction
/// of convert-dwc-to-gpu-global-pool).
struct Conv2DBackwardBiasLowering : DirectLowering<Conv2DBackwardBiasOp> {
  using DirectLowering::DirectLowering;
  void emit(Conv2DBackwardBiasOp op, PatternRewriter &rewriter) const override {
    Value dy = op.getOutputGrad(), db = op.getInit();
    auto g = shapeOf(dy);
    int64_t rows = g[0] * g[1], W = g[2], C = g[3];
    int64_t vw = pickVectorWidth(elemOf(dy), C, {dy, db});
    Type acc = op.getAccType();

    emitVectorLaunch(rewriter, op, {C / vw}, vw, acc,
                     [&](OpBuilder &b, Location loc, KernelEmitter &e,
                         ArrayRef<Value> co) {
      Value c = co[0];
      Value flat = memref::CollapseShapeOp::create(
          b, loc, dy, SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}});
      Value h;
      auto row = [&](KernelEmitter &, Value r, int64_t, int64_t) { h = r; };
      auto tap = [&](KernelEmitter &ew, Value w, int64_t, int64_t,
                     ValueRange a) -> SmallVector<Value> {
        return {arith::AddFOp::create(ew.b, ew.loc, a[0],
                                      ew.toAcc(ew.load(flat, {h, w, c})))};
      };
      auto res = emitWindow(e, rows, W, false, W <= kMaxUnroll, e.zero(acc),
                            row, tap, /*keepRowsRolled=*/false);
      e.store(e.convert(res[0], elemOf(db)), db, {c});
    });
  }
};

//===----------------------------------------------------------------------===//
// im2win and dense convolution
//===----------------------------------------------------------------------===//

struct Im2winLowering : DirectLowering<Im2winOp> {
  using DirectLowering::DirectLowering;
  void emit(Im2winOp op, PatternRewriter &rewriter) const override {
    Value x = op.getInput(), r = op.getInit();
    auto in = shapeOf(x), out = shapeOf(r);
    int64_t N = in[0], IH = in[1], IW = in[2], C = in[3];
    int64_t OH = out[1], IWp = out[2], FH = out[3];
    auto s = op.getStrides(), d = op.getDilations(), p = op.getPadding();
    int64_t vw = pickVectorWidth(elemOf(x), C, {x, r});
    Type acc = elemOf(x);

    // R[n, oh, w, fh, c] = Xpad[n, oh*sh + fh*dh, w, c].
    emitVectorLaunch(rewriter, op, {N, OH, IWp, FH, C / vw}, vw, acc,
                     [&](OpBuilder &, Location, KernelEmitter &e,
                         ArrayRef<Value> co) {
                 Value n = co[0], oh = co[1], wp = co[2], fh = co[3],
                       c = co[4];
                 Value ih =
                     e.add(e.add(e.mul(oh, s[0]), e.mul(fh, d[0])), -p[0]);
                 Value iw = e.add(wp, -p[2]);
                 Value ok = e.andi(
                     e.inBounds(ih, -p[0], (OH - 1) * s[0] + (FH - 1) * d[0] - p[0],
                                IH),
                     e.inBounds(iw, -p[2], IWp - 1 - p[2], IW));
                 e.store(e.convert(e.predLoad(ok, x, {n, ih, iw, c}), elemOf(r)),
                         r, {n, oh, wp, fh, c});
               });
  }
};

struct Conv2DLowering : DirectLowering<Conv2DOp> {
  using DirectLowering::DirectLowering;
  void emit(Conv2DOp op, PatternRewriter &rewriter) const override {
    Value x = op.getInput(), w = op.getFilter(), bias = op.getBias(),
          y = op.getInit();
    WindowExtents ext = extentsOf(x, w, y);
    auto [N, IH, IW, C, FH, FW, OH, OW] = ext;
    int64_t OC = shapeOf(w)[3];
    auto s = op.getStrides(), d = op.getDilations(), p = op.getPadding();
    // Vectorised along the output channels; input elements are broadcast.
    int64_t vw = pickVectorWidth(elemOf(y), OC, {w, bias, y});
    Type acc = op.getAccType();
    bool unrollW = FW <= kMaxUnroll;

    emitVectorLaunch(rewriter, op, {N, OH, OW, OC / vw}, vw, acc,
                     [&](OpBuilder &, Location, KernelEmitter &e,
                         ArrayRef<Value> co) {
      Value n = co[0], oh = co[1], ow = co[2], oc = co[3];
      Value init = bias ? e.toAcc(e.load(bias, {oc})) : e.zero(acc);
      ForwardWindow win{e.mul(oh, s[0]), e.mul(ow, s[1]), s, d, p, ext};
      // (Rows are never unrolled: ivRange gives the whole range.)
      auto row = [&](KernelEmitter &eh, Value r, int64_t lo, int64_t hi) {
        win.row(eh, r, lo, hi);
      };
      auto tap = [&](KernelEmitter &ew, Value fw, int64_t lo, int64_t hi,
                     ValueRange a) -> SmallVector<Value> {
        std::pair<Value, Value> column = win.column(ew, fw, lo, hi);
        Value iw = column.first, ok = column.second, ih = win.ih, fh = win.fh;
        return emitLoop(
            ew.b, ew.loc, C, false, a,
            [&](OpBuilder &bc, Location l3, Value c, std::optional<int64_t>,
                ValueRange a3) -> SmallVector<Value> {
              // Scalar (predicated) input element, broadcast.
              KernelEmitter es{bc, l3, 1, acc};
              Value xs = es.predLoad(ok, x, {n, ih, iw, c});
              Value xsAcc = vector::ExtractOp::create(
                  bc, l3, es.toAcc(xs), ArrayRef<int64_t>{0});
              KernelEmitter ec{bc, l3, vw, acc};
              Value wv = ec.toAcc(ec.load(w, {fh, fw, c, oc}));
              return {ec.fma(ec.broadcast(xsAcc), wv, a3[0])};
            });
      };
      auto res = emitWindow(e, FH, FW, false, unrollW, init, row, tap,
                            /*keepRowsRolled=*/false);
      e.store(e.convert(res[0], elemOf(y)), y, {n, oh, ow, oc});
    });
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// Number of threads the baseline kernel of `op` launches.
int64_t threadCount(Operation *op) {
  auto numel = [](Value v) {
    return cast<MemRefType>(v.getType()).getNumElements();
  };
  if (auto bf = dyn_cast<DepthwiseConv2DBackwardFilterOp>(op))
    return numel(bf.getInit());
  if (auto gap = dyn_cast<GlobalAvgPoolOp>(op))
    return numel(gap.getInit());
  return numel(cast<DestinationStyleOpInterface>(op).getDpsInits().front());
}

struct ConvertDwcToGPUPass
    : dwc::impl::ConvertDwcToGPUBase<ConvertDwcToGPUPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool failedCheck = false;
    module.walk([&](Operation *op) {
      if (!isa<DwcDialect>(op->getDialect()))
        return;
      if (op->getNumResults() != 0 ||
          llvm::any_of(op->getOperandTypes(), llvm::IsaPred<TensorType>)) {
        op->emitError()
            << "'" << op->getName()
            << "' still operates on tensors; the GPU kernels need the memref "
               "form (dwc-to-nvvm bufferizes the functions of the top-level "
               "module only, not those of nested modules; run alone, this "
               "pass needs one-shot-bufferize first)";
        failedCheck = true;
        return;
      }
      // Block ids are 31-bit: keep the launch within the grid limit.
      int64_t blocks = (threadCount(op) + kBlockSize - 1) / kBlockSize;
      if (blocks > std::numeric_limits<int32_t>::max()) {
        op->emitError() << "'" << op->getName() << "' needs " << blocks
                        << " thread blocks, more than a GPU grid holds";
        failedCheck = true;
      }
    });
    if (failedCheck)
      return signalPassFailure();

    applyKernelPatterns<DepthwiseConv2DLowering,
                        DepthwiseConv2DBackwardDataLowering,
                        DepthwiseConv2DBackwardFilterLowering, Pool2DLowering,
                        GlobalAvgPoolLowering, Conv2DBackwardBiasLowering,
                        Im2winLowering, Conv2DLowering>(
        module);

    module.walk([&](Operation *op) {
      if (isa<DwcDialect>(op->getDialect())) {
        InFlightDiagnostic diag = op->emitError()
                                  << "'" << op->getName()
                                  << "' has no direct GPU kernel";
        if (isa<Pool2DBackwardOp>(op))
          diag << " (its kernels are the pooling family's, "
                  "#dwc.pool_backward, on sm_80 or newer, for strides of at "
                  "most 64 columns)";
        failedCheck = true;
      }
    });
    if (failedCheck)
      signalPassFailure();
  }
};
} // namespace
