//===- DwcOps.cpp - dwc operation verifiers and builders ------------------===//
//
// Verifiers (one diagnostic per way an op can be malformed), shape inference
// and builders of the dwc operations.
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::dwc;

int64_t mlir::dwc::convOutputSize(int64_t in, int64_t window, int64_t stride,
                                  int64_t dilation, int64_t padBefore,
                                  int64_t padAfter) {
  int64_t span = in + padBefore + padAfter - dilation * (window - 1) - 1;
  if (span < 0 || stride <= 0)
    return 0;
  return span / stride + 1;
}

int64_t Pool2DOp::outputSize(int64_t in, int64_t window, int64_t stride,
                             int64_t padBefore, int64_t padAfter,
                             bool ceilMode) {
  int64_t span = in + padBefore + padAfter - window;
  if (span < 0 || stride <= 0)
    return 0;
  int64_t out = (ceilMode ? (span + stride - 1) / stride : span / stride) + 1;
  // A ceil-mode window must start inside the input or its leading padding.
  if (ceilMode && (out - 1) * stride >= in + padBefore)
    --out;
  return out;
}

//===----------------------------------------------------------------------===//
// Shared verification helpers
//===----------------------------------------------------------------------===//

namespace {
/// Bounds that keep every index and size computation of the verifiers, the
/// CPU lowering and the kernels (products of a few extents and attributes)
/// far from int64 overflow: extents and attribute values fit in 31 bits and
/// an operand holds at most 2^40 elements (4 TiB of f32, more than any GPU).
constexpr int64_t kMaxExtent = (int64_t(1) << 31) - 1;
constexpr int64_t kMaxElements = int64_t(1) << 40;

std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleave(shape, os, "x");
  return s;
}

LogicalResult checkRank(Operation *op, Value v, int64_t rank, StringRef name,
                        StringRef layout) {
  auto type = cast<ShapedType>(v.getType());
  if (type.getRank() != rank)
    return op->emitOpError() << "expects " << name << " of rank " << rank
                             << " (" << layout << "), got rank "
                             << type.getRank();
  return success();
}

/// Checks that no value of attribute `name` exceeds kMaxExtent.
LogicalResult checkAttrBound(Operation *op, ArrayRef<int64_t> values,
                             StringRef name) {
  if (llvm::any_of(values, [](int64_t v) { return v > kMaxExtent; }))
    return op->emitOpError() << "expects " << name << " of at most "
                             << kMaxExtent << ", got ["
                             << llvm::make_range(values.begin(), values.end())
                             << "]";
  return success();
}

/// Checks that the intermediate `shape` an op computes without an operand
/// holding it (the convolution of a fused convolution + pooling, which the
/// pipelines materialise when they split the op) obeys the operand bounds.
LogicalResult checkIntermediateExtents(Operation *op, ArrayRef<int64_t> shape,
                                       StringRef what) {
  int64_t elements = 1;
  for (int64_t d : shape) {
    if (d > kMaxExtent)
      return op->emitOpError() << "expects a " << what
                               << " with dimensions of at most " << kMaxExtent
                               << ", got " << shapeStr(shape);
    elements *= d; // <= 2^40 * 2^31 before the check below: no overflow
    if (elements > kMaxElements)
      return op->emitOpError() << "expects a " << what
                               << " of at most 2^40 elements, got "
                               << shapeStr(shape);
  }
  return success();
}

/// Checks that every operand is non-empty and small enough for 64-bit
/// index arithmetic (see kMaxExtent, kMaxElements).
LogicalResult checkExtents(Operation *op) {
  for (Value v : op->getOperands()) {
    ArrayRef<int64_t> shape = cast<ShapedType>(v.getType()).getShape();
    int64_t elements = 1;
    for (int64_t d : shape) {
      if (d < 1)
        return op->emitOpError()
               << "expects operands without empty dimensions, got "
               << v.getType();
      if (d > kMaxExtent)
        return op->emitOpError() << "expects dimensions of at most "
                                 << kMaxExtent << ", got " << v.getType();
      elements *= d; // <= 2^40 * 2^31 before the check below: no overflow
      if (elements > kMaxElements)
        return op->emitOpError() << "expects operands of at most 2^40 "
                                    "elements, got "
                                 << v.getType();
    }
  }
  return success();
}

