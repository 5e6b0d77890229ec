//===- LinalgToDwc.cpp - raise linalg convolutions and pooling to dwc -----===//
//
// The raise-linalg-to-dwc pass: recognises the tensor-form linalg named ops
// that front ends emit for depthwise convolution, dense convolution and
// max/average pooling, together with the zero/-inf fills and constant pads
// around them, and replaces them with dwc ops. Every pattern checks that the
// dwc op computes the same function (up to the order and the precision of the
// accumulation) and otherwise leaves the IR alone.
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/Passes.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_RAISELINALGTODWC
#include "dwc/Conversion/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;

namespace {

//===----------------------------------------------------------------------===//
// Matching helpers
//===----------------------------------------------------------------------===//

/// The statically shaped ranked tensor type of `v` with an f32, f16 or bf16
/// element type, or null.
RankedTensorType getDwcTensorType(Value v, int64_t rank) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || type.getRank() != rank || !type.hasStaticShape())
    return nullptr;
  Type elem = type.getElementType();
  if (!elem.isF32() && !elem.isF16() && !elem.isBF16())
    return nullptr;
  return type;
}

/// The value of a scalar float constant converted (round to nearest even) to
/// `elemType`, or nullopt when `v` is not a float constant.
std::optional<APFloat> getFloatConstant(Value v, Type elemType) {
  APFloat value(0.0f);
  if (!matchPattern(v, m_ConstantFloat(&value)))
    return std::nullopt;
  bool losesInfo = false;
  value.convert(cast<FloatType>(elemType).getFloatSemantics(),
                APFloat::rmNearestTiesToEven, &losesInfo);
  return value;
}

/// What the initial value of a reduction must be.
enum class Identity {
  Zero,   // +0.0, for sums
  Lowest, // -inf or the lowest finite value, for maxima
};

bool isIdentity(const APFloat &v, Identity id) {
  if (id == Identity::Zero)
    return v.isPosZero();
  return v.isNegInfinity() ||
         v == APFloat::getLargest(v.getSemantics(), /*Negative=*/true);
}

/// How to obtain the destination of the dwc op that replaces a linalg op
/// whose `outs` is `init`.
struct InitMatch {
  /// The tensor the dwc op overwrites; null when a fresh tensor.empty must be
  /// created (the linalg outs was a constant).
  Value dest;
  /// The 1-D bias broadcast into the output, if any.
  Value bias;
};

/// The 1-D tensor that `v` broadcasts along the last dimension of a rank-4
/// tensor (linalg.broadcast or its linalg.generic form), with the broadcast's
/// destination through `dest`.
Value matchChannelBroadcast(Value v, Value &dest) {
  if (auto bcast = v.getDefiningOp<linalg::BroadcastOp>()) {
    if (!bcast.hasPureTensorSemantics() ||
        bcast.getDimensions() != ArrayRef<int64_t>{0, 1, 2})
      return nullptr;
    dest = bcast.getInit();
    return bcast.getInput();
  }
  auto generic = v.getDefiningOp<linalg::GenericOp>();
  if (!generic || !generic.hasPureTensorSemantics() ||
      generic.getNumDpsInputs() != 1 || generic.getNumDpsInits() != 1 ||
      generic.getNumLoops() != 4 ||
      generic.getNumParallelLoops() != generic.getNumLoops())
    return nullptr;
  MLIRContext *ctx = generic.getContext();
  auto maps = generic.getIndexingMapsArray();
  AffineMap lastDim = AffineMap::get(4, 0, getAffineDimExpr(3, ctx));
  if (maps[0] != lastDim || !maps[1].isIdentity())
    return nullptr;
  Block *body = generic.getBody();
  if (body->getOperations().size() != 1)
    return nullptr;
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || yield.getNumOperands() != 1 ||
      yield.getOperand(0) != body->getArgument(0))
    return nullptr;
  dest = generic.getDpsInits()[0];
  return generic.getDpsInputs()[0];
}

