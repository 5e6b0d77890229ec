//===- Passes.h - dwc dialect transformations -------------------*- C++ -*-===//
//
// Declarations of the tensor-level dwc passes (see Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef DWC_DIALECT_DWC_TRANSFORMS_PASSES_H
#define DWC_DIALECT_DWC_TRANSFORMS_PASSES_H

#include "dwc/Dialect/Dwc/IR/DwcDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace dwc {

#define GEN_PASS_DECL
#include "dwc/Dialect/Dwc/Transforms/Passes.h.inc"

/// Whether `name` is reserved for the runtime or the generated host code
/// (see dwc-check-reserved-symbols).
bool isReservedSymbolName(StringRef name);

/// Emits an error on every top-level symbol of `module` with a reserved
/// name (dwc-check-reserved-symbols; also used by dwc-aot).
LogicalResult checkReservedSymbols(ModuleOp module);

/// The patterns of dwc-propagate-layout (also used by raise-linalg-to-dwc).
void populatePropagateLayoutPatterns(RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "dwc/Dialect/Dwc/Transforms/Passes.h.inc"

} // namespace dwc
} // namespace mlir

#endif // DWC_DIALECT_DWC_TRANSFORMS_PASSES_H
