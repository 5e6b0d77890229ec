//===- OutlineOps.cpp - dwc ops into callable functions -------------------===//
//
// The embedding mode of dwc: each dwc op becomes a function of its own, so
// that dwc-aot compiles the dwc ops (one C entry point each) while another
// compiler keeps the rest of the program and calls them.
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_DWCOUTLINEOPS
#include "dwc/Dialect/Dwc/Transforms/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;

namespace {
constexpr StringLiteral kOutlinedAttr = "dwc.outlined";

/// Checks that `op` can be outlined: tensor semantics (dwc's verifiers
/// already require static shapes, so the destinations can be made inside).
LogicalResult checkOutlinable(DestinationStyleOpInterface op) {
  if (!op.hasPureTensorSemantics())
    return op->emitError("dwc-outline-ops: the op works on buffers; outline "
                         "before bufferization");
  return success();
}

/// The function `@<name>` computing `op` from its inputs; the op's
/// destinations become tensor.empty()s inside it.
func::FuncOp buildOutlined(OpBuilder &b, DestinationStyleOpInterface op,
                           StringRef name) {
  Location loc = op.getLoc();
  SmallVector<Value> inputs = op.getDpsInputs();
  auto type =
      b.getFunctionType(ValueRange(inputs).getTypes(), op->getResultTypes());
  auto func = func::FuncOp::create(b, loc, name, type);
  func->setAttr(kOutlinedAttr, b.getUnitAttr());
  OpBuilder::InsertionGuard guard(b);
  Block *body = func.addEntryBlock();
  b.setInsertionPointToStart(body);
  IRMapping map;
  for (auto [in, arg] : llvm::zip(inputs, body->getArguments()))
    map.map(in, arg);
  for (OpOperand &init : op.getDpsInitsMutable()) {
    auto t = cast<RankedTensorType>(init.get().getType());
    map.map(init.get(),
            tensor::EmptyOp::create(b, loc, t.getShape(), t.getElementType())
                .getResult());
  }
  Operation *clone = b.clone(*op, map);
  func::ReturnOp::create(b, loc, clone->getResults());
  return func;
}

/// Keeps only what `keep` asks for.
void prune(ModuleOp module, StringRef keep) {
  for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
    bool outlined = func->hasAttr(kOutlinedAttr);
    if (keep == "kernels" && !outlined) {
      func.erase();
    } else if (keep == "host" && outlined) {
      func.getBody().getBlocks().clear();
      func.setPrivate();
    }
  }
}

struct DwcOutlineOpsPass : dwc::impl::DwcOutlineOpsBase<DwcOutlineOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (keep != "all" && keep != "kernels" && keep != "host") {
      module.emitError("dwc-outline-ops: keep '")
          << keep << "' is not one of all, kernels, host";
      return signalPassFailure();
    }
    SymbolTable symbols(module);
    OpBuilder b(&getContext());
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp func : funcs) {
      if (func->hasAttr(kOutlinedAttr) || func.isExternal())
        continue;
      SmallVector<DestinationStyleOpInterface> ops;
      func.walk([&](DestinationStyleOpInterface op) {
        if (isa<dwc::DwcDialect>(op->getDialect()))
          ops.push_back(op);
      });
      for (auto [n, op] : llvm::enumerate(ops)) {
        if (failed(checkOutlinable(op)))
          return signalPassFailure();
        b.setInsertionPointToEnd(module.getBody());
        func::FuncOp outlined =
            buildOutlined(b, op, (func.getSymName() + "_dwc" + Twine(n)).str());
        symbols.insert(outlined); // Renamed if the name is taken.
        b.setInsertionPoint(op);
        auto call =
            func::CallOp::create(b, op.getLoc(), outlined, op.getDpsInputs());
        op->replaceAllUsesWith(call.getResults());
        op->erase();
      }
    }
    prune(module, keep);
  }
};
} // namespace
