//===- DwcToGPUGlobalPool.cpp - global average pooling at bandwidth -------===//
//
// Lowers memref-form dwc.global_avg_pool (and dwc.pool2d avg whose window
// is the whole input) to a streaming reduction kernel, and dwc.pool2d_backward
// avg with such a window (the broadcast-divide dX = dY / (H * W)) to a
// streaming broadcast kernel. Both read and write 128-bit channel vectors of
// NHWC rows, keep several loads or stores in flight per thread and split the
// H * W positions across the threads of a block, with the block's channel
// tile narrowed until the grid covers the GPU. See the pass description in
// include/dwc/Conversion/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/KernelSelection.h"
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
#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"
#include <limits>

namespace mlir::dwc {
#define GEN_PASS_DEF_CONVERTDWCTOGPUGLOBALPOOL
#include "dwc/Conversion/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;
using namespace mlir::dwc;

namespace {

constexpr int64_t kWarp = 32;
/// Per-thread position loops up to this length are unrolled completely.
constexpr int64_t kMaxFullUnroll = 16;

/// Tuning knobs (0: chosen from the shape).
struct GapOptions {
  int64_t channelTile = 0, threads = 0, unroll = 8, smCount = 0,
          positionBlocks = 0;
};

/// How one kernel covers N x P x C (P = H * W positions): blocks of CT
/// channel vectors (vw elements each) x R position rows, S blocks per image
/// and tile (the gradient only; the reduction keeps S = 1); thread (r, cv)
/// of block s visits positions s * R + r + k * R * S, K of them.
struct GapPlan {
  int64_t N, P, C, vw, CV, CT, R, K, tiles, S = 1;
  int64_t threads() const { return CT * R; }
  int64_t blocks() const { return N * tiles * S; }
  int64_t rowStride() const { return R * S; }
};

/// The widest power-of-two vector of at most 128 bits dividing C.
int64_t vectorWidth(Type elem, int64_t c) {
  int64_t v = 128 / elem.getIntOrFloatBitWidth();
  while (v > 1 && c % v != 0)
    v /= 2;
  return v;
}

/// Channel tile: the widest power of two <= 32 vectors up to C, narrowed
/// (not below 64 bytes per row) only while the grid has fewer blocks than
/// SMs: wide rows win even with idle lanes.
int64_t chooseChannelTile(const GapPlan &p, int64_t elemBytes,
                          int64_t smCount) {
  int64_t minCT = std::max<int64_t>(1, 64 / (p.vw * elemBytes));
  int64_t ct = std::min<int64_t>(kWarp, llvm::PowerOf2Ceil(p.CV));
  while (ct / 2 >= minCT && p.N * static_cast<int64_t>(llvm::divideCeil(p.CV, ct)) < smCount)
    ct /= 2;
  return ct;
}

GapPlan makePlan(Type elem, int64_t N, int64_t P, int64_t C,
                 const GapOptions &o, bool splitPositions) {
  GapPlan p{N, P, C, vectorWidth(elem, C), 0, 0, 0, 0, 0};
  p.CV = C / p.vw;
  int64_t bytes = elem.getIntOrFloatBitWidth() / 8;
  p.CT = o.channelTile ? o.channelTile : chooseChannelTile(p, bytes, o.smCount);
  p.tiles = llvm::divideCeil(p.CV, p.CT);
  int64_t minR = std::max<int64_t>(1, kWarp / p.CT);
  // 256 threads, fewer when the map has fewer positions.
  p.R = o.threads ? std::max(minR, o.threads / p.CT)
                  : std::max(minR, std::min<int64_t>(
                                       256 / p.CT,
                                       int64_t(llvm::bit_floor(uint64_t(P)))));
  // The gradient has no reduction: a grid smaller than the SM count
  // (N = 1) spreads each image's positions over S blocks, ~2 per SM.
  if (splitPositions && (o.positionBlocks || N * p.tiles < o.smCount)) {
    int64_t s = o.positionBlocks ? o.positionBlocks
                                 : llvm::divideCeil(2 * o.smCount, N * p.tiles);
    p.S = std::clamp<int64_t>(s, 1, llvm::divideCeil(P, p.R));
  }
  // More threads (up to 1024) while the grid holds less than half of the
  // GPU's threads.
  while (!o.threads && p.blocks() * p.threads() < o.smCount * 1024 &&
         p.threads() < 1024 && p.rowStride() * 2 * 4 <= P)
    p.R *= 2;
  p.K = llvm::divideCeil(P, p.rowStride());
  return p;
}

/// Why a tiling cannot be used (empty: it can).
std::string planProblem(const GapPlan &p) {
  if (p.CT < 1 || p.CT > kWarp || !llvm::isPowerOf2_64(p.CT))
    return "channel-tile must be a power of two in [1, 32]";
  if (p.threads() > 1024 || p.threads() % kWarp != 0)
    return "threads must be a multiple of 32 of at most 1024";
  if (p.blocks() > std::numeric_limits<int32_t>::max())
    return "grid too large";
  return "";
}

std::string formProblem(Operation *op) {
  if (op->getNumResults() != 0)
    return "tensor form (bufferize first)";
  for (Value v : op->getOperands()) {
    auto t = dyn_cast<MemRefType>(v.getType());
    if (!t)
      return "tensor operand (bufferize first)";
    if (!t.getLayout().isIdentity())
      return "non-identity layout";
    if (!t.hasStaticShape())
      return "dynamic shape";
  }
  return "";
}

/// Index arithmetic plus `vector<vw x T>` loads and stores.
struct GapEmitter : IndexEmitter {
  int64_t vw;
  GapEmitter(OpBuilder &b, Location loc, int64_t vw)
      : IndexEmitter(b, loc), vw(vw) {}
  VectorType vec(Type t) { return VectorType::get({vw}, t); }
  llvm::Align align(Type t) {
    return llvm::Align(vw * t.getIntOrFloatBitWidth() / 8);
  }
  Value zeros(Type t) {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vec(t), b.getFloatAttr(t, 0.0)));
  }
  Value convert(Value v, Type to) {
    auto from = cast<VectorType>(v.getType()).getElementType();
    if (from == to)
      return v;
    if (to.getIntOrFloatBitWidth() > from.getIntOrFloatBitWidth())
      return arith::ExtFOp::create(b, loc, vec(to), v);
    return arith::TruncFOp::create(b, loc, vec(to), v);
  }
  Value load(Value mem, ValueRange idx) {
    Type t = cast<MemRefType>(mem.getType()).getElementType();
    return vector::LoadOp::create(b, loc, vec(t), mem, idx,
                                  /*nontemporal=*/false, align(t));
  }
  void store(Value v, Value mem, ValueRange idx) {
    Type t = cast<MemRefType>(mem.getType()).getElementType();
    vector::StoreOp::create(b, loc, v, mem, idx, /*nontemporal=*/false,
                            align(t));
  }
  Value addf(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
};

/// Block and thread coordinates of a plan's launch.
struct GapThread {
  Value n, r, cvl, c, active, tid;
};

GapThread threadCoords(GapEmitter &e, const GapPlan &p, gpu::LaunchOp launch) {
  GapThread t;
  Value bid = launch.getBlockIds().x;
  t.tid = launch.getThreadIds().x;
  // Block (n, s, tile), tiles fastest.
  Value rest = e.div(bid, p.tiles);
  t.n = e.div(rest, p.S);
  t.cvl = e.rem(t.tid, p.CT);
  t.r = e.add(e.mul(e.rem(rest, p.S), p.R), e.div(t.tid, p.CT));
  Value cv = e.add(e.mul(e.rem(bid, p.tiles), p.CT), t.cvl);
  if (p.CV % p.CT != 0)
    t.active = e.cmp(arith::CmpIPredicate::ult, cv, e.cst(p.CV));
  // Lanes past the channels compute on the last vector and never store.
  t.c = e.mul(e.clampIf(t.active, cv, p.CV), p.vw);
  return t;
}

/// Calls `visit(b, k0, count, tail, values)` over the K positions of a
/// thread: groups of `unroll` in an scf.for when K is long, then the rest
/// unrolled (`tail`: never empty, it holds the K-th position, the only one
/// that can lie past P); `k0` is the index of the group's first position.
using GroupFn = function_ref<SmallVector<Value>(OpBuilder &, Value, int64_t,
                                                bool, ValueRange)>;
SmallVector<Value> forPositionGroups(OpBuilder &b, Location loc,
                                     const GapPlan &p, int64_t unroll,
                                     ValueRange init, GroupFn visit) {
  IndexEmitter e{b, loc};
  SmallVector<Value> vals(init);
  int64_t groups = p.K > kMaxFullUnroll ? (p.K - 1) / unroll : 0;
  if (groups > 0) {
    auto loop = scf::ForOp::create(
        b, loc, e.cst(0), e.cst(groups), e.cst(1), vals,
        [&](OpBuilder &lb, Location, Value g, ValueRange a) {
          IndexEmitter le{lb, loc};
          scf::YieldOp::create(
              lb, loc, visit(lb, le.mul(g, unroll), unroll, false, a));
        });
    vals.assign(loop.getResults().begin(), loop.getResults().end());
  }
  int64_t done = groups * unroll;
  return visit(b, e.cst(done), p.K - done, true, vals);
}

/// Sums of the thread's positions: `count` independent loads in flight,
/// then added; only the K-th position of a thread may lie past P (clamped
/// load, zero selected).
SmallVector<Value> sumPositions(OpBuilder &b, Location loc, const GapPlan &p,
                                Value flat, const GapThread &t, Value k0,
                                int64_t count, Value accIn, Type acc,
                                bool tail) {
  GapEmitter e{b, loc, p.vw};
  SmallVector<Value> vals;
  for (int64_t j = 0; j < count; ++j) {
    Value pos = e.add(t.r, e.mul(e.add(k0, j), p.rowStride()));
    bool mayExceed = tail && j == count - 1 && p.P % p.rowStride() != 0;
    Value ok = mayExceed ? e.lt(pos, p.P) : Value();
    Value v = e.load(flat, {t.n, e.clampIf(ok, pos, p.P), t.c});
    v = e.convert(v, acc);
    vals.push_back(e.select(ok, v, e.zeros(acc)));
  }
  // Pairwise, so that the adds do not wait on the loads in order.
  while (vals.size() > 1) {
    SmallVector<Value> next;
    for (size_t i = 0; i + 1 < vals.size(); i += 2)
      next.push_back(e.addf(vals[i], vals[i + 1]));
    if (vals.size() % 2)
      next.push_back(vals.back());
    vals = next;
  }
  return {e.addf(accIn, vals[0])};
}

/// The butterfly sum over the lanes of a warp that hold the same channel
/// vector (lanes CT apart), element by element.
Value warpSum(OpBuilder &b, Location loc, const GapPlan &p, Value v) {
  if (p.CT >= kWarp)
    return v;
  SmallVector<Value> elems;
  for (int64_t i = 0; i < p.vw; ++i) {
    Value s = vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{i});
    for (int64_t off = p.CT; off < kWarp; off *= 2) {
      Value o = gpu::ShuffleOp::create(b, loc, s, int32_t(off), int32_t(kWarp),
                                       gpu::ShuffleMode::XOR)
                    .getShuffleResult();
      s = arith::AddFOp::create(b, loc, s, o);
    }
    elems.push_back(s);
  }
  return vector::FromElementsOp::create(b, loc, cast<VectorType>(v.getType()),
                                        elems);
}