LogicalResult checkSpatialAttrs(Operation *op, ArrayRef<int64_t> strides,
                                ArrayRef<int64_t> dilations,
                                ArrayRef<int64_t> padding) {
  if (strides.size() != 2)
    return op->emitOpError() << "expects 2 strides, got " << strides.size();
  if (llvm::any_of(strides, [](int64_t s) { return s <= 0; }))
    return op->emitOpError() << "expects positive strides, got ["
                             << llvm::make_range(strides.begin(), strides.end())
                             << "]";
  if (dilations.size() != 2)
    return op->emitOpError() << "expects 2 dilations, got "
                             << dilations.size();
  if (llvm::any_of(dilations, [](int64_t d) { return d <= 0; }))
    return op->emitOpError() << "expects positive dilations";
  if (padding.size() != 4)
    return op->emitOpError()
           << "expects 4 padding values [top, bottom, left, right], got "
           << padding.size();
  if (llvm::any_of(padding, [](int64_t p) { return p < 0; }))
    return op->emitOpError() << "expects non-negative padding";
  if (failed(checkAttrBound(op, strides, "strides")) ||
      failed(checkAttrBound(op, dilations, "dilations")) ||
      failed(checkAttrBound(op, padding, "padding")))
    return failure();
  return success();
}

Type elemType(Value v) { return cast<ShapedType>(v.getType()).getElementType(); }
ArrayRef<int64_t> shapeOf(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
}

LogicalResult checkAccType(Operation *op, std::optional<Type> acc) {
  if (!acc)
    return success();
  if (!acc->isF32() && !acc->isF64())
    return op->emitOpError() << "expects an f32 or f64 accumulation type, got "
                             << *acc;
  return success();
}

/// Checks that the dilated window fits into the padded input and returns the
/// output extents through `oh`/`ow`.
LogicalResult checkWindowFits(Operation *op, ArrayRef<int64_t> inShape,
                              int64_t fh, int64_t fw, ArrayRef<int64_t> strides,
                              ArrayRef<int64_t> dilations,
                              ArrayRef<int64_t> padding, int64_t &oh,
                              int64_t &ow) {
  int64_t effH = dilations[0] * (fh - 1) + 1, effW = dilations[1] * (fw - 1) + 1;
  int64_t padH = inShape[1] + padding[0] + padding[1];
  int64_t padW = inShape[2] + padding[2] + padding[3];
  if (effH > padH || effW > padW)
    return op->emitOpError() << "window " << effH << "x" << effW
                             << " (dilated) is larger than the padded input "
                             << padH << "x" << padW;
  oh = convOutputSize(inShape[1], fh, strides[0], dilations[0], padding[0],
                      padding[1]);
  ow = convOutputSize(inShape[2], fw, strides[1], dilations[1], padding[2],
                      padding[3]);
  return success();
}

LogicalResult checkOutputShape(Operation *op, Value out,
                               ArrayRef<int64_t> expected, StringRef what) {
  if (shapeOf(out) != expected)
    return op->emitOpError() << what << " shape mismatch: expected "
                             << shapeStr(expected)
                             << " from the operands and attributes, got "
                             << shapeStr(shapeOf(out));
  return success();
}

LogicalResult checkSameElementType(Operation *op, ArrayRef<Value> values,
                                   StringRef names) {
  Type t = elemType(values.front());
  for (Value v : values.drop_front())
    if (elemType(v) != t)
      return op->emitOpError() << "expects the same element type for "
                               << names << ", got " << t << " and "
                               << elemType(v);
  return success();
}

/// Checks that an op is either all-tensor (with a result of the destination's
/// type) or all-memref (without a result), with operands checkExtents
/// accepts.
LogicalResult checkForm(Operation *op) {
  if (failed(checkExtents(op)))
    return failure();
  auto dps = cast<DestinationStyleOpInterface>(op);
  Value init = dps.getDpsInits().front();
  bool tensorForm = isa<RankedTensorType>(init.getType());
  for (Value v : op->getOperands())
    if (isa<RankedTensorType>(v.getType()) != tensorForm)
      return op->emitOpError()
             << "expects all operands to be tensors or all to be memrefs";
  if (tensorForm) {
    if (op->getNumResults() != 1 || op->getResult(0).getType() != init.getType())
      return op->emitOpError()
             << "expects one result of the destination's type " << init.getType();
  } else if (op->getNumResults() != 0) {
    return op->emitOpError() << "expects no result when operating on memrefs";
  }
  return success();
}

/// One operand's expected rank, with the names the diagnostic gives it and
/// its dimensions.
struct RankedOperand {
  Value value;
  int64_t rank;
  StringRef name, layout;
};

/// The form of `op` (checkForm), then the rank of each operand, in order.
LogicalResult checkFormAndRanks(Operation *op,
                                ArrayRef<RankedOperand> operands) {
  if (failed(checkForm(op)))
    return failure();
  for (const RankedOperand &o : operands)
    if (failed(checkRank(op, o.value, o.rank, o.name, o.layout)))
      return failure();
  return success();
}

