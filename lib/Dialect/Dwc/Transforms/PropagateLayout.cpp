//===- PropagateLayout.cpp - move and cancel layout transposes -------------===//
//
// The dwc-propagate-layout pass. Raising NCHW programs puts a
// linalg.transpose to NHWC before and one back to NCHW after every dwc op;
// between two dwc ops there are usually only element-wise linalg.generic
// ops (batch norm, activations, residual additions). This pass sinks each
// transpose below the element-wise ops it feeds (the generic is re-indexed to
// iterate in the transpose's source layout), so that the transpose back to
// NCHW meets the next op's transpose to NHWC and both cancel. Transposes of
// constants (weights) fold into new constants.
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_DWCPROPAGATELAYOUT
#include "dwc/Dialect/Dwc/Transforms/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;

namespace {

/// The transpose that produces `v` in tensor form, or null.
linalg::TransposeOp getTranspose(Value v) {
  auto t = v.getDefiningOp<linalg::TransposeOp>();
  if (!t || !t.hasPureTensorSemantics())
    return nullptr;
  return t;
}

/// `v` transposed by `perm` (result dimension i is dimension perm[i] of v),
/// into a fresh tensor.empty.
Value transposeBy(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(v.getType());
  Value empty = tensor::EmptyOp::create(
      b, loc, applyPermutation(type.getShape(), perm), type.getElementType());
  return linalg::TransposeOp::create(b, loc, v, empty, perm)->getResult(0);
}

/// The offsets, sizes and strides of a slice op, each permuted by `perm`.
struct SliceParams {
  SmallVector<OpFoldResult> offsets, sizes, strides;
};
SliceParams permutedSlice(OffsetSizeAndStrideOpInterface op,
                          ArrayRef<int64_t> perm) {
  return {applyPermutation(op.getMixedOffsets(), perm),
          applyPermutation(op.getMixedSizes(), perm),
          applyPermutation(op.getMixedStrides(), perm)};
}

/// An element-wise generic consuming `transpose(x, perm)` through an identity
/// map is rewritten to iterate in x's layout: every operand map is composed
/// with the permutation, operands that are transposes by the same `perm`
/// are replaced by their sources, linalg.index ops are renumbered, and the
/// result is transposed by `perm` for the old users.
struct SinkTransposeThroughElementwise : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  static bool isSinkable(linalg::GenericOp op) {
    if (!op.hasPureTensorSemantics() || op->getNumResults() != 1 ||
        op.getNumDpsInits() != 1 ||
        op.getNumParallelLoops() != op.getNumLoops())
      return false;
    OpOperand *init = op.getDpsInitOperand(0);
    // The payload must not read the destination: it is replaced by a fresh
    // tensor in the other layout.
    return op.getMatchingIndexingMap(init).isIdentity() &&
           op.getMatchingBlockArgument(init).use_empty();
  }

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!isSinkable(op))
      return failure();
    ArrayRef<int64_t> perm;
    for (OpOperand *in : op.getDpsInputOperands()) {
      linalg::TransposeOp t = getTranspose(in->get());
      if (t && op.getMatchingIndexingMap(in).isIdentity()) {
        perm = t.getPermutation();
        break;
      }
    }
    if (perm.empty())
      return rewriter.notifyMatchFailure(op, "no transposed operand");
    SmallVector<int64_t> permCopy(perm);
    MLIRContext *ctx = op.getContext();
    AffineMap permMap = AffineMap::getPermutationMap(permCopy, ctx);
    AffineMap identity = AffineMap::getMultiDimIdentityMap(perm.size(), ctx);

    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (OpOperand *in : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(in);
      linalg::TransposeOp t = getTranspose(in->get());
      if (t && map.isIdentity() && t.getPermutation() == ArrayRef(permCopy)) {
        inputs.push_back(t.getInput());
        maps.push_back(identity);
        continue;
      }
      inputs.push_back(in->get());
      maps.push_back(map.compose(permMap));
    }
    maps.push_back(identity);

    auto outType = cast<RankedTensorType>(op->getResult(0).getType());
    SmallVector<int64_t> shape(perm.size());
    for (auto [k, p] : llvm::enumerate(permCopy))
      shape[p] = outType.getDimSize(k);
    Location loc = op.getLoc();
    Value empty =
        tensor::EmptyOp::create(rewriter, loc, shape, outType.getElementType());
    auto sunk = linalg::GenericOp::create(
        rewriter, loc, TypeRange{empty.getType()}, inputs, ValueRange{empty},
        maps, op.getIteratorTypesArray());
    rewriter.cloneRegionBefore(op.getRegion(), sunk.getRegion(),
                               sunk.getRegion().end());
    // linalg.index k was loop d_k = e_perm[k] of the new iteration space.
    sunk.walk([&](linalg::IndexOp index) {
      index.setDim(permCopy[index.getDim()]);
    });
    rewriter.replaceOp(op,
                       transposeBy(rewriter, loc, sunk->getResult(0), permCopy));
    return success();
  }
};