/// Runs `body` only when `cond` holds (always when it is null).
void guarded(OpBuilder &b, Location loc, Value cond,
             function_ref<void(OpBuilder &)> body) {
  if (!cond)
    return body(b);
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElse=*/false);
  OpBuilder tb = ifOp.getThenBodyBuilder();
  body(tb);
}

/// Y[n, c] = sum_p X[n, p, c] / P: per-thread sums, a butterfly within each
/// warp, the warps' sums through workgroup memory, added by the first lanes.
void emitReduction(RewriterBase &rewriter, Operation *op, const GapPlan &p,
                   Value x, Value y, Type acc, int64_t unroll) {
  Location loc = op->getLoc();
  int64_t warps = p.threads() / kWarp;
  auto wg = gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                       gpu::AddressSpace::Workgroup);
  SmallVector<Type> buffers;
  if (warps > 1)
    buffers.push_back(MemRefType::get({warps, p.CT, p.vw}, acc,
                                      MemRefLayoutAttrInterface(), wg));
  rewriter.setInsertionPoint(op);
  auto [launch, b] = createGridLaunch(rewriter, loc, p.blocks(), 1,
                                      p.threads(), buffers);
  GapEmitter e{b, loc, p.vw};
  GapThread t = threadCoords(e, p, launch);
  Value flat = memref::CollapseShapeOp::create(
      b, loc, x, SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}});
  SmallVector<Value> sum = forPositionGroups(
      b, loc, p, unroll, ValueRange{e.zeros(acc)},
      [&](OpBuilder &gb, Value k0, int64_t count, bool tail, ValueRange a) {
        return sumPositions(gb, loc, p, flat, t, k0, count, a[0], acc, tail);
      });
  Value s = warpSum(b, loc, p, sum[0]);
  // The lanes that hold their warp's sums (all when CT = 32).
  Value lane0 = p.CT < kWarp ? e.lt(e.rem(t.tid, kWarp), p.CT) : Value();
  auto finish = [&](OpBuilder &fb, Value total) {
    GapEmitter f{fb, loc, p.vw};
    Value mean = arith::DivFOp::create(
        fb, loc, total,
        arith::ConstantOp::create(
            fb, loc,
            DenseElementsAttr::get(f.vec(acc),
                                   fb.getFloatAttr(acc, double(p.P)))));
    Type elt = cast<MemRefType>(y.getType()).getElementType();
    f.store(f.convert(mean, elt), y, {t.n, f.cst(0), f.cst(0), t.c});
  };
  if (warps == 1) {
    guarded(b, loc, e.andi(lane0, t.active),
            [&](OpBuilder &fb) { finish(fb, s); });
  } else {
    Value part = launch.getWorkgroupAttributions()[0];
    Value warp = e.div(t.tid, kWarp);
    guarded(b, loc, lane0, [&](OpBuilder &sb) {
      GapEmitter se{sb, loc, p.vw};
      se.store(s, part, {warp, t.cvl, se.cst(0)});
    });
    gpu::BarrierOp::create(b, loc);
    guarded(b, loc, e.andi(e.lt(t.tid, p.CT), t.active), [&](OpBuilder &fb) {
      GapEmitter f{fb, loc, p.vw};
      SmallVector<Value> parts;
      for (int64_t w = 0; w < warps; ++w)
        parts.push_back(f.load(part, {f.cst(w), t.cvl, f.cst(0)}));
      Value total = parts[0];
      for (int64_t w = 1; w < warps; ++w)
        total = f.addf(total, parts[w]);
      finish(fb, total);
    });
  }
}

