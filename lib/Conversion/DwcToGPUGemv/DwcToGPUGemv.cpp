//===- DwcToGPUGemv.cpp - FP32 depthwise conv, Flash-DWC GEMV dataflow ----===//
//
// Lowers the stride-1 depthwise convolutions (memref form) whose dwc.kernel
// is a #dwc.gemv or #dwc.row_tile to the CUDA-core GEMV-dataflow kernel
// (BN-channel x 16-patch block tiles, TM outputs x V channels per thread,
// width-first register-window input reuse) or the register row-tile kernel;
// #dwc.plane (planes in shared memory) is PlaneKernel.cpp's.
// Stride-1 backward-data ops take the same kernels on the 180-degree rotated
// filter (rotation fused into the filter loads). See the pass description in
// include/dwc/Conversion/Passes.td; the choice is dwc-select-kernels'.
//
//===----------------------------------------------------------------------===//

#include "GemvCommon.h"
#include "dwc/Conversion/KernelSelection.h"
#include "dwc/Conversion/Passes.h"
#include "dwc/Conversion/DepthwiseProblem.h"
#include "dwc/Conversion/IndexEmitter.h"
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
#include <deque>
#include <limits>
#include <optional>

namespace mlir::dwc {
#define GEN_PASS_DEF_CONVERTDWCTOGPUGEMV
#include "dwc/Conversion/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;
using namespace mlir::dwc;
using namespace mlir::dwc::gemv;

namespace {

/// Threads along the channels within a warp: 8 threads x 128 bits = one
/// 128-byte transaction (64-bit f16/bf16 vectors: 64 bytes); channels per
/// block BN = 8 V.
constexpr int64_t kThreadsAlongChannels = 8;
/// Warps per block and patches per block (4 warps x 4 patch rows).
constexpr int64_t kWarps = 4;
constexpr int64_t kPatchesPerBlock = kWarps * (32 / kThreadsAlongChannels);
constexpr int64_t kThreads = kWarps * 32;
/// Filter taps per shared-memory row block: one copy round of 128 threads x
/// 16 bytes covers 16 taps x 32 channels.
constexpr int64_t kTapsPerCopyRound = kThreads / kThreadsAlongChannels;

/// The GEMV kernel of one op: the launch and the thread's coordinates, and
/// the pieces of its body (see the pass description).
struct GemvKernel : GemvFamilyKernel {
  DepthwiseProblem pb;
  DepthwiseSizes sz;
  Type elem;
  Location loc;
  int64_t V, BN, filterPitch, TM, OWc, P, FWp;
  bool filterSmem, unrollRows;
  gpu::LaunchOp launch;
  Value tid, lane, c0, patch, active, smem, cBlock, cInTile;
  Value n, oh, ow0;
  FusionEmitter fused;

  GemvKernel(Operation *op, const DepthwiseProblem &pb, GemvKernelAttr config)
      : pb(pb), sz(sizesOf(pb)),
        elem(cast<MemRefType>(pb.x.getType()).getElementType()),
        loc(op->getLoc()), fused{pb.fusion, Value()} {
    V = config.getChannels();
    BN = kThreadsAlongChannels * V;
    // Shared filter row pitch: BN channels + 16 bytes of padding.
    filterPitch = BN + V;
    TM = std::min(config.getOutputs(), sz.OW);
    OWc = (sz.OW + TM - 1) / TM;
    P = sz.N * sz.OH * OWc;
    FWp = (sz.FW + kTapsPerCopyRound - 1) / kTapsPerCopyRound *
          kTapsPerCopyRound;
    filterSmem = config.getFilter() == "smem";
    unrollRows = config.getRows() == "unrolled";
  }
  bool vector128() const { return V * elem.getIntOrFloatBitWidth() == 128; }
  Value filterRow(Emitter &k, Value fh) const {
    return pb.rotateFilter ? k.sub(sz.FH - 1, fh) : fh;
  }

