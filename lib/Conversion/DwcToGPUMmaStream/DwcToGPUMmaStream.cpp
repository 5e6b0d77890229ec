//===- DwcToGPUMmaStream.cpp - streaming wide-filter depthwise conv (mma) -===//
//
// Lowers f16/bf16 depthwise convolutions with wide filters to the streaming
// band kernel on tensor cores. One warp owns one channel and a tile of 16
// groups x 8 outputs along the width; it streams the input rows of the tile
// once per row block and multiplies each row, held in registers, with every
// filter row it meets (the filter's Toeplitz band slices, held in shared
// memory or registers) into the accumulators of the R output rows it feeds.
// A first kernel writes the input channel-major with the width innermost
// (zero-padded columns), so each A register is one aligned 32-bit load.
// See the pass description in include/dwc/Conversion/Passes.td; the index
// math is mirrored by test/Conversion/DwcToGPUMmaStream/Inputs/stream_model.py.
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/DepthwiseProblem.h"
#include "dwc/Conversion/IndexEmitter.h"
#include "dwc/Conversion/LaunchBuilder.h"
#include "dwc/Conversion/MmaEmitter.h"
#include "dwc/Conversion/Passes.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_CONVERTDWCTOGPUMMASTREAM
#include "dwc/Conversion/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;
using namespace mlir::dwc;

namespace {

constexpr int64_t kWarps = 8;          // channels per block, one per warp
constexpr int64_t kThreads = 32 * kWarps;
constexpr int64_t kVec = 8;            // f16/bf16 per 16-byte chunk
constexpr int64_t kTileOutputs = 128;  // 16 groups (mma M) x 8 outputs (N)
constexpr int64_t kMaxSmemBytes = 227 * 1024;
constexpr int64_t kStaticSmemBytes = 48 * 1024;

/// The static shape of one streaming kernel.
struct StreamPlan {
  int64_t slices;     // K = 16 slices of a filter row's band
  int64_t blocks;     // 8-column input blocks per lane and row: 2 slices + 1
  int64_t groups;     // groups of 8 outputs per output row, ceil(OW / 8)
  int64_t groupSpan;  // groups of one image in a tile (16, or a power of 2)
  int64_t images;     // images per tile, 16 / groupSpan
  int64_t colTiles;   // tiles along the width
  int64_t pitch;      // workspace row pitch (columns, multiple of 8)
  bool maskCols;      // lanes may read past a workspace row
  int64_t rows;       // output rows per warp and row block
  int64_t prefetch;   // input rows loaded ahead
  int64_t rowBlocks;  // ceil(OH / rows)
  int64_t rowBlocksPerChunk, chunks;  // row blocks split over the grid
  int64_t tiles;      // (image sets) x (column tiles)
  int64_t bandEntries;  // filter band entries per row and channel
  bool filterInRegisters;
  int64_t filterBytes, stageBytes;
};

int64_t nextPowerOf2(int64_t v) {
  int64_t p = 1;
  while (p < v)
    p *= 2;
  return p;
}

/// Why a convolution with these operands cannot take the streaming kernel,
/// or an empty string.
std::string ineligibility(Operation *op, Value x, Value w, Value y, Type acc,
                          ArrayRef<int64_t> strides,
                          ArrayRef<int64_t> dilations, int64_t minFilterWidth,
                          int64_t maxFilterWidth) {
  auto init = dyn_cast<MemRefType>(y.getType());
  if (!init)
    return "tensor form (bufferize first)";
  int64_t FW = cast<MemRefType>(w.getType()).getShape()[1];
  if (FW < minFilterWidth)
    return "filter narrower than min-filter-width";
  if (FW > maxFilterWidth)
    return "filter wider than max-filter-width";
  auto in = cast<MemRefType>(x.getType());
  Type et = in.getElementType();
  if (!et.isF16() && !et.isBF16())
    return "element type is not f16 or bf16";
  if (!acc.isF32())
    return "accumulation type is not f32";
  if (llvm::any_of(strides, [](int64_t s) { return s != 1; }))
    return "stride is not 1";
  if (llvm::any_of(dilations, [](int64_t d) { return d != 1; }))
    return "dilation is not 1";
  if (in.getShape()[3] % kWarps != 0)
    return "channel count is not a multiple of 8";
  for (Value v : op->getOperands())
    if (!cast<MemRefType>(v.getType()).getLayout().isIdentity())
      return "non-identity layout";
  if (llvm::any_of(init.getShape(), [](int64_t d) { return d <= 0; }))
    return "empty output";
  return "";
}

FailureOr<DepthwiseProblem> problemOf(DepthwiseConv2DOp op, int64_t minFW,
                                      int64_t maxFW, std::string &why) {
  why = ineligibility(op, op.getInput(), op.getFilter(), op.getInit(),
                      op.getAccType(), op.getStrides(), op.getDilations(),
                      minFW, maxFW);
  if (!why.empty())
    return failure();
  return forwardProblem(op);
}

FailureOr<DepthwiseProblem> problemOf(DepthwiseConv2DBackwardDataOp op,
                                      int64_t minFW, int64_t maxFW,
                                      std::string &why) {
  why = ineligibility(op, op.getOutputGrad(), op.getFilter(), op.getInit(),
                      op.getAccType(), op.getStrides(), op.getDilations(),
                      minFW, maxFW);
  if (!why.empty())
    return failure();
  return backwardDataProblem(op, why);
}

template <typename OpTy>
struct StreamDepthwiseLowering : OpRewritePattern<OpTy> {
  StreamDepthwiseLowering(MLIRContext *ctx,
                          const ConvertDwcToGPUMmaStreamOptions &options)
      : OpRewritePattern<OpTy>(ctx, /*benefit=*/4), options(options) {}
  ConvertDwcToGPUMmaStreamOptions options;

