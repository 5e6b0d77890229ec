//===- LinalgToDwcPatterns.h - raise-linalg-to-dwc pattern sets -*- C++ -*-===//
//
// The pattern sets raise-linalg-to-dwc combines (private to this library).
//
//===----------------------------------------------------------------------===//

#ifndef DWC_LIB_CONVERSION_LINALGTODWC_LINALGTODWCPATTERNS_H
#define DWC_LIB_CONVERSION_LINALGTODWC_LINALGTODWCPATTERNS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::dwc {

/// Rewrites NCHW named convolutions/pooling, F x H x W x C filters and the
/// M = 1 depthwise form into the NHWC named ops, with transposes (see
/// NhwcForms.cpp).
void populateNhwcFormPatterns(RewritePatternSet &patterns);

/// Rewrites convolutions and reduce-window pools written as linalg.generic
/// (StableHLO's lowering) into the NCHW named ops (see GenericForms.cpp).
void populateGenericFormPatterns(RewritePatternSet &patterns);

} // namespace mlir::dwc

#endif // DWC_LIB_CONVERSION_LINALGTODWC_LINALGTODWCPATTERNS_H