  void emitCoordinates(RewriterBase &rewriter, OpBuilder &b);
  Value copyFilterRow(OpBuilder &cb, Value fh, Value buf);
  Value loadRowInput(Emitter &k, Value base, Value zero, Value ihc,
                     Value rowOk, int64_t j);
  SmallVector<Value> rowProducts(OpBuilder &ib, Value fh, Value ih,
                                 Value rowOk, Value buf, ValueRange accs);
  SmallVector<Value> unrolledRows(OpBuilder &b, ArrayRef<Value> accInit);
  SmallVector<Value> rowLoop(OpBuilder &b, ArrayRef<Value> accInit);
  void emitStores(OpBuilder &tb, ArrayRef<Value> results);
  void emit(RewriterBase &rewriter);
};

/// The launch (8 threads along channels, 4 x 4 along patches) and the
/// thread's channel, patch and output coordinates.
void GemvKernel::emitCoordinates(RewriterBase &rewriter, OpBuilder &b) {
  Emitter e{b, loc, V};
  tid = launch.getThreadIds().x;
  lane = e.rem(tid, 32);
  Value warp = e.div(tid, 32);
  c0 = e.add(e.mul(launch.getBlockIds().x, BN),
             e.mul(e.rem(lane, kThreadsAlongChannels), V));
  patch = e.add(e.mul(launch.getBlockIds().y, kPatchesPerBlock),
                e.add(e.mul(warp, 32 / kThreadsAlongChannels),
                      e.div(lane, kThreadsAlongChannels)));
  if (sz.C % BN != 0)
    active = e.andi(active, e.lt(c0, sz.C));
  if (P % kPatchesPerBlock != 0)
    active = e.andi(active, e.lt(patch, P));
  // Shared filter tile: 2 buffers x FWp taps x (BN + V) channels, filled
  // one filter row at a time with cp.async, double-buffered.
  if (filterSmem) {
    auto wgSpace = gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                              gpu::AddressSpace::Workgroup);
    auto smemType = MemRefType::get({2, FWp, filterPitch}, elem, AffineMap(),
                                    wgSpace);
    smem = launch.addWorkgroupAttribution(smemType, loc);
  }
  cBlock = e.mul(launch.getBlockIds().x, BN);
  cInTile = e.mul(e.rem(lane, kThreadsAlongChannels), V);
}

/// Copies filter row `fh` into shared buffer `buf`: every thread issues
/// FWp/16 copies of V channels; taps past FW and channels past C are
/// zero-filled (source size 0) from a clamped, in-bounds address.
Value GemvKernel::copyFilterRow(OpBuilder &cb, Value fh, Value buf) {
  Emitter c{cb, loc, V};
  const int64_t C = sz.C, FW = sz.FW;
  SmallVector<Value> tokens;
  Value ch = c.add(cBlock, cInTile);
  Value chValid = C % BN ? c.lt(ch, C) : Value();
  Value srcCh = chValid ? Value(cb.createOrFold<arith::MinSIOp>(
                              loc, ch, c.cst(C - V)))
                        : ch;
  for (int64_t round = 0; round < FWp / kTapsPerCopyRound; ++round) {
    Value tap = c.add(c.div(tid, kThreadsAlongChannels),
                      round * kTapsPerCopyRound);
    Value valid = chValid;
    Value srcTap = tap;
    if ((round + 1) * kTapsPerCopyRound > FW) {
      valid = c.andi(valid, c.lt(tap, FW));
      srcTap = cb.createOrFold<arith::MinSIOp>(loc, tap, c.cst(FW - 1));
    }
    Value srcElems;
    if (valid)
      srcElems = arith::SelectOp::create(cb, loc, valid, c.cst(V), c.cst(0));
    tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
        cb, loc, nvgpu::DeviceAsyncTokenType::get(cb.getContext()), smem,
        ValueRange{buf, tap, cInTile}, pb.w,
        ValueRange{filterRow(c, fh),
                   pb.rotateFilter ? c.sub(FW - 1, srcTap) : srcTap, srcCh},
        cb.getIndexAttr(V), srcElems,
        // cp.async.cg (L2 only) exists for 16-byte copies only.
        vector128() ? cb.getUnitAttr() : UnitAttr()));
  }
  return nvgpu::DeviceAsyncCreateGroupOp::create(
      cb, loc, nvgpu::DeviceAsyncTokenType::get(cb.getContext()), tokens);
}

