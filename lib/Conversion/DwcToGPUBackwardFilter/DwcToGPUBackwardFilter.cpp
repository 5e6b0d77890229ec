//===- DwcToGPUBackwardFilter.cpp - depthwise filter gradient kernels -----===//
//
// Lowers the memref-form `dwc.depthwise_conv2d_backward_filter` ops whose
// dwc.kernel is a #dwc.bwd_filter_stream or #dwc.bwd_filter_split_z (chosen
// by dwc-select-kernels) to CUDA-core kernels that parallelise along the
// accumulation axis (the rule is documented in include/dwc/Conversion/
// Passes.td, the work splitting in BackwardFilterPlan.h):
//  - streaming (small filters): every thread owns one 128-bit channel
//    vector and all FH*FW taps in f32 registers and streams blocks of R
//    output rows (grid-stride over the N*OH rows, so neighbouring rows are
//    read at the same time and DRAM sees each byte about once); per output
//    column it loads R+FH-1 input vectors and R dY vectors (height reuse)
//    into a FW-column register window (width reuse); the block sums its
//    workers' results in shared memory and adds them with one f32 atomic
//    per tap and channel;
//  - split-z (larger filters): the N*OH rows of dY are split into Z slices,
//    every thread reduces one slice for one filter row x TW consecutive taps
//    x 128 bits of channels in f32 registers (width-first register window),
//    for small filters the 4 slices of a tile in a warp are summed with
//    shuffles, and the sums are added with f32 atomics. f16 inputs may
//    accumulate short runs of k columns with packed f16x2 FMAs that are
//    flushed into the f32 sums (half_steps).
//  - taps (#dwc.bwd_filter_taps, stride 1, small filters): a thread owns a
//    channel vector and all FH*FW taps for a band of output rows x
//    columns, walks its input rows with global loads (the FH newest dY
//    segments in registers); the block's bands are summed in shared memory
//    into per-block workspace slices, added in order by the image kernel's
//    slice reduction.
// f16/bf16 filter gradients go through an f32 workspace and a conversion
// kernel.
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/AsyncCopyPipeline.h"
#include "dwc/Conversion/BackwardFilterPlan.h"
#include "dwc/Conversion/KernelSelection.h"
#include "dwc/Conversion/Passes.h"
#include "dwc/Conversion/IndexEmitter.h"
#include "dwc/Conversion/KernelPass.h"
#include "dwc/Conversion/LaunchBuilder.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include <cmath>
#include <deque>
#include <limits>

namespace mlir::dwc {
#define GEN_PASS_DEF_CONVERTDWCTOGPUBACKWARDFILTER
#include "dwc/Conversion/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;
using namespace mlir::dwc;
using namespace mlir::dwc::bwd_filter;

namespace {

/// Output columns per unrolled step of the split-z width loop.
constexpr int64_t kWidthUnroll = 8;
/// Threads of the zero-fill and conversion kernels.
constexpr int64_t kSmallBlock = 256;
/// Columns per unrolled step of the streaming width loop.
constexpr int64_t kStreamWidthUnroll = 4;

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
/// `body(builder, linear vector index)`; named `<func>_<family>_<role>`.
void emitVectorKernel(RewriterBase &rewriter, Location loc, int64_t count,
                      StringRef family, StringRef role,
                      function_ref<void(OpBuilder &, Value)> body) {
  int64_t blocks = (count + kSmallBlock - 1) / kSmallBlock;
  auto [launch, b] = createGridLaunch(rewriter, loc, blocks, 1, kSmallBlock);
  Emitter e{b, loc, 1};
  Value gid = e.add(e.mul(launch.getBlockIds().x, kSmallBlock),
                    launch.getThreadIds().x);
  emitIf(b, loc, count % kSmallBlock ? e.lt(gid, count) : Value(),
         [&](OpBuilder &ib) { body(ib, gid); });
  nameKernel(launch, family, role);
}

/// Floor and ceiling of a / b for b > 0 (a may be negative).
int64_t floorDiv(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}
int64_t ceilDiv(int64_t a, int64_t b) { return -floorDiv(-a, b); }

//===----------------------------------------------------------------------===//
// The streaming kernel
//===----------------------------------------------------------------------===//

/// One step of a sliding-window loop at position `j`: updates the window
/// (same number and sizes of segments before and after) and the sums.
using WindowStepFn =
    function_ref<void(Emitter &, Value, std::deque<SmallVector<Value>> &,
                      SmallVector<Value> &)>;

/// `chunks` iterations of `unroll` steps (positions lo + chunk * unroll + u)
/// in an scf.for carrying the sums `acc` and the window's segments; `acc`
/// and `window` become the loop's results.
void emitWindowLoop(Emitter &e, Location loc, int64_t lo, int64_t chunks,
                    int64_t unroll, std::deque<SmallVector<Value>> &window,
                    SmallVector<Value> &acc, WindowStepFn step) {
  const size_t n = acc.size();
  SmallVector<size_t> sizes;
  SmallVector<Value> carried(acc);
  for (auto &seg : window) {
    sizes.push_back(seg.size());
    carried.append(seg.begin(), seg.end());
  }
  // The flat carried values -> sums and window.
  auto unpack = [&](ValueRange vals, SmallVector<Value> &a,
                    std::deque<SmallVector<Value>> &win) {
    a.assign(vals.begin(), vals.begin() + n);
    win.clear();
    size_t at = n;
    for (size_t sz : sizes) {
      win.emplace_back(vals.begin() + at, vals.begin() + at + sz);
      at += sz;
    }
  };
  auto loop = scf::ForOp::create(
      e.b, loc, e.cst(0), e.cst(chunks), e.cst(1), carried,
      [&](OpBuilder &lb, Location, Value ch, ValueRange args) {
        Emitter le{lb, loc, e.vw};
        SmallVector<Value> a;
        std::deque<SmallVector<Value>> win;
        unpack(args, a, win);
        Value j0 = le.add(le.mul(ch, unroll), lo);
        for (int64_t u = 0; u < unroll; ++u)
          step(le, le.add(j0, u), win, a);
        SmallVector<Value> next(a);
        for (auto &seg : win)
          next.append(seg.begin(), seg.end());
        scf::YieldOp::create(lb, loc, next);
      });
  unpack(loop.getResults(), acc, window);
}

/// One row block of the streaming kernel: R output rows, their
/// (R-1)*sh+FH input rows, with (`checked`) or without row predicates.
struct StreamRowBlock {
  const Dims &d;
  const StreamPlan &s;
  Location loc;
  Value x, dy, n, c0;
  bool checked;
  int64_t inRows, keep;
  SmallVector<Value> ih, ihOk, oh, ohOk;

  /// Input column `iw` of the input rows (zero outside the image).
  SmallVector<Value> loadColumn(Emitter &le, Value iw, bool colChecked) {
    Value colOk, iwc = iw;
    if (colChecked) {
      colOk = le.andi(le.ge(iw, 0), le.lt(iw, d.IW));
      iwc = le.clamp(iw, 0, d.IW - 1);
    }
    SmallVector<Value> col;
    for (int64_t j = 0; j < inRows; ++j) {
      Value v = le.load(x, ValueRange{n, ih[j], iwc, c0});
      Value ok = le.andi(ihOk[j], colOk);
      col.push_back(
          ok ? arith::SelectOp::create(le.b, loc, ok, v, le.zeros()) : v);
    }
    return col;
  }
  void step(Emitter &se, Value ow, bool colChecked,
            std::deque<SmallVector<Value>> &window, SmallVector<Value> &a);
  void columnChunks(Emitter &k, int64_t lo, int64_t chunks,
                    std::deque<SmallVector<Value>> &window,
                    SmallVector<Value> &a);
  void emit(OpBuilder &ib, Value ih0, Value oh0, ValueRange sums);
};

/// One output column `ow`: FW - keep new input columns enter the window, R
/// dY vectors, R*FH*FW FMAs.
void StreamRowBlock::step(Emitter &se, Value ow, bool colChecked,
                          std::deque<SmallVector<Value>> &window,
                          SmallVector<Value> &a) {
  const int64_t R = s.R, FH = d.FH, FW = d.FW;
  Value iw0 = se.add(se.mul(ow, d.sw), -d.pl);
  for (int64_t j = keep; j < FW; ++j)
    window.push_back(loadColumn(se, se.add(iw0, j), colChecked));
  SmallVector<Value> g;
  for (int64_t r = 0; r < R; ++r) {
    Value v = se.load(dy, ValueRange{n, oh[r], ow, c0});
    g.push_back(ohOk[r] ? arith::SelectOp::create(se.b, loc, ohOk[r], v,
                                                  se.zeros())
                        : v);
  }
  for (int64_t r = 0; r < R; ++r)
    for (int64_t fh = 0; fh < FH; ++fh)
      for (int64_t fw = 0; fw < FW; ++fw)
        a[fh * FW + fw] = vector::FMAOp::create(
            se.b, loc, window[fw][r * d.sh + fh], g[r], a[fh * FW + fw]);
  for (int64_t j = keep; j < FW; ++j)
    window.pop_front();
}

/// `chunks` steps of kStreamWidthUnroll columns from column `lo` (no column
/// checks), the sums and the window carried through a loop.
void StreamRowBlock::columnChunks(Emitter &k, int64_t lo, int64_t chunks,
                                  std::deque<SmallVector<Value>> &window,
                                  SmallVector<Value> &a) {
  emitWindowLoop(k, loc, lo, chunks, kStreamWidthUnroll, window, a,
                 [&](Emitter &le, Value ow, auto &win, auto &sums) {
                   step(le, ow, false, win, sums);
                 });
}

/// The row block starting at input row `ih0` and output row `oh0`, adding
/// to `sums`; yields the new sums.
void StreamRowBlock::emit(OpBuilder &ib, Value ih0, Value oh0,
                          ValueRange sums) {
  Emitter k{ib, loc, s.V};
  const int64_t R = s.R;
  ih.resize(inRows);
  ihOk.resize(inRows);
  oh.resize(R);
  ohOk.resize(R);
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
  std::deque<SmallVector<Value>> window;
  for (int64_t j = 0; j < keep; ++j)
    window.push_back(loadColumn(k, k.cst(j - d.pl), true));
  SmallVector<Value> a(sums);
  // Columns whose new input column is inside the image need no column
  // check: [lo, hi).
  int64_t lo = std::max<int64_t>(0, ceilDiv(d.pl - keep, d.sw));
  int64_t hi =
      std::min<int64_t>(d.OW, floorDiv(d.IW - d.FW + d.pl, d.sw) + 1);
  int64_t ow = 0;
  for (; ow < std::min(lo, d.OW); ++ow)
    step(k, k.cst(ow), true, window, a);
  int64_t chunks = hi > lo ? (hi - lo) / kStreamWidthUnroll : 0;
  if (chunks > 1) {
    columnChunks(k, lo, chunks, window, a);
    ow = lo + chunks * kStreamWidthUnroll;
  }
  for (; ow < d.OW; ++ow)
    step(k, k.cst(ow), ow < lo || ow >= hi, window, a);
  scf::YieldOp::create(ib, loc, a);
}

/// The streaming kernel's thread: its channel vector and first row block,
/// and the block reduction of its sums.
struct StreamKernel {
  const Dims &d;
  const StreamPlan &s;
  Location loc;
  Value x, dy, acc;
  bool blockReduce;
  gpu::LaunchOp launch;
  Value smem, tid, lane, worker, c0, w, chanOk;

