//===- DwcToGPUBackwardFilter.cpp - depthwise filter gradient kernels -----===//
//
// Lowers eligible memref-form `dwc.depthwise_conv2d_backward_filter` ops to
// CUDA-core kernels that parallelise along the accumulation axis, with one
// of two strategies (the rule is documented in include/dwc/Conversion/
// Passes.td):
//  - streaming (small filters, FH*FW <= stream-max-taps): every thread owns
//    one 128-bit channel vector and all FH*FW taps in f32 registers and
//    streams blocks of R output rows (grid-stride over the N*OH rows, so
//    neighbouring rows are read at the same time and DRAM sees each byte
//    about once); per output column it loads R+FH-1 input vectors and R dY
//    vectors (height reuse) into a FW-column register window (width
//    reuse); the block sums its workers' results in shared memory and adds
//    them with one f32 atomic per tap and channel;
//  - split-z (larger filters): the N*OH rows of dY are split into Z slices,
//    every thread reduces one slice for one filter row x TW consecutive taps
//    x 128 bits of channels in f32 registers (width-first register window),
//    for small filters the 4 slices of a tile in a warp are summed with
//    shuffles, and the sums are added with f32 atomics. f16 inputs may
//    accumulate short runs of k columns with packed f16x2 FMAs that are
//    flushed into the f32 sums (option half-partial-steps).
// f16/bf16 filter gradients go through an f32 workspace and a conversion
// kernel.
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
/// Waves of fully resident threads the slice count aims at: more, shorter
/// slices balance the SMs better than the extra atomics cost
/// (docs/KernelSelection.md, "backward filter").
constexpr int64_t kTargetWaves = 4;
/// Most slices of a 16-bit split-z problem on strided dY (see makePlan).
constexpr int64_t kStridedMaxSlices = 256;
/// Output columns per unrolled step of the width loop.
constexpr int64_t kWidthUnroll = 8;
/// Work-unit slots per warp (32 / kLanes): with the warp reduction, the 4
/// slots of a warp take 4 consecutive slices of the same tap tile and sum
/// their partial results with shuffles before one of them adds atomically.
constexpr int64_t kSlotsPerWarp = 32 / kLanes;
/// Threads of the zero-fill and conversion kernels.
constexpr int64_t kSmallBlock = 256;

