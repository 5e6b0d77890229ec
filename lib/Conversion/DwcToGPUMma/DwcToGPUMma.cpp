//===- DwcToGPUMma.cpp - f16/bf16 depthwise conv on tensor cores ----------===//
//
// Lowers eligible f16/bf16 depthwise convolutions (memref form) to the
// Flash-DWC tensor-core kernel: GEMV->GEMM packing of 16 GEMVs x 8 outputs
// x one width-9 filter fragment into one m16n8k16 nvgpu.mma.sync per
// channel (f32 accumulators), compressed 23-element filter vectors, input
// and filter tiles staged in swizzled shared memory by cp.async (zero-fill
// padding), double-buffered over the FH x ceil(FW/9) fragments. Stride-1
// backward-data ops take the same kernel on the 180-degree rotated filter
// (rotation fused into the filter copies, transposed padding).
// Index math is mirrored by test/Conversion/DwcToGPUMma/Inputs/packing_model.py.
// See the pass description in include/dwc/Conversion/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/Passes.h"
#include "dwc/Conversion/DepthwiseProblem.h"
#include "dwc/Conversion/IndexEmitter.h"
#include "dwc/Conversion/MmaEmitter.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_CONVERTDWCTOGPUMMA
#include "dwc/Conversion/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;
using namespace mlir::dwc;