  void emitCoordinates(OpBuilder &b);
  SmallVector<Value> emitRowBlocks(OpBuilder &b);
  void addAtomically(OpBuilder &ab, int64_t t, Value v);
  void emitBlockReduction(OpBuilder &b, ArrayRef<Value> sums);
  void emit(RewriterBase &rewriter);
};

/// (lane, worker) of the thread: channel vector c0 and first row block w.
void StreamKernel::emitCoordinates(OpBuilder &b) {
  Emitter e{b, loc, s.V};
  tid = launch.getThreadIds().x;
  Value bid = launch.getBlockIds().x;
  lane = e.rem(tid, s.lanes);
  worker = e.div(tid, s.lanes);
  Value group = e.rem(bid, s.groups), blockInGroup = e.div(bid, s.groups);
  c0 = e.mul(e.add(e.mul(group, s.lanes), lane), s.V);
  w = e.add(e.mul(blockInGroup, s.workersPerBlock), worker);
  if (s.groups * s.lanes != s.vectors)
    chanOk = e.lt(c0, d.C);
}

/// The grid-stride loop over the row blocks: the thread's FH*FW sums.
SmallVector<Value> StreamKernel::emitRowBlocks(OpBuilder &b) {
  Emitter e{b, loc, s.V};
  const int64_t R = s.R, taps = d.FH * d.FW;
  const int64_t inRows = (R - 1) * d.sh + d.FH;
  // Window columns an output column shares with the next (FW - 1 at
  // stride 1); each step loads the other FW - keep.
  const int64_t keep = std::max<int64_t>(d.FW - d.sw, 0);
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
        Emitter re{rb, loc, s.V};
        Value n = re.div(blk, s.rowBlocksPerImage);
        Value oh0 = re.mul(re.rem(blk, s.rowBlocksPerImage), R);
        Value ih0 = re.add(re.mul(oh0, d.sh), -d.pt);
        // All input rows inside the image and all R output rows inside dY:
        // no per-load row checks.
        Value interior =
            re.andi(re.ge(ih0, 0), re.lt(ih0, d.IH - inRows + 1));
        if (d.OH % R != 0)
          interior = re.andi(interior, re.lt(oh0, d.OH - R + 1));
        SmallVector<Type> types(taps, re.vec());
        auto ifOp = scf::IfOp::create(rb, loc, types, interior,
                                      /*withElseRegion=*/true);
        OpBuilder tb = ifOp.getThenBodyBuilder();
        StreamRowBlock{d, s, loc, x, dy, n, c0, false, inRows, keep}.emit(
            tb, ih0, oh0, sums);
        OpBuilder eb = ifOp.getElseBodyBuilder();
        StreamRowBlock{d, s, loc, x, dy, n, c0, true, inRows, keep}.emit(
            eb, ih0, oh0, sums);
        scf::YieldOp::create(rb, loc, ifOp.getResults());
      });
  return SmallVector<Value>(rowLoop.getResults());
}

/// Adds a vector of sums for tap `t` at channel c0 atomically.
void StreamKernel::addAtomically(OpBuilder &ab, int64_t t, Value v) {
  Emitter a{ab, loc, s.V};
  for (int64_t i = 0; i < s.V; ++i) {
    Value sc = vector::ExtractOp::create(ab, loc, v, ArrayRef<int64_t>{i});
    memref::AtomicRMWOp::create(
        ab, loc, arith::AtomicRMWKind::addf, sc, acc,
        ValueRange{a.cst(t / d.FW), a.cst(t % d.FW), a.add(c0, i)});
  }
}

/// Block reduction, one tap at a time: every thread stores its vector, the
/// first worker of each channel lane sums the block's workers and adds the
/// sum atomically.
void StreamKernel::emitBlockReduction(OpBuilder &b, ArrayRef<Value> sums) {
  Emitter e{b, loc, s.V};
  Value first = e.eq(worker, 0);
  if (chanOk)
    first = e.andi(first, chanOk);
  for (int64_t t = 0; t < d.FH * d.FW; ++t) {
    vector::StoreOp::create(b, loc, sums[t], smem, ValueRange{tid, e.cst(0)});
    gpu::BarrierOp::create(b, loc);
    emitIf(b, loc, first, [&](OpBuilder &tb) {
      Emitter k{tb, loc, s.V};
      auto loop = scf::ForOp::create(
          tb, loc, k.cst(0), k.cst(s.workersPerBlock), k.cst(1),
          ValueRange{k.zeros()},
          [&](OpBuilder &lb, Location, Value wi, ValueRange args) {
            Emitter le{lb, loc, s.V};
            Value v = vector::LoadOp::create(
                lb, loc, le.vec(), smem,
                ValueRange{le.add(le.mul(wi, s.lanes), lane), le.cst(0)});
            scf::YieldOp::create(
                lb, loc,
                ValueRange{arith::AddFOp::create(lb, loc, args[0], v)});
          });
      addAtomically(tb, t, loop.getResult(0));
    });
    gpu::BarrierOp::create(b, loc);
  }
}

/// The streaming kernel: sums of X x dY over all rows into the f32 buffer
/// `acc` (zeroed before), one atomic per tap and channel per block (or per
/// thread without `blockReduce`).
void StreamKernel::emit(RewriterBase &rewriter) {
  auto launchAndBuilder =
      createGridLaunch(rewriter, loc, s.blocks, 1, s.threads);
  launch = launchAndBuilder.first;
  OpBuilder &b = launchAndBuilder.second;
  if (blockReduce) {
    auto wg = gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                         gpu::AddressSpace::Workgroup);
    smem = launch.addWorkgroupAttribution(
        MemRefType::get({s.threads, s.V}, rewriter.getF32Type(), AffineMap(),
                        wg),
        loc);
  }
  emitCoordinates(b);
  SmallVector<Value> sums = emitRowBlocks(b);
  if (blockReduce) {
    emitBlockReduction(b, sums);
  } else {
    emitIf(b, loc, chanOk, [&](OpBuilder &tb) {
      for (int64_t t = 0; t < d.FH * d.FW; ++t)
        addAtomically(tb, t, sums[t]);
    });
  }
  nameKernel(launch, BwdFilterStreamKernelAttr::getMnemonic());
}

//===----------------------------------------------------------------------===//
// The split-z kernel
//===----------------------------------------------------------------------===//

/// One dY row of a split-z slice: the TW partial sums of its columns, f32
/// FMAs or (halfSteps > 0) packed f16 FMAs over runs of halfSteps columns
/// flushed into the f32 sums.
struct SplitZRow {
  const Dims &d;
  const SplitZPlan &p;
  Location loc;
  Value x, dy, n, oh, ih, c0, iwBase;
  int64_t halfSteps, keep;

  bool half() const { return halfSteps > 0; }
  Value halfZeros(OpBuilder &hb) {
    return arith::ConstantOp::create(
        hb, loc,
        DenseElementsAttr::get(VectorType::get({p.V}, d.elem),
                               hb.getF16FloatAttr(0.0f)));
  }
  Value loadVec(Emitter &le, Value mem, ValueRange idx) {
    if (!half())
      return le.load(mem, idx);
    return vector::LoadOp::create(le.b, loc, le.vec(d.elem), mem, idx,
                                  /*nontemporal=*/false, llvm::Align(16));
  }
  /// X[n, ih, iw, c0..] at iw = iwBase + j: a clamped in-bounds load, zero
  /// outside the input row.
  Value loadInput(Emitter &le, Value j) {
    Value iw = le.add(iwBase, j);
    Value valid = le.andi(le.ge(iw, 0), le.lt(iw, d.IW));
    Value v = loadVec(le, x, ValueRange{n, ih, le.clamp(iw, 0, d.IW - 1), c0});
    return arith::SelectOp::create(le.b, loc, valid, v,
                                   half() ? halfZeros(le.b) : le.zeros());
  }
  void step(Emitter &se, Value ow, std::deque<Value> &window,
            SmallVector<Value> &part);
  void run(Emitter &re2, Value owBase, int64_t count,
           std::deque<Value> &window, SmallVector<Value> &acc);
  void columnChunks(Emitter &k, int64_t chunks, int64_t unroll,
                    std::deque<Value> &window, SmallVector<Value> &acc);
  void emit(OpBuilder &ib, ValueRange accs);
};