/// A pooling or im2win window: two positive values within the bound.
LogicalResult checkWindow(Operation *op, ArrayRef<int64_t> window) {
  if (window.size() != 2)
    return op->emitOpError() << "expects a 2-D window, got " << window.size()
                             << " values";
  if (llvm::any_of(window, [](int64_t w) { return w <= 0; }))
    return op->emitOpError() << "expects a positive window";
  return checkAttrBound(op, window, "window");
}

/// The checks after the ranks shared by the forward convolutions: one
/// element type (`bias` may be null), the filter's `filterChannels` (named
/// `channelWord`) match the input's channels, and the optional bias holds
/// `outChannels` values.
LogicalResult checkConvOperands(Operation *op, Value input, Value filter,
                                Value bias, Value init, int64_t filterChannels,
                                StringRef channelWord, int64_t outChannels) {
  SmallVector<Value> typed = {input, filter, init};
  if (bias)
    typed.push_back(bias);
  if (failed(checkSameElementType(op, typed, "input, filter, bias and output")))
    return failure();
  int64_t inChannels = shapeOf(input)[3];
  if (filterChannels != inChannels)
    return op->emitOpError() << "filter has " << filterChannels << " "
                             << channelWord << " but the input has "
                             << inChannels;
  if (bias) {
    auto b = shapeOf(bias);
    if (b.size() != 1 || b[0] != outChannels)
      return op->emitOpError() << "expects a bias of shape " << outChannels
                               << ", got " << shapeStr(b);
  }
  return success();
}

/// Memory effects of the memref form: inputs are read, the destination is
/// written (not read). The tensor form has none.
void dpsEffects(Operation *op,
                SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
                    &effects) {
  auto dps = cast<DestinationStyleOpInterface>(op);
  for (OpOperand *in : dps.getDpsInputOperands())
    if (isa<MemRefType>(in->get().getType()))
      effects.emplace_back(MemoryEffects::Read::get(), in,
                           SideEffects::DefaultResource::get());
  for (OpOperand &out : dps.getDpsInitsMutable())
    if (isa<MemRefType>(out.get().getType()))
      effects.emplace_back(MemoryEffects::Write::get(), &out,
                           SideEffects::DefaultResource::get());
}

Type accOrF32(Builder b, std::optional<Type> acc) {
  return acc ? *acc : Type(b.getF32Type());
}

/// Default accumulation type of the depthwise ops: f64 for f64 elements
/// (nothing narrower may hold their sums), else f32.
Type depthwiseAcc(Builder b, Type elem, std::optional<Type> acc) {
  if (acc)
    return *acc;
  return elem.isF64() ? Type(b.getF64Type()) : Type(b.getF32Type());
}

/// f64 elements need an f64 accumulation type (an explicit `acc = f32`
/// would round every partial sum below the data's precision).
LogicalResult checkF64Acc(Operation *op, Type elem, std::optional<Type> acc) {
  if (elem.isF64() && acc && !acc->isF64())
    return op->emitOpError()
           << "expects the f64 accumulation type for f64 elements, got "
           << *acc;
  return success();
}

/// Checks a depthwise op's channel_multiplier (absent: 1) against the
/// channels: `what` (the filter, or the output gradient) must have the
/// input's `inChannels` times M. M = 1 is left to the ops' own channel
/// checks, whose diagnostics predate the multiplier.
LogicalResult checkMultiplier(Operation *op, std::optional<uint64_t> attr,
                              int64_t inChannels, int64_t channels,
                              StringRef what) {
  if (!attr)
    return success();
  // (An I64Attr read as unsigned: negative values are huge.)
  if (*attr < 1 || *attr > uint64_t(kMaxExtent))
    return op->emitOpError() << "expects a channel_multiplier in [1, "
                             << kMaxExtent << "], got " << int64_t(*attr);
  int64_t m = *attr;
  if (m > 1 && channels != inChannels * m) // both <= 2^31: no overflow
    return op->emitOpError() << what << " has " << channels
                             << " channels but the input's " << inChannels
                             << " channels times channel_multiplier " << m
                             << " make " << inChannels * m;
  return success();
}
} // namespace

//===----------------------------------------------------------------------===//
// DepthwiseConv2DOp
//===----------------------------------------------------------------------===//

RankedTensorType DepthwiseConv2DOp::inferResultType(
    RankedTensorType input, RankedTensorType filter, ArrayRef<int64_t> strides,
    ArrayRef<int64_t> dilations, ArrayRef<int64_t> padding) {
  auto in = input.getShape();
  auto f = filter.getShape();
  int64_t oh = convOutputSize(in[1], f[0], strides[0], dilations[0],
                              padding[0], padding[1]);
  int64_t ow = convOutputSize(in[2], f[1], strides[1], dilations[1],
                              padding[2], padding[3]);
  // The filter's channels: C * M, the output's.
  return RankedTensorType::get({in[0], oh, ow, f[2]},
                               input.getElementType());
}

