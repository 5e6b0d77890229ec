// Parses a linalg depthwise convolution, raises it with the installed dwc
// libraries and prints the result and the package version.
#include "dwc/Conversion/Passes.h"
#include "dwc/Dialect/Dwc/IR/DwcDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

static const char *kInput = R"mlir(
func.func @dw(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4xf32>) -> tensor<1x6x6x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x6x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%f : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %y : tensor<1x6x6x4xf32>
}
)mlir";

int main() {
  mlir::DialectRegistry registry;
  registry.insert<mlir::dwc::DwcDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::linalg::LinalgDialect,
                  mlir::tensor::TensorDialect>();
  mlir::MLIRContext ctx(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kInput, &ctx);
  if (!module)
    return 1;
  mlir::PassManager pm(&ctx);
  pm.addPass(mlir::dwc::createRaiseLinalgToDwc());
  if (mlir::failed(pm.run(*module)))
    return 2;
  llvm::outs() << "dwc version " << DWC_VERSION << "\n";
  module->print(llvm::outs());
  return 0;
}
