//===- DwcToLinalg.cpp - dwc ops to linalg (CPU reference semantics) ------===//
//
// Lowers every dwc op (tensor form) to tensor.pad / tensor.empty /
// tensor.insert_slice / linalg.fill / linalg.generic that compute exactly the
// semantics written in DwcOps.td. This is the reference the GPU kernels are
// checked against, so it favours plain formulas over speed:
//
//   * zero padding (or -inf for max pooling) is a tensor.pad;
//   * every reduction is one linalg.generic whose indexing maps are the
//     op's formula, accumulating in the op's accumulation type (inputs
//     extended with arith.extf, the result rounded once with arith.truncf);
//   * a final element-wise generic adds the bias / divides by the pooling
//     divisor and rounds into the op's destination.
//
// The memref form (after bufferization) is refused with a diagnostic.
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/Passes.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_CONVERTDWCTOLINALG
#include "dwc/Conversion/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;

namespace {

constexpr utils::IteratorType kPar = utils::IteratorType::parallel;
constexpr utils::IteratorType kRed = utils::IteratorType::reduction;

Type elementType(Value v) {
  return cast<ShapedType>(v.getType()).getElementType();
}
ArrayRef<int64_t> shapeOf(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
}

/// Converts a float scalar to `to`: extf when widening, truncf when
/// narrowing, nothing when the types agree.
Value convertFloat(OpBuilder &b, Location loc, Value v, Type to) {
  Type from = v.getType();
  if (from == to)
    return v;
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return arith::ExtFOp::create(b, loc, to, v);
  return arith::TruncFOp::create(b, loc, to, v);
}

Value floatConstant(OpBuilder &b, Location loc, Type type, double value) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

/// The scalar 0 or -inf of a float type, as an attribute.
TypedAttr zeroAttr(OpBuilder &b, Type type) { return b.getFloatAttr(type, 0.0); }
TypedAttr negInfAttr(OpBuilder &b, Type type) {
  auto ft = cast<FloatType>(type);
  return b.getFloatAttr(
      ft, APFloat::getInf(ft.getFloatSemantics(), /*Negative=*/true));
}

/// Pads the H and W dimensions of an NHWC tensor by the given amounts with
/// the scalar `padAttr`; returns `x` itself when nothing is padded.
Value padSpatial(OpBuilder &b, Location loc, Value x, int64_t top,
                 int64_t bottom, int64_t left, int64_t right,
                 TypedAttr padAttr) {
  if (top == 0 && bottom == 0 && left == 0 && right == 0)
    return x;
  Value padValue = arith::ConstantOp::create(b, loc, padAttr);
  auto type = cast<RankedTensorType>(x.getType());
  auto s = type.getShape();
  auto resType = RankedTensorType::get(
      {s[0], s[1] + top + bottom, s[2] + left + right, s[3]},
      type.getElementType());
  SmallVector<OpFoldResult> low = {b.getIndexAttr(0), b.getIndexAttr(top),
                                   b.getIndexAttr(left), b.getIndexAttr(0)};
  SmallVector<OpFoldResult> high = {b.getIndexAttr(0), b.getIndexAttr(bottom),
                                    b.getIndexAttr(right), b.getIndexAttr(0)};
  return tensor::PadOp::create(b, loc, resType, x, low, high, padValue);
}

/// The NHWC pooling input `x` padded by `pad` with `padAttr`, and further on
/// the bottom / right for the overhang of ceil-mode windows of output `out`.
Value poolPadded(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> out,
                 ArrayRef<int64_t> win, ArrayRef<int64_t> st,
                 ArrayRef<int64_t> pad, TypedAttr padAttr) {
  auto in = cast<RankedTensorType>(x.getType()).getShape();
  int64_t extraH = std::max<int64_t>(
      0, (out[1] - 1) * st[0] + win[0] - (in[1] + pad[0] + pad[1]));
  int64_t extraW = std::max<int64_t>(
      0, (out[2] - 1) * st[1] + win[1] - (in[2] + pad[2] + pad[3]));
  return padSpatial(b, loc, x, pad[0], pad[1] + extraH, pad[2],
                    pad[3] + extraW, padAttr);
}

/// Per pooling output position (linalg.index 1 and 2 of the enclosing
/// generic): the number of elements the forward op divides by (see
/// dwc.pool2d), as an `acc` scalar.
Value poolDivisor(OpBuilder &nb, Location l, Type acc, ArrayRef<int64_t> win,
                  ArrayRef<int64_t> st, ArrayRef<int64_t> pad,
                  ArrayRef<int64_t> in, bool includePad) {
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(nb, l, v);
  };
  auto extent = [&](unsigned dim, int64_t stride, int64_t k, int64_t before,
                    int64_t size, int64_t after) -> Value {
    Value o = linalg::IndexOp::create(nb, l, dim);
    Value start = arith::SubIOp::create(
        nb, l, arith::MulIOp::create(nb, l, o, cst(stride)), cst(before));
    Value end = arith::AddIOp::create(nb, l, start, cst(k));
    Value lo =
        arith::MaxSIOp::create(nb, l, start, cst(includePad ? -before : 0));
    Value hi = arith::MinSIOp::create(
        nb, l, end, cst(includePad ? size + after : size));
    return arith::SubIOp::create(nb, l, hi, lo);
  };
  Value rows = extent(1, st[0], win[0], pad[0], in[1], pad[1]);
  Value cols = extent(2, st[1], win[1], pad[2], in[2], pad[3]);
  Value count = arith::MulIOp::create(nb, l, rows, cols);
  Value countI = arith::IndexCastOp::create(nb, l, nb.getI64Type(), count);
  return arith::SIToFPOp::create(nb, l, acc, countI);
}

/// A tensor of `shape` x `type` filled with `value`.
Value filledTensor(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                   Type type, Value value) {
  Value empty = tensor::EmptyOp::create(b, loc, shape, type);
  return linalg::FillOp::create(b, loc, ValueRange{value}, ValueRange{empty})
      .getResult(0);
}