/// Matches the `outs` of a linalg reduction that starts from the identity
/// `id`: a linalg.fill of it (any destination: the dwc op does not read its
/// destination) or a splat constant of it. With `biasChannels` > 0, a
/// broadcast of a bias of that many channels also matches (for sums).
FailureOr<InitMatch> matchInit(Value init, Identity id,
                               int64_t biasChannels = 0) {
  auto type = cast<RankedTensorType>(init.getType());
  Type elem = type.getElementType();
  if (auto fill = init.getDefiningOp<linalg::FillOp>()) {
    if (!fill.hasPureTensorSemantics())
      return failure();
    std::optional<APFloat> value = getFloatConstant(fill.getInputs()[0], elem);
    if (!value || !isIdentity(*value, id))
      return failure();
    return InitMatch{fill.getOutputs()[0], Value()};
  }
  DenseElementsAttr splat;
  if (matchPattern(init, m_Constant(&splat))) {
    if (!splat.isSplat() || !isa<FloatType>(splat.getElementType()) ||
        splat.getElementType() != elem)
      return failure();
    if (!isIdentity(splat.getSplatValue<APFloat>(), id))
      return failure();
    return InitMatch{Value(), Value()};
  }
  if (biasChannels > 0) {
    Value dest;
    Value bias = matchChannelBroadcast(init, dest);
    if (!bias)
      return failure();
    auto biasType = dyn_cast<RankedTensorType>(bias.getType());
    if (!biasType || biasType.getElementType() != elem ||
        biasType.getShape() != ArrayRef<int64_t>{biasChannels})
      return failure();
    return InitMatch{dest, bias};
  }
  return failure();
}

/// The destination for the new op: the matched one or a fresh tensor.empty.
Value materializeDest(PatternRewriter &rewriter, Location loc,
                      const InitMatch &m, RankedTensorType type) {
  if (m.dest)
    return m.dest;
  return tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                 type.getElementType());
}

/// The input of a dwc op and its `padding` attribute: either a tensor.pad
/// folded in, or the linalg op's own input with no padding.
struct PaddedInput {
  Value input;
  SmallVector<int64_t, 4> padding = {0, 0, 0, 0};
};

/// Folds a producing tensor.pad into the padding attribute when it pads only
/// H and W by static non-negative amounts with a constant that `valueOk`
/// accepts, and `padOk(padding)` holds. Any other input is used as is.
PaddedInput
foldPad(Value input, function_ref<bool(const APFloat &)> valueOk,
        function_ref<bool(ArrayRef<int64_t>)> padOk = nullptr) {
  PaddedInput result{input};
  auto pad = input.getDefiningOp<tensor::PadOp>();
  if (!pad || pad.getNofold())
    return result;
  auto srcType = dyn_cast<RankedTensorType>(pad.getSource().getType());
  if (!srcType || !srcType.hasStaticShape() || srcType.getRank() != 4)
    return result;
  ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
  if (low.size() != 4 || high.size() != 4 ||
      llvm::any_of(low, [](int64_t v) { return v < 0; }) ||
      llvm::any_of(high, [](int64_t v) { return v < 0; }) ||
      ShapedType::isDynamicShape(low) || ShapedType::isDynamicShape(high))
    return result;
  if (low[0] != 0 || high[0] != 0 || low[3] != 0 || high[3] != 0)
    return result;
  Value padValue = pad.getConstantPaddingValue();
  if (!padValue)
    return result;
  std::optional<APFloat> value =
      getFloatConstant(padValue, srcType.getElementType());
  if (!value || !valueOk(*value))
    return result;
  SmallVector<int64_t, 4> padding = {low[1], high[1], low[2], high[2]};
  if (padOk && !padOk(padding))
    return result;
  result.input = pad.getSource();
  result.padding = padding;
  return result;
}

/// Reads a 2-element strides/dilations attribute; fails on non-positive
/// values.
FailureOr<SmallVector<int64_t, 2>> getPair(DenseIntElementsAttr attr) {
  SmallVector<int64_t, 2> values;
  if (!attr || attr.getNumElements() != 2)
    return failure();
  for (const APInt &v : attr.getValues<APInt>()) {
    if (v.getSExtValue() <= 0)
      return failure();
    values.push_back(v.getSExtValue());
  }
  return values;
}

//===----------------------------------------------------------------------===//
// Convolutions
//===----------------------------------------------------------------------===//