void DepthwiseConv2DOp::build(OpBuilder &b, OperationState &state, Value input,
                              Value filter, Value bias,
                              ArrayRef<int64_t> strides,
                              ArrayRef<int64_t> dilations,
                              ArrayRef<int64_t> padding,
                              int64_t channelMultiplier) {
  RankedTensorType type = inferResultType(
      cast<RankedTensorType>(input.getType()),
      cast<RankedTensorType>(filter.getType()), strides, dilations, padding);
  Value init = b.create<tensor::EmptyOp>(state.location, type.getShape(),
                                         type.getElementType());
  // M = 1 stays without the attribute (today's op, printed as before).
  IntegerAttr multiplier =
      channelMultiplier == 1 ? IntegerAttr()
                             : b.getI64IntegerAttr(channelMultiplier);
  build(b, state, type, input, filter, bias, /*input_bias=*/Value(), init,
        strides, dilations, padding, multiplier, /*acc=*/nullptr,
        /*activation=*/ActivationAttr(),
        /*input_activation=*/ActivationAttr());
}

bool dwc::isClampActivation(Activation activation) {
  return activation == Activation::Relu || activation == Activation::Relu6;
}

namespace {
/// Builds one activation on a float scalar or vector, in its type.
struct ActivationBuilder {
  OpBuilder &b;
  Location loc;
  Type type;
  bool fastTanh = false;

  Value cst(double v) {
    TypedAttr a = b.getFloatAttr(getElementTypeOrSelf(type), v);
    if (auto vt = dyn_cast<VectorType>(type))
      a = DenseElementsAttr::get(vt, a);
    return arith::ConstantOp::create(b, loc, a);
  }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value relu6(Value x) {
    Value r = arith::MaximumFOp::create(b, loc, x, cst(0.0));
    return arith::MinimumFOp::create(b, loc, r, cst(6.0));
  }
  /// 1 / (1 + exp(-x)), with the fast exponential and reciprocal (afn,
  /// arcp: ex2.approx and rcp.approx on the GPU, a few ulp): SiLU runs on
  /// every element a depthwise kernel loads and stores, and the IEEE
  /// division and libdevice's exact expf made the fused 16-bit kernels
  /// issue-bound (EfficientNet-B0's layers at 4-21 % of their byte floor).
  Value sigmoid(Value x) {
    if (fastTanh) // one tanh instead of an exponential and a reciprocal
      return add(mul(tanh(mul(x, cst(0.5))), cst(0.5)), cst(0.5));
    auto fast = arith::FastMathFlagsAttr::get(
        b.getContext(), arith::FastMathFlags::afn | arith::FastMathFlags::arcp);
    Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x), fast);
    return arith::DivFOp::create(b, loc, cst(1.0), add(cst(1.0), e), fast);
  }
  Value tanh(Value x) {
    auto flags = fastTanh ? arith::FastMathFlags::afn : arith::FastMathFlags::none;
    return math::TanhOp::create(
        b, loc, x, arith::FastMathFlagsAttr::get(b.getContext(), flags));
  }
  /// x * (1 + erf(x / sqrt 2)) / 2.
  Value gelu(Value x) {
    Value e = math::ErfOp::create(b, loc, mul(x, cst(M_SQRT1_2)));
    return mul(mul(x, cst(0.5)), add(cst(1.0), e));
  }
  /// x * (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) / 2.
  Value geluTanh(Value x) {
    Value inner = add(x, mul(cst(0.044715), mul(x, mul(x, x))));
    Value arg = mul(cst(M_2_SQRTPI * M_SQRT1_2), inner);
    Value t = tanh(arg);
    return mul(mul(x, cst(0.5)), add(cst(1.0), t));
  }
  Value apply(Activation a, Value x) {
    switch (a) {
    case Activation::Relu:
      return arith::MaximumFOp::create(b, loc, x, cst(0.0));
    case Activation::Relu6:
      return relu6(x);
    case Activation::Silu:
      return mul(x, sigmoid(x));
    case Activation::Sigmoid:
      return sigmoid(x);
    case Activation::Hardswish:
      return mul(x, mul(relu6(add(x, cst(3.0))), cst(1.0 / 6.0)));
    case Activation::Hardsigmoid:
      return mul(relu6(add(x, cst(3.0))), cst(1.0 / 6.0));
    case Activation::Gelu:
      return gelu(x);
    case Activation::GeluTanh:
      return geluTanh(x);
    }
    llvm_unreachable("unknown activation");
  }
};
} // namespace