/// One output column: TW - keep new input vectors enter the window (one at
/// stride 1), each of the TW taps takes one FMA (into the f16 partial sums
/// or the f32 sums `part`).
void SplitZRow::step(Emitter &se, Value ow, std::deque<Value> &window,
                     SmallVector<Value> &part) {
  Value j0 = se.mul(ow, d.sw);
  for (int64_t j = keep; j < p.TW; ++j)
    window.push_back(loadInput(se, se.add(j0, j)));
  Value g = loadVec(se, dy, ValueRange{n, oh, ow, c0});
  for (int64_t i = 0; i < p.TW; ++i)
    part[i] = vector::FMAOp::create(se.b, loc, window[i], g, part[i]);
  for (int64_t j = keep; j < p.TW; ++j)
    window.pop_front();
}

/// Columns [owBase, owBase + count): f32 FMAs, or packed f16 FMAs flushed
/// into `acc` once.
void SplitZRow::run(Emitter &re2, Value owBase, int64_t count,
                    std::deque<Value> &window, SmallVector<Value> &acc) {
  if (!half()) {
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
        arith::ExtFOp::create(re2.b, loc, re2.vec(), part[i]));
}

/// `chunks` chunks of `unroll` columns; the window and the sums are
/// carried through a loop.
void SplitZRow::columnChunks(Emitter &k, int64_t chunks, int64_t unroll,
                             std::deque<Value> &window,
                             SmallVector<Value> &acc) {
  SmallVector<Value> carried(acc);
  carried.append(window.begin(), window.end());
  auto loop = scf::ForOp::create(
      k.b, loc, k.cst(0), k.cst(chunks), k.cst(1), carried,
      [&](OpBuilder &lb, Location, Value ch, ValueRange args) {
        Emitter le{lb, loc, p.V};
        SmallVector<Value> a(args.take_front(p.TW));
        std::deque<Value> win(args.begin() + p.TW, args.end());
        run(le, le.mul(ch, unroll), unroll, win, a);
        SmallVector<Value> next(a);
        next.append(win.begin(), win.end());
        scf::YieldOp::create(lb, loc, next);
      });
  acc.assign(loop.getResults().begin(), loop.getResults().begin() + p.TW);
  window.assign(loop.getResults().begin() + p.TW, loop.getResults().end());
}

void SplitZRow::emit(OpBuilder &ib, ValueRange accs) {
  Emitter k{ib, loc, p.V};
  const int64_t unroll = half() ? halfSteps : kWidthUnroll;
  std::deque<Value> window;
  for (int64_t j = 0; j < keep; ++j)
    window.push_back(loadInput(k, k.cst(j)));
  SmallVector<Value> acc(accs);
  int64_t chunks = d.OW / unroll;
  if (chunks > 1)
    columnChunks(k, chunks, unroll, window, acc);
  else
    chunks = 0;
  // The remaining columns, in runs of at most `unroll`.
  for (int64_t ow = chunks * unroll; ow < d.OW; ow += unroll)
    run(k, k.cst(ow), std::min(unroll, d.OW - ow), window, acc);
  scf::YieldOp::create(ib, loc, acc);
}

/// The split-z kernel's thread: (lane, slot) -> channel vector, tap tile
/// (fh, fw0) and slice z; its slice's sums, the warp reduction and the
/// atomics.
struct SplitZKernel {
  const Dims &d;
  const SplitZPlan &p;
  Location loc;
  Value x, dy, acc;
  int64_t zpw, halfSteps;
  gpu::LaunchOp launch;
  Value c0, zInGroup, z, fh, fw0, active;

  void emitCoordinates(OpBuilder &b);
  SmallVector<Value> emitSliceSums(OpBuilder &tb);
  SmallVector<Value> emitThreadSums(OpBuilder &b);
  SmallVector<SmallVector<Value>> emitWarpSums(OpBuilder &b,
                                               ArrayRef<Value> sums);
  void emitAtomics(OpBuilder &b, ArrayRef<SmallVector<Value>> scalars);
  void emit(RewriterBase &rewriter);
};

void SplitZKernel::emitCoordinates(OpBuilder &b) {
  Emitter e{b, loc, p.V};
  Value tid = launch.getThreadIds().x, bid = launch.getBlockIds().x;
  Value lane = e.rem(tid, kLanes), slot = e.div(tid, kLanes);
  Value group = e.rem(bid, p.groups), slotBlock = e.div(bid, p.groups);
  c0 = e.add(e.mul(group, kLanes * p.V), e.mul(lane, p.V));
  Value unit = e.add(e.mul(slotBlock, kSlots), slot);
  Value zGroup = e.div(unit, zpw);
  zInGroup = e.rem(unit, zpw);
  Value tile = e.rem(zGroup, p.tiles);
  z = e.add(e.mul(e.div(zGroup, p.tiles), zpw), zInGroup);
  fh = e.div(tile, p.tilesW);
  fw0 = e.mul(e.rem(tile, p.tilesW), p.TW);
  if (p.slotBlocks * kSlots != p.tiles * p.Z)
    active = e.lt(z, p.Z);
  if (d.C % (kLanes * p.V) != 0)
    active = e.andi(active, e.lt(c0, d.C));
}

/// The thread's TW partial sums over the rows of its slice.
SmallVector<Value> SplitZKernel::emitSliceSums(OpBuilder &tb) {
  Emitter t{tb, loc, p.V};
  Value r0 = t.mul(z, p.rowsPerZ);
  Value r1 = p.rows % p.rowsPerZ
                 ? tb.createOrFold<arith::MinSIOp>(
                       loc, t.add(r0, p.rowsPerZ), t.cst(p.rows))
                 : t.add(r0, p.rowsPerZ);
  SmallVector<Value> accInit(p.TW, t.zeros());
  // Input column of window position 0 for output column 0.
  Value iwBase = t.add(fw0, -d.pl);
  // Window vectors an output column shares with the next.
  const int64_t keep = std::max<int64_t>(p.TW - d.sw, 0);
  auto rowLoop = scf::ForOp::create(
      tb, loc, r0, r1, t.cst(1), accInit,
      [&](OpBuilder &rb, Location, Value r, ValueRange accs) {
        Emitter re{rb, loc, p.V};
        Value n = re.div(r, d.OH), oh = re.rem(r, d.OH);
        Value ih = re.add(re.add(re.mul(oh, d.sh), fh), -d.pt);
        Value rowOk = re.andi(re.ge(ih, 0), re.lt(ih, d.IH));
        auto ifRow = scf::IfOp::create(
            rb, loc, rowOk,
            [&](OpBuilder &ib, Location) {
              SplitZRow{d, p, loc, x, dy, n, oh, ih, c0, iwBase, halfSteps,
                        keep}
                  .emit(ib, accs);
            },
            [&](OpBuilder &ib, Location) {
              scf::YieldOp::create(ib, loc, accs);
            });
        scf::YieldOp::create(rb, loc, ifRow.getResults());
      });
  return SmallVector<Value>(rowLoop.getResults());
}

/// The slice sums (zero for an inactive thread, which still takes part in
/// the warp reduction).
SmallVector<Value> SplitZKernel::emitThreadSums(OpBuilder &b) {
  if (!active)
    return emitSliceSums(b);
  Emitter e{b, loc, p.V};
  SmallVector<Type> types(p.TW, e.vec());
  auto ifOp = scf::IfOp::create(b, loc, types, active,
                                /*withElseRegion=*/true);
  OpBuilder tb = ifOp.getThenBodyBuilder();
  scf::YieldOp::create(tb, loc, emitSliceSums(tb));
  OpBuilder eb = ifOp.getElseBodyBuilder();
  Emitter ee{eb, loc, p.V};
  scf::YieldOp::create(eb, loc, SmallVector<Value>(p.TW, ee.zeros()));
  return SmallVector<Value>(ifOp.getResults());
}

/// Per-lane scalars; with the warp reduction, the zpw slices of a tile in a
/// warp (lanes 8 apart) are summed with butterfly shuffles.
SmallVector<SmallVector<Value>>
SplitZKernel::emitWarpSums(OpBuilder &b, ArrayRef<Value> sums) {
  SmallVector<SmallVector<Value>> scalars(p.TW);
  for (int64_t i = 0; i < p.TW; ++i) {
    for (int64_t v = 0; v < p.V; ++v) {
      Value s =
          vector::ExtractOp::create(b, loc, sums[i], ArrayRef<int64_t>{v});
      for (int64_t off = kLanes; off < kLanes * zpw; off *= 2) {
        Value other = gpu::ShuffleOp::create(b, loc, s, int32_t(off), 32,
                                             gpu::ShuffleMode::XOR)
                          .getShuffleResult();
        s = arith::AddFOp::create(b, loc, s, other);
      }
      scalars[i].push_back(s);
    }
  }
  return scalars;
}

/// Partial sums into the f32 buffer by the first slot of each group, taps
/// past FW dropped.
void SplitZKernel::emitAtomics(OpBuilder &b,
                               ArrayRef<SmallVector<Value>> scalars) {
  Emitter e{b, loc, p.V};
  Value adds = active;
  if (zpw > 1)
    adds = e.andi(adds, b.createOrFold<arith::CmpIOp>(
                            loc, arith::CmpIPredicate::eq, zInGroup,
                            e.cst(0)));
  emitIf(b, loc, adds, [&](OpBuilder &tb) {
    Emitter t{tb, loc, p.V};
    for (int64_t i = 0; i < p.TW; ++i) {
      Value fw = t.add(fw0, i);
      Value ok = p.tilesW * p.TW > d.FW ? t.lt(fw, d.FW) : Value();
      emitIf(tb, loc, ok, [&](OpBuilder &ab) {
        Emitter a{ab, loc, p.V};
        for (int64_t v = 0; v < p.V; ++v)
          memref::AtomicRMWOp::create(ab, loc, arith::AtomicRMWKind::addf,
                                      scalars[i][v], acc,
                                      ValueRange{fh, fw, a.add(c0, v)});
      });
    }
  });
}

