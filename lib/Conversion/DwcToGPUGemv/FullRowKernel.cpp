//===- FullRowKernel.cpp - stride-1 depthwise conv, one output row per thread -===//
//
// The #dwc.full_row kernel of convert-dwc-to-gpu-gemv: a thread computes a
// whole output row of `channels` channels. Its filter rows are a loop
// bounded by the map (no padding row is visited) and its filter columns
// are unrolled over the (input column, output column) pairs whose tap lies
// in the filter (decided at compile time). A row split into column parts
// (`columns`) gives each part a thread of its own, its taps decided at
// compile time too (one scf.index_switch case per part). For narrow maps
// where the other kernels leave SMs idle (batch 1) or spend most FMAs on
// padding (filters larger than the map).
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

/// The output columns of one part of a row, [ow0, ow1), with the input
/// columns some of them read, [iw0, iw1), and the filter columns they use,
/// [kw0, kw1) (output column ow reads input ow + kw - pl, kw in [0, FW)).
struct RowPart {
  int64_t ow0, ow1, iw0, iw1, kw0, kw1;
};

/// The full-row kernel of one op (see the #dwc.full_row description).
struct FullRowKernel : GemvFamilyKernel {
  DepthwiseProblem pb;
  DepthwiseSizes sz;
  Location loc;
  int64_t V, threads, unroll, parts, total, maxRegisters;
  Value n, oh, c;

  FullRowKernel(Operation *op, const DepthwiseProblem &pb,
                FullRowKernelAttr config)
      : pb(pb), sz(sizesOf(pb)), loc(op->getLoc()) {
    V = config.getChannels();
    threads = config.getThreads();
    // More rows per step than the window or the map has only adds zeros.
    unroll = std::max<int64_t>(
        1, std::min({config.getUnroll(), sz.FH, sz.IH}));
    parts = std::max<int64_t>(1, config.getColumns());
    maxRegisters = config.getMaxRegisters();
    total = sz.N * sz.OH * parts * (sz.C / V);
  }
  int64_t blocks() const { return llvm::divideCeil(total, threads); }
  RowPart part(int64_t p) const;

  SmallVector<Value> emitRowStep(Emitter &e, const RowPart &r, Value ih,
                                 Value hi, ValueRange acc);
  void emitPart(OpBuilder &b, const RowPart &r, Value lo, Value hi);
  void emit(RewriterBase &rewriter);
};

RowPart FullRowKernel::part(int64_t p) const {
  auto [ow0, ow1] = fullRowPart(sz.OW, parts, p);
  return {ow0,
          ow1,
          std::max<int64_t>(0, ow0 - pb.pl),
          std::min(sz.IW, ow1 - 1 + sz.FW - pb.pl),
          std::max<int64_t>(0, pb.pl - (ow1 - 1)),
          std::min(sz.FW, sz.IW + pb.pl - ow0)};
}

/// `unroll` input rows from `ih` (rows at or past `hi` read as zeros): each
/// row's input vectors the part uses and its filter vectors are loaded,
/// then every output column's FMAs with the taps that land in the filter.
SmallVector<Value> FullRowKernel::emitRowStep(Emitter &e, const RowPart &r,
                                              Value ih, Value hi,
                                              ValueRange acc) {
  OpBuilder &b = e.b;
  SmallVector<Value> out(acc.begin(), acc.end());
  for (int64_t u = 0; u < unroll; ++u) {
    Value row = e.add(ih, u);
    Value ok = u == 0 ? Value() : e.lt(row, hi);
    // A row past the window is clamped to the last one (its inputs are
    // zeroed); its filter row index likewise stays in the filter.
    Value rowc = ok ? e.select(ok, row, e.add(hi, -1)) : row;
    // Filter row of input row `rowc` for output row oh: rowc - oh + pt.
    Value kh = e.add(e.sub(rowc, oh), pb.pt);
    Value fh = pb.rotateFilter ? e.sub(sz.FH - 1, kh) : kh;
    SmallVector<Value> xs(std::max<int64_t>(0, r.iw1 - r.iw0)),
        ws(std::max<int64_t>(0, r.kw1 - r.kw0));
    for (int64_t iw = r.iw0; iw < r.iw1; ++iw) {
      SmallVector<Value, 4> at{n, rowc, e.cst(iw), c};
      xs[iw - r.iw0] = ok ? e.loadOrZero(pb.x, at, ok) : e.load(pb.x, at);
    }
    for (int64_t kw = r.kw0; kw < r.kw1; ++kw)
      ws[kw - r.kw0] = e.load(
          pb.w, ValueRange{fh, e.cst(pb.rotateFilter ? sz.FW - 1 - kw : kw),
                           c});
    // Output column outer: measured faster than filter column outer on
    // filters wider than the row (batch 1: 27 x 27 on 14 x 14 15 against
    // 23 us f32), slower on 5-wide ones (docs/KernelSelection.md, "full
    // row").
    for (int64_t ow = r.ow0; ow < r.ow1; ++ow)
      for (int64_t kw = r.kw0; kw < r.kw1; ++kw) {
        int64_t iw = ow + kw - pb.pl;
        if (iw < r.iw0 || iw >= r.iw1)
          continue;
        out[ow - r.ow0] = vector::FMAOp::create(b, loc, xs[iw - r.iw0],
                                                ws[kw - r.kw0], out[ow - r.ow0]);
      }
  }
  return out;
}

