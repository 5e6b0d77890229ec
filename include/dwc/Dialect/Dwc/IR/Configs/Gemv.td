//===- Gemv.td - kernel configurations of one family ---*- tablegen -*-===//
//
// The configuration attributes of the GEMV and row-tile depthwise kernels (convert-dwc-to-gpu-gemv).
// Included by DwcAttrs.td after Dwc_KernelConfig.
//
//===----------------------------------------------------------------------===//

