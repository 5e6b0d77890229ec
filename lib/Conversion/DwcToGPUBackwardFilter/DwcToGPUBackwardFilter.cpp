//===- DwcToGPUBackwardFilter.cpp - depthwise filter gradient, split-z ----===//
//
// Lowers eligible memref-form `dwc.depthwise_conv2d_backward_filter` ops to
// CUDA-core kernels that parallelise along the accumulation axis: the
// N*OH rows of dY are split into Z slices, every thread reduces one slice
// for one filter row x TW consecutive taps x 128 bits of channels in f32
// registers (width-first register window over the input row), for small
// filters the 4 slices of a tile in a warp are summed with shuffles, and the
// sums are added into a zero-initialised f32 buffer with atomics. f16/bf16
// filter gradients go through an f32 workspace and a conversion kernel.
// The rules (Z, TW) are documented in include/dwc/Conversion/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/Passes.h"
#include "dwc/Conversion/IndexEmitter.h"
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
#define GEN_PASS_DEF_CONVERTDWCTOGPUBACKWARDFILTER
#include "dwc/Conversion/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;
using namespace mlir::dwc;

namespace {

/// Threads along the channels: 8 x 128 bits = one 128-byte transaction.
constexpr int64_t kLanes = 8;
/// Work-unit slots per block (each slot is kLanes threads): 256 threads.
constexpr int64_t kSlots = 32;
constexpr int64_t kThreads = kLanes * kSlots;
/// Resident threads per SM at full occupancy (sm_80/sm_90).
constexpr int64_t kThreadsPerSM = 2048;
/// Waves of fully resident threads the slice count aims at. Measured on the
/// H200 (128x64x64x256 f32): F=7 0.98 / 1.04 / 0.73 ms with Z = 146 / 586
/// (one wave) / 2048 (four waves); F=51 69 / 42 / 39 ms with Z = 4 / 14 /
/// 56 (four waves): more, shorter slices balance the SMs better than the
/// extra atomics cost.
constexpr int64_t kTargetWaves = 4;
/// Output columns per unrolled step of the width loop.
constexpr int64_t kWidthUnroll = 8;
/// Work-unit slots per warp (32 / kLanes): with the warp reduction, the 4
/// slots of a warp take 4 consecutive slices of the same tap tile and sum
/// their partial results with shuffles before one of them adds atomically.
constexpr int64_t kSlotsPerWarp = 32 / kLanes;
/// Threads of the zero-fill and conversion kernels.
constexpr int64_t kSmallBlock = 256;

int64_t channelsPerThread(Type elem) {
  return 128 / elem.getIntOrFloatBitWidth();
}

/// How the kernel splits the work; see the pass description.
struct Plan {
  int64_t V;        // channels per thread (128 bits)
  int64_t groups;   // channel groups of kLanes * V channels
  int64_t TW;       // filter taps per thread (one filter row)
  int64_t tilesW;   // tap tiles per filter row
  int64_t tiles;    // FH * tilesW
  int64_t rows;     // N * OH accumulation rows
  int64_t rowsPerZ; // rows per slice
  int64_t Z;        // slices
  int64_t units;    // work units incl. the padding of the last slice group
  int64_t slotBlocks;
  int64_t blocks;
};

Plan makePlan(int64_t N, int64_t OH, int64_t C, int64_t FH, int64_t FW,
              Type elem, int64_t zOption, int64_t smCount,
              int64_t maxTileWidth, int64_t slicesPerWarp) {
  Plan p;
  p.V = channelsPerThread(elem);
  p.groups = (C + kLanes * p.V - 1) / (kLanes * p.V);
  int64_t maxTW = maxTileWidth > 0 ? maxTileWidth : (elem.isF32() ? 9 : 6);
  p.tilesW = (FW + maxTW - 1) / maxTW;
  p.TW = (FW + p.tilesW - 1) / p.tilesW;
  p.tiles = FH * p.tilesW;
  p.rows = N * OH;
  int64_t threadsPerSlice = p.groups * kLanes * p.tiles;
  int64_t z = zOption;
  if (z <= 0) {
    // kTargetWaves waves of resident threads at full occupancy.
    int64_t target = kTargetWaves * smCount * kThreadsPerSM;
    z = (target + threadsPerSlice - 1) / threadsPerSlice;
  }
  z = std::clamp<int64_t>(z, 1, p.rows);
  p.rowsPerZ = (p.rows + z - 1) / z;
  p.Z = (p.rows + p.rowsPerZ - 1) / p.rowsPerZ;
  // Work units: groups of `slicesPerWarp` consecutive slices of one tap
  // tile (adjacent slots of a warp), tiles fastest.
  int64_t zGroups = (p.Z + slicesPerWarp - 1) / slicesPerWarp;
  p.units = p.tiles * zGroups * slicesPerWarp;
  p.slotBlocks = (p.units + kSlots - 1) / kSlots;
  p.blocks = p.groups * p.slotBlocks;
  return p;
}

/// Why `op` cannot take the split-z kernel, or an empty string.
std::string ineligibility(DepthwiseConv2DBackwardFilterOp op) {
  auto dw = dyn_cast<MemRefType>(op.getInit().getType());
  if (!dw)
    return "tensor form (bufferize first)";
  auto in = cast<MemRefType>(op.getInput().getType());
  Type elem = in.getElementType();
  if (!elem.isF32() && !elem.isF16() && !elem.isBF16())
    return "element type is not f32, f16 or bf16";
  if (!dw.getElementType().isF32() && dw.getElementType() != elem)
    return "filter gradient type is neither f32 nor the input's";
  if (llvm::any_of(op.getStrides(), [](int64_t s) { return s != 1; }))
    return "stride is not 1";
  if (llvm::any_of(op.getDilations(), [](int64_t d) { return d != 1; }))
    return "dilation is not 1";
  if (in.getShape()[3] % channelsPerThread(in.getElementType()) != 0)
    return "channel count is not a multiple of 128 bits";
  for (Value v : op->getOperands())
    if (!cast<MemRefType>(v.getType()).getLayout().isIdentity())
      return "non-identity layout";
  if (llvm::any_of(in.getShape(), [](int64_t d) { return d <= 0; }))
    return "empty input";
  return "";
}

/// Index arithmetic and vector helpers (memory holds `vw` elements per
/// thread, arithmetic is f32).
using Emitter = F32VectorEmitter;

/// Creates a 1-D gpu.launch of `blocks` x `threads` before `op` and returns
/// a builder inside it (before the terminator) with the launch.
std::pair<gpu::LaunchOp, OpBuilder> createLaunch(RewriterBase &rewriter,
                                                 Location loc, int64_t blocks,
                                                 int64_t threads) {
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  auto launch = gpu::LaunchOp::create(
      rewriter, loc, arith::ConstantIndexOp::create(rewriter, loc, blocks),
      one, one, arith::ConstantIndexOp::create(rewriter, loc, threads), one,
      one);
  Block &entry = launch.getBody().front();
  if (entry.empty() || !entry.back().hasTrait<OpTrait::IsTerminator>()) {
    OpBuilder tb = OpBuilder::atBlockEnd(&entry);
    gpu::TerminatorOp::create(tb, loc);
  }
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  b.setInsertionPoint(entry.getTerminator());
  return {launch, b};
}

/// Emits `body(builder)` under `cond` (directly when `cond` is null).
void emitIf(OpBuilder &b, Location loc, Value cond,
            function_ref<void(OpBuilder &)> body) {
  if (!cond) {
    body(b);
    return;
  }
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder tb = ifOp.getThenBodyBuilder();
  body(tb);
}

/// A 1-D elementwise kernel over `count` vectors of 4 or 8 elements:
/// `body(builder, linear vector index)`.
void emitVectorKernel(RewriterBase &rewriter, Location loc, int64_t count,
                      function_ref<void(OpBuilder &, Value)> body) {
  int64_t blocks = (count + kSmallBlock - 1) / kSmallBlock;
  auto [launch, b] = createLaunch(rewriter, loc, blocks, kSmallBlock);
  Emitter e{b, loc, 1};
  Value gid = e.add(e.mul(launch.getBlockIds().x, kSmallBlock),
                    launch.getThreadIds().x);
  emitIf(b, loc, count % kSmallBlock ? e.lt(gid, count) : Value(),
         [&](OpBuilder &ib) { body(ib, gid); });
}

struct SplitZBackwardFilterLowering
    : OpRewritePattern<DepthwiseConv2DBackwardFilterOp> {
  SplitZBackwardFilterLowering(MLIRContext *ctx, int64_t z, int64_t smCount,
                               int64_t maxTileWidth, int64_t warpReduceTaps)
      : OpRewritePattern(ctx, /*benefit=*/2), zOption(z), smCount(smCount),
        maxTileWidth(maxTileWidth), warpReduceTaps(warpReduceTaps) {}
  int64_t zOption, smCount, maxTileWidth, warpReduceTaps;

  LogicalResult matchAndRewrite(DepthwiseConv2DBackwardFilterOp op,
                                PatternRewriter &rewriter) const override {
    std::string why = ineligibility(op);
    if (!why.empty())
      return rewriter.notifyMatchFailure(op, why);

    Value x = op.getInput(), dy = op.getOutputGrad(), dw = op.getInit();
    auto in = cast<MemRefType>(x.getType()).getShape();
    auto og = cast<MemRefType>(dy.getType()).getShape();
    auto dwType = cast<MemRefType>(dw.getType());
    int64_t N = in[0], IH = in[1], IW = in[2], C = in[3];
    int64_t FH = dwType.getShape()[0], FW = dwType.getShape()[1];
    int64_t OH = og[1], OW = og[2];
    int64_t pt = op.getPadding()[0], pl = op.getPadding()[2];
    Type elem = cast<MemRefType>(x.getType()).getElementType();
    // Small filters: few FMAs per atomic, the warp reduction pays. Large
    // ones: the slots of a warp take different tap tiles of the same rows
    // instead (their dY loads are one broadcast, L1 traffic is the limit).
    const int64_t zpw = FH * FW <= warpReduceTaps ? kSlotsPerWarp : 1;
    Plan p = makePlan(N, OH, C, FH, FW, elem, zOption, smCount, maxTileWidth,
                      zpw);
    if (p.blocks > std::numeric_limits<int32_t>::max())
      return rewriter.notifyMatchFailure(op, "grid too large");
    const int64_t V = p.V;

    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    Type f32 = rewriter.getF32Type();

    // The f32 accumulation buffer: dW itself, or a workspace.
    Value acc = dw;
    bool workspace = !dwType.getElementType().isF32();
    if (workspace)
      acc = memref::AllocOp::create(
          rewriter, loc, MemRefType::get(dwType.getShape(), f32));
    int64_t accElems = FH * FW * C;

    // 1. Zero the accumulation buffer (C % 4 == 0: 4-wide stores).
    emitVectorKernel(rewriter, loc, accElems / 4, [&](OpBuilder &b, Value i) {
      Emitter e{b, loc, 4};
      Value flat = e.mul(i, 4);
      Value c = e.rem(flat, C), tap = e.div(flat, C);
      vector::StoreOp::create(b, loc, e.zeros(), acc,
                              ValueRange{e.div(tap, FW), e.rem(tap, FW), c},
                              /*nontemporal=*/false, llvm::Align(16));
    });

    // 2. Split-z partial sums, atomically added.
    auto [launch, b] = createLaunch(rewriter, loc, p.blocks, kThreads);
    Emitter e{b, loc, V};
    Value tid = launch.getThreadIds().x, bid = launch.getBlockIds().x;
    Value lane = e.rem(tid, kLanes), slot = e.div(tid, kLanes);
    Value group = e.rem(bid, p.groups), slotBlock = e.div(bid, p.groups);
    Value c0 = e.add(e.mul(group, kLanes * V), e.mul(lane, V));
    Value unit = e.add(e.mul(slotBlock, kSlots), slot);
    Value zGroup = e.div(unit, zpw), zInGroup = e.rem(unit, zpw);
    Value tile = e.rem(zGroup, p.tiles);
    Value z = e.add(e.mul(e.div(zGroup, p.tiles), zpw), zInGroup);
    Value fh = e.div(tile, p.tilesW);
    Value fw0 = e.mul(e.rem(tile, p.tilesW), p.TW);
    Value active;
    if (p.slotBlocks * kSlots != p.tiles * p.Z)
      active = e.lt(z, p.Z);
    if (C % (kLanes * V) != 0)
      active = e.andi(active, e.lt(c0, C));

    // The thread's TW partial sums (zero for an inactive thread, which
    // still takes part in the warp reduction).
    auto computeSums = [&](OpBuilder &tb) -> SmallVector<Value> {
      Emitter t{tb, loc, V};
      Value r0 = t.mul(z, p.rowsPerZ);
      Value r1 = p.rows % p.rowsPerZ
                     ? tb.createOrFold<arith::MinSIOp>(
                           loc, t.add(r0, p.rowsPerZ), t.cst(p.rows))
                     : t.add(r0, p.rowsPerZ);
      SmallVector<Value> accInit(p.TW, t.zeros());
      // Input column of window position 0 for output column 0.
      Value iwBase = t.add(fw0, -pl);
      auto rowLoop = scf::ForOp::create(
          tb, loc, r0, r1, t.cst(1), accInit,
          [&](OpBuilder &rb, Location, Value r, ValueRange accs) {
            Emitter re{rb, loc, V};
            Value n = re.div(r, OH), oh = re.rem(r, OH);
            Value ih = re.add(re.add(oh, fh), -pt);
            Value rowOk = re.andi(re.ge(ih, 0), re.lt(ih, IH));
            auto ifRow = scf::IfOp::create(
                rb, loc, rowOk,
                [&](OpBuilder &ib, Location) {
                  Emitter k{ib, loc, V};
                  // X[n, ih, iw, c0..] at iw = iwBase + j: a clamped
                  // in-bounds load, zero outside the input row.
                  auto loadInput = [&](Emitter &le, Value j) -> Value {
                    Value iw = le.add(iwBase, j);
                    Value valid = le.andi(le.ge(iw, 0), le.lt(iw, IW));
                    Value v = le.load(
                        x, ValueRange{n, ih, le.clamp(iw, 0, IW - 1), c0});
                    return arith::SelectOp::create(le.b, loc, valid, v,
                                                   le.zeros());
                  };
                  // One output column: a new input vector enters the
                  // window, each of the TW taps takes one FMA.
                  auto step = [&](Emitter &se, Value ow,
                                  std::deque<Value> &window,
                                  SmallVector<Value> &acc) {
                    window.push_back(loadInput(se, se.add(ow, p.TW - 1)));
                    Value g = se.load(dy, ValueRange{n, oh, ow, c0});
                    for (int64_t i = 0; i < p.TW; ++i)
                      acc[i] = vector::FMAOp::create(se.b, loc, window[i], g,
                                                     acc[i]);
                    window.pop_front();
                  };
                  std::deque<Value> window;
                  for (int64_t j = 0; j < p.TW - 1; ++j)
                    window.push_back(loadInput(k, k.cst(j)));
                  SmallVector<Value> acc(accs);
                  int64_t chunks = OW / kWidthUnroll;
                  if (chunks > 1) {
                    // Chunks of kWidthUnroll columns; the window and the
                    // sums are carried.
                    SmallVector<Value> carried(acc);
                    carried.append(window.begin(), window.end());
                    auto loop = scf::ForOp::create(
                        ib, loc, k.cst(0), k.cst(chunks), k.cst(1), carried,
                        [&](OpBuilder &lb, Location, Value ch,
                            ValueRange args) {
                          Emitter le{lb, loc, V};
                          SmallVector<Value> a(args.take_front(p.TW));
                          std::deque<Value> win(args.begin() + p.TW,
                                                args.end());
                          Value owBase = le.mul(ch, kWidthUnroll);
                          for (int64_t u = 0; u < kWidthUnroll; ++u)
                            step(le, le.add(owBase, u), win, a);
                          SmallVector<Value> next(a);
                          next.append(win.begin(), win.end());
                          scf::YieldOp::create(lb, loc, next);
                        });
                    acc.assign(loop.getResults().begin(),
                               loop.getResults().begin() + p.TW);
                    window.assign(loop.getResults().begin() + p.TW,
                                  loop.getResults().end());
                  } else {
                    chunks = 0;
                  }
                  for (int64_t ow = chunks * kWidthUnroll; ow < OW; ++ow)
                    step(k, k.cst(ow), window, acc);
                  scf::YieldOp::create(ib, loc, acc);
                },
                [&](OpBuilder &ib, Location) {
                  scf::YieldOp::create(ib, loc, accs);
                });
            scf::YieldOp::create(rb, loc, ifRow.getResults());
          });

      return SmallVector<Value>(rowLoop.getResults());
    };
    SmallVector<Value> sums;
    if (active) {
      SmallVector<Type> types(p.TW, e.vec());
      auto ifOp = scf::IfOp::create(b, loc, types, active,
                                    /*withElseRegion=*/true);
      OpBuilder tb = ifOp.getThenBodyBuilder();
      scf::YieldOp::create(tb, loc, computeSums(tb));
      OpBuilder eb = ifOp.getElseBodyBuilder();
      Emitter ee{eb, loc, V};
      scf::YieldOp::create(eb, loc, SmallVector<Value>(p.TW, ee.zeros()));
      sums.assign(ifOp.getResults().begin(), ifOp.getResults().end());
    } else {
      sums = computeSums(b);
    }

    // Per-lane scalars; with the warp reduction, the zpw slices of a tile
    // in a warp (lanes 8 apart) are summed with butterfly shuffles.
    SmallVector<SmallVector<Value>> scalars(p.TW);
    for (int64_t i = 0; i < p.TW; ++i) {
      for (int64_t v = 0; v < V; ++v) {
        Value s = vector::ExtractOp::create(b, loc, sums[i],
                                            ArrayRef<int64_t>{v});
        for (int64_t off = kLanes; off < kLanes * zpw; off *= 2) {
          Value other = gpu::ShuffleOp::create(b, loc, s, int32_t(off), 32,
                                               gpu::ShuffleMode::XOR)
                            .getShuffleResult();
          s = arith::AddFOp::create(b, loc, s, other);
        }
        scalars[i].push_back(s);
      }
    }

    // Partial sums into the f32 buffer by the first slot of each group,
    // taps past FW dropped.
    Value adds = active;
    if (zpw > 1)
      adds = e.andi(adds, b.createOrFold<arith::CmpIOp>(
                              loc, arith::CmpIPredicate::eq, zInGroup,
                              e.cst(0)));
    emitIf(b, loc, adds, [&](OpBuilder &tb) {
      Emitter t{tb, loc, V};
      for (int64_t i = 0; i < p.TW; ++i) {
        Value fw = t.add(fw0, i);
        Value ok = p.tilesW * p.TW > FW ? t.lt(fw, FW) : Value();
        emitIf(tb, loc, ok, [&](OpBuilder &ab) {
          Emitter a{ab, loc, V};
          for (int64_t v = 0; v < V; ++v)
            memref::AtomicRMWOp::create(ab, loc, arith::AtomicRMWKind::addf,
                                        scalars[i][v], acc,
                                        ValueRange{fh, fw, a.add(c0, v)});
        });
      }
    });

    // 3. f16/bf16 filter gradients: round the f32 sums once.
    if (workspace) {
      emitVectorKernel(rewriter, loc, accElems / V, [&](OpBuilder &kb, Value i) {
        Emitter k{kb, loc, V};
        Value flat = k.mul(i, V);
        Value c = k.rem(flat, C), tap = k.div(flat, C);
        SmallVector<Value> at{k.div(tap, FW), k.rem(tap, FW), c};
        Value v = vector::LoadOp::create(kb, loc, k.vec(), acc, at,
                                         /*nontemporal=*/false, llvm::Align(16));
        Value r = arith::TruncFOp::create(kb, loc,
                                          k.vec(dwType.getElementType()), v);
        vector::StoreOp::create(kb, loc, r, dw, at, /*nontemporal=*/false,
                                llvm::Align(16));
      });
      rewriter.setInsertionPoint(op);
      memref::DeallocOp::create(rewriter, loc, acc);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct ConvertDwcToGPUBackwardFilterPass
    : dwc::impl::ConvertDwcToGPUBackwardFilterBase<
          ConvertDwcToGPUBackwardFilterPass> {
  using Base::Base;
  void runOnOperation() override {
    if (z < 0 || smCount <= 0 || maxTileWidth < 0 || warpReduceTaps < 0) {
      getOperation().emitError()
          << "convert-dwc-to-gpu-backward-filter: z, max-tile-width and "
             "warp-reduce-taps must be >= 0 and sm-count > 0";
      return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    patterns.add<SplitZBackwardFilterLowering>(&getContext(), z, smCount,
                                               maxTileWidth, warpReduceTaps);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
