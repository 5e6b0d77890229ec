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
#include "LinalgToDwcPatterns.h"
#include "dwc/Dialect/Dwc/Transforms/Passes.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
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

ArrayRef<int64_t> getShape(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
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

/// The static amounts of a tensor.pad: attributes or constant SSA values
/// (TOSA's lowering leaves arith.constant index operands). Fails on a
/// dynamic or negative amount.
FailureOr<SmallVector<int64_t, 4>> getStaticPad(ArrayRef<OpFoldResult> amounts) {
  SmallVector<int64_t, 4> values;
  for (OpFoldResult amount : amounts) {
    std::optional<int64_t> v = getConstantIntValue(amount);
    if (!v || *v < 0)
      return failure();
    values.push_back(*v);
  }
  return values;
}

/// Folds a producing tensor.pad into the padding attribute when it pads only
/// H and W (dims `hDim`, `hDim + 1`) by constant non-negative amounts with a
/// constant that `valueOk` accepts, and `padOk(padding)` holds; `padOk` may
/// also shrink trailing padding that no window reads. Any other input is
/// used as is.
PaddedInput
foldPad(Value input, function_ref<bool(const APFloat &)> valueOk,
        function_ref<bool(SmallVector<int64_t, 4> &)> padOk = nullptr) {
  PaddedInput result{input};
  auto pad = input.getDefiningOp<tensor::PadOp>();
  if (!pad || pad.getNofold())
    return result;
  auto srcType = dyn_cast<RankedTensorType>(pad.getSource().getType());
  if (!srcType || !srcType.hasStaticShape() || srcType.getRank() != 4)
    return result;
  auto low = getStaticPad(pad.getMixedLowPad());
  auto high = getStaticPad(pad.getMixedHighPad());
  if (failed(low) || failed(high))
    return result;
  if ((*low)[0] != 0 || (*high)[0] != 0 || (*low)[3] != 0 || (*high)[3] != 0)
    return result;
  Value padValue = pad.getConstantPaddingValue();
  if (!padValue)
    return result;
  std::optional<APFloat> value =
      getFloatConstant(padValue, srcType.getElementType());
  if (!value || !valueOk(*value))
    return result;
  SmallVector<int64_t, 4> padding = {(*low)[1], (*high)[1], (*low)[2],
                                     (*high)[2]};
  if (padOk && !padOk(padding))
    return result;
  result.input = pad.getSource();
  result.padding = padding;
  return result;
}

/// Whether `input` is a transpose of a constant-valued tensor.pad: the
/// NHWC rewrites swap the two (SwapTransposeAndPad), after which the pad
/// folds into the dwc op, so raising waits for that.
bool waitsForPadSwap(Value input) {
  auto t = input.getDefiningOp<linalg::TransposeOp>();
  if (!t)
    return false;
  Value src = t.getInput();
  // collapse_shape(expand_shape(x)) back to x's type folds to x.
  if (auto collapse = src.getDefiningOp<tensor::CollapseShapeOp>())
    if (auto expand = collapse.getSrc().getDefiningOp<tensor::ExpandShapeOp>();
        expand && expand.getSrc().getType() == collapse.getType())
      src = expand.getSrc();
  auto pad = src.getDefiningOp<tensor::PadOp>();
  return pad && !pad.getNofold() && pad.getConstantPaddingValue();
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
    if (waitsForPadSwap(input))
      return rewriter.notifyMatchFailure(op, "pad not yet next to the op");
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
    if constexpr (Depthwise)
      rewriter.replaceOpWithNewOp<DwcOp>(
          op, Type(outType), padded.input, filter, initMatch->bias,
          /*input_bias=*/Value(), dest, *strides, *dilations, padded.padding,
          /*channel_multiplier=*/IntegerAttr(), /*acc=*/TypeAttr(),
          /*activation=*/dwc::ActivationAttr(),
          /*input_activation=*/dwc::ActivationAttr());
    else
      rewriter.replaceOpWithNewOp<DwcOp>(
          op, Type(outType), padded.input, filter, initMatch->bias, dest,
          *strides, *dilations, padded.padding, /*acc=*/TypeAttr());
    return success();
  }
};

/// The outs of a linalg.depthwise_conv_2d_nhwc_hwcm (N x OH x OW x C x M)
/// as the dwc op with channel_multiplier M sees it: a zero fill or splat
/// (a fresh destination), or the expand_shape of an N x OH x OW x (C*M)
/// zero fill or bias broadcast (the grouped-convolution rewrite makes one).
FailureOr<InitMatch> matchMultiplierInit(Value init, int64_t outChannels) {
  auto expand = init.getDefiningOp<tensor::ExpandShapeOp>();
  if (!expand) {
    FailureOr<InitMatch> m = matchInit(init, Identity::Zero);
    if (failed(m))
      return failure();
    return InitMatch{}; // the fill's 5-D destination is not the dwc op's
  }
  SmallVector<ReassociationIndices> channels = {{0}, {1}, {2}, {3, 4}};
  if (expand.getReassociationIndices() != channels)
    return failure();
  return matchInit(expand.getSrc(), Identity::Zero, outChannels);
}

