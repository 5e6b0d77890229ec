//===- GenericForms.cpp - convolutions/pools written as linalg.generic ----===//
//
// Part of raise-linalg-to-dwc. StableHLO's lowering to linalg
// (stablehlo-legalize-to-linalg) writes convolutions and reduce-window
// pools as linalg.generic ops, with the loops in its own order and the
// depthwise convolution as a grouped 5-D convolution (N x G x 1 x H x W).
// These patterns recognise them by their indexing maps and payloads and
// rewrite them, exactly, into the NCHW named ops (whose rewrites then take
// them to dwc): conv_2d_nchw_fchw, depthwise_conv_2d_nchw_chw (between
// collapse/expand_shape of the group dims), conv_2d_ngchw_gfchw (the
// depthwise form with a channel multiplier), pooling_nchw_max/sum.
//
//===----------------------------------------------------------------------===//

#include "LinalgToDwcPatterns.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace {

/// What the payload computes.
enum class Payload { None, MulAdd, Max, Add };

/// Classifies a (in0, in1, out) payload: out + in0 * in1, max(out, in0) or
/// out + in0 (in1, the window, unused for pools).
Payload classifyPayload(Block *body) {
  if (body->getNumArguments() != 3 || body->getOperations().size() > 3)
    return Payload::None;
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (yield.getNumOperands() != 1)
    return Payload::None;
  Value in0 = body->getArgument(0), in1 = body->getArgument(1),
        out = body->getArgument(2);
  Operation *op = yield.getOperand(0).getDefiningOp();
  if (!op || op->getBlock() != body || op->getNumOperands() != 2)
    return Payload::None;
  Value a = op->getOperand(0), b = op->getOperand(1);
  if (b == out)
    std::swap(a, b);
  if (a != out)
    return Payload::None;
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(op))
    return b == in0 && in1.use_empty() ? Payload::Max : Payload::None;
  if (!isa<arith::AddFOp>(op))
    return Payload::None;
  if (b == in0 && in1.use_empty())
    return Payload::Add;
  auto mul = b.getDefiningOp<arith::MulFOp>();
  if (mul && mul->getBlock() == body &&
      ((mul.getLhs() == in0 && mul.getRhs() == in1) ||
       (mul.getLhs() == in1 && mul.getRhs() == in0)))
    return Payload::MulAdd;
  return Payload::None;
}

/// The dim of a plain dim expression, or -1.
int64_t dimOf(AffineExpr e) {
  auto d = dyn_cast<AffineDimExpr>(e);
  return d ? static_cast<int64_t>(d.getPosition()) : -1;
}

/// Decomposes `e` = s * d_o + k * d_f (either order, coefficients >= 1)
/// with d_o = `outDim`; returns {s, k, d_f}.
struct WindowTerm {
  int64_t stride, dilation, filterDim;
};
std::optional<WindowTerm> windowTerm(AffineExpr e, int64_t outDim) {
  auto add = dyn_cast<AffineBinaryOpExpr>(e);
  if (!add || add.getKind() != AffineExprKind::Add)
    return std::nullopt;
  auto term = [](AffineExpr t) -> std::pair<int64_t, int64_t> {
    if (int64_t d = dimOf(t); d >= 0)
      return {d, 1};
    auto mul = dyn_cast<AffineBinaryOpExpr>(t);
    if (!mul || mul.getKind() != AffineExprKind::Mul)
      return {-1, 0};
    auto c = dyn_cast<AffineConstantExpr>(mul.getRHS());
    int64_t d = dimOf(mul.getLHS());
    if (!c || d < 0 || c.getValue() < 1)
      return {-1, 0};
    return {d, c.getValue()};
  };
  auto [d0, c0] = term(add.getLHS());
  auto [d1, c1] = term(add.getRHS());
  if (d0 < 0 || d1 < 0 || d0 == d1)
    return std::nullopt;
  if (d1 == outDim) {
    std::swap(d0, d1);
    std::swap(c0, c1);
  }
  if (d0 != outDim)
    return std::nullopt;
  return WindowTerm{c0, c1, d1};
}

bool isStaticFloatTensor(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !type.hasStaticShape())
    return false;
  Type elem = type.getElementType();
  return elem.isF32() || elem.isF16() || elem.isBF16();
}

/// The loop roles of a recognised 2-D window op over NC(G)HW operands.
struct WindowMatch {
  SmallVector<int64_t, 2> strides, dilations;
};

/// Matches input dims (H, W) = `inH`, `inW` against the output's spatial
/// dims and the filter/window's spatial dims `kh`, `kw`.
std::optional<WindowMatch> matchSpatial(AffineExpr inH, AffineExpr inW,
                                        int64_t oh, int64_t ow, int64_t kh,
                                        int64_t kw) {
  auto h = windowTerm(inH, oh), w = windowTerm(inW, ow);

  if (!h || !w || h->filterDim != kh || w->filterDim != kw)
    return std::nullopt;
  return WindowMatch{{h->stride, w->stride}, {h->dilation, w->dilation}};
}