namespace {

constexpr int64_t kBN = 64;      // channels per block
constexpr int64_t kWarps = 4;    // warps per block, 16 channels each
constexpr int64_t kThreads = kWarps * 32;
constexpr int64_t kVec = 8;      // f16/bf16 per 16-byte chunk
constexpr int64_t kChunks = kBN / kVec;
constexpr int64_t kFrag = 9;     // filter taps per fragment
constexpr int64_t kTM = 8;       // outputs per GEMV (mma N)
constexpr int64_t kGemvs = 16;   // GEMVs per mma (mma M)
constexpr int64_t kZ = 23;       // compressed fragment: 7 zeros, 9 taps, 7 zeros

/// Why a convolution with these operands cannot take the tensor-core kernel,
/// or an empty string.
std::string ineligibility(Operation *op, Value x, Value w, Value y, Type acc,
                          ArrayRef<int64_t> strides,
                          ArrayRef<int64_t> dilations,
                          int64_t minFilterWidth) {
  auto init = dyn_cast<MemRefType>(y.getType());
  if (!init)
    return "tensor form (bufferize first)";
  if (cast<MemRefType>(w.getType()).getShape()[1] < minFilterWidth)
    return "filter narrower than min-filter-width";
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
  if (in.getShape()[3] % kVec != 0)
    return "channel count is not a multiple of 8";
  for (Value v : op->getOperands())
    if (!cast<MemRefType>(v.getType()).getLayout().isIdentity())
      return "non-identity layout";
  auto out = init.getShape();
  if (llvm::any_of(out, [](int64_t d) { return d <= 0; }))
    return "empty output";
  return "";
}

FailureOr<DepthwiseProblem> problemOf(DepthwiseConv2DOp op, int64_t minFilterWidth,
                                 std::string &why) {
  why = ineligibility(op, op.getInput(), op.getFilter(), op.getInit(),
                      op.getAccType(), op.getStrides(), op.getDilations(),
                      minFilterWidth);
  if (!why.empty())
    return failure();
  return forwardProblem(op);
}

FailureOr<DepthwiseProblem> problemOf(DepthwiseConv2DBackwardDataOp op,
                                 int64_t minFilterWidth, std::string &why) {
  why = ineligibility(op, op.getOutputGrad(), op.getFilter(), op.getInit(),
                      op.getAccType(), op.getStrides(), op.getDilations(),
                      minFilterWidth);
  if (!why.empty())
    return failure();
  return backwardDataProblem(op, why);
}

/// Spatial tile: R rows x G groups of 8 outputs (R * G = 16 GEMVs).
/// G = next power of two >= ceil(OW / 8), clamped to [4, 16] so that the
/// double-buffered tiles stay within 48 KB of static shared memory.
int64_t groupsPerRow(int64_t OW) {
  int64_t g = 4;
  while (g < 16 && 8 * g < OW)
    g *= 2;
  return g;
}

/// Fragments per stage: `frags-per-stage` if set (clamped to nfrag), else
/// the largest divisor of nfrag whose double-buffered tiles fit in
/// `max-smem-kb` (over 48 KB: dynamic shared memory).
constexpr int64_t kStaticSmemBytes = 48 * 1024;
int64_t smemBytes(int64_t fps, int64_t R, int64_t G) {
  return 2 * kBN * 2 * (R * (kTM * G + kFrag * fps - 1) + kZ * fps);
}
/// Row-ring layout: positions padded to kRingPitch elements (144 bytes, 9
/// 16-byte units: consecutive positions start in different bank groups, so
/// no XOR swizzle and no per-load address arithmetic), and one gap position
/// after every 8 input columns (column c at c + c / 8: the A rows of lanes
/// 4 apart, 8 columns apart, land 9 units apart, in different bank groups).
constexpr int64_t kRingPitch = kBN + kVec;
int64_t ringRowPositions(int64_t nfrag, int64_t G) {
  int64_t cols = kTM * G + kFrag * nfrag - 1;
  return cols + (cols + 7) / 8;
}
/// Row-ring mode: R + 1 input row slots and two buffers of nfrag
/// compressed filter vectors.
int64_t ringSmemBytes(int64_t nfrag, int64_t R, int64_t G) {
  return kRingPitch * 2 *
         ((R + 1) * ringRowPositions(nfrag, G) + 2 * kZ * nfrag);
}

struct Emitter : IndexEmitter {
  using IndexEmitter::IndexEmitter;
  /// Element offset of 16-byte chunk `h` of shared row `row` (XOR swizzle
  /// over the 8 chunks of a 128-byte row: conflict-free cp.async writes,
  /// spread fragment reads).
  Value swizzled(Value row, Value h) {
    return mul(xori(h, rem(row, kChunks)), kVec);
  }
  /// Row-ring layout: position of input column `col` (a gap after every
  /// 8 columns).
  Value ringCol(Value col) { return add(col, div(col, kChunks)); }
};

/// One m16n8k16 mma.sync, f32 accumulators. `aS` (8) and `bS` (4) are the
/// lane's A and B elements in register order (a0..a7, b0..b3), `c` the
/// lane's vector<2x2xf32> {c0, c1; c2, c3}.
Value emitMma(OpBuilder &b, Location loc, ArrayRef<Value> aS,
              ArrayRef<Value> bS, Value c) {
  Type et = aS[0].getType();
  Value a = vector::FromElementsOp::create(b, loc, VectorType::get({4, 2}, et),
                                           aS);
  Value bm = vector::FromElementsOp::create(b, loc,
                                            VectorType::get({2, 2}, et), bS);
  return emitMmaM16N8K16(b, loc, a, bm, c);
}

template <typename OpTy>
struct MmaDepthwiseLowering : OpRewritePattern<OpTy> {
  MmaDepthwiseLowering(MLIRContext *ctx, int64_t minFilterWidth,
                       int64_t fragsPerStage, int64_t maxSmemBytes,
                       bool rowRing)
      : OpRewritePattern<OpTy>(ctx, /*benefit=*/3),
        minFilterWidth(minFilterWidth), fragsPerStageOption(fragsPerStage),
        maxSmemBytes(maxSmemBytes), rowRing(rowRing) {}
  int64_t minFilterWidth;
  int64_t fragsPerStageOption;
  int64_t maxSmemBytes;
  bool rowRing;

