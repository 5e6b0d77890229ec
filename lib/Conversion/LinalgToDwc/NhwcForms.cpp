//===- NhwcForms.cpp - front-end conv/pool forms to NHWC named ops --------===//
//
// Part of raise-linalg-to-dwc. Front ends emit convolutions and pooling in
// layouts dwc does not take directly: torch-mlir's NCHW named ops
// (depthwise_conv_2d_nchw_chw, conv_2d_nchw_fchw, pooling_nchw_max/sum),
// TOSA's F x H x W x C filters (conv_2d_nhwc_fhwc) and its depthwise form with
// a channel multiplier of one (depthwise_conv_2d_nhwc_hwcm into a 5-D result
// that is collapsed), and grouped convolutions with one input channel per
// group and M > 1 filters (conv_2d_ngchw_gfchw, a depthwise convolution with
// a channel multiplier; to depthwise_conv_2d_nhwc_hwcm). These patterns
// rewrite each into the NHWC named op the raising patterns recognise, with
// linalg.transpose ops around it; the layout
// propagation patterns (dwc-propagate-layout) then cancel the transposes
// between consecutive ops and fold those of constant weights.
//
// The rewrites are exact (they only move data), so they are applied whenever
// the operand types are ones dwc takes (static f32/f16/bf16).
//
//===----------------------------------------------------------------------===//

#include "LinalgToDwcPatterns.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace {

/// NCHW -> NHWC and back.
constexpr int64_t kToNhwc[] = {0, 2, 3, 1};
constexpr int64_t kToNchw[] = {0, 3, 1, 2};

bool isDwcElementTensor(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !type.hasStaticShape())
    return false;
  Type elem = type.getElementType();
  return elem.isF32() || elem.isF16() || elem.isBF16();
}

/// linalg.transpose of `v` by `perm` into a fresh tensor.empty.
Value transpose(PatternRewriter &rewriter, Location loc, Value v,
                ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  Value empty =
      tensor::EmptyOp::create(rewriter, loc, shape, type.getElementType());
  return linalg::TransposeOp::create(rewriter, loc, v, empty, perm)
      ->getResult(0);
}

/// The padding value of `pad` usable outside its region: a constant
/// defined inside the region is cloned at the insertion point.
Value padValueOutside(PatternRewriter &rewriter, tensor::PadOp pad) {
  Value v = pad.getConstantPaddingValue();
  Operation *def = v.getDefiningOp();
  if (def && pad.getRegion().isAncestor(def->getParentRegion()))
    return rewriter.clone(*def)->getResult(0);
  return v;
}

/// The input `v` (NCHW) transposed to NHWC. A tensor.pad by a constant is
/// moved after the transpose (its amounts permuted), so that it still
/// directly feeds the op and can fold into the dwc op's padding.
Value transposeInput(PatternRewriter &rewriter, Location loc, Value v) {
  auto pad = v.getDefiningOp<tensor::PadOp>();
  if (!pad || pad.getNofold() || !pad.getConstantPaddingValue())
    return transpose(rewriter, loc, v, kToNhwc);
  SmallVector<OpFoldResult> low, high;
  SmallVector<OpFoldResult> oldLow = pad.getMixedLowPad(),
                            oldHigh = pad.getMixedHighPad();
  for (int64_t p : kToNhwc) {
    low.push_back(oldLow[p]);
    high.push_back(oldHigh[p]);
  }
  Value x = transpose(rewriter, loc, pad.getSource(), kToNhwc);
  auto padType = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : kToNhwc)
    shape.push_back(padType.getDimSize(p));
  auto type = RankedTensorType::get(shape, padType.getElementType());
  return tensor::PadOp::create(rewriter, pad.getLoc(), type, x, low, high,
                               padValueOutside(rewriter, pad))
      .getResult();
}

