//===- KernelSelection.h - the kernel choice of each family ------*- C++ -*-===//
//
// One selector per kernel family: given an op (after bufferization), the
// target and the configuration the user already wrote (possibly partial),
// the complete configuration of that family, or why the family does not take
// the op. dwc-select-kernels asks them in priority order; the measured
// evidence behind each choice is in docs/KernelSelection.md.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_CONVERSION_KERNELSELECTION_H
#define DWC_CONVERSION_KERNELSELECTION_H

#include "dwc/Dialect/Dwc/IR/DwcDialect.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"
#include <string>

namespace mlir {
namespace dwc {

/// A family's selector: fills `config` (null when it does not take the op)
/// or sets `why`. `given` is the op's own configuration of this family or
/// null.
struct KernelFamily {
  StringRef name;
  Attribute (*select)(Operation *op, TargetAttr target, Attribute given,
                      std::string &why);
};

/// The families dwc-select-kernels decides, in priority order.
ArrayRef<KernelFamily> selectableKernelFamilies();

/// Each family's selectors, appended in their priority order (one file per
/// family, lib/Conversion/KernelSelection/<Family>Selection.cpp).
void appendPoolKernelFamilies(SmallVectorImpl<KernelFamily> &families);
void appendIm2winKernelFamilies(SmallVectorImpl<KernelFamily> &families);
void appendFullRowKernelFamilies(SmallVectorImpl<KernelFamily> &families);
void appendMmaStreamKernelFamilies(SmallVectorImpl<KernelFamily> &families);
void appendMmaKernelFamilies(SmallVectorImpl<KernelFamily> &families);
void appendGemvKernelFamilies(SmallVectorImpl<KernelFamily> &families);
void appendStridedKernelFamilies(SmallVectorImpl<KernelFamily> &families);
void appendBackwardFilterKernelFamilies(SmallVectorImpl<KernelFamily> &families);

/// Whether `op` carries a kernel configuration of a family other than
/// `family`: the kernel passes leave such ops alone.
bool hasOtherKernel(Operation *op, StringRef family);

} // namespace dwc
} // namespace mlir

#endif // DWC_CONVERSION_KERNELSELECTION_H