  int64_t fragsPerStage(int64_t nfrag, int64_t R, int64_t G) const {
    if (fragsPerStageOption > 0)
      return std::min(fragsPerStageOption, nfrag);
    for (int64_t f = nfrag; f > 1; --f)
      if (nfrag % f == 0 && smemBytes(f, R, G) <= maxSmemBytes)
        return f;
    return 1;
  }

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    std::string why;
    FailureOr<DepthwiseProblem> problem = problemOf(op, minFilterWidth, why);
    if (failed(problem))
      return rewriter.notifyMatchFailure(op, why);

    Value x = problem->x, w = problem->w, bias = problem->bias,
          y = problem->y;
    auto in = cast<MemRefType>(x.getType()).getShape();
    auto f = cast<MemRefType>(w.getType()).getShape();
    auto out = cast<MemRefType>(y.getType()).getShape();
    Type et = cast<MemRefType>(x.getType()).getElementType();
    int64_t N = in[0], IH = in[1], IW = in[2], C = in[3];
    int64_t FH = f[0], FW = f[1], OH = out[1], OW = out[2];
    int64_t pt = problem->pt, pl = problem->pl;
    bool rotate = problem->rotateFilter;

    int64_t nfrag = (FW + kFrag - 1) / kFrag;
    int64_t G = groupsPerRow(OW), R = kGemvs / G;
    // Fragments per pipeline stage: the F adjacent fragments of one filter
    // row share one input tile of 8G + 9F - 1 positions per row (instead of
    // F tiles of 8G + 8), cutting the shared-memory fill traffic.
    // Row ring: a stage is a whole filter row (all fragments); the R + 1
    // input row slots are renumbered circularly, so each stage copies one
    // new input row and reuses the R - 1 rows the previous stage used.
    bool ring = rowRing && ringSmemBytes(nfrag, R, G) <= maxSmemBytes;
    int64_t fps = ring ? nfrag : fragsPerStage(nfrag, R, G);
    int64_t groups = (nfrag + fps - 1) / fps;
    int64_t S = FH * groups;                 // pipeline stages
    int64_t RS = kTM * G + kFrag * fps - 1;  // shared row positions
    int64_t P = R * RS;                      // input positions per stage
    int64_t ZS = kZ * fps;                   // compressed filter positions
    int64_t tilesW = (OW + kTM * G - 1) / (kTM * G);
    int64_t tilesH = (OH + R - 1) / R;
    int64_t gridX = N * tilesH * tilesW;
    int64_t gridY = (C + kBN - 1) / kBN;
    if (gridX > (int64_t(1) << 31) - 1 || gridY > 65535)
      return rewriter.notifyMatchFailure(op, "grid too large");

