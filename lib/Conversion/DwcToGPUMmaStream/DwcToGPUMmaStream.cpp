//===- DwcToGPUMmaStream.cpp - streaming wide-filter depthwise conv (mma) -===//
//
// Emits the streaming band kernel on tensor cores for the f16/bf16
// depthwise convolutions whose dwc.kernel is a #dwc.mma_stream (chosen by
// dwc-select-kernels). One warp owns one channel and a tile of 128 outputs
// along the width; it streams the input rows of the tile once per row block
// and multiplies each row, held in registers, with every filter row it meets
// (the filter's Toeplitz band slices, from shared memory) into the
// accumulators of the R output rows it feeds. The input rows are the mma's
// A operand (16 groups of 8 outputs) or its B operand (8 groups of 16, no
// duplicated registers). A first kernel writes the input channel-major with
// the width innermost (zero-padded columns, a zero row for rows off the
// image), so each input word is one aligned 32-bit load; a second writes the
// band entries of every channel. The configuration can move the
// transposition into the streaming launch (overlap_workspace: producer and
// consumer blocks, atomic tickets) or drop it (nhwc_input: rows copied from
// the NHWC input into shared memory).
// See the pass description in include/dwc/Conversion/Passes.td; the index
// math is mirrored by test/Conversion/DwcToGPUMmaStream/Inputs/stream_model.py.
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/KernelPass.h"
#include "dwc/Conversion/AsyncCopyPipeline.h"
#include "dwc/Conversion/DepthwiseProblem.h"
#include "dwc/Conversion/IndexEmitter.h"
#include "dwc/Conversion/LaunchBuilder.h"
#include "dwc/Conversion/MmaEmitter.h"
#include "dwc/Conversion/Passes.h"
#include "dwc/Conversion/SharedMemoryPlan.h"
#include "dwc/Conversion/Swizzle.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include <array>

namespace mlir::dwc {
#define GEN_PASS_DEF_CONVERTDWCTOGPUMMASTREAM
#include "dwc/Conversion/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;
using namespace mlir::dwc;

namespace {

constexpr int64_t kWarps = kStreamWarps;   // channels per block, one per warp
constexpr int64_t kThreads = kStreamThreads;
constexpr int64_t kVec = 8;                // f16/bf16 per 16-byte chunk
constexpr int64_t kTileOutputs = kStreamTileOutputs;
constexpr int64_t kStaticSmemBytes = 48 * 1024;

// overlap_workspace: units per thread and round of a producer (their
// loads are issued together) and rounds per producer block.
constexpr int64_t kUnitsPerRound = 2;
constexpr int64_t kProducerRounds = 2;

/// The static shape of one streaming kernel, derived from its
/// configuration.
struct StreamPlan : StreamTile {
  int64_t pitch;        // workspace row pitch (columns, multiple of 8)
  int64_t lead;         // workspace column of input column 0
  int64_t shift;        // padded column - workspace column (even)
  int64_t readEnd;      // padded columns a lane may read (exclusive end)
  bool maskCols;        // lanes may read left of or past a workspace row
  int64_t zeroLen;      // zero row after the workspace (rows off the image)
  bool filterOrder;     // filter row outer (else input row outer)
  bool columns;         // stream_columns: rows are the operands' columns
  int64_t rows;         // output rows per warp and row block
  int64_t prefetch;     // loads ahead: filter-row steps or input rows
  int64_t rowBlocks;    // ceil(OH / rows)
  int64_t rowBlocksPerChunk, chunks;  // row blocks split over the grid
  int64_t tiles;        // (image sets) x (column tiles)
  bool filterInRegisters;
  int64_t filterBytes, stageBytes;
  int64_t blocksPerSm;  // nvvm.minctasm hint (0: none)
  // Input rows through shared memory: a row block's rows of the block's 8
  // channels, double-buffered (one cp.async group per row block).
  bool smemInput;
  int64_t segLen;       // halves of one image's part of a row (multiple of 8)
  int64_t inputBytes;   // both buffers
  // nhwc_input: the buffers are filled from the NHWC input (position-major,
  // 8 channels a 16-byte chunk), no workspace.
  bool nhwc;
  // overlap_workspace: producer and consumer blocks in one launch.
  bool overlap;
  int64_t sets;             // image sets (tiles along the batch)
  int64_t unitsPerSet;      // transposition units (8 columns x 8 channels)
  int64_t unitsPerProducer; // units per producer block
  int64_t producersPerSet, consumersPerSet;
  int64_t lookahead;        // sets the producers run ahead
};

/// The workspace geometry: lead, shift, pitch, what lanes read, the zero
/// row.
void planWorkspace(StreamPlan &p, const StreamShape &s,
                   MmaStreamKernelAttr config) {
  const bool compact = config.getCompactWorkspace().getValue();
  p.lead = streamWorkspaceLead(s, compact, config.isSmemInput());
  p.shift = s.pl - p.lead;
  p.pitch = streamWorkspacePitch(s, compact, config.isSmemInput());
  // A lane's first column is 128 ct + groupWidth (j mod span) (j = g for
  // input B, 2g for input A), its words + 8k + 2q, k < words.
  p.readEnd = (p.images == 1 ? kTileOutputs * (p.colTiles - 1) : 0) +
              p.groupWidth * p.lastGroup() + 8 * (p.words - 1) + 8;
  p.maskCols = p.shift > 0 || p.readEnd - p.shift > p.pitch;
  p.zeroLen =
      std::max<int64_t>(p.pitch, llvm::alignTo(p.readEnd - p.shift, 8));
}

/// The kernel's shape for `s` under `config` (complete, verified).
StreamPlan planOf(const StreamShape &s, MmaStreamKernelAttr config) {
  StreamPlan p;
  static_cast<StreamTile &>(p) =
      streamTile(s, *config.getInputOperand() == StreamInputOperand::B);
  planWorkspace(p, s, config);
  p.filterOrder = *config.getLoopOrder() == StreamLoopOrder::FilterRows;
  p.columns = config.isStreamColumns();
  p.rows = std::min<int64_t>(config.getRows(), s.OH);
  p.prefetch = std::min<int64_t>(config.getPrefetch(),
                                 p.filterOrder ? s.FH : s.FH - 1);
  p.rowBlocks = llvm::divideCeil(s.OH, p.rows);
  p.tiles = llvm::divideCeil(s.N, p.images) * p.colTiles;
  p.rowBlocksPerChunk =
      std::min<int64_t>(config.getRowBlocksPerChunk(), p.rowBlocks);
  p.chunks = llvm::divideCeil(p.rowBlocks, p.rowBlocksPerChunk);
  p.filterInRegisters = config.getFilterInRegisters().getValue();
  p.filterBytes = streamBandBytes(s, p);
  p.stageBytes = streamStageBytes(p.rows);
  p.blocksPerSm = config.getMinBlocksPerSm();
  p.segLen = p.segmentLength();
  p.nhwc = config.isNhwcInput();
  p.smemInput = (config.isSmemInput() || p.nhwc) && p.filterOrder;
  p.inputBytes = p.smemInput ? streamInputBytes(s, p, p.rows) : 0;
  p.overlap = config.isOverlapWorkspace() && !p.nhwc;
  p.sets = llvm::divideCeil(s.N, p.images);
  p.unitsPerSet = p.images * s.IH * (s.C / kVec) * (p.pitch / kVec);
  p.unitsPerProducer = kThreads * kUnitsPerRound * kProducerRounds;
  p.producersPerSet = streamProducersPerSet(s, p, p.pitch);
  p.consumersPerSet = s.C / kWarps * p.colTiles * p.chunks;
  p.lookahead = std::min<int64_t>(config.getOverlapLookahead(), p.sets);
  return p;
}

/// When each input row of a row block is loaded. Row st (of the R + FH - 1
/// a row block reads) is first used at step max(0, st - R + 1) and loaded
/// `lookahead` steps before; the rows due before step 0 (`carried` of them:
/// rows 0 .. carried - 1) are loaded by the previous row block, at its step
/// max(0, FH + first use - lookahead), or before the loop.
struct RowLoadSchedule {
  int64_t carried = 0;
  SmallVector<SmallVector<int64_t>> current; // per step: rows of this block
  SmallVector<SmallVector<int64_t>> next;    // per step: rows of the next one
};

RowLoadSchedule rowLoadSchedule(int64_t R, int64_t FH, int64_t lookahead) {
  RowLoadSchedule s;
  s.current.resize(FH);
  s.next.resize(FH);
  for (int64_t st = 0; st < R + FH - 1; ++st) {
    int64_t issue = std::max<int64_t>(0, st - R + 1) - lookahead;
    if (issue >= 0) {
      s.current[issue].push_back(st);
      continue;
    }
    s.next[std::max<int64_t>(0, FH + issue)].push_back(st);
    s.carried = st + 1;
  }
  return s;
}

/// The same for the input-row order (one step per input row): row st is
/// loaded at step st - prefetch; rows 0 .. prefetch - 1 are the previous
/// row block's rows R .. R + prefetch - 1 (no loads of their own: `next`
/// stays empty and the loop carries those registers on).
RowLoadSchedule inputOrderSchedule(int64_t R, int64_t FH, int64_t prefetch) {
  RowLoadSchedule s;
  const int64_t steps = R + FH - 1;
  s.current.resize(steps);
  s.next.resize(steps);
  for (int64_t st = prefetch; st < steps; ++st)
    s.current[st - prefetch].push_back(st);
  s.carried = prefetch;
  return s;
}

/// The schedule of a plan. With smem-input the rows come from the row
/// block's buffer, one filter-row step ahead, nothing carried.
RowLoadSchedule scheduleOf(const StreamPlan &p, int64_t FH) {
  const int64_t D = p.smemInput ? 1 : p.prefetch;
  RowLoadSchedule sched = p.filterOrder ? rowLoadSchedule(p.rows, FH, D)
                                        : inputOrderSchedule(p.rows, FH, D);
  if (p.smemInput) {
    for (int64_t st = sched.carried - 1; st >= 0; --st)
      sched.current[0].insert(sched.current[0].begin(), st);
    for (auto &rowsOfStep : sched.next)
      rowsOfStep.clear();
    sched.carried = 0;
  }
  return sched;
}

/// nhwc_input: position P of a row's buffer lives in chunk P ^ ((P >> 4) &
/// 7) (the swizzle of Swizzle.h over rows of 16 positions): the lanes of a
/// warp read one channel at positions 16 g + 2 q (+ 8 k), which would
/// otherwise share 4 of the 8 chunk slots of a 128-byte bank row.
Value swizzle(IndexEmitter &t, Value pos) {
  return swizzleLinear(t, pos, /*unitsPerRow=*/16);
}

/// One transposition unit's eight 16-byte loads and where it is stored.
struct UnitLoads {
  SmallVector<Value> cols;
  Value rowBase, pb;
};

/// A row block in flight: its loop builder, first output row, smem-input
/// buffer, the input rows in registers, the rows carried to the next one
/// and the accumulators.
struct RowBlock {
  OpBuilder &lb;
  IndexEmitter l;
  Value rb, r0, nextR0, buf;
  SmallVector<SmallVector<Value>> X, next;
  SmallVector<Value> acc;
};

/// Emits the three launches of one op (workspace, band, streaming kernel)
/// in place of it.
class StreamKernelEmitter {
public:
  StreamKernelEmitter(PatternRewriter &rewriter, Operation *op,
                      const DepthwiseProblem &problem, const StreamShape &sz,
                      const StreamPlan &p)
      : rewriter(rewriter), op(op), loc(op->getLoc()),
        ctx(rewriter.getContext()), p(p), N(sz.N), IH(sz.IH), IW(sz.IW),
        C(sz.C), FH(sz.FH), FW(sz.FW), OH(sz.OH), OW(sz.OW), pt(sz.pt),
        pl(sz.pl), columns(p.columns), rotate(problem.rotateFilter), x(problem.x),
        w(problem.w), bias(problem.bias), y(problem.y),
        et(cast<MemRefType>(x.getType()).getElementType()),
        chunkTy(VectorType::get({kVec}, et)), pairTy(VectorType::get({2}, et)),
        accTy(VectorType::get({2, 2}, rewriter.getF32Type())), C8(C / kVec),
        E(p.entryHalves()), b(ctx), e(b, loc) {}

