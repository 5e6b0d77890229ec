//===- DwcToGPUGemv.cpp - FP32 depthwise conv, Flash-DWC GEMV dataflow ----===//
//
// Lowers eligible FP32 depthwise convolutions (memref form) to the CUDA-core
// GEMV-dataflow kernel: 32-channel x 16-patch block tiles, TM outputs x 4
// channels per thread, width-first register-window input reuse with the FW
// loop fully unrolled, predicated padding. Stride-1 backward-data ops take
// the same kernel on the 180-degree rotated filter (rotation fused into the
// filter loads). See the pass description in include/dwc/Conversion/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/KernelSelection.h"
#include "dwc/Conversion/Passes.h"
#include "dwc/Conversion/DepthwiseProblem.h"
#include "dwc/Conversion/IndexEmitter.h"
#include "dwc/Conversion/LaunchBuilder.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
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

namespace {

/// Threads along the channels within a warp: 8 threads x 128 bits = one
/// 128-byte transaction. Channels per thread V = `vectorBits` bits (128:
/// 4 x f32, 8 x f16/bf16; 64: 4 x f16/bf16, 64-byte transactions);
/// channels per block BN = 8 V.
constexpr int64_t kThreadsAlongChannels = 8;
int64_t channelsPerThread(Type elem, int64_t vectorBits) {
  return vectorBits / elem.getIntOrFloatBitWidth();
}
/// Warps per block and patches per block (4 warps x 4 patch rows).
constexpr int64_t kWarps = 4;
constexpr int64_t kPatchesPerBlock = kWarps * (32 / kThreadsAlongChannels);
constexpr int64_t kThreads = kWarps * 32;

/// Why a convolution with these operands cannot take the GEMV kernel, or an
/// empty string.
std::string ineligibility(Operation *op, Value x, Value y, Type acc,
                          ArrayRef<int64_t> strides,
                          ArrayRef<int64_t> dilations, int64_t vectorBits) {
  auto init = dyn_cast<MemRefType>(y.getType());
  if (!init)
    return "tensor form (bufferize first)";
  auto in = cast<MemRefType>(x.getType());
  if (!in.getElementType().isF32() && !in.getElementType().isF16() &&
      !in.getElementType().isBF16())
    return "element type is not f32, f16 or bf16";
  if (!acc.isF32())
    return "accumulation type is not f32";
  if (llvm::any_of(strides, [](int64_t s) { return s != 1; }))
    return "stride is not 1";
  if (llvm::any_of(dilations, [](int64_t d) { return d != 1; }))
    return "dilation is not 1";
  if (in.getShape()[3] % channelsPerThread(in.getElementType(), vectorBits) !=
      0)
    return "channel count is not a multiple of " + std::to_string(vectorBits) +
           " bits";
  for (Value v : op->getOperands())
    if (!cast<MemRefType>(v.getType()).getLayout().isIdentity())
      return "non-identity layout";
  return "";
}

FailureOr<DepthwiseProblem> problemOf(DepthwiseConv2DOp op, int64_t vectorBits,
                                      std::string &why) {
  why = ineligibility(op, op.getInput(), op.getInit(), op.getAccType(),
                      op.getStrides(), op.getDilations(), vectorBits);
  if (!why.empty())
    return failure();
  return forwardProblem(op);
}

FailureOr<DepthwiseProblem> problemOf(DepthwiseConv2DBackwardDataOp op,
                                      int64_t vectorBits, std::string &why) {
  why = ineligibility(op, op.getOutputGrad(), op.getInit(), op.getAccType(),
                      op.getStrides(), op.getDilations(), vectorBits);
  if (!why.empty())
    return failure();
  return backwardDataProblem(op, why);
}

/// Small IR-building helpers for index arithmetic and vectors: memory holds
/// `vw` elements of its element type per thread, arithmetic is f32.
struct Emitter : F32VectorEmitter {
  using F32VectorEmitter::F32VectorEmitter;
  /// Rounds an f32 vector once to the memory's element type and stores it.
  void store(Value v, Value mem, ValueRange idx) {
    Type elem = cast<MemRefType>(mem.getType()).getElementType();
    if (!elem.isF32())
      v = arith::TruncFOp::create(b, loc, vec(elem), v);
    vector::StoreOp::create(b, loc, v, mem, idx, /*nontemporal=*/false,
                            align(elem));
  }
};

/// Filter taps per shared-memory row block: one copy round of 128 threads x
/// 16 bytes covers 16 taps x 32 channels.
constexpr int64_t kTapsPerCopyRound = kThreads / kThreadsAlongChannels;

template <typename OpTy>
struct GemvDepthwiseLowering : OpRewritePattern<OpTy> {
  GemvDepthwiseLowering(MLIRContext *ctx, int64_t tm, bool filterSmem,
                        int64_t halfVectorBits, bool halfFilterSmem,
                        int64_t unrollRows)
      : OpRewritePattern<OpTy>(ctx, /*benefit=*/2), tmOption(tm),
        f32FilterSmem(filterSmem), halfVectorBits(halfVectorBits),
        halfFilterSmem(halfFilterSmem), unrollRows(unrollRows) {}
  int64_t tmOption;
  /// Filter rows through shared memory (f32, and f16/bf16).
  bool f32FilterSmem;
  /// Vector width of f16/bf16 channel vectors (0: by filter size; f32
  /// always uses 128).
  int64_t halfVectorBits;
  bool halfFilterSmem;
  /// f16/bf16 filters of at most this many rows unroll the row loop.
  int64_t unrollRows;