/// The body of a single-result linalg.generic: the value it yields from the
/// block arguments (inputs, then the output).
using GenericBody = function_ref<Value(OpBuilder &, Location, ValueRange)>;

/// The affine maps of `loops` loops with the results `exprs`.
SmallVector<AffineMap> affineMaps(MLIRContext *ctx, unsigned loops,
                                  ArrayRef<SmallVector<AffineExpr>> exprs) {
  SmallVector<AffineMap> maps;
  for (const SmallVector<AffineExpr> &m : exprs)
    maps.push_back(AffineMap::get(loops, 0, m, ctx));
  return maps;
}

/// One linalg.generic over the loops of `iterators` writing `init`: `ins`
/// and then `init` indexed by `maps`, each output element what `body` yields.
Value generic(OpBuilder &b, Location loc, ValueRange ins, Value init,
              ArrayRef<AffineMap> maps,
              ArrayRef<utils::IteratorType> iterators, GenericBody body) {
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ins, ValueRange{init}, maps,
             iterators,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, body(nb, l, args));
             })
      .getResult(0);
}

/// The element-wise generic writing body(src[i], init[i]) into init[i]
/// (identity maps, parallel loops).
Value elementwise(OpBuilder &b, Location loc, Value src, Value init,
                  GenericBody body) {
  unsigned rank = shapeOf(init).size();
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, b.getContext());
  return generic(b, loc, ValueRange{src}, init, {id, id},
                 SmallVector<utils::IteratorType>(rank, kPar), body);
}

/// The accumulator of a reduction: `init` itself when its element type is
/// the accumulation type (the destination is never read, so filling it is
/// fine), otherwise a new tensor of the accumulation type; filled with
/// `value`.
Value accumulator(OpBuilder &b, Location loc, Value init, Type acc,
                  Value value) {
  if (elementType(init) == acc)
    return linalg::FillOp::create(b, loc, ValueRange{value}, ValueRange{init})
        .getResult(0);
  return filledTensor(b, loc, shapeOf(init), acc, value);
}

/// Multiply-accumulate body: out + ext(a) * ext(b), in the type of out.
Value macBody(OpBuilder &b, Location loc, ValueRange args) {
  Type acc = args[2].getType();
  Value x = convertFloat(b, loc, args[0], acc);
  Value w = convertFloat(b, loc, args[1], acc);
  Value prod = arith::MulFOp::create(b, loc, x, w);
  return arith::AddFOp::create(b, loc, args[2], prod);
}

/// `x` padded spatially by `pad` (top, bottom, left, right) with zeros.
Value zeroPadded(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> pad) {
  return padSpatial(b, loc, x, pad[0], pad[1], pad[2], pad[3],
                    zeroAttr(b, elementType(x)));
}

/// The zero accumulator of a reduction into `init` (see accumulator).
Value zeroAccumulator(OpBuilder &b, Location loc, Value init, Type acc) {
  return accumulator(b, loc, init, acc, floatConstant(b, loc, acc, 0.0));
}

/// The multiply-accumulate of a window op over the loops of `iterators`:
/// `acc` (the accumulator) plus the products lhs[maps[0]] * rhs[maps[1]]
/// summed over the reduction loops; maps[2] indexes the accumulator.
Value windowMac(OpBuilder &b, Location loc, Value lhs, Value rhs, Value acc,
                ArrayRef<SmallVector<AffineExpr>> maps,
                ArrayRef<utils::IteratorType> iterators) {
  return generic(b, loc, ValueRange{lhs, rhs}, acc,
                 affineMaps(b.getContext(), iterators.size(), maps), iterators,
                 macBody);
}

/// Writes the rank-4 accumulator `sum` into `init`: adds the optional
/// per-channel `bias` (channel = last dimension) and applies the optional
/// activation in the accumulation type, and rounds once to the
/// destination's element type. Returns `sum` when there is nothing to do
/// (it then already lives in `init`).
Value finishConv(OpBuilder &b, Location loc, Value sum, Value bias, Value init,
                 std::optional<dwc::Activation> act = std::nullopt) {
  Type outElt = elementType(init);
  bool inPlace = elementType(sum) == outElt;
  if (!bias && !act && inPlace)
    return sum;
  MLIRContext *ctx = b.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(4, ctx);
  // When the sum already has the destination's type it is updated in place
  // (it lives in `init`); otherwise it is read and rounded into `init`.
  SmallVector<Value> ins;
  SmallVector<AffineMap> maps;
  if (!inPlace) {
    ins.push_back(sum);
    maps.push_back(id);
  }
  if (bias) {
    ins.push_back(bias);
    maps.push_back(AffineMap::get(4, 0, {getAffineDimExpr(3, ctx)}, ctx));
  }
  maps.push_back(id);
  Value dest = inPlace ? sum : init;
  return generic(b, loc, ins, dest, maps,
                 SmallVector<utils::IteratorType>(4, kPar),
                 [&](OpBuilder &nb, Location l, ValueRange args) {
                   // args: [sum,] [bias,] out
                   Value v = inPlace ? args.back() : args[0];
                   if (bias)
                     v = arith::AddFOp::create(
                         nb, l, v,
                         convertFloat(nb, l, args[inPlace ? 0 : 1],
                                      v.getType()));
                   v = dwc::applyActivation(nb, l, v, act);
                   return convertFloat(nb, l, v, outElt);
                 });
}

/// The prologue of a fused depthwise convolution: input_activation(X +
/// input_bias) in the accumulation type, before the zero padding (the
/// padding belongs to the activated tensor).
Value applyPrologue(OpBuilder &b, Location loc, Value x, Value inBias,
                    std::optional<dwc::Activation> act, Type acc) {
  MLIRContext *ctx = b.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(4, ctx);
  SmallVector<Value> ins{x};
  SmallVector<AffineMap> maps{id};
  if (inBias) {
    ins.push_back(inBias);
    maps.push_back(AffineMap::get(4, 0, {getAffineDimExpr(3, ctx)}, ctx));
  }
  maps.push_back(id);
  Value dest = tensor::EmptyOp::create(b, loc, shapeOf(x), acc);
  return generic(b, loc, ins, dest, maps,
                 SmallVector<utils::IteratorType>(4, kPar),
                 [&](OpBuilder &nb, Location l, ValueRange args) {
                   Value v = convertFloat(nb, l, args[0], acc);
                   if (inBias)
                     v = arith::AddFOp::create(
                         nb, l, v, convertFloat(nb, l, args[1], acc));
                   return dwc::applyActivation(nb, l, v, act);
                 });
}

