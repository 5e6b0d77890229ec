//===- BackwardFilter.td - kernel configurations of one family ---*- tablegen -*-===//
//
// The configuration attributes of the depthwise backward-filter kernels (convert-dwc-to-gpu-backward-filter).
// Included by DwcAttrs.td after Dwc_KernelConfig.
//
//===----------------------------------------------------------------------===//