  /// The kernel's shape for these sizes, or a reason it does not fit.
  FailureOr<StreamPlan> planOf(const DepthwiseSizes &s, std::string &why) const {
    StreamPlan p;
    p.slices = (s.FW + 7 + 15) / 16;
    p.blocks = 2 * p.slices + 1;
    p.groups = llvm::divideCeil(s.OW, int64_t(8));
    if (p.groups >= 16) {
      p.groupSpan = 16;
      p.images = 1;
      p.colTiles = llvm::divideCeil(p.groups, int64_t(16));
    } else {
      // Lanes own groups 2g and 2g + 1 of one image: at least 2 per image.
      p.groupSpan = std::max<int64_t>(2, nextPowerOf2(p.groups));
      p.images = 16 / p.groupSpan;
      p.colTiles = 1;
    }
    int64_t span = p.images == 1 ? 16 * p.colTiles : p.groupSpan;
    // Padded input columns of the window: OW + FW - 1.
    p.pitch = llvm::alignTo(s.OW + s.FW - 1, 8);
    // A lane's last word starts at column 8 (span - 2) + 6 + 16 slices.
    p.maskCols = 8 * span + 16 * p.slices - 8 > p.pitch;
    p.rows = std::min<int64_t>(options.rows, s.OH);
    p.prefetch = std::min<int64_t>(options.prefetch, s.FH - 1);
    p.rowBlocks = llvm::divideCeil(s.OH, p.rows);
    p.tiles = llvm::divideCeil(s.N, p.images) * p.colTiles;
    int64_t blocks = s.C / kWarps * p.tiles;
    int64_t chunks = std::min<int64_t>(
        p.rowBlocks,
        std::max<int64_t>(1, llvm::divideCeil(options.minBlocks, blocks)));
    p.rowBlocksPerChunk = llvm::divideCeil(p.rowBlocks, chunks);
    p.chunks = llvm::divideCeil(p.rowBlocks, p.rowBlocksPerChunk);
    p.bandEntries = 16 * p.slices;
    p.filterInRegisters = s.FH * p.slices <= options.filterRegisters;
    // Band entries are 4 halves (v[s], v[s + 1], v[s + 8], v[s + 9]).
    p.filterBytes = s.FH * kWarps * p.bandEntries * 4 * 2;
    p.stageBytes = kWarps * p.rows * kTileOutputs * 2;
    if (p.filterBytes + p.stageBytes > kMaxSmemBytes) {
      why = "filter band and output stage exceed 227 KB of shared memory";
      return failure();
    }
    if (int64_t(s.C / kWarps) * p.tiles * p.chunks > (int64_t(1) << 31) - 1) {
      why = "grid too large";
      return failure();
    }
    return p;
  }

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    std::string why;
    FailureOr<DepthwiseProblem> problem =
        problemOf(op, options.minFilterWidth, options.maxFilterWidth, why);
    if (failed(problem))
      return rewriter.notifyMatchFailure(op, why);
    DepthwiseSizes sz = sizesOf(*problem);
    FailureOr<StreamPlan> planOr = planOf(sz, why);
    if (failed(planOr))
      return rewriter.notifyMatchFailure(op, why);
    const StreamPlan &p = *planOr;
    const int64_t N = sz.N, IH = sz.IH, IW = sz.IW, C = sz.C, FH = sz.FH,
                  FW = sz.FW, OH = sz.OH, OW = sz.OW;
    const int64_t pt = problem->pt, pl = problem->pl;
    const bool rotate = problem->rotateFilter;
    Value x = problem->x, w = problem->w, bias = problem->bias, y = problem->y;
    Type et = cast<MemRefType>(x.getType()).getElementType();
    MLIRContext *ctx = rewriter.getContext();
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    auto chunkTy = VectorType::get({kVec}, et);
    auto pairTy = VectorType::get({2}, et);
    auto accTy = VectorType::get({2, 2}, rewriter.getF32Type());
    const int64_t C8 = C / kVec;