/// Rounds a rank-N accumulator into `init` (element-wise copy with truncf);
/// returns `sum` when the types already agree.
Value roundInto(OpBuilder &b, Location loc, Value sum, Value init) {
  Type outElt = elementType(init);
  if (elementType(sum) == outElt)
    return sum;
  return elementwise(b, loc, sum, init,
                     [&](OpBuilder &nb, Location l, ValueRange args) {
                       return convertFloat(nb, l, args[0], outElt);
                     });
}

/// The window tap kh * KW + kw of a pooling generic whose loops 4 and 5 are
/// (kh, kw), as an i32.
Value windowTapI32(OpBuilder &nb, Location l, int64_t kw) {
  Value t = arith::AddIOp::create(
      nb, l,
      arith::MulIOp::create(nb, l, linalg::IndexOp::create(nb, l, 4),
                            arith::ConstantIndexOp::create(nb, l, kw)),
      linalg::IndexOp::create(nb, l, 5));
  return arith::IndexCastOp::create(nb, l, nb.getI32Type(), t);
}

/// Placement of a gradient (dY, or the pooling windows' shares) along one
/// spatial dimension of the spread tensor P of the gather forms: the first
/// kept index `first`, the number kept `count`, their offset in P and P's
/// extent.
struct Placement {
  int64_t first, count, offset, extent;
};
Placement place(int64_t outSize, int64_t inSize, int64_t window,
                int64_t stride, int64_t dilation, int64_t padBefore) {
  Placement p;
  p.extent = inSize + (window - 1) * dilation;
  int64_t base = (window - 1) * dilation - padBefore;
  p.first = base >= 0 ? 0 : llvm::divideCeilSigned(-base, stride);
  int64_t last = std::min(
      outSize - 1, llvm::divideFloorSigned(p.extent - 1 - base, stride));
  p.count = std::max<int64_t>(0, last - p.first + 1);
  p.offset = base + p.first * stride;
  return p;
}

/// Inserts the kept rows and columns of the N x H x W x C tensor `src` into
/// `p` at the placements `ph`, `pw`, spread by the strides `st`.
Value insertSpread(OpBuilder &b, Location loc, Value src, Value p,
                   Placement ph, Placement pw, ArrayRef<int64_t> st) {
  auto s = shapeOf(src);
  SmallVector<OpFoldResult> sizes = {
      b.getIndexAttr(s[0]), b.getIndexAttr(ph.count), b.getIndexAttr(pw.count),
      b.getIndexAttr(s[3])};
  SmallVector<OpFoldResult> ones(4, b.getIndexAttr(1));
  if (ph.first != 0 || ph.count != s[1] || pw.first != 0 || pw.count != s[2])
    src = tensor::ExtractSliceOp::create(
        b, loc, src,
        SmallVector<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(ph.first),
                                  b.getIndexAttr(pw.first), b.getIndexAttr(0)},
        sizes, ones);
  return tensor::InsertSliceOp::create(
      b, loc, src, p,
      SmallVector<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(ph.offset),
                                b.getIndexAttr(pw.offset), b.getIndexAttr(0)},
      sizes,
      SmallVector<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(st[0]),
                                b.getIndexAttr(st[1]), b.getIndexAttr(1)});
}

/// The channel multiplier's view of a tensor whose last dimension holds
/// C*M channels: that dimension split into (C, M), so that channel c*M + m
/// is element (c, m) and the generics index it with plain loop dimensions.
Value splitChannels(OpBuilder &b, Location loc, Value v, int64_t m) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape(type.getShape());
  int64_t channels = shape.back();
  shape.back() = channels / m;
  shape.push_back(m);
  SmallVector<ReassociationIndices> groups;
  for (int64_t i = 0, r = type.getRank(); i < r - 1; ++i)
    groups.push_back({i});
  groups.push_back({type.getRank() - 1, type.getRank()});
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), v, groups);
}

/// The inverse of splitChannels: (C, M) merged back into C*M channels.
Value mergeChannels(OpBuilder &b, Location loc, Value v) {
  int64_t rank = cast<RankedTensorType>(v.getType()).getRank();
  SmallVector<ReassociationIndices> groups;
  for (int64_t i = 0; i < rank - 2; ++i)
    groups.push_back({i});
  groups.push_back({rank - 2, rank - 1});
  return tensor::CollapseShapeOp::create(b, loc, v, groups);
}

/// Base of the patterns: refuses (the pass has already diagnosed) the
/// memref form.
template <typename OpTy>
struct DwcLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    if (op->getNumResults() != 1)
      return rewriter.notifyMatchFailure(op, "memref form");
    Value result = lower(op, adaptor, rewriter);
    if (!result)
      return failure();
    rewriter.replaceOp(op, result);
    return success();
  }
  virtual Value lower(OpTy op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const = 0;
};

//===----------------------------------------------------------------------===//
// depthwise_conv2d
//===----------------------------------------------------------------------===//