    MLIRContext *ctx = rewriter.getContext();
    auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    int64_t RSg = ringRowPositions(fps, G);  // ring slot pitch (positions)
    auto inSmemTy =
        ring ? MemRefType::get({1, (R + 1) * RSg, kRingPitch}, et, AffineMap(),
                               wg)
             : MemRefType::get({2, P, kBN}, et, AffineMap(), wg);
    auto zSmemTy = MemRefType::get({2, ZS, ring ? kRingPitch : kBN}, et,
                                   AffineMap(), wg);
    auto chunkTy = VectorType::get({kVec}, et);
    auto accTy = VectorType::get({2, 2}, rewriter.getF32Type());
    auto tokTy = nvgpu::DeviceAsyncTokenType::get(ctx);

    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    Emitter h{rewriter, loc};
    Value one = h.cst(1);
    // Tiles over 48 KB take dynamic shared memory (the runtime raises the
    // kernel's limit at launch); smaller ones are static attributions.
    int64_t bytes = ring ? ringSmemBytes(nfrag, R, G) : smemBytes(fps, R, G);
    bool dynamic = bytes > kStaticSmemBytes;
    Value dynBytes;
    if (dynamic)
      dynBytes = arith::ConstantIntOp::create(rewriter, loc, bytes, 32);
    auto launch = gpu::LaunchOp::create(
        rewriter, loc, h.cst(gridX), h.cst(gridY), one, h.cst(kThreads), one,
        one, /*dynamicSharedMemorySize=*/dynBytes, /*asyncTokenType=*/nullptr,
        /*asyncDependencies=*/{},
        dynamic ? TypeRange{} : TypeRange{inSmemTy, zSmemTy});
    Block &entry = launch.getBody().front();
    if (entry.empty() || !entry.back().hasTrait<OpTrait::IsTerminator>()) {
      OpBuilder tb = OpBuilder::atBlockEnd(&entry);
      gpu::TerminatorOp::create(tb, loc);
    }
    OpBuilder b = OpBuilder::atBlockBegin(&entry);
    b.setInsertionPoint(entry.getTerminator());
    Emitter e{b, loc};
    Value inSmem, zSmem;
    if (dynamic) {
      auto raw = gpu::DynamicSharedMemoryOp::create(
          b, loc,
          MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(),
                          wg));
      int64_t inBytes = inSmemTy.getNumElements() * 2;  // 16-byte multiple
      inSmem = memref::ViewOp::create(b, loc, inSmemTy, raw, e.cst(0),
                                      ValueRange{});
      zSmem = memref::ViewOp::create(b, loc, zSmemTy, raw, e.cst(inBytes),
                                     ValueRange{});
    } else {
      inSmem = launch.getWorkgroupAttributions()[0];
      zSmem = launch.getWorkgroupAttributions()[1];
    }

    // Block and thread coordinates.
    Value tid = launch.getThreadIds().x;
    Value lane = e.rem(tid, 32), warp = e.div(tid, 32);
    Value g = e.div(lane, 4), q = e.rem(lane, 4);
    Value bx = launch.getBlockIds().x;
    Value tw = e.rem(bx, tilesW), rest = e.div(bx, tilesW);
    Value th = e.rem(rest, tilesH), n = e.div(rest, tilesH);
    Value oh0 = e.mul(th, R), ow0 = e.mul(tw, kTM * G);
    Value cb = e.mul(launch.getBlockIds().y, kBN);
    Value zero = e.cst(0);