Value dwc::applyActivation(OpBuilder &b, Location loc, Value value,
                           std::optional<Activation> activation,
                           bool fastTanh) {
  if (!activation)
    return value;
  if (!getElementTypeOrSelf(value.getType()).isF32())
    fastTanh = false; // tanh.approx.f32 is an f32 instruction
  auto vt = dyn_cast<VectorType>(value.getType());
  if (!vt || isClampActivation(*activation))
    return ActivationBuilder{b, loc, value.getType(), fastTanh}.apply(
        *activation, value);
  // Transcendentals one lane at a time: the GPU lowering of math ops
  // (libdevice calls) takes scalars.
  Value out = value;
  for (int64_t i = 0; i < vt.getNumElements(); ++i) {
    Value lane = vector::ExtractOp::create(b, loc, value, i);
    lane = ActivationBuilder{b, loc, lane.getType(), fastTanh}.apply(
        *activation, lane);
    out = vector::InsertOp::create(b, loc, lane, out, i);
  }
  return out;
}

Type DepthwiseConv2DOp::getAccType() {
  return depthwiseAcc(Builder(getContext()), elemType(getInput()), getAcc());
}

/// The checks of a depthwise convolution's operands and attributes shared
/// by depthwise_conv2d and depthwise_conv2d_pool2d (form, ranks, element
/// types, channels, bias, window); returns the convolution's OH x OW.
/// `multiplier` is the channel_multiplier attribute (absent for the fused
/// convolution + pooling, which has none).
static LogicalResult checkDepthwiseForward(Operation *op, Value input,
                                           Value filter, Value bias,
                                           Value init, ArrayRef<int64_t> strides,
                                           ArrayRef<int64_t> dilations,
                                           ArrayRef<int64_t> padding,
                                           std::optional<uint64_t> multiplier,
                                           StringRef outDims, int64_t &oh,
                                           int64_t &ow) {
  if (failed(checkFormAndRanks(op, {{input, 4, "input", "N x IH x IW x C"},
                                   {filter, 3, "filter", "FH x FW x C"},
                                   {init, 4, "output", outDims}})) ||
      failed(checkSpatialAttrs(op, strides, dilations, padding)))
    return failure();
  auto in = shapeOf(input);
  auto f = shapeOf(filter);
  if (failed(checkMultiplier(op, multiplier, in[3], f[2], "filter")))
    return failure();
  // f[2] is C * M now (or M = 1): compare the input with f[2] / M.
  int64_t m = multiplier.value_or(1);
  if (failed(checkConvOperands(op, input, filter, bias, init, f[2] / m,
                               "channels", f[2])))
    return failure();
  return checkWindowFits(op, in, f[0], f[1], strides, dilations, padding, oh,
                         ow);
}

LogicalResult DepthwiseConv2DOp::verify() {
  Operation *op = getOperation();
  int64_t oh, ow;
  if (failed(checkDepthwiseForward(op, getInput(), getFilter(), getBias(),
                                   getInit(), getStrides(), getDilations(),
                                   getPadding(), getChannelMultiplier(),
                                   "N x OH x OW x C", oh, ow)))
    return failure();
  if (Value inBias = getInputBias()) {
    if (failed(checkFormAndRanks(op, {{inBias, 1, "input_bias", "C"}})))
      return failure();
    int64_t c = shapeOf(getInput())[3];
    int64_t m = getMultiplier();
    // The prologue acts on the input: one value per input channel, also
    // when each of them feeds M outputs.
    if (m > 1 && shapeOf(inBias)[0] == c * m)
      return emitOpError() << "input_bias has " << c * m
                           << " elements, one per output channel, but it "
                              "applies to the input's "
                           << c << " channels (channel_multiplier " << m
                           << ")";
    if (shapeOf(inBias)[0] != c)
      return emitOpError() << "input_bias has " << shapeOf(inBias)[0]
                           << " elements but the input has " << c
                           << " channels";
    if (elemType(inBias) != elemType(getInput()))
      return emitOpError("input_bias element type differs from the input's");
  }
  auto in = shapeOf(getInput());
  int64_t outChannels = shapeOf(getFilter())[2]; // C * M
  if (failed(checkOutputShape(op, getInit(), {in[0], oh, ow, outChannels},
                              "output")))
    return failure();
  if (failed(checkAccType(op, getAcc())))
    return failure();
  return checkF64Acc(op, elemType(getInput()), getAcc());
}

//===----------------------------------------------------------------------===//
// DepthwiseConv2DBackwardDataOp
//===----------------------------------------------------------------------===//

Type DepthwiseConv2DBackwardDataOp::getAccType() {
  return depthwiseAcc(Builder(getContext()), elemType(getOutputGrad()),
                      getAcc());
}