/// The `outs` of the NHWC op that replaces an NCHW op whose `outs` is
/// `init`: a fill or a channel broadcast is rebuilt in NHWC (so the raising
/// still sees it), anything else is transposed.
Value transposeInit(PatternRewriter &rewriter, Location loc, Value init) {
  auto type = cast<RankedTensorType>(init.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : kToNhwc)
    shape.push_back(type.getDimSize(p));
  if (auto fill = init.getDefiningOp<linalg::FillOp>();
      fill && fill.hasPureTensorSemantics()) {
    Value empty =
        tensor::EmptyOp::create(rewriter, loc, shape, type.getElementType());
    return linalg::FillOp::create(rewriter, loc, fill.getInputs()[0], empty)
        ->getResult(0);
  }
  if (auto bcast = init.getDefiningOp<linalg::BroadcastOp>();
      bcast && bcast.hasPureTensorSemantics() &&
      bcast.getDimensions() == ArrayRef<int64_t>{0, 2, 3}) {
    Value empty =
        tensor::EmptyOp::create(rewriter, loc, shape, type.getElementType());
    return linalg::BroadcastOp::create(rewriter, loc, bcast.getInput(), empty,
                                       ArrayRef<int64_t>{0, 1, 2})
        ->getResult(0);
  }
  return transpose(rewriter, loc, init, kToNhwc);
}

/// The strides and dilations of a convolution or pooling op, to give the
/// op that replaces it.
template <typename OpTy>
SmallVector<NamedAttribute> windowAttrs(OpTy op) {
  Builder b(op.getContext());
  return {b.getNamedAttr("strides", op.getStrides()),
          b.getNamedAttr("dilations", op.getDilations())};
}

/// Creates the NHWC op `NewOp` with `inputs`, NHWC `outs` and the old op's
/// strides/dilations, and replaces `op` by its result transposed to NCHW.
template <typename NewOp, typename OldOp>
void replaceWithNhwc(PatternRewriter &rewriter, OldOp op, ValueRange inputs,
                     Value init) {
  Location loc = op.getLoc();
  auto created = NewOp::create(rewriter, loc, TypeRange{init.getType()},
                               inputs, ValueRange{init},
                               windowAttrs(op));
  rewriter.replaceOp(op, transpose(rewriter, loc, created->getResult(0),
                                   kToNchw));
}

/// The common checks: tensor semantics, one result, dwc element types.
bool isRewritable(linalg::LinalgOp op) {
  return op.hasPureTensorSemantics() && op->getNumResults() == 1 &&
         op.getNumDpsInputs() == 2 && op.getNumDpsInits() == 1 &&
         llvm::all_of(op->getOperands(), isDwcElementTensor);
}

/// A channels-first convolution -> transposes + its NHWC form `NhwcOp`,
/// the filter transposed by `FilterPerm`.
template <typename NchwOp, typename NhwcOp, int64_t... FilterPerm>
struct ConvToNhwc : OpRewritePattern<NchwOp> {
  using OpRewritePattern<NchwOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(NchwOp op,
                                PatternRewriter &rewriter) const override {
    if (!isRewritable(op))
      return rewriter.notifyMatchFailure(op, "not a static f32/f16/bf16 op");
    Location loc = op.getLoc();
    Value x = transposeInput(rewriter, loc, op.getInputs()[0]);
    Value w = transpose(rewriter, loc, op.getInputs()[1], {FilterPerm...});
    Value init = transposeInit(rewriter, loc, op.getOutputs()[0]);
    replaceWithNhwc<NhwcOp>(rewriter, op, {x, w}, init);
    return success();
  }
};

/// linalg.depthwise_conv_2d_nchw_chw -> transposes +
/// linalg.depthwise_conv_2d_nhwc_hwc.
using DepthwiseNchwToNhwc =
    ConvToNhwc<linalg::DepthwiseConv2DNchwChwOp,
               linalg::DepthwiseConv2DNhwcHwcOp, 1, 2, 0>;
/// linalg.conv_2d_nchw_fchw -> transposes + linalg.conv_2d_nhwc_hwcf.
using ConvNchwToNhwc =
    ConvToNhwc<linalg::Conv2DNchwFchwOp, linalg::Conv2DNhwcHwcfOp, 2, 3, 1, 0>;

