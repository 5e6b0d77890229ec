//===- HostLinalgToGPU.cpp - generic GPU lowering of host linalg ops ------===//
//
// The GPU pipeline compiles whole models: the dwc ops become dwc's kernels,
// and everything else a front end emits (element-wise generics, matmuls,
// reductions, fills, transposes, copies into padded buffers) is left in host
// code as linalg ops on device buffers. This pass turns each of them into a
// one-dimensional scf.parallel mapped to blocks x threads (one thread per
// output element, reductions sequential in the thread), which upstream
// convert-parallel-loops-to-gpu turns into a gpu.launch. Correctness first:
// no tiling for locality, no vectorization.
//
//===----------------------------------------------------------------------===//

#include "dwc/Conversion/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/FoldUtils.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_CONVERTHOSTLINALGTOGPU
#include "dwc/Conversion/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;

namespace {

bool isContiguous(Value v) {
  auto type = dyn_cast<MemRefType>(v.getType());
  return type && memref::isStaticShapeAndContiguousRowMajor(type);
}

/// The generic form of `op` with its parallel loops outermost (reductions
/// innermost, each group in its original order).
FailureOr<linalg::GenericOp> parallelFirstGeneric(RewriterBase &rewriter,
                                                  linalg::LinalgOp op) {
  rewriter.setInsertionPoint(op);
  linalg::GenericOp generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic) {
    FailureOr<linalg::GenericOp> g = linalg::generalizeNamedOp(rewriter, op);
    if (failed(g))
      return op.emitError("linalg op in host code has no generic form, so "
                          "the GPU pipeline cannot lower it");
    generic = *g;
  }
  SmallVector<unsigned> perm;
  SmallVector<utils::IteratorType> iters = generic.getIteratorTypesArray();
  for (bool parallel : {true, false})
    for (auto [i, it] : llvm::enumerate(iters))
      if ((it == utils::IteratorType::parallel) == parallel)
        perm.push_back(i);
  if (llvm::equal(perm, llvm::seq<unsigned>(0, perm.size())))
    return generic;
  FailureOr<linalg::GenericOp> swapped =
      linalg::interchangeGenericOp(rewriter, generic, perm);
  if (failed(swapped))
    return generic.emitError("cannot move the parallel loops of this linalg "
                             "op outermost");
  return *swapped;
}

/// Wraps `op` in a single-iteration scf.parallel (for ops without parallel
/// loops, so that they still run in a kernel).
scf::ParallelOp wrapInSingleIteration(RewriterBase &rewriter, Operation *op) {
  rewriter.setInsertionPoint(op);
  Location loc = op->getLoc();
  Value c0 = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(rewriter, loc, 1);
  auto loop = scf::ParallelOp::create(rewriter, loc, ValueRange{c0},
                                      ValueRange{c1}, ValueRange{c1});
  rewriter.moveOpBefore(op, loop.getBody()->getTerminator());
  return loop;
}

/// Collapses `loop` to one dimension, tiles it by `blockSize` and maps the
/// tiles to blocks and their elements to threads.
LogicalResult mapToBlocksAndThreads(RewriterBase &rewriter,
                                    scf::ParallelOp loop, int64_t blockSize) {
  for (auto [lb, step] : llvm::zip(loop.getLowerBound(), loop.getStep()))
    if (getConstantIntValue(lb) != 0 || getConstantIntValue(step) != 1)
      return loop.emitError("parallel loop with a non-zero lower bound or a "
                            "non-unit step cannot be mapped to the GPU");
  unsigned rank = loop.getNumLoops();
  if (rank > 1) {
    Block *block = loop->getBlock();
    Operation *prev = loop->getPrevNode();
    std::vector<unsigned> all(rank);
    std::iota(all.begin(), all.end(), 0);
    collapseParallelLoops(rewriter, loop, {all});
    // The collapsed loop replaces `loop` at its position (after any bound
    // constants the collapse created).
    Operation *it = prev ? prev->getNextNode() : &block->front();
    while (it && !isa<scf::ParallelOp>(it))
      it = it->getNextNode();
    loop = cast<scf::ParallelOp>(it);
  }
  // Blocks of fewer threads for loops shorter than a block.
  std::optional<int64_t> extent = getConstantIntValue(loop.getUpperBound()[0]);
  int64_t tile =
      extent && *extent >= 1 ? std::min(*extent, blockSize) : blockSize;
  auto [outer, inner] =
      scf::tileParallelLoop(loop, {tile}, /*noMinMaxBounds=*/true);
  MLIRContext *ctx = rewriter.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(1, ctx);
  auto dim = [&](gpu::Processor p) {
    return gpu::ParallelLoopDimMappingAttr::get(ctx, p, id, id);
  };
  if (failed(gpu::setMappingAttr(outer, {dim(gpu::Processor::BlockX)})) ||
      failed(gpu::setMappingAttr(inner, {dim(gpu::Processor::ThreadX)})))
    return outer.emitError("cannot map the parallel loop to the GPU");
  return success();
}