    // 1. Channel-major workspace: xt[n][ih][c][pc] = x[n][ih][pc - pl][c]
    //    (zero outside the row), pc < pitch. One thread per 8 columns x 8
    //    channels: eight 16-byte loads, an 8 x 8 transpose in registers,
    //    eight 16-byte stores (consecutive threads: consecutive columns).
    const int64_t wsSize = N * IH * C * p.pitch;
    Value xt = memref::AllocOp::create(rewriter, loc,
                                       MemRefType::get({wsSize}, et));
    {
      const int64_t colBlocks = p.pitch / kVec;
      const int64_t total = N * IH * C8 * colBlocks;
      auto [pre, b0] = createGridLaunch(
          rewriter, loc, llvm::divideCeil(total, kThreads), 1, kThreads);
      IndexEmitter k{b0, loc};
      Value id = k.add(k.mul(pre.getBlockIds().x, kThreads),
                       pre.getThreadIds().x);
      auto ifOp = scf::IfOp::create(b0, loc, k.lt(id, total), false);
      OpBuilder tb = ifOp.getThenBodyBuilder();
      IndexEmitter t{tb, loc};
      SmallVector<Value> d = t.delinearize(id, {N, IH, C8, colBlocks});
      Value n = d[0], ih = d[1], c8 = d[2], pb = d[3];
      Value zeros = arith::ConstantOp::create(
          tb, loc, DenseElementsAttr::get(chunkTy, tb.getZeroAttr(et)));
      SmallVector<Value> cols;
      for (int64_t e = 0; e < kVec; ++e) {
        Value ic = t.add(t.mul(pb, kVec), e - pl);
        Value ok = t.inBounds(ic, e - pl, p.pitch - 1 - pl, IW);
        Value v = vector::LoadOp::create(
            tb, loc, chunkTy, x,
            ValueRange{n, ih, t.clampIf(ok, ic, IW), t.mul(c8, kVec)}, false,
            llvm::Align(16));
        cols.push_back(ok ? arith::SelectOp::create(tb, loc, ok, v, zeros)
                                .getResult()
                          : v);
      }
      Value rowBase = t.mul(t.add(t.mul(t.add(t.mul(n, IH), ih), C),
                                  t.mul(c8, kVec)),
                            p.pitch);
      for (int64_t ch = 0; ch < kVec; ++ch) {
        SmallVector<Value> elems;
        for (int64_t e = 0; e < kVec; ++e)
          elems.push_back(vector::ExtractOp::create(tb, loc, cols[e],
                                                    ArrayRef<int64_t>{ch}));
        Value v = vector::FromElementsOp::create(tb, loc, chunkTy, elems);
        vector::StoreOp::create(
            tb, loc, v, xt,
            ValueRange{t.add(t.add(rowBase, ch * p.pitch), t.mul(pb, kVec))},
            false, llvm::Align(16));
      }
    }

