//===- Im2win.td - kernel configurations of one family ---*- tablegen -*-===//
//
// The configuration attributes of the dense conv2d im2win kernels (convert-dwc-to-gpu-im2win).
// Included by DwcAttrs.td after Dwc_KernelConfig.
//
//===----------------------------------------------------------------------===//

