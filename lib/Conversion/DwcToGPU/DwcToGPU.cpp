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
//   identity layout, otherwise V = 1 (scalar loads);
// * zero padding by predication: the window coordinates are compared with
//   the input bounds and the load sits in an scf.if (no out-of-bounds read);
// * sums in the op's accumulation type (f32 unless `acc` says f64; f64 for
//   f64 depthwise convolutions), one rounding to the element type at the end.
//
// The buffers are read through their base pointers: the vector path assumes
// they are 16-byte aligned (any cudaMalloc'ed / gpu.alloc'ed buffer is).
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/KernelSelection.h"
#include "dwc/Conversion/Passes.h"
#include "dwc/Conversion/LaunchBuilder.h"
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
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
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

//===----------------------------------------------------------------------===//
// Depthwise convolution, forward
//===----------------------------------------------------------------------===//

struct DepthwiseConv2DLowering : OpRewritePattern<DepthwiseConv2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DepthwiseConv2DOp op,
                                PatternRewriter &rewriter) const override {
    if (hasOtherKernel(op, "direct"))
      return rewriter.notifyMatchFailure(op, "dwc.kernel names another kernel");
    Value x = op.getInput(), w = op.getFilter(), bias = op.getBias(),
          y = op.getInit();
    auto in = shapeOf(x), f = shapeOf(w), out = shapeOf(y);
    int64_t N = in[0], IH = in[1], IW = in[2], C = in[3];
    int64_t FH = f[0], FW = f[1], OH = out[1], OW = out[2];
    auto s = op.getStrides(), d = op.getDilations(), p = op.getPadding();
    int64_t vw = pickVectorWidth(elemOf(x), C, {x, w, bias, y});
    Type acc = op.getAccType();
    auto [unrollW, unrollH] = windowUnroll(FH, FW, vw);

    emitLaunch(rewriter, op, N * OH * OW * (C / vw), [&](OpBuilder &b,
                                                         Location loc,
                                                         Value gid) {
      KernelEmitter e{b, loc, vw, acc};
      auto co = e.delinearize(gid, {N, OH, OW, C / vw});
      Value n = co[0], oh = co[1], ow = co[2], c = e.mul(co[3], vw);
      Value init = bias ? e.toAcc(e.load(bias, {c})) : e.zero(acc);
      Value ohBase = e.mul(oh, s[0]), owBase = e.mul(ow, s[1]);
      auto res = emitLoop(
          b, loc, FH, unrollH, init,
          [&](OpBuilder &bh, Location l, Value fh, std::optional<int64_t> cfh,
              ValueRange a) -> SmallVector<Value> {
            KernelEmitter eh{bh, l, vw, acc};
            auto [fhLo, fhHi] = ivRange(cfh, FH);
            Value ih = eh.add(eh.add(ohBase, eh.mul(fh, d[0])), -p[0]);
            Value hOk = eh.inBounds(ih, fhLo * d[0] - p[0],
                                    (OH - 1) * s[0] + fhHi * d[0] - p[0], IH);
            return emitLoop(
                bh, l, FW, unrollW, a,
                [&](OpBuilder &bw, Location l2, Value fw,
                    std::optional<int64_t> cfw,
                    ValueRange a2) -> SmallVector<Value> {
                  KernelEmitter ew{bw, l2, vw, acc};
                  auto [fwLo, fwHi] = ivRange(cfw, FW);
                  Value iw = ew.add(ew.add(owBase, ew.mul(fw, d[1])), -p[2]);
                  Value ok = ew.andi(
                      hOk, ew.inBounds(iw, fwLo * d[1] - p[2],
                                       (OW - 1) * s[1] + fwHi * d[1] - p[2],
                                       IW));
                  Value xv = ew.toAcc(ew.predLoad(ok, x, {n, ih, iw, c}));
                  Value wv = ew.toAcc(ew.load(w, {fh, fw, c}));
                  return {ew.fma(xv, wv, a2[0])};
                });
          },
          /*keepRolled=*/!unrollH);
      e.store(e.convert(res[0], elemOf(y)), y, {n, oh, ow, c});
    });
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Depthwise convolution, backward data
//===----------------------------------------------------------------------===//

struct DepthwiseConv2DBackwardDataLowering
    : OpRewritePattern<DepthwiseConv2DBackwardDataOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DepthwiseConv2DBackwardDataOp op,
                                PatternRewriter &rewriter) const override {
    if (hasOtherKernel(op, "direct"))
      return rewriter.notifyMatchFailure(op, "dwc.kernel names another kernel");
    Value dy = op.getOutputGrad(), w = op.getFilter(), dx = op.getInit();
    auto og = shapeOf(dy), f = shapeOf(w), ig = shapeOf(dx);
    int64_t N = ig[0], IH = ig[1], IW = ig[2], C = ig[3];
    int64_t FH = f[0], FW = f[1], OH = og[1], OW = og[2];
    auto s = op.getStrides(), d = op.getDilations(), p = op.getPadding();
    int64_t vw = pickVectorWidth(elemOf(dx), C, {dy, w, dx});
    Type acc = op.getAccType();
    auto [unrollW, unrollH] = windowUnroll(FH, FW, vw);

    // dX[n, ih, iw, c] = sum_{fh, fw} dY[n, oh, ow, c] * W[fh, fw, c] with
    // oh = (ih + pt - fh*dh) / sh when that is exact and in [0, OH).
    auto tap = [](KernelEmitter &e, Value pos, int64_t pad, Value f,
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

    emitLaunch(rewriter, op, N * IH * IW * (C / vw), [&](OpBuilder &b,
                                                         Location loc,
                                                         Value gid) {
      KernelEmitter e{b, loc, vw, acc};
      auto co = e.delinearize(gid, {N, IH, IW, C / vw});
      Value n = co[0], ih = co[1], iw = co[2], c = e.mul(co[3], vw);
      auto res = emitLoop(
          b, loc, FH, unrollH, e.zero(acc),
          [&](OpBuilder &bh, Location l, Value fh, std::optional<int64_t> cfh,
              ValueRange a) -> SmallVector<Value> {
            KernelEmitter eh{bh, l, vw, acc};
            auto [fhLo, fhHi] = ivRange(cfh, FH);
            Value hOk;
            Value oh = tap(eh, ih, p[0], fh, d[0], s[0], OH, IH - 1, fhLo,
                           fhHi, hOk);
            return emitLoop(
                bh, l, FW, unrollW, a,
                [&](OpBuilder &bw, Location l2, Value fw,
                    std::optional<int64_t> cfw,
                    ValueRange a2) -> SmallVector<Value> {
                  KernelEmitter ew{bw, l2, vw, acc};
                  auto [fwLo, fwHi] = ivRange(cfw, FW);
                  Value ok = hOk;
                  Value ow = tap(ew, iw, p[2], fw, d[1], s[1], OW, IW - 1,
                                 fwLo, fwHi, ok);
                  Value g = ew.toAcc(ew.predLoad(ok, dy, {n, oh, ow, c}));
                  Value wv = ew.toAcc(ew.load(w, {fh, fw, c}));
                  return {ew.fma(g, wv, a2[0])};
                });
          },
          /*keepRolled=*/!unrollH);
      e.store(e.convert(res[0], elemOf(dx)), dx, {n, ih, iw, c});
    });
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Depthwise convolution, backward filter
//===----------------------------------------------------------------------===//

struct DepthwiseConv2DBackwardFilterLowering
    : OpRewritePattern<DepthwiseConv2DBackwardFilterOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DepthwiseConv2DBackwardFilterOp op,
                                PatternRewriter &rewriter) const override {
    if (hasOtherKernel(op, "direct"))
      return rewriter.notifyMatchFailure(op, "dwc.kernel names another kernel");
    Value x = op.getInput(), dy = op.getOutputGrad(), dw = op.getInit();
    auto in = shapeOf(x), og = shapeOf(dy), f = shapeOf(dw);
    int64_t N = in[0], IH = in[1], IW = in[2], C = in[3];
    int64_t FH = f[0], FW = f[1], OH = og[1], OW = og[2];
    auto s = op.getStrides(), d = op.getDilations(), p = op.getPadding();
    int64_t vw = pickVectorWidth(elemOf(x), C, {x, dy, dw});
    Type acc = op.getAccType();

    // One thread per (fh, fw, channel vector), looping over n, oh, ow.
    emitLaunch(rewriter, op, FH * FW * (C / vw), [&](OpBuilder &b,
                                                     Location loc, Value gid) {
      KernelEmitter e{b, loc, vw, acc};
      auto co = e.delinearize(gid, {FH, FW, C / vw});
      Value fh = co[0], fw = co[1], c = e.mul(co[2], vw);
      Value hOff = e.add(e.mul(fh, d[0]), -p[0]);
      Value wOff = e.add(e.mul(fw, d[1]), -p[2]);
      auto res = emitLoop(
          b, loc, N, false, e.zero(acc),
          [&](OpBuilder &bn, Location l, Value n, std::optional<int64_t>,
              ValueRange a) -> SmallVector<Value> {
            return emitLoop(
                bn, l, OH, false, a,
                [&](OpBuilder &bh, Location l1, Value oh,
                    std::optional<int64_t>, ValueRange a1) -> SmallVector<Value> {
                  KernelEmitter eh{bh, l1, vw, acc};
                  Value ih = eh.add(eh.mul(oh, s[0]), hOff);
                  Value hOk = eh.inBounds(ih, -p[0],
                                          (OH - 1) * s[0] + (FH - 1) * d[0] - p[0],
                                          IH);
                  return emitLoop(
                      bh, l1, OW, false, a1,
                      [&](OpBuilder &bw, Location l2, Value ow,
                          std::optional<int64_t>,
                          ValueRange a2) -> SmallVector<Value> {
                        KernelEmitter ew{bw, l2, vw, acc};
                        Value iw = ew.add(ew.mul(ow, s[1]), wOff);
                        Value ok = ew.andi(
                            hOk, ew.inBounds(iw, -p[2],
                                             (OW - 1) * s[1] + (FW - 1) * d[1] -
                                                 p[2],
                                             IW));
                        Value xv = ew.toAcc(ew.predLoad(ok, x, {n, ih, iw, c}));
                        Value g = ew.toAcc(ew.load(dy, {n, oh, ow, c}));
                        return {ew.fma(xv, g, a2[0])};
                      });
                });
          });
      e.store(e.convert(res[0], elemOf(dw)), dw, {fh, fw, c});
    });
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

struct Pool2DLowering : OpRewritePattern<Pool2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Pool2DOp op,
                                PatternRewriter &rewriter) const override {
    if (hasOtherKernel(op, "direct"))
      return rewriter.notifyMatchFailure(op, "dwc.kernel names another kernel");
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

    emitLaunch(rewriter, op, N * OH * OW * (C / vw), [&](OpBuilder &b,
                                                         Location loc,
                                                         Value gid) {
      KernelEmitter e{b, loc, vw, acc};
      auto co = e.delinearize(gid, {N, OH, OW, C / vw});
      Value n = co[0], oh = co[1], ow = co[2], c = e.mul(co[3], vw);
      Value hs = e.add(e.mul(oh, s[0]), -p[0]);
      Value ws = e.add(e.mul(ow, s[1]), -p[2]);
      const llvm::fltSemantics &sem = cast<FloatType>(acc).getFloatSemantics();
      Value init = isMax ? e.splat(acc, APFloat::getInf(sem, /*Negative=*/true))
                         : e.zero(acc);
      auto res = emitLoop(
          b, loc, KH, unrollH, init,
          [&](OpBuilder &bh, Location l, Value kh, std::optional<int64_t> ckh,
              ValueRange a) -> SmallVector<Value> {
            KernelEmitter eh{bh, l, vw, acc};
            auto [khLo, khHi] = ivRange(ckh, KH);
            Value ih = eh.add(hs, kh);
            Value hOk = eh.inBounds(ih, khLo - p[0],
                                    (OH - 1) * s[0] + khHi - p[0], IH);
            return emitLoop(
                bh, l, KW, unrollW, a,
                [&](OpBuilder &bw, Location l2, Value kw,
                    std::optional<int64_t> ckw,
                    ValueRange a2) -> SmallVector<Value> {
                  KernelEmitter ew{bw, l2, vw, acc};
                  auto [kwLo, kwHi] = ivRange(ckw, KW);
                  Value iw = ew.add(ws, kw);
                  Value ok = ew.andi(
                      hOk, ew.inBounds(iw, kwLo - p[2],
                                       (OW - 1) * s[1] + kwHi - p[2], IW));
                  if (!isMax)
                    return {arith::AddFOp::create(
                        bw, l2, a2[0], ew.toAcc(ew.predLoad(ok, x, {n, ih, iw, c})))};
                  // Max: padding never takes part.
                  auto update = [&](OpBuilder &ib, Location il) -> Value {
                    KernelEmitter ei{ib, il, vw, acc};
                    Value v = ei.toAcc(ei.load(x, {n, ih, iw, c}));
                    return arith::MaximumFOp::create(ib, il, a2[0], v);
                  };
                  if (!ok)
                    return {update(bw, l2)};
                  auto ifOp = scf::IfOp::create(
                      bw, l2, ok,
                      [&](OpBuilder &ib, Location il) {
                        scf::YieldOp::create(ib, il, update(ib, il));
                      },
                      [&](OpBuilder &ib, Location il) {
                        scf::YieldOp::create(ib, il, a2[0]);
                      });
                  return {ifOp.getResult(0)};
                });
          },
          /*keepRolled=*/!unrollH);
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
    return success();
  }
};

struct GlobalAvgPoolLowering : OpRewritePattern<GlobalAvgPoolOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GlobalAvgPoolOp op,
                                PatternRewriter &rewriter) const override {
    if (hasOtherKernel(op, "direct"))
      return rewriter.notifyMatchFailure(op, "dwc.kernel names another kernel");
    Value x = op.getInput(), y = op.getInit();
    auto in = shapeOf(x);
    int64_t N = in[0], H = in[1], W = in[2], C = in[3];
    int64_t vw = pickVectorWidth(elemOf(x), C, {x, y});
    Type acc = op.getAccType();

    emitLaunch(rewriter, op, N * (C / vw), [&](OpBuilder &b, Location loc,
                                               Value gid) {
      KernelEmitter e{b, loc, vw, acc};
      auto co = e.delinearize(gid, {N, C / vw});
      Value n = co[0], c = e.mul(co[1], vw);
      auto res = emitLoop(
          b, loc, H, false, e.zero(acc),
          [&](OpBuilder &bh, Location l, Value h, std::optional<int64_t>,
              ValueRange a) -> SmallVector<Value> {
            return emitLoop(
                bh, l, W, W <= kMaxUnroll, a,
                [&](OpBuilder &bw, Location l2, Value w,
                    std::optional<int64_t>, ValueRange a2) -> SmallVector<Value> {
                  KernelEmitter ew{bw, l2, vw, acc};
                  return {arith::AddFOp::create(
                      bw, l2, a2[0], ew.toAcc(ew.load(x, {n, h, w, c})))};
                });
          });
      Value r = arith::DivFOp::create(b, loc, res[0],
                                      e.splat(acc, double(H * W)));
      Value zero = e.cst(0);
      e.store(e.convert(r, elemOf(y)), y, {n, zero, zero, c});
    });
    return success();
  }
};