/// Y[n,oh,ow,c] = bias[c] + sum_{fh,fw} Xpad[n, oh*sh+fh*dh, ow*sw+fw*dw, c]
///                                      * W[fh,fw,c]
/// (with channel_multiplier M, output channel c*M + m reads input channel c).
struct DepthwiseConvLowering : DwcLowering<dwc::DepthwiseConv2DOp> {
  using DwcLowering::DwcLowering;
  Value lower(dwc::DepthwiseConv2DOp op, OpAdaptor adaptor,
              ConversionPatternRewriter &b) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = b.getContext();
    auto st = op.getStrides(), dl = op.getDilations(), pad = op.getPadding();
    Value x = adaptor.getInput();
    if (adaptor.getInputBias() || op.getInputActivation())
      x = applyPrologue(b, loc, x, adaptor.getInputBias(),
                        op.getInputActivation(), op.getAccType());
    Value xp = zeroPadded(b, loc, x, pad);
    Value init = zeroAccumulator(b, loc, adaptor.getInit(), op.getAccType());
    Value sum;
    if (int64_t m = op.getMultiplier(); m > 1) {
      sum = multiplierSum(b, loc, xp, adaptor.getFilter(), init, m, st, dl);
    } else {
      // Loops (n, oh, ow, c, fh, fw).
      AffineExpr n, oh, ow, c, fh, fw;
      bindDims(ctx, n, oh, ow, c, fh, fw);
      sum = windowMac(
          b, loc, xp, adaptor.getFilter(), init,
          {{n, oh * st[0] + fh * dl[0], ow * st[1] + fw * dl[1], c},
           {fh, fw, c},
           {n, oh, ow, c}},
          {kPar, kPar, kPar, kPar, kRed, kRed});
    }
    return finishConv(b, loc, sum, adaptor.getBias(), adaptor.getInit(),
                      op.getActivation());
  }

  /// The sums of channel_multiplier M > 1 (the bias and activation follow
  /// in finishConv on the merged channels):
  /// Y[n,oh,ow,c,m] += Xpad[n, oh*sh+fh*dh, ow*sw+fw*dw, c] * W[fh,fw,c,m]
  /// on the (C, M) views of W and of the accumulator.
  static Value multiplierSum(OpBuilder &b, Location loc, Value xp, Value w,
                             Value init, int64_t m, ArrayRef<int64_t> st,
                             ArrayRef<int64_t> dl) {
    // Loops (n, oh, ow, c, m, fh, fw).
    AffineExpr n, oh, ow, c, mm, fh, fw;
    bindDims(b.getContext(), n, oh, ow, c, mm, fh, fw);
    Value sum = windowMac(
        b, loc, xp, splitChannels(b, loc, w, m), splitChannels(b, loc, init, m),
        {{n, oh * st[0] + fh * dl[0], ow * st[1] + fw * dl[1], c},
         {fh, fw, c, mm},
         {n, oh, ow, c, mm}},
        {kPar, kPar, kPar, kPar, kPar, kRed, kRed});
    return mergeChannels(b, loc, sum);
  }
};

//===----------------------------------------------------------------------===//
// depthwise_conv2d_backward_data
//===----------------------------------------------------------------------===//

/// dX[n,ih,iw,c] = sum over oh*sh + fh*dh - pt == ih, ow*sw + fw*dw - pl == iw
///                 of dY[n,oh,ow,c] * W[fh,fw,c].
///
/// dY is spread by the strides (zeros between rows/columns) and placed in a
/// zero tensor P of extent IH + (FH-1)*dh (likewise W) so that
///   dX[n,ih,iw,c] = sum_{fh,fw} P[n, ih + (FH-1-fh)*dh, iw + (FW-1-fw)*dw, c]
///                               * W[fh,fw,c],
/// a stride-1 correlation with the 180-degree rotated filter. Row oh of dY
/// lands at P row (FH-1)*dh - pt + oh*sh; rows falling outside P only feed
/// positions outside dX and are dropped.
struct BackwardDataLowering : DwcLowering<dwc::DepthwiseConv2DBackwardDataOp> {
  using DwcLowering::DwcLowering;

  Value lower(dwc::DepthwiseConv2DBackwardDataOp op, OpAdaptor adaptor,
              ConversionPatternRewriter &b) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = b.getContext();
    auto st = op.getStrides(), dl = op.getDilations(), pad = op.getPadding();
    Value dy = adaptor.getOutputGrad();
    Type elt = elementType(dy);
    Type acc = op.getAccType();
    auto dyShape = shapeOf(dy);
    auto dxShape = shapeOf(adaptor.getInit());
    auto fShape = shapeOf(adaptor.getFilter());
    Placement ph = place(dyShape[1], dxShape[1], fShape[0], st[0], dl[0], pad[0]);
    Placement pw = place(dyShape[2], dxShape[2], fShape[1], st[1], dl[1], pad[2]);
    Value p;
    bool whole = ph.first == 0 && ph.count == dyShape[1] && pw.first == 0 &&
                 pw.count == dyShape[2];
    if (whole && st[0] == 1 && st[1] == 1) {
      // Unit strides, nothing dropped: a plain zero pad.
      p = padSpatial(b, loc, dy, ph.offset, ph.extent - ph.offset - ph.count,
                     pw.offset, pw.extent - pw.offset - pw.count,
                     zeroAttr(b, elt));
    } else {
      p = filledTensor(b, loc, {dyShape[0], ph.extent, pw.extent, dyShape[3]},
                       elt, floatConstant(b, loc, elt, 0.0));
      if (ph.count > 0 && pw.count > 0)
        p = insertSpread(b, loc, dy, p, ph, pw, st);
    }

    Value init = zeroAccumulator(b, loc, adaptor.getInit(), acc);
    int64_t rh = (fShape[0] - 1) * dl[0], rw = (fShape[1] - 1) * dl[1];
    Value sum;
    if (int64_t m = op.getMultiplier(); m > 1) {
      sum = multiplierSum(b, loc, p, adaptor.getFilter(), init, m, rh, rw, dl);
    } else {
      // Loops (n, ih, iw, c, fh, fw).
      AffineExpr n, ih, iw, c, fh, fw;
      bindDims(ctx, n, ih, iw, c, fh, fw);
      sum = windowMac(
          b, loc, p, adaptor.getFilter(), init,
          {{n, ih + rh - fh * dl[0], iw + rw - fw * dl[1], c},
           {fh, fw, c},
           {n, ih, iw, c}},
          {kPar, kPar, kPar, kPar, kRed, kRed});
    }
    return roundInto(b, loc, sum, adaptor.getInit());
  }

  /// The sums of channel_multiplier M > 1: each input channel gathers its
  /// M outputs, on the (C, M) views of P and W, loops
  /// (n, ih, iw, c, m, fh, fw) with m reduced.
  static Value multiplierSum(OpBuilder &b, Location loc, Value p, Value w,
                             Value init, int64_t m, int64_t rh, int64_t rw,
                             ArrayRef<int64_t> dl) {
    AffineExpr n, ih, iw, c, mm, fh, fw;
    bindDims(b.getContext(), n, ih, iw, c, mm, fh, fw);
    return windowMac(
        b, loc, splitChannels(b, loc, p, m), splitChannels(b, loc, w, m), init,
        {{n, ih + rh - fh * dl[0], iw + rw - fw * dl[1], c, mm},
         {fh, fw, c, mm},
         {n, ih, iw, c}},
        {kPar, kPar, kPar, kPar, kRed, kRed, kRed});
  }
};

