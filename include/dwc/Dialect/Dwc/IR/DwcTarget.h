//===- DwcTarget.h - NVIDIA chips and the dwc target attribute --*- C++ -*-===//
//
// The one table of chip facts (PTX versions, shared memory, a representative
// SM count) and the function that turns a chip/features/sm-count request into
// a validated #dwc.target.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_DIALECT_DWC_IR_DWCTARGET_H
#define DWC_DIALECT_DWC_IR_DWCTARGET_H

#include "dwc/Dialect/Dwc/IR/DwcDialect.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"
#include <string>

namespace mlir {
namespace dwc {

/// Splits "sm_<digits>[a|f]" into its version and suffix (0 when none).
bool parseChip(StringRef chip, unsigned &sm, char &suffix);

/// A validated target before it becomes an attribute (pipelines are built
/// before there is a context to make one in).
struct TargetDescription {
  std::string chip;     // as NVVM expects it, e.g. "sm_90a"
  std::string features; // "+ptx80"
  int64_t smCount = 0;
  int64_t sharedMemoryPerBlock = 0;
  int64_t sharedMemoryPerSM = 0;
  int64_t threadsPerSM = 0;
  int64_t registersPerSM = 0;

  unsigned getSmVersion() const;
  bool hasAmpereInstructions() const { return getSmVersion() >= 80; }
  bool hasWgmma() const;
  TargetAttr toAttr(MLIRContext *ctx) const;
};

/// The target `chip` with PTX `features` (empty: +ptx80 or the chip's
/// minimum where that is higher) and `smCount` SMs (0: the chip's
/// representative part, e.g. 132 for sm_90). Reports a chip, PTX version or
/// SM count that is not valid through `emitError`.
FailureOr<TargetDescription>
resolveTarget(StringRef chip, StringRef features, int64_t smCount,
              function_ref<LogicalResult(const Twine &)> emitError);

} // namespace dwc
} // namespace mlir

#endif // DWC_DIALECT_DWC_IR_DWCTARGET_H