/// dX[n, p, c] = dY[n, c] / P: the thread's vector divided once, stored at
/// its K positions (`unroll` stores per loop step).
void emitBroadcast(RewriterBase &rewriter, Operation *op, const GapPlan &p,
                   Value dy, Value dx, Type acc, int64_t unroll) {
  Location loc = op->getLoc();
  rewriter.setInsertionPoint(op);
  auto [launch, b] =
      createGridLaunch(rewriter, loc, p.blocks(), 1, p.threads());
  GapEmitter e{b, loc, p.vw};
  GapThread t = threadCoords(e, p, launch);
  Type elt = cast<MemRefType>(dx.getType()).getElementType();
  Value flat = memref::CollapseShapeOp::create(
      b, loc, dx, SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}});
  guarded(b, loc, t.active, [&](OpBuilder &ab) {
    GapEmitter a{ab, loc, p.vw};
    Value g = a.convert(a.load(dy, {t.n, a.cst(0), a.cst(0), t.c}), acc);
    g = arith::DivFOp::create(
        ab, loc, g,
        arith::ConstantOp::create(
            ab, loc,
            DenseElementsAttr::get(a.vec(acc),
                                   ab.getFloatAttr(acc, double(p.P)))));
    g = a.convert(g, elt);
    forPositionGroups(
        ab, loc, p, unroll, ValueRange{},
        [&](OpBuilder &gb, Value k0, int64_t count, bool tail, ValueRange) {
          GapEmitter s{gb, loc, p.vw};
          for (int64_t j = 0; j < count; ++j) {
            Value pos = s.add(t.r, s.mul(s.add(k0, j), p.rowStride()));
            bool mayExceed = tail && j == count - 1 && p.P % p.rowStride() != 0;
            guarded(gb, loc, mayExceed ? s.lt(pos, p.P) : Value(),
                    [&](OpBuilder &wb) {
                      GapEmitter w{wb, loc, p.vw};
                      w.store(g, flat, {t.n, pos, t.c});
                    });
          }
          return SmallVector<Value>{};
        });
  });
}