void SplitZKernel::emit(RewriterBase &rewriter) {
  auto launchAndBuilder =
      createGridLaunch(rewriter, loc, p.blocks, 1, kThreads);
  launch = launchAndBuilder.first;
  OpBuilder &b = launchAndBuilder.second;
  emitCoordinates(b);
  SmallVector<Value> sums = emitThreadSums(b);
  emitAtomics(b, emitWarpSums(b, sums));
  nameKernel(launch, BwdFilterSplitZKernelAttr::getMnemonic());
}

//===----------------------------------------------------------------------===//
// The image kernel (small maps)
//===----------------------------------------------------------------------===//

/// Copies of 128-bit vectors issued before their stores (all of a block's
/// copy of one strip when it has at most this many per thread).
constexpr int64_t kImageCopyBatch = 8;

/// One output row of the image kernel's thread, output columns [ow0, ow1)
/// fully unrolled, so that the input columns past the image are known
/// zeros (no load, no FMA).
struct ImageRow {
  const Dims &d;
  Location loc;
  Value smem, xBase, dyBase;
  int64_t Cb, ow0, ow1;

  /// The FW sums after the row's columns (vector<2xf32> each).
  SmallVector<Value> emit(OpBuilder &b, ValueRange accs) {
    Emitter e{b, loc, 2};
    SmallVector<Value> acc(accs);
    // Input column iw -> its loaded value (each loaded once; consecutive
    // output columns share FW - sw of them); null outside the image.
    llvm::DenseMap<int64_t, Value> loaded;
    auto load = [&](int64_t iw) -> Value {
      if (iw < 0 || iw >= d.IW)
        return Value();
      auto [it, fresh] = loaded.try_emplace(iw);
      if (fresh)
        it->second = e.load(smem, ValueRange{e.add(xBase, iw * Cb)});
      return it->second;
    };
    for (int64_t ow = ow0; ow < ow1; ++ow) {
      SmallVector<Value> window;
      for (int64_t fw = 0; fw < d.FW; ++fw)
        window.push_back(load(ow * d.sw - d.pl + fw));
      Value g = e.load(smem, ValueRange{e.add(dyBase, ow * Cb)});
      for (int64_t fw = 0; fw < d.FW; ++fw)
        if (window[fw])
          acc[fw] = vector::FMAOp::create(b, loc, window[fw], g, acc[fw]);
    }
    return acc;
  }
};

/// How the image kernel's block fills its strip buffer (the config's copy).
enum class StripCopy { Block, Thread, Async };

StripCopy stripCopyOf(StringRef copy) {
  return copy == "thread"  ? StripCopy::Thread
         : copy == "async" ? StripCopy::Async
                           : StripCopy::Block;
}

/// The image kernel's block: channel group x run of strips; thread
/// (segment, fh, pair).
struct ImageKernel {
  const Dims &d;
  const ImagePlan &p;
  Location loc;
  Value x, dy, ws;
  StripCopy copy;
  gpu::LaunchOp launch;
  Value smem, tid, seg, fh, pair, group, chunk, c0, chanOk;

  /// The strip origin of unit `u`: image, first output row, first input
  /// row in shared memory (the strip's first inside the image).
  struct Strip {
    Value n, oh0, ihLo;
  };
  Strip stripOf(Emitter &e, Value u) {
    Value oh0 = e.mul(e.rem(u, p.strips), p.R);
    return {e.div(u, p.strips), oh0,
            e.maxc(e.add(e.mul(oh0, d.sh), -d.pt), 0)};
  }
  void emitCoordinates(OpBuilder &b);
  SmallVector<Value> emitRow(OpBuilder &b, Value xBase, Value dyBase,
                             ValueRange accs);
  std::pair<SmallVector<Value>, Value>
  copyIndices(Emitter &e, Value i, int64_t width, int64_t pitch, Value base,
              Value n, Value row0, int64_t rowLimit);
  void emitCopy(OpBuilder &b, Value src, int64_t rows, int64_t width,
                int64_t pitch, Value base, Value n, Value row0,
                int64_t rowLimit);
  void emitStripCopies(OpBuilder &b, Value u, Value buf);
  SmallVector<Value> emitStripRows(OpBuilder &b, Value u, Value buf,
                                   ValueRange accs);
  SmallVector<Value> emitStrip(OpBuilder &b, Value u, ValueRange accs);
  SmallVector<Value> emitAsyncStrip(OpBuilder &b, Value u, Value u0,
                                    Value u1, ValueRange accs);
  Value emitSharedBuffer(OpBuilder &b, int64_t elems, bool dynamic);
  void emit(RewriterBase &rewriter);
};

void ImageKernel::emitCoordinates(OpBuilder &b) {
  Emitter e{b, loc, 2};
  tid = launch.getThreadIds().x;
  Value bid = launch.getBlockIds().x;
  Value t = tid;
  if (p.S > 1) {
    seg = e.div(tid, p.segThreads);
    t = e.rem(tid, p.segThreads);
  }
  fh = e.div(t, p.pairs);
  pair = e.rem(t, p.pairs);
  group = e.rem(bid, p.groups);
  chunk = e.div(bid, p.groups);
  c0 = e.add(e.mul(group, p.Cb), e.mul(pair, 2));
  if (d.C % p.Cb != 0)
    chanOk = e.lt(c0, d.C);
}

/// One 128-bit vector of the strip copy: linear index `i` -> (row, column,
/// channel part) of the source (image `n`, rows from `row0` clamped below
/// `rowLimit`: rows past it are copies of the last row and never read;
/// channels past C clamped the same way); returns the source indices and
/// the shared-memory index (from `base`).
std::pair<SmallVector<Value>, Value>
ImageKernel::copyIndices(Emitter &e, Value i, int64_t width, int64_t pitch,
                         Value base, Value n, Value row0, int64_t rowLimit) {
  const int64_t vec = channelsPerThread(d.elem), perPixel = p.Cb / vec;
  Value row = e.div(i, width * perPixel);
  Value col = e.div(e.rem(i, width * perPixel), perPixel);
  Value part = e.mul(e.rem(i, perPixel), vec);
  Value c = e.add(e.mul(group, p.Cb), part);
  if (d.C % p.Cb != 0)
    c = e.minc(c, d.C - vec);
  Value r = e.minc(e.add(row0, row), rowLimit - 1);
  Value at = e.add(e.add(e.mul(row, pitch), e.mul(col, p.Cb)),
                   e.add(part, base));
  return {{n, r, col, c}, at};
}

/// Copies `rows` rows of `width` pixels x Cb channels of `src` into shared
/// memory at `base`, `pitch` elements per row: the block's threads share
/// the vectors (loads issued in batches before their stores; "async":
/// cp.async copies, nothing waited for here), or with `copy = "thread"`
/// every thread copies all of them.
void ImageKernel::emitCopy(OpBuilder &b, Value src, int64_t rows,
                           int64_t width, int64_t pitch, Value base, Value n,
                           Value row0, int64_t rowLimit) {
  const int64_t vec = channelsPerThread(d.elem);
  const int64_t total = rows * width * (p.Cb / vec);
  Emitter e{b, loc, 2};
  auto vecTy = VectorType::get({vec}, d.elem);
  auto load = [&](Emitter &le, ArrayRef<Value> idx) -> Value {
    return vector::LoadOp::create(le.b, loc, vecTy, src, idx,
                                  /*nontemporal=*/false, llvm::Align(16));
  };
  auto store = [&](OpBuilder &sb, Value v, Value at) {
    vector::StoreOp::create(sb, loc, v, smem, ValueRange{at},
                            /*nontemporal=*/false, llvm::Align(16));
  };
  if (copy == StripCopy::Thread) {
    scf::ForOp::create(b, loc, e.cst(0), e.cst(total), e.cst(1), ValueRange{},
                       [&](OpBuilder &lb, Location, Value i, ValueRange) {
                         Emitter le{lb, loc, 2};
                         auto [idx, at] = copyIndices(le, i, width, pitch,
                                                      base, n, row0, rowLimit);
                         store(lb, load(le, idx), at);
                         scf::YieldOp::create(lb, loc);
                       });
    return;
  }
  const int64_t iters = (total + p.threads - 1) / p.threads;
  auto tokTy = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  for (int64_t k0 = 0; k0 < iters; k0 += kImageCopyBatch) {
    SmallVector<std::pair<Value, Value>> batch;
    for (int64_t k = k0; k < std::min(iters, k0 + kImageCopyBatch); ++k) {
      Value i = e.add(tid, k * p.threads);
      if ((k + 1) * p.threads > total)
        i = e.minc(i, total - 1);
      auto [idx, at] =
          copyIndices(e, i, width, pitch, base, n, row0, rowLimit);
      if (copy == StripCopy::Async)
        nvgpu::DeviceAsyncCopyOp::create(
            b, loc, tokTy, smem, ValueRange{at}, src, idx,
            b.getIndexAttr(vec), /*srcElements=*/Value(),
            /*bypassL1=*/b.getUnitAttr());
      else
        batch.push_back({load(e, idx), at});
    }
    for (auto [v, at] : batch)
      store(b, v, at);
  }
}