  void emit();

private:
  // Host side and the two first kernels.
  Value zeroChunkIn(OpBuilder &ob);
  UnitLoads transposeLoads(OpBuilder &tb, Value id);
  void transposeStores(OpBuilder &tb, const UnitLoads &u);
  void storeZeroChunk(OpBuilder &ob, Value chunk);
  void emitWorkspaceKernel();
  void storeBandEntry(OpBuilder &tb, Value id);
  void emitBandKernel();
  // The streaming kernel.
  void createStreamLaunch();
  void bindDynamicSharedMemory(const SharedMemoryPlan &smem, MemRefType bandTy,
                               MemRefType stageTy,
                               MemRefType inputTy, MemRefType ticketTy);
  Value takeTicket();
  void assignOverlapRoles();
  void emitProducer(OpBuilder &pb, Value pSet, Value pIdx);
  void emitConsumerWait(OpBuilder &cb, Value cSet);
  void copyBandToShared();
  Value copyGroup(OpBuilder &ob, int64_t total,
                  function_ref<void(OpBuilder &, Value)> copyOne);
  Value copyRowBlockNhwc(OpBuilder &ob, Value rbIdx, Value buf);
  Value copyRowBlock(OpBuilder &ob, Value rbIdx, Value buf);
  void emitFirstBarrier();
  Value loadFilter(OpBuilder &ob, int64_t fh, int64_t slice);
  void setUpLaneWords();
  SmallVector<Value> loadRow(OpBuilder &ob, Value r0, int64_t step);
  SmallVector<Value> loadRowSmem(OpBuilder &ob, Value buf, int64_t st);
  void setUpAccumulatorInit();
  SmallVector<Value> elementsOf(OpBuilder &ob, ArrayRef<Value> pairs);
  void emitRowBlockLoop();
  void emitRowBlock(OpBuilder &lb, Value rb, ValueRange args);
  void multiply(RowBlock &blk, int64_t o, int64_t fh, int64_t sl, Value filt);
  void multiplyStep(RowBlock &blk, int64_t step);
  void storeAccumulators(RowBlock &blk);
  void storeOutputs(RowBlock &blk);
  SmallVector<Value> operandIndex(Value n, Value row, Value col, Value c) const;