  /// 64-bit f16/bf16 vectors for filters of at most kSmallFilterTaps taps
  /// (memory-bound: twice the threads, half the registers), 128-bit ones
  /// above (fewer instructions per FMA); docs/KernelSelection.md, "GEMV".
  static constexpr int64_t kSmallFilterTaps = 9;
  int64_t vectorBitsFor(Type elem, int64_t taps) const {
    if (elem.isF32())
      return 128;
    if (halfVectorBits)
      return halfVectorBits;
    return taps <= kSmallFilterTaps ? 64 : 128;
  }

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (hasOtherKernel(op, ""))
      return rewriter.notifyMatchFailure(op, "dwc.kernel names another kernel");
    std::string why;
    Type opElem =
        cast<MemRefType>(op->getOperand(0).getType()).getElementType();
    auto fShape = cast<MemRefType>(op->getOperand(1).getType()).getShape();
    const int64_t vectorBits = vectorBitsFor(opElem, fShape[0] * fShape[1]);
    FailureOr<DepthwiseProblem> problem = problemOf(op, vectorBits, why);
    if (failed(problem))
      return rewriter.notifyMatchFailure(op, why);

    Value x = problem->x, w = problem->w, bias = problem->bias,
          y = problem->y;
    DepthwiseSizes sz = sizesOf(*problem);
    int64_t N = sz.N, IH = sz.IH, IW = sz.IW, C = sz.C, FH = sz.FH, FW = sz.FW,
            OH = sz.OH, OW = sz.OW;
    int64_t pt = problem->pt, pl = problem->pl;
    bool rotate = problem->rotateFilter;

    Type elem = cast<MemRefType>(x.getType()).getElementType();
    const int64_t kChannelsPerThread = channelsPerThread(elem, vectorBits);
    // f16/bf16 with 64-bit vectors read filters from global memory (L1).
    const bool filterSmem =
        elem.isF32() ? f32FilterSmem : halfFilterSmem && vectorBits == 128;
    const int64_t kChannelsPerBlock = kThreadsAlongChannels * kChannelsPerThread;
    // Shared filter row pitch: BN channels + 16 bytes of padding.
    const int64_t kFilterPitch = kChannelsPerBlock + kChannelsPerThread;

