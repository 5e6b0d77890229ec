//===- MmaStream.td - kernel configurations of one family ---*- tablegen -*-===//
//
// The configuration attributes of the streaming wide-filter tensor-core kernels (convert-dwc-to-gpu-mma-stream).
// Included by DwcAttrs.td after Dwc_KernelConfig.
//
//===----------------------------------------------------------------------===//