/// linalg.depthwise_conv_2d_nhwc_hwc / linalg.conv_2d_nhwc_hwcf ->
/// dwc.depthwise_conv2d / dwc.conv2d.
template <typename LinalgOp, typename DwcOp, bool Depthwise>
struct RaiseConv : OpRewritePattern<LinalgOp> {
  using OpRewritePattern<LinalgOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op->getNumResults() != 1 ||
        op.getInputs().size() != 2 || op.getOutputs().size() != 1)
      return rewriter.notifyMatchFailure(op, "not a tensor-form convolution");
    Value input = op.getInputs()[0], filter = op.getInputs()[1];
    Value init = op.getOutputs()[0];
    RankedTensorType inType = getDwcTensorType(input, 4);
    RankedTensorType filterType = getDwcTensorType(filter, Depthwise ? 3 : 4);
    RankedTensorType outType = getDwcTensorType(init, 4);
    if (!inType || !filterType || !outType)
      return rewriter.notifyMatchFailure(
          op, "needs static shapes of f32, f16 or bf16");
    Type elem = inType.getElementType();
    if (filterType.getElementType() != elem ||
        outType.getElementType() != elem ||
        op->getResult(0).getType() != outType)
      return rewriter.notifyMatchFailure(op, "mixed element types");
    auto strides = getPair(op.getStrides());
    auto dilations = getPair(op.getDilations());
    if (failed(strides) || failed(dilations))
      return rewriter.notifyMatchFailure(op, "bad strides or dilations");

    auto in = inType.getShape(), f = filterType.getShape(),
         out = outType.getShape();
    int64_t channels = in[3];
    int64_t outChannels = Depthwise ? f[2] : f[3];
    if (f[2] != channels || out[0] != in[0] || out[3] != outChannels)
      return rewriter.notifyMatchFailure(op, "inconsistent channels");
    if (f[0] < 1 || f[1] < 1 || out[1] < 1 || out[2] < 1)
      return rewriter.notifyMatchFailure(op, "empty window or output");
    // linalg lets the output ignore trailing input rows/columns; dwc derives
    // the output size from the input, so they must agree.
    if (out[1] != dwc::convOutputSize(in[1], f[0], (*strides)[0],
                                      (*dilations)[0], 0, 0) ||
        out[2] != dwc::convOutputSize(in[2], f[1], (*strides)[1],
                                      (*dilations)[1], 0, 0))
      return rewriter.notifyMatchFailure(
          op, "output size differs from the convolution formula");

    FailureOr<InitMatch> initMatch =
        matchInit(init, Identity::Zero, /*biasChannels=*/outChannels);
    if (failed(initMatch))
      return rewriter.notifyMatchFailure(
          op, "outs is neither a zero fill nor a bias broadcast");

    PaddedInput padded =
        foldPad(input, [](const APFloat &v) { return v.isZero(); });
    Value dest = materializeDest(rewriter, op.getLoc(), *initMatch, outType);
    rewriter.replaceOpWithNewOp<DwcOp>(
        op, Type(outType), padded.input, filter, initMatch->bias, dest, *strides,
        *dilations, padded.padding, /*acc=*/TypeAttr());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

/// The common checks of a tensor-form NHWC pooling op; returns the window
/// and strides.
template <typename PoolOp>
LogicalResult matchPooling(PoolOp op, PatternRewriter &rewriter,
                           SmallVector<int64_t, 2> &window,
                           SmallVector<int64_t, 2> &strides) {
  if (!op.hasPureTensorSemantics() || op->getNumResults() != 1 ||
      op.getInputs().size() != 2 || op.getOutputs().size() != 1)
    return rewriter.notifyMatchFailure(op, "not a tensor-form pooling");
  RankedTensorType inType = getDwcTensorType(op.getInputs()[0], 4);
  RankedTensorType outType = getDwcTensorType(op.getOutputs()[0], 4);
  auto windowType = dyn_cast<RankedTensorType>(op.getInputs()[1].getType());
  if (!inType || !outType || !windowType || windowType.getRank() != 2 ||
      !windowType.hasStaticShape())
    return rewriter.notifyMatchFailure(op,
                                       "needs static shapes of f32/f16/bf16");
  if (inType.getElementType() != outType.getElementType() ||
      op->getResult(0).getType() != outType)
    return rewriter.notifyMatchFailure(op, "mixed element types");
  auto s = getPair(op.getStrides());
  auto d = getPair(op.getDilations());
  if (failed(s) || failed(d))
    return rewriter.notifyMatchFailure(op, "bad strides or dilations");
  if ((*d)[0] != 1 || (*d)[1] != 1)
    return rewriter.notifyMatchFailure(op, "dilated pooling");
  window.assign(windowType.getShape().begin(), windowType.getShape().end());
  if (window[0] < 1 || window[1] < 1)
    return rewriter.notifyMatchFailure(op, "empty window");
  strides = *s;
  auto in = inType.getShape(), out = outType.getShape();
  if (out[0] != in[0] || out[3] != in[3] ||
      out[1] != dwc::Pool2DOp::outputSize(in[1], window[0], strides[0], 0, 0,
                                          /*ceilMode=*/false) ||
      out[2] != dwc::Pool2DOp::outputSize(in[2], window[1], strides[1], 0, 0,
                                          /*ceilMode=*/false) ||
      out[1] < 1 || out[2] < 1)
    return rewriter.notifyMatchFailure(
        op, "output size differs from the pooling formula");
  return success();
}

