//===- Passes.td - dwc conversion passes ------------------*- tablegen -*-===//
//
// Passes that move programs into and out of the dwc dialect.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_CONVERSION_PASSES
#define DWC_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def ConvertDwcToLinalg : Pass<"convert-dwc-to-linalg"> {
  let summary = "Lower dwc ops to linalg and tensor ops (the CPU reference semantics)";
  let description = [{
    Rewrites every dwc op into `tensor.pad`, `tensor.empty`, `linalg.fill`,
    `linalg.generic` and named linalg ops whose meaning is exactly the op's
    documented semantics, accumulating in the op's accumulation type. The
    result runs anywhere linalg runs; the `dwc-to-llvm-cpu` pipeline takes it
    to LLVM for execution with `mlir-runner`.

    Before:

    ```mlir
    %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>)
           outs(%init : tensor<1x8x8x16xf32>)
           strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
    ```

    After:

    ```mlir
    %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] { ... }
        : tensor<1x8x8x16xf32> to tensor<1x10x10x16xf32>
    %zero = linalg.fill ins(%cst : f32) outs(%init : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
    %y = linalg.generic {indexing_maps = [...], iterator_types = [
           "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
           ins(%padded, %w : ...) outs(%zero : tensor<1x8x8x16xf32>) { mulf, addf }
    ```
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::math::MathDialect"];
}

def RaiseLinalgToDwc : Pass<"raise-linalg-to-dwc"> {
  let summary = "Raise linalg convolution and pooling ops to dwc ops";
  let description = [{
    Recognises the linalg named ops that ML front ends (torch-mlir,
    StableHLO) emit and replaces them with dwc ops:

    * `linalg.depthwise_conv_2d_nhwc_hwc` -> `dwc.depthwise_conv2d`, folding a
      producing zero `tensor.pad` into the `padding` attribute;
    * `linalg.pooling_nhwc_max` -> `dwc.pool2d max` (a `-inf` padded input
      folds into `padding`);
    * `linalg.pooling_nhwc_sum` followed by an element-wise division by the
      window size -> `dwc.pool2d avg`;
    * `linalg.conv_2d_nhwc_hwcf` -> `dwc.conv2d`.

    Raising only happens when the result is exactly equivalent: the linalg
    op's output must be a zero fill (or `-inf` for max pooling) of an empty
    tensor, since linalg accumulates into its output and dwc ops overwrite.
    Anything else is left untouched.

    Before:

    ```mlir
    %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] { tensor.yield %zero : f32 }
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
    %y = linalg.depthwise_conv_2d_nhwc_hwc
           {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
           ins(%p, %w : tensor<1x10x10x16xf32>, tensor<3x3x16xf32>)
           outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
    ```

    After:

    ```mlir
    %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>)
           outs(%e : tensor<1x8x8x16xf32>)
           strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
    ```
  }];
  let dependentDialects = ["mlir::dwc::DwcDialect",
                           "mlir::tensor::TensorDialect"];
}

def ConvertDwcToGPU : Pass<"convert-dwc-to-gpu", "mlir::ModuleOp"> {
  let summary = "Lower dwc ops to direct GPU kernels (gpu.launch on device buffers)";
  let description = [{
    Replaces each dwc op with a direct, NHWC-coalesced GPU kernel: the
    operands are taken as buffers, the result is allocated with `gpu.alloc`,
    and a `gpu.launch` computes one output element-vector per thread with
    consecutive threads on consecutive channels and f32 accumulation. It
    covers every legal configuration (any stride, dilation, padding, filter
    shape, channel count and element type) and is the correctness baseline
    that the fast paths fall back to.

    Before:

    ```mlir
    %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>)
           outs(%init : tensor<1x8x8x16xf32>)
           strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
    ```

    After:

    ```mlir
    %xb = bufferization.to_buffer %x : tensor<1x8x8x16xf32> to memref<1x8x8x16xf32>
    %yb = gpu.alloc () : memref<1x8x8x16xf32>
    gpu.launch blocks(%bx, %by, %bz) in (...) threads(%tx, %ty, %tz) in (...) {
      // one output per thread: predicated loads of the window, f32 sums
      gpu.terminator
    }
    %y = bufferization.to_tensor %yb restrict : memref<1x8x8x16xf32> to tensor<1x8x8x16xf32>
    ```
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::bufferization::BufferizationDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::vector::VectorDialect"];
}

#endif // DWC_CONVERSION_PASSES
