//===- DwcToGPUGlobalPool.cpp - global average pooling at bandwidth -------===//
//
// Lowers memref-form dwc.global_avg_pool (and dwc.pool2d avg whose window
// is the whole input) carrying a #dwc.global_pool configuration to a
// streaming reduction kernel, and dwc.pool2d_backward avg with such a window
// (the broadcast-divide dX = dY / (H * W)) carrying a
// #dwc.global_pool_backward one to a streaming broadcast kernel. Both read and write 128-bit channel vectors of
// NHWC rows, keep several loads or stores in flight per thread and split the
// H * W positions across the threads of a block (the tiling chosen by
// dwc-select-kernels, lib/Conversion/KernelSelection/PoolSelection.cpp). See the pass description in
// include/dwc/Conversion/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/KernelPass.h"
#include "dwc/Conversion/Passes.h"
#include "dwc/Conversion/IndexEmitter.h"
#include "dwc/Conversion/LaunchBuilder.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
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
/// Loads in flight per thread of the bias gradient's sum of its slices.
constexpr int64_t kBackwardBiasTotalUnroll = 8;

using GapPlan = GlobalPoolPlan;

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

/// Builds, inside a kernel, a view of an operand (N x P x C input, N x C
/// output).
using ViewFn = function_ref<Value(OpBuilder &, Location)>;

/// What a reduction kernel computes: Y[n, c] = sum_p X[n, p, c], divided by
/// P for a mean; the views of X and Y, the kernel's name.
struct ReductionSpec {
  ViewFn input, output;
  bool mean;
  StringRef name, suffix;
};

/// Y[n, c] = sum_p X[n, p, c] (/ P): per-thread sums, a butterfly within
/// each warp, the warps' sums through workgroup memory, added by the first
/// lanes.
void emitReduction(RewriterBase &rewriter, Operation *op, const GapPlan &p,
                   const ReductionSpec &spec, Type acc, int64_t unroll) {
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
  nameKernel(launch, spec.name, spec.suffix);
  GapEmitter e{b, loc, p.vw};
  GapThread t = threadCoords(e, p, launch);
  Value flat = spec.input(b, loc);
  Value y = spec.output(b, loc);
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
    if (spec.mean)
      total = arith::DivFOp::create(
          fb, loc, total,
          arith::ConstantOp::create(
              fb, loc,
              DenseElementsAttr::get(f.vec(acc),
                                     fb.getFloatAttr(acc, double(p.P)))));
    Type elt = cast<MemRefType>(y.getType()).getElementType();
    f.store(f.convert(total, elt), y, {t.n, t.c});
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
  nameKernel(launch, GlobalPoolBackwardKernelAttr::getMnemonic());
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

/// The op's complete configuration of kind `ConfigAttr` and its plan, if
/// it is emitted here (memref form; the rules of Configs/Pool.h hold).
template <typename ConfigAttr>
FailureOr<std::pair<ConfigAttr, GapPlan>>
planOf(Operation *op, PatternRewriter &rewriter) {
  FailureOr<ConfigAttr> emittable = emittableConfigOf<ConfigAttr>(op, rewriter);
  if (failed(emittable))
    return failure();
  ConfigAttr config = *emittable;
  std::string why;
  int64_t S = 1;
  if constexpr (std::is_same_v<ConfigAttr, GlobalPoolBackwardKernelAttr>)
    S = config.getPositionBlocks();
  GapPlan p = withGlobalPoolTiling(*globalPoolShapeOf(op, why),
                                   config.getChannelTile(),
                                   config.getThreads(), S);
  return std::make_pair(config, p);
}

/// The reduction kernel for `op` (a global average, or an average pool2d
/// whose window is the whole input), reading `input` into `init`.
LogicalResult rewriteAsReduction(Operation *op, Value input, Value init,
                                 Type acc, PatternRewriter &rewriter) {
  auto planned = planOf<GlobalPoolKernelAttr>(op, rewriter);
  if (failed(planned))
    return failure();
  auto [config, p] = *planned;
  auto collapse = [](Value v, SmallVector<ReassociationIndices> groups) {
    return [v, groups](OpBuilder &b, Location loc) -> Value {
      return memref::CollapseShapeOp::create(b, loc, v, groups);
    };
  };
  auto x = collapse(input, {{0}, {1, 2}, {3}});
  auto y = collapse(init, {{0, 1, 2}, {3}});
  emitReduction(rewriter, op, p,
                {x, y, /*mean=*/true, GlobalPoolKernelAttr::getMnemonic(), ""},
                acc, config.getUnroll());
  rewriter.eraseOp(op);
  return success();
}

struct GlobalAvgPoolLowering : OpRewritePattern<GlobalAvgPoolOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GlobalAvgPoolOp op,
                                PatternRewriter &rewriter) const override {
    return rewriteAsReduction(op, op.getInput(), op.getInit(), op.getAccType(),
                              rewriter);
  }
};