  PatternRewriter &rewriter;
  Operation *op;
  Location loc;
  MLIRContext *ctx;
  const StreamPlan &p;
  // The kernel's shape: with stream_columns its rows are the operands'
  // columns (operandIndex and the band's filter loads swap them back).
  const int64_t N, IH, IW, C, FH, FW, OH, OW, pt, pl;
  const bool columns;
  const bool rotate;
  Value x, w, bias, y;
  Type et;
  VectorType chunkTy, pairTy, accTy;
  const int64_t C8, E;
  // The workspaces.
  Value xt, bw, counters;
  int64_t zeroBase = 0, colBlocks = 0, totalUnits = 0, zeroChunks = 0;
  int64_t blockHalves = 0;
  // The streaming kernel: its builder and values every part reads.
  gpu::LaunchOp launch;
  OpBuilder b;
  IndexEmitter e;
  Value band, stage, inputSmem, ticketSlot;
  Value tid, chunk, tile, c8, ct, n0, lane, warp, g, q, c;
  int64_t R = 0, steps = 0;
  Value rbBegin, rbEnd;
  Type tokTy;
  Value s0, laneBase, laneZero, laneSmem, zeroPair, accInit;
  SmallVector<Value> filterRegs, okCols, nhwcChunks;
  RowLoadSchedule sched;
  // The halves of an input pair, extracted once: a pair feeds up to FH x
  // slices multiplies, and extracting it again for each made 10x the
  // extracts that CSE then had to merge (compile time; same IR after CSE).
  // Every use is in the row-block loop's body, after the first.
  llvm::DenseMap<Value, std::array<Value, 2>> halvesOf;
};

void StreamKernelEmitter::emit() {
  rewriter.setInsertionPoint(op);
  // 1. Channel-major workspace: xt[n][ih][c][xc] = x[n][ih][xc - lead][c]
  //    (zero outside the row; padded column xc + shift), xc < pitch,
  //    followed by a zero row that lanes read for input rows outside the
  //    image (and for the words they mask). One thread per 8
  //    columns x 8 channels: eight 16-byte loads, an 8 x 8 transpose in
  //    registers, eight 16-byte stores (consecutive threads: consecutive
  //    columns of a channel row).
  zeroBase = N * IH * C * p.pitch;
  if (!p.nhwc)
    xt = memref::AllocOp::create(rewriter, loc,
                                 MemRefType::get({zeroBase + p.zeroLen}, et));
  colBlocks = p.pitch / kVec;
  totalUnits = N * IH * C8 * colBlocks;
  zeroChunks = p.zeroLen / kVec;
  // overlap_workspace: counters[0] hands out the tickets, counters[1 + k]
  // counts the finished producers of image set k (zeroed by the band
  // kernel, which also writes the zero row).
  if (p.overlap)
    counters = memref::AllocOp::create(
        rewriter, loc, MemRefType::get({1 + p.sets}, rewriter.getI32Type()));
  if (!p.overlap && !p.nhwc)
    emitWorkspaceKernel();
  emitBandKernel();
  createStreamLaunch();
  if (!p.overlap) {
    SmallVector<Value> bd =
        e.delinearize(launch.getBlockIds().x, {p.chunks, p.tiles, C8});
    chunk = bd[0], tile = bd[1], c8 = bd[2];
  } else {
    assignOverlapRoles();
  }
  ct = e.rem(tile, p.colTiles);
  Value imageSet = e.div(tile, p.colTiles);
  n0 = e.mul(imageSet, p.images);
  lane = e.rem(tid, 32), warp = e.div(tid, 32);
  g = e.div(lane, 4), q = e.rem(lane, 4);
  c = e.add(e.mul(c8, kVec), warp);
  copyBandToShared();
  R = p.rows, steps = R + FH - 1;
  rbBegin = e.mul(chunk, p.rowBlocksPerChunk);
  tokTy = nvgpu::DeviceAsyncTokenType::get(ctx);
  emitFirstBarrier();
  setUpLaneWords();
  setUpAccumulatorInit();
  emitRowBlockLoop();
  rewriter.setInsertionPointAfter(launch);
  if (xt)
    memref::DeallocOp::create(rewriter, loc, xt);
  memref::DeallocOp::create(rewriter, loc, bw);
  if (counters)
    memref::DeallocOp::create(rewriter, loc, counters);
  rewriter.eraseOp(op);
}

Value StreamKernelEmitter::zeroChunkIn(OpBuilder &ob) {
  return arith::ConstantOp::create(
             ob, loc, DenseElementsAttr::get(chunkTy, ob.getZeroAttr(et)))
      .getResult();
}

/// One transposition unit (8 columns x 8 channels of a row, unit id <
/// totalUnits): its eight 16-byte loads (zero outside the row) ...
UnitLoads StreamKernelEmitter::transposeLoads(OpBuilder &tb, Value id) {
  IndexEmitter t{tb, loc};
  SmallVector<Value> d = t.delinearize(id, {N, IH, C8, colBlocks});
  Value n = d[0], ih = d[1], c8 = d[2], pb = d[3];
  UnitLoads u;
  Value zeroChunk;
  for (int64_t e = 0; e < kVec; ++e) {
    Value ic = t.add(t.mul(pb, kVec), e - p.lead);
    Value ok = t.inBounds(ic, e - p.lead, p.pitch - 1 - p.lead, IW);
    Value v = vector::LoadOp::create(
        tb, loc, chunkTy, x,
        operandIndex(n, ih, t.clampIf(ok, ic, IW), t.mul(c8, kVec)), false,
        llvm::Align(16));
    if (ok && !zeroChunk)
      zeroChunk = zeroChunkIn(tb);
    u.cols.push_back(
        ok ? arith::SelectOp::create(tb, loc, ok, v, zeroChunk).getResult()
           : v);
  }
  u.rowBase = t.mul(
      t.add(t.mul(t.add(t.mul(n, IH), ih), C), t.mul(c8, kVec)), p.pitch);
  u.pb = pb;
  return u;
}

/// ... and its eight 16-byte stores, one per channel row.
void StreamKernelEmitter::transposeStores(OpBuilder &tb, const UnitLoads &u) {
  IndexEmitter t{tb, loc};
  for (int64_t ch = 0; ch < kVec; ++ch) {
    SmallVector<Value> elems;
    for (int64_t e = 0; e < kVec; ++e)
      elems.push_back(vector::ExtractOp::create(tb, loc, u.cols[e],
                                                ArrayRef<int64_t>{ch}));
    Value v = vector::FromElementsOp::create(tb, loc, chunkTy, elems);
    vector::StoreOp::create(tb, loc, v, xt,
                            ValueRange{t.add(t.add(u.rowBase, ch * p.pitch),
                                             t.mul(u.pb, kVec))},
                            false, llvm::Align(16));
  }
}

/// Chunk `chunk` of the zero row, if it is one (chunk < zeroChunks).
void StreamKernelEmitter::storeZeroChunk(OpBuilder &ob, Value chunk) {
  IndexEmitter t{ob, loc};
  auto zIf = scf::IfOp::create(ob, loc, t.lt(chunk, zeroChunks), false);
  OpBuilder zb = zIf.getThenBodyBuilder();
  IndexEmitter z{zb, loc};
  vector::StoreOp::create(zb, loc, zeroChunkIn(zb), xt,
                          ValueRange{z.add(z.mul(chunk, kVec), zeroBase)},
                          false, llvm::Align(16));
}

/// The transposition as a kernel of its own: one unit per thread, the
/// threads past the units write the zero row.
void StreamKernelEmitter::emitWorkspaceKernel() {
  auto [pre, b0] = createGridLaunch(
      rewriter, loc, llvm::divideCeil(totalUnits + zeroChunks, kThreads), 1,
      kThreads);
  nameKernel(pre, MmaStreamKernelAttr::getMnemonic(), "workspace");
  IndexEmitter k{b0, loc};
  Value id =
      k.add(k.mul(pre.getBlockIds().x, kThreads), pre.getThreadIds().x);
  auto ifOp = scf::IfOp::create(b0, loc, k.lt(id, totalUnits), true);
  {
    OpBuilder tb = ifOp.getThenBodyBuilder();
    transposeStores(tb, transposeLoads(tb, id));
  }
  {
    OpBuilder eb = ifOp.getElseBodyBuilder();
    IndexEmitter t{eb, loc};
    storeZeroChunk(eb, t.sub(id, t.cst(totalUnits)));
  }
}

/// Band entry `id` of bw[c8][fh][wc][entry][E] (channel c8 * 8 + wc).
/// Input A: entry s = (v[s], v[s + 1], v[s + 8], v[s + 9]), v[i] = tap
/// i - 7 of the row: the B registers (b0, b1) of the lanes with
/// 2q - g + 7 + 16 slice = s. Input B: entry e, s = e + 8 =
/// (v[s], v[s + 1], v[s - 8], v[s - 7], v[s + 8], v[s + 9], v[s],
/// v[s + 1]), v[i] = tap i - 15: the A registers (a0..a3) of the lanes
/// with 2q - g + 7 + 16 slice = e. (Backward data: the rotated filter.)
void StreamKernelEmitter::storeBandEntry(OpBuilder &tb, Value id) {
  IndexEmitter t{tb, loc};
  SmallVector<Value> d = t.delinearize(id, {C8, FH, kWarps, p.bandEntries()});
  Value c8 = d[0], fh = d[1], wc = d[2], ent = d[3];
  Value ch = t.add(t.mul(c8, kVec), wc);
  Value zero = arith::ConstantOp::create(tb, loc, tb.getZeroAttr(et));
  SmallVector<int64_t> offs = p.inputB
                                  ? SmallVector<int64_t>{8, 9, 0, 1, 16, 17, 8, 9}
                                  : SmallVector<int64_t>{0, 1, 8, 9};
  const int64_t lead = p.inputB ? 15 : 7;
  SmallVector<Value> halves;
  for (int64_t off : offs) {
    Value tap = t.add(ent, off - lead);
    Value ok = t.andi(t.ge(tap, 0), t.lt(tap, FW));
    Value src = t.select(ok, tap, t.cst(0));
    Value row = fh;
    if (rotate) {
      src = t.sub(FW - 1, src);
      row = t.sub(FH - 1, fh);
    }
    Value v = memref::LoadOp::create(
        tb, loc, w,
        columns ? ValueRange{src, row, ch} : ValueRange{row, src, ch});
    halves.push_back(arith::SelectOp::create(tb, loc, ok, v, zero));
  }
  Value entry = vector::FromElementsOp::create(
      tb, loc, VectorType::get({E}, et), halves);
  vector::StoreOp::create(tb, loc, entry, bw, ValueRange{t.mul(id, E)}, false,
                          llvm::Align(2 * E));
}

/// 2. The band workspace, one entry per thread (with overlap_workspace the
///    same kernel writes the zero row and clears the counters).
void StreamKernelEmitter::emitBandKernel() {
  blockHalves = FH * kWarps * p.bandEntries() * E;
  bw = memref::AllocOp::create(rewriter, loc,
                               MemRefType::get({C8 * blockHalves}, et));
  const int64_t total = C8 * FH * kWarps * p.bandEntries();
  const int64_t threads =
      p.overlap ? std::max({total, zeroChunks, 1 + p.sets}) : total;
  auto [pre, b0] = createGridLaunch(
      rewriter, loc, llvm::divideCeil(threads, kThreads), 1, kThreads);
  nameKernel(pre, MmaStreamKernelAttr::getMnemonic(), "band");
  IndexEmitter k{b0, loc};
  Value id =
      k.add(k.mul(pre.getBlockIds().x, kThreads), pre.getThreadIds().x);
  if (p.overlap) {
    // The zero row and the cleared counters of the streaming launch.
    storeZeroChunk(b0, id);
    auto cIf = scf::IfOp::create(b0, loc, k.lt(id, 1 + p.sets), false);
    OpBuilder cb = cIf.getThenBodyBuilder();
    Value zero = arith::ConstantIntOp::create(cb, loc, 0, 32);
    memref::StoreOp::create(cb, loc, zero, counters, ValueRange{id});
  }
  auto ifOp = scf::IfOp::create(b0, loc, k.lt(id, total), false);
  OpBuilder tb = ifOp.getThenBodyBuilder();
  storeBandEntry(tb, id);
}

/// 3. The streaming launch: grid, shared buffers (dynamic shared memory
///    over 48 KB or with the input buffers), thread id.
void StreamKernelEmitter::createStreamLaunch() {
  auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto bandTy = MemRefType::get({FH, kWarps, p.bandEntries() * E}, et,
                                AffineMap(), wg);
  auto stageTy = MemRefType::get({kWarps, p.rows, kTileOutputs}, et,
                                 AffineMap(), wg);
  const int64_t steps0 = p.rows + FH - 1;
  auto inputTy =
      p.nhwc ? MemRefType::get({2, steps0, p.images * p.segLen, kWarps}, et,
                               AffineMap(), wg)
             : MemRefType::get({2, steps0, kWarps, p.images * p.segLen}, et,
                               AffineMap(), wg);
  SharedMemoryPlan smem;
  smem.add("band", p.filterBytes);
  smem.add("stage", p.stageBytes);
  if (p.smemInput)
    smem.add("input", p.inputBytes);
  if (p.overlap)
    smem.add("ticket", 16);
  const int64_t smemBytes = smem.totalBytes();
  auto ticketTy = MemRefType::get({4}, rewriter.getI32Type(), AffineMap(), wg);
  // (The input buffers always take dynamic shared memory.)
  const bool dynamic = smemBytes > kStaticSmemBytes || p.smemInput;
  SmallVector<Type> staticBuffers{bandTy, stageTy};
  if (p.overlap)
    staticBuffers.push_back(ticketTy);
  Value dynBytes;
  if (dynamic)
    dynBytes = arith::ConstantIntOp::create(rewriter, loc, smemBytes, 32);
  const int64_t gridX = p.overlap
                            ? p.sets * (p.producersPerSet + p.consumersPerSet)
                            : C8 * p.tiles * p.chunks;
  auto [l, kb] = createGridLaunch(
      rewriter, loc, gridX, 1, kThreads,
      dynamic ? TypeRange{} : TypeRange(staticBuffers), dynBytes);
  launch = l;
  nameKernel(launch, MmaStreamKernelAttr::getMnemonic());
  b.setInsertionPoint(kb.getInsertionBlock(), kb.getInsertionPoint());
  if (dynamic) {
    bindDynamicSharedMemory(smem, bandTy, stageTy, inputTy, ticketTy);
  } else {
    band = launch.getWorkgroupAttributions()[0];
    stage = launch.getWorkgroupAttributions()[1];
    if (p.overlap)
      ticketSlot = launch.getWorkgroupAttributions()[2];
  }
  // Block: 8 channels (c8), a tile (image set, column tile), a chunk of
  // row blocks; warp: one channel; lane (g, q).
  tid = launch.getThreadIds().x;
}

/// Views of the band, the stage, the input buffers and the ticket slot in
/// the dynamic shared memory, in that order.
void StreamKernelEmitter::bindDynamicSharedMemory(const SharedMemoryPlan &smem,
                                                  MemRefType bandTy,
                                                  MemRefType stageTy,
                                                  MemRefType inputTy,
                                                  MemRefType ticketTy) {
  Value raw = dynamicSharedBuffer(b, loc);
  band = viewRegion(b, loc, raw, smem, "band", bandTy);
  stage = viewRegion(b, loc, raw, smem, "stage", stageTy);
  if (p.smemInput)
    inputSmem = viewRegion(b, loc, raw, smem, "input", inputTy);
  if (p.overlap)
    ticketSlot = viewRegion(b, loc, raw, smem, "ticket", ticketTy);
}

/// overlap_workspace: thread 0 takes the block's ticket (start order), the
/// block reads it back after a barrier.
Value StreamKernelEmitter::takeTicket() {
  auto first = scf::IfOp::create(b, loc, e.eq(tid, 0), false);
  {
    OpBuilder fb = first.getThenBodyBuilder();
    IndexEmitter f{fb, loc};
    Value one = arith::ConstantIntOp::create(fb, loc, 1, 32);
    Value t = memref::AtomicRMWOp::create(fb, loc, arith::AtomicRMWKind::addi,
                                          one, counters, ValueRange{f.cst(0)});
    memref::StoreOp::create(fb, loc, t, ticketSlot, ValueRange{f.cst(0)});
  }
  gpu::BarrierOp::create(b, loc);
  return arith::IndexCastOp::create(
      b, loc, b.getIndexType(),
      memref::LoadOp::create(b, loc, ticketSlot, ValueRange{e.cst(0)}));
}

/// overlap_workspace: tickets 0 .. L P - 1 are the producers of sets
/// 0 .. L - 1, then period k = the Q consumers of set k and (k + L < S) the
/// P producers of set k + L. A consumer's producers hold smaller tickets, so
/// they have started, and producers never wait: no schedule deadlocks. The
/// rest of the kernel is the consumers'.
void StreamKernelEmitter::assignOverlapRoles() {
  const int64_t P = p.producersPerSet, Q = p.consumersPerSet, L = p.lookahead;
  const int64_t prologue = L * P, full = p.sets - L, period = P + Q;
  Value t = takeTicket();
  Value inPrologue = e.lt(t, prologue);
  Value u = e.maxc(e.sub(t, e.cst(prologue)), 0);
  Value inFull = e.lt(u, full * period);
  Value k1 = e.div(u, period), r1 = e.rem(u, period);
  Value v = e.maxc(e.sub(u, e.cst(full * period)), 0);
  Value k2 = e.add(e.div(v, Q), full), r2 = e.rem(v, Q);
  Value producerInPeriod = e.andi(inFull, e.ge(r1, Q));
  Value isProducer = arith::OrIOp::create(b, loc, inPrologue, producerInPeriod);
  Value pSet = e.select(inPrologue, e.div(t, P), e.add(k1, L));
  Value pIdx = e.select(inPrologue, e.rem(t, P), e.sub(r1, e.cst(Q)));
  Value cSet = e.select(inFull, k1, k2);
  Value cIdx = e.select(inFull, r1, r2);
  auto role = scf::IfOp::create(b, loc, isProducer, true);
  {
    OpBuilder pb = role.getThenBodyBuilder();
    emitProducer(pb, pSet, pIdx);
  }
  {
    OpBuilder cb = role.getElseBodyBuilder();
    emitConsumerWait(cb, cSet);
  }
  b.setInsertionPoint(role.elseBlock()->getTerminator());
  SmallVector<Value> bd = e.delinearize(cIdx, {p.chunks, p.colTiles, C8});
  chunk = bd[0], c8 = bd[2];
  tile = e.add(e.mul(cSet, p.colTiles), bd[1]);
}

/// Producer: kProducerRounds rounds of kUnitsPerRound units per thread (a
/// round's loads issued together; ids past the set are clamped for the
/// loads and skip the stores), then, after the block's stores, one
/// release-ordered increment of the set's count.
void StreamKernelEmitter::emitProducer(OpBuilder &pb, Value pSet, Value pIdx) {
  IndexEmitter pe{pb, loc};
  Value setBegin = pe.mul(pSet, p.unitsPerSet);
  Value limit = pe.minc(pe.add(setBegin, p.unitsPerSet), totalUnits);
  Value base = pe.add(pe.add(setBegin, pe.mul(pIdx, p.unitsPerProducer)), tid);
  for (int64_t round = 0; round < kProducerRounds; ++round) {
    SmallVector<Value> ids;
    SmallVector<UnitLoads> loads;
    for (int64_t j = 0; j < kUnitsPerRound; ++j) {
      Value id = pe.add(base, (round * kUnitsPerRound + j) * kThreads);
      ids.push_back(id);
      Value clamped =
          arith::MinSIOp::create(pb, loc, id, pe.sub(limit, pe.cst(1)));
      loads.push_back(transposeLoads(pb, clamped));
    }
    for (int64_t j = 0; j < kUnitsPerRound; ++j) {
      auto st = scf::IfOp::create(pb, loc, pe.lt(ids[j], limit), false);
      OpBuilder sb = st.getThenBodyBuilder();
      transposeStores(sb, loads[j]);
    }
  }
  gpu::BarrierOp::create(pb, loc);
  auto done = scf::IfOp::create(pb, loc, pe.eq(tid, 0), false);
  OpBuilder db = done.getThenBodyBuilder();
  IndexEmitter de{db, loc};
  LLVM::FenceOp::create(db, loc, LLVM::AtomicOrdering::acq_rel, "device");
  Value one = arith::ConstantIntOp::create(db, loc, 1, 32);
  memref::AtomicRMWOp::create(db, loc, arith::AtomicRMWKind::addi, one,
                              counters, ValueRange{de.add(pSet, 1)});
}

/// Consumer: thread 0 waits until the set's P producers are done; the
/// fence and the barrier order the block's loads after theirs.
void StreamKernelEmitter::emitConsumerWait(OpBuilder &cb, Value cSet) {
  const int64_t P = p.producersPerSet;
  IndexEmitter ce{cb, loc};
  auto waiter = scf::IfOp::create(cb, loc, ce.eq(tid, 0), false);
  OpBuilder wb = waiter.getThenBodyBuilder();
  IndexEmitter we{wb, loc};
  Value slot = we.add(cSet, 1);
  scf::WhileOp::create(
      wb, loc, TypeRange{}, ValueRange{},
      [&](OpBuilder &ob, Location, ValueRange) {
        Value zero = arith::ConstantIntOp::create(ob, loc, 0, 32);
        Value cnt = memref::AtomicRMWOp::create(
            ob, loc, arith::AtomicRMWKind::addi, zero, counters,
            ValueRange{slot});
        Value want = arith::ConstantIntOp::create(ob, loc, P, 32);
        Value wait = arith::CmpIOp::create(ob, loc, arith::CmpIPredicate::slt,
                                           cnt, want);
        scf::ConditionOp::create(ob, loc, wait, ValueRange{});
      },
      [&](OpBuilder &ob, Location, ValueRange) {
        scf::YieldOp::create(ob, loc);
      });
  LLVM::FenceOp::create(wb, loc, LLVM::AtomicOrdering::acq_rel, "device");
}

/// 3a. The block's band (contiguous in bw) into shared memory, 16 bytes per
///     copy, through a flat view of the band (also contiguous): no
///     delinearization in the loop (at LLVM -O1 its div/rem stayed in the
///     loop, and the copies of 31-tap f16 kernels ran 12% slower).
void StreamKernelEmitter::copyBandToShared() {
  const int64_t copies = blockHalves / kVec;
  Value flatBand = memref::CollapseShapeOp::create(
      b, loc, band, ArrayRef<ReassociationIndices>{{0, 1, 2}});
  auto loop =
      scf::ForOp::create(b, loc, tid, e.cst(copies), e.cst(kThreads));
  OpBuilder lb = OpBuilder::atBlockBegin(loop.getBody());
  IndexEmitter l{lb, loc};
  Value i = loop.getInductionVar();
  Value v = vector::LoadOp::create(
      lb, loc, chunkTy, bw,
      ValueRange{l.add(l.mul(c8, blockHalves), l.mul(i, kVec))}, false,
      llvm::Align(16));
  vector::StoreOp::create(lb, loc, v, flatBand, ValueRange{l.mul(i, kVec)},
                          false, llvm::Align(16));
}

/// 3b. With smem_input: the copies of a row block's R + FH - 1 input rows of
///     the block's 8 channels: copyOne(builder, id) for the thread's ids
///     tid + i x threads < total (a guard on the last round only), then one
///     cp.async group.
Value StreamKernelEmitter::copyGroup(
    OpBuilder &ob, int64_t total,
    function_ref<void(OpBuilder &, Value)> copyOne) {
  for (int64_t i = 0; i * kThreads < total; ++i) {
    IndexEmitter ge{ob, loc};
    Value id = ge.add(tid, i * kThreads);
    if ((i + 1) * kThreads > total) {
      auto ifOp = scf::IfOp::create(ob, loc, ge.lt(id, total), false);
      OpBuilder cb = ifOp.getThenBodyBuilder();
      copyOne(cb, id);
    } else {
      copyOne(ob, id);
    }
  }
  return commitCopyGroup(ob, loc);
}

/// nhwc_input: each position's 8 channels, one 16-byte copy from the NHWC
/// input (zero-filled outside the image) into the swizzled buffer.
Value StreamKernelEmitter::copyRowBlockNhwc(OpBuilder &ob, Value rbIdx,
                                            Value buf) {
  IndexEmitter cc{ob, loc};
  const int64_t positions = p.images * p.segLen;
  Value r0 = cc.mul(rbIdx, R);
  return copyGroup(ob, steps * positions, [&](OpBuilder &cb, Value id) {
    IndexEmitter t{cb, loc};
    SmallVector<Value> d = t.delinearize(id, {steps, p.images, p.segLen});
    Value st = d[0], img = d[1], local = d[2];
    Value n = t.add(n0, img);
    if (N % p.images != 0)
      n = t.minc(n, N - 1);
    Value ih = t.sub(t.add(r0, st), t.cst(pt));
    Value col = p.images == 1 ? t.add(t.mul(ct, kTileOutputs), local) : local;
    Value iw = t.sub(col, t.cst(pl));
    Value ok = t.andi(t.andi(t.ge(ih, 0), t.lt(ih, IH)),
                      t.andi(t.ge(iw, 0), t.lt(iw, IW)));
    Value cnt = t.select(ok, t.cst(kVec), t.cst(0));
    Value dst = swizzle(t, t.add(t.mul(img, p.segLen), local));
    nvgpu::DeviceAsyncCopyOp::create(
        cb, loc, tokTy, inputSmem, ValueRange{buf, st, dst, t.cst(0)}, x,
        ValueRange{n, t.clamp(ih, 0, IH - 1), t.clamp(iw, 0, IW - 1),
                   t.mul(c8, kVec)},
        cb.getIndexAttr(kVec), cnt, /*bypassL1=*/cb.getUnitAttr());
  });
}

/// Each image's segment of the rows from the workspace (16-byte
/// cp.async.cg, zero-filled past the workspace row; rows off the image
/// from the zero row) into buffer `buf`.
Value StreamKernelEmitter::copyRowBlock(OpBuilder &ob, Value rbIdx,
                                        Value buf) {
  if (p.nhwc)
    return copyRowBlockNhwc(ob, rbIdx, buf);
  IndexEmitter cc{ob, loc};
  const int64_t segChunks = p.segLen / kVec;
  const int64_t total = steps * kWarps * p.images * segChunks;
  Value r0 = cc.mul(rbIdx, R);
  return copyGroup(ob, total, [&](OpBuilder &cb, Value id) {
    IndexEmitter t{cb, loc};
    SmallVector<Value> d =
        t.delinearize(id, {steps, kWarps, p.images, segChunks});
    Value st = d[0], wc = d[1], img = d[2];
    Value local = t.mul(d[3], kVec);
    Value n = t.add(n0, img);
    if (N % p.images != 0)
      n = t.minc(n, N - 1);
    Value ih = t.sub(t.add(r0, st), t.cst(pt));
    Value okRow = t.andi(t.ge(ih, 0), t.lt(ih, IH));
    Value col = p.images == 1 ? t.add(t.mul(ct, kTileOutputs), local) : local;
    Value rowBase = t.mul(
        t.add(t.mul(t.add(t.mul(n, IH), ih), C), t.add(t.mul(c8, kVec), wc)),
        p.pitch);
    Value xc = t.sub(col, t.cst(p.shift)); // workspace column
    Value src = t.select(okRow, t.add(rowBase, xc), t.add(xc, zeroBase));
    Value okCol = t.lt(xc, p.pitch);
    if (p.shift > 0)
      okCol = t.andi(okCol, t.ge(xc, 0));
    Value cnt = t.select(okCol, t.cst(kVec), t.cst(0));
    src = t.select(okCol, src, t.cst(zeroBase));
    nvgpu::DeviceAsyncCopyOp::create(
        cb, loc, tokTy, inputSmem,
        ValueRange{buf, st, wc, t.add(t.mul(img, p.segLen), local)}, xt,
        ValueRange{src}, cb.getIndexAttr(kVec), cnt,
        /*bypassL1=*/cb.getUnitAttr());
  });
}

/// The first row block's copy (smem_input), the barrier after the band
/// copy (it carries the occupancy hint) and the filter operand registers.
void StreamKernelEmitter::emitFirstBarrier() {
  if (p.smemInput) {
    Value tok = copyRowBlock(b, rbBegin, e.cst(0));
    waitCopyGroups(b, loc, tok, /*pending=*/0);
  }
  auto firstBarrier = gpu::BarrierOp::create(b, loc);
  if (p.blocksPerSm > 0)
    firstBarrier->setAttr("dwc.min_blocks_per_sm",
                          b.getI64IntegerAttr(p.blocksPerSm));
  s0 = e.sub(e.add(e.mul(q, 2), 7), g); // 2q - g + 7, in [0, 13]
  if (p.filterInRegisters)
    for (int64_t fh = 0; fh < FH; ++fh)
      for (int64_t sl = 0; sl < p.slices; ++sl)
        filterRegs.push_back(loadFilter(b, fh, sl));
}

/// The filter operand of (fh, slice): entry 2q - g + 7 + 16 slice, as
/// 4-byte loads (LLVM merges adjacent ones; one load of the whole operand
/// would canonicalize into a shape_cast, which has no NVVM lowering).
Value StreamKernelEmitter::loadFilter(OpBuilder &ob, int64_t fh,
                                      int64_t slice) {
  IndexEmitter l{ob, loc};
  Value base = l.mul(l.add(s0, 16 * slice), E);
  SmallVector<Value> el;
  for (int64_t part = 0; part < E / 2; ++part) {
    Value v = vector::LoadOp::create(
        ob, loc, pairTy, band,
        ValueRange{l.cst(fh), warp, l.add(base, 2 * part)}, false,
        llvm::Align(part % 2 == 0 ? 8 : 4));
    for (int64_t i = 0; i < 2; ++i)
      el.push_back(vector::ExtractOp::create(ob, loc, v, ArrayRef<int64_t>{i}));
  }
  return vector::FromElementsOp::create(ob, loc,
                                        VectorType::get({E / 2, 2}, et), el)
      .getResult();
}

/// The lane's input words: group j (j = g for input B: mma column g;
/// j = 2g for input A: mma rows g and g + 8 are groups 2g and 2g + 1) of
/// image n0 + j / span starts at column 128 ct + groupWidth (j mod span);
/// word k is columns + 8k + 2q, + 1. Sets the lane's workspace addresses,
/// its column masks and its shared-memory offsets (all loop invariant).
void StreamKernelEmitter::setUpLaneWords() {
  Value jl = p.inputB ? g : e.mul(g, 2);
  Value colBase = e.add(e.mul(ct, kTileOutputs),
                        e.mul(e.rem(jl, p.span), p.groupWidth));
  Value image = e.add(n0, e.div(jl, p.span));
  if (N % p.images != 0)
    image = e.minc(image, N - 1); // masked at the store
  Value laneCol = e.add(colBase, e.mul(q, 2));
  // The lane's first word in workspace columns (negative: masked).
  Value laneXc = e.sub(laneCol, e.cst(p.shift));
  laneBase =
      e.add(e.mul(e.add(e.mul(e.mul(image, IH), C), c), p.pitch), laneXc);
  laneZero = e.add(laneXc, zeroBase);
  // Words left of the workspace row or past it read zero (their loads go
  // to the zero row's start).
  okCols.assign(p.words, Value());
  if (p.maskCols)
    for (int64_t k = 0; k < p.words; ++k) {
      Value xc = e.add(laneXc, 8 * k);
      okCols[k] = e.lt(xc, p.pitch);
      if (p.shift > 0)
        okCols[k] = e.andi(okCols[k], e.ge(xc, 0));
    }
  zeroPair = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(pairTy, b.getZeroAttr(et)));
  // With smem_input: the lane's words of a row (its image's segment,
  // columns gw (j mod span) + 2q + 8k).
  laneSmem = e.add(e.add(e.mul(e.div(jl, p.span), p.segLen),
                         e.mul(e.rem(jl, p.span), p.groupWidth)),
                   e.mul(q, 2));
  // nhwc_input: the chunks of the lane's positions.
  if (p.nhwc)
    for (int64_t k = 0; k < p.words; ++k)
      for (int64_t i = 0; i < 2; ++i)
        nhwcChunks.push_back(swizzle(e, e.add(laneSmem, 8 * k + i)));
}

/// The lane's words of padded input row r0 + step (input row r0 + step -
/// pt; the zero row outside the image).
SmallVector<Value> StreamKernelEmitter::loadRow(OpBuilder &ob, Value r0,
                                                int64_t step) {
  IndexEmitter l{ob, loc};
  const int64_t rowStride = C * p.pitch;
  Value ih = l.add(r0, step - pt);
  Value okRow = l.andi(l.ge(ih, 0), l.lt(ih, IH));
  Value base =
      l.select(okRow, l.add(laneBase, l.mul(ih, rowStride)), laneZero);
  SmallVector<Value> regs;
  for (int64_t k = 0; k < p.words; ++k) {
    Value idx = l.add(base, 8 * k);
    Value okCol = okCols[k];
    if (okCol)
      idx = l.select(okCol, idx, l.cst(zeroBase));
    Value v = vector::LoadOp::create(ob, loc, pairTy, xt, ValueRange{idx},
                                     false, llvm::Align(4));
    regs.push_back(
        okCol ? arith::SelectOp::create(ob, loc, okCol, v, zeroPair).getResult()
              : v);
  }
  return regs;
}

/// With smem_input: the lane's words of row st of buffer buf.
SmallVector<Value> StreamKernelEmitter::loadRowSmem(OpBuilder &ob, Value buf,
                                                    int64_t st) {
  IndexEmitter l{ob, loc};
  SmallVector<Value> regs;
  for (int64_t k = 0; k < p.words; ++k) {
    if (p.nhwc) {
      SmallVector<Value> el;
      for (int64_t i = 0; i < 2; ++i)
        el.push_back(memref::LoadOp::create(
            ob, loc, inputSmem,
            ValueRange{buf, l.cst(st), nhwcChunks[2 * k + i], warp}));
      regs.push_back(vector::FromElementsOp::create(ob, loc, pairTy, el));
      continue;
    }
    regs.push_back(vector::LoadOp::create(
        ob, loc, pairTy, inputSmem,
        ValueRange{buf, l.cst(st), warp, l.add(laneSmem, 8 * k)}, false,
        llvm::Align(4)));
  }
  return regs;
}

/// Accumulator initial value: the bias (if any) or zero.
void StreamKernelEmitter::setUpAccumulatorInit() {
  if (bias) {
    Value bv = memref::LoadOp::create(b, loc, bias, ValueRange{c});
    bv = arith::ExtFOp::create(b, loc, b.getF32Type(), bv);
    accInit = vector::BroadcastOp::create(b, loc, accTy, bv);
  } else {
    accInit = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(accTy, b.getF32FloatAttr(0.0f)));
  }
}