/// Input vector at iw = base + j (base = ow0 - pl) of input row `ihc`: a
/// clamped in-bounds load, zeroed where it falls into the padding (or
/// outside a row `rowOk` says is not in the image).
Value GemvKernel::loadRowInput(Emitter &k, Value base, Value zero, Value ihc,
                               Value rowOk, int64_t j) {
  const int64_t pl = pb.pl, IW = sz.IW;
  Value iw = k.add(base, j);
  Value valid = rowOk;
  bool widthPad = false;
  if (j < pl)
    valid = k.andi(valid, k.ge(iw, 0)), widthPad = true;
  if ((OWc - 1) * TM - pl + j >= IW)
    valid = k.andi(valid, k.lt(iw, IW)), widthPad = true;
  Value iwc = widthPad ? k.clamp(iw, 0, IW - 1) : iw;
  Value v = k.load(pb.x, ValueRange{n, ihc, iwc, c0});
  if (pb.fusion.hasPrologue())
    return fused.input(k, v, valid);
  if (!valid)
    return v;
  return arith::SelectOp::create(k.b, loc, valid, v, zero);
}

/// The products of filter row `fh` (input row `ih`) with TM outputs: the
/// register window over the row, one new input vector and one filter
/// vector per tap. `rowOk` (may be null): the row lies in the image; when
/// set, the loads are clamped into it and zeroed outside.
SmallVector<Value> GemvKernel::rowProducts(OpBuilder &ib, Value fh, Value ih,
                                           Value rowOk, Value buf,
                                           ValueRange accs) {
  Emitter k{ib, loc, V};
  const int64_t FW = sz.FW;
  Value base = k.add(ow0, -pb.pl);
  Value zero = k.zeros();
  Value ihc = rowOk ? k.clamp(ih, 0, sz.IH - 1) : ih;
  SmallVector<Value> acc(accs);
  std::deque<Value> window;
  for (int64_t j = 0; j < TM - 1; ++j)
    window.push_back(loadRowInput(k, base, zero, ihc, rowOk, j));
  for (int64_t fw = 0; fw < FW; ++fw) {
    window.push_back(loadRowInput(k, base, zero, ihc, rowOk, fw + TM - 1));
    Value wv =
        filterSmem
            ? k.load(smem, ValueRange{buf, k.cst(fw), cInTile})
            : k.load(pb.w, ValueRange{filterRow(k, fh),
                                      k.cst(pb.rotateFilter ? FW - 1 - fw : fw),
                                      c0});
    for (int64_t i = 0; i < TM; ++i)
      acc[i] = vector::FMAOp::create(ib, loc, window[i], wv, acc[i]);
    window.pop_front();
  }
  return acc;
}

/// Short f16/bf16 filters from global memory: the rows unrolled, every
/// row's loads independent of the others (issued together); rows in the
/// padding and inactive threads load clamped in-bounds addresses and
/// contribute zeros.
SmallVector<Value> GemvKernel::unrolledRows(OpBuilder &b,
                                            ArrayRef<Value> accInit) {
  Emitter e{b, loc, V};
  if (P % kPatchesPerBlock != 0)
    n = b.createOrFold<arith::MinSIOp>(loc, n, e.cst(sz.N - 1));
  if (sz.C % BN != 0)
    c0 = b.createOrFold<arith::MinSIOp>(loc, c0, e.cst(sz.C - V));
  SmallVector<Value> results(accInit);
  for (int64_t fh = 0; fh < sz.FH; ++fh) {
    Value ih = e.add(oh, fh - pb.pt);
    Value rowOk = e.andi(active, e.andi(e.ge(ih, 0), e.lt(ih, sz.IH)));
    results = rowProducts(b, e.cst(fh), ih, rowOk, Value(), results);
  }
  return results;
}