/// Streaming strategy: channel vectors per block at most (64 x 128 bits = 1
/// KiB of a position, f32) and the registers the estimate adds for
/// addresses and loop state (the register file and resident threads of an
/// SM come from #dwc.target).
constexpr int64_t kStreamLanes = 64;
constexpr int64_t kStreamRegisterOverhead = 48;
/// Columns per unrolled step of the streaming width loop.
constexpr int64_t kStreamWidthUnroll = 4;

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
              Type elem, int64_t zOption, dwc::TargetAttr target,
              int64_t maxTileWidth, int64_t slicesPerWarp,
              bool strided = false) {
  Plan p;
  p.V = channelsPerThread(elem);
  p.groups = (C + kLanes * p.V - 1) / (kLanes * p.V);
  int64_t maxTW = maxTileWidth > 0 ? maxTileWidth : (elem.isF32() ? 17 : 6);
  p.tilesW = (FW + maxTW - 1) / maxTW;
  p.TW = (FW + p.tilesW - 1) / p.tilesW;
  p.tiles = FH * p.tilesW;
  p.rows = N * OH;
  int64_t threadsPerSlice = p.groups * kLanes * p.tiles;
  int64_t z = zOption;
  if (z <= 0) {
    // kTargetWaves waves of resident threads at full occupancy.
    int64_t resident =
        kTargetWaves * target.getSmCount() * target.getThreadsPerSm();
    z = (resident + threadsPerSlice - 1) / threadsPerSlice;
    // 16-bit strided dY (small maps, short slices): at most
    // kStridedMaxSlices, 64 atomic adds per dW element after the warp
    // reduction; one row per slice made the atomics the bottleneck.
    if (strided && !elem.isF32())
      z = std::min(z, kStridedMaxSlices);
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

/// How the streaming kernel splits the work; see the pass description.
struct StreamPlan {
  int64_t V;            // channels per thread (128 bits)
  int64_t vectors;      // C / V channel vectors
  int64_t lanes;        // channel vectors per block
  int64_t groups;       // channel groups (blocks along the channels)
  int64_t workersPerBlock;
  int64_t threads;      // lanes * workersPerBlock
  int64_t R;            // output rows per step
  int64_t rowBlocksPerImage;
  int64_t rowBlocks;    // N * ceil(OH / R)
  int64_t regs;         // estimated registers per thread
  int64_t blocksPerSM;  // resident blocks per SM at that estimate
  int64_t workers;      // row-block workers per channel group (grid stride)
  int64_t blocksPerGroup;
  int64_t blocks;
};

StreamPlan makeStreamPlan(int64_t N, int64_t OH, int64_t C, int64_t FH,
                          int64_t FW, int64_t sh, Type elem,
                          int64_t rowsPerStep,
                          int64_t blockThreads, int64_t zOption,
                          dwc::TargetAttr target) {
  StreamPlan s;
  s.V = channelsPerThread(elem);
  s.vectors = C / s.V;
  s.lanes = std::min({s.vectors, kStreamLanes, blockThreads});
  s.groups = (s.vectors + s.lanes - 1) / s.lanes;
  s.workersPerBlock = blockThreads / s.lanes;
  s.threads = s.lanes * s.workersPerBlock;
  s.R = rowsPerStep > 0 ? rowsPerStep : (elem.isF32() ? 3 : 2);
  s.R = std::clamp<int64_t>(s.R, 1, OH);
  s.rowBlocksPerImage = (OH + s.R - 1) / s.R;
  s.rowBlocks = N * s.rowBlocksPerImage;
  // Registers: FH*FW accumulators, the FW-column window of (R-1)*sh+FH
  // input vectors, R dY vectors (all f32), plus addresses and loop state.
  s.regs = (FH * FW + FW * ((s.R - 1) * sh + FH) + s.R) * s.V +
           kStreamRegisterOverhead;
  int64_t perBlock = (s.regs + 7) / 8 * 8 * s.threads;
  s.blocksPerSM =
      std::clamp<int64_t>(target.getRegistersPerSm() / perBlock, 1,
                          target.getThreadsPerSm() / s.threads);
  // One wave of resident blocks (every worker streams at the same time),
  // then as many workers as keep the row blocks per worker equal.
  int64_t maxWorkers =
      zOption > 0 ? zOption
                  : std::max<int64_t>(1, target.getSmCount() *
                                             s.blocksPerSM / s.groups) *
                        s.workersPerBlock;
  maxWorkers = std::clamp<int64_t>(maxWorkers, 1, s.rowBlocks);
  int64_t iters = (s.rowBlocks + maxWorkers - 1) / maxWorkers;
  s.workers = (s.rowBlocks + iters - 1) / iters;
  s.blocksPerGroup = (s.workers + s.workersPerBlock - 1) / s.workersPerBlock;
  s.blocks = s.groups * s.blocksPerGroup;
  return s;
}

/// Whether strided dY (sh > 1) takes the streaming kernel rather than
/// split-z: its N*ceil(OH/R) row blocks are the only parallelism, and it
/// pays for 16-bit inputs on grids of at least a quarter of the SMs (f32
/// takes split-z; docs/KernelSelection.md, "backward filter").
bool streamsStrided(const StreamPlan &s, Type elem, int64_t smCount) {
  return !elem.isF32() && 4 * s.blocks >= smCount;
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
  if (llvm::any_of(op.getStrides(), [](int64_t s) { return s < 1; }))
    return "stride is not positive";
  if (llvm::any_of(op.getDilations(), [](int64_t d) { return d != 1; }))
    return "dilation is not 1";
  if (in.getShape()[3] % channelsPerThread(in.getElementType()) != 0)
    return "channel count is not a multiple of 128 bits";
  for (Value v : op->getOperands())
    if (!cast<MemRefType>(v.getType()).getLayout().isIdentity())
      return "non-identity layout";
  if (llvm::any_of(in.getShape(), [](int64_t d) { return d <= 0; }))
    return "empty input";
  auto og = cast<MemRefType>(op.getOutputGrad().getType()).getShape();
  if (llvm::any_of(og, [](int64_t d) { return d <= 0; }))
    return "empty output gradient";
  return "";
}

/// Index arithmetic and vector helpers (memory holds `vw` elements per
/// thread, arithmetic is f32).
using Emitter = F32VectorEmitter;

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
  auto [launch, b] = createGridLaunch(rewriter, loc, blocks, 1, kSmallBlock);
  Emitter e{b, loc, 1};
  Value gid = e.add(e.mul(launch.getBlockIds().x, kSmallBlock),
                    launch.getThreadIds().x);
  emitIf(b, loc, count % kSmallBlock ? e.lt(gid, count) : Value(),
         [&](OpBuilder &ib) { body(ib, gid); });
}

/// Shapes of a backward-filter problem.
struct Dims {
  int64_t N, IH, IW, C, FH, FW, OH, OW, pt, pl, sh, sw;
};

/// Floor and ceiling of a / b for b > 0 (a may be negative).
int64_t floorDiv(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}
int64_t ceilDiv(int64_t a, int64_t b) { return -floorDiv(-a, b); }

/// The streaming kernel: sums of X x dY over all rows into the f32 buffer
/// `acc` (zeroed before), one atomic per tap and channel per block (or per
/// thread without `blockReduce`).
void emitStreamKernel(RewriterBase &rewriter, Location loc, Value x, Value dy,
                      Value acc, const Dims &d, const StreamPlan &s,
                      bool blockReduce) {
  const int64_t V = s.V, R = s.R, FH = d.FH, FW = d.FW, taps = FH * FW;
  const int64_t sh = d.sh, sw = d.sw;
  const int64_t inRows = (R - 1) * sh + FH;
  // Window columns an output column shares with the next (FW - 1 at
  // stride 1); each step loads the other FW - keep.
  const int64_t keep = std::max<int64_t>(FW - sw, 0);
  auto [launch, b] = createGridLaunch(rewriter, loc, s.blocks, 1, s.threads);
  Type f32 = rewriter.getF32Type();
  Value smem;
  if (blockReduce) {
    auto wg = gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                         gpu::AddressSpace::Workgroup);
    smem = launch.addWorkgroupAttribution(
        MemRefType::get({s.threads, V}, f32, AffineMap(), wg), loc);
  }
  Emitter e{b, loc, V};
  Value tid = launch.getThreadIds().x, bid = launch.getBlockIds().x;
  Value lane = e.rem(tid, s.lanes), worker = e.div(tid, s.lanes);
  Value group = e.rem(bid, s.groups), blockInGroup = e.div(bid, s.groups);
  Value c0 = e.mul(e.add(e.mul(group, s.lanes), lane), V);
  Value w = e.add(e.mul(blockInGroup, s.workersPerBlock), worker);
  Value chanOk;
  if (s.groups * s.lanes != s.vectors)
    chanOk = e.lt(c0, d.C);
  // Threads past the channels and workers past `workers` stream nothing.
  Value streams = chanOk;
  if (s.blocksPerGroup * s.workersPerBlock != s.workers)
    streams = e.andi(streams, e.lt(w, s.workers));
  Value end = e.cst(s.rowBlocks);
  if (streams)
    end = arith::SelectOp::create(b, loc, streams, end, e.cst(0));

  SmallVector<Value> init(taps, e.zeros());
  auto rowLoop = scf::ForOp::create(
      b, loc, w, end, e.cst(s.workers), init,
      [&](OpBuilder &rb, Location, Value blk, ValueRange sums) {
        Emitter re{rb, loc, V};
        Value n = re.div(blk, s.rowBlocksPerImage);
        Value oh0 = re.mul(re.rem(blk, s.rowBlocksPerImage), R);
        Value ih0 = re.add(re.mul(oh0, sh), -d.pt);
        // All R+FH-1 input rows inside the image and all R output rows
        // inside dY: no per-load row checks.
        Value interior = re.andi(re.ge(ih0, 0), re.lt(ih0, d.IH - inRows + 1));
        if (d.OH % R != 0)
          interior = re.andi(interior, re.lt(oh0, d.OH - R + 1));

        // The row block with (checked) or without row predicates.
        auto emitRowBlock = [&](OpBuilder &ib, bool checked) {
          Emitter k{ib, loc, V};
          SmallVector<Value> ih(inRows), ihOk(inRows), oh(R), ohOk(R);
          for (int64_t j = 0; j < inRows; ++j) {
            Value i = k.add(ih0, j);
            ihOk[j] = checked ? k.andi(k.ge(i, 0), k.lt(i, d.IH)) : Value();
            ih[j] = checked ? k.clamp(i, 0, d.IH - 1) : i;
          }
          for (int64_t r = 0; r < R; ++r) {
            Value o = k.add(oh0, r);
            ohOk[r] = checked && d.OH % R ? k.lt(o, d.OH) : Value();
            oh[r] = ohOk[r] ? k.minc(o, d.OH - 1) : o;
          }
          // Input column `iw` of the R+FH-1 rows (zero outside the image).
          auto loadColumn = [&](Emitter &le, Value iw, bool colChecked) {
            Value colOk, iwc = iw;
            if (colChecked) {
              colOk = le.andi(le.ge(iw, 0), le.lt(iw, d.IW));
              iwc = le.clamp(iw, 0, d.IW - 1);
            }
            SmallVector<Value> col;
            for (int64_t j = 0; j < inRows; ++j) {
              Value v = le.load(x, ValueRange{n, ih[j], iwc, c0});
              Value ok = le.andi(ihOk[j], colOk);
              col.push_back(ok ? arith::SelectOp::create(le.b, loc, ok, v,
                                                         le.zeros())
                               : v);
            }
            return col;
          };
          // One output column `ow`: FW - keep new input columns enter the
          // window, R dY vectors, R*FH*FW FMAs.
          auto step = [&](Emitter &se, Value ow, bool colChecked,
                          std::deque<SmallVector<Value>> &window,
                          SmallVector<Value> &a) {
            Value iw0 = se.add(se.mul(ow, sw), -d.pl);
            for (int64_t j = keep; j < FW; ++j)
              window.push_back(loadColumn(se, se.add(iw0, j), colChecked));
            SmallVector<Value> g;
            for (int64_t r = 0; r < R; ++r) {
              Value v = se.load(dy, ValueRange{n, oh[r], ow, c0});
              g.push_back(ohOk[r] ? arith::SelectOp::create(se.b, loc, ohOk[r],
                                                            v, se.zeros())
                                  : v);
            }
            for (int64_t r = 0; r < R; ++r)
              for (int64_t fh = 0; fh < FH; ++fh)
                for (int64_t fw = 0; fw < FW; ++fw)
                  a[fh * FW + fw] = vector::FMAOp::create(
                      se.b, loc, window[fw][r * sh + fh], g[r],
                      a[fh * FW + fw]);
            for (int64_t j = keep; j < FW; ++j)
              window.pop_front();
          };
          std::deque<SmallVector<Value>> window;
          for (int64_t j = 0; j < keep; ++j)
            window.push_back(loadColumn(k, k.cst(j - d.pl), true));
          SmallVector<Value> a(sums);
          // Columns whose new input column is inside the image need no
          // column check: [lo, hi).
          int64_t lo = std::max<int64_t>(0, ceilDiv(d.pl - keep, sw));
          int64_t hi = std::min<int64_t>(
              d.OW, floorDiv(d.IW - FW + d.pl, sw) + 1);
          int64_t ow = 0;
          for (; ow < std::min(lo, d.OW); ++ow)
            step(k, k.cst(ow), true, window, a);
          int64_t chunks = hi > lo ? (hi - lo) / kStreamWidthUnroll : 0;
          if (chunks > 1) {
            SmallVector<Value> carried(a);
            for (auto &col : window)
              carried.append(col.begin(), col.end());
            auto loop = scf::ForOp::create(
                ib, loc, k.cst(0), k.cst(chunks), k.cst(1), carried,
                [&](OpBuilder &lb, Location, Value ch, ValueRange args) {
                  Emitter le{lb, loc, V};
                  SmallVector<Value> la(args.take_front(taps));
                  std::deque<SmallVector<Value>> win;
                  for (int64_t j = 0; j < keep; ++j)
                    win.emplace_back(args.begin() + taps + j * inRows,
                                     args.begin() + taps + (j + 1) * inRows);
                  Value base = le.add(le.mul(ch, kStreamWidthUnroll), lo);
                  for (int64_t u = 0; u < kStreamWidthUnroll; ++u)
                    step(le, le.add(base, u), false, win, la);
                  SmallVector<Value> next(la);
                  for (auto &col : win)
                    next.append(col.begin(), col.end());
                  scf::YieldOp::create(lb, loc, next);
                });
            ValueRange res = loop.getResults();
            a.assign(res.begin(), res.begin() + taps);
            for (int64_t j = 0; j < keep; ++j)
              window[j].assign(res.begin() + taps + j * inRows,
                               res.begin() + taps + (j + 1) * inRows);
            ow = lo + chunks * kStreamWidthUnroll;
          }
          for (; ow < d.OW; ++ow)
            step(k, k.cst(ow), ow < lo || ow >= hi, window, a);
          scf::YieldOp::create(ib, loc, a);
        };
        SmallVector<Type> types(taps, re.vec());
        auto ifOp = scf::IfOp::create(rb, loc, types, interior,
                                      /*withElseRegion=*/true);
        OpBuilder tb = ifOp.getThenBodyBuilder();
        emitRowBlock(tb, /*checked=*/false);
        OpBuilder eb = ifOp.getElseBodyBuilder();
        emitRowBlock(eb, /*checked=*/true);
        scf::YieldOp::create(rb, loc, ifOp.getResults());
      });
  SmallVector<Value> sums(rowLoop.getResults());

  // Adds a vector of sums for tap `t` at channel c0 atomically.
  auto addAtomically = [&](OpBuilder &ab, int64_t t, Value v) {
    Emitter a{ab, loc, V};
    for (int64_t i = 0; i < V; ++i) {
      Value sc = vector::ExtractOp::create(ab, loc, v, ArrayRef<int64_t>{i});
      memref::AtomicRMWOp::create(
          ab, loc, arith::AtomicRMWKind::addf, sc, acc,
          ValueRange{a.cst(t / FW), a.cst(t % FW), a.add(c0, i)});
    }
  };
  if (!blockReduce) {
    emitIf(b, loc, chanOk, [&](OpBuilder &tb) {
      for (int64_t t = 0; t < taps; ++t)
        addAtomically(tb, t, sums[t]);
    });
    return;
  }
  // Block reduction, one tap at a time: every thread stores its vector,
  // the first worker of each channel lane sums the block's workers and adds
  // the sum atomically.
  Value first = e.eq(worker, 0);
  if (chanOk)
    first = e.andi(first, chanOk);
  for (int64_t t = 0; t < taps; ++t) {
    vector::StoreOp::create(b, loc, sums[t], smem, ValueRange{tid, e.cst(0)});
    gpu::BarrierOp::create(b, loc);
    emitIf(b, loc, first, [&](OpBuilder &tb) {
      Emitter k{tb, loc, V};
      auto loop = scf::ForOp::create(
          tb, loc, k.cst(0), k.cst(s.workersPerBlock), k.cst(1),
          ValueRange{k.zeros()},
          [&](OpBuilder &lb, Location, Value wi, ValueRange args) {
            Emitter le{lb, loc, V};
            Value v = vector::LoadOp::create(
                lb, loc, le.vec(), smem,
                ValueRange{le.add(le.mul(wi, s.lanes), lane), le.cst(0)});
            scf::YieldOp::create(
                lb, loc, ValueRange{arith::AddFOp::create(lb, loc, args[0], v)});
          });
      addAtomically(tb, t, loop.getResult(0));
    });
    gpu::BarrierOp::create(b, loc);
  }
}

