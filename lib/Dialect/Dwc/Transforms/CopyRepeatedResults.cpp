//===- CopyRepeatedResults.cpp - one value per function result ------------===//
//
// Bufferization turns each result into an output buffer of its own; a
// value returned twice, or an argument returned, has none. Such results
// become copies before bufferization. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_DWCCOPYREPEATEDRESULTS
#include "dwc/Dialect/Dwc/Transforms/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;

namespace {
/// A fresh copy of `v` (a ranked tensor or memref) before `ret`, or null
/// for other types.
Value copyOf(OpBuilder &b, Location loc, Value v) {
  if (auto tensor = dyn_cast<RankedTensorType>(v.getType()))
    return bufferization::AllocTensorOp::create(b, loc, tensor, ValueRange{},
                                                /*copy=*/v);
  auto memref = dyn_cast<MemRefType>(v.getType());
  if (!memref)
    return Value();
  SmallVector<Value> dynSizes;
  for (int64_t i = 0; i < memref.getRank(); ++i)
    if (memref.isDynamicDim(i))
      dynSizes.push_back(memref::DimOp::create(b, loc, v, i));
  // (The copy has the identity layout; its type must stay the result's.)
  if (!memref.getLayout().isIdentity())
    return Value();
  Value fresh = memref::AllocOp::create(b, loc, memref, dynSizes);
  memref::CopyOp::create(b, loc, v, fresh);
  return fresh;
}

/// Replaces the repeated and argument operands of `ret`.
LogicalResult copyRepeated(func::ReturnOp ret) {
  OpBuilder b(ret);
  llvm::SmallDenseSet<Value> seen;
  for (OpOperand &operand : ret->getOpOperands()) {
    Value v = operand.get();
    bool isArg = isa<BlockArgument>(v) &&
                 cast<BlockArgument>(v).getOwner()->isEntryBlock();
    if (seen.insert(v).second && !isArg)
      continue;
    if (!isa<RankedTensorType, MemRefType>(v.getType()))
      continue;
    Value copy = copyOf(b, ret.getLoc(), v);
    if (!copy)
      return ret.emitError() << "result #" << operand.getOperandNumber()
                             << " of type " << v.getType()
                             << " repeats another result or is an argument, "
                                "and a memref of a non-identity layout "
                                "cannot be copied into a result of its own";
    operand.set(copy);
  }
  return success();
}

struct DwcCopyRepeatedResultsPass
    : dwc::impl::DwcCopyRepeatedResultsBase<DwcCopyRepeatedResultsPass> {
  void runOnOperation() override {
    WalkResult r = getOperation().walk([](func::ReturnOp ret) {
      return failed(copyRepeated(ret)) ? WalkResult::interrupt()
                                       : WalkResult::advance();
    });
    if (r.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