//===----------------------------------------------------------------------===//
// depthwise_conv2d_backward_filter
//===----------------------------------------------------------------------===//

/// dW[fh,fw,c] = sum_{n,oh,ow} Xpad[n, oh*sh+fh*dh, ow*sw+fw*dw, c]
///                             * dY[n,oh,ow,c], summed in f32.
struct BackwardFilterLowering
    : DwcLowering<dwc::DepthwiseConv2DBackwardFilterOp> {
  using DwcLowering::DwcLowering;
  Value lower(dwc::DepthwiseConv2DBackwardFilterOp op, OpAdaptor adaptor,
              ConversionPatternRewriter &b) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = b.getContext();
    auto st = op.getStrides(), dl = op.getDilations(), pad = op.getPadding();
    Value xp = zeroPadded(b, loc, adaptor.getInput(), pad);
    Value init = zeroAccumulator(b, loc, adaptor.getInit(), op.getAccType());
    Value sum;
    if (int64_t m = op.getMultiplier(); m > 1) {
      sum = multiplierSum(b, loc, xp, adaptor.getOutputGrad(), init, m, st, dl);
    } else {
      // Loops (fh, fw, c, n, oh, ow).
      AffineExpr fh, fw, c, n, oh, ow;
      bindDims(ctx, fh, fw, c, n, oh, ow);
      sum = windowMac(
          b, loc, xp, adaptor.getOutputGrad(), init,
          {{n, oh * st[0] + fh * dl[0], ow * st[1] + fw * dl[1], c},
           {n, oh, ow, c},
           {fh, fw, c}},
          {kPar, kPar, kPar, kRed, kRed, kRed});
    }
    return roundInto(b, loc, sum, adaptor.getInit());
  }

  /// The sums of channel_multiplier M > 1: filter channel (c, m) pairs input
  /// channel c with output channel (c, m), on the (C, M) views of dY and dW,
  /// loops (fh, fw, c, m, n, oh, ow).
  static Value multiplierSum(OpBuilder &b, Location loc, Value xp, Value dy,
                             Value init, int64_t m, ArrayRef<int64_t> st,
                             ArrayRef<int64_t> dl) {
    AffineExpr fh, fw, c, mm, n, oh, ow;
    bindDims(b.getContext(), fh, fw, c, mm, n, oh, ow);
    Value sum = windowMac(
        b, loc, xp, splitChannels(b, loc, dy, m), splitChannels(b, loc, init, m),
        {{n, oh * st[0] + fh * dl[0], ow * st[1] + fw * dl[1], c},
         {n, oh, ow, c, mm},
         {fh, fw, c, mm}},
        {kPar, kPar, kPar, kPar, kRed, kRed, kRed});
    return mergeChannels(b, loc, sum);
  }
};

/// dB[c] = sum_{n,oh,ow} dY[n,oh,ow,c] in the accumulation type, rounded
/// once into dB's type.
struct BackwardBiasLowering : DwcLowering<dwc::Conv2DBackwardBiasOp> {
  using DwcLowering::DwcLowering;
  Value lower(dwc::Conv2DBackwardBiasOp op, OpAdaptor adaptor,
              ConversionPatternRewriter &b) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = b.getContext();
    Type acc = op.getAccType();
    Value init = zeroAccumulator(b, loc, adaptor.getInit(), acc);
    // Loops (c, n, oh, ow).
    AffineExpr c, n, oh, ow;
    bindDims(ctx, c, n, oh, ow);
    Value sum = generic(b, loc, ValueRange{adaptor.getOutputGrad()}, init,
                        affineMaps(ctx, 4, {{n, oh, ow, c}, {c}}),
                        {kPar, kRed, kRed, kRed},
                        [&](OpBuilder &nb, Location l, ValueRange args) {
                          Value v = convertFloat(nb, l, args[0], acc);
                          return arith::AddFOp::create(nb, l, args[1], v);
                        });
    return roundInto(b, loc, sum, adaptor.getInit());
  }
};

//===----------------------------------------------------------------------===//
// pool2d
//===----------------------------------------------------------------------===//