/// Whether a pool2d (backward) window is the whole input with no padding:
/// one output per image and channel, its divisor H * W.
bool isGlobalWindow(ArrayRef<int64_t> in, ArrayRef<int64_t> window,
                    ArrayRef<int64_t> padding) {
  return window.size() == 2 && window[0] == in[1] && window[1] == in[2] &&
         llvm::all_of(padding, [](int64_t v) { return v == 0; });
}

/// Shared matching of the three ops: memref form, a usable plan.
FailureOr<GapPlan> planFor(PatternRewriter &rewriter, Operation *op, Value x,
                           const GapOptions &o, bool splitPositions) {
  std::string why = formProblem(op);
  if (why.empty()) {
    auto t = cast<MemRefType>(x.getType());
    auto in = t.getShape();
    GapPlan p = makePlan(t.getElementType(), in[0], in[1] * in[2], in[3], o,
                         splitPositions);
    why = planProblem(p);
    if (why.empty())
      return p;
  }
  return rewriter.notifyMatchFailure(op, why);
}

/// The reduction kernel for `op` (a global average, or an average pool2d
/// whose window is the whole input), reading `input` into `init`.
LogicalResult rewriteAsReduction(Operation *op, Value input, Value init,
                                 Type acc, const GapOptions &o,
                                 PatternRewriter &rewriter) {
  if (hasOtherKernel(op, ""))
    return rewriter.notifyMatchFailure(op, "dwc.kernel names another kernel");
  FailureOr<GapPlan> p = planFor(rewriter, op, input, o, false);
  if (failed(p))
    return failure();
  emitReduction(rewriter, op, *p, input, init, acc, o.unroll);
  rewriter.eraseOp(op);
  return success();
}