    // 2. The streaming kernel.
    auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    auto bandTy = MemRefType::get({FH, kWarps, p.bandEntries * 4}, et,
                                  AffineMap(), wg);
    auto stageTy = MemRefType::get({kWarps, p.rows, kTileOutputs}, et,
                                   AffineMap(), wg);
    const int64_t smemBytes = p.filterBytes + p.stageBytes;
    const bool dynamic = smemBytes > kStaticSmemBytes;
    Value dynBytes;
    if (dynamic)
      dynBytes = arith::ConstantIntOp::create(rewriter, loc, smemBytes, 32);
    const int64_t gridX = C8 * p.tiles * p.chunks;
    auto [launch, b] = createGridLaunch(
        rewriter, loc, gridX, 1, kThreads,
        dynamic ? TypeRange{} : TypeRange{bandTy, stageTy}, dynBytes);
    IndexEmitter e{b, loc};
    Value band, stage;
    if (dynamic) {
      auto raw = gpu::DynamicSharedMemoryOp::create(
          b, loc,
          MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(),
                          wg));
      band = memref::ViewOp::create(b, loc, bandTy, raw, e.cst(0),
                                    ValueRange{});
      stage = memref::ViewOp::create(b, loc, stageTy, raw,
                                     e.cst(p.filterBytes), ValueRange{});
    } else {
      band = launch.getWorkgroupAttributions()[0];
      stage = launch.getWorkgroupAttributions()[1];
    }

    // Block: 8 channels (c8), a tile (image set, column tile), a chunk of
    // row blocks; warp: one channel; lane (g, q).
    Value tid = launch.getThreadIds().x;
    SmallVector<Value> bd = e.delinearize(launch.getBlockIds().x,
                                          {p.chunks, p.tiles, C8});
    Value chunk = bd[0], tile = bd[1], c8 = bd[2];
    Value ct = e.rem(tile, p.colTiles), imageSet = e.div(tile, p.colTiles);
    Value n0 = e.mul(imageSet, p.images);
    Value lane = e.rem(tid, 32), warp = e.div(tid, 32);
    Value g = e.div(lane, 4), q = e.rem(lane, 4);
    Value c = e.add(e.mul(c8, kVec), warp);