/// Whether each padding amount is smaller than the window (dwc.pool2d
/// requires it: every window then holds an element of the input).
bool padFitsWindow(ArrayRef<int64_t> padding, ArrayRef<int64_t> window) {
  return padding[0] < window[0] && padding[1] < window[0] &&
         padding[2] < window[1] && padding[3] < window[1];
}

/// linalg.pooling_nhwc_max with outs = fill(-inf or lowest) ->
/// dwc.pool2d max.
struct RaiseMaxPool : OpRewritePattern<linalg::PoolingNhwcMaxOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::PoolingNhwcMaxOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<int64_t, 2> window, strides;
    if (failed(matchPooling(op, rewriter, window, strides)))
      return failure();
    Value init = op.getOutputs()[0];
    FailureOr<InitMatch> initMatch = matchInit(init, Identity::Lowest);
    if (failed(initMatch))
      return rewriter.notifyMatchFailure(op, "outs is not a -inf fill");
    // A -inf (or lowest) pad never wins a maximum over a window that holds an
    // element of the input, which is exactly dwc's "padding never wins".
    PaddedInput padded = foldPad(
        op.getInputs()[0],
        [](const APFloat &v) { return isIdentity(v, Identity::Lowest); },
        [&](ArrayRef<int64_t> p) { return padFitsWindow(p, window); });
    auto outType = cast<RankedTensorType>(init.getType());
    Value dest = materializeDest(rewriter, op.getLoc(), *initMatch, outType);
    rewriter.replaceOpWithNewOp<dwc::Pool2DOp>(
        op, Type(outType), dwc::PoolKind::Max, padded.input, dest, window, strides,
        padded.padding, /*ceil_mode=*/false, /*count_include_pad=*/false,
        /*acc=*/TypeAttr(), /*activation=*/dwc::ActivationAttr());
    return success();
  }
};

/// Whether `divisor` (in the element type) divides by exactly `count`, and
/// `count` is exact in that type. With `reciprocal`, `divisor` is multiplied
/// instead, which is exact only for powers of two.
bool isExactDivisor(APFloat divisor, int64_t count, bool reciprocal) {
  const llvm::fltSemantics &sem = divisor.getSemantics();
  APFloat expected(static_cast<double>(count));
  bool losesInfo = false;
  expected.convert(sem, APFloat::rmNearestTiesToEven, &losesInfo);
  if (losesInfo)
    return false;
  if (!reciprocal)
    return divisor.bitwiseIsEqual(expected);
  if (!llvm::isPowerOf2_64(count))
    return false;
  APFloat one(sem, 1);
  if (one.divide(expected, APFloat::rmNearestTiesToEven) != APFloat::opOK)
    return false;
  return divisor.bitwiseIsEqual(one);
}

/// Matches an element-wise division of a rank-4 tensor by a scalar constant:
/// a linalg.generic whose body is `divf %x, %c` (or `mulf %x, %c` with
/// `%c` = 1/count) or a linalg.div by a splat. Returns the dividend and the
/// divisor (converted to the element type) with `reciprocal` set for mulf.
struct ScalarDivision {
  Value dividend;
  APFloat divisor = APFloat(0.0f);
  bool reciprocal = false;
};