struct GlobalAvgPoolLowering : OpRewritePattern<GlobalAvgPoolOp> {
  GapOptions o;
  GlobalAvgPoolLowering(MLIRContext *ctx, GapOptions o)
      : OpRewritePattern(ctx, /*benefit=*/3), o(o) {}
  LogicalResult matchAndRewrite(GlobalAvgPoolOp op,
                                PatternRewriter &rewriter) const override {
    return rewriteAsReduction(op, op.getInput(), op.getInit(), op.getAccType(),
                              o, rewriter);
  }
};

/// pool2d avg over the whole input (e.g. avg_pool2d(7) on a 7x7 map).
struct GlobalPool2DLowering : OpRewritePattern<Pool2DOp> {
  GapOptions o;
  GlobalPool2DLowering(MLIRContext *ctx, GapOptions o)
      : OpRewritePattern(ctx, /*benefit=*/3), o(o) {}
  LogicalResult matchAndRewrite(Pool2DOp op,
                                PatternRewriter &rewriter) const override {
    auto in = cast<ShapedType>(op.getInput().getType()).getShape();
    if (op.getKind() != PoolKind::Avg || op.getActivation() ||
        !isGlobalWindow(in, op.getWindow(), op.getPadding()))
      return rewriter.notifyMatchFailure(op, "not a global average");
    return rewriteAsReduction(op, op.getInput(), op.getInit(), op.getAccType(),
                              o, rewriter);
  }
};

/// The global average's gradient: pool2d_backward avg over the whole input.
struct GlobalPool2DBackwardLowering : OpRewritePattern<Pool2DBackwardOp> {
  GapOptions o;
  GlobalPool2DBackwardLowering(MLIRContext *ctx, GapOptions o)
      : OpRewritePattern(ctx, /*benefit=*/3), o(o) {}
  LogicalResult matchAndRewrite(Pool2DBackwardOp op,
                                PatternRewriter &rewriter) const override {
    if (hasOtherKernel(op, ""))
      return rewriter.notifyMatchFailure(op, "dwc.kernel names another kernel");
    auto in = cast<ShapedType>(op.getInput().getType()).getShape();
    if (op.getKind() != PoolKind::Avg ||
        !isGlobalWindow(in, op.getWindow(), op.getPadding()))
      return rewriter.notifyMatchFailure(op, "not a global average");
    FailureOr<GapPlan> p = planFor(rewriter, op, op.getInit(), o, true);
    if (failed(p))
      return failure();
    emitBroadcast(rewriter, op, *p, op.getOutputGrad(), op.getInit(),
                  op.getAccType(), o.unroll);
    rewriter.eraseOp(op);
    return success();
  }
};

struct ConvertDwcToGPUGlobalPoolPass
    : dwc::impl::ConvertDwcToGPUGlobalPoolBase<ConvertDwcToGPUGlobalPoolPass> {
  using ConvertDwcToGPUGlobalPoolBase::ConvertDwcToGPUGlobalPoolBase;
  void runOnOperation() override {
    GapOptions o{channelTile, threads, unroll,
                 TargetAttr::lookup(getOperation()).getSmCount(),
                 positionBlocks};
    if (o.channelTile < 0 || o.channelTile > kWarp ||
        (o.channelTile && !llvm::isPowerOf2_64(o.channelTile)) ||
        o.threads < 0 || o.threads > 1024 || o.threads % kWarp != 0 ||
        o.unroll < 1 || o.unroll > 16 ||
        o.positionBlocks < 0 || o.positionBlocks > 4096) {
      getOperation()->emitError()
          << "convert-dwc-to-gpu-global-pool: channel-tile must be 0 or a "
             "power of two <= 32, threads 0 or a multiple of 32 <= 1024, "
             "unroll in [1, 16], position-blocks in [0, 4096]";
      return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    patterns.add<GlobalAvgPoolLowering, GlobalPool2DLowering,
                 GlobalPool2DBackwardLowering>(&getContext(), o);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