LogicalResult DepthwiseConv2DBackwardDataOp::verify() {
  Operation *op = getOperation();
  if (failed(checkFormAndRanks(
          op, {{getOutputGrad(), 4, "output gradient", "N x OH x OW x C"},
               {getFilter(), 3, "filter", "FH x FW x C"},
               {getInit(), 4, "input gradient", "N x IH x IW x C"}})) ||
      failed(checkSpatialAttrs(op, getStrides(), getDilations(), getPadding())))
    return failure();
  if (failed(checkSameElementType(op, {getOutputGrad(), getFilter(), getInit()},
                                  "output gradient, filter and input gradient")))
    return failure();
  auto dy = shapeOf(getOutputGrad());
  auto f = shapeOf(getFilter());
  auto dx = shapeOf(getInit());
  if (failed(checkMultiplier(op, getChannelMultiplier(), dx[3], dy[3],
                             "output gradient")))
    return failure();
  if (f[2] != dy[3])
    return emitOpError() << "filter has " << f[2]
                         << " channels but the output gradient has " << dy[3];
  int64_t outChannels = dx[3] * getMultiplier(); // == dy[3] when M > 1
  if (dx[0] != dy[0] || outChannels != dy[3])
    return emitOpError() << "input gradient " << shapeStr(dx)
                         << " disagrees with the output gradient "
                         << shapeStr(dy) << " in batch or channels";
  int64_t oh, ow;
  if (failed(checkWindowFits(op, dx, f[0], f[1], getStrides(), getDilations(),
                             getPadding(), oh, ow)))
    return failure();
  if (failed(checkOutputShape(op, getOutputGrad(),
                              {dx[0], oh, ow, outChannels}, "output gradient")))
    return failure();
  if (failed(checkAccType(op, getAcc())))
    return failure();
  return checkF64Acc(op, elemType(getOutputGrad()), getAcc());
}

//===----------------------------------------------------------------------===//
// DepthwiseConv2DBackwardFilterOp
//===----------------------------------------------------------------------===//

Type DepthwiseConv2DBackwardFilterOp::getAccType() {
  return depthwiseAcc(Builder(getContext()), elemType(getInput()),
                      std::nullopt);
}

LogicalResult DepthwiseConv2DBackwardFilterOp::verify() {
  Operation *op = getOperation();
  if (failed(checkFormAndRanks(
          op, {{getInput(), 4, "input", "N x IH x IW x C"},
               {getOutputGrad(), 4, "output gradient", "N x OH x OW x C"},
               {getInit(), 3, "filter gradient", "FH x FW x C"}})) ||
      failed(checkSpatialAttrs(op, getStrides(), getDilations(), getPadding())))
    return failure();
  if (failed(checkSameElementType(op, {getInput(), getOutputGrad()},
                                  "input and output gradient")))
    return failure();
  Type dwType = elemType(getInit());
  if (dwType != elemType(getInput()) && !dwType.isF32())
    return emitOpError() << "expects a filter gradient of the input's element "
                            "type or f32, got "
                         << dwType;
  auto x = shapeOf(getInput());
  auto dw = shapeOf(getInit());
  if (failed(checkMultiplier(op, getChannelMultiplier(), x[3], dw[2],
                             "filter gradient")))
    return failure();
  int64_t outChannels = x[3] * getMultiplier(); // == dw[2] when M > 1
  if (dw[2] != outChannels)
    return emitOpError() << "filter gradient has " << dw[2]
                         << " channels but the input has " << x[3];
  int64_t oh, ow;
  if (failed(checkWindowFits(op, x, dw[0], dw[1], getStrides(), getDilations(),
                             getPadding(), oh, ow)))
    return failure();
  return checkOutputShape(op, getOutputGrad(), {x[0], oh, ow, outChannels},
                          "output gradient");
}

//===----------------------------------------------------------------------===//
// Conv2DBackwardBiasOp
//===----------------------------------------------------------------------===//

Type Conv2DBackwardBiasOp::getAccType() {
  return depthwiseAcc(Builder(getContext()), elemType(getOutputGrad()),
                      std::nullopt);
}

LogicalResult Conv2DBackwardBiasOp::verify() {
  Operation *op = getOperation();
  if (failed(checkFormAndRanks(
          op, {{getOutputGrad(), 4, "output gradient", "N x OH x OW x C"},
               {getInit(), 1, "bias gradient", "C"}})))
    return failure();
  Type dbType = elemType(getInit());
  if (dbType != elemType(getOutputGrad()) && !dbType.isF32())
    return emitOpError() << "expects a bias gradient of the output "
                            "gradient's element type or f32, got "
                         << dbType;
  int64_t C = shapeOf(getOutputGrad())[3];
  return checkOutputShape(op, getInit(), {C}, "bias gradient");
}

//===----------------------------------------------------------------------===//
// Pool2DOp
//===----------------------------------------------------------------------===//

