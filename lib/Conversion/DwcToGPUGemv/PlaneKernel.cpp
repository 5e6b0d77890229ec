//===- PlaneKernel.cpp - depthwise conv on planes in shared memory ---------===//
//
// The #dwc.plane kernel of convert-dwc-to-gpu-gemv: a block stages a band
// of one image's input rows (CB channels, zero halo, widened to f32) in
// shared memory once, then its threads compute register row tiles from it
// with the filter in registers. For small maps (14 x 14, 7 x 7), where the
// row tiles re-read a 7 x 7 filter's halo per tile from global memory and
// convert each 16-bit load for few FMAs; strided forward ops stage the
// strided windows' rows (each input position still loaded once per block,
// in 128-bit vectors, where the strided tiles load 32-bit words).
// A fused forward's prologue is applied as a position is staged (once per
// input element, where the row tiles apply it once per tile that reads it)
// and its epilogue as an output is stored.
//
//===----------------------------------------------------------------------===//

#include "GemvCommon.h"
#include "dwc/Conversion/LaunchBuilder.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::dwc;
using namespace mlir::dwc::gemv;

namespace {

/// Most staging copies per thread issued as one unrolled sequence (their
/// loads all in flight together); more are copied by a loop.
constexpr int64_t kMaxUnrolledCopies = 16;

/// The plane kernel of one op (see the #dwc.plane description).
struct PlaneKernel : GemvFamilyKernel {
  DepthwiseProblem pb;
  DepthwiseSizes sz;
  PlaneLayout l;
  Location loc;
  gpu::LaunchOp launch;
  Value smem, tid, n, h0, c0;

  PlaneKernel(Operation *op, const DepthwiseProblem &pb, PlaneKernelAttr c)
      : pb(pb), sz(sizesOf(pb)),
        l(planeLayoutOf(op, c.getChannels(), c.getBlockChannels(),
                        c.getRows(), c.getColumns(), c.getBand())),
        loc(op->getLoc()) {}
  int64_t blocks() const { return sz.N * l.bands * (sz.C / l.CB); }