SmallVector<Value> StreamKernelEmitter::elementsOf(OpBuilder &ob,
                                                   ArrayRef<Value> pairs) {
  SmallVector<Value> el;
  for (Value v : pairs) {
    auto it = halvesOf.find(v);
    if (it == halvesOf.end()) {
      std::array<Value, 2> h;
      for (int64_t i = 0; i < 2; ++i)
        h[i] = vector::ExtractOp::create(ob, loc, v, ArrayRef<int64_t>{i});
      it = halvesOf.try_emplace(v, h).first;
    }
    el.append(it->second.begin(), it->second.end());
  }
  return el;
}

/// 3c. Row blocks of the chunk. Filter row outer: step fh loads the filter
///     operand of (fh, slice) once and multiplies it with input rows fh ..
///     fh + R - 1 into the R accumulators; row st is first used at step
///     max(0, st - R + 1) and loaded `prefetch` steps before. Input row
///     outer: step st loads row st + prefetch and multiplies row st with
///     every filter row it meets. Either way the rows due before the first
///     step are loaded by the previous row block (carried through the
///     loop).
void StreamKernelEmitter::emitRowBlockLoop() {
  sched = scheduleOf(p, FH);
  const int64_t carry = sched.carried;
  rbEnd = e.minc(e.add(rbBegin, p.rowBlocksPerChunk), p.rowBlocks);
  SmallVector<Value> carried;
  for (int64_t st = 0; st < carry; ++st)
    llvm::append_range(carried, loadRow(b, e.mul(rbBegin, R), st));
  scf::ForOp::create(b, loc, rbBegin, rbEnd, e.cst(1), carried,
                     [&](OpBuilder &lb, Location, Value rb, ValueRange args) {
                       emitRowBlock(lb, rb, args);
                     });
}