/// linalg.depthwise_conv_2d_nhwc_hwcm with M > 1 -> dwc.depthwise_conv2d
/// with channel_multiplier = M: the HWCM filter collapsed to FH x FW x (C*M)
/// (channel c*M + m is (c, m) in row-major order, the op's order), the
/// N x OH x OW x (C*M) result expanded back to the 5-D one.
struct RaiseDepthwiseHwcm
    : OpRewritePattern<linalg::DepthwiseConv2DNhwcHwcmOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::DepthwiseConv2DNhwcHwcmOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op->getNumResults() != 1)
      return rewriter.notifyMatchFailure(op, "not a tensor-form convolution");
    Value input = op.getInputs()[0], filter = op.getInputs()[1];
    Value init = op.getOutputs()[0];
    if (waitsForPadSwap(input))
      return rewriter.notifyMatchFailure(op, "pad not yet next to the op");
    RankedTensorType inType = getDwcTensorType(input, 4);
    RankedTensorType filterType = getDwcTensorType(filter, 4);
    RankedTensorType outType = getDwcTensorType(init, 5);
    if (!inType || !filterType || !outType ||
        filterType.getElementType() != inType.getElementType() ||
        outType.getElementType() != inType.getElementType() ||
        op->getResult(0).getType() != outType)
      return rewriter.notifyMatchFailure(
          op, "needs static shapes of one of f32, f16 or bf16");
    int64_t m = filterType.getDimSize(3);
    if (m == 1)
      return rewriter.notifyMatchFailure(
          op, "multiplier 1 (the depthwise_conv_2d_nhwc_hwc rewrite's)");
    auto strides = getPair(op.getStrides());
    auto dilations = getPair(op.getDilations());
    if (failed(strides) || failed(dilations))
      return rewriter.notifyMatchFailure(op, "bad strides or dilations");
    if (failed(checkHwcmShapes(inType.getShape(), filterType.getShape(),
                               outType.getShape(), *strides, *dilations)))
      return rewriter.notifyMatchFailure(op, "inconsistent shapes");
    int64_t outChannels = inType.getDimSize(3) * m;
    FailureOr<InitMatch> initMatch = matchMultiplierInit(init, outChannels);
    if (failed(initMatch))
      return rewriter.notifyMatchFailure(
          op, "outs is neither a zero fill nor a bias broadcast");
    rewrite(op, rewriter, *initMatch, *strides, *dilations, m);
    return success();
  }

  /// Input N x H x W x C, filter FH x FW x C x M, output N x OH x OW x C x M
  /// with OH, OW of the unpadded convolution formula.
  static LogicalResult checkHwcmShapes(ArrayRef<int64_t> in,
                                       ArrayRef<int64_t> f,
                                       ArrayRef<int64_t> out,
                                       ArrayRef<int64_t> st,
                                       ArrayRef<int64_t> dl) {
    if (f[2] != in[3] || out[0] != in[0] || out[3] != in[3] || out[4] != f[3])
      return failure();
    if (f[0] < 1 || f[1] < 1 || out[1] < 1 || out[2] < 1)
      return failure();
    return success(
        out[1] == dwc::convOutputSize(in[1], f[0], st[0], dl[0], 0, 0) &&
        out[2] == dwc::convOutputSize(in[2], f[1], st[1], dl[1], 0, 0));
  }

  static void rewrite(linalg::DepthwiseConv2DNhwcHwcmOp op,
                      PatternRewriter &rewriter, const InitMatch &initMatch,
                      ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                      int64_t m) {
    Location loc = op.getLoc();
    auto outType = cast<RankedTensorType>(op->getResult(0).getType());
    auto o = outType.getShape();
    auto flatType = RankedTensorType::get({o[0], o[1], o[2], o[3] * m},
                                          outType.getElementType());
    PaddedInput padded = foldPad(op.getInputs()[0],
                                 [](const APFloat &v) { return v.isZero(); });
    SmallVector<ReassociationIndices> filterGroups = {{0}, {1}, {2, 3}};
    Value filter = tensor::CollapseShapeOp::create(
        rewriter, loc, op.getInputs()[1], filterGroups);
    Value dest = materializeDest(rewriter, loc, initMatch, flatType);
    Value conv = dwc::DepthwiseConv2DOp::create(
        rewriter, loc, flatType, padded.input, filter, initMatch.bias,
        /*input_bias=*/Value(), dest,
        rewriter.getDenseI64ArrayAttr(strides),
        rewriter.getDenseI64ArrayAttr(dilations),
        rewriter.getDenseI64ArrayAttr(padded.padding),
        rewriter.getI64IntegerAttr(m), /*acc=*/TypeAttr(),
        /*activation=*/dwc::ActivationAttr(),
        /*input_activation=*/dwc::ActivationAttr())
                     .getResult();
    SmallVector<ReassociationIndices> outGroups = {{0}, {1}, {2}, {3, 4}};
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(op, outType, conv,
                                                       outGroups);
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
  if (waitsForPadSwap(op.getInputs()[0]))
    return rewriter.notifyMatchFailure(op, "pad not yet next to the op");
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
  // linalg may leave trailing rows unused (torch-mlir's ceil_mode padding);
  // the padding folded later must make dwc's output size exact.
  auto in = inType.getShape(), out = outType.getShape();
  if (out[0] != in[0] || out[3] != in[3] || in[1] < window[0] ||
      in[2] < window[1] ||
      out[1] > dwc::Pool2DOp::outputSize(in[1], window[0], strides[0], 0, 0,
                                         /*ceilMode=*/false) ||
      out[2] > dwc::Pool2DOp::outputSize(in[2], window[1], strides[1], 0, 0,
                                         /*ceilMode=*/false) ||
      out[1] < 1 || out[2] < 1)
    return rewriter.notifyMatchFailure(
        op, "output larger than the pooling formula allows");
  return success();
}

/// Whether dwc.pool2d on `in` with `padding` (floor mode) gives `out`.
bool poolOutputMatches(ArrayRef<int64_t> in, ArrayRef<int64_t> out,
                       ArrayRef<int64_t> window, ArrayRef<int64_t> strides,
                       ArrayRef<int64_t> padding) {
  return out[1] == dwc::Pool2DOp::outputSize(in[1], window[0], strides[0],
                                             padding[0], padding[1], false) &&
         out[2] == dwc::Pool2DOp::outputSize(in[2], window[1], strides[1],
                                             padding[2], padding[3], false);
}