/// linalg.conv_2d_nhwc_fhwc -> filter transpose + linalg.conv_2d_nhwc_hwcf.
struct ConvFhwcToHwcf : OpRewritePattern<linalg::Conv2DNhwcFhwcOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::Conv2DNhwcFhwcOp op,
                                PatternRewriter &rewriter) const override {
    if (!isRewritable(op))
      return rewriter.notifyMatchFailure(op, "not a static f32/f16/bf16 op");
    Value w = transpose(rewriter, op.getLoc(), op.getInputs()[1], {1, 2, 3, 0});
    rewriter.replaceOpWithNewOp<linalg::Conv2DNhwcHwcfOp>(
        op, TypeRange{op->getResult(0).getType()},
        ValueRange{op.getInputs()[0], w}, op.getOutputs(),
        windowAttrs(op));
    return success();
  }
};

/// linalg.depthwise_conv_2d_nhwc_hwcm with M = 1 and a zero-fill `outs` ->
/// linalg.depthwise_conv_2d_nhwc_hwc on the collapsed filter, expanded back
/// to the 5-D result (the collapse that follows then folds away).
struct DepthwiseHwcmToHwc
    : OpRewritePattern<linalg::DepthwiseConv2DNhwcHwcmOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::DepthwiseConv2DNhwcHwcmOp op,
                                PatternRewriter &rewriter) const override {
    if (!isRewritable(op))
      return rewriter.notifyMatchFailure(op, "not a static f32/f16/bf16 op");
    auto filterType = cast<RankedTensorType>(op.getInputs()[1].getType());
    auto outType = cast<RankedTensorType>(op.getOutputs()[0].getType());
    if (filterType.getDimSize(3) != 1)
      return rewriter.notifyMatchFailure(op, "channel multiplier is not 1");
    auto fill = op.getOutputs()[0].getDefiningOp<linalg::FillOp>();
    if (!fill || !fill.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "outs is not a fill");
    Location loc = op.getLoc();
    SmallVector<ReassociationIndices> filterAssoc = {{0}, {1}, {2, 3}};
    SmallVector<ReassociationIndices> outAssoc = {{0}, {1}, {2}, {3, 4}};
    Value w = tensor::CollapseShapeOp::create(rewriter, loc,
                                              op.getInputs()[1], filterAssoc);
    SmallVector<int64_t> shape(outType.getShape().drop_back());
    Value empty =
        tensor::EmptyOp::create(rewriter, loc, shape, outType.getElementType());
    Value init = linalg::FillOp::create(rewriter, loc, fill.getInputs()[0],
                                        empty)
                     ->getResult(0);
    auto conv = linalg::DepthwiseConv2DNhwcHwcOp::create(
        rewriter, loc, TypeRange{init.getType()},
        ValueRange{op.getInputs()[0], w}, ValueRange{init},
        windowAttrs(op));
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, outType, conv->getResult(0), outAssoc);
    return success();
  }
};

/// The reassociation between N x C x H x W and the grouped
/// N x G x Cg x H x W (C = G * Cg), as the front ends expand it.
SmallVector<ReassociationIndices> groupDims() {
  return {{0}, {1, 2}, {3}, {4}};
}

/// The 5-D grouped tensor `v` with its group dims merged: the source of
/// the front end's expand_shape when there is one, else a collapse_shape.
Value mergeGroups(PatternRewriter &rewriter, Location loc, Value v) {
  auto expand = v.getDefiningOp<tensor::ExpandShapeOp>();
  if (expand && expand.getReassociationIndices() == groupDims())
    return expand.getSrc();
  return tensor::CollapseShapeOp::create(rewriter, loc, v, groupDims());
}