/// The loop over the filter rows (rows wholly in the padding skipped), with
/// shared filter rows the next row's copy in flight.
SmallVector<Value> GemvKernel::rowLoop(OpBuilder &b, ArrayRef<Value> accInit) {
  Emitter e{b, loc, V};
  const int64_t FH = sz.FH;
  auto rows = scf::ForOp::create(
      b, loc, e.cst(0), e.cst(FH), e.cst(1), accInit,
      [&](OpBuilder &rb, Location, Value fh, ValueRange accs) {
        Emitter r{rb, loc, V};
        Value buf;
        if (filterSmem) {
          // Prefetch the next row into the other buffer, then wait for
          // this row's copies (one group may stay in flight).
          buf = r.rem(fh, 2);
          Value next = rb.createOrFold<arith::MinSIOp>(loc, r.add(fh, 1),
                                                       r.cst(FH - 1));
          Value nextBuf = rb.createOrFold<arith::SubIOp>(loc, r.cst(1), buf);
          Value group = copyFilterRow(rb, next, nextBuf);
          nvgpu::DeviceAsyncWaitOp::create(rb, loc, group,
                                           rb.getI32IntegerAttr(1));
          gpu::BarrierOp::create(rb, loc);
        }
        Value ih = r.add(r.add(oh, fh), -pb.pt);
        // A filter row wholly in the padding contributes nothing.
        Value doRow = r.andi(active, r.andi(r.ge(ih, 0), r.lt(ih, sz.IH)));
        auto ifRow = scf::IfOp::create(
            rb, loc, doRow,
            [&](OpBuilder &ib, Location) {
              scf::YieldOp::create(
                  ib, loc, rowProducts(ib, fh, ih, Value(), buf, accs));
            },
            [&](OpBuilder &ib, Location) {
              scf::YieldOp::create(ib, loc, accs);
            });
        // The buffer read here is refilled by the next iteration.
        if (filterSmem)
          gpu::BarrierOp::create(rb, loc);
        scf::YieldOp::create(rb, loc, ifRow.getResults());
      });
  return SmallVector<Value>(rows.getResults());
}

/// Rounds and stores the TM outputs (those past OW not stored).
void GemvKernel::emitStores(OpBuilder &tb, ArrayRef<Value> results) {
  Emitter t{tb, loc, V};
  for (int64_t i = 0; i < TM; ++i) {
    Value ow = t.add(ow0, i);
    Value out = fused.output(t, results[i]);
    if ((OWc - 1) * TM + i < sz.OW) {
      t.store(out, pb.y, ValueRange{n, oh, ow, c0});
      continue;
    }
    auto ifStore = scf::IfOp::create(tb, loc, t.lt(ow, sz.OW), false);
    OpBuilder sb = ifStore.getThenBodyBuilder();
    Emitter st{sb, loc, V};
    st.store(out, pb.y, ValueRange{n, oh, ow, c0});
  }
}

void GemvKernel::emit(RewriterBase &rewriter) {
  int64_t gridX = (sz.C + BN - 1) / BN;
  int64_t gridY = (P + kPatchesPerBlock - 1) / kPatchesPerBlock;
  auto launchAndBuilder =
      createGridLaunch(rewriter, loc, gridX, gridY, kThreads);
  launch = launchAndBuilder.first;
  OpBuilder &b = launchAndBuilder.second;
  emitCoordinates(rewriter, b);
  Emitter e{b, loc, V};
  Value owc = e.rem(patch, OWc), rest = e.div(patch, OWc);
  oh = e.rem(rest, sz.OH);
  n = e.div(rest, sz.OH);
  ow0 = e.mul(owc, TM);
  Value init = e.zeros();
  // Inactive threads may point past C: clamp (their result is unused).
  Value cb = sz.C % BN ? Value(b.createOrFold<arith::MinSIOp>(
                             loc, c0, e.cst(sz.C - V)))
                       : c0;
  if (pb.bias)
    init = e.load(pb.bias, ValueRange{cb});
  fused.prepare(e, cb);
  SmallVector<Value> accInit(TM, init);
  if (filterSmem)
    copyFilterRow(b, e.cst(0), e.cst(0));
  SmallVector<Value> results =
      unrollRows ? unrolledRows(b, accInit) : rowLoop(b, accInit);
  if (active) {
    auto ifActive = scf::IfOp::create(b, loc, active, false);
    OpBuilder tb = ifActive.getThenBodyBuilder();
    emitStores(tb, results);
  } else {
    emitStores(b, results);
  }
  nameKernel(launch, GemvKernelAttr::getMnemonic());
}