/// One host linalg op to a mapped scf.parallel nest.
LogicalResult lowerLinalgOp(RewriterBase &rewriter, linalg::LinalgOp op,
                            int64_t blockSize) {
  Location loc = op.getLoc();
  if (!op.hasPureBufferSemantics())
    return op.emitError("linalg op on tensors in host code: the GPU "
                        "pipeline lowers linalg ops after bufferization");
  FailureOr<linalg::GenericOp> generic = parallelFirstGeneric(rewriter, op);
  if (failed(generic))
    return failure();
  scf::ParallelOp wrapper;
  if (generic->getNumParallelLoops() == 0)
    wrapper = wrapInSingleIteration(rewriter, *generic);
  rewriter.setInsertionPoint(*generic);
  FailureOr<linalg::LinalgLoops> loops =
      linalg::linalgOpToParallelLoops(rewriter, *generic);
  if (failed(loops))
    return generic->emitError("linalg op has no parallel-loop lowering");
  rewriter.eraseOp(*generic);
  scf::ParallelOp loop = wrapper;
  if (!loop && !loops->empty())
    loop = dyn_cast<scf::ParallelOp>(loops->front());
  if (!loop)
    return emitError(loc, "expected the outermost loop of a linalg op with "
                          "parallel dimensions to be scf.parallel");
  return mapToBlocksAndThreads(rewriter, loop, blockSize);
}

/// Folds the index arithmetic of the loop bounds the collapse and the tiling
/// created (products of constants), so that launch sizes are constants, and
/// the identity affine.applys of the loop bodies. Kernel
/// bodies of earlier passes are left alone.
void foldHostArith(ModuleOp module) {
  SmallVector<Operation *> arith;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::LaunchOp, gpu::GPUModuleOp, gpu::BinaryOp>(op))
      return WalkResult::skip();
    if ((isa<arith::ArithDialect>(op->getDialect()) &&
         !isa<arith::ConstantOp>(op)) ||
        isa<affine::AffineApplyOp>(op))
      arith.push_back(op);
    return WalkResult::advance();
  });
  OperationFolder folder(module.getContext());
  for (Operation *op : arith)
    (void)folder.tryToFold(op);
}

struct ConvertHostLinalgToGPUPass
    : dwc::impl::ConvertHostLinalgToGPUBase<ConvertHostLinalgToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    if (blockSize < 1 || blockSize > 1024) {
      getOperation().emitError("convert-host-linalg-to-gpu: block-size ")
          << static_cast<int64_t>(blockSize) << " is not in [1, 1024]";
      return signalPassFailure();
    }
    SmallVector<memref::CopyOp> copies;
    SmallVector<Operation *> ops;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::LaunchOp, gpu::GPUModuleOp, gpu::BinaryOp>(op))
        return WalkResult::skip();
      if (auto copy = dyn_cast<memref::CopyOp>(op)) {
        if (!isContiguous(copy.getSource()) || !isContiguous(copy.getTarget()))
          copies.push_back(copy);
      } else if (isa<linalg::LinalgOp>(op)) {
        ops.push_back(op);
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      ops.push_back(linalg::CopyOp::create(rewriter, copy.getLoc(),
                                           copy.getSource(), copy.getTarget()));
      rewriter.eraseOp(copy);
    }
    for (Operation *op : ops)
      if (failed(
              lowerLinalgOp(rewriter, cast<linalg::LinalgOp>(op), blockSize)))
        return signalPassFailure();
    foldHostArith(getOperation());
  }
};
} // namespace
