//===- Passes.h - dwc conversion passes -------------------------*- C++ -*-===//
//
// Declarations and registration of the passes that convert to and from dwc.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_CONVERSION_PASSES_H
#define DWC_CONVERSION_PASSES_H

#include "dwc/Dialect/Dwc/IR/DwcDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace dwc {

#define GEN_PASS_DECL
#include "dwc/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dwc/Conversion/Passes.h.inc"

} // namespace dwc
} // namespace mlir

#endif // DWC_CONVERSION_PASSES_H