/// Register row tiles for short stride-1 filters: a thread owns TH output
/// rows x TM outputs along the width x V channels (1-D grid, channel
/// vectors innermost: a warp reads whole channel runs of one position).
/// The TH + FH - 1 input rows of the tile are visited in order, each row's
/// TM + FW - 1 vectors loaded once (width-first); a row feeds every output
/// row r of the tile with filter row fh = t - r, so each input row is read
/// once per tile instead of once per output row, and an output row is
/// stored right after its last filter row (at most FH rows of accumulators
/// are live). With `loads_first` every row is loaded before the first FMA
/// (one wait for memory per thread instead of one per row); with
/// `prefetch_rows` = k row t + k is loaded before row t's FMAs (a row's
/// wait overlaps k rows of FMAs; 16-bit rows wait unwidened). Filter vectors
/// stay in registers when the configuration says so, else they are read
/// through L1 at each use. Rows and columns in the
/// padding are clamped in-bounds loads replaced by zeros (no branches: all
/// loads of a tile may be in flight together).
struct RowTileKernel : GemvFamilyKernel {
  /// The register budget of a `loads_first` tile (the most a thread has).
  static constexpr int64_t kMaxRegistersPerThread = 255;
  DepthwiseProblem pb;
  DepthwiseSizes sz;
  Location loc;
  int64_t V, TH, TM, OHt, OWc, total, minBlocksPerSm;
  /// Threads per block of the 1-D launch.
  int64_t blockThreads;
  bool filterInRegs, loadsFirst;
  /// Input rows loaded ahead of the row being fed.
  int64_t prefetchRows;
  Value n, c, oh0, ow0;
  FusionEmitter fused;
  SmallVector<Value> colIdx, colOk, filterRegs;

  RowTileKernel(Operation *op, const DepthwiseProblem &pb,
                RowTileKernelAttr config)
      : pb(pb), sz(sizesOf(pb)), loc(op->getLoc()), fused{pb.fusion, Value()} {
    V = config.getChannels();
    TH = std::min(config.getRows(), sz.OH);
    TM = std::min(config.getColumns(), sz.OW);
    filterInRegs = config.getFilter() == "registers";
    minBlocksPerSm = config.getMinBlocksPerSm();
    blockThreads = config.getBlockThreads() ? config.getBlockThreads()
                                            : kRowTileBlockThreads;
    loadsFirst = config.getLoadsFirst() != 0;
    prefetchRows = config.getPrefetchRows();
    OHt = llvm::divideCeil(sz.OH, TH);
    OWc = llvm::divideCeil(sz.OW, TM);
    total = sz.N * OHt * OWc * (sz.C / V);
  }
  int64_t blocks() const { return llvm::divideCeil(total, blockThreads); }
  std::optional<StringRef> refusal() const {
    if (blocks() > std::numeric_limits<int32_t>::max())
      return StringRef("grid too large");
    return std::nullopt;
  }

  Value filterAt(Emitter &e, int64_t fh, int64_t fw) {
    bool rotate = pb.rotateFilter;
    return e.load(pb.w, ValueRange{e.cst(rotate ? sz.FH - 1 - fh : fh),
                                   e.cst(rotate ? sz.FW - 1 - fw : fw), c});
  }
  Value tileStart(Emitter &e, Value t, int64_t tiles, int64_t size,
                  int64_t extent);
  void emitTileOrigin(Emitter &e, Value gid);
  SmallVector<Value> loadInputRow(Emitter &e, int64_t t, Value hs0,
                                  bool widened = true);
  void feedPrefetched(Emitter &e, Value hs0, Value init,
                      SmallVector<SmallVector<Value>> &acc);
  void feedInputRow(Emitter &e, int64_t t, ArrayRef<Value> xs, Value init,
                    SmallVector<SmallVector<Value>> &acc);
  void markMinBlocksPerSm(gpu::LaunchOp launch);
  void emit(RewriterBase &rewriter);
};

