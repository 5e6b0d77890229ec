//===- CheckReservedSymbols.cpp - refuse names of the runtime's symbols ---===//
//
// The generated host code calls the runtime and the C library by name; a
// user symbol of the same name would capture those calls. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_DWCCHECKRESERVEDSYMBOLS
#include "dwc/Dialect/Dwc/Transforms/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;

namespace {
/// The C library functions the lowered host code may call (memref
/// allocation and copies, assertions).
constexpr StringLiteral kLibcNames[] = {"malloc", "free",   "aligned_alloc",
                                        "memrefCopy", "memcpy", "memset",
                                        "abort"};

struct DwcCheckReservedSymbolsPass
    : dwc::impl::DwcCheckReservedSymbolsBase<DwcCheckReservedSymbolsPass> {
  void runOnOperation() override {
    if (failed(dwc::checkReservedSymbols(getOperation())))
      signalPassFailure();
  }
};
} // namespace

bool dwc::isReservedSymbolName(StringRef name) {
  if (name.starts_with("mgpu") || name.starts_with("_mlir"))
    return true;
  // The runtime's C API: dwcInit, dwcTakeLastError, ... (dwc_<name> entry
  // points are checked by dwc-aot against the functions they belong to).
  if (name.size() > 3 && name.starts_with("dwc") && llvm::isUpper(name[3]))
    return true;
  return llvm::is_contained(kLibcNames, name);
}

LogicalResult dwc::checkReservedSymbols(ModuleOp module) {
  bool ok = true;
  for (Operation &op : module.getBody()->getOperations()) {
    auto name = op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
    if (!name || !isReservedSymbolName(name.getValue()))
      continue;
    op.emitError() << "symbol name '" << name.getValue()
                   << "' is reserved for the dwc runtime and the generated "
                      "host code (names starting with mgpu, _mlir or "
                      "dwc<Upper>, and the C library functions it calls): "
                      "rename it";
    ok = false;
  }
  return success(ok);
}