    int64_t TM = tmOption > 0 ? std::min(tmOption, OW) : std::min<int64_t>(8, OW);
    int64_t OWc = (OW + TM - 1) / TM;
    int64_t P = N * OH * OWc;
    int64_t gridX = (C + kChannelsPerBlock - 1) / kChannelsPerBlock;
    int64_t gridY = (P + kPatchesPerBlock - 1) / kPatchesPerBlock;

    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    auto launchAndBuilder =
        createGridLaunch(rewriter, loc, gridX, gridY, kThreads);
    gpu::LaunchOp launch = launchAndBuilder.first;
    OpBuilder &b = launchAndBuilder.second;
    Emitter e{b, loc, kChannelsPerThread};

    // Thread coordinates: 8 threads along channels, 4 x 4 along patches.
    Value tid = launch.getThreadIds().x;
    Value lane = e.rem(tid, 32), warp = e.div(tid, 32);
    Value c0 = e.add(e.mul(launch.getBlockIds().x, kChannelsPerBlock),
                     e.mul(e.rem(lane, kThreadsAlongChannels), kChannelsPerThread));
    Value patch =
        e.add(e.mul(launch.getBlockIds().y, kPatchesPerBlock),
              e.add(e.mul(warp, 32 / kThreadsAlongChannels),
                    e.div(lane, kThreadsAlongChannels)));
    Value active;
    if (C % kChannelsPerBlock != 0)
      active = e.andi(active, e.lt(c0, C));
    if (P % kPatchesPerBlock != 0)
      active = e.andi(active, e.lt(patch, P));