/// The last tile of a row or column that the tile does not divide is moved
/// back to end at the image's edge: it overlaps its neighbour, whose
/// outputs it recomputes and stores with the same values, and no store is
/// guarded. (Guarded stores put each tail output's FMA chain in a
/// conditional block, and ptxas spilled kilobytes per thread: 7x7 f16 at 2
/// x 56 x 57 x 72 ran 0.47 ms with 32 registers.) The static bounds stay
/// those of the unmoved tiles: a superset. The moved start is selected by
/// tile index, not min(t * T, O - T): LLVM folds a bound check on a
/// min-clamped start into `min == bound`, which ptxas 13.0 miscompiles in
/// 16-bit form (min.u16 + setp.eq.b16: VIMNMX's predicate output with the
/// wrong sense; wrong columns at 3 x 4 x 6 x 72 f16 on the H200, found by
/// the GPU fuzz set).
Value RowTileKernel::tileStart(Emitter &e, Value t, int64_t tiles,
                               int64_t size, int64_t extent) {
  Value start = e.mul(t, size);
  if (extent % size == 0)
    return start;
  return e.select(e.eq(t, tiles - 1), e.cst(extent - size), start);
}

/// The thread's tile (n, oh0, ow0, channel c), its columns' clamped
/// indices and validity, and the filter vectors held in registers.
void RowTileKernel::emitTileOrigin(Emitter &e, Value gid) {
  auto co = e.delinearize(gid, {sz.N, OHt, OWc, sz.C / V});
  oh0 = tileStart(e, co[1], OHt, TH, sz.OH);
  ow0 = tileStart(e, co[2], OWc, TM, sz.OW);
  n = co[0];
  c = e.mul(co[3], V);
}

/// Input row t of the tile: its TM + FW - 1 vectors (zeros in the
/// padding), widened to f32 unless asked not to.
SmallVector<Value> RowTileKernel::loadInputRow(Emitter &e, int64_t t,
                                               Value hs0, bool widened) {
  const int64_t pt = pb.pt, cols = TM + sz.FW - 1;
  Value ih = e.add(hs0, t);
  Value rowOk = e.inBounds(ih, t - pt, (OHt - 1) * TH + t - pt, sz.IH);
  Value ihc = e.clampIf(rowOk, ih, sz.IH);
  SmallVector<Value> xs(cols);
  for (int64_t j = 0; j < cols; ++j) {
    SmallVector<Value, 4> at{n, ihc, colIdx[j], c};
    Value ok = e.andi(rowOk, colOk[j]);
    // A prologue works on the widened vector: its zeros are those of the
    // activated input.
    if (pb.fusion.hasPrologue())
      xs[j] = fused.input(e, e.load(pb.x, at), ok);
    else
      xs[j] = widened ? e.loadOrZero(pb.x, at, ok)
                      : e.loadOrZeroAsStored(pb.x, at, ok);
  }
  return xs;
}

/// The rows in program order load t + prefetchRows, widen t, feed t:
/// ptxas keeps loads where they are issued when their registers are free,
/// so the wait for a row overlaps the FMAs of the rows before it.
void RowTileKernel::feedPrefetched(Emitter &e, Value hs0, Value init,
                                   SmallVector<SmallVector<Value>> &acc) {
  const int64_t inputRows = TH + sz.FH - 1;
  SmallVector<SmallVector<Value>> rows;
  for (int64_t t = 0; t < inputRows; ++t) {
    for (int64_t u = rows.size(); u <= std::min(t + prefetchRows,
                                                inputRows - 1); ++u)
      rows.push_back(loadInputRow(e, u, hs0, /*widened=*/false));
    SmallVector<Value> xs;
    for (Value v : rows[t])
      xs.push_back(e.widen(v));
    feedInputRow(e, t, xs, init, acc);
  }
}

/// Input row t, fed to every output row r whose filter row t - r is in
/// [0, FH); an output row is stored after its last filter row.
void RowTileKernel::feedInputRow(Emitter &e, int64_t t, ArrayRef<Value> xs,
                                 Value init,
                                 SmallVector<SmallVector<Value>> &acc) {
  const int64_t FH = sz.FH, FW = sz.FW;
  OpBuilder &b = e.b;
  for (int64_t r = std::max<int64_t>(0, t - FH + 1);
       r <= std::min(t, TH - 1); ++r) {
    int64_t fh = t - r;
    for (int64_t fw = 0; fw < FW; ++fw) {
      Value wv = filterInRegs ? filterRegs[fh * FW + fw] : filterAt(e, fh, fw);
      for (int64_t i = 0; i < TM; ++i)
        acc[r][i] = vector::FMAOp::create(b, loc, xs[i + fw], wv,
                                          acc[r][i] ? acc[r][i] : init);
    }
    if (fh != FH - 1)
      continue;
    Value oh = e.add(oh0, r);
    for (int64_t i = 0; i < TM; ++i)
      e.store(fused.output(e, acc[r][i]), pb.y,
              ValueRange{n, oh, e.add(ow0, i), c});
  }
}