/// The thread's columns of one output row: the whole row, or (S > 1) a
/// switch over the segments, each unrolled over its own columns.
SmallVector<Value> ImageKernel::emitRow(OpBuilder &b, Value xBase,
                                        Value dyBase, ValueRange accs) {
  if (p.S == 1)
    return ImageRow{d, loc, smem, xBase, dyBase, p.Cb, 0, d.OW}.emit(b, accs);
  SmallVector<int64_t> cases = llvm::to_vector(llvm::seq<int64_t>(0, p.S));
  SmallVector<Type> types(d.FW, Emitter{b, loc, 2}.vec());
  auto sw = scf::IndexSwitchOp::create(b, loc, types, seg, cases,
                                       unsigned(p.S));
  for (int64_t k = 0; k < p.S; ++k) {
    OpBuilder cb = OpBuilder::atBlockBegin(&sw.getCaseRegions()[k].emplaceBlock());
    int64_t ow0 = k * p.segW, ow1 = std::min(d.OW, ow0 + p.segW);
    scf::YieldOp::create(
        cb, loc,
        ImageRow{d, loc, smem, xBase, dyBase, p.Cb, ow0, ow1}.emit(cb, accs));
  }
  // (seg < S for every thread: the default is never taken.)
  OpBuilder db = OpBuilder::atBlockBegin(&sw.getDefaultRegion().emplaceBlock());
  scf::YieldOp::create(db, loc, accs);
  return SmallVector<Value>(sw.getResults());
}

/// Strip `u`'s input and dY rows into the strip buffer at element `buf`.
void ImageKernel::emitStripCopies(OpBuilder &b, Value u, Value buf) {
  Emitter e{b, loc, 2};
  Strip s = stripOf(e, u);
  emitCopy(b, x, p.inRows, d.IW, p.xPitch, buf, s.n, s.ihLo, d.IH);
  emitCopy(b, dy, p.R, d.OW, p.dyPitch, e.add(buf, p.inRows * p.xPitch), s.n,
           s.oh0, d.OH);
}

/// The thread's rows of strip `u` (in the buffer at element `buf`); yields
/// the new sums.
SmallVector<Value> ImageKernel::emitStripRows(OpBuilder &b, Value u,
                                              Value buf, ValueRange accs) {
  Emitter e{b, loc, 2};
  Strip s = stripOf(e, u);
  SmallVector<Type> types(d.FW, e.vec());
  auto rowLoop = scf::ForOp::create(
      b, loc, e.cst(0), e.cst(p.R), e.cst(1), accs,
      [&](OpBuilder &rb, Location, Value r, ValueRange a) {
        Emitter re{rb, loc, 2};
        Value oh = re.add(s.oh0, r);
        Value ih = re.add(re.add(re.mul(oh, d.sh), fh), -d.pt);
        Value ok = re.andi(re.ge(ih, 0), re.lt(ih, d.IH));
        if (d.OH % p.R != 0)
          ok = re.andi(ok, re.lt(oh, d.OH));
        auto ifRow = scf::IfOp::create(rb, loc, types, ok,
                                       /*withElseRegion=*/true);
        OpBuilder tb = ifRow.getThenBodyBuilder();
        Emitter te{tb, loc, 2};
        Value own = te.add(te.mul(pair, 2), buf);
        Value xBase = te.add(te.mul(te.sub(ih, s.ihLo), p.xPitch), own);
        Value dyBase =
            te.add(te.mul(r, p.dyPitch), te.add(own, p.inRows * p.xPitch));
        scf::YieldOp::create(tb, loc, emitRow(tb, xBase, dyBase, a));
        OpBuilder eb = ifRow.getElseBodyBuilder();
        scf::YieldOp::create(eb, loc, a);
        scf::YieldOp::create(rb, loc, ifRow.getResults());
      });
  return SmallVector<Value>(rowLoop.getResults());
}

/// Strip `u` with one buffer: its copies, then the thread's rows.
SmallVector<Value> ImageKernel::emitStrip(OpBuilder &b, Value u,
                                          ValueRange accs) {
  Emitter e{b, loc, 2};
  bool barriers = copy == StripCopy::Block;
  // The previous strip's reads are done before the copy overwrites it (a
  // thread copy reads only what the thread wrote).
  if (barriers && p.perBlock > 1)
    gpu::BarrierOp::create(b, loc);
  emitStripCopies(b, u, e.cst(0));
  if (barriers)
    gpu::BarrierOp::create(b, loc);
  return emitStripRows(b, u, e.cst(0), accs);
}

/// Strip `u` of the block's run [u0, u1) with two buffers (strip u0 + k in
/// buffer k % 2, its copies issued and committed before this step): the
/// next strip's copies are issued into the other buffer, then this strip's
/// group is waited for and read; the barrier after the reads frees the
/// buffer for the copies of the step after next.
SmallVector<Value> ImageKernel::emitAsyncStrip(OpBuilder &b, Value u,
                                               Value u0, Value u1,
                                               ValueRange accs) {
  Emitter e{b, loc, 2};
  Value cur = e.mul(e.rem(e.sub(u, u0), 2), p.smemElems);
  if (p.perBlock > 1) {
    Value next = e.add(u, 1);
    emitIf(b, loc, e.lt(next, u1), [&](OpBuilder &ib) {
      emitStripCopies(ib, next, Emitter{ib, loc, 2}.sub(p.smemElems, cur));
    });
  }
  // One group per step (empty on the last): at most the next strip's is
  // still in flight.
  waitCopyGroups(b, loc, commitCopyGroup(b, loc), p.perBlock > 1 ? 1 : 0);
  gpu::BarrierOp::create(b, loc);
  SmallVector<Value> sums = emitStripRows(b, u, cur, accs);
  if (p.perBlock > 1)
    gpu::BarrierOp::create(b, loc);
  return sums;
}

/// The shared strip buffer(s): a workgroup attribution, or past
/// kBwdFilterImageStaticSmem a view of the dynamic shared memory.
Value ImageKernel::emitSharedBuffer(OpBuilder &b, int64_t elems,
                                    bool dynamic) {
  if (!dynamic)
    return launch.getWorkgroupAttributions()[0];
  auto wg = gpu::AddressSpaceAttr::get(b.getContext(),
                                       gpu::AddressSpace::Workgroup);
  auto raw = gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(),
                      wg));
  return memref::ViewOp::create(
      b, loc, MemRefType::get({elems}, d.elem, AffineMap(), wg), raw,
      Emitter{b, loc, 2}.cst(0), ValueRange{});
}

/// The image kernel: the block's sums over its strips into its workspace
/// slice ws[chunk] (f32, every element written once).
void ImageKernel::emit(RewriterBase &rewriter) {
  const bool async = copy == StripCopy::Async;
  int64_t elems = p.smemElems * (async ? 2 : 1);
  int64_t bytes = elems * d.elem.getIntOrFloatBitWidth() / 8;
  bool dynamic = bytes > kBwdFilterImageStaticSmem;
  auto wg = gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                       gpu::AddressSpace::Workgroup);
  auto smemTy = MemRefType::get({elems}, d.elem, AffineMap(), wg);
  Value dynBytes;
  if (dynamic)
    dynBytes = arith::ConstantIntOp::create(rewriter, loc, bytes, 32);
  auto launchAndBuilder = createGridLaunch(
      rewriter, loc, p.blocks, 1, p.threads,
      dynamic ? TypeRange{} : TypeRange{smemTy}, dynBytes);
  launch = launchAndBuilder.first;
  OpBuilder &b = launchAndBuilder.second;
  Emitter e{b, loc, 2};
  smem = emitSharedBuffer(b, elems, dynamic);
  emitCoordinates(b);
  Value u0 = e.mul(chunk, p.perBlock);
  Value u1 = e.add(u0, p.perBlock);
  if (p.units % p.perBlock != 0)
    u1 = b.createOrFold<arith::MinSIOp>(loc, u1, e.cst(p.units));
  // The first strip in its own group (every block's run has at least
  // one strip).
  if (async) {
    emitStripCopies(b, u0, e.cst(0));
    commitCopyGroup(b, loc);
  }
  SmallVector<Value> init(d.FW, e.zeros());
  auto unitLoop = scf::ForOp::create(
      b, loc, u0, u1, e.cst(1), init,
      [&](OpBuilder &ub, Location, Value u, ValueRange a) {
        scf::YieldOp::create(ub, loc,
                             async ? emitAsyncStrip(ub, u, u0, u1, a)
                                   : emitStrip(ub, u, a));
      });
  emitIf(b, loc, chanOk, [&](OpBuilder &sb) {
    Emitter se{sb, loc, 2};
    Value slice = p.S > 1 ? se.add(se.mul(chunk, p.S), seg) : chunk;
    for (int64_t fw = 0; fw < d.FW; ++fw)
      vector::StoreOp::create(sb, loc, unitLoop.getResult(fw), ws,
                              ValueRange{slice, fh, se.cst(fw), c0},
                              /*nontemporal=*/false, llvm::Align(8));
  });
  nameKernel(launch, BwdFilterImageKernelAttr::getMnemonic());
}

//===----------------------------------------------------------------------===//
// The register (taps) kernel
//===----------------------------------------------------------------------===//

/// Steps per iteration of the taps kernel's row loop (unroll = 0).
constexpr int64_t kTapsUnroll = 2;

/// The taps kernel's row loop: steps per iteration, whether every step
/// issues the next step's loads before its FMAs, the blocks-per-SM hint.
struct TapsLoop {
  int64_t unroll;
  bool prefetch;
  int64_t minBlocksPerSm;
};

/// One band of the taps kernel's thread: R output rows x cols output
/// columns from (oh0, ow0) of image n, channels c0.., walked one input row
/// per step; with `checked` every load is predicated (zeros outside the
/// image, past OH and OW), without it the band lies inside.
struct TapsBand {
  const Dims &d;
  const TapsPlan &p;
  const TapsLoop &loop;
  Location loc;
  Value x, dy, n, oh0, ow0, c0;
  bool checked;