/// Max: the input is padded with -inf (and, for a ceil-mode overhang, further
/// on the bottom/right) and reduced with arith.maximumf; every window holds
/// an input element, so padding never wins.
/// Avg: zero padding, the window sum in `acc`, then an element-wise generic
/// divides by the per-position divisor computed from linalg.index:
///   count_include_pad: |[oh*sh - pt, oh*sh - pt + KH) ∩ [-pt, IH + pb)|
///   otherwise:         |[oh*sh - pt, oh*sh - pt + KH) ∩ [0, IH)|
/// times the same along the width.
struct Pool2DLowering : DwcLowering<dwc::Pool2DOp> {
  using DwcLowering::DwcLowering;
  Value lower(dwc::Pool2DOp op, OpAdaptor adaptor,
              ConversionPatternRewriter &b) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = b.getContext();
    auto win = op.getWindow(), st = op.getStrides(), pad = op.getPadding();
    Value x = adaptor.getInput();
    Type elt = elementType(x);
    auto in = shapeOf(x);
    auto out = shapeOf(adaptor.getInit());
    bool isMax = op.getKind() == dwc::PoolKind::Max;
    Value xp = poolPadded(b, loc, x, out, win, st, pad,
                          isMax ? negInfAttr(b, elt) : zeroAttr(b, elt));
    Type acc = isMax ? elt : op.getAccType();
    Value init = accumulator(b, loc, adaptor.getInit(), acc,
                             arith::ConstantOp::create(
                                 b, loc,
                                 isMax ? negInfAttr(b, acc) : zeroAttr(b, acc)));
    // The window operand only gives the (kh, kw) loops their extent.
    Value window = tensor::EmptyOp::create(b, loc, win, acc);
    // Loops (n, oh, ow, c, kh, kw).
    AffineExpr n, oh, ow, c, kh, kw;
    bindDims(ctx, n, oh, ow, c, kh, kw);
    Value red = generic(
        b, loc, ValueRange{xp, window}, init,
        affineMaps(ctx, 6,
                   {{n, oh * st[0] + kh, ow * st[1] + kw, c},
                    {kh, kw},
                    {n, oh, ow, c}}),
        {kPar, kPar, kPar, kPar, kRed, kRed},
        [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
          Value v = convertFloat(nb, l, args[0], acc);
          if (isMax)
            return arith::MaximumFOp::create(nb, l, args[2], v);
          return arith::AddFOp::create(nb, l, args[2], v);
        });
    std::optional<dwc::Activation> act = op.getActivation();
    if (isMax && !act)
      return red;
    if (isMax)
      return elementwise(b, loc, red, adaptor.getInit(),
                         [&](OpBuilder &nb, Location l, ValueRange args) {
                           return dwc::applyActivation(nb, l, args[0], act);
                         });

    bool includePad = op.getCountIncludePad();
    Type outElt = elementType(adaptor.getInit());
    return elementwise(
        b, loc, red, adaptor.getInit(),
        [&](OpBuilder &nb, Location l, ValueRange args) {
          Value divisor = poolDivisor(nb, l, acc, win, st, pad, in, includePad);
          Value avg = arith::DivFOp::create(nb, l, args[0], divisor);
          avg = dwc::applyActivation(nb, l, avg, act);
          return convertFloat(nb, l, avg, outElt);
        });
  }
};

//===----------------------------------------------------------------------===//
// global_avg_pool
//===----------------------------------------------------------------------===//

/// Y[n,0,0,c] = (sum_{h,w} X[n,h,w,c]) / (H*W), summed in `acc`.
struct GlobalAvgPoolLowering : DwcLowering<dwc::GlobalAvgPoolOp> {
  using DwcLowering::DwcLowering;
  Value lower(dwc::GlobalAvgPoolOp op, OpAdaptor adaptor,
              ConversionPatternRewriter &b) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = b.getContext();
    Value x = adaptor.getInput();
    auto in = shapeOf(x);
    Type acc = op.getAccType();
    Type outElt = elementType(adaptor.getInit());
    Value sumInit = filledTensor(b, loc, {in[0], in[3]}, acc,
                                 floatConstant(b, loc, acc, 0.0));
    // Loops (n, c, h, w).
    AffineExpr n, c, h, w;
    bindDims(ctx, n, c, h, w);
    Value sum = generic(b, loc, ValueRange{x}, sumInit,
                        affineMaps(ctx, 4, {{n, h, w, c}, {n, c}}),
                        {kPar, kPar, kRed, kRed},
                        [&](OpBuilder &nb, Location l, ValueRange args) {
                          Value v = convertFloat(nb, l, args[0], acc);
                          return arith::AddFOp::create(nb, l, args[1], v);
                        });
    // Loops (n, 0, 0, c) of the N x 1 x 1 x C result.
    Value count = floatConstant(b, loc, acc, double(in[1] * in[2]));
    AffineMap nc = AffineMap::get(
        4, 0, {getAffineDimExpr(0, ctx), getAffineDimExpr(3, ctx)}, ctx);
    return generic(b, loc, ValueRange{sum}, adaptor.getInit(),
                   {nc, AffineMap::getMultiDimIdentityMap(4, ctx)},
                   SmallVector<utils::IteratorType>(4, kPar),
                   [&](OpBuilder &nb, Location l, ValueRange args) {
                     Value avg = arith::DivFOp::create(nb, l, args[0], count);
                     return convertFloat(nb, l, avg, outElt);
                   });
  }
};

//===----------------------------------------------------------------------===//
// pool2d_backward
//===----------------------------------------------------------------------===//

/// Gather form of the pooling gradient. Each window (oh, ow) contributes
/// G[n, oh, ow, c] at tap (kh, kw) to dX[n, oh*sh - pt + kh, ow*sw - pl + kw, c]:
///   max: G = dY at the window's argmax tap (first maximum over the taps
///        inside the input, row-major), nothing at the other taps;
///   avg: G = dY / divisor(oh, ow) at every tap (computed in `acc`).
/// As for the convolution data gradient, G (and for max the argmax tap, -1
/// where there is no window) is spread by the strides into a tensor P of
/// extent IH + KH - 1 (likewise W), window (oh, ow) at P row KH-1-pt+oh*sh,
/// so that
///   dX[n,ih,iw,c] = sum_{kh,kw} P[n, ih + KH-1-kh, iw + KW-1-kw, c]
///                   (max: only where Pidx[...] == kh*KW + kw),
/// a stride-1 reduction summed in `acc` and rounded once.
struct Pool2DBackwardLowering : DwcLowering<dwc::Pool2DBackwardOp> {
  using DwcLowering::DwcLowering;

  /// Spreads the N x OH x OW x C tensor `src` into a `fill`-filled tensor of
  /// extent N x (IH + KH - 1) x (IW + KW - 1) x C (see above).
  static Value spread(OpBuilder &b, Location loc, Value src,
                      ArrayRef<int64_t> in, ArrayRef<int64_t> win,
                      ArrayRef<int64_t> st, ArrayRef<int64_t> pad,
                      TypedAttr fill) {
    auto s = shapeOf(src);
    Placement ph = place(s[1], in[1], win[0], st[0], 1, pad[0]);
    Placement pw = place(s[2], in[2], win[1], st[1], 1, pad[2]);
    Value p = filledTensor(b, loc, {s[0], ph.extent, pw.extent, s[3]},
                           fill.getType(),
                           arith::ConstantOp::create(b, loc, fill));
    if (ph.count <= 0 || pw.count <= 0)
      return p;
    return insertSpread(b, loc, src, p, ph, pw, st);
  }

