//===- GenericGPULowering.h - GPU kernels for non-dwc ops -------*- C++ -*-===//
//
// The sub-pipeline of dwc-to-nvvm that lowers the bufferized linalg ops left
// in host code (everything of a whole model that is not a dwc op) to generic
// GPU kernels.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_PIPELINES_GENERICGPULOWERING_H
#define DWC_PIPELINES_GENERICGPULOWERING_H

#include "mlir/Pass/PassManager.h"

namespace mlir::dwc {

/// Adds convert-host-linalg-to-gpu and convert-parallel-loops-to-gpu: each
/// host linalg op (and non-contiguous copy) becomes a gpu.launch of one
/// thread per output element. Runs after the dwc kernel passes (dwc ops are
/// gpu.launches by then) and before convert-host-buffers-to-gpu.
void addGenericGPULowering(OpPassManager &pm);

} // namespace mlir::dwc

#endif // DWC_PIPELINES_GENERICGPULOWERING_H
