//===- LegalizeKernelNames.cpp - PTX identifiers for outlined kernels -----===//
//
// Outlined kernels are named after their host functions; PTX accepts only
// [A-Za-z_][A-Za-z0-9_]* here, so other names are rewritten (and their
// launches updated) before NVVM sees them. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_DWCLEGALIZEKERNELNAMES
#include "dwc/Dialect/Dwc/Transforms/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;

namespace {

bool isPtxIdentifier(StringRef name) {
  return !name.empty() && (llvm::isAlpha(name[0]) || name[0] == '_') &&
         llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// `name` with every character PTX does not take replaced by '_', made
/// unique among the symbols of `table`.
std::string legalName(StringRef name, SymbolTable &table) {
  std::string base;
  for (char c : name)
    base += llvm::isAlnum(c) || c == '_' ? c : '_';
  if (base.empty() || llvm::isDigit(base[0]))
    base = "_" + base;
  std::string candidate = base;
  for (unsigned n = 1; table.lookup(candidate); ++n)
    candidate = base + "_" + std::to_string(n);
  return candidate;
}

/// Renames `op` (a gpu.module or gpu.func) within `table` and every use of
/// it under `root`.
LogicalResult renameSymbol(Operation *op, SymbolTable &table, Operation *root) {
  StringRef old = SymbolTable::getSymbolName(op).getValue();
  if (isPtxIdentifier(old))
    return success();
  StringAttr fresh = StringAttr::get(op->getContext(), legalName(old, table));
  // (Not SymbolTable::rename: it only updates uses inside the table's own
  // op, and the launches of a kernel are in the host module.)
  if (failed(SymbolTable::replaceAllSymbolUses(op, fresh, root)))
    return op->emitError() << "cannot rename " << old << " to " << fresh;
  table.remove(op);
  SymbolTable::setSymbolName(op, fresh);
  table.insert(op);
  return success();
}

struct DwcLegalizeKernelNamesPass
    : dwc::impl::DwcLegalizeKernelNamesBase<DwcLegalizeKernelNamesPass> {
  using DwcLegalizeKernelNamesBase::DwcLegalizeKernelNamesBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable moduleTable(module);
    for (auto gpuModule :
         llvm::make_early_inc_range(module.getOps<gpu::GPUModuleOp>())) {
      SymbolTable kernelTable(gpuModule);
      for (auto func :
           llvm::make_early_inc_range(gpuModule.getOps<gpu::GPUFuncOp>()))
        if (failed(renameSymbol(func, kernelTable, module)))
          return signalPassFailure();
      if (failed(renameSymbol(gpuModule, moduleTable, module)))
        return signalPassFailure();
    }
  }
};

} // namespace