Type Pool2DOp::getAccType() { return accOrF32(Builder(getContext()), getAcc()); }

/// Checks the attributes shared by pool2d and pool2d_backward against the
/// forward input shape and returns the forward output shape.
static LogicalResult checkPoolAttrs(Operation *op, PoolKind kind,
                                    ArrayRef<int64_t> in,
                                    ArrayRef<int64_t> window,
                                    ArrayRef<int64_t> strides,
                                    ArrayRef<int64_t> pad, bool ceil,
                                    bool countIncludePad,
                                    SmallVectorImpl<int64_t> &outShape) {
  if (failed(checkWindow(op, window)))
    return failure();
  SmallVector<int64_t> ones = {1, 1};
  if (failed(checkSpatialAttrs(op, strides, ones, pad)))
    return failure();
  if (pad[0] >= window[0] || pad[1] >= window[0] || pad[2] >= window[1] ||
      pad[3] >= window[1])
    return op->emitOpError() << "expects each padding amount to be smaller "
                                "than the window along its dimension";
  if (window[0] > in[1] + pad[0] + pad[1] || window[1] > in[2] + pad[2] + pad[3])
    return op->emitOpError() << "window " << window[0] << "x" << window[1]
                             << " is larger than the padded input "
                             << in[1] + pad[0] + pad[1] << "x"
                             << in[2] + pad[2] + pad[3];
  if (kind == PoolKind::Max && countIncludePad)
    return op->emitOpError() << "count_include_pad only applies to avg pooling";
  int64_t oh = Pool2DOp::outputSize(in[1], window[0], strides[0], pad[0],
                                    pad[1], ceil);
  int64_t ow = Pool2DOp::outputSize(in[2], window[1], strides[1], pad[2],
                                    pad[3], ceil);
  outShape.assign({in[0], oh, ow, in[3]});
  return success();
}

/// Pooling fuses only the clamp activations (relu, relu6).
static LogicalResult checkPoolActivation(Operation *op,
                                         std::optional<Activation> act) {
  if (act && !isClampActivation(*act))
    return op->emitOpError("fuses only the relu and relu6 activations, not ")
           << stringifyActivation(*act);
  return success();
}

LogicalResult Pool2DOp::verify() {
  Operation *op = getOperation();
  if (failed(checkFormAndRanks(op, {{getInput(), 4, "input", "N x IH x IW x C"},
                                   {getInit(), 4, "output", "N x OH x OW x C"}})) ||
      failed(checkSameElementType(op, {getInput(), getInit()},
                                  "input and output")) ||
      failed(checkPoolActivation(op, getActivation())))
    return failure();
  SmallVector<int64_t> outShape;
  if (failed(checkPoolAttrs(op, getKind(), shapeOf(getInput()), getWindow(),
                            getStrides(), getPadding(), getCeilMode(),
                            getCountIncludePad(), outShape)))
    return failure();
  if (failed(checkOutputShape(op, getInit(), outShape, "output")))
    return failure();
  return checkAccType(op, getAcc());
}

//===----------------------------------------------------------------------===//
// DepthwiseConv2DPool2DOp
//===----------------------------------------------------------------------===//

Type DepthwiseConv2DPool2DOp::getAccType() {
  return accOrF32(Builder(getContext()), getAcc());
}

SmallVector<int64_t> DepthwiseConv2DPool2DOp::getConvShape() {
  auto in = shapeOf(getInput());
  auto f = shapeOf(getFilter());
  auto s = getStrides(), d = getDilations(), p = getPadding();
  return {in[0], convOutputSize(in[1], f[0], s[0], d[0], p[0], p[1]),
          convOutputSize(in[2], f[1], s[1], d[1], p[2], p[3]), in[3]};
}

LogicalResult DepthwiseConv2DPool2DOp::verify() {
  Operation *op = getOperation();
  int64_t oh, ow;
  if (failed(checkDepthwiseForward(op, getInput(), getFilter(), getBias(),
                                   getInit(), getStrides(), getDilations(),
                                   getPadding(), /*multiplier=*/std::nullopt,
                                   "N x PH x PW x C", oh, ow)) ||
      failed(checkPoolActivation(op, getActivation())))
    return failure();
  auto in = shapeOf(getInput());
  SmallVector<int64_t> convShape = {in[0], oh, ow, in[3]}, outShape;
  if (failed(checkIntermediateExtents(op, convShape,
                                      "convolution intermediate")))
    return failure();
  if (failed(checkPoolAttrs(op, getKind(), convShape, getWindow(),
                            getPoolStrides(), getPoolPadding(), getCeilMode(),
                            getCountIncludePad(), outShape)))
    return failure();
  if (failed(checkOutputShape(op, getInit(), outShape, "output")))
    return failure();
  return checkAccType(op, getAcc());
}