/// Whether each padding amount is smaller than the window (dwc.pool2d
/// requires it: every window then holds an element of the input).
bool padFitsWindow(ArrayRef<int64_t> padding, ArrayRef<int64_t> window) {
  return padding[0] < window[0] && padding[1] < window[0] &&
         padding[2] < window[1] && padding[3] < window[1];
}

/// When the padding does not fit the window, shrinks the bottom/right
/// padding to what the last window reads, given
/// the padded input (NHWC) and output shapes. torch-mlir expresses
/// ceil_mode as extra high padding (up to pad + stride), part of which no
/// window reaches; dropping it changes no result (pooling over the rest is
/// the same) and lets the padding fit the window.
void trimTrailingPad(SmallVector<int64_t, 4> &padding,
                     ArrayRef<int64_t> paddedShape, ArrayRef<int64_t> outShape,
                     ArrayRef<int64_t> window, ArrayRef<int64_t> strides) {
  auto in = [&](int d) {
    return paddedShape[1 + d] - padding[2 * d] - padding[2 * d + 1];
  };
  SmallVector<int64_t, 4> inShape = {paddedShape[0], in(0), in(1),
                                     paddedShape[3]};
  if (padFitsWindow(padding, window) &&
      poolOutputMatches(inShape, outShape, window, strides, padding))
    return;
  for (int d = 0; d < 2; ++d) {
    int64_t &lo = padding[2 * d], &hi = padding[2 * d + 1];
    int64_t need =
        (outShape[1 + d] - 1) * strides[d] + window[d] - inShape[1 + d] - lo;
    if (need < hi)
      hi = std::max<int64_t>(need, 0);
  }
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
        [&](SmallVector<int64_t, 4> &p) {
          trimTrailingPad(p, getShape(op.getInputs()[0]),
                          getShape(op.getOutputs()[0]), window, strides);
          return padFitsWindow(p, window);
        });
    auto outType = cast<RankedTensorType>(init.getType());
    if (!poolOutputMatches(getShape(padded.input), outType.getShape(), window,
                           strides, padded.padding))
      return rewriter.notifyMatchFailure(op, "unused trailing input rows");
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
/// instead, which is exact only for powers of two unless `allowRounded`
/// (then `divisor` must be 1/count rounded to the element type).
bool isExactDivisor(APFloat divisor, int64_t count, bool reciprocal,
                    bool allowRounded = false) {
  const llvm::fltSemantics &sem = divisor.getSemantics();
  APFloat expected(static_cast<double>(count));
  bool losesInfo = false;
  expected.convert(sem, APFloat::rmNearestTiesToEven, &losesInfo);
  if (losesInfo)
    return false;
  if (!reciprocal)
    return divisor.bitwiseIsEqual(expected);
  if (!allowRounded && !llvm::isPowerOf2_64(count))
    return false;
  APFloat one(sem, 1);
  APFloat::opStatus status =
      one.divide(expected, APFloat::rmNearestTiesToEven);
  if (status != APFloat::opOK && !(allowRounded && status == APFloat::opInexact))
    return false;
  return divisor.bitwiseIsEqual(one);
}

/// An element-wise division of a tensor: a linalg.generic whose body is
/// `divf %x, %c` (or `mulf %x, %c` with `%c` = 1/count) with `%c` a scalar
/// constant, the element of a splat constant input, or (divf only) a value
/// the body computes from linalg.index (an index-dependent divisor, as
/// front ends emit for count_include_pad = false); or a linalg.div by a
/// splat.
struct ScalarDivision {
  Value dividend;
  std::optional<APFloat> divisor;
  bool reciprocal = false;
  /// The computed divisor inside the generic's body (when `divisor` is
  /// unset).
  Value computed;
  /// A divisor read element-wise from this tensor (when neither is set).
  Value divisorTensor;
};

/// The splat value of `v` (a constant, a fill, or a linalg.generic without
/// inputs that yields a constant, as StableHLO writes a scalar, through
/// reshapes), converted to `elem`.
/// The input a linalg.generic broadcasts from a 0-D tensor, or null.
Value getScalarBroadcastSource(Value v) {
  auto gen = v.getDefiningOp<linalg::GenericOp>();
  if (!gen || !gen.hasPureTensorSemantics() || gen.getNumDpsInputs() != 1 ||
      gen.getIndexingMapsArray()[0].getNumResults() != 0)
    return nullptr;
  Block *body = gen.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (body->getOperations().size() != 1 ||
      yield.getOperand(0) != body->getArgument(0))
    return nullptr;
  return gen.getDpsInputs()[0];
}

std::optional<APFloat> getSplatValue(Value v, Type elem) {
  while (true) {
    if (isa_and_nonnull<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(
            v.getDefiningOp()))
      v = v.getDefiningOp()->getOperand(0);
    else if (Value src = getScalarBroadcastSource(v))
      v = src;
    else
      break;
  }
  if (auto fill = v.getDefiningOp<linalg::FillOp>())
    return getFloatConstant(fill.getInputs()[0], elem);
  if (auto gen = v.getDefiningOp<linalg::GenericOp>();
      gen && gen.getNumDpsInputs() == 0 && gen.hasPureTensorSemantics()) {
    auto yield = cast<linalg::YieldOp>(gen.getBody()->getTerminator());
    if (yield.getNumOperands() == 1 &&
        yield.getOperand(0).getType() == elem)
      return getFloatConstant(yield.getOperand(0), elem);
  }
  DenseElementsAttr splat;
  if (matchPattern(v, m_Constant(&splat)) && splat.isSplat() &&
      splat.getElementType() == elem)
    return splat.getSplatValue<APFloat>();
  return std::nullopt;
}