  /// A step's loads: the input row segment and (empty where none) the dY
  /// row segment.
  struct Rows {
    SmallVector<Value> xs, g;
  };

  /// One load of `mem` at (n, row, col, c0): zeros where (checked) the row
  /// or the column is outside [0, rows) x [0, cols).
  Value loadAt(Emitter &e, Value mem, Value row, Value col, int64_t rows,
               int64_t colsIn) {
    if (!checked)
      return e.load(mem, ValueRange{n, row, col, c0});
    Value ok = e.andi(e.andi(e.ge(row, 0), e.lt(row, rows)),
                      e.andi(e.ge(col, 0), e.lt(col, colsIn)));
    return e.loadOrZero(mem,
                        ValueRange{n, e.clamp(row, 0, rows - 1),
                                   e.clamp(col, 0, colsIn - 1), c0},
                        ok);
  }
  /// Step `j`'s loads (a constant in `jStatic` when known, else -1 and the
  /// loop value `jv`): input row oh0 - pt + j, dY row oh0 + j (when j < R).
  Rows load(Emitter &e, Value jv, int64_t jStatic);
  /// Step `j`'s FMAs: its dY segment enters `window` (window[fh] = dY row
  /// j - fh, empty where none).
  void consume(Emitter &e, Rows rows, std::deque<SmallVector<Value>> &window,
               SmallVector<Value> &acc);
  void step(Emitter &e, Value jv, int64_t jStatic,
            std::deque<SmallVector<Value>> &window, SmallVector<Value> &acc) {
    consume(e, load(e, jv, jStatic), window, acc);
  }
  void steadyLoop(Emitter &e, int64_t lo, int64_t chunks,
                  std::deque<SmallVector<Value>> &window,
                  SmallVector<Value> &acc);
  void prefetchLoop(Emitter &e, int64_t lo, int64_t chunks,
                    std::deque<SmallVector<Value>> &window,
                    SmallVector<Value> &acc);
  SmallVector<Value> emit(OpBuilder &b, ValueRange sums);
};

TapsBand::Rows TapsBand::load(Emitter &e, Value jv, int64_t jStatic) {
  const int64_t FW = d.FW, cols = p.cols;
  Value ih = e.add(e.add(oh0, jv), -d.pt);
  Value iw0 = e.add(ow0, -d.pl);
  Rows r;
  for (int64_t i = 0; i < cols + FW - 1; ++i)
    r.xs.push_back(loadAt(e, x, ih, e.add(iw0, i), d.IH, d.IW));
  if (jStatic < 0 || jStatic < p.R) {
    Value oh = e.add(oh0, jv);
    for (int64_t k = 0; k < cols; ++k)
      r.g.push_back(loadAt(e, dy, oh, e.add(ow0, k), d.OH, d.OW));
  }
  return r;
}

void TapsBand::consume(Emitter &e, Rows rows,
                       std::deque<SmallVector<Value>> &window,
                       SmallVector<Value> &acc) {
  const int64_t FH = d.FH, FW = d.FW, cols = p.cols;
  window.push_front(rows.g);
  for (int64_t fh = 0; fh < FH && fh < int64_t(window.size()); ++fh) {
    // Band row j - fh must lie in [0, R) (statically known off the loop).
    if (window[fh].empty())
      continue;
    for (int64_t fw = 0; fw < FW; ++fw)
      for (int64_t k = 0; k < cols; ++k)
        acc[fh * FW + fw] = vector::FMAOp::create(
            e.b, loc, rows.xs[k + fw], window[fh][k], acc[fh * FW + fw]);
  }
  if (int64_t(window.size()) > FH - 1)
    window.pop_back();
}

/// Steps [lo, lo + chunks * unroll) (every filter row paired, a new dY row
/// each) in a loop of `unroll` steps per iteration (the loads of the later
/// steps can issue before the FMAs of the first) that carries the sums and
/// the FH - 1 newest dY segments.
void TapsBand::steadyLoop(Emitter &e, int64_t lo, int64_t chunks,
                          std::deque<SmallVector<Value>> &window,
                          SmallVector<Value> &acc) {
  emitWindowLoop(e, loc, lo, chunks, loop.unroll, window, acc,
                 [&](Emitter &le, Value j, auto &win, auto &sums) {
                   step(le, j, -1, win, sums);
                 });
}

/// As steadyLoop, but step j issues step j + 1's loads before its FMAs;
/// the loop also carries those (the two front segments of the window:
/// input, dY). lo + chunks * unroll < R: every prefetched step has a dY
/// row.
void TapsBand::prefetchLoop(Emitter &e, int64_t lo, int64_t chunks,
                            std::deque<SmallVector<Value>> &window,
                            SmallVector<Value> &acc) {
  emitWindowLoop(e, loc, lo, chunks, loop.unroll, window, acc,
                 [&](Emitter &le, Value j, auto &win, auto &sums) {
                   Rows now{win[0], win[1]};
                   win.pop_front();
                   win.pop_front();
                   Rows next = load(le, le.add(j, 1), -1);
                   consume(le, std::move(now), win, sums);
                   win.push_front(next.g);
                   win.push_front(next.xs);
                 });
}

/// The band's R + FH - 1 steps: the first FH - 1 and the last FH - 1
/// unrolled (some filter rows have no dY row there), the others in a loop
/// (with prefetch: the loop ends before the last step with a dY row, which
/// uses the loads the loop's last step issued).
SmallVector<Value> TapsBand::emit(OpBuilder &b, ValueRange sums) {
  Emitter e{b, loc, p.V};
  const int64_t FH = d.FH, steps = p.R + FH - 1, unroll = loop.unroll;
  SmallVector<Value> acc(sums);
  std::deque<SmallVector<Value>> window;
  int64_t lo = std::min(FH - 1, steps), hi = std::max(lo, p.R);
  for (int64_t j = 0; j < lo; ++j)
    step(e, e.cst(j), j, window, acc);
  int64_t chunks =
      loop.prefetch ? std::max<int64_t>(0, p.R - 1 - lo) / unroll
                    : (hi - lo) / unroll;
  if (chunks <= 1) {
    chunks = 0;
  } else if (loop.prefetch) {
    Rows first = load(e, e.cst(lo), lo);
    window.push_front(first.g);
    window.push_front(first.xs);
    prefetchLoop(e, lo, chunks, window, acc);
    Rows last{window[0], window[1]};
    window.pop_front();
    window.pop_front();
    consume(e, std::move(last), window, acc);
    ++lo;
  } else {
    steadyLoop(e, lo, chunks, window, acc);
  }
  for (int64_t j = lo + chunks * unroll; j < steps; ++j)
    step(e, e.cst(j), j, window, acc);
  return acc;
}

/// The taps kernel's thread: channel vector, band, its sums and their
/// block reduction into the workspace slice of its block (or band).
struct TapsKernel {
  const Dims &d;
  const TapsPlan &p;
  const TapsLoop &loop;
  Location loc;
  Value x, dy, ws;
  bool blockReduce;
  gpu::LaunchOp launch;
  Value smem, tid, lane, band, chunk, n, oh0, ow0, c0, chanOk, bandOk;

  void emitCoordinates(OpBuilder &b);
  Value interior(Emitter &e);
  SmallVector<Value> emitSums(OpBuilder &b);
  void emitBlockReduction(OpBuilder &b, ArrayRef<Value> sums);
  void emit(RewriterBase &rewriter);
};

void TapsKernel::emitCoordinates(OpBuilder &b) {
  Emitter e{b, loc, p.V};
  tid = launch.getThreadIds().x;
  Value bid = launch.getBlockIds().x;
  lane = e.rem(tid, p.lanes);
  band = e.div(tid, p.lanes);
  Value group = e.rem(bid, p.groups);
  chunk = e.div(bid, p.groups);
  Value wc = e.rem(chunk, p.widthChunks), t = e.div(chunk, p.widthChunks);
  n = e.div(t, p.rowBands);
  oh0 = e.mul(e.rem(t, p.rowBands), p.R);
  Value colBand = e.add(e.mul(wc, p.bands), band);
  ow0 = e.mul(colBand, p.cols);
  c0 = e.mul(e.add(e.mul(group, p.lanes), lane), p.V);
  if (p.groups * p.lanes != p.vectors)
    chanOk = e.lt(c0, d.C);
  if (p.widthChunks * p.bands != p.colBands)
    bandOk = e.lt(colBand, p.colBands);
}

/// Whether the thread's band lies inside the image, dY and dX (no load
/// checks); null when every band does.
Value TapsKernel::interior(Emitter &e) {
  Value ok;
  Value ih0 = e.add(oh0, -d.pt), iw0 = e.add(ow0, -d.pl);
  const int64_t inRows = p.R + d.FH - 1, inCols = p.cols + d.FW - 1;
  if (d.pt > 0)
    ok = e.andi(ok, e.ge(ih0, 0));
  if ((p.rowBands - 1) * p.R - d.pt + inRows > d.IH)
    ok = e.andi(ok, e.lt(ih0, d.IH - inRows + 1));
  if (d.OH % p.R != 0)
    ok = e.andi(ok, e.lt(oh0, d.OH - p.R + 1));
  if (d.pl > 0)
    ok = e.andi(ok, e.ge(iw0, 0));
  if ((p.colBands - 1) * p.cols - d.pl + inCols > d.IW)
    ok = e.andi(ok, e.lt(iw0, d.IW - inCols + 1));
  if (d.OW % p.cols != 0)
    ok = e.andi(ok, e.lt(ow0, d.OW - p.cols + 1));
  return ok;
}