/// A generic input `transpose(x, q)` read through a non-identity map `m`
/// reads x through `m` with its results permuted by q^-1 instead (after an
/// earlier sink left such a map; the composition is often the identity).
/// Identity maps are left to SinkTransposeThroughElementwise.
struct FoldTransposeIntoGenericMap : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return failure();
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    SmallVector<Value> inputs(op.getDpsInputs());
    bool changed = false;
    for (unsigned i = 0, e = inputs.size(); i < e; ++i) {
      linalg::TransposeOp t = getTranspose(inputs[i]);
      if (!t || maps[i].isIdentity())
        continue;
      ArrayRef<int64_t> q = t.getPermutation();
      SmallVector<AffineExpr> results(q.size());
      for (auto [k, qk] : llvm::enumerate(q))
        results[qk] = maps[i].getResult(k);
      maps[i] = AffineMap::get(maps[i].getNumDims(), 0, results,
                               op.getContext());
      inputs[i] = t.getInput();
      changed = true;
    }
    if (!changed)
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      op.getInputsMutable().assign(inputs);
      op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
    return success();
  }
};

/// tensor.concat of transposes by one permutation p -> the transpose by p
/// of the concatenation of their sources (along dim p[d]): inception
/// blocks concatenate the branches' channels.
struct SinkTransposeThroughConcat : OpRewritePattern<tensor::ConcatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ConcatOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Value> sources;
    ArrayRef<int64_t> perm;
    for (Value in : op.getInputs()) {
      linalg::TransposeOp t = getTranspose(in);
      if (!t || (!perm.empty() && t.getPermutation() != perm))
        return failure();
      perm = t.getPermutation();
      sources.push_back(t.getInput());
    }
    if (perm.empty())
      return failure();
    SmallVector<int64_t> permCopy(perm);
    Location loc = op.getLoc();
    Value cat = tensor::ConcatOp::create(rewriter, loc, permCopy[op.getDim()],
                                         sources);
    rewriter.replaceOp(op, transposeBy(rewriter, loc, cat, permCopy));
    return success();
  }
};

/// tensor.insert_slice of `transpose(x, p)` into `dest` -> the transpose by
/// p of x inserted into `transpose(dest, p^-1)` (offsets, sizes and strides
/// permuted): TOSA writes concatenations as chains of insert_slice, and the
/// transposes of the chain cancel link by link.
struct SinkTransposeThroughInsertSlice
    : OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::InsertSliceOp op,
                                PatternRewriter &rewriter) const override {
    linalg::TransposeOp t = getTranspose(op.getSource());
    auto destType = cast<RankedTensorType>(op.getDestType());
    if (!t || op.getSourceType().getRank() != destType.getRank() ||
        !destType.hasStaticShape())
      return failure();
    SmallVector<int64_t> perm(t.getPermutation());
    SmallVector<int64_t> inv = invertPermutationVector(perm);
    SliceParams p = permutedSlice(op, inv);
    Location loc = op.getLoc();
    Value dest = transposeBy(rewriter, loc, op.getDest(), inv);
    Value inserted = tensor::InsertSliceOp::create(
        rewriter, loc, t.getInput(), dest, p.offsets, p.sizes, p.strides);
    rewriter.replaceOp(op, transposeBy(rewriter, loc, inserted, perm));
    return success();
  }
};