FailureOr<ScalarDivision> matchDivOp(linalg::DivOp div, Type elem) {
  if (div.getInputs().size() != 2)
    return failure();
  std::optional<APFloat> divisor = getSplatValue(div.getInputs()[1], elem);
  if (!divisor)
    return failure();
  return ScalarDivision{div.getInputs()[0], *divisor, false, Value()};
}

FailureOr<ScalarDivision> matchScalarDivision(Operation *op, int64_t rank) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics() ||
      op->getNumResults() != 1 || linalgOp.getNumDpsInits() != 1 ||
      linalgOp.getNumLoops() != rank ||
      linalgOp.getNumParallelLoops() != linalgOp.getNumLoops())
    return failure();
  auto outType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!outType || !isa<FloatType>(outType.getElementType()))
    return failure();
  Type elem = outType.getElementType();
  auto maps = linalgOp.getIndexingMapsArray();
  if (!maps.back().isIdentity())
    return failure();
  if (auto div = dyn_cast<linalg::DivOp>(op)) {
    if (!maps.front().isIdentity())
      return failure();
    return matchDivOp(div, elem);
  }

  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() > 2)
    return failure();
  Block *body = generic.getBody();
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || yield.getNumOperands() != 1)
    return failure();
  Operation *arith = yield.getOperand(0).getDefiningOp();
  if (!arith || arith->getBlock() != body ||
      !isa<arith::DivFOp, arith::MulFOp>(arith))
    return failure();
  bool reciprocal = isa<arith::MulFOp>(arith);
  Value lhs = arith->getOperand(0), rhs = arith->getOperand(1);
  auto isArg = [&](Value v) {
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && arg.getOwner() == body &&
           maps[arg.getArgNumber()].isIdentity();
  };
  // The dividend (an identity-mapped operand, possibly the outs).
  if (reciprocal && !isArg(lhs))
    std::swap(lhs, rhs);
  if (!isArg(lhs) || rhs.getType() != elem)
    return failure();
  unsigned dividendArg = cast<BlockArgument>(lhs).getArgNumber();
  ScalarDivision result{generic->getOperand(dividendArg), std::nullopt,
                        reciprocal, Value()};
  // A divisor read from another operand must be a splat constant input.
  if (auto arg = dyn_cast<BlockArgument>(rhs); arg && arg.getOwner() == body) {
    if (arg.getArgNumber() >= generic.getNumDpsInputs())
      return failure();
    Value operand = generic->getOperand(arg.getArgNumber());
    result.divisor = getSplatValue(operand, elem);
    if (!result.divisor) {
      if (reciprocal || !maps[arg.getArgNumber()].isIdentity())
        return failure();
      result.divisorTensor = operand;
    }
    return result;
  }
  // Every other input must be unused (only the dividend and divisor count).
  for (BlockArgument arg : body->getArguments())
    if (arg.getArgNumber() != dividendArg && !arg.use_empty())
      return failure();
  result.divisor = getFloatConstant(rhs, elem);
  if (result.divisor)
    return result;
  if (reciprocal || !rhs.getDefiningOp() ||
      rhs.getDefiningOp()->getBlock() != body)
    return failure();
  result.computed = rhs;
  return result;
}

/// Evaluates an index-dependent divisor computed in a linalg.generic body
/// at one iteration point: integer/index/float arithmetic on linalg.index
/// values and constants. Fails on anything else (block arguments included).
class DivisorEvaluator {
public:
  explicit DivisorEvaluator(ArrayRef<int64_t> point) : point(point) {}

  std::optional<double> eval(Value v) {
    if (auto it = cache.find(v); it != cache.end())
      return it->second;
    std::optional<double> r = compute(v);
    if (r)
      cache[v] = *r;
    return r;
  }

private:
  std::optional<double> compute(Value v) {
    Operation *def = v.getDefiningOp();
    if (!def || ++steps > 4096)
      return std::nullopt;
    if (auto index = dyn_cast<linalg::IndexOp>(def))
      return index.getDim() < point.size()
                 ? std::optional<double>(point[index.getDim()])
                 : std::nullopt;
    Attribute attr;
    if (matchPattern(v, m_Constant(&attr))) {
      if (auto i = dyn_cast<IntegerAttr>(attr))
        return static_cast<double>(i.getValue().getSExtValue());
      if (auto f = dyn_cast<FloatAttr>(attr))
        return f.getValueAsDouble();
      return std::nullopt;
    }
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::SIToFPOp,
            arith::UIToFPOp, arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
            arith::ExtFOp, arith::TruncFOp>(def))
      return eval(def->getOperand(0));
    if (auto sel = dyn_cast<arith::SelectOp>(def)) {
      std::optional<double> c = eval(sel.getCondition());
      if (!c)
        return std::nullopt;
      return eval(*c != 0 ? sel.getTrueValue() : sel.getFalseValue());
    }
    if (def->getNumOperands() != 2)
      return std::nullopt;
    std::optional<double> a = eval(def->getOperand(0)),
                          b = eval(def->getOperand(1));
    if (!a || !b)
      return std::nullopt;
    return binary(def, *a, *b);
  }

  static std::optional<double> binary(Operation *def, double a, double b) {
    if (isa<arith::AddIOp, arith::AddFOp>(def))
      return a + b;
    if (isa<arith::SubIOp, arith::SubFOp>(def))
      return a - b;
    if (isa<arith::MulIOp, arith::MulFOp>(def))
      return a * b;
    if (isa<arith::MinSIOp, arith::MinUIOp, arith::MinimumFOp,
            arith::MinNumFOp>(def))
      return std::min(a, b);
    if (isa<arith::MaxSIOp, arith::MaxUIOp, arith::MaximumFOp,
            arith::MaxNumFOp>(def))
      return std::max(a, b);
    if (isa<arith::DivSIOp, arith::FloorDivSIOp, arith::CeilDivSIOp>(def)) {
      if (b == 0)
        return std::nullopt;
      double q = a / b;
      if (isa<arith::DivSIOp>(def))
        return std::trunc(q);
      return isa<arith::FloorDivSIOp>(def) ? std::floor(q) : std::ceil(q);
    }
    if (auto cmp = dyn_cast<arith::CmpIOp>(def)) {
      switch (cmp.getPredicate()) {
      case arith::CmpIPredicate::eq: return a == b;
      case arith::CmpIPredicate::ne: return a != b;
      case arith::CmpIPredicate::slt: return a < b;
      case arith::CmpIPredicate::sle: return a <= b;
      case arith::CmpIPredicate::sgt: return a > b;
      case arith::CmpIPredicate::sge: return a >= b;
      default: return std::nullopt;
      }
    }
    return std::nullopt;
  }

  ArrayRef<int64_t> point;
  DenseMap<Value, double> cache;
  int steps = 0;
};

