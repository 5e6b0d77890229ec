//===- Passes.td - dwc dialect transformations -------------*- tablegen -*-===//
//
// Passes that rewrite dwc ops at the tensor level (before bufferization).
//
//===----------------------------------------------------------------------===//

#ifndef DWC_DIALECT_DWC_TRANSFORMS_PASSES
#define DWC_DIALECT_DWC_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def DwcFuseActivation : Pass<"dwc-fuse-activation"> {
  let summary = "Fold an elementwise ReLU/ReLU6 that follows dwc.pool2d into "
                "the op's activation epilogue";
  let description = [{
    Matches a `linalg.generic` whose only input is the tensor result of a
    `dwc.pool2d` used nowhere else, with identity indexing maps, parallel
    iterators only, the pooled element type in and out, and a body that is
    exactly

    * ReLU: `arith.maximumf(%in, 0.0)` (or `arith.maxnumf`, either operand
      order), or
    * ReLU6: `arith.minimumf(ReLU(%in), 6.0)` (or `arith.minnumf`),

    and replaces it with the pool's result after setting the pool's
    `activation` attribute. The kernels then apply the activation in
    registers before their single store, so the activation costs no extra
    pass over memory. Left alone: a pool that already has an activation,
    a pooled value with other uses, broadcasting or transposing maps,
    element-type changes, any other body (leaky ReLU, clamps to other
    bounds, ...).

    Before:

    ```mlir
    %p = dwc.pool2d max ins(%x : tensor<1x8x8x16xf32>) outs(%i : tensor<1x4x4x16xf32>)
           window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<1x4x4x16xf32>
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = [...]}
           ins(%p : tensor<1x4x4x16xf32>) outs(%o : tensor<1x4x4x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.maximumf %in, %zero : f32
      linalg.yield %m : f32
    } -> tensor<1x4x4x16xf32>
    ```

    After:

    ```mlir
    %r = dwc.pool2d max ins(%x : tensor<1x8x8x16xf32>) outs(%i : tensor<1x4x4x16xf32>)
           window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0]
           activation = relu -> tensor<1x4x4x16xf32>
    ```
  }];
  let dependentDialects = ["mlir::dwc::DwcDialect"];
}

#endif // DWC_DIALECT_DWC_TRANSFORMS_PASSES