/// One row block: its rows loaded per the schedule, R x FH x slices mma,
/// the outputs stored, the carried rows yielded.
void StreamKernelEmitter::emitRowBlock(OpBuilder &lb, Value rb,
                                       ValueRange args) {
  const int64_t carry = sched.carried;
  RowBlock blk{lb, IndexEmitter{lb, loc}, rb, {}, {}, {}, {}, {}, {}};
  IndexEmitter &l = blk.l;
  blk.r0 = l.mul(rb, R), blk.nextR0 = l.add(blk.r0, R);
  // smem_input: this row block's rows are in buffer buf (landed at the end
  // of the previous iteration); the next row block's go into the other one
  // now.
  if (p.smemInput) {
    blk.buf = l.rem(l.sub(rb, rbBegin), 2);
    Value nextRb = l.add(rb, 1);
    auto ifNext = scf::IfOp::create(lb, loc, l.lt(nextRb, rbEnd), false);
    OpBuilder nb = ifNext.getThenBodyBuilder();
    IndexEmitter ne{nb, loc};
    copyRowBlock(nb, nextRb, ne.sub(ne.cst(1), blk.buf));
  }
  blk.X.resize(steps);
  blk.next.resize(carry);
  for (int64_t st = 0; st < carry; ++st)
    blk.X[st].assign(args.begin() + st * p.words,
                     args.begin() + (st + 1) * p.words);
  blk.acc.assign(R, accInit);
  const int64_t outer = p.filterOrder ? FH : steps;
  for (int64_t step = 0; step < outer; ++step)
    multiplyStep(blk, step);
  storeAccumulators(blk);
  gpu::BarrierOp::create(lb, loc);
  storeOutputs(blk);
  if (p.smemInput) // the next row block's rows have landed
    NVVM::CpAsyncWaitGroupOp::create(lb, loc, uint32_t(0));
  gpu::BarrierOp::create(lb, loc);
  if (!p.filterOrder)
    for (int64_t st = 0; st < carry; ++st)
      blk.next[st] = blk.X[R + st];
  SmallVector<Value> nextWords;
  for (ArrayRef<Value> row : blk.next)
    llvm::append_range(nextWords, row);
  scf::YieldOp::create(lb, loc, nextWords);
}