struct SplitZBackwardFilterLowering
    : OpRewritePattern<DepthwiseConv2DBackwardFilterOp> {
  SplitZBackwardFilterLowering(MLIRContext *ctx, int64_t z,
                               dwc::TargetAttr target,
                               int64_t maxTileWidth, int64_t warpReduceTaps,
                               int64_t streamMaxTaps, int64_t rowsPerStep,
                               int64_t streamBlockThreads,
                               int64_t halfPartialSteps)
      : OpRewritePattern(ctx, /*benefit=*/2), zOption(z), target(target),
        maxTileWidth(maxTileWidth), warpReduceTaps(warpReduceTaps),
        streamMaxTaps(streamMaxTaps), rowsPerStep(rowsPerStep),
        streamBlockThreads(streamBlockThreads),
        halfPartialSteps(halfPartialSteps) {}
  int64_t zOption;
  dwc::TargetAttr target;
  int64_t maxTileWidth, warpReduceTaps, streamMaxTaps,
      rowsPerStep, streamBlockThreads, halfPartialSteps;

  LogicalResult matchAndRewrite(DepthwiseConv2DBackwardFilterOp op,
                                PatternRewriter &rewriter) const override {
    if (hasOtherKernel(op, ""))
      return rewriter.notifyMatchFailure(op, "dwc.kernel names another kernel");
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
    int64_t sh = op.getStrides()[0], sw = op.getStrides()[1];
    Type elem = cast<MemRefType>(x.getType()).getElementType();
    // Small filters: few FMAs per atomic, the warp reduction pays. Large
    // ones: the slots of a warp take different tap tiles of the same rows
    // instead (their dY loads are one broadcast, L1 traffic is the limit).
    const int64_t zpw = FH * FW <= warpReduceTaps ? kSlotsPerWarp : 1;
    // f16 inputs of the split-z kernel: packed f16x2 FMAs over runs of
    // `halfSteps` columns, flushed into the f32 sums (0: f32 FMAs).
    const int64_t halfSteps = elem.isF16() ? halfPartialSteps : 0;
    int64_t tileWidth = maxTileWidth;
    if (tileWidth == 0 && halfSteps > 0)
      tileWidth = 9; // f16 window and partial sums take half the registers
    Plan p = makePlan(N, OH, C, FH, FW, elem, zOption, target, tileWidth,
                      zpw, sh * sw > 1);
    StreamPlan sp =
        makeStreamPlan(N, OH, C, FH, FW, sh, elem, rowsPerStep,
                       streamBlockThreads,
                       zOption, target);
    const bool stream =
        FH * FW <= streamMaxTaps &&
        (sh == 1 || streamsStrided(sp, elem, target.getSmCount()));
    if ((stream ? sp.blocks : p.blocks) > std::numeric_limits<int32_t>::max())
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

    // 2. Partial sums, atomically added: the streaming kernel for small
    // filters (a block reduction unless cross-thread operations are off,
    // warp-reduce-taps=0), else the split-z kernel.
    if (stream) {
      emitStreamKernel(rewriter, loc, x, dy, acc,
                       Dims{N, IH, IW, C, FH, FW, OH, OW, pt, pl, sh, sw}, sp,
                       /*blockReduce=*/warpReduceTaps > 0);
    } else {
    auto [launch, b] = createGridLaunch(rewriter, loc, p.blocks, 1, kThreads);
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
      // Window vectors an output column shares with the next.
      const int64_t keep = std::max<int64_t>(p.TW - sw, 0);
      auto rowLoop = scf::ForOp::create(
          tb, loc, r0, r1, t.cst(1), accInit,
          [&](OpBuilder &rb, Location, Value r, ValueRange accs) {
            Emitter re{rb, loc, V};
            Value n = re.div(r, OH), oh = re.rem(r, OH);
            Value ih = re.add(re.add(re.mul(oh, sh), fh), -pt);
            Value rowOk = re.andi(re.ge(ih, 0), re.lt(ih, IH));
            auto ifRow = scf::IfOp::create(
                rb, loc, rowOk,
                [&](OpBuilder &ib, Location) {
                  Emitter k{ib, loc, V};
                  // With half partial sums the window and dY stay f16.
                  const bool half = halfSteps > 0;
                  const int64_t unroll = half ? halfSteps : kWidthUnroll;
                  VectorType halfVec = k.vec(elem);
                  auto halfZeros = [&](OpBuilder &hb) -> Value {
                    return arith::ConstantOp::create(
                        hb, loc,
                        DenseElementsAttr::get(halfVec,
                                               hb.getF16FloatAttr(0.0f)));
                  };
                  auto loadVec = [&](Emitter &le, Value mem,
                                     ValueRange idx) -> Value {
                    if (!half)
                      return le.load(mem, idx);
                    return vector::LoadOp::create(le.b, loc, halfVec, mem, idx,
                                                  /*nontemporal=*/false,
                                                  llvm::Align(16));
                  };
                  // X[n, ih, iw, c0..] at iw = iwBase + j: a clamped
                  // in-bounds load, zero outside the input row.
                  auto loadInput = [&](Emitter &le, Value j) -> Value {
                    Value iw = le.add(iwBase, j);
                    Value valid = le.andi(le.ge(iw, 0), le.lt(iw, IW));
                    Value v = loadVec(
                        le, x, ValueRange{n, ih, le.clamp(iw, 0, IW - 1), c0});
                    return arith::SelectOp::create(
                        le.b, loc, valid, v,
                        half ? halfZeros(le.b) : le.zeros());
                  };
                  // One output column: TW - keep new input vectors enter
                  // the window (one at stride 1), each of the TW taps
                  // takes one FMA (into the f16 partial sums `part` or the
                  // f32 sums).
                  auto step = [&](Emitter &se, Value ow,
                                  std::deque<Value> &window,
                                  SmallVector<Value> &part) {
                    Value j0 = se.mul(ow, sw);
                    for (int64_t j = keep; j < p.TW; ++j)
                      window.push_back(loadInput(se, se.add(j0, j)));
                    Value g = loadVec(se, dy, ValueRange{n, oh, ow, c0});
                    for (int64_t i = 0; i < p.TW; ++i)
                      part[i] = vector::FMAOp::create(se.b, loc, window[i], g,
                                                      part[i]);
                    for (int64_t j = keep; j < p.TW; ++j)
                      window.pop_front();
                  };
                  // Columns [ow0, ow0 + count) starting at `owBase`: f32
                  // FMAs, or packed f16 FMAs flushed into `acc` once.
                  auto run = [&](Emitter &re2, Value owBase, int64_t count,
                                 std::deque<Value> &window,
                                 SmallVector<Value> &acc) {
                    if (!half) {
                      for (int64_t u = 0; u < count; ++u)
                        step(re2, re2.add(owBase, u), window, acc);
                      return;
                    }
                    SmallVector<Value> part(p.TW, halfZeros(re2.b));
                    for (int64_t u = 0; u < count; ++u)
                      step(re2, re2.add(owBase, u), window, part);
                    for (int64_t i = 0; i < p.TW; ++i)
                      acc[i] = arith::AddFOp::create(
                          re2.b, loc, acc[i],
                          arith::ExtFOp::create(re2.b, loc, re2.vec(),
                                                part[i]));
                  };
                  std::deque<Value> window;
                  for (int64_t j = 0; j < keep; ++j)
                    window.push_back(loadInput(k, k.cst(j)));
                  SmallVector<Value> acc(accs);
                  int64_t chunks = OW / unroll;
                  if (chunks > 1) {
                    // Chunks of `unroll` columns; the window and the
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
                          run(le, le.mul(ch, unroll), unroll, win, a);
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
                  // The remaining columns, in runs of at most `unroll`.
                  for (int64_t ow = chunks * unroll; ow < OW; ow += unroll)
                    run(k, k.cst(ow), std::min(unroll, OW - ow), window, acc);
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

    } // split-z

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
    if (z < 0 || maxTileWidth < 0 || warpReduceTaps < 0 ||
        streamMaxTaps < 0 || streamMaxTaps > 49 || maxTileWidth > 17 ||
        rowsPerStep < 0 || rowsPerStep > 16 || halfPartialSteps < 0 ||
        halfPartialSteps > 16 || streamBlockThreads < 32 ||
        streamBlockThreads > 1024) {
      // (The streaming kernel unrolls its taps and rows, the split-z kernel
      // its tile: larger values only make ptxas run for minutes.)
      getOperation().emitError()
          << "convert-dwc-to-gpu-backward-filter: z, max-tile-width, "
             "warp-reduce-taps, stream-max-taps and rows-per-step must be "
             ">= 0, half-partial-steps in [0, 16], stream-block-threads in "
             "[32, 1024], stream-max-taps at most 49, max-tile-width at "
             "most 17 and rows-per-step at most 16";
      return signalPassFailure();
    }
    // Work splitting fills the target's SMs (#dwc.target).
    dwc::TargetAttr target = dwc::TargetAttr::lookup(getOperation());
    RewritePatternSet patterns(&getContext());
    patterns.add<SplitZBackwardFilterLowering>(
        &getContext(), z, target, maxTileWidth, warpReduceTaps, streamMaxTaps,
        rowsPerStep, streamBlockThreads, halfPartialSteps);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