FailureOr<ScalarDivision> matchScalarDivision(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics() ||
      op->getNumResults() != 1 || linalgOp.getNumDpsInits() != 1 ||
      linalgOp.getNumLoops() != 4 ||
      linalgOp.getNumParallelLoops() != linalgOp.getNumLoops() ||
      !llvm::all_of(linalgOp.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isIdentity(); }))
    return failure();
  auto outType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!outType || !isa<FloatType>(outType.getElementType()))
    return failure();
  Type elem = outType.getElementType();

  if (auto div = dyn_cast<linalg::DivOp>(op)) {
    if (div.getInputs().size() != 2)
      return failure();
    Value rhs = div.getInputs()[1];
    std::optional<APFloat> divisor;
    DenseElementsAttr splat;
    if (auto fill = rhs.getDefiningOp<linalg::FillOp>()) {
      divisor = getFloatConstant(fill.getInputs()[0], elem);
    } else if (matchPattern(rhs, m_Constant(&splat)) && splat.isSplat() &&
               splat.getElementType() == elem) {
      divisor = splat.getSplatValue<APFloat>();
    }
    if (!divisor)
      return failure();
    return ScalarDivision{div.getInputs()[0], *divisor, false};
  }

  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() > 1)
    return failure();
  Block *body = generic.getBody();
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || yield.getNumOperands() != 1)
    return failure();
  Operation *arith = yield.getOperand(0).getDefiningOp();
  if (!arith || arith->getBlock() != body ||
      !isa<arith::DivFOp, arith::MulFOp>(arith))
    return failure();
  // Nothing else may happen in the body but constants.
  for (Operation &inner : body->without_terminator())
    if (&inner != arith && !matchPattern(&inner, m_Constant()))
      return failure();
  bool reciprocal = isa<arith::MulFOp>(arith);
  Value lhs = arith->getOperand(0), rhs = arith->getOperand(1);
  if (reciprocal && !isa<BlockArgument>(lhs))
    std::swap(lhs, rhs);
  auto arg = dyn_cast<BlockArgument>(lhs);
  if (!arg || arg.getOwner() != body)
    return failure();
  std::optional<APFloat> divisor = getFloatConstant(rhs, elem);
  if (!divisor || rhs.getType() != elem)
    return failure();
  Value dividend = generic->getOperand(arg.getArgNumber());
  return ScalarDivision{dividend, *divisor, reciprocal};
}

/// linalg.pooling_nhwc_sum with outs = fill(0), divided element-wise by the
/// window size -> dwc.pool2d avg. Rooted at the division (a linalg.generic
/// or a linalg.div).
template <typename DivisionOp>
struct RaiseAvgPool : OpRewritePattern<DivisionOp> {
  using OpRewritePattern<DivisionOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(DivisionOp divOp,
                                PatternRewriter &rewriter) const override {
    Operation *op = divOp.getOperation();
    FailureOr<ScalarDivision> division = matchScalarDivision(op);
    if (failed(division))
      return rewriter.notifyMatchFailure(op, "not a division by a constant");
    auto sum = division->dividend.getDefiningOp<linalg::PoolingNhwcSumOp>();
    if (!sum)
      return rewriter.notifyMatchFailure(op, "does not divide a sum pooling");
    // Raising duplicates the sum when something else uses it.
    if (!llvm::all_of(sum->getUsers(),
                      [&](Operation *user) { return user == op; }))
      return rewriter.notifyMatchFailure(op, "the sum has other users");
    SmallVector<int64_t, 2> window, strides;
    if (failed(matchPooling(sum, rewriter, window, strides)))
      return failure();
    Value init = sum.getOutputs()[0];
    auto outType = cast<RankedTensorType>(init.getType());
    if (op->getResult(0).getType() != outType)
      return rewriter.notifyMatchFailure(op, "division changes the type");
    if (!isExactDivisor(division->divisor, window[0] * window[1],
                        division->reciprocal))
      return rewriter.notifyMatchFailure(op, "divisor is not the window size");
    FailureOr<InitMatch> initMatch = matchInit(init, Identity::Zero);
    if (failed(initMatch))
      return rewriter.notifyMatchFailure(op, "sum outs is not a zero fill");
    // A folded zero pad counts in the divisor: with floor-mode windows none
    // overhangs the padded input, so count_include_pad divides by KH*KW.
    PaddedInput padded = foldPad(
        sum.getInputs()[0], [](const APFloat &v) { return v.isZero(); },
        [&](ArrayRef<int64_t> p) { return padFitsWindow(p, window); });
    bool folded = padded.input != sum.getInputs()[0];
    Value dest = materializeDest(rewriter, op->getLoc(), *initMatch, outType);
    rewriter.replaceOpWithNewOp<dwc::Pool2DOp>(
        op, Type(outType), dwc::PoolKind::Avg, padded.input, dest, window, strides,
        padded.padding, /*ceil_mode=*/false, /*count_include_pad=*/folded,
        /*acc=*/TypeAttr(), /*activation=*/dwc::ActivationAttr());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct RaiseLinalgToDwcPass
    : dwc::impl::RaiseLinalgToDwcBase<RaiseLinalgToDwcPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<RaiseConv<linalg::DepthwiseConv2DNhwcHwcOp,
                           dwc::DepthwiseConv2DOp, /*Depthwise=*/true>,
                 RaiseConv<linalg::Conv2DNhwcHwcfOp, dwc::Conv2DOp,
                           /*Depthwise=*/false>,
                 RaiseMaxPool, RaiseAvgPool<linalg::GenericOp>,
                 RaiseAvgPool<linalg::DivOp>>(ctx);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
