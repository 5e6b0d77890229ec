//===- Mma.td - kernel configurations of one family ---*- tablegen -*-===//
//
// The configuration attributes of the depthwise tensor-core ring/band kernels (convert-dwc-to-gpu-mma).
// Included by DwcAttrs.td after Dwc_KernelConfig.
//
//===----------------------------------------------------------------------===//