  /// Max pooling: the argmax tap kh*KW + kw of every window (i32, -1 where
  /// the window has no input element).
  Value argmaxTaps(dwc::Pool2DBackwardOp op, Value x, ArrayRef<int64_t> in,
                   ArrayRef<int64_t> out, ConversionPatternRewriter &b) const {
    Location loc = op.getLoc();
    MLIRContext *ctx = b.getContext();
    auto win = op.getWindow(), st = op.getStrides(), pad = op.getPadding();
    Type elt = elementType(x);
    Type i32 = b.getI32Type();
    // Loops (n, oh, ow, c, kh, kw); taps outside the input are skipped
    // by index (the pad value never takes part), ties keep the smaller
    // tap, so the result does not depend on the iteration order.
    Value xp = poolPadded(b, loc, x, out, win, st, pad, negInfAttr(b, elt));
    Value maxInit = filledTensor(b, loc, out, elt,
                                 arith::ConstantOp::create(b, loc, negInfAttr(b, elt)));
    Value tapInit = filledTensor(b, loc, out, i32,
                                 arith::ConstantOp::create(
                                     b, loc, b.getI32IntegerAttr(-1)));
    Value window = tensor::EmptyOp::create(b, loc, win, elt);
    AffineExpr n, oh, ow, c, kh, kw;
    bindDims(ctx, n, oh, ow, c, kh, kw);
    SmallVector<AffineMap> maps = affineMaps(
        ctx, 6,
        {{n, oh * st[0] + kh, ow * st[1] + kw, c},
         {kh, kw},
         {n, oh, ow, c},
         {n, oh, ow, c}});
    auto argmax = linalg::GenericOp::create(
        b, loc, TypeRange{maxInit.getType(), tapInit.getType()},
        ValueRange{xp, window}, ValueRange{maxInit, tapInit}, maps,
        SmallVector<utils::IteratorType>{kPar, kPar, kPar, kPar, kRed, kRed},
        [&](OpBuilder &nb, Location l, ValueRange args) {
          auto cst = [&](int64_t v) -> Value {
            return arith::ConstantIndexOp::create(nb, l, v);
          };
          // 0 <= o*s - p + k < size
          auto inside = [&](unsigned oDim, unsigned kDim, int64_t s,
                            int64_t p, int64_t size) -> Value {
            Value pos = arith::AddIOp::create(
                nb, l,
                arith::MulIOp::create(nb, l,
                                      linalg::IndexOp::create(nb, l, oDim),
                                      cst(s)),
                linalg::IndexOp::create(nb, l, kDim));
            Value ge = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sge,
                                             pos, cst(p));
            Value lt = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt,
                                             pos, cst(p + size));
            return arith::AndIOp::create(nb, l, ge, lt);
          };
          Value valid = arith::AndIOp::create(
              nb, l, inside(1, 4, st[0], pad[0], in[1]),
              inside(2, 5, st[1], pad[2], in[2]));
          Value tI = windowTapI32(nb, l, win[1]);
          Value v = args[0], curV = args[2], curT = args[3];
          Value unset = arith::CmpIOp::create(
              nb, l, arith::CmpIPredicate::slt, curT,
              arith::ConstantOp::create(nb, l, nb.getI32IntegerAttr(0)));
          Value greater = arith::CmpFOp::create(
              nb, l, arith::CmpFPredicate::OGT, v, curV);
          Value equal = arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OEQ,
                                              v, curV);
          Value earlier = arith::CmpIOp::create(
              nb, l, arith::CmpIPredicate::slt, tI, curT);
          Value better = arith::OrIOp::create(
              nb, l, arith::OrIOp::create(nb, l, unset, greater),
              arith::AndIOp::create(nb, l, equal, earlier));
          better = arith::AndIOp::create(nb, l, valid, better);
          linalg::YieldOp::create(
              nb, l,
              ValueRange{arith::SelectOp::create(nb, l, better, v, curV),
                         arith::SelectOp::create(nb, l, better, tI, curT)});
        });
    return argmax.getResult(1);
  }

  /// Average pooling: dY / divisor in the accumulation type.
  Value averageShares(dwc::Pool2DBackwardOp op, Value dy, ArrayRef<int64_t> in,
                      ArrayRef<int64_t> out,
                      ConversionPatternRewriter &b) const {
    Location loc = op.getLoc();
    auto win = op.getWindow(), st = op.getStrides(), pad = op.getPadding();
    Type acc = op.getAccType();
    bool includePad = op.getCountIncludePad();
    Value gInit = tensor::EmptyOp::create(b, loc, out, acc);
    return elementwise(
        b, loc, dy, gInit, [&](OpBuilder &nb, Location l, ValueRange args) {
          Value d = poolDivisor(nb, l, acc, win, st, pad, in, includePad);
          Value v = convertFloat(nb, l, args[0], acc);
          return arith::DivFOp::create(nb, l, v, d);
        });
  }

  /// dX: every input position sums the spread window values `pg` of the
  /// windows holding it (max: only where `ptap` names its tap).
  Value gatherWindows(dwc::Pool2DBackwardOp op, OpAdaptor adaptor, Value pg,
                      Value ptap, ConversionPatternRewriter &b) const {
    Location loc = op.getLoc();
    MLIRContext *ctx = b.getContext();
    auto win = op.getWindow();
    Type acc = op.getAccType();
    bool isMax = op.getKind() == dwc::PoolKind::Max;
    Value init = zeroAccumulator(b, loc, adaptor.getInit(), acc);
    // Loops (n, ih, iw, c, kh, kw).
    AffineExpr n, ih, iw, c, kh, kw;
    bindDims(ctx, n, ih, iw, c, kh, kw);
    AffineMap pMap = AffineMap::get(
        6, 0, {n, ih + (win[0] - 1) - kh, iw + (win[1] - 1) - kw, c}, ctx);
    SmallVector<Value> ins = {pg};
    SmallVector<AffineMap> maps = {pMap};
    if (isMax) {
      ins.push_back(ptap);
      maps.push_back(pMap);
    }
    Value window = tensor::EmptyOp::create(b, loc, win, acc);
    ins.push_back(window);
    maps.push_back(AffineMap::get(6, 0, {kh, kw}, ctx));
    maps.push_back(AffineMap::get(6, 0, {n, ih, iw, c}, ctx));
    Value sum = generic(
        b, loc, ins, init, maps, {kPar, kPar, kPar, kPar, kRed, kRed},
        [&](OpBuilder &nb, Location l, ValueRange args) {
          Value v = convertFloat(nb, l, args[0], acc);
          if (isMax) {
            Value hit = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq,
                                              args[1],
                                              windowTapI32(nb, l, win[1]));
            v = arith::SelectOp::create(nb, l, hit, v,
                                        floatConstant(nb, l, acc, 0.0));
          }
          return arith::AddFOp::create(nb, l, args.back(), v);
        });
    return roundInto(b, loc, sum, adaptor.getInit());
  }

  Value lower(dwc::Pool2DBackwardOp op, OpAdaptor adaptor,
              ConversionPatternRewriter &b) const override {
    Location loc = op.getLoc();
    auto win = op.getWindow(), st = op.getStrides(), pad = op.getPadding();
    Value x = adaptor.getInput(), dy = adaptor.getOutputGrad();
    auto in = shapeOf(x);
    auto out = shapeOf(dy);
    bool isMax = op.getKind() == dwc::PoolKind::Max;
    // Per window: the value spread (max: dY, avg: dY / divisor in acc) and,
    // for max, the argmax tap.
    Value tap = isMax ? argmaxTaps(op, x, in, out, b) : Value();
    Value g = isMax ? dy : averageShares(op, dy, in, out, b);
    Value pg = spread(b, loc, g, in, win, st, pad,
                      zeroAttr(b, elementType(g)));
    Value ptap = isMax ? spread(b, loc, tap, in, win, st, pad,
                                b.getI32IntegerAttr(-1))
                       : Value();
    return gatherWindows(op, adaptor, pg, ptap, b);
  }
};