    // 2a. Band entries of the block's 8 channels: entry s of filter row fh
    //     holds (v[s], v[s + 1], v[s + 8], v[s + 9]), v[i] = tap i - 7 of
    //     the row (zero outside; backward data: the rotated filter), the B
    //     registers (b0, b1) of the lanes with 2q - g + 7 = s - 16 slice.
    {
      const int64_t entries = FH * kWarps * p.bandEntries;
      auto loop = scf::ForOp::create(b, loc, tid, e.cst(entries),
                                     e.cst(kThreads));
      OpBuilder lb = OpBuilder::atBlockBegin(loop.getBody());
      IndexEmitter l{lb, loc};
      SmallVector<Value> d = l.delinearize(loop.getInductionVar(),
                                           {FH, kWarps, p.bandEntries});
      Value fh = d[0], wc = d[1], s = d[2];
      Value ch = l.add(l.mul(c8, kVec), wc);
      Value zero = arith::ConstantOp::create(lb, loc, lb.getZeroAttr(et));
      SmallVector<Value> halves;
      for (int64_t off : {0, 1, 8, 9}) {
        Value tap = l.add(s, off - 7);
        Value ok = l.andi(l.ge(tap, 0), l.lt(tap, FW));
        Value src = l.select(ok, tap, l.cst(0));
        Value row = fh;
        if (rotate) {
          src = l.sub(FW - 1, src);
          row = l.sub(FH - 1, fh);
        }
        Value v = memref::LoadOp::create(lb, loc, w, ValueRange{row, src, ch});
        halves.push_back(arith::SelectOp::create(lb, loc, ok, v, zero));
      }
      Value quad = vector::FromElementsOp::create(
          lb, loc, VectorType::get({4}, et), halves);
      vector::StoreOp::create(lb, loc, quad, band,
                              ValueRange{fh, wc, l.mul(s, 4)}, false,
                              llvm::Align(8));
    }
    gpu::BarrierOp::create(b, loc);

    // B registers of (fh, slice): entry 2q - g + 7 + 16 slice, as two
    // 4-byte loads (b0, b1) that LLVM merges into one 8-byte load (one
    // vector<4> load would canonicalize into a shape_cast to the 2 x 2
    // operand, which has no NVVM lowering).
    Value s0 = e.sub(e.add(e.mul(q, 2), 7), g);  // 2q - g + 7, in [0, 13]
    auto loadB = [&](OpBuilder &ob, int64_t fh, int64_t slice) {
      IndexEmitter l{ob, loc};
      Value base = l.mul(l.add(s0, 16 * slice), 4);
      SmallVector<Value> el;
      for (int64_t r = 0; r < 2; ++r) {
        Value pr = vector::LoadOp::create(
            ob, loc, pairTy, band, ValueRange{l.cst(fh), warp, l.add(base, 2 * r)},
            false, llvm::Align(r == 0 ? 8 : 4));
        for (int64_t i = 0; i < 2; ++i)
          el.push_back(
              vector::ExtractOp::create(ob, loc, pr, ArrayRef<int64_t>{i}));
      }
      return vector::FromElementsOp::create(
                 ob, loc, VectorType::get({2, 2}, et), el)
          .getResult();
    };
    SmallVector<Value> bRegs;
    if (p.filterInRegisters)
      for (int64_t fh = 0; fh < FH; ++fh)
        for (int64_t sl = 0; sl < p.slices; ++sl)
          bRegs.push_back(loadB(b, fh, sl));