/// Whether the iterator types are parallel exactly on the output's dims.
bool parallelExactlyOn(linalg::GenericOp op, AffineMap outMap) {
  SmallVector<bool> isOut(op.getNumLoops(), false);
  for (AffineExpr e : outMap.getResults()) {
    int64_t d = dimOf(e);
    if (d < 0 || isOut[d])
      return false;
    isOut[d] = true;
  }
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  for (unsigned d = 0; d < iters.size(); ++d)
    if ((iters[d] == utils::IteratorType::parallel) != isOut[d])
      return false;
  return true;
}

struct RaiseGenericWindowOp : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op->getNumResults() != 1 ||
        op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
        !isStaticFloatTensor(op.getDpsInputs()[0]) ||
        !isStaticFloatTensor(op.getDpsInits()[0]))
      return failure();
    Payload payload = classifyPayload(op.getBody());
    if (payload == Payload::None)
      return failure();
    auto maps = op.getIndexingMapsArray();
    if (!parallelExactlyOn(op, maps[2]))
      return failure();
    if (payload == Payload::MulAdd)
      return maps[2].getNumResults() == 4 ? rewriteConv(op, rewriter)
                                          : rewriteGroupedDepthwise(op, rewriter);
    return rewritePool(op, payload, rewriter);
  }

  /// out (n, f, oh, ow), filter (f, c, kh, kw), input (n, c, H(oh, kh),
  /// W(ow, kw)) -> linalg.conv_2d_nchw_fchw.
  static LogicalResult rewriteConv(linalg::GenericOp op,
                                   PatternRewriter &rewriter) {
    auto maps = op.getIndexingMapsArray();
    AffineMap in = maps[0], f = maps[1], out = maps[2];
    if (in.getNumResults() != 4 || f.getNumResults() != 4 ||
        !isStaticFloatTensor(op.getDpsInputs()[1]))
      return failure();
    int64_t n = dimOf(out.getResult(0)), oc = dimOf(out.getResult(1)),
            oh = dimOf(out.getResult(2)), ow = dimOf(out.getResult(3));
    int64_t c = dimOf(f.getResult(1));
    if (dimOf(f.getResult(0)) != oc || c < 0 || dimOf(in.getResult(0)) != n ||
        dimOf(in.getResult(1)) != c)
      return failure();
    auto m = matchSpatial(in.getResult(2), in.getResult(3), oh, ow,
                          dimOf(f.getResult(2)), dimOf(f.getResult(3)));
    if (!m)
      return failure();
    rewriter.replaceOpWithNewOp<linalg::Conv2DNchwFchwOp>(
        op, TypeRange{op->getResult(0).getType()}, op.getDpsInputs(),
        op.getDpsInits(), attrs(rewriter, *m));
    return success();
  }

  /// StableHLO's depthwise form: out (n, g, fg, oh, ow), filter (g, fg, cg,
  /// kh, kw), input (n, g, cg, H, W) with fg = cg = 1 -> collapse the group
  /// dims, linalg.depthwise_conv_2d_nchw_chw, expand the result back. With
  /// cg = 1 and fg of extent M > 1 (a channel multiplier) ->
  /// linalg.conv_2d_ngchw_gfchw.
  static LogicalResult rewriteGroupedDepthwise(linalg::GenericOp op,
                                               PatternRewriter &rewriter) {
    auto maps = op.getIndexingMapsArray();
    AffineMap in = maps[0], f = maps[1], out = maps[2];
    Value x = op.getDpsInputs()[0], w = op.getDpsInputs()[1],
          init = op.getDpsInits()[0];
    if (out.getNumResults() != 5 || in.getNumResults() != 5 ||
        f.getNumResults() != 5 || !isStaticFloatTensor(w))
      return failure();
    auto xType = cast<RankedTensorType>(x.getType());
    auto wType = cast<RankedTensorType>(w.getType());
    auto outType = cast<RankedTensorType>(init.getType());
    if (xType.getDimSize(2) != 1 || wType.getDimSize(2) != 1)
      return failure();
    int64_t n = dimOf(out.getResult(0)), g = dimOf(out.getResult(1)),
            fg = dimOf(out.getResult(2)), oh = dimOf(out.getResult(3)),
            ow = dimOf(out.getResult(4));
    int64_t cg = dimOf(f.getResult(2));
    if (dimOf(f.getResult(0)) != g || dimOf(f.getResult(1)) != fg || cg < 0 ||
        dimOf(in.getResult(0)) != n || dimOf(in.getResult(1)) != g ||
        dimOf(in.getResult(2)) != cg)
      return failure();
    auto m = matchSpatial(in.getResult(3), in.getResult(4), oh, ow,
                          dimOf(f.getResult(3)), dimOf(f.getResult(4)));
    if (!m)
      return failure();
    // M = fg's extent > 1 filters per group: these maps and payload are
    // exactly linalg.conv_2d_ngchw_gfchw's (whose rewrite takes it on).
    if (wType.getDimSize(1) != 1 || outType.getDimSize(2) != 1) {
      rewriter.replaceOpWithNewOp<linalg::Conv2DNgchwGfchwOp>(
          op, TypeRange{outType}, op.getDpsInputs(), op.getDpsInits(),
          attrs(rewriter, *m));
      return success();
    }
    Location loc = op.getLoc();
    SmallVector<ReassociationIndices> nchw = {{0}, {1, 2}, {3}, {4}};
    SmallVector<ReassociationIndices> chw = {{0, 1, 2}, {3}, {4}};
    Value x4 = tensor::CollapseShapeOp::create(rewriter, loc, x, nchw);
    Value w3 = tensor::CollapseShapeOp::create(rewriter, loc, w, chw);
    Value init4 = tensor::CollapseShapeOp::create(rewriter, loc, init, nchw);
    auto conv = linalg::DepthwiseConv2DNchwChwOp::create(
        rewriter, loc, TypeRange{init4.getType()}, ValueRange{x4, w3},
        ValueRange{init4}, attrs(rewriter, *m));
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, outType, conv->getResult(0), nchw);
    return success();
  }

  /// out (n, c, oh, ow), window (kh, kw), input (n, c, H, W) ->
  /// linalg.pooling_nchw_max / pooling_nchw_sum.
  static LogicalResult rewritePool(linalg::GenericOp op, Payload payload,
                                   PatternRewriter &rewriter) {
    auto maps = op.getIndexingMapsArray();
    AffineMap in = maps[0], k = maps[1], out = maps[2];
    auto kType = dyn_cast<RankedTensorType>(op.getDpsInputs()[1].getType());
    if (in.getNumResults() != 4 || out.getNumResults() != 4 ||
        k.getNumResults() != 2 || !kType || !kType.hasStaticShape())
      return failure();
    if (dimOf(in.getResult(0)) != dimOf(out.getResult(0)) ||
        dimOf(in.getResult(1)) != dimOf(out.getResult(1)))
      return failure();
    auto m = matchSpatial(in.getResult(2), in.getResult(3),
                          dimOf(out.getResult(2)), dimOf(out.getResult(3)),
                          dimOf(k.getResult(0)), dimOf(k.getResult(1)));
    if (!m)
      return failure();
    TypeRange types = op->getResultTypes();
    if (payload == Payload::Max)
      rewriter.replaceOpWithNewOp<linalg::PoolingNchwMaxOp>(
          op, types, op.getDpsInputs(), op.getDpsInits(), attrs(rewriter, *m));
    else
      rewriter.replaceOpWithNewOp<linalg::PoolingNchwSumOp>(
          op, types, op.getDpsInputs(), op.getDpsInits(), attrs(rewriter, *m));
    return success();
  }

  static SmallVector<NamedAttribute> attrs(PatternRewriter &rewriter,
                                           const WindowMatch &m) {
    return {rewriter.getNamedAttr("strides",
                                  rewriter.getI64VectorAttr(m.strides)),
            rewriter.getNamedAttr("dilations",
                                  rewriter.getI64VectorAttr(m.dilations))};
  }
};