/// The thread's FH x FW sums over its band (zeros for the threads past C
/// or past the column bands).
SmallVector<Value> TapsKernel::emitSums(OpBuilder &b) {
  Emitter e{b, loc, p.V};
  const int64_t taps = d.FH * d.FW;
  SmallVector<Value> zeros(taps, e.zeros());
  SmallVector<Type> types(taps, e.vec());
  auto walk = [&](OpBuilder &wb) -> SmallVector<Value> {
    Emitter we{wb, loc, p.V};
    Value inside = interior(we);
    if (!inside)
      return TapsBand{d, p, loop, loc, x, dy, n, oh0, ow0, c0, false}.emit(wb,
                                                                     zeros);
    auto ifOp = scf::IfOp::create(wb, loc, types, inside,
                                  /*withElseRegion=*/true);
    OpBuilder tb = ifOp.getThenBodyBuilder();
    scf::YieldOp::create(
        tb, loc,
        TapsBand{d, p, loop, loc, x, dy, n, oh0, ow0, c0, false}.emit(tb, zeros));
    OpBuilder eb = ifOp.getElseBodyBuilder();
    scf::YieldOp::create(
        eb, loc,
        TapsBand{d, p, loop, loc, x, dy, n, oh0, ow0, c0, true}.emit(eb, zeros));
    return SmallVector<Value>(ifOp.getResults());
  };
  Value active = e.andi(chanOk, bandOk);
  if (!active)
    return walk(b);
  auto ifOp = scf::IfOp::create(b, loc, types, active,
                                /*withElseRegion=*/true);
  OpBuilder tb = ifOp.getThenBodyBuilder();
  scf::YieldOp::create(tb, loc, walk(tb));
  OpBuilder eb = ifOp.getElseBodyBuilder();
  scf::YieldOp::create(eb, loc, zeros);
  return SmallVector<Value>(ifOp.getResults());
}

/// One tap at a time: every thread stores its vector, the threads of band
/// 0 add the block's bands in band order and store the sum into the
/// block's slice.
void TapsKernel::emitBlockReduction(OpBuilder &b, ArrayRef<Value> sums) {
  Emitter e{b, loc, p.V};
  Value first = e.andi(e.lt(tid, p.lanes), chanOk);
  for (int64_t t = 0; t < d.FH * d.FW; ++t) {
    vector::StoreOp::create(b, loc, sums[t], smem,
                            ValueRange{e.mul(tid, p.V)});
    gpu::BarrierOp::create(b, loc);
    emitIf(b, loc, first, [&](OpBuilder &tb) {
      Emitter k{tb, loc, p.V};
      auto loop = scf::ForOp::create(
          tb, loc, k.cst(0), k.cst(p.bands), k.cst(1),
          ValueRange{k.zeros()},
          [&](OpBuilder &lb, Location, Value bi, ValueRange args) {
            Emitter le{lb, loc, p.V};
            Value v = vector::LoadOp::create(
                lb, loc, le.vec(), smem,
                ValueRange{le.mul(le.add(le.mul(bi, p.lanes), lane), p.V)});
            scf::YieldOp::create(
                lb, loc,
                ValueRange{arith::AddFOp::create(lb, loc, args[0], v)});
          });
      vector::StoreOp::create(
          tb, loc, loop.getResult(0), ws,
          ValueRange{chunk, k.cst(t / d.FW), k.cst(t % d.FW), c0},
          /*nontemporal=*/false, llvm::Align(std::min<int64_t>(16, 4 * p.V)));
    });
    gpu::BarrierOp::create(b, loc);
  }
}

void TapsKernel::emit(RewriterBase &rewriter) {
  auto wg = gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                       gpu::AddressSpace::Workgroup);
  auto smemTy = MemRefType::get({p.threads * p.V}, rewriter.getF32Type(),
                                AffineMap(), wg);
  auto launchAndBuilder =
      createGridLaunch(rewriter, loc, p.blocks, 1, p.threads,
                       blockReduce ? TypeRange{smemTy} : TypeRange{});
  launch = launchAndBuilder.first;
  OpBuilder &b = launchAndBuilder.second;
  if (blockReduce)
    smem = launch.getWorkgroupAttributions()[0];
  emitCoordinates(b);
  SmallVector<Value> sums = emitSums(b);
  if (blockReduce) {
    emitBlockReduction(b, sums);
  } else {
    // Every band its own slice (threads past the bands write zeros).
    emitIf(b, loc, chanOk, [&](OpBuilder &sb) {
      Emitter se{sb, loc, p.V};
      Value slice = se.add(se.mul(chunk, p.bands), band);
      for (int64_t t = 0; t < d.FH * d.FW; ++t)
        vector::StoreOp::create(
            sb, loc, sums[t], ws,
            ValueRange{slice, se.cst(t / d.FW), se.cst(t % d.FW), c0},
            /*nontemporal=*/false, llvm::Align(std::min<int64_t>(16, 4 * p.V)));
    });
  }
  // The occupancy hint rides on the first store of the sums (dwc-kernel-
  // occupancy makes it nvvm.minctasm of the outlined kernel).
  if (loop.minBlocksPerSm > 0) {
    launch.getBody().walk([&](vector::StoreOp st) {
      st->setAttr("dwc.min_blocks_per_sm",
                  b.getI64IntegerAttr(loop.minBlocksPerSm));
      return WalkResult::interrupt();
    });
  }
  nameKernel(launch, BwdFilterTapsKernelAttr::getMnemonic());
}

/// Slices a reduction thread adds in one loop step (their loads in flight
/// together, added in slice order).
constexpr int64_t kSliceUnroll = 4;
/// Workspaces of more slices are summed in two ordered levels: runs of
/// about sqrt(slices) slices into a second workspace, then its runs. Up to
/// one slice per image of a batch of 64 the second launch and workspace
/// cost more than they save (64 x 14 x 14 x 384 7x7 f32: kernels 36.2 ->
/// 35.2 us, the call 42.2 -> 49.6 us; 32 x 7 x 7 x 768 5x5 f32 kernels 9.8
/// -> 10.4 us).
constexpr int64_t kDirectSlices = 64;

/// The sum of `src`[lo .. lo + count) at (fh, fw, c) in slice order (4
/// channels); `count` known, `lo` a value.
Value emitOrderedSum(OpBuilder &b, Location loc, Value src, Value lo,
                     int64_t count, ValueRange tap) {
  Emitter k{b, loc, 4};
  auto loadAt = [&](Emitter &le, Value s) {
    SmallVector<Value> idx{s};
    idx.append(tap.begin(), tap.end());
    return vector::LoadOp::create(le.b, loc, le.vec(), src, idx,
                                  /*nontemporal=*/false, llvm::Align(16));
  };
  int64_t steps = count / kSliceUnroll;
  Value acc = k.zeros();
  if (steps > 0) {
    auto loop = scf::ForOp::create(
        b, loc, k.cst(0), k.cst(steps), k.cst(1), ValueRange{acc},
        [&](OpBuilder &lb, Location, Value i, ValueRange a) {
          Emitter le{lb, loc, 4};
          Value s0 = le.add(lo, le.mul(i, kSliceUnroll));
          SmallVector<Value> v;
          for (int64_t u = 0; u < kSliceUnroll; ++u)
            v.push_back(loadAt(le, le.add(s0, u)));
          Value r = a[0];
          for (Value x : v)
            r = arith::AddFOp::create(lb, loc, r, x);
          scf::YieldOp::create(lb, loc, ValueRange{r});
        });
    acc = loop.getResult(0);
  }
  for (int64_t u = steps * kSliceUnroll; u < count; ++u)
    acc = arith::AddFOp::create(b, loc, acc, loadAt(k, k.add(lo, u)));
  return acc;
}

/// dW = the sum of the workspace's `slices` slices in slice order (4
/// channels per thread), rounded once to dW's type; past kDirectSlices
/// slices a first kernel adds runs of them (in order) into a second
/// workspace, so that no thread walks all slices alone.
void emitSliceReduction(RewriterBase &rewriter, Location loc, Value ws,
                        Value dw, const Dims &d, int64_t slices,
                        StringRef family) {
  Type dwElem = cast<MemRefType>(dw.getType()).getElementType();
  const int64_t C = d.C, FW = d.FW, vectors = d.FH * FW * C / 4;
  auto tapOf = [&](Emitter &k, Value v) -> SmallVector<Value> {
    Value flat = k.mul(v, 4);
    Value c = k.rem(flat, C), tap = k.div(flat, C);
    return {k.div(tap, FW), k.rem(tap, FW), c};
  };
  Value src = ws, partial;
  int64_t count = slices;
  if (slices > kDirectSlices) {
    int64_t run = int64_t(std::ceil(std::sqrt(double(slices))));
    int64_t runs = (slices + run - 1) / run, tail = slices - (runs - 1) * run;
    partial = memref::AllocOp::create(
        rewriter, loc,
        MemRefType::get({runs, d.FH, FW, C}, rewriter.getF32Type()));
    emitVectorKernel(
        rewriter, loc, runs * vectors, family, "partial",
        [&](OpBuilder &kb, Value i) {
          Emitter k{kb, loc, 4};
          Value g = k.div(i, vectors);
          SmallVector<Value> tap = tapOf(k, k.rem(i, vectors));
          Value lo = k.mul(g, run);
          auto sum = [&](OpBuilder &sb, int64_t n) {
            return emitOrderedSum(sb, loc, ws, lo, n, tap);
          };
          Value r;
          if (tail == run) {
            r = sum(kb, run);
          } else {
            // The last run is shorter.
            auto ifOp = scf::IfOp::create(
                kb, loc, TypeRange{k.vec()}, k.lt(g, runs - 1), true);
            OpBuilder tb = ifOp.getThenBodyBuilder();
            scf::YieldOp::create(tb, loc, sum(tb, run));
            OpBuilder eb = ifOp.getElseBodyBuilder();
            scf::YieldOp::create(eb, loc, sum(eb, tail));
            r = ifOp.getResult(0);
          }
          SmallVector<Value> at{g};
          at.append(tap);
          vector::StoreOp::create(kb, loc, r, partial, at,
                                  /*nontemporal=*/false, llvm::Align(16));
        });
    src = partial;
    count = runs;
  }
  emitVectorKernel(
      rewriter, loc, vectors, family, "reduce", [&](OpBuilder &kb, Value i) {
        Emitter k{kb, loc, 4};
        SmallVector<Value> tap = tapOf(k, i);
        Value r = emitOrderedSum(kb, loc, src, k.cst(0), count, tap);
        if (!dwElem.isF32())
          r = arith::TruncFOp::create(kb, loc, k.vec(dwElem), r);
        int64_t bytes = 4 * dwElem.getIntOrFloatBitWidth() / 8;
        vector::StoreOp::create(kb, loc, r, dw, tap, /*nontemporal=*/false,
                                llvm::Align(bytes));
      });
  if (partial)
    memref::DeallocOp::create(rewriter, loc, partial);
}