/// The N x OH x OW x G x M `outs` of the depthwise form of a grouped
/// convolution whose N x G x M x OH x OW `outs` is `init`: a fill is
/// rebuilt in that shape, anything else merged, taken to NHWC
/// (transposeInit: fills and channel broadcasts stay recognisable) and
/// split again.
Value groupedInitToHwcm(PatternRewriter &rewriter, Location loc, Value init) {
  auto type = cast<RankedTensorType>(init.getType());
  auto s = type.getShape();
  if (auto fill = init.getDefiningOp<linalg::FillOp>();
      fill && fill.hasPureTensorSemantics()) {
    Value empty = tensor::EmptyOp::create(
        rewriter, loc, ArrayRef<int64_t>{s[0], s[3], s[4], s[1], s[2]},
        type.getElementType());
    return linalg::FillOp::create(rewriter, loc, fill.getInputs()[0], empty)
        ->getResult(0);
  }
  Value nhwc = transposeInit(rewriter, loc, mergeGroups(rewriter, loc, init));
  auto resultType = RankedTensorType::get({s[0], s[3], s[4], s[1], s[2]},
                                          type.getElementType());
  SmallVector<ReassociationIndices> channels = {{0}, {1}, {2}, {3, 4}};
  return tensor::ExpandShapeOp::create(rewriter, loc, resultType, nhwc,
                                       channels);
}

/// linalg.conv_2d_ngchw_gfchw with groups = input channels (Cg = 1) and
/// M > 1 filters per group (torch-mlir's and IREE's Conv2d(C, M*C, k,
/// groups=C), StableHLO's through the generic rewrite) ->
/// linalg.depthwise_conv_2d_nhwc_hwcm with transposes: output channel
/// g*M + m of the grouped op is (c = g, m) of the depthwise one.
struct GroupedConvToHwcm : OpRewritePattern<linalg::Conv2DNgchwGfchwOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::Conv2DNgchwGfchwOp op,
                                PatternRewriter &rewriter) const override {
    if (!isRewritable(op))
      return rewriter.notifyMatchFailure(op, "not a static f32/f16/bf16 op");
    auto x = cast<RankedTensorType>(op.getInputs()[0].getType()).getShape();
    auto w = cast<RankedTensorType>(op.getInputs()[1].getType()).getShape();
    if (x[2] != 1 || w[2] != 1)
      return rewriter.notifyMatchFailure(
          op, "groups are not the input channels (group size is not 1)");
    if (w[1] == 1)
      return rewriter.notifyMatchFailure(
          op, "one filter per group (left as the front end wrote it)");
    if (w[0] != x[1])
      return rewriter.notifyMatchFailure(op, "inconsistent groups");
    Location loc = op.getLoc();
    Value xh = transposeInput(rewriter, loc,
                              mergeGroups(rewriter, loc, op.getInputs()[0]));
    // G x M x 1 x KH x KW -> KH x KW x G x M.
    Value w4 = tensor::CollapseShapeOp::create(rewriter, loc,
                                               op.getInputs()[1], groupDims());
    Value wh = transpose(rewriter, loc, w4, {2, 3, 0, 1});
    Value init = groupedInitToHwcm(rewriter, loc, op.getOutputs()[0]);
    auto conv = linalg::DepthwiseConv2DNhwcHwcmOp::create(
        rewriter, loc, TypeRange{init.getType()}, ValueRange{xh, wh},
        ValueRange{init}, windowAttrs(op));
    replaceWithGrouped(rewriter, op, conv->getResult(0));
    return success();
  }

  /// Replaces `op` by the N x OH x OW x G x M `result` in its
  /// N x G x M x OH x OW layout, as NCHW between reshapes (so that the
  /// front end's collapse to N x (G*M) x OH x OW folds, and the transpose
  /// is a 4-D one the layout propagation moves).
  static void replaceWithGrouped(PatternRewriter &rewriter,
                                 linalg::Conv2DNgchwGfchwOp op, Value result) {
    Location loc = op.getLoc();
    SmallVector<ReassociationIndices> channels = {{0}, {1}, {2}, {3, 4}};
    Value flat =
        tensor::CollapseShapeOp::create(rewriter, loc, result, channels);
    Value nchw = transpose(rewriter, loc, flat, kToNchw);
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, op->getResult(0).getType(), nchw, groupDims());
  }
};