    // Shared filter tile: 2 buffers x FWp taps x (32 + 4) channels, filled
    // one filter row at a time with cp.async.cg (L2 only), double-buffered.
    int64_t FWp = (FW + kTapsPerCopyRound - 1) / kTapsPerCopyRound *
                  kTapsPerCopyRound;
    Value smem;
    if (filterSmem) {
      auto wgSpace = gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                                gpu::AddressSpace::Workgroup);
      auto smemType = MemRefType::get({2, FWp, kFilterPitch}, elem, AffineMap(),
                                      wgSpace);
      smem = launch.addWorkgroupAttribution(smemType, loc);
    }
    Value cBlock = e.mul(launch.getBlockIds().x, kChannelsPerBlock);
    Value cInTile = e.mul(e.rem(lane, kThreadsAlongChannels), kChannelsPerThread);
    // Copies filter row `fh` into shared buffer `buf`: every thread issues
    // FWp/16 16-byte copies; taps past FW and channels past C are
    // zero-filled (source size 0) from a clamped, in-bounds address.
    auto copyFilterRow = [&](OpBuilder &cb, Value fh, Value buf) {
      Emitter c{cb, loc, kChannelsPerThread};
      SmallVector<Value> tokens;
      Value ch = c.add(cBlock, cInTile);
      Value chValid = C % kChannelsPerBlock ? c.lt(ch, C) : Value();
      Value srcCh = chValid ? Value(cb.createOrFold<arith::MinSIOp>(
                                  loc, ch, c.cst(C - kChannelsPerThread)))
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
          srcElems = arith::SelectOp::create(cb, loc, valid,
                                             c.cst(kChannelsPerThread), c.cst(0));
        tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
            cb, loc, nvgpu::DeviceAsyncTokenType::get(cb.getContext()), smem,
            ValueRange{buf, tap, cInTile}, w,
            ValueRange{rotate ? c.sub(FH - 1, fh) : fh,
                       rotate ? c.sub(FW - 1, srcTap) : srcTap, srcCh},
            cb.getIndexAttr(kChannelsPerThread), srcElems,
            // cp.async.cg (L2 only) exists for 16-byte copies only.
            vectorBits == 128 ? cb.getUnitAttr() : UnitAttr()));
      }
      return nvgpu::DeviceAsyncCreateGroupOp::create(
          cb, loc, nvgpu::DeviceAsyncTokenType::get(cb.getContext()), tokens);
    };

    Value owc = e.rem(patch, OWc), rest = e.div(patch, OWc);
    Value oh = e.rem(rest, OH), n = e.div(rest, OH);
    Value ow0 = e.mul(owc, TM);
    Value init = e.zeros();
    if (bias) {
      // Inactive threads may point past C: clamp (their result is unused).
      Value cb = C % kChannelsPerBlock
                     ? Value(b.createOrFold<arith::MinSIOp>(
                           loc, c0, e.cst(C - kChannelsPerThread)))
                     : c0;
      init = e.load(bias, ValueRange{cb});
    }
    SmallVector<Value> accInit(TM, init);
    if (filterSmem)
      copyFilterRow(b, e.cst(0), e.cst(0));

    // The products of filter row `fh` (input row `ih`) with TM outputs:
    // the register window over the row, one new input vector and one
    // filter vector per tap. `rowOk` (may be null): the row lies in the
    // image; when set, the loads are clamped into it and zeroed outside.
    auto rowProducts = [&](OpBuilder &ib, Value fh, Value ih, Value rowOk,
                           Value buf, ValueRange accs) {
      Emitter k{ib, loc, kChannelsPerThread};
      Value base = k.add(ow0, -pl);
      Value zero = k.zeros();
      Value ihc = rowOk ? k.clamp(ih, 0, IH - 1) : ih;
      // Input vector at iw = ow0 - pl + j: a clamped in-bounds load,
      // zeroed where it falls into the padding.
      auto loadInput = [&](int64_t j) -> Value {
        Value iw = k.add(base, j);
        Value valid = rowOk;
        bool widthPad = false;
        if (j < pl)
          valid = k.andi(valid, k.ge(iw, 0)), widthPad = true;
        if ((OWc - 1) * TM - pl + j >= IW)
          valid = k.andi(valid, k.lt(iw, IW)), widthPad = true;
        Value iwc = widthPad ? k.clamp(iw, 0, IW - 1) : iw;
        Value v = k.load(x, ValueRange{n, ihc, iwc, c0});
        if (!valid)
          return v;
        return arith::SelectOp::create(ib, loc, valid, v, zero);
      };
      SmallVector<Value> acc(accs);
      std::deque<Value> window;
      for (int64_t j = 0; j < TM - 1; ++j)
        window.push_back(loadInput(j));
      for (int64_t fw = 0; fw < FW; ++fw) {
        window.push_back(loadInput(fw + TM - 1));
        Value wv = filterSmem
                       ? k.load(smem, ValueRange{buf, k.cst(fw), cInTile})
                       : k.load(w, ValueRange{rotate ? k.sub(FH - 1, fh) : fh,
                                              k.cst(rotate ? FW - 1 - fw : fw),
                                              c0});
        for (int64_t i = 0; i < TM; ++i)
          acc[i] = vector::FMAOp::create(ib, loc, window[i], wv, acc[i]);
        window.pop_front();
      }
      return acc;
    };

    SmallVector<Value> results;
    if (!filterSmem && !elem.isF32() && FH <= unrollRows) {
      // Short f16/bf16 filters from global memory: the rows unrolled, every
      // row's loads independent of the others (issued together); rows in
      // the padding and inactive threads load clamped in-bounds addresses
      // and contribute zeros.
      if (P % kPatchesPerBlock != 0)
        n = b.createOrFold<arith::MinSIOp>(loc, n, e.cst(N - 1));
      if (C % kChannelsPerBlock != 0)
        c0 = b.createOrFold<arith::MinSIOp>(loc, c0,
                                            e.cst(C - kChannelsPerThread));
      results.assign(accInit.begin(), accInit.end());
      for (int64_t fh = 0; fh < FH; ++fh) {
        Value ih = e.add(oh, fh - pt);
        Value rowOk = e.andi(active, e.andi(e.ge(ih, 0), e.lt(ih, IH)));
        results = rowProducts(b, e.cst(fh), ih, rowOk, Value(), results);
      }
    } else {
      auto rows = scf::ForOp::create(
          b, loc, e.cst(0), e.cst(FH), e.cst(1), accInit,
          [&](OpBuilder &rb, Location, Value fh, ValueRange accs) {
            Emitter r{rb, loc, kChannelsPerThread};
            Value buf;
            if (filterSmem) {
              // Prefetch the next row into the other buffer, then wait for
              // this row's copies (one group may stay in flight).
              buf = r.rem(fh, 2);
              Value next = rb.createOrFold<arith::MinSIOp>(
                  loc, r.add(fh, 1), r.cst(FH - 1));
              Value nextBuf =
                  rb.createOrFold<arith::SubIOp>(loc, r.cst(1), buf);
              Value group = copyFilterRow(rb, next, nextBuf);
              nvgpu::DeviceAsyncWaitOp::create(rb, loc, group,
                                               rb.getI32IntegerAttr(1));
              gpu::BarrierOp::create(rb, loc);
            }
            Value ih = r.add(r.add(oh, fh), -pt);
            // A filter row wholly in the padding contributes nothing.
            Value doRow = r.andi(active, r.andi(r.ge(ih, 0), r.lt(ih, IH)));
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
      results.assign(rows.getResults().begin(), rows.getResults().end());
    }

    auto emitStores = [&](OpBuilder &tb) {
      Emitter t{tb, loc, kChannelsPerThread};
      for (int64_t i = 0; i < TM; ++i) {
        Value ow = t.add(ow0, i);
        Value result = results[i];
        if ((OWc - 1) * TM + i < OW) {
          t.store(result, y, ValueRange{n, oh, ow, c0});
          continue;
        }
        auto ifStore = scf::IfOp::create(tb, loc, t.lt(ow, OW), false);
        OpBuilder sb = ifStore.getThenBodyBuilder();
        Emitter st{sb, loc, kChannelsPerThread};
        st.store(result, y, ValueRange{n, oh, ow, c0});
      }
    };
    if (active) {
      auto ifActive = scf::IfOp::create(b, loc, active, false);
      OpBuilder tb = ifActive.getThenBodyBuilder();
      emitStores(tb);
    } else {
      emitStores(b);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// Register row tiles for short stride-1 filters: a thread owns TH output
/// rows x TM outputs along the width x V channels (1-D grid, channel
/// vectors innermost: a warp reads whole channel runs of one position).
/// The TH + FH - 1 input rows of the tile are visited in order, each row's
/// TM + FW - 1 vectors loaded once (width-first); a row feeds every output
/// row r of the tile with filter row fh = t - r, so each input row is read
/// once per tile instead of once per output row, and an output row is
/// stored right after its last filter row (at most FH rows of accumulators
/// are live). Filter vectors stay in registers when they fit, else they
/// are read through L1 at each use. Rows and columns in the padding are
/// clamped in-bounds loads replaced by zeros (no branches: all loads of a
/// tile may be in flight together).
template <typename OpTy>
struct RowTileDepthwiseLowering : OpRewritePattern<OpTy> {
  RowTileDepthwiseLowering(MLIRContext *ctx, int64_t rowTile, int64_t strip,
                           int64_t vectorBits, int64_t maxTaps,
                           int64_t filterRegs, int64_t smCount)
      : OpRewritePattern<OpTy>(ctx, /*benefit=*/3), rowTile(rowTile),
        strip(strip), vectorBitsOption(vectorBits), maxTaps(maxTaps),
        filterRegLimit(filterRegs), minTileBlocks(kMinTileWaves * smCount) {}
  /// The options row-tile, row-tile-strip, row-tile-vector-bits (0: the
  /// default tile's) and row-tile-max-taps.
  int64_t rowTile, strip, vectorBitsOption, maxTaps;
  /// f32 registers the filter may take (FH x FW x V); above, filter vectors
  /// are loaded at each use.
  int64_t filterRegLimit;

  /// Threads per block of the 1-D launch.
  static constexpr int64_t kBlock = 256;
  /// Default tiles (rows x outputs x vector bits; the measurements behind
  /// each are in docs/KernelSelection.md, "row tile"): the kernel is
  /// issue-bound, so taller and wider tiles widen each loaded word for more
  /// FMAs until the filter and the window no longer fit in registers.
  /// 16-bit data: up to 9 taps 4 x 4 x 64 bits; from 10 taps 8 rows x 32
  /// bits (half the filter registers), 8 outputs from 26 taps. f32: 4 x 8 x
  /// 64 bits for up to 9 and from 26 taps, else 8 x 8 x 32.
  static constexpr int64_t kDefaultRows = 4, kDefaultStrip = 4;
  static constexpr int64_t kShortFilterMaxTaps = 9, kWideStripMinTaps = 26;
  static constexpr int64_t kShortFilterBits = 64;
  struct Tile {
    int64_t bits, rows, strip;
  };
  static Tile defaultTile(bool narrow, int64_t taps) {
    if (narrow && taps <= kShortFilterMaxTaps)
      return {kShortFilterBits, kDefaultRows, kDefaultStrip};
    if (narrow)
      return {32, 8, taps >= kWideStripMinTaps ? 8 : 4};
    if (taps <= kShortFilterMaxTaps || taps >= kWideStripMinTaps)
      return {64, 4, 8};
    return {32, 8, 8};
  }
  /// The long-filter and f32 tiles hold 2-4x the work of a short tile per
  /// thread, which leaves SMs idle on small grids: below 4 waves of the
  /// target's SMs, 16-bit data takes the short-filter tile and f32 the GEMV
  /// kernel.
  static constexpr int64_t kMinTileWaves = 4;
  int64_t minTileBlocks;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (hasOtherKernel(op, ""))
      return rewriter.notifyMatchFailure(op, "dwc.kernel names another kernel");
    Type opElem =
        cast<MemRefType>(op->getOperand(0).getType()).getElementType();
    bool narrow = opElem.isF16() || opElem.isBF16();
    auto fShape = cast<MemRefType>(op->getOperand(1).getType()).getShape();
    int64_t taps = fShape[0] * fShape[1];
    if (taps > maxTaps)
      return rewriter.notifyMatchFailure(op, "filter longer than row-tile-max-taps");
    // Each of row-tile, row-tile-strip and row-tile-vector-bits at 0 takes
    // the default tile's value; row-tile = 1 turns the kernel off.
    Tile tile = defaultTile(narrow, taps);
    int64_t TH = rowTile ? rowTile : tile.rows;
    int64_t TM = strip ? strip : tile.strip;
    int64_t vectorBits = vectorBitsOption ? vectorBitsOption : tile.bits;
    if (TH <= 1)
      return rewriter.notifyMatchFailure(op, "row tiles off");
    std::string why;
    FailureOr<DepthwiseProblem> problem = problemOf(op, vectorBits, why);
    if (failed(problem))
      return rewriter.notifyMatchFailure(op, why);
    // Small grids with the default tile: 16-bit data takes the short-filter
    // tile (4 channels where C allows), f32 the GEMV kernel.
    bool shortTile = narrow && taps <= kShortFilterMaxTaps;
    if (!shortTile && !rowTile && !strip && !vectorBitsOption) {
      DepthwiseSizes s = sizesOf(*problem);
      int64_t V = channelsPerThread(opElem, vectorBits);
      int64_t tiles = s.N * llvm::divideCeil(s.OH, std::min(TH, s.OH)) *
                      llvm::divideCeil(s.OW, std::min(TM, s.OW)) * (s.C / V);
      int64_t blocks = llvm::divideCeil(tiles, kBlock);
      if (blocks < minTileBlocks) {
        if (!narrow)
          return rewriter.notifyMatchFailure(op, "f32 on a small grid");
        TH = kDefaultRows;
        TM = kDefaultStrip;
        if (s.C % channelsPerThread(opElem, kShortFilterBits) == 0)
          vectorBits = kShortFilterBits;
        problem = problemOf(op, vectorBits, why);
        if (failed(problem))
          return rewriter.notifyMatchFailure(op, why);
      }
    }

    Value x = problem->x, w = problem->w, bias = problem->bias,
          y = problem->y;
    DepthwiseSizes sz = sizesOf(*problem);
    int64_t N = sz.N, IH = sz.IH, IW = sz.IW, C = sz.C, FH = sz.FH, FW = sz.FW,
            OH = sz.OH, OW = sz.OW;
    int64_t pt = problem->pt, pl = problem->pl;
    bool rotate = problem->rotateFilter;
    Type elem = cast<MemRefType>(x.getType()).getElementType();
    int64_t V = channelsPerThread(elem, vectorBits);

    bool filterInRegs = FH * FW * V <= filterRegLimit;
    TH = std::min(TH, OH);
    TM = std::min(TM, OW);
    int64_t rows = TH + FH - 1, cols = TM + FW - 1;
    int64_t OHt = llvm::divideCeil(OH, TH), OWc = llvm::divideCeil(OW, TM);
    int64_t CV = C / V;
    int64_t total = N * OHt * OWc * CV;
    int64_t blocks = llvm::divideCeil(total, kBlock);
    if (blocks > std::numeric_limits<int32_t>::max())
      return rewriter.notifyMatchFailure(op, "grid too large");

    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    auto launchAndBuilder = createGridLaunch(rewriter, loc, blocks, 1, kBlock);
    gpu::LaunchOp launch = launchAndBuilder.first;
    OpBuilder &ob = launchAndBuilder.second;
    Emitter g{ob, loc, V};
    Value gid = g.add(g.mul(launch.getBlockIds().x, kBlock),
                      launch.getThreadIds().x);
    // Threads past the last tile do nothing.
    std::optional<OpBuilder> inRange;
    if (total % kBlock != 0)
      inRange.emplace(
          scf::IfOp::create(ob, loc, g.lt(gid, total), false)
              .getThenBodyBuilder());
    OpBuilder &b = inRange ? *inRange : ob;
    Emitter e{b, loc, V};

    auto co = e.delinearize(gid, {N, OHt, OWc, CV});
    // The last tile of a row or column that the tile does not divide is
    // moved back to end at the image's edge: it overlaps its neighbour,
    // whose outputs it recomputes and stores with the same values, and no
    // store is guarded. (Guarded stores put each tail output's FMA chain
    // in a conditional block, and ptxas spilled kilobytes per thread: 7x7
    // f16 at 2 x 56 x 57 x 72 ran 0.47 ms with 32 registers.) The static
    // bounds below stay those of the unmoved tiles: a superset.
    // The moved start is selected by tile index, not min(t * T, O - T):
    // LLVM folds a bound check on a min-clamped start into `min == bound`,
    // which ptxas 13.0 miscompiles in 16-bit form (min.u16 + setp.eq.b16:
    // VIMNMX's predicate output with the wrong sense; wrong columns at
    // 3 x 4 x 6 x 72 f16, bench/results/2026-12-01-fuzzbug-root.md).
    auto tileStart = [&](Value t, int64_t tiles, int64_t size, int64_t extent) {
      Value start = e.mul(t, size);
      if (extent % size == 0)
        return start;
      return e.select(e.eq(t, tiles - 1), e.cst(extent - size), start);
    };
    Value oh0 = tileStart(co[1], OHt, TH, OH);
    Value ow0 = tileStart(co[2], OWc, TM, OW);
    Value n = co[0], c = e.mul(co[3], V);
    Value hs0 = e.add(oh0, -pt), wbase = e.add(ow0, -pl);
    Value zero = e.zeros();
    // Columns of the tile: clamped index and validity, static per j.
    SmallVector<Value> colIdx(cols), colOk(cols);
    for (int64_t j = 0; j < cols; ++j) {
      Value iw = e.add(wbase, j);
      colOk[j] = e.inBounds(iw, j - pl, (OWc - 1) * TM + j - pl, IW);
      colIdx[j] = e.clampIf(colOk[j], iw, IW);
    }
    auto filterAt = [&](int64_t fh, int64_t fw) {
      return e.load(w, ValueRange{e.cst(rotate ? FH - 1 - fh : fh),
                                  e.cst(rotate ? FW - 1 - fw : fw), c});
    };
    SmallVector<Value> filterRegs;
    if (filterInRegs)
      for (int64_t fh = 0; fh < FH; ++fh)
        for (int64_t fw = 0; fw < FW; ++fw)
          filterRegs.push_back(filterAt(fh, fw));
    Value init = bias ? e.load(bias, ValueRange{c}) : zero;
    SmallVector<SmallVector<Value>> acc(TH, SmallVector<Value>(TM));
    for (int64_t t = 0; t < rows; ++t) {
      Value ih = e.add(hs0, t);
      Value rowOk = e.inBounds(ih, t - pt, (OHt - 1) * TH + t - pt, IH);
      Value ihc = e.clampIf(rowOk, ih, IH);
      SmallVector<Value> xs(cols);
      for (int64_t j = 0; j < cols; ++j) {
        xs[j] = e.loadOrZero(x, ValueRange{n, ihc, colIdx[j], c},
                             e.andi(rowOk, colOk[j]));
      }
      // Output rows r of the tile whose filter row t - r is in [0, FH).
      for (int64_t r = std::max<int64_t>(0, t - FH + 1);
           r <= std::min(t, TH - 1); ++r) {
        int64_t fh = t - r;
        for (int64_t fw = 0; fw < FW; ++fw) {
          Value wv =
              filterInRegs ? filterRegs[fh * FW + fw] : filterAt(fh, fw);
          for (int64_t i = 0; i < TM; ++i)
            acc[r][i] = vector::FMAOp::create(b, loc, xs[i + fw], wv,
                                              acc[r][i] ? acc[r][i] : init);
        }
        if (fh != FH - 1)
          continue;
        // Last filter row of output row r: store it.
        Value oh = e.add(oh0, r);
        for (int64_t i = 0; i < TM; ++i)
          e.store(acc[r][i], y, ValueRange{n, oh, e.add(ow0, i), c});
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct ConvertDwcToGPUGemvPass
    : dwc::impl::ConvertDwcToGPUGemvBase<ConvertDwcToGPUGemvPass> {
  using Base::Base;
  void runOnOperation() override {
    if (tm < 0) {
      getOperation().emitError() << "convert-dwc-to-gpu-gemv: tm must be >= 0";
      return signalPassFailure();
    }
    if (halfVectorBits != 0 && halfVectorBits != 64 && halfVectorBits != 128) {
      getOperation().emitError()
          << "convert-dwc-to-gpu-gemv: half-vector-bits must be 0, 64 or 128";
      return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    if (rowTile < 0 || rowTile > 16 || rowTileStrip < 0 || rowTileStrip > 8) {
      getOperation().emitError() << "convert-dwc-to-gpu-gemv: row-tile must "
                                    "be in [0, 16], row-tile-strip in [0, 8]";
      return signalPassFailure();
    }
    if (rowTileVectorBits != 0 && rowTileVectorBits != 32 &&
        rowTileVectorBits != 64 && rowTileVectorBits != 128) {
      getOperation().emitError() << "convert-dwc-to-gpu-gemv: "
                                    "row-tile-vector-bits must be 0, 32, 64 "
                                    "or 128";
      return signalPassFailure();
    }
    patterns.add<RowTileDepthwiseLowering<DepthwiseConv2DOp>,
                 RowTileDepthwiseLowering<DepthwiseConv2DBackwardDataOp>>(
        &getContext(), rowTile, rowTileStrip, rowTileVectorBits,
        rowTileMaxTaps, rowTileFilterRegs,
        dwc::TargetAttr::lookup(getOperation()).getSmCount());
    patterns.add<GemvDepthwiseLowering<DepthwiseConv2DOp>,
                 GemvDepthwiseLowering<DepthwiseConv2DBackwardDataOp>>(
        &getContext(), tm, filterSmem, halfVectorBits, halfFilterSmem,
        unrollRows);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