//===----------------------------------------------------------------------===//
// Pool2DBackwardOp
//===----------------------------------------------------------------------===//

Type Pool2DBackwardOp::getAccType() {
  return accOrF32(Builder(getContext()), getAcc());
}

LogicalResult Pool2DBackwardOp::verify() {
  Operation *op = getOperation();
  if (failed(checkFormAndRanks(
          op, {{getInput(), 4, "input", "N x IH x IW x C"},
               {getOutputGrad(), 4, "output gradient", "N x OH x OW x C"},
               {getInit(), 4, "input gradient", "N x IH x IW x C"}})))
    return failure();
  if (failed(checkSameElementType(op, {getInput(), getOutputGrad(), getInit()},
                                  "input, output gradient and input gradient")))
    return failure();
  if (shapeOf(getInit()) != shapeOf(getInput()))
    return emitOpError() << "input gradient shape "
                         << shapeStr(shapeOf(getInit()))
                         << " differs from the input shape "
                         << shapeStr(shapeOf(getInput()));
  SmallVector<int64_t> outShape;
  if (failed(checkPoolAttrs(op, getKind(), shapeOf(getInput()), getWindow(),
                            getStrides(), getPadding(), getCeilMode(),
                            getCountIncludePad(), outShape)))
    return failure();
  if (failed(checkOutputShape(op, getOutputGrad(), outShape, "output gradient")))
    return failure();
  return checkAccType(op, getAcc());
}

//===----------------------------------------------------------------------===//
// GlobalAvgPoolOp
//===----------------------------------------------------------------------===//

Type GlobalAvgPoolOp::getAccType() {
  return accOrF32(Builder(getContext()), getAcc());
}

LogicalResult GlobalAvgPoolOp::verify() {
  Operation *op = getOperation();
  if (failed(checkFormAndRanks(op, {{getInput(), 4, "input", "N x H x W x C"},
                                   {getInit(), 4, "output", "N x 1 x 1 x C"}})) ||
      failed(checkSameElementType(op, {getInput(), getInit()},
                                  "input and output")))
    return failure();
  auto in = shapeOf(getInput());
  if (failed(checkOutputShape(op, getInit(), {in[0], 1, 1, in[3]}, "output")))
    return failure();
  return checkAccType(op, getAcc());
}

//===----------------------------------------------------------------------===//
// Im2winOp
//===----------------------------------------------------------------------===//

LogicalResult Im2winOp::verify() {
  Operation *op = getOperation();
  if (failed(checkFormAndRanks(
          op, {{getInput(), 4, "input", "N x IH x IW x C"},
               {getInit(), 5, "output", "N x OH x IWp x FH x C"}})))
    return failure();
  auto window = getWindow();
  if (failed(checkWindow(op, window)) ||
      failed(checkSpatialAttrs(op, getStrides(), getDilations(), getPadding())) ||
      failed(checkSameElementType(op, {getInput(), getInit()},
                                  "input and output")))
    return failure();
  auto in = shapeOf(getInput());
  int64_t oh, ow;
  if (failed(checkWindowFits(op, in, window[0], window[1], getStrides(),
                             getDilations(), getPadding(), oh, ow)))
    return failure();
  auto pad = getPadding();
  return checkOutputShape(
      op, getInit(), {in[0], oh, in[2] + pad[2] + pad[3], window[0], in[3]},
      "output");
}

//===----------------------------------------------------------------------===//
// Conv2DOp
//===----------------------------------------------------------------------===//

Type Conv2DOp::getAccType() { return accOrF32(Builder(getContext()), getAcc()); }

LogicalResult Conv2DOp::verify() {
  Operation *op = getOperation();
  if (failed(checkFormAndRanks(
          op, {{getInput(), 4, "input", "N x IH x IW x C"},
               {getFilter(), 4, "filter", "FH x FW x C x OC"},
               {getInit(), 4, "output", "N x OH x OW x OC"}})) ||
      failed(checkSpatialAttrs(op, getStrides(), getDilations(), getPadding())))
    return failure();
  auto in = shapeOf(getInput());
  auto f = shapeOf(getFilter());
  if (failed(checkConvOperands(op, getInput(), getFilter(), getBias(),
                               getInit(), f[2], "input channels", f[3])))
    return failure();
  int64_t oh, ow;
  if (failed(checkWindowFits(op, in, f[0], f[1], getStrides(), getDilations(),
                             getPadding(), oh, ow)))
    return failure();
  if (failed(checkOutputShape(op, getInit(), {in[0], oh, ow, f[3]}, "output")))
    return failure();
  return checkAccType(op, getAcc());
}

#define GET_OP_CLASSES
#include "dwc/Dialect/Dwc/IR/DwcOps.cpp.inc"