/// acc[o] += filter (fh, slice) x input row o + fh.
void StreamKernelEmitter::multiply(RowBlock &blk, int64_t o, int64_t fh,
                                   int64_t sl, Value filt) {
  ArrayRef<Value> row = blk.X[o + fh];
  // Input A: a0 = X_2s, a1 = a2 = X_2s+1, a3 = X_2s+2; input B: b0 = X_2s,
  // b1 = X_2s+1.
  SmallVector<Value> el =
      p.inputB ? elementsOf(blk.lb, {row[2 * sl], row[2 * sl + 1]})
               : elementsOf(blk.lb, {row[2 * sl], row[2 * sl + 1],
                                     row[2 * sl + 1], row[2 * sl + 2]});
  Value in = vector::FromElementsOp::create(
      blk.lb, loc, VectorType::get({p.inputB ? 2 : 4, 2}, et), el);
  blk.acc[o] = p.inputB ? emitMmaM16N8K16(blk.lb, loc, filt, in, blk.acc[o])
                        : emitMmaM16N8K16(blk.lb, loc, in, filt, blk.acc[o]);
}

/// One step of the outer loop: the rows due, then every mma of the step.
void StreamKernelEmitter::multiplyStep(RowBlock &blk, int64_t step) {
  OpBuilder &lb = blk.lb;
  auto filterOf = [&](int64_t fh, int64_t sl) {
    return p.filterInRegisters ? filterRegs[fh * p.slices + sl]
                               : loadFilter(lb, fh, sl);
  };
  for (int64_t st : sched.current[step])
    blk.X[st] = p.smemInput ? loadRowSmem(lb, blk.buf, st)
                            : loadRow(lb, blk.r0, st);
  for (int64_t st : sched.next[step])
    blk.next[st] = loadRow(lb, blk.nextR0, st);
  for (int64_t sl = 0; sl < p.slices; ++sl) {
    if (p.filterOrder) {
      Value filt = filterOf(step, sl);
      for (int64_t o = 0; o < R; ++o)
        multiply(blk, o, step, sl, filt);
      continue;
    }
    for (int64_t o = std::max<int64_t>(0, step - FH + 1);
         o <= std::min<int64_t>(R - 1, step); ++o)
      multiply(blk, o, step - o, sl, filterOf(step - o, sl));
  }
}