/// tensor.extract_slice of `transpose(x, p)` (no rank reduction) -> the
/// transpose by p of the slice of x (offsets, sizes, strides permuted):
/// channel splits (torch.split, InceptionNeXt's branches) then keep the
/// transposes moving towards the next op.
struct SinkTransposeThroughExtractSlice
    : OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ExtractSliceOp op,
                                PatternRewriter &rewriter) const override {
    linalg::TransposeOp t = getTranspose(op.getSource());
    auto type = cast<RankedTensorType>(op.getType());
    if (!t || type.getRank() != op.getSourceType().getRank() ||
        !type.hasStaticShape())
      return failure();
    SmallVector<int64_t> perm(t.getPermutation());
    SliceParams p = permutedSlice(op, invertPermutationVector(perm));
    Location loc = op.getLoc();
    Value slice = tensor::ExtractSliceOp::create(rewriter, loc, t.getInput(),
                                                 p.offsets, p.sizes, p.strides);
    rewriter.replaceOp(op, transposeBy(rewriter, loc, slice, perm));
    return success();
  }
};

/// A linalg.generic that only copies its input through a permutation map
/// (StableHLO's transpose) -> linalg.transpose, which the patterns above
/// move and cancel.
struct GenericCopyToTranspose : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 1 ||
        op.getNumDpsInits() != 1 || op->getNumResults() != 1 ||
        op.getNumParallelLoops() != op.getNumLoops())
      return failure();
    Block *body = op.getBody();
    auto yield = cast<linalg::YieldOp>(body->getTerminator());
    auto maps = op.getIndexingMapsArray();
    if (body->getOperations().size() != 1 ||
        yield.getOperand(0) != body->getArgument(0) ||
        !maps[1].isIdentity() || !maps[0].isPermutation() ||
        maps[0].isIdentity())
      return failure();
    // out[d] = in[m(d)]: input dim j is loop m_j, so perm[m_j] = j.
    SmallVector<int64_t> perm(maps[0].getNumResults());
    for (unsigned j = 0; j < perm.size(); ++j)
      perm[maps[0].getDimPosition(j)] = j;
    rewriter.replaceOpWithNewOp<linalg::TransposeOp>(
        op, op.getDpsInputs()[0], op.getDpsInits()[0], perm);
    return success();
  }
};

/// transpose(tensor.empty) -> tensor.empty of the transposed shape.
struct FoldTransposeOfEmpty : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    if (!op.hasPureTensorSemantics() || !type.hasStaticShape() ||
        !op.getInput().getDefiningOp<tensor::EmptyOp>())
      return failure();
    rewriter.replaceOpWithNewOp<tensor::EmptyOp>(op, type.getShape(),
                                                 type.getElementType());
    return success();
  }
};

/// transpose(transpose(x, p1), p2) -> transpose(x, p1 o p2), or x when that
/// is the identity.
struct ComposeTransposes : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    linalg::TransposeOp inner = getTranspose(op.getInput());
    if (!op.hasPureTensorSemantics() || !inner)
      return failure();
    ArrayRef<int64_t> p1 = inner.getPermutation(), p2 = op.getPermutation();
    SmallVector<int64_t> composed;
    for (int64_t k : p2)
      composed.push_back(p1[k]);
    if (llvm::equal(composed, llvm::seq<int64_t>(0, composed.size()))) {
      rewriter.replaceOp(op, inner.getInput());
      return success();
    }
    rewriter.replaceOpWithNewOp<linalg::TransposeOp>(op, inner.getInput(),
                                                     op.getInit(), composed);
    return success();
  }
};