/// The number of elements dwc.pool2d avg divides by at output position `o`
/// of one spatial dimension (see its documentation).
int64_t dwcAvgCount(int64_t o, int64_t in, int64_t window, int64_t stride,
                    int64_t lo, int64_t hi, bool includePad) {
  int64_t start = o * stride - lo, end = start + window;
  int64_t first = includePad ? -lo : 0, last = includePad ? in + hi : in;
  return std::max<int64_t>(0, std::min(end, last) - std::max(start, first));
}

/// The pooling attributes the raised average pooling takes.
struct AvgConfig {
  SmallVector<int64_t, 4> padding;
  bool ceilMode = false;
  bool countIncludePad = false;
};

/// Finds the dwc configuration whose divisor equals the computed divisor
/// `d` at every output position of the NHWC result `out` (and does not
/// depend on the batch or channel), trying count_include_pad = false and
/// true on the folded padding, then ceil_mode with symmetric padding (how
/// torch's ceil-mode count_include_pad divisor clips at the original pad).
std::optional<AvgConfig> matchComputedDivisor(Value d, ArrayRef<int64_t> in,
                                              ArrayRef<int64_t> out,
                                              ArrayRef<int64_t> window,
                                              ArrayRef<int64_t> strides,
                                              ArrayRef<int64_t> padding) {
  SmallVector<AvgConfig> candidates = {{SmallVector<int64_t, 4>(padding)},
                                       {SmallVector<int64_t, 4>(padding)}};
  candidates[1].countIncludePad = true;
  SmallVector<int64_t, 4> sym = {padding[0], padding[0], padding[2],
                                 padding[2]};
  if (padFitsWindow(sym, window) &&
      dwc::Pool2DOp::outputSize(in[1], window[0], strides[0], sym[0], sym[1],
                                true) == out[1] &&
      dwc::Pool2DOp::outputSize(in[2], window[1], strides[1], sym[2], sym[3],
                                true) == out[2])
    candidates.push_back({sym, /*ceilMode=*/true, /*countIncludePad=*/true});
  SmallVector<bool> alive(candidates.size(), true);
  for (int64_t corner : {0, 1})
    for (int64_t oh = 0; oh < out[1]; ++oh)
      for (int64_t ow = 0; ow < out[2]; ++ow) {
        SmallVector<int64_t, 4> point = {corner * (out[0] - 1), oh, ow,
                                         corner * (out[3] - 1)};
        std::optional<double> value = DivisorEvaluator(point).eval(d);
        if (!value)
          return std::nullopt;
        for (auto [c, cfg] : llvm::enumerate(candidates)) {
          const auto &p = cfg.padding;
          int64_t n = dwcAvgCount(oh, in[1], window[0], strides[0], p[0], p[1],
                                  cfg.countIncludePad) *
                      dwcAvgCount(ow, in[2], window[1], strides[1], p[2], p[3],
                                  cfg.countIncludePad);
          if (static_cast<double>(n) != *value)
            alive[c] = false;
        }
      }
  for (auto [c, cfg] : llvm::enumerate(candidates))
    if (alive[c])
      return cfg;
  return std::nullopt;
}

/// Whether `d` counts, per window of `sum`, the elements of its (unpadded)
/// input: the same sum pooling over a zero pad of a fill of ones of the
/// input's shape with the same low padding (StableHLO's count_include_pad =
/// false divisor). That is dwc.pool2d avg without count_include_pad.
bool isOnesWindowCount(Value d, linalg::PoolingNhwcSumOp sum,
                       const PaddedInput &data) {
  auto count = d.getDefiningOp<linalg::PoolingNhwcSumOp>();
  if (!count || !count.hasPureTensorSemantics() || !d.hasOneUse() ||
      count.getStrides() != sum.getStrides() ||
      count.getDilations() != sum.getDilations() ||
      count.getInputs()[1].getType() != sum.getInputs()[1].getType() ||
      count->getResult(0).getType() != sum->getResult(0).getType() ||
      failed(matchInit(count.getOutputs()[0], Identity::Zero)))
    return false;
  PaddedInput ones = foldPad(count.getInputs()[0],
                             [](const APFloat &v) { return v.isZero(); });
  auto fill = ones.input.getDefiningOp<linalg::FillOp>();
  Type elem = getElementTypeOrSelf(d.getType());
  std::optional<APFloat> one =
      fill ? getFloatConstant(fill.getInputs()[0], elem) : std::nullopt;
  return one && one->isExactlyValue(1.0) &&
         ones.input.getType() == data.input.getType() &&
         ones.padding[0] == data.padding[0] &&
         ones.padding[2] == data.padding[2];
}