  void emitStaging(OpBuilder &b);
  Value loadSlot(OpBuilder &lb, Value slot, Value inRange);
  void storeSlot(OpBuilder &sb, Value slot, Value v);
  void emitTiles(OpBuilder &b);
  void emit(RewriterBase &rewriter);
};

/// Start of tile `t` of `tiles` tiles of `size` over `extent`: the last
/// tile is moved back to end at the edge (it overlaps its neighbour and
/// stores the same values; no guarded stores). Selected by tile index, as
/// in the row-tile kernel (a min-clamped start trips a ptxas 13.0 16-bit
/// miscompile, see RowTileKernel::tileStart).
Value tileStart(Emitter &e, Value t, int64_t tiles, int64_t size,
                int64_t extent) {
  Value start = e.mul(t, size);
  if (extent % size == 0)
    return start;
  return e.select(e.eq(t, tiles - 1), e.cst(extent - size), start);
}

/// Copies the band's input rows and halo (zeros outside the image) into
/// the shared plane, widened to f32: the block's threads stride over the
/// staged positions x channel vectors of up to 128 bits (slot = tid + k x
/// threads).
void PlaneKernel::emitStaging(OpBuilder &b) {
  const int64_t SV = l.stageVector, vectors = l.CB / SV;
  const int64_t slots = l.stagedRows * l.stagedCols * vectors;
  const int64_t perThread = llvm::divideCeil(slots, l.threads);
  Emitter e{b, loc, SV};
  if (perThread > kMaxUnrolledCopies) {
    auto loop =
        scf::ForOp::create(b, loc, tid, e.cst(slots), e.cst(l.threads));
    OpBuilder lb = OpBuilder::atBlockTerminator(loop.getBody());
    Value v = loadSlot(lb, loop.getInductionVar(), Value());
    storeSlot(lb, loop.getInductionVar(), v);
    return;
  }
  // Unrolled: every copy's load issued before the first store (one
  // latency per block instead of one per copy); the last round guarded
  // when the threads do not divide the slots.
  SmallVector<std::pair<Value, Value>> copies;
  for (int64_t k = 0; k < perThread; ++k) {
    Value slot = e.add(tid, k * l.threads);
    Value inRange =
        (k + 1) * l.threads > slots ? e.lt(slot, slots) : Value();
    if (inRange)
      slot = e.minc(slot, slots - 1);
    copies.push_back({slot, inRange});
  }
  SmallVector<Value> values;
  for (auto [slot, inRange] : copies)
    values.push_back(loadSlot(b, slot, inRange));
  for (auto [copy, v] : llvm::zip(copies, values)) {
    if (!copy.second) {
      storeSlot(b, copy.first, v);
      continue;
    }
    auto guard = scf::IfOp::create(b, loc, copy.second, false);
    OpBuilder gb = guard.getThenBodyBuilder();
    storeSlot(gb, copy.first, v);
  }
}

/// The input vector of staged slot `slot` (position-major, channel vectors
/// innermost) as f32: zeros in the halo (and where `inRange`, if set, is
/// false).
Value PlaneKernel::loadSlot(OpBuilder &lb, Value slot, Value inRange) {
  const int64_t SV = l.stageVector, vectors = l.CB / SV;
  Emitter s{lb, loc, SV};
  auto co = s.delinearize(slot, {l.stagedRows, l.stagedCols, vectors});
  Value row = pb.sh == 1 ? h0 : s.mul(h0, pb.sh);
  Value ih = s.add(s.add(row, co[0]), -pb.pt);
  Value iw = s.add(co[1], -pb.pl);
  Value ok = s.andi(s.andi(s.ge(ih, 0), s.lt(ih, sz.IH)),
                    s.andi(s.ge(iw, 0), s.lt(iw, sz.IW)));
  if (inRange)
    ok = s.andi(ok, inRange);
  Value ch = s.add(c0, s.mul(co[2], SV));
  SmallVector<Value, 4> at{n, s.clamp(ih, 0, sz.IH - 1),
                           s.clamp(iw, 0, sz.IW - 1), ch};
  if (pb.fusion.hasPrologue()) {
    // Zeros of the activated input in the halo: the prologue first.
    FusionEmitter fused{pb.fusion, Value()};
    fused.prepare(s, ch);
    return fused.input(s, s.load(pb.x, at), ok);
  }
  Type elem = cast<MemRefType>(pb.x.getType()).getElementType();
  // 16-bit pairs are zeroed as words before widening; single 16-bit
  // channels (CB = 1) after it.
  return elem.isF32() || SV == 1 ? s.select(ok, s.load(pb.x, at), s.zeros())
                                 : s.loadOrZero(pb.x, at, ok);
}

/// Stores the f32 vector `v` of staged slot `slot` into the plane.
void PlaneKernel::storeSlot(OpBuilder &sb, Value slot, Value v) {
  const int64_t SV = l.stageVector, vectors = l.CB / SV;
  Emitter s{sb, loc, SV};
  auto co = s.delinearize(slot, {l.stagedRows, l.stagedCols, vectors});
  vector::StoreOp::create(sb, loc, v, smem,
                          ValueRange{co[0], co[1], s.mul(co[2], SV)},
                          /*nontemporal=*/false,
                          llvm::Align(std::min<int64_t>(16, SV * 4)));
}

/// The thread's TH x TM x V tile from the shared plane: each of the tile's
/// (TH - 1) x sh + FH input rows is read once into a window of (TM - 1) x
/// sw + FW vectors and feeds every output row r with filter row t - r x sh
/// (output i reads window vector i x sw + fw); an output row is rounded and
/// stored after its last filter row.
void PlaneKernel::emitTiles(OpBuilder &b) {
  const int64_t V = l.V, FH = sz.FH, FW = sz.FW, lanes = l.CB / V;
  const int64_t sh = l.sh, sw = l.sw;
  Emitter e{b, loc, V};
  Value strip = e.div(tid, lanes);
  Value cIn = e.mul(e.rem(tid, lanes), V);
  Value row0 = tileStart(e, e.div(strip, l.colTiles), l.rowTiles, l.TH, l.band);
  Value col0 = tileStart(e, e.rem(strip, l.colTiles), l.colTiles, l.TM, sz.OW);
  Value c = e.add(c0, cIn);
  SmallVector<Value> filter;
  for (int64_t fh = 0; fh < FH; ++fh)
    for (int64_t fw = 0; fw < FW; ++fw) {
      bool rot = pb.rotateFilter;
      filter.push_back(e.load(
          pb.w, ValueRange{e.cst(rot ? FH - 1 - fh : fh),
                           e.cst(rot ? FW - 1 - fw : fw), c}));
    }
  Value init = pb.bias ? e.load(pb.bias, ValueRange{c}) : e.zeros();
  SmallVector<SmallVector<Value>> acc(l.TH, SmallVector<Value>(l.TM, init));
  Value inRow0 = sh == 1 ? row0 : e.mul(row0, sh);
  Value inCol0 = sw == 1 ? col0 : e.mul(col0, sw);
  for (int64_t t = 0; t < (l.TH - 1) * sh + FH; ++t) {
    // Output rows r with 0 <= t - r x sh < FH (none for the rows a stride
    // larger than the filter skips: not loaded).
    int64_t rFirst = t < FH ? 0 : llvm::divideCeil(t - FH + 1, sh);
    int64_t rLast = std::min(t / sh, l.TH - 1);
    if (rFirst > rLast)
      continue;
    SmallVector<Value> xs;
    for (int64_t j = 0; j < (l.TM - 1) * sw + FW; ++j)
      xs.push_back(vector::LoadOp::create(
          b, loc, e.vec(), smem,
          ValueRange{e.add(inRow0, t), e.add(inCol0, j), cIn},
          /*nontemporal=*/false, llvm::Align(V * 4)));
    for (int64_t r = rFirst; r <= rLast; ++r) {
      int64_t fh = t - r * sh;
      for (int64_t fw = 0; fw < FW; ++fw)
        for (int64_t i = 0; i < l.TM; ++i)
          acc[r][i] = vector::FMAOp::create(
              b, loc, xs[i * sw + fw], filter[fh * FW + fw], acc[r][i]);
      if (fh != FH - 1)
        continue;
      Value oh = e.add(e.add(h0, row0), r);
      FusionEmitter fused{pb.fusion, Value()};
      for (int64_t i = 0; i < l.TM; ++i)
        e.store(fused.output(e, acc[r][i]), pb.y,
                ValueRange{n, oh, e.add(col0, i), c});
    }
  }
}

void PlaneKernel::emit(RewriterBase &rewriter) {
  auto [lch, ob] = createGridLaunch(rewriter, loc, blocks(), 1, l.threads);
  launch = lch;
  OpBuilder &b = ob;
  auto wg = gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                       gpu::AddressSpace::Workgroup);
  smem = launch.addWorkgroupAttribution(
      MemRefType::get({l.stagedRows, l.pitch, l.CB}, b.getF32Type(),
                      AffineMap(), wg),
      loc);
  Emitter e{b, loc, l.V};
  tid = launch.getThreadIds().x;
  auto co = e.delinearize(launch.getBlockIds().x,
                          {sz.N, l.bands, sz.C / l.CB});
  n = co[0];
  h0 = tileStart(e, co[1], l.bands, l.band, sz.OH);
  c0 = e.mul(co[2], l.CB);
  emitStaging(b);
  gpu::BarrierOp::create(b, loc);
  emitTiles(b);
  nameKernel(launch, PlaneKernelAttr::getMnemonic());
}

} // namespace

void mlir::dwc::gemv::populatePlanePatterns(RewritePatternSet &patterns) {
  addGemvFamilyPatterns<PlaneKernelAttr, PlaneKernel>(patterns);
}