/// The raw little-endian bytes of a constant's elements (through reshapes,
/// which keep the order), or nullopt (elided resources, splats, packed
/// sub-byte types).
std::optional<ArrayRef<char>> getConstantBytes(Value v, int64_t &elemBytes) {
  while (true) {
    if (auto c = v.getDefiningOp<tensor::CollapseShapeOp>())
      v = c.getSrc();
    else if (auto e = v.getDefiningOp<tensor::ExpandShapeOp>())
      v = e.getSrc();
    else
      break;
  }
  Attribute attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  auto type = cast<ShapedType>(v.getType());
  unsigned bits = type.getElementTypeBitWidth();
  if (bits % 8 != 0)
    return std::nullopt;
  elemBytes = bits / 8;
  size_t size = type.getNumElements() * elemBytes;
  if (auto dense = dyn_cast<DenseIntOrFPElementsAttr>(attr)) {
    if (dense.isSplat())
      return std::nullopt;
    ArrayRef<char> raw = dense.getRawData();
    return raw.size() == size ? std::optional(raw) : std::nullopt;
  }
  if (auto res = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = res.getRawHandle().getBlob();
    if (!blob || blob->getData().size() != size)
      return std::nullopt;
    return blob->getData();
  }
  return std::nullopt;
}

/// transpose(constant) -> constant with the elements permuted (also through
/// collapse/expand_shape of the constant); a splat just changes shape.
struct FoldConstantTranspose : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return failure();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    auto srcType = cast<RankedTensorType>(op.getInput().getType());
    if (!resultType.hasStaticShape())
      return failure();
    SplatElementsAttr splat;
    if (matchPattern(op.getInput(), m_Constant(&splat))) {
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, resultType, splat.resizeSplat(resultType));
      return success();
    }
    int64_t elemBytes = 0;
    std::optional<ArrayRef<char>> bytes =
        getConstantBytes(op.getInput(), elemBytes);
    if (!bytes)
      return rewriter.notifyMatchFailure(op, "not a readable constant");
    ArrayRef<int64_t> perm = op.getPermutation();
    ArrayRef<int64_t> srcShape = srcType.getShape();
    int64_t rank = srcShape.size();
    // srcStride[perm[k]] is the step in the source for output dim k.
    SmallVector<int64_t> srcStride(rank, 1), step(rank);
    for (int64_t d = rank - 2; d >= 0; --d)
      srcStride[d] = srcStride[d + 1] * srcShape[d + 1];
    for (int64_t k = 0; k < rank; ++k)
      step[k] = srcStride[perm[k]];
    std::vector<char> out(bytes->size());
    SmallVector<int64_t> idx(rank, 0);
    int64_t offset = 0, n = resultType.getNumElements();
    for (int64_t i = 0; i < n; ++i) {
      std::memcpy(&out[i * elemBytes], bytes->data() + offset * elemBytes,
                  elemBytes);
      for (int64_t k = rank - 1; k >= 0; --k) {
        offset += step[k];
        if (++idx[k] < resultType.getDimSize(k))
          break;
        offset -= step[k] * idx[k];
        idx[k] = 0;
      }
    }
    auto attr = DenseElementsAttr::getFromRawBuffer(resultType, out);
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, resultType, attr);
    return success();
  }
};

struct DwcPropagateLayoutPass
    : dwc::impl::DwcPropagateLayoutBase<DwcPropagateLayoutPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    dwc::populatePropagateLayoutPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::dwc::populatePropagateLayoutPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<SinkTransposeThroughElementwise, FoldTransposeIntoGenericMap,
               SinkTransposeThroughConcat, SinkTransposeThroughInsertSlice,
               SinkTransposeThroughExtractSlice, FoldTransposeOfEmpty,
               GenericCopyToTranspose,
               ComposeTransposes,
               FoldConstantTranspose>(ctx);
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
  tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
}