/// linalg.pooling_nhwc_sum with outs = fill(0), divided element-wise by the
/// window size (or by the index-computed divisor of count_include_pad =
/// false / ceil_mode) -> dwc.pool2d avg. Rooted at the division (a
/// linalg.generic or a linalg.div).
template <typename DivisionOp>
struct RaiseAvgPool : OpRewritePattern<DivisionOp> {
  using OpRewritePattern<DivisionOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(DivisionOp divOp,
                                PatternRewriter &rewriter) const override {
    Operation *op = divOp.getOperation();
    FailureOr<ScalarDivision> division = matchScalarDivision(op, 4);
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
    if (division->divisor &&
        !isExactDivisor(*division->divisor, window[0] * window[1],
                        division->reciprocal))
      return rewriter.notifyMatchFailure(op, "divisor is not the window size");
    FailureOr<InitMatch> initMatch = matchInit(init, Identity::Zero);
    if (failed(initMatch))
      return rewriter.notifyMatchFailure(op, "sum outs is not a zero fill");
    // Zero padding adds nothing to a sum, so its unread trailing part can go.
    PaddedInput padded = foldPad(
        sum.getInputs()[0], [](const APFloat &v) { return v.isZero(); },
        [&](SmallVector<int64_t, 4> &p) {
          trimTrailingPad(p, getShape(sum.getInputs()[0]), outType.getShape(),
                          window, strides);
          return padFitsWindow(p, window);
        });
    if (!poolOutputMatches(getShape(padded.input), outType.getShape(), window,
                           strides, padded.padding))
      return rewriter.notifyMatchFailure(op, "unused trailing input rows");
    AvgConfig config{padded.padding};
    if (division->divisorTensor) {
      if (!isOnesWindowCount(division->divisorTensor, sum, padded))
        return rewriter.notifyMatchFailure(
            op, "divisor tensor is not a window count of the input");
    } else if (division->divisor) {
      // A folded zero pad counts in the divisor: with floor-mode windows
      // none overhangs the padded input, so count_include_pad divides by
      // KH*KW.
      config.countIncludePad = padded.input != sum.getInputs()[0];
    } else {
      std::optional<AvgConfig> found = matchComputedDivisor(
          division->computed, getShape(padded.input), outType.getShape(),
          window, strides, padded.padding);
      if (!found)
        return rewriter.notifyMatchFailure(
            op, "computed divisor matches no dwc average pooling");
      config = *found;
    }
    Value dest = materializeDest(rewriter, op->getLoc(), *initMatch, outType);
    ArrayRef<int64_t> in = getShape(padded.input);
    if (window[0] == in[1] && window[1] == in[2] &&
        llvm::all_of(config.padding, [](int64_t p) { return p == 0; })) {
      // One window over the whole image (TOSA's global average).
      rewriter.replaceOpWithNewOp<dwc::GlobalAvgPoolOp>(
          op, Type(outType), padded.input, dest, TypeAttr());
      return success();
    }
    rewriter.replaceOpWithNewOp<dwc::Pool2DOp>(
        op, Type(outType), dwc::PoolKind::Avg, padded.input, dest, window,
        strides, config.padding, config.ceilMode, config.countIncludePad,
        /*acc=*/TypeAttr(), /*activation=*/dwc::ActivationAttr());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Global average pooling
//===----------------------------------------------------------------------===//

/// A sum over H and W of a rank-4 tensor, NCHW (dims 2, 3) or NHWC (dims 1,
/// 2), from a zero fill: a linalg.generic or a linalg.reduce.
struct SpatialSum {
  Value input;
  bool nchw = true;
};

bool isAddBody(Block *body) {
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || yield.getNumOperands() != 1 ||
      body->getOperations().size() != 2)
    return false;
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || add->getBlock() != body)
    return false;
  Value a = body->getArgument(0), b = body->getArgument(1);
  return (add.getLhs() == a && add.getRhs() == b) ||
         (add.getLhs() == b && add.getRhs() == a);
}

/// TOSA's mean over H and W: single-dimension linalg.reduce sums of
/// trailing dims, joined by expand/collapse_shape of trailing dims, from an
/// N x C x H x W tensor down to N x C (x 1 ...). Every step keeps the
/// leading N x C, so each (n, c) sums exactly its own H x W elements.
std::optional<SpatialSum> matchReduceChain(Value v) {
  SmallVector<int64_t, 2> nc;
  auto keepsNC = [&](Value t) {
    auto type = dyn_cast<RankedTensorType>(t.getType());
    return type && type.hasStaticShape() && type.getRank() >= 2 &&
           type.getShape().take_front(2) == ArrayRef<int64_t>(nc);
  };
  auto finalType = dyn_cast<RankedTensorType>(v.getType());
  if (!finalType || !finalType.hasStaticShape() || finalType.getRank() < 2)
    return std::nullopt;
  nc.assign(finalType.getShape().begin(), finalType.getShape().begin() + 2);
  if (finalType.getNumElements() != nc[0] * nc[1])
    return std::nullopt;
  int reduces = 0;
  Value cur = v;
  while (true) {
    if (!keepsNC(cur))
      return std::nullopt;
    Operation *def = cur.getDefiningOp();
    // Intermediate sums must not be used elsewhere (they would be recomputed).
    bool intermediate =
        isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
                        linalg::ReduceOp>(def);
    if (intermediate && !cur.hasOneUse())
      return std::nullopt;
    if (isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def)) {
      // Reshapes of the trailing dims only (the leading N x C stay).
      auto type = cast<RankedTensorType>(def->getOperand(0).getType());
      if (type.getRank() < 2 ||
          type.getShape().take_front(2) != ArrayRef<int64_t>(nc))
        return std::nullopt;
      cur = def->getOperand(0);
      continue;
    }
    auto reduce = dyn_cast_or_null<linalg::ReduceOp>(def);
    if (!reduce)
      break;
    if (!reduce.hasPureTensorSemantics() || reduce.getNumDpsInputs() != 1 ||
        !isAddBody(reduce.getBody()) ||
        llvm::any_of(reduce.getDimensions(), [](int64_t d) { return d < 2; }) ||
        failed(matchInit(reduce.getDpsInits()[0], Identity::Zero)))
      return std::nullopt;
    ++reduces;
    cur = reduce.getDpsInputs()[0];
  }
  if (reduces == 0 || !getDwcTensorType(cur, 4))
    return std::nullopt;
  return SpatialSum{cur, true};
}