/// Epilogue, part 1: accumulators -> the stage [warp][o][position in the
/// tile]. Input A: d[r][i] is output 2q + i of group 2g + r (position
/// 16g + 8r + 2q + i); input B: output g + 8r of group 2q + i (position
/// 32q + 16i + 8r + g).
void StreamKernelEmitter::storeAccumulators(RowBlock &blk) {
  OpBuilder &lb = blk.lb;
  IndexEmitter &l = blk.l;
  for (int64_t o = 0; o < R; ++o)
    for (int64_t r = 0; r < 2; ++r) {
      Value v =
          vector::ExtractOp::create(lb, loc, blk.acc[o], ArrayRef<int64_t>{r});
      v = arith::TruncFOp::create(lb, loc, pairTy, v);
      if (!p.inputB) {
        Value pos = l.add(l.add(l.mul(g, 16), l.mul(q, 2)), 8 * r);
        vector::StoreOp::create(lb, loc, v, stage,
                                ValueRange{warp, l.cst(o), pos}, false,
                                llvm::Align(4));
        continue;
      }
      for (int64_t i = 0; i < 2; ++i) {
        Value pos = l.add(l.add(l.mul(q, 32), g), 16 * i + 8 * r);
        Value s = vector::ExtractOp::create(lb, loc, v, ArrayRef<int64_t>{i});
        memref::StoreOp::create(lb, loc, s, stage,
                                ValueRange{warp, l.cst(o), pos});
      }
    }
}