/// pool2d avg over the whole input (e.g. avg_pool2d(7) on a 7x7 map).
struct GlobalPool2DLowering : OpRewritePattern<Pool2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Pool2DOp op,
                                PatternRewriter &rewriter) const override {
    return rewriteAsReduction(op, op.getInput(), op.getInit(), op.getAccType(),
                              rewriter);
  }
};

/// The global average's gradient: pool2d_backward avg over the whole input.
struct GlobalPool2DBackwardLowering : OpRewritePattern<Pool2DBackwardOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Pool2DBackwardOp op,
                                PatternRewriter &rewriter) const override {
    auto planned = planOf<GlobalPoolBackwardKernelAttr>(op, rewriter);
    if (failed(planned))
      return failure();
    auto [config, p] = *planned;
    emitBroadcast(rewriter, op, p, op.getOutputGrad(), op.getInit(),
                  op.getAccType(), config.getUnroll());
    rewriter.eraseOp(op);
    return success();
  }
};

/// dB of `op` by plan `p`: dY's rows in slices summed into an f32
/// workspace, then the workspace's rows in order into dB; one slice is
/// summed straight into dB (one launch).
void emitBackwardBias(RewriterBase &rewriter, Conv2DBackwardBiasOp op,
                      const BackwardBiasPlan &p, int64_t unroll) {
  Value dy = op.getOutputGrad(), db = op.getInit();
  Type elem = cast<MemRefType>(dy.getType()).getElementType();
  Type dbElem = cast<MemRefType>(db.getType()).getElementType();
  Type f32 = rewriter.getF32Type();
  const int64_t Z = p.slices.N, C = p.slices.C, rows = p.slices.P * Z;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto expand = [](Value v, SmallVector<int64_t> shape, Type t,
                   SmallVector<ReassociationIndices> groups) {
    return [=](OpBuilder &b, Location l) -> Value {
      return memref::ExpandShapeOp::create(b, l, MemRefType::get(shape, t), v,
                                           groups);
    };
  };
  auto slicesOfDy = [&](OpBuilder &b, Location l) -> Value {
    Value flat = memref::CollapseShapeOp::create(
        b, l, dy, SmallVector<ReassociationIndices>{{0, 1, 2}, {3}});
    return expand(flat, {Z, rows / Z, C}, elem, {{0, 1}, {2}})(b, l);
  };
  auto dbAsOne = expand(db, {1, C}, dbElem, {{0, 1}});
  StringRef family = BackwardBiasKernelAttr::getMnemonic();
  if (Z == 1) {
    emitReduction(rewriter, op, p.slices,
                  {slicesOfDy, dbAsOne, /*mean=*/false, family, "slices"},
                  op.getAccType(), unroll);
    return;
  }
  // Rows of 2 x 128-bit f32 vectors for 16-bit dY: 32-byte aligned.
  Value ws = memref::AllocOp::create(rewriter, loc,
                                     MemRefType::get({Z, C}, f32),
                                     rewriter.getI64IntegerAttr(64));
  auto wsRows = [&](OpBuilder &, Location) { return ws; };
  emitReduction(rewriter, op, p.slices,
                {slicesOfDy, wsRows, /*mean=*/false, family, "slices"},
                op.getAccType(), unroll);
  emitReduction(rewriter, op, p.total,
                {expand(ws, {1, Z, C}, f32, {{0, 1}, {2}}), dbAsOne,
                 /*mean=*/false, family, "total"},
                op.getAccType(), kBackwardBiasTotalUnroll);
  memref::DeallocOp::create(rewriter, loc, ws);
}

/// The bias gradient (#dwc.backward_bias).
struct BackwardBiasLowering : OpRewritePattern<Conv2DBackwardBiasOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Conv2DBackwardBiasOp op,
                                PatternRewriter &rewriter) const override {
    auto config = emittableConfigOf<BackwardBiasKernelAttr>(op, rewriter);
    if (failed(config))
      return failure();
    std::string why;
    auto [rows, C] = *backwardBiasShapeOf(op, why);
    Type elem =
        cast<MemRefType>(op.getOutputGrad().getType()).getElementType();
    emitBackwardBias(rewriter, op,
                     backwardBiasPlan(rows, C, elem, config->getSlices(),
                                      config->getChannelTile(),
                                      config->getThreads(),
                                      config->getTotalThreads()),
                     config->getUnroll());
    rewriter.eraseOp(op);
    return success();
  }
};

struct ConvertDwcToGPUGlobalPoolPass
    : PatternKernelPass<ConvertDwcToGPUGlobalPoolPass,
                        dwc::impl::ConvertDwcToGPUGlobalPoolBase,
                        /*benefit=*/1,
                        GlobalAvgPoolLowering,
                        GlobalPool2DLowering,
                        GlobalPool2DBackwardLowering,
                        BackwardBiasLowering> {
  using PatternKernelPass::PatternKernelPass;
};

} // namespace