std::optional<SpatialSum> matchSpatialSum(Value v) {
  if (std::optional<SpatialSum> chain = matchReduceChain(v))
    return chain;
  // StableHLO reshapes the N x C sum to N x C x 1 x 1 before dividing.
  while (isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(
             v.getDefiningOp()) &&
         v.hasOneUse())
    v = v.getDefiningOp()->getOperand(0);
  Operation *op = v.getDefiningOp();
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics() ||
      linalgOp.getNumDpsInputs() != 1 || linalgOp.getNumDpsInits() != 1 ||
      !v.hasOneUse() || !getDwcTensorType(linalgOp.getDpsInputs()[0], 4) ||
      failed(matchInit(linalgOp.getDpsInits()[0], Identity::Zero)))
    return std::nullopt;
  Value input = linalgOp.getDpsInputs()[0];
  if (auto reduce = dyn_cast<linalg::ReduceOp>(op)) {
    ArrayRef<int64_t> dims = reduce.getDimensions();
    if (!isAddBody(reduce.getBody()))
      return std::nullopt;
    if (dims == ArrayRef<int64_t>{2, 3})
      return SpatialSum{input, true};
    if (dims == ArrayRef<int64_t>{1, 2})
      return SpatialSum{input, false};
    return std::nullopt;
  }
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumLoops() != 4 || !isAddBody(generic.getBody()))
    return std::nullopt;
  auto maps = generic.getIndexingMapsArray();
  auto iters = generic.getIteratorTypesArray();
  MLIRContext *ctx = generic.getContext();
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  AffineExpr zero = getAffineConstantExpr(0, ctx);
  auto isRed = [&](unsigned i) {
    return iters[i] == utils::IteratorType::reduction;
  };
  if (!maps[0].isIdentity())
    return std::nullopt;
  AffineMap nc = AffineMap::get(4, 0, {d(0), d(1)}, ctx);
  AffineMap nc11 = AffineMap::get(4, 0, {d(0), d(1), zero, zero}, ctx);
  AffineMap nhwc = AffineMap::get(4, 0, {d(0), d(3)}, ctx);
  AffineMap n11c = AffineMap::get(4, 0, {d(0), zero, zero, d(3)}, ctx);
  if ((maps[1] == nc || maps[1] == nc11) && isRed(2) && isRed(3) &&
      !isRed(0) && !isRed(1))
    return SpatialSum{input, true};
  if ((maps[1] == nhwc || maps[1] == n11c) && isRed(1) && isRed(2) &&
      !isRed(0) && !isRed(3))
    return SpatialSum{input, false};
  return std::nullopt;
}

/// A spatial sum divided by H*W (or multiplied by 1/(H*W), rounded: the
/// result may then differ by one rounding) -> dwc.global_avg_pool on the
/// NHWC input, reshaped to the division's N x C, N x C x 1 x 1 or
/// N x 1 x 1 x C result.
struct RaiseGlobalAvgPool : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op->getNumResults() != 1)
      return failure();
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType || (resultType.getRank() != 2 && resultType.getRank() != 4))
      return failure();
    FailureOr<ScalarDivision> division =
        matchScalarDivision(op, resultType.getRank());
    if (failed(division) || !division->divisor)
      return rewriter.notifyMatchFailure(op, "not a division by a constant");
    std::optional<SpatialSum> sum = matchSpatialSum(division->dividend);
    if (!sum)
      return rewriter.notifyMatchFailure(op, "does not divide a spatial sum");
    Location loc = op.getLoc();
    Value input = sum->input;
    auto inType = cast<RankedTensorType>(input.getType());
    ArrayRef<int64_t> s = inType.getShape();
    int64_t n = s[0], c = sum->nchw ? s[1] : s[3];
    int64_t hw = sum->nchw ? s[2] * s[3] : s[1] * s[2];
    if (!isExactDivisor(*division->divisor, hw, division->reciprocal,
                        /*allowRounded=*/true))
      return rewriter.notifyMatchFailure(op, "divisor is not H*W");
    Type elem = inType.getElementType();
    if (resultType.getElementType() != elem)
      return rewriter.notifyMatchFailure(op, "mixed element types");
    SmallVector<int64_t> expected =
        resultType.getRank() == 2 ? SmallVector<int64_t>{n, c}
        : sum->nchw               ? SmallVector<int64_t>{n, c, 1, 1}
                                  : SmallVector<int64_t>{n, 1, 1, c};
    if (resultType.getShape() != ArrayRef<int64_t>(expected))
      return rewriter.notifyMatchFailure(op, "unexpected result shape");
    if (sum->nchw) {
      Value empty = tensor::EmptyOp::create(
          rewriter, loc, ArrayRef<int64_t>{s[0], s[2], s[3], s[1]}, elem);
      input = linalg::TransposeOp::create(rewriter, loc, input, empty,
                                          ArrayRef<int64_t>{0, 2, 3, 1})
                  ->getResult(0);
    }
    auto poolType = RankedTensorType::get({n, 1, 1, c}, elem);
    Value dest = tensor::EmptyOp::create(rewriter, loc, poolType.getShape(),
                                         elem);
    Value pooled = dwc::GlobalAvgPoolOp::create(rewriter, loc, poolType, input,
                                                dest, TypeAttr())
                       ->getResult(0);
    if (resultType == poolType) {
      rewriter.replaceOp(op, pooled);
      return success();
    }
    auto flatType = RankedTensorType::get({n, c}, elem);
    Value flat = tensor::CollapseShapeOp::create(
        rewriter, loc, flatType, pooled,
        SmallVector<ReassociationIndices>{{0, 1, 2}, {3}});
    if (resultType == flatType) {
      rewriter.replaceOp(op, flat);
      return success();
    }
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, resultType, flat, SmallVector<ReassociationIndices>{{0}, {1, 2, 3}});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Channel sums (bias gradients)
//===----------------------------------------------------------------------===//