    // Lane's input words: mma rows g and g + 8 are groups 2g and 2g + 1 of
    // the tile (image (2g) / span, column group (2g) mod span), so block
    // register X_k = input columns colBase + 8k + 2q, + 1 serves
    // a0 = X_{2s}, a1 = a2 = X_{2s + 1}, a3 = X_{2s + 2} of slice s.
    Value colBase, image;
    if (p.images == 1) {
      colBase = e.add(e.mul(ct, kTileOutputs), e.mul(g, 16));
      image = n0;
    } else {
      colBase = e.mul(e.rem(e.mul(g, 2), p.groupSpan), 8);
      image = e.add(n0, e.div(e.mul(g, 2), p.groupSpan));
      if (N % p.images != 0)
        image = e.minc(image, N - 1);  // masked at the store
    }
    Value laneCol = e.add(colBase, e.mul(q, 2));
    Value laneBase = e.add(e.mul(e.add(e.mul(e.mul(image, IH), C), c),
                                 p.pitch),
                           laneCol);
    const int64_t rowStride = C * p.pitch;
    Value zeroPair = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(pairTy, b.getZeroAttr(et)));
    // The lane's words of padded input row r0 + step (input row r0 + step -
    // pt; zero outside the image).
    auto loadRow = [&](OpBuilder &ob, Value r0, int64_t step) {
      IndexEmitter l{ob, loc};
      Value ih = l.add(r0, step - pt);
      Value okRow = l.andi(l.ge(ih, 0), l.lt(ih, IH));
      Value base = l.add(laneBase, l.mul(l.clamp(ih, 0, IH - 1), rowStride));
      SmallVector<Value> regs;
      for (int64_t k = 0; k < p.blocks; ++k) {
        Value ok = okRow;
        Value idx = l.add(base, 8 * k);
        if (p.maskCols) {
          Value okCol = l.lt(l.add(laneCol, 8 * k), p.pitch);
          ok = l.andi(ok, okCol);
          idx = l.select(okCol, idx, base);
        }
        Value v = vector::LoadOp::create(ob, loc, pairTy, xt, ValueRange{idx},
                                         false, llvm::Align(4));
        regs.push_back(arith::SelectOp::create(ob, loc, ok, v, zeroPair));
      }
      return regs;
    };

    // Accumulator initial value: the bias (if any) or zero.
    Value accInit;
    if (bias) {
      Value bv = memref::LoadOp::create(b, loc, bias, ValueRange{c});
      bv = arith::ExtFOp::create(b, loc, b.getF32Type(), bv);
      accInit = vector::BroadcastOp::create(b, loc, accTy, bv);
    } else {
      accInit = arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(accTy, b.getF32FloatAttr(0.0f)));
    }

    // 2b. Row blocks of the chunk: the first `prefetch` rows of a row block
    //     are carried in from the previous one (loaded there as its rows
    //     R .. R + prefetch - 1).
    const int64_t R = p.rows, D = p.prefetch, steps = R + FH - 1;
    Value rbBegin = e.mul(chunk, p.rowBlocksPerChunk);
    Value rbEnd = e.minc(e.add(rbBegin, p.rowBlocksPerChunk), p.rowBlocks);
    SmallVector<Value> carried;
    for (int64_t st = 0; st < D; ++st)
      llvm::append_range(carried, loadRow(b, e.mul(rbBegin, R), st));
    auto loop = scf::ForOp::create(
        b, loc, rbBegin, rbEnd, e.cst(1), carried,
        [&](OpBuilder &lb, Location, Value rb, ValueRange args) {
          IndexEmitter l{lb, loc};
          Value r0 = l.mul(rb, R);
          SmallVector<SmallVector<Value>> X(steps);
          for (int64_t st = 0; st < D; ++st)
            X[st].assign(args.begin() + st * p.blocks,
                         args.begin() + (st + 1) * p.blocks);
          SmallVector<Value> acc(R, accInit);
          for (int64_t st = 0; st < steps; ++st) {
            if (D == 0)
              X[st] = loadRow(lb, r0, st);
            else if (st + D < steps)
              X[st + D] = loadRow(lb, r0, st + D);
            int64_t oLo = std::max<int64_t>(0, st - FH + 1),
                    oHi = std::min<int64_t>(R - 1, st);
            for (int64_t sl = 0; sl < p.slices; ++sl) {
              SmallVector<Value> aEl;
              for (int64_t k : {2 * sl, 2 * sl + 1, 2 * sl + 1, 2 * sl + 2})
                for (int64_t i = 0; i < 2; ++i)
                  aEl.push_back(vector::ExtractOp::create(
                      lb, loc, X[st][k], ArrayRef<int64_t>{i}));
              Value a = vector::FromElementsOp::create(
                  lb, loc, VectorType::get({4, 2}, et), aEl);
              for (int64_t o = oLo; o <= oHi; ++o) {
                int64_t fh = st - o;
                Value bm = p.filterInRegisters
                               ? bRegs[fh * p.slices + sl]
                               : loadB(lb, fh, sl);
                acc[o] = emitMmaM16N8K16(lb, loc, a, bm, acc[o]);
              }
            }
          }
          // Epilogue: accumulators -> the stage [warp][o][8 group + n] ->
          // 16-byte stores of the block's 8 channels per output.
          for (int64_t o = 0; o < R; ++o)
            for (int64_t half = 0; half < 2; ++half) {
              Value v = vector::ExtractOp::create(lb, loc, acc[o],
                                                  ArrayRef<int64_t>{half});
              v = arith::TruncFOp::create(lb, loc, pairTy, v);
              Value pos = l.add(l.add(l.mul(g, 16), l.mul(q, 2)), 8 * half);
              vector::StoreOp::create(lb, loc, v, stage,
                                      ValueRange{warp, l.cst(o), pos}, false,
                                      llvm::Align(4));
            }
          gpu::BarrierOp::create(lb, loc);
          const int64_t perThread =
              llvm::divideCeil(R * kTileOutputs, kThreads);
          for (int64_t i = 0; i < perThread; ++i) {
            Value idx = l.add(tid, i * kThreads);
            Value o = l.div(idx, kTileOutputs), pos = l.rem(idx, kTileOutputs);
            Value ok;
            if (R * kTileOutputs % kThreads != 0)
              ok = l.lt(o, R);
            Value oh = l.add(r0, o);
            if (OH % R != 0)
              ok = l.andi(ok, l.lt(oh, OH));
            Value img = n0, col;
            if (p.images == 1) {
              col = l.add(l.mul(ct, kTileOutputs), pos);
            } else {
              Value j = l.div(pos, 8);
              img = l.add(n0, l.div(j, p.groupSpan));
              col = l.add(l.mul(l.rem(j, p.groupSpan), 8), l.rem(pos, 8));
              if (N % p.images != 0)
                ok = l.andi(ok, l.lt(img, N));
            }
            if ((p.images == 1 ? p.colTiles * kTileOutputs
                               : 8 * p.groupSpan) > OW)
              ok = l.andi(ok, l.lt(col, OW));
            auto store = [&](OpBuilder &sb) {
              IndexEmitter s{sb, loc};
              SmallVector<Value> el;
              for (int64_t ch = 0; ch < kVec; ++ch)
                el.push_back(memref::LoadOp::create(
                    sb, loc, stage, ValueRange{s.cst(ch), o, pos}));
              Value v = vector::FromElementsOp::create(sb, loc, chunkTy, el);
              vector::StoreOp::create(sb, loc, v, y,
                                      ValueRange{img, oh, col,
                                                 s.mul(c8, kVec)},
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
          gpu::BarrierOp::create(lb, loc);
          SmallVector<Value> next;
          for (int64_t st = 0; st < D; ++st)
            llvm::append_range(next, X[R + st]);
          scf::YieldOp::create(lb, loc, next);
        });
    (void)loop;
    rewriter.setInsertionPointAfter(launch);
    memref::DeallocOp::create(rewriter, loc, xt);
    rewriter.eraseOp(op);
    return success();
  }
};

struct ConvertDwcToGPUMmaStreamPass
    : dwc::impl::ConvertDwcToGPUMmaStreamBase<ConvertDwcToGPUMmaStreamPass> {
  using Base::Base;
  void runOnOperation() override {
    auto bad = [&](StringRef what, int64_t v) {
      getOperation().emitError()
          << "convert-dwc-to-gpu-mma-stream: " << what << ", got " << v;
      signalPassFailure();
    };
    if (rows < 1 || rows > 32)
      return bad("rows must be in [1, 32]", rows);
    if (prefetch < 0 || prefetch > 8)
      return bad("prefetch must be in [0, 8]", prefetch);
    ConvertDwcToGPUMmaStreamOptions opts{minFilterWidth, maxFilterWidth, rows,
                                         prefetch, filterRegisters, minBlocks};
    RewritePatternSet patterns(&getContext());
    patterns.add<StreamDepthwiseLowering<DepthwiseConv2DOp>,
                 StreamDepthwiseLowering<DepthwiseConv2DBackwardDataOp>>(
        &getContext(), opts);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