/// A linalg.generic that broadcasts a 0-D splat constant (StableHLO's
/// broadcast_in_dim of an initial value) -> linalg.fill of the scalar, the
/// form the raising recognises as a reduction's initial value.
struct ScalarBroadcastToFill : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 1 ||
        op.getNumDpsInits() != 1 || op->getNumResults() != 1 ||
        op.getNumLoops() == 0 ||
        op.getNumParallelLoops() != op.getNumLoops())
      return failure();
    Block *body = op.getBody();
    auto yield = cast<linalg::YieldOp>(body->getTerminator());
    if (body->getOperations().size() != 1 ||
        yield.getOperand(0) != body->getArgument(0) ||
        op.getIndexingMapsArray()[0].getNumResults() != 0)
      return failure();
    DenseElementsAttr splat;
    if (!matchPattern(op.getDpsInputs()[0], m_Constant(&splat)) ||
        !splat.isSplat() || !isa<FloatType>(splat.getElementType()))
      return failure();
    Value scalar = arith::ConstantOp::create(
        rewriter, op.getLoc(), splat.getSplatValue<TypedAttr>());
    rewriter.replaceOpWithNewOp<linalg::FillOp>(op, scalar,
                                                op.getDpsInits()[0]);
    return success();
  }
};

} // namespace

void mlir::dwc::populateGenericFormPatterns(RewritePatternSet &patterns) {
  patterns.add<RaiseGenericWindowOp, ScalarBroadcastToFill>(
      patterns.getContext());
  // collapse_shape(fill) -> fill(collapse_shape), for the grouped form.
  linalg::FillOp::getCanonicalizationPatterns(patterns, patterns.getContext());
}