/// Whether `body` adds its input (widened to f32 by one arith.extf, or as
/// it is) to its accumulator and yields the sum.
bool isSumBody(Block *body) {
  if (isAddBody(body))
    return true;
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || yield.getNumOperands() != 1 ||
      body->getOperations().size() != 3)
    return false;
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || add->getBlock() != body)
    return false;
  Value acc = body->getArgument(1);
  Value other = add.getLhs() == acc ? add.getRhs() : add.getLhs();
  auto ext = other.getDefiningOp<arith::ExtFOp>();
  return ext && ext->getBlock() == body && ext.getIn() == body->getArgument(0) &&
         (add.getLhs() == acc || add.getRhs() == acc);
}

/// The reduced dims of a one-input channel sum into a 1-D result: a
/// linalg.reduce's dimensions, or a linalg.generic's reduction loops when
/// its input map is the identity and its output map the one parallel loop.
std::optional<SmallVector<int64_t>> channelSumDims(linalg::LinalgOp op) {
  if (auto reduce = dyn_cast<linalg::ReduceOp>(op.getOperation())) {
    if (!isSumBody(reduce.getBody()))
      return std::nullopt;
    return SmallVector<int64_t>(reduce.getDimensions());
  }
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || generic.getNumLoops() != 4 || !isSumBody(generic.getBody()))
    return std::nullopt;
  auto maps = generic.getIndexingMapsArray();
  auto iters = generic.getIteratorTypesArray();
  SmallVector<int64_t> reduced, parallel;
  for (auto [i, it] : llvm::enumerate(iters))
    (it == utils::IteratorType::reduction ? reduced : parallel).push_back(i);
  if (!maps[0].isIdentity() || parallel.size() != 1 ||
      maps[1] != AffineMap::get(4, 0, getAffineDimExpr(parallel[0],
                                                         generic.getContext())))
    return std::nullopt;
  return reduced;
}

/// A sum of an N x C x H x W (dims 0, 2, 3 reduced) or N x H x W x C
/// (dims 0, 1, 2) tensor into C channels, from a zero init, in f32 (or the
/// input's f32 / f64) -> dwc.conv2d_backward_bias on the NHWC tensor (the
/// bias gradient front ends emit for a convolution). 16-bit accumulation is
/// left alone: the dwc op sums in f32, which would change its rounding.
struct RaiseChannelSum : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<linalg::GenericOp, linalg::ReduceOp>(op.getOperation()) ||
        !op.hasPureTensorSemantics() || op.getNumDpsInputs() != 1 ||
        op.getNumDpsInits() != 1)
      return failure();
    Value input = op.getDpsInputs()[0], init = op.getDpsInits()[0];
    auto inType = dyn_cast<RankedTensorType>(input.getType());
    auto outType = dyn_cast<RankedTensorType>(init.getType());
    if (!inType || !outType || inType.getRank() != 4 || outType.getRank() != 1 ||
        !inType.hasStaticShape() || !outType.hasStaticShape())
      return failure();
    std::optional<SmallVector<int64_t>> dims = channelSumDims(op);
    bool nchw = dims && *dims == SmallVector<int64_t>{0, 2, 3};
    if (!dims || (!nchw && *dims != SmallVector<int64_t>{0, 1, 2}))
      return rewriter.notifyMatchFailure(op, "not a sum over N, H and W");
    Type elem = inType.getElementType(), outElem = outType.getElementType();
    bool wide = outElem.isF32() || (outElem.isF64() && elem.isF64());
    if (!isa<FloatType>(elem) || !wide)
      return rewriter.notifyMatchFailure(op, "not summed in f32 or f64");
    ArrayRef<int64_t> s = inType.getShape();
    if (outType.getShape()[0] != (nchw ? s[1] : s[3]))
      return rewriter.notifyMatchFailure(op, "result is not the channels");
    if (failed(matchInit(init, Identity::Zero)))
      return rewriter.notifyMatchFailure(op, "init is not zero");
    Location loc = op.getLoc();
    if (nchw) {
      Value empty = tensor::EmptyOp::create(
          rewriter, loc, ArrayRef<int64_t>{s[0], s[2], s[3], s[1]}, elem);
      input = linalg::TransposeOp::create(rewriter, loc, input, empty,
                                          ArrayRef<int64_t>{0, 2, 3, 1})
                  ->getResult(0);
    }
    Value dest = tensor::EmptyOp::create(rewriter, loc, outType.getShape(),
                                         outElem);
    rewriter.replaceOpWithNewOp<dwc::Conv2DBackwardBiasOp>(op, outType, input,
                                                           dest);
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
                 RaiseDepthwiseHwcm,
                 RaiseConv<linalg::Conv2DNhwcHwcfOp, dwc::Conv2DOp,
                           /*Depthwise=*/false>,
                 RaiseMaxPool, RaiseAvgPool<linalg::GenericOp>,
                 RaiseAvgPool<linalg::DivOp>, RaiseGlobalAvgPool,
                 RaiseChannelSum>(ctx);
    dwc::populateNhwcFormPatterns(patterns);
    dwc::populateGenericFormPatterns(patterns);
    dwc::populatePropagateLayoutPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