/// A slice kernel (`emitKernel`, writing every element of a `slices` x
/// FH x FW x C f32 workspace) and the ordered reduction of its slices into
/// dW, with the workspace around them.
void emitSliceKernels(RewriterBase &rewriter, Location loc, const Dims &d,
                      int64_t slices, StringRef family, Value dw,
                      function_ref<void(Value)> emitKernel) {
  auto ws = memref::AllocOp::create(
      rewriter, loc,
      MemRefType::get({slices, d.FH, d.FW, d.C}, rewriter.getF32Type()));
  emitKernel(ws);
  emitSliceReduction(rewriter, loc, ws, dw, d, slices, family);
  memref::DeallocOp::create(rewriter, loc, ws);
}

/// The image kernel and its reduction.
void emitImageKernels(RewriterBase &rewriter, Location loc, const Dims &d,
                      const ImagePlan &p, StripCopy copy, Value x, Value dy,
                      Value dw) {
  emitSliceKernels(rewriter, loc, d, p.slices,
                   BwdFilterImageKernelAttr::getMnemonic(), dw, [&](Value ws) {
                     ImageKernel{d, p, loc, x, dy, ws, copy}.emit(rewriter);
                   });
}

/// The taps kernel and its reduction.
void emitTapsKernels(RewriterBase &rewriter, Location loc, const Dims &d,
                     const TapsPlan &p, const TapsLoop &loop, bool blockReduce,
                     Value x, Value dy, Value dw) {
  emitSliceKernels(rewriter, loc, d, p.slices,
                   BwdFilterTapsKernelAttr::getMnemonic(), dw, [&](Value ws) {
                     TapsKernel{d, p, loop, loc, x, dy, ws, blockReduce}.emit(
                         rewriter);
                   });
}

//===----------------------------------------------------------------------===//
// The pattern
//===----------------------------------------------------------------------===//

/// The f32 accumulation buffer (dW itself, or a workspace allocated before
/// the op), zeroed by a first kernel (C % 4 == 0: 4-wide stores).
Value emitZeroedAccumulator(RewriterBase &rewriter, Location loc, Value dw,
                            const Dims &d, StringRef family) {
  auto dwType = cast<MemRefType>(dw.getType());
  Value acc = dw;
  if (!dwType.getElementType().isF32())
    acc = memref::AllocOp::create(
        rewriter, loc,
        MemRefType::get(dwType.getShape(), rewriter.getF32Type()));
  const int64_t C = d.C, FW = d.FW;
  emitVectorKernel(rewriter, loc, d.FH * FW * C / 4, family, "zero",
                   [&](OpBuilder &b, Value i) {
                     Emitter e{b, loc, 4};
                     Value flat = e.mul(i, 4);
                     Value c = e.rem(flat, C), tap = e.div(flat, C);
                     vector::StoreOp::create(
                         b, loc, e.zeros(), acc,
                         ValueRange{e.div(tap, FW), e.rem(tap, FW), c},
                         /*nontemporal=*/false, llvm::Align(16));
                   });
  return acc;
}

/// f16/bf16 filter gradients: a kernel rounds the f32 sums of the
/// workspace `acc` once into dW, and the workspace is freed.
void emitConversion(RewriterBase &rewriter, Location loc, Value acc, Value dw,
                    const Dims &d, int64_t V, StringRef family) {
  Type dwElem = cast<MemRefType>(dw.getType()).getElementType();
  const int64_t C = d.C, FW = d.FW;
  emitVectorKernel(
      rewriter, loc, d.FH * FW * C / V, family, "convert",
      [&](OpBuilder &kb, Value i) {
        Emitter k{kb, loc, V};
        Value flat = k.mul(i, V);
        Value c = k.rem(flat, C), tap = k.div(flat, C);
        SmallVector<Value> at{k.div(tap, FW), k.rem(tap, FW), c};
        Value v = vector::LoadOp::create(kb, loc, k.vec(), acc, at,
                                         /*nontemporal=*/false,
                                         llvm::Align(16));
        Value r = arith::TruncFOp::create(kb, loc, k.vec(dwElem), v);
        vector::StoreOp::create(kb, loc, r, dw, at, /*nontemporal=*/false,
                                llvm::Align(16));
      });
}

/// The op's complete configuration of this family, or a match failure.
FailureOr<KernelConfigAttrInterface>
configOf(DepthwiseConv2DBackwardFilterOp op, PatternRewriter &rewriter) {
  return emittableConfigOfAny<BwdFilterStreamKernelAttr,
                              BwdFilterSplitZKernelAttr,
                              BwdFilterImageKernelAttr,
                              BwdFilterTapsKernelAttr>(op, rewriter);
}

struct BackwardFilterLowering
    : OpRewritePattern<DepthwiseConv2DBackwardFilterOp> {
  BackwardFilterLowering(MLIRContext *ctx, TargetAttr target)
      : OpRewritePattern(ctx), target(target) {}
  TargetAttr target;

  LogicalResult rewriteImage(DepthwiseConv2DBackwardFilterOp op,
                             BwdFilterImageKernelAttr image, const Dims &d,
                             PatternRewriter &rewriter) const {
    ImagePlan p = imagePlan(d, image.getChannels(), image.getRows(),
                            image.getUnits(), image.getSegments());
    if (p.blocks > std::numeric_limits<int32_t>::max())
      return rewriter.notifyMatchFailure(op, "grid too large");
    rewriter.setInsertionPoint(op);
    emitImageKernels(rewriter, op.getLoc(), d, p, stripCopyOf(image.getCopy()),
                     op.getInput(), op.getOutputGrad(), op.getInit());
    rewriter.eraseOp(op);
    return success();
  }

  LogicalResult rewriteTaps(DepthwiseConv2DBackwardFilterOp op,
                            BwdFilterTapsKernelAttr taps, const Dims &d,
                            PatternRewriter &rewriter) const {
    bool blockReduce = taps.getReduce() != "band";
    TapsPlan p = tapsPlan(d, taps.getVector(), taps.getColumns(),
                          taps.getRows(), taps.getThreads(), !blockReduce);
    if (p.blocks > std::numeric_limits<int32_t>::max())
      return rewriter.notifyMatchFailure(op, "grid too large");
    TapsLoop loop{taps.getUnroll() ? taps.getUnroll() : kTapsUnroll,
                  taps.getPrefetch() != 0, taps.getMinBlocksPerSm()};
    rewriter.setInsertionPoint(op);
    emitTapsKernels(rewriter, op.getLoc(), d, p, loop, blockReduce,
                    op.getInput(), op.getOutputGrad(), op.getInit());
    rewriter.eraseOp(op);
    return success();
  }

  LogicalResult matchAndRewrite(DepthwiseConv2DBackwardFilterOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<KernelConfigAttrInterface> config = configOf(op, rewriter);
    if (failed(config))
      return failure();
    Dims d = dimsOf(op);
    if (auto image = dyn_cast<BwdFilterImageKernelAttr>(*config))
      return rewriteImage(op, image, d, rewriter);
    if (auto taps = dyn_cast<BwdFilterTapsKernelAttr>(*config))
      return rewriteTaps(op, taps, d, rewriter);
    auto stream = dyn_cast<BwdFilterStreamKernelAttr>(*config);
    auto splitZ = dyn_cast<BwdFilterSplitZKernelAttr>(*config);
    StreamPlan sp{};
    SplitZPlan p{};
    if (stream)
      sp = streamPlan(d, stream.getRows(), stream.getThreads(),
                      stream.getWorkers(), target);
    else
      p = splitZPlan(d, splitZ.getZ(), splitZ.getTileWidth(),
                     splitZ.getWarpSlices(), target);
    if ((stream ? sp.blocks : p.blocks) > std::numeric_limits<int32_t>::max())
      return rewriter.notifyMatchFailure(op, "grid too large");

    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    Value x = op.getInput(), dy = op.getOutputGrad(), dw = op.getInit();
    StringRef family = config->getFamily();
    Value acc = emitZeroedAccumulator(rewriter, loc, dw, d, family);
    // Partial sums, atomically added.
    if (stream)
      StreamKernel{d, sp, loc, x, dy, acc, stream.getReduce() == "block"}
          .emit(rewriter);
    else
      SplitZKernel{d,   p,
                   loc, x,
                   dy,  acc,
                   splitZ.getWarpSlices(),
                   d.elem.isF16() ? splitZ.getHalfSteps() : 0}
          .emit(rewriter);
    if (acc != dw) {
      emitConversion(rewriter, loc, acc, dw, d, channelsPerThread(d.elem),
                     family);
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
    // Work splitting fills the target's SMs (#dwc.target).
    RewritePatternSet patterns(&getContext());
    patterns.add<BackwardFilterLowering>(
        &getContext(), dwc::TargetAttr::lookup(getOperation()));
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
