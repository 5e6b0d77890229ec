//===- Pool.td - kernel configurations of one family ---*- tablegen -*-===//
//
// The configuration attributes of the pooling and global-pooling kernels (convert-dwc-to-gpu-pool, -global-pool).
// Included by DwcAttrs.td after Dwc_KernelConfig.
//
//===----------------------------------------------------------------------===//

