//===- FullRowKernel.cpp - stride-1 depthwise conv, one output row per thread -===//
//
// The #dwc.full_row kernel of convert-dwc-to-gpu-gemv: a thread computes a
// whole output row of `channels` channels. Its filter rows are a loop
// bounded by the map (no padding row is visited) and its filter columns
// are unrolled over the (input column, output column) pairs whose tap lies
// in the filter (decided at compile time, the output row starting at
// column 0). For narrow maps where the other kernels leave SMs idle
// (batch 1) or spend most FMAs on padding (filters larger than the map).
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

/// The full-row kernel of one op (see the #dwc.full_row description).
struct FullRowKernel : GemvFamilyKernel {
  DepthwiseProblem pb;
  DepthwiseSizes sz;
  Location loc;
  int64_t V, threads, unroll, total;
  /// The input columns some output of the row reads, [iw0, iw1), and the
  /// filter columns the row uses, [kw0, kw1).
  int64_t iw0, iw1, kw0, kw1;
  Value n, oh, c;

  FullRowKernel(Operation *op, const DepthwiseProblem &pb,
                FullRowKernelAttr config)
      : pb(pb), sz(sizesOf(pb)), loc(op->getLoc()) {
    V = config.getChannels();
    threads = config.getThreads();
    // More rows per step than the window or the map has only adds zeros.
    unroll = std::max<int64_t>(
        1, std::min({config.getUnroll(), sz.FH, sz.IH}));
    total = sz.N * sz.OH * (sz.C / V);
    // Output column ow reads input ow + kw - pl for kw in [0, FW).
    iw0 = std::max<int64_t>(0, -pb.pl);
    iw1 = std::min(sz.IW, sz.OW - 1 + sz.FW - pb.pl);
    kw0 = std::max<int64_t>(0, pb.pl - (sz.OW - 1));
    kw1 = std::min(sz.FW, sz.IW + pb.pl);
  }
  int64_t blocks() const { return llvm::divideCeil(total, threads); }

  SmallVector<Value> emitRowStep(Emitter &e, Value ih, Value hi,
                                 ValueRange acc);
  void emit(RewriterBase &rewriter);
};

/// `unroll` input rows from `ih` (rows at or past `hi` read as zeros): each
/// row's used input vectors and filter vectors are loaded, then every
/// output column's FMAs with the taps that land in the filter.
SmallVector<Value> FullRowKernel::emitRowStep(Emitter &e, Value ih, Value hi,
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
    SmallVector<Value> xs(iw1 - iw0), ws(kw1 - kw0);
    for (int64_t iw = iw0; iw < iw1; ++iw) {
      SmallVector<Value, 4> at{n, rowc, e.cst(iw), c};
      xs[iw - iw0] = ok ? e.loadOrZero(pb.x, at, ok) : e.load(pb.x, at);
    }
    for (int64_t kw = kw0; kw < kw1; ++kw)
      ws[kw - kw0] = e.load(
          pb.w, ValueRange{fh, e.cst(pb.rotateFilter ? sz.FW - 1 - kw : kw),
                           c});
    // Output column outer: measured faster than filter column outer on
    // filters wider than the row (batch 1: 27 x 27 on 14 x 14 15 against
    // 23 us f32), slower on 5-wide ones (docs/KernelSelection.md, "full
    // row").
    for (int64_t ow = 0; ow < sz.OW; ++ow)
      for (int64_t kw = kw0; kw < kw1; ++kw) {
        int64_t iw = ow + kw - pb.pl;
        if (iw < iw0 || iw >= iw1)
          continue;
        out[ow] = vector::FMAOp::create(b, loc, xs[iw - iw0], ws[kw - kw0],
                                        out[ow]);
      }
  }
  return out;
}

void FullRowKernel::emit(RewriterBase &rewriter) {
  // Threads past the last row do nothing.
  auto [launch, gid, b] =
      createGuardedLaunch(rewriter, loc, blocks(), threads, total);
  Emitter e{b, loc, V};
  auto co = e.delinearize(gid, {sz.N, sz.OH, sz.C / V});
  n = co[0];
  oh = co[1];
  c = e.mul(co[2], V);
  // Input rows of the window inside the map: [max(0, oh - pt),
  // min(IH, oh - pt + FH)).
  Value lo = e.maxc(e.add(oh, -pb.pt), 0);
  Value hi = e.minc(e.add(oh, sz.FH - pb.pt), sz.IH);
  Value init = pb.bias ? e.load(pb.bias, ValueRange{c}) : e.zeros();
  SmallVector<Value> acc(sz.OW, init);
  auto loop = scf::ForOp::create(
      b, loc, lo, hi, e.cst(unroll), acc,
      [&](OpBuilder &lb, Location, Value ih, ValueRange accs) {
        Emitter le{lb, loc, V};
        scf::YieldOp::create(lb, loc, emitRowStep(le, ih, hi, accs));
      });
  for (int64_t ow = 0; ow < sz.OW; ++ow)
    e.store(loop.getResult(ow), pb.y, ValueRange{n, oh, e.cst(ow), c});
  nameKernel(launch, FullRowKernelAttr::getMnemonic());
}

} // namespace

void mlir::dwc::gemv::populateFullRowPatterns(RewritePatternSet &patterns) {
  addGemvFamilyPatterns<FullRowKernelAttr, FullRowKernel>(patterns);
}
