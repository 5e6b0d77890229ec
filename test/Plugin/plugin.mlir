// Upstream mlir-opt loads dwc as a dialect and pass plugin: it parses dwc
// ops and runs dwc passes and pipelines without dwc-opt. Plugin passes are
// named in --pass-pipeline (their flags do not exist when the command line
// is parsed). Not in the sanitizer build: the uninstrumented mlir-opt cannot
// load a sanitized plugin (the ASan runtime must come first).
// UNSUPPORTED: sanitize
// RUN: mlir-opt %s --load-dialect-plugin=%dwc_lib/libDwcPlugin.so \
// RUN:   --load-pass-plugin=%dwc_lib/libDwcPlugin.so \
// RUN:   --pass-pipeline="builtin.module(raise-linalg-to-dwc)" | FileCheck %s
// RUN: mlir-opt %s --load-dialect-plugin=%dwc_lib/libDwcPlugin.so \
// RUN:   --load-pass-plugin=%dwc_lib/libDwcPlugin.so \
// RUN:   --pass-pipeline="builtin.module(raise-linalg-to-dwc, convert-dwc-to-linalg)" \
// RUN:   | FileCheck %s --check-prefix=LOWERED
// RUN: mlir-opt %s --load-dialect-plugin=%dwc_lib/libDwcPlugin.so \
// RUN:   --load-pass-plugin=%dwc_lib/libDwcPlugin.so \
// RUN:   --pass-pipeline="builtin.module(raise-linalg-to-dwc, dwc-to-llvm-cpu)" \
// RUN:   | FileCheck %s --check-prefix=PIPELINE
// RUN: not mlir-opt %s --pass-pipeline="builtin.module(raise-linalg-to-dwc)" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOPLUGIN

// CHECK: dwc.depthwise_conv2d {{.*}} padding = [1, 1, 1, 1]
// LOWERED-NOT: dwc.
// LOWERED: linalg.generic {{.*}}"reduction", "reduction"
// PIPELINE: llvm.func @dw
// NOPLUGIN: raise-linalg-to-dwc
func.func @dw(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>) -> tensor<1x8x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x4xf32> to tensor<1x10x10x4xf32>
  %e = tensor.empty() : tensor<1x8x8x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%p, %w : tensor<1x10x10x4xf32>, tensor<3x3x4xf32>) outs(%f : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  return %y : tensor<1x8x8x4xf32>
}