/// The launch bound of the configuration: a `dwc.min_blocks_per_sm` marker
/// on the first store (dwc-kernel-occupancy makes it nvvm.minctasm on the
/// outlined kernel; outlining drops the launch's own attributes).
/// With `loads_first`, a `dwc.max_registers` marker too (nvvm.maxnreg):
/// without an explicit register budget ptxas 13 moves the later rows'
/// loads back behind the earlier rows' FMAs to save registers (a 5x5 f32
/// 2 x 2 tile: 54 registers, loads and FMAs interleaved in SASS; with
/// .maxnreg 255: 80 registers, all 61 loads first).
void RowTileKernel::markMinBlocksPerSm(gpu::LaunchOp launch) {
  if (minBlocksPerSm == 0 && !loadsFirst)
    return;
  launch.getBody().walk([&](vector::StoreOp store) {
    auto i64 = IntegerType::get(store.getContext(), 64);
    if (minBlocksPerSm)
      store->setAttr("dwc.min_blocks_per_sm",
                     IntegerAttr::get(i64, minBlocksPerSm));
    if (loadsFirst)
      store->setAttr("dwc.max_registers",
                     IntegerAttr::get(i64, kMaxRegistersPerThread));
    return WalkResult::interrupt();
  });
}

void RowTileKernel::emit(RewriterBase &rewriter) {
  // Threads past the last tile do nothing.
  auto [launch, gid, b] =
      createGuardedLaunch(rewriter, loc, blocks(), blockThreads, total);
  Emitter e{b, loc, V};
  emitTileOrigin(e, gid);
  const int64_t FH = sz.FH, FW = sz.FW, cols = TM + FW - 1;
  Value hs0 = e.add(oh0, -pb.pt), wbase = e.add(ow0, -pb.pl);
  Value zero = e.zeros();
  // Columns of the tile: clamped index and validity, static per j.
  colIdx.assign(cols, Value());
  colOk.assign(cols, Value());
  for (int64_t j = 0; j < cols; ++j) {
    Value iw = e.add(wbase, j);
    colOk[j] = e.inBounds(iw, j - pb.pl, (OWc - 1) * TM + j - pb.pl, sz.IW);
    colIdx[j] = e.clampIf(colOk[j], iw, sz.IW);
  }
  if (filterInRegs)
    for (int64_t fh = 0; fh < FH; ++fh)
      for (int64_t fw = 0; fw < FW; ++fw)
        filterRegs.push_back(filterAt(e, fh, fw));
  Value init = pb.bias ? e.load(pb.bias, ValueRange{c}) : zero;
  fused.prepare(e, c);
  SmallVector<SmallVector<Value>> acc(TH, SmallVector<Value>(TM));
  const int64_t inputRows = TH + FH - 1;
  if (loadsFirst) {
    SmallVector<SmallVector<Value>> rows;
    for (int64_t t = 0; t < inputRows; ++t)
      rows.push_back(loadInputRow(e, t, hs0));
    for (int64_t t = 0; t < inputRows; ++t)
      feedInputRow(e, t, rows[t], init, acc);
  } else if (prefetchRows) {
    feedPrefetched(e, hs0, init, acc);
  } else {
    for (int64_t t = 0; t < inputRows; ++t)
      feedInputRow(e, t, loadInputRow(e, t, hs0), init, acc);
  }
  markMinBlocksPerSm(launch);
  nameKernel(launch, RowTileKernelAttr::getMnemonic());
}

struct ConvertDwcToGPUGemvPass
    : dwc::impl::ConvertDwcToGPUGemvBase<ConvertDwcToGPUGemvPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    addGemvFamilyPatterns<RowTileKernelAttr, RowTileKernel>(patterns);
    addGemvFamilyPatterns<GemvKernelAttr, GemvKernel>(patterns);
    populatePlanePatterns(patterns);
    populateFullRowPatterns(patterns);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