//===----------------------------------------------------------------------===//
// im2win
//===----------------------------------------------------------------------===//

/// R[n,oh,w,fh,c] = Xpad[n, oh*sh + fh*dh, w, c].
struct Im2winLowering : DwcLowering<dwc::Im2winOp> {
  using DwcLowering::DwcLowering;
  Value lower(dwc::Im2winOp op, OpAdaptor adaptor,
              ConversionPatternRewriter &b) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = b.getContext();
    auto st = op.getStrides(), dl = op.getDilations(), pad = op.getPadding();
    Value xp = zeroPadded(b, loc, adaptor.getInput(), pad);
    // Loops (n, oh, w, fh, c).
    AffineExpr n, oh, w, fh, c;
    bindDims(ctx, n, oh, w, fh, c);
    return generic(
        b, loc, ValueRange{xp}, adaptor.getInit(),
        affineMaps(ctx, 5, {{n, oh * st[0] + fh * dl[0], w, c},
                            {n, oh, w, fh, c}}),
        SmallVector<utils::IteratorType>(5, kPar),
        [](OpBuilder &, Location, ValueRange args) { return args[0]; });
  }
};

//===----------------------------------------------------------------------===//
// conv2d
//===----------------------------------------------------------------------===//

/// Y[n,oh,ow,oc] = bias[oc] + sum_{fh,fw,c}
///     Xpad[n, oh*sh+fh*dh, ow*sw+fw*dw, c] * W[fh,fw,c,oc]
struct Conv2DLowering : DwcLowering<dwc::Conv2DOp> {
  using DwcLowering::DwcLowering;
  Value lower(dwc::Conv2DOp op, OpAdaptor adaptor,
              ConversionPatternRewriter &b) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = b.getContext();
    auto st = op.getStrides(), dl = op.getDilations(), pad = op.getPadding();
    Value xp = zeroPadded(b, loc, adaptor.getInput(), pad);
    Value init = zeroAccumulator(b, loc, adaptor.getInit(), op.getAccType());
    // Loops (n, oh, ow, oc, fh, fw, c).
    AffineExpr n, oh, ow, oc, fh, fw, c;
    bindDims(ctx, n, oh, ow, oc, fh, fw, c);
    Value sum = windowMac(
        b, loc, xp, adaptor.getFilter(), init,
        {{n, oh * st[0] + fh * dl[0], ow * st[1] + fw * dl[1], c},
         {fh, fw, c, oc},
         {n, oh, ow, oc}},
        {kPar, kPar, kPar, kPar, kRed, kRed, kRed});
    return finishConv(b, loc, sum, adaptor.getBias(), adaptor.getInit());
  }
};

struct ConvertDwcToLinalgPass
    : dwc::impl::ConvertDwcToLinalgBase<ConvertDwcToLinalgPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    // The memref form has no value semantics to rewrite into linalg on
    // tensors: diagnose every such op.
    bool memrefForm = false;
    getOperation()->walk([&](Operation *op) {
      if (!isa_and_nonnull<dwc::DwcDialect>(op->getDialect()))
        return;
      if (llvm::any_of(op->getOperandTypes(),
                       [](Type t) { return isa<BaseMemRefType>(t); })) {
        op->emitOpError("expects tensor operands; run before bufferization");
        memrefForm = true;
      }
    });
    if (memrefForm)
      return signalPassFailure();

    RewritePatternSet patterns(ctx);
    patterns.add<DepthwiseConvLowering, BackwardDataLowering,
                 BackwardFilterLowering, BackwardBiasLowering, Pool2DLowering,
                 GlobalAvgPoolLowering, Im2winLowering, Conv2DLowering, Pool2DBackwardLowering>(ctx);
    ConversionTarget target(*ctx);
    target.addIllegalDialect<dwc::DwcDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