    // The 14 zero positions of each compressed filter vector, both buffers:
    // written once, never overwritten by the copies.
    {
      Value zeros = arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(chunkTy, b.getZeroAttr(et)));
      const int64_t total = 2 * 14 * fps * kChunks;
      for (int64_t i = 0; i * kThreads < total; ++i) {
        auto body = [&](OpBuilder &sb) {
          Emitter s{sb, loc};
          Value id = s.add(tid, i * kThreads);
          Value buf = s.div(id, 14 * fps * kChunks),
                r = s.rem(id, 14 * fps * kChunks);
          Value t = s.div(r, kChunks), hh = s.rem(r, kChunks);
          Value fi = s.div(t, 14);
          t = s.rem(t, 14);
          // t in [0, 14) -> position t (< 7) or t + 9 (>= 16) of vector fi.
          Value pos = s.add(s.mul(fi, kZ),
                            s.select(s.lt(t, 7), t, s.add(t, kFrag)));
          vector::StoreOp::create(sb, loc, zeros, zSmem,
                                  ValueRange{buf, pos, s.mul(hh, kVec)},
                                  false, llvm::Align(16));
        };
        if ((i + 1) * kThreads > total) {
          auto ifOp = scf::IfOp::create(b, loc, e.lt(e.add(tid, i * kThreads), total), false);
          OpBuilder sb = ifOp.getThenBodyBuilder();
          body(sb);
        } else {
          body(b);
        }
      }
    }

    // Stage `s` (filter row s / groups, fragments F (s % groups) ... + F-1)
    // into buffer `buf`: R input rows x (8G + 9F - 1) columns x 64
    // channels, and the 9 taps of each fragment fi into positions
    // 23 fi + 7 .. 23 fi + 15 of the compressed vectors. Out-of-range rows,
    // columns, taps and channels are zero-filled (source count 0).
    auto prefetch = [&](OpBuilder &pb, Value s, Value buf) {
      Emitter p{pb, loc};
      Value fh = p.div(s, groups), j = p.mul(p.rem(s, groups), fps);
      Value ihBase = p.add(p.add(oh0, fh), -pt);
      Value iwBase = p.add(p.add(ow0, p.mul(j, kFrag)), -pl);
      Value eight = p.cst(kVec);
      // (Row ring: the input rows are copied by copyRingRow.)
      int64_t total = ring ? 0 : P * kChunks;
      for (int64_t i = 0; i * kThreads < total; ++i) {
        auto body = [&](OpBuilder &cb2) {
          Emitter c{cb2, loc};
          Value id = c.add(tid, i * kThreads);
          Value pos = c.div(id, kChunks), hh = c.rem(id, kChunks);
          Value r = c.div(pos, RS), col = c.rem(pos, RS);
          Value ih = c.add(ihBase, r), iw = c.add(iwBase, col);
          Value ch = c.add(cb, c.mul(hh, kVec));
          Value valid = c.andi(c.andi(c.ge(ih, 0), c.lt(ih, IH)),
                               c.andi(c.ge(iw, 0), c.lt(iw, IW)));
          if (C % kBN != 0)
            valid = c.andi(valid, c.lt(ch, C));
          Value cnt = c.select(valid, eight, zero);
          nvgpu::DeviceAsyncCopyOp::create(
              cb2, loc, tokTy, inSmem,
              ValueRange{buf, pos, c.swizzled(pos, hh)}, x,
              ValueRange{n, c.select(valid, ih, zero),
                         c.select(valid, iw, zero), c.select(valid, ch, zero)},
              cb2.getIndexAttr(kVec), cnt, /*bypassL1=*/nullptr);
        };
        if ((i + 1) * kThreads > total) {
          auto ifOp = scf::IfOp::create(pb, loc, p.lt(p.add(tid, i * kThreads), total), false);
          OpBuilder cb2 = ifOp.getThenBodyBuilder();
          body(cb2);
        } else {
          body(pb);
        }
      }
      // Filter taps: F x 9 positions x 8 chunks = 72 F copies.
      const int64_t ztotal = fps * kFrag * kChunks;
      for (int64_t i = 0; i * kThreads < ztotal; ++i) {
        auto ifOp = scf::IfOp::create(
            pb, loc, p.lt(p.add(tid, i * kThreads), ztotal), false);
        OpBuilder fb = ifOp.getThenBodyBuilder();
        Emitter c{fb, loc};
        Value id = c.add(tid, i * kThreads);
        Value t = c.div(id, kChunks), hh = c.rem(id, kChunks);
        Value fi = c.div(t, kFrag);
        t = c.rem(t, kFrag);
        Value tap = c.add(c.mul(c.add(j, fi), kFrag), t);
        Value ch = c.add(cb, c.mul(hh, kVec));
        Value valid;
        if (FW != groups * fps * kFrag)
          valid = c.lt(tap, FW);
        if (C % kBN != 0)
          valid = c.andi(valid, c.lt(ch, C));
        Value zpos = c.add(c.mul(fi, kZ), c.add(t, 7));
        Value cnt = valid ? c.select(valid, eight, zero) : eight;
        nvgpu::DeviceAsyncCopyOp::create(
            fb, loc, tokTy, zSmem,
            ValueRange{buf, zpos,
                       ring ? c.mul(hh, kVec) : c.swizzled(zpos, hh)},
            w,
            ValueRange{rotate ? c.sub(FH - 1, fh) : fh,
                       c.select(valid, rotate ? c.sub(FW - 1, tap) : tap, zero),
                       c.select(valid, ch, zero)},
            fb.getIndexAttr(kVec), cnt, /*bypassL1=*/fb.getUnitAttr());
      }
    };

    // Row ring: input row t (ih = oh0 + t - pt, t in [0, FH + R - 1)) into
    // slot t mod (R + 1): 8G + 9 nfrag - 1 positions x 64 channels.
    auto copyRingRow = [&](OpBuilder &pb, Value t) {
      Emitter p{pb, loc};
      Value ih = p.add(p.add(oh0, t), -pt);
      Value rowOk = p.andi(p.ge(ih, 0), p.lt(ih, IH));
      Value slotBase = p.mul(p.rem(t, R + 1), RSg);
      Value iwBase = p.add(ow0, -pl);
      Value eight = p.cst(kVec);
      int64_t total = RS * kChunks;
      for (int64_t i = 0; i * kThreads < total; ++i) {
        auto body = [&](OpBuilder &cb2) {
          Emitter c{cb2, loc};
          Value id = c.add(tid, i * kThreads);
          Value col = c.div(id, kChunks), hh = c.rem(id, kChunks);
          Value pos = c.add(slotBase, c.ringCol(col));
          Value iw = c.add(iwBase, col);
          Value ch = c.add(cb, c.mul(hh, kVec));
          Value valid = c.andi(rowOk, c.andi(c.ge(iw, 0), c.lt(iw, IW)));
          if (C % kBN != 0)
            valid = c.andi(valid, c.lt(ch, C));
          Value cnt = c.select(valid, eight, zero);
          nvgpu::DeviceAsyncCopyOp::create(
              cb2, loc, tokTy, inSmem,
              ValueRange{zero, pos, c.mul(hh, kVec)}, x,
              ValueRange{n, c.select(valid, ih, zero),
                         c.select(valid, iw, zero), c.select(valid, ch, zero)},
              cb2.getIndexAttr(kVec), cnt, /*bypassL1=*/nullptr);
        };
        if ((i + 1) * kThreads > total) {
          auto ifOp = scf::IfOp::create(
              pb, loc, p.lt(p.add(tid, i * kThreads), total), false);
          OpBuilder cb2 = ifOp.getThenBodyBuilder();
          body(cb2);
        } else {
          body(pb);
        }
      }
    };

    // Per-lane GEMV rows m = g and g + 8: row r(m) = m / G of the tile,
    // group m % G; base position r * RS + 8 * (m % G).
    auto gemvRow = [&](Emitter &c, int64_t mi) {
      Value m = c.add(g, 8 * mi);
      return std::make_pair(c.div(m, G), c.rem(m, G));
    };

    // Accumulators: 16 channels per warp, one vector<2x2xf32> each; the
    // bias (if any) is the initial value.
    SmallVector<Value> accInit;
    for (int64_t cg = 0; cg < 2; ++cg) {
      if (!bias) {
        Value z = arith::ConstantOp::create(
            b, loc, DenseElementsAttr::get(accTy, b.getF32FloatAttr(0.0f)));
        accInit.append(kVec, z);
        continue;
      }
      Value ch = e.add(cb, e.mul(e.add(e.mul(warp, 2), cg), kVec));
      if (C % kBN != 0)
        ch = e.select(e.lt(ch, C), ch, zero);
      Value bv = vector::LoadOp::create(b, loc, chunkTy, bias, ValueRange{ch},
                                        false, llvm::Align(16));
      bv = arith::ExtFOp::create(
          b, loc, VectorType::get({kVec}, b.getF32Type()), bv);
      for (int64_t k = 0; k < kVec; ++k) {
        Value s = vector::ExtractOp::create(b, loc, bv, ArrayRef<int64_t>{k});
        accInit.push_back(vector::BroadcastOp::create(b, loc, accTy, s));
      }
    }

    if (ring) {
      // Input rows 0 .. R-1; prefetch adds filter row 0 to the group.
      for (int64_t t = 0; t < R; ++t)
        copyRingRow(b, e.cst(t));
    }
    prefetch(b, zero, zero);
    nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokTy, ValueRange{});

    auto loop = scf::ForOp::create(
        b, loc, zero, e.cst(S), one, accInit,
        [&](OpBuilder &lb, Location, Value s, ValueRange accs) {
          Emitter l{lb, loc};
          Value buf = l.rem(s, 2);
          Value next = l.add(s, 1);
          if (S > 1) {
            auto ifNext = scf::IfOp::create(lb, loc, l.lt(next, S), false);
            OpBuilder nb = ifNext.getThenBodyBuilder();
            Emitter ne{nb, loc};
            if (ring)
              copyRingRow(nb, ne.add(s, R));
            prefetch(nb, next, ne.sub(ne.cst(1), buf));
          }
          Value tok = nvgpu::DeviceAsyncCreateGroupOp::create(lb, loc, tokTy,
                                                              ValueRange{});
          nvgpu::DeviceAsyncWaitOp::create(lb, loc, tok, lb.getI32IntegerAttr(1));
          gpu::BarrierOp::create(lb, loc);

          // One fragment's products: per 8-channel chunk, 8 A and 4 B loads
          // of 16 bytes, then 8 mma.sync. `fa` / `fz`: the fragment's
          // offsets in the input rows (9 fi) and the compressed vectors
          // (23 fi).
          auto emitFragment = [&](OpBuilder &fb, Value fa, Value fz,
                                  SmallVector<Value> &acc) {
            Emitter l{fb, loc};
            // A rows g, g+8; columns k = 2q, 2q+1, 2q+8, 2q+9.
            static constexpr int64_t kOff[4] = {0, 1, 8, 9};
            // Shared positions of the 8 A loads (both chunks use them).
            Value aPos[2][4];
            for (int64_t mi = 0; mi < 2; ++mi) {
              auto [r, gi] = gemvRow(l, mi);
              Value col = l.add(l.add(l.mul(gi, kTM), l.mul(q, 2)), fa);
              if (!ring) {
                Value base = l.add(l.mul(r, RS), col);
                for (int64_t kk = 0; kk < 4; ++kk)
                  aPos[mi][kk] = l.add(base, kOff[kk]);
                continue;
              }
              // Ring: GEMV row r reads input row s + r, in its slot.
              Value slotBase = l.mul(l.rem(l.add(s, r), R + 1), RSg);
              for (int64_t kk = 0; kk < 4; ++kk)
                aPos[mi][kk] =
                    l.add(slotBase, l.ringCol(l.add(col, kOff[kk])));
            }
            for (int64_t cg = 0; cg < 2; ++cg) {
              Value hh = l.add(l.mul(warp, 2), cg);
              auto load = [&](Value mem, Value row) -> Value {
                bool ringIn = ring && mem == inSmem;
                return vector::LoadOp::create(
                    fb, loc, chunkTy, mem,
                    ValueRange{ringIn ? zero : buf, row,
                               ring ? l.mul(hh, kVec) : l.swizzled(row, hh)},
                    false, llvm::Align(16));
              };
              Value va[2][4];
              for (int64_t mi = 0; mi < 2; ++mi)
                for (int64_t kk = 0; kk < 4; ++kk)
                  va[mi][kk] = load(inSmem, aPos[mi][kk]);
              // B[k][i] = z[k - i + 7] at k = 2q, 2q+1, 2q+8, 2q+9, i = g.
              Value vb[4];
              Value zbase = l.add(l.add(l.sub(l.mul(q, 2), g), 7), fz);
              for (int64_t kk = 0; kk < 4; ++kk)
                vb[kk] = load(zSmem, l.add(zbase, kOff[kk]));
              for (int64_t k = 0; k < kVec; ++k) {
                auto ex = [&](Value v) {
                  return vector::ExtractOp::create(fb, loc, v,
                                                   ArrayRef<int64_t>{k})
                      .getResult();
                };
                SmallVector<Value> aS = {ex(va[0][0]), ex(va[0][1]),
                                         ex(va[1][0]), ex(va[1][1]),
                                         ex(va[0][2]), ex(va[0][3]),
                                         ex(va[1][2]), ex(va[1][3])};
                SmallVector<Value> bS = {ex(vb[0]), ex(vb[1]), ex(vb[2]),
                                         ex(vb[3])};
                Value &cacc = acc[cg * kVec + k];
                cacc = emitMma(fb, loc, aS, bS, cacc);
              }
            }
          };
          SmallVector<Value> acc(accs);
          if (ring && fps > 1) {
            // Row ring: the fragments of the row in a loop (unrolled, the
            // hoisted loads of all fragments would exceed 255 registers).
            auto fragLoop = scf::ForOp::create(
                lb, loc, zero, l.cst(fps), one, acc,
                [&](OpBuilder &fb, Location, Value fi, ValueRange fAccs) {
                  Emitter fl{fb, loc};
                  SmallVector<Value> a(fAccs);
                  emitFragment(fb, fl.mul(fi, kFrag), fl.mul(fi, kZ), a);
                  scf::YieldOp::create(fb, loc, a);
                });
            acc.assign(fragLoop.getResults().begin(),
                       fragLoop.getResults().end());
          } else {
            for (int64_t fi = 0; fi < fps; ++fi)
              emitFragment(lb, l.cst(fi * kFrag), l.cst(fi * kZ), acc);
          }
          // Everyone is done with `buf` before iteration s + 1 refills it.
          gpu::BarrierOp::create(lb, loc);
          scf::YieldOp::create(lb, loc, acc);
        });

    // Epilogue: lane holds D[g][2q + e], D[g + 8][2q + e] of 8 channels per
    // chunk: one 16-byte store of 8 channels per output position.
    auto outVecTy = VectorType::get({kVec}, b.getF32Type());
    for (int64_t cg = 0; cg < 2; ++cg) {
      Value ch = e.add(cb, e.mul(e.add(e.mul(warp, 2), cg), kVec));
      for (int64_t mi = 0; mi < 2; ++mi) {
        auto [r, gi] = gemvRow(e, mi);
        Value oh = e.add(oh0, r);
        for (int64_t el = 0; el < 2; ++el) {
          Value ow = e.add(e.add(ow0, e.mul(gi, kTM)), e.add(e.mul(q, 2), el));
          SmallVector<Value> vals;
          for (int64_t k = 0; k < kVec; ++k)
            vals.push_back(vector::ExtractOp::create(
                b, loc, loop.getResult(cg * kVec + k),
                ArrayRef<int64_t>{mi, el}));
          Value v = vector::FromElementsOp::create(b, loc, outVecTy, vals);
          v = arith::TruncFOp::create(b, loc, chunkTy, v);
          Value ok;
          if (OH % R != 0)
            ok = e.lt(oh, OH);
          if (OW % (kTM * G) != 0)
            ok = e.andi(ok, e.lt(ow, OW));
          if (C % kBN != 0)
            ok = e.andi(ok, e.lt(ch, C));
          auto store = [&](OpBuilder &sb) {
            vector::StoreOp::create(sb, loc, v, y, ValueRange{n, oh, ow, ch},
                                    false, llvm::Align(16));
          };
          if (ok) {
            auto ifOp = scf::IfOp::create(b, loc, ok, false);
            OpBuilder sb = ifOp.getThenBodyBuilder();
            store(sb);
          } else {
            store(b);
          }
        }
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct ConvertDwcToGPUMmaPass
    : dwc::impl::ConvertDwcToGPUMmaBase<ConvertDwcToGPUMmaPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<MmaDepthwiseLowering<DepthwiseConv2DOp>,
                 MmaDepthwiseLowering<DepthwiseConv2DBackwardDataOp>>(
        &getContext(), minFilterWidth, fragsPerStage, maxSmemKb * 1024,
        rowRing);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