//===----------------------------------------------------------------------===//
// im2win and dense convolution
//===----------------------------------------------------------------------===//

struct Im2winLowering : OpRewritePattern<Im2winOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Im2winOp op,
                                PatternRewriter &rewriter) const override {
    if (hasOtherKernel(op, "direct"))
      return rewriter.notifyMatchFailure(op, "dwc.kernel names another kernel");
    Value x = op.getInput(), r = op.getInit();
    auto in = shapeOf(x), out = shapeOf(r);
    int64_t N = in[0], IH = in[1], IW = in[2], C = in[3];
    int64_t OH = out[1], IWp = out[2], FH = out[3];
    auto s = op.getStrides(), d = op.getDilations(), p = op.getPadding();
    int64_t vw = pickVectorWidth(elemOf(x), C, {x, r});
    Type acc = elemOf(x);

    // R[n, oh, w, fh, c] = Xpad[n, oh*sh + fh*dh, w, c].
    emitLaunch(rewriter, op, N * OH * IWp * FH * (C / vw),
               [&](OpBuilder &b, Location loc, Value gid) {
                 KernelEmitter e{b, loc, vw, acc};
                 auto co = e.delinearize(gid, {N, OH, IWp, FH, C / vw});
                 Value n = co[0], oh = co[1], wp = co[2], fh = co[3],
                       c = e.mul(co[4], vw);
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
    return success();
  }
};

struct Conv2DLowering : OpRewritePattern<Conv2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    if (hasOtherKernel(op, "direct"))
      return rewriter.notifyMatchFailure(op, "dwc.kernel names another kernel");
    Value x = op.getInput(), w = op.getFilter(), bias = op.getBias(),
          y = op.getInit();
    auto in = shapeOf(x), f = shapeOf(w), out = shapeOf(y);
    int64_t N = in[0], IH = in[1], IW = in[2], C = in[3];
    int64_t FH = f[0], FW = f[1], OC = f[3], OH = out[1], OW = out[2];
    auto s = op.getStrides(), d = op.getDilations(), p = op.getPadding();
    // Vectorised along the output channels; input elements are broadcast.
    int64_t vw = pickVectorWidth(elemOf(y), OC, {w, bias, y});
    Type acc = op.getAccType();
    bool unrollW = FW <= kMaxUnroll;

    emitLaunch(rewriter, op, N * OH * OW * (OC / vw), [&](OpBuilder &b,
                                                          Location loc,
                                                          Value gid) {
      KernelEmitter e{b, loc, vw, acc};
      auto co = e.delinearize(gid, {N, OH, OW, OC / vw});
      Value n = co[0], oh = co[1], ow = co[2], oc = e.mul(co[3], vw);
      Value init = bias ? e.toAcc(e.load(bias, {oc})) : e.zero(acc);
      Value ohBase = e.mul(oh, s[0]), owBase = e.mul(ow, s[1]);
      auto res = emitLoop(
          b, loc, FH, false, init,
          [&](OpBuilder &bh, Location l, Value fh, std::optional<int64_t>,
              ValueRange a) -> SmallVector<Value> {
            KernelEmitter eh{bh, l, vw, acc};
            Value ih = eh.add(eh.add(ohBase, eh.mul(fh, d[0])), -p[0]);
            Value hOk = eh.inBounds(ih, -p[0],
                                    (OH - 1) * s[0] + (FH - 1) * d[0] - p[0], IH);
            return emitLoop(
                bh, l, FW, unrollW, a,
                [&](OpBuilder &bw, Location l2, Value fw,
                    std::optional<int64_t> cfw,
                    ValueRange a2) -> SmallVector<Value> {
                  KernelEmitter ew{bw, l2, vw, acc};
                  auto [fwLo, fwHi] = ivRange(cfw, FW);
                  Value iw = ew.add(ew.add(owBase, ew.mul(fw, d[1])), -p[2]);
                  Value ok = ew.andi(
                      hOk, ew.inBounds(iw, fwLo * d[1] - p[2],
                                       (OW - 1) * s[1] + fwHi * d[1] - p[2],
                                       IW));
                  return emitLoop(
                      bw, l2, C, false, a2,
                      [&](OpBuilder &bc, Location l3, Value c,
                          std::optional<int64_t>,
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
                });
          });
      e.store(e.convert(res[0], elemOf(y)), y, {n, oh, ow, oc});
    });
    return success();
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

    RewritePatternSet patterns(&getContext());
    patterns.add<DepthwiseConv2DLowering, DepthwiseConv2DBackwardDataLowering,
                 DepthwiseConv2DBackwardFilterLowering, Pool2DLowering,
                 GlobalAvgPoolLowering, Im2winLowering, Conv2DLowering>(
        &getContext());
    walkAndApplyPatterns(module, std::move(patterns));

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