/// The row loop of one part over the window's input rows [lo, hi), then
/// the part's stores.
void FullRowKernel::emitPart(OpBuilder &b, const RowPart &r, Value lo,
                             Value hi) {
  Emitter e{b, loc, V};
  Value init = pb.bias ? e.load(pb.bias, ValueRange{c}) : e.zeros();
  SmallVector<Value> acc(r.ow1 - r.ow0, init);
  auto loop = scf::ForOp::create(
      b, loc, lo, hi, e.cst(unroll), acc,
      [&](OpBuilder &lb, Location, Value ih, ValueRange accs) {
        Emitter le{lb, loc, V};
        scf::YieldOp::create(lb, loc, emitRowStep(le, r, ih, hi, accs));
      });
  for (int64_t ow = r.ow0; ow < r.ow1; ++ow)
    e.store(loop.getResult(ow - r.ow0), pb.y,
            ValueRange{n, oh, e.cst(ow), c});
}

void FullRowKernel::emit(RewriterBase &rewriter) {
  // Threads past the last row part do nothing.
  auto [launch, gid, b] =
      createGuardedLaunch(rewriter, loc, blocks(), threads, total);
  Emitter e{b, loc, V};
  // Channels innermost (a warp's loads are neighbouring channel vectors),
  // then the row's parts.
  auto co = e.delinearize(gid, {sz.N, sz.OH, parts, sz.C / V});
  n = co[0];
  oh = co[1];
  c = e.mul(co[3], V);
  // Input rows of the window inside the map: [max(0, oh - pt),
  // min(IH, oh - pt + FH)).
  Value lo = e.maxc(e.add(oh, -pb.pt), 0);
  Value hi = e.minc(e.add(oh, sz.FH - pb.pt), sz.IH);
  if (parts == 1) {
    emitPart(b, part(0), lo, hi);
  } else {
    // Each part's taps are compile-time constants: one case per part.
    SmallVector<int64_t> cases = llvm::to_vector(llvm::seq<int64_t>(parts));
    auto sw = scf::IndexSwitchOp::create(b, loc, TypeRange{}, co[2], cases,
                                         cases.size());
    for (int64_t p = 0; p < parts; ++p) {
      Block &body = sw.getCaseRegions()[p].emplaceBlock();
      OpBuilder cb = OpBuilder::atBlockBegin(&body);
      emitPart(cb, part(p), lo, hi);
      scf::YieldOp::create(cb, loc);
    }
    OpBuilder db = OpBuilder::atBlockBegin(&sw.getDefaultRegion().emplaceBlock());
    scf::YieldOp::create(db, loc);
  }
  // The register budget: a marker dwc-kernel-occupancy makes nvvm.maxnreg.
  if (maxRegisters)
    launch.getBody().walk([&](vector::LoadOp load) {
      load->setAttr("dwc.max_registers",
                    IntegerAttr::get(IntegerType::get(load.getContext(), 64),
                                     maxRegisters));
      return WalkResult::interrupt();
    });
  nameKernel(launch, FullRowKernelAttr::getMnemonic());
}

} // namespace

void mlir::dwc::gemv::populateFullRowPatterns(RewritePatternSet &patterns) {
  addGemvFamilyPatterns<FullRowKernelAttr, FullRowKernel>(patterns);
}