/// Epilogue, part 2: the stage -> 16-byte stores of the block's 8 channels
/// per output (guarded where the tile passes the output).
void StreamKernelEmitter::storeOutputs(RowBlock &blk) {
  OpBuilder &lb = blk.lb;
  IndexEmitter &l = blk.l;
  const int64_t perThread = llvm::divideCeil(R * kTileOutputs, kThreads);
  for (int64_t i = 0; i < perThread; ++i) {
    Value idx = l.add(tid, i * kThreads);
    Value o = l.div(idx, kTileOutputs), pos = l.rem(idx, kTileOutputs);
    Value ok;
    if (R * kTileOutputs % kThreads != 0)
      ok = l.lt(o, R);
    Value oh = l.add(blk.r0, o);
    if (OH % R != 0)
      ok = l.andi(ok, l.lt(oh, OH));
    Value img = n0, col;
    if (p.images == 1) {
      col = l.add(l.mul(ct, kTileOutputs), pos);
    } else {
      Value j = l.div(pos, p.groupWidth);
      img = l.add(n0, l.div(j, p.span));
      col = l.add(l.mul(l.rem(j, p.span), p.groupWidth),
                  l.rem(pos, p.groupWidth));
      if (N % p.images != 0)
        ok = l.andi(ok, l.lt(img, N));
    }
    if ((p.images == 1 ? p.colTiles * kTileOutputs : p.groupWidth * p.span) >
        OW)
      ok = l.andi(ok, l.lt(col, OW));
    auto store = [&](OpBuilder &sb) {
      IndexEmitter s{sb, loc};
      SmallVector<Value> el;
      for (int64_t ch = 0; ch < kVec; ++ch)
        el.push_back(memref::LoadOp::create(sb, loc, stage,
                                            ValueRange{s.cst(ch), o, pos}));
      Value v = vector::FromElementsOp::create(sb, loc, chunkTy, el);
      vector::StoreOp::create(sb, loc, v, y,
                              operandIndex(img, oh, col, s.mul(c8, kVec)),
                              false, llvm::Align(16));
    };
    if (ok) {
      auto ifOp = scf::IfOp::create(lb, loc, ok, false);
      OpBuilder sb = ifOp.getThenBodyBuilder();
      store(sb);
    } else {
      store(lb);
    }
  }
}

/// The NHWC index of the kernel's (image, row, column, channel) in x or y:
/// with stream_columns the kernel's rows are the operands' columns.
SmallVector<Value> StreamKernelEmitter::operandIndex(Value n, Value row,
                                                     Value col,
                                                     Value c) const {
  if (columns)
    return {n, col, row, c};
  return {n, row, col, c};
}

template <typename OpTy>
struct StreamDepthwiseLowering : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    FailureOr<MmaStreamKernelAttr> config =
        emittableConfigOf<MmaStreamKernelAttr>(op, rewriter);
    if (failed(config))
      return failure();
    StreamShape shape;
    std::string why = streamIneligibility(op, shape);
    FailureOr<DepthwiseProblem> problem = failure();
    if (why.empty())
      problem = depthwiseProblemOf(op, why);
    if (failed(problem))
      return rewriter.notifyMatchFailure(op, why);
    if (config->isStreamColumns())
      shape = swapStreamAxes(shape);
    StreamPlan plan = planOf(shape, *config);
    StreamKernelEmitter(rewriter, op, *problem, shape, plan).emit();
    return success();
  }
};

struct ConvertDwcToGPUMmaStreamPass
    : PatternKernelPass<ConvertDwcToGPUMmaStreamPass,
                        dwc::impl::ConvertDwcToGPUMmaStreamBase,
                        /*benefit=*/4,
                        StreamDepthwiseLowering<DepthwiseConv2DOp>,
                        StreamDepthwiseLowering<DepthwiseConv2DBackwardDataOp>> {
  using PatternKernelPass::PatternKernelPass;
};

} // namespace