/// linalg.pooling_nchw_{max,sum} -> transposes + linalg.pooling_nhwc_*.
template <typename NchwOp, typename NhwcOp>
struct PoolNchwToNhwc : OpRewritePattern<NchwOp> {
  using OpRewritePattern<NchwOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(NchwOp op,
                                PatternRewriter &rewriter) const override {
    auto windowType = dyn_cast<RankedTensorType>(op.getInputs()[1].getType());
    if (!op.hasPureTensorSemantics() || op->getNumResults() != 1 ||
        !isDwcElementTensor(op.getInputs()[0]) ||
        !isDwcElementTensor(op.getOutputs()[0]) || !windowType ||
        !windowType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "not a static f32/f16/bf16 op");
    Location loc = op.getLoc();
    Value x = transposeInput(rewriter, loc, op.getInputs()[0]);
    Value init = transposeInit(rewriter, loc, op.getOutputs()[0]);
    replaceWithNhwc<NhwcOp>(rewriter, op, {x, op.getInputs()[1]}, init);
    return success();
  }
};

/// transpose(tensor.pad(x)) -> tensor.pad(transpose(x)) for a pad by a
/// constant value, so that the pad meets the op it feeds and folds into it.
struct SwapTransposeAndPad : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto pad = op.getInput().getDefiningOp<tensor::PadOp>();
    if (!op.hasPureTensorSemantics() || !pad || pad.getNofold() ||
        !pad.getConstantPaddingValue())
      return failure();
    // The value must be usable at the pad's position and before it.
    if (auto *def = pad.getConstantPaddingValue().getDefiningOp();
        def && def->getBlock() == pad->getBlock() &&
        !def->isBeforeInBlock(pad))
      return failure();
    ArrayRef<int64_t> perm = op.getPermutation();
    SmallVector<OpFoldResult> low, high;
    SmallVector<OpFoldResult> oldLow = pad.getMixedLowPad(),
                              oldHigh = pad.getMixedHighPad();
    for (int64_t p : perm) {
      low.push_back(oldLow[p]);
      high.push_back(oldHigh[p]);
    }
    rewriter.setInsertionPoint(pad);
    Value padValue = padValueOutside(rewriter, pad);
    Value x = transpose(rewriter, op.getLoc(), pad.getSource(), perm);
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    auto newPad = tensor::PadOp::create(rewriter, pad.getLoc(), resultType, x,
                                        low, high, padValue);
    rewriter.replaceOp(op, newPad.getResult());
    return success();
  }
};

/// transpose(fill(c)) -> fill(c) of the transposed shape, so that an
/// initial value that became a fill after the NHWC rewrite is still seen.
struct FoldTransposeOfFill : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto fill = op.getInput().getDefiningOp<linalg::FillOp>();
    if (!op.hasPureTensorSemantics() || !fill ||
        !fill.hasPureTensorSemantics())
      return failure();
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    if (!type.hasStaticShape())
      return failure();
    Value empty = tensor::EmptyOp::create(rewriter, op.getLoc(),
                                          type.getShape(),
                                          type.getElementType());
    rewriter.replaceOpWithNewOp<linalg::FillOp>(op, fill.getInputs()[0],
                                                empty);
    return success();
  }
};

} // namespace

void mlir::dwc::populateNhwcFormPatterns(RewritePatternSet &patterns) {
  patterns.add<
      DepthwiseNchwToNhwc, ConvNchwToNhwc, ConvFhwcToHwcf, DepthwiseHwcmToHwc,
      GroupedConvToHwcm,
      PoolNchwToNhwc<linalg::PoolingNchwMaxOp, linalg::PoolingNhwcMaxOp>,
      PoolNchwToNhwc<linalg::PoolingNchwSumOp, linalg::PoolingNhwcSumOp>,
      SwapTransposeAndPad, FoldTransposeOfFill>(patterns.getContext());
}
