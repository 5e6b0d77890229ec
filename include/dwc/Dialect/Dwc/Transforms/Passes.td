//===- Passes.td - dwc dialect transformations -------------*- tablegen -*-===//
//
// Passes that rewrite dwc ops at the tensor level (before bufferization).
//
//===----------------------------------------------------------------------===//

#ifndef DWC_DIALECT_DWC_TRANSFORMS_PASSES
#define DWC_DIALECT_DWC_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def DwcAttachTarget : Pass<"dwc-attach-target", "ModuleOp"> {
  let summary = "Record the GPU the module is compiled for as #dwc.target";
  let description = [{
    Validates `chip`, `features` and `sm-count` against the table of known
    NVIDIA chips (dwc/Dialect/Dwc/IR/DwcTarget.h) and sets the module's
    `dwc.target` attribute, which every kernel-choosing pass reads (SM
    count, shared memory per block and per SM, which instructions exist).
    A module that already carries a target keeps it when it is the same
    target; a different one is an error (the IR and the pipeline disagree
    about the GPU). An unknown chip, a PTX version below the chip's minimum
    or an SM count outside [1, 1024] is an error.

    Before (`dwc-attach-target{chip=sm_90a}`):

    ```mlir
    module {
      func.func @f(...) { ... }
    }
    ```

    After:

    ```mlir
    module attributes {dwc.target = #dwc.target<chip = "sm_90a",
        features = "+ptx80", sm_count = 132,
        shared_memory_per_block = 232448, shared_memory_per_sm = 233472,
        threads_per_sm = 2048, registers_per_sm = 65536>} {
      func.func @f(...) { ... }
    }
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "GPU architecture, sm_<version>[a|f]">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "PTX ISA version +ptx<NN> (empty: +ptx80 or the chip's minimum)">,
    Option<"smCount", "sm-count", "int64_t", /*default=*/"0",
           "Streaming multiprocessors (0: the chip's representative part)">,
  ];
  let dependentDialects = ["mlir::dwc::DwcDialect"];
}

def DwcDetachTarget : Pass<"dwc-detach-target", "ModuleOp"> {
  let summary = "Remove #dwc.target once the kernels are generated";
  let description = [{
    After the kernel passes, nothing reads `dwc.target` (the NVVM target of
    each outlined GPU module carries the chip from then on); removing it
    leaves a module that upstream tools without the dwc dialect
    (mlir-translate, mlir-runner) accept.

    Before:

    ```mlir
    module attributes {dwc.target = #dwc.target<...>, gpu.container_module} {
    ```

    After:

    ```mlir
    module attributes {gpu.container_module} {
    ```
  }];
}

def DwcFuseActivation : Pass<"dwc-fuse-activation"> {
  let summary = "Fold elementwise activations around dwc.pool2d and "
                "dwc.depthwise_conv2d into the ops' prologue and epilogue";
  let description = [{
    Matches a `linalg.generic` whose only input is the tensor result of a
    `dwc.pool2d` or `dwc.depthwise_conv2d` used nowhere else (for the
    convolution: unless the activation is pooled next, which
    `dwc-fuse-conv-pool` fuses instead), or the input of a
    `dwc.depthwise_conv2d` without a prologue (the generic's result used
    nowhere else), with identity indexing maps, parallel
    iterators only, the element type in and out, and a body that computes
    one of the ops' activations:

    * ReLU: `arith.maximumf(%in, 0.0)` (or `arith.maxnumf`, either operand
      order), or ReLU6: `arith.minimumf(ReLU(%in), 6.0)` (or
      `arith.minnumf`), matched by form;
    * SiLU, sigmoid, hardswish, hardsigmoid, GELU (erf) and GELU (tanh),
      convolutions only, identified by value: a body built from arith
      add/sub/mul/div/neg/min/max and math exp/erf/tanh/sqrt/rsqrt on the
      input and constants, evaluated in double at fourteen points across
      both signs and the clamps' corners, equal to exactly one of them
      within the rounding of its type's constants (f32 1e-5, 16-bit 4e-3
      relative) -- front ends write each in many equivalent forms. Two
      matches (erf- and tanh-GELU in a 16-bit body) are left alone.

    and replaces it with the op's result after setting its `activation`
    attribute, or (on the convolution's input) with the convolution reading
    the generic's input under `input_activation`. The kernels then apply the
    activation in registers, so it costs no extra pass over memory. ReLU and
    ReLU6 commute with the rounding to the element type, so the fused op
    computes what the pair did; the smooth activations on 16-bit types
    skip the pair's intermediate rounding (the fused result is the more
    accurate one); all map zero padding to zeros of the activated tensor.
    Left alone: an op that already has that activation or prologue, a value
    with other uses, broadcasting or transposing maps, element-type changes,
    a smooth activation after a pool, any other body (leaky ReLU, clamps to
    other bounds, ops outside the list above, a use of the init value).

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

def DwcFuseConvPool : Pass<"dwc-fuse-conv-pool"> {
  let summary = "Fuse a dwc.pool2d into the epilogue of the depthwise "
                "convolution that produces its input";
  let description = [{
    Matches a tensor-form `dwc.pool2d` whose input is

    * the result of a tensor-form `dwc.depthwise_conv2d` used nowhere else
      (any kind of pooling, any activation of the pool kept), or
    * an elementwise ReLU/ReLU6 `linalg.generic` (as `dwc-fuse-activation`
      recognises it) of such a convolution result, the activation used
      nowhere else, under **max** pooling without an activation of its own:
      max pooling commutes with a monotone activation, so the activation
      becomes the fused op's epilogue,

    with the convolution's and the pool's accumulation types equal, and
    replaces the pair (or the three ops) with one
    `dwc.depthwise_conv2d_pool2d` carrying both ops' attributes. The result
    is bit-identical: the fused op keeps the convolution's rounding to the
    element type. Left alone: convolutions with other users (the output is
    needed anyway), activations before average pooling (they do not
    commute), a pool that already has an activation after a ReLU, memref
    forms, differing accumulation types, pools carrying a `dwc.kernel`
    configuration (their own kernel was asked for).

    Fused patterns, by kernel (`convert-dwc-to-gpu-pool`): stride-1,
    undilated convolutions of up to 49 taps in f32 (3x3 to 7x7) and up to 9
    taps in f16/bf16 (3x3), with 128-bit channel vectors, followed by any
    pool (max 3x3 s2, max 2x2 s2, avg 3x3 s2, avg 2x2 s2, ...) run as one
    kernel; the rest is split again by `dwc-decompose-conv-pool` (larger
    16-bit filters run faster as GEMV convolution + pooling kernel).

    Before:

    ```mlir
    %c = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>)
           outs(%e : tensor<1x8x8x16xf32>)
           strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf32>
    %p = dwc.pool2d max ins(%c : tensor<1x8x8x16xf32>) outs(%i : tensor<1x4x4x16xf32>)
           window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] -> tensor<1x4x4x16xf32>
    ```

    After:

    ```mlir
    %p = dwc.depthwise_conv2d_pool2d max ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>)
           outs(%i : tensor<1x4x4x16xf32>)
           strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
           window = [3, 3] pool_strides = [2, 2] pool_padding = [1, 1, 1, 1] -> tensor<1x4x4x16xf32>
    ```
  }];
  let dependentDialects = ["mlir::dwc::DwcDialect"];
}

def DwcDecomposeConvPool : Pass<"dwc-decompose-conv-pool"> {
  let summary = "Split dwc.depthwise_conv2d_pool2d into a depthwise "
                "convolution and a pool2d";
  let description = [{
    The inverse of `dwc-fuse-conv-pool`, for the paths without a fused
    kernel: the CPU reference pipeline and, in `dwc-to-nvvm`, whatever
    `convert-dwc-to-gpu-pool` did not lower (strided, dilated or large
    filters, odd channel counts, fast paths off). Ops carrying a
    `#dwc.conv_pool` configuration (the fused kernel's) are left alone. Tensor form: the
    convolution writes into a `tensor.empty` of the convolution's shape.
    Memref form: into a `memref.alloc` freed right after the pool. The
    convolution keeps the fused op's accumulation type, the pool its
    pooling attributes and activation.

    Before:

    ```mlir
    dwc.depthwise_conv2d_pool2d avg ins(%x, %w : memref<1x8x8x5xf32>, memref<3x3x5xf32>)
      outs(%y : memref<1x4x4x5xf32>)
      strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
      window = [2, 2] pool_strides = [2, 2] pool_padding = [0, 0, 0, 0]
    ```

    After:

    ```mlir
    %c = memref.alloc() : memref<1x8x8x5xf32>
    dwc.depthwise_conv2d ins(%x, %w : memref<1x8x8x5xf32>, memref<3x3x5xf32>)
      outs(%c : memref<1x8x8x5xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
    dwc.pool2d avg ins(%c : memref<1x8x8x5xf32>) outs(%y : memref<1x4x4x5xf32>)
      window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0]
    memref.dealloc %c : memref<1x8x8x5xf32>
    ```
  }];
  let dependentDialects = ["mlir::dwc::DwcDialect", "mlir::memref::MemRefDialect",
                           "mlir::tensor::TensorDialect"];
}

def DwcKernelOccupancy : Pass<"dwc-kernel-occupancy"> {
  let summary = "Turn blocks-per-SM and register markers inside outlined "
                "kernels into nvvm.minctasm and nvvm.maxnreg";
  let description = [{
    A kernel generator that wants several blocks of a kernel on one SM
    (registers are the usual limit) marks an op inside its `gpu.launch`
    body with `dwc.min_blocks_per_sm = N`: kernel outlining drops the
    attributes of the launch itself but keeps those of the body's ops. Run
    after `gpu-kernel-outlining`, this pass removes every marker and sets
    `nvvm.minctasm` on the enclosing kernel `gpu.func` to the largest N
    (an existing larger value is kept); the NVVM lowering emits it as the
    PTX directive `.minnctapersm N`, so ptxas limits the registers per
    thread to what N blocks of the kernel's size allow. Likewise
    `dwc.max_registers = R` becomes `nvvm.maxnreg` (the smallest R;
    `.maxnreg R`): with an explicit register budget ptxas schedules a
    kernel's independent loads ahead of their FMAs instead of trading
    memory-level parallelism for registers. A marker outside [1, 32]
    (registers: [16, 255]) is an error; markers outside kernels are removed
    without effect.

    Before:

    ```mlir
    gpu.func @k() kernel {
      %t = nvgpu.device_async_create_group  {dwc.min_blocks_per_sm = 2 : i64}
      ...
    }
    ```

    After:

    ```mlir
    gpu.func @k() kernel attributes {nvvm.minctasm = 2 : i32} {
      %t = nvgpu.device_async_create_group
      ...
    }
    ```
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

def DwcCheckLaunchBounds : Pass<"dwc-check-launch-bounds"> {
  let summary = "Reject gpu.launch ops whose grid or block the GPU cannot run";
  let description = [{
    The kernel generators compute their grids from the op's shapes. A grid
    the hardware cannot launch (a dimension of 0 blocks, more than 2^31 - 1
    blocks along x or 65535 along y or z, blocks of more than 1024 threads)
    would fail at launch time or, for 0 blocks, silently do nothing. Run
    after the kernel passes, this pass checks every `gpu.launch` whose
    sizes are constants and emits an error naming the dimension and its
    limit; launches with dynamic sizes are left alone.

    Before (an error: 0 blocks along x):

    ```mlir
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c0, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      gpu.terminator
    }
    ```

    After: unchanged when every dimension is within its limit.
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

def DwcLegalizeKernelNames : Pass<"dwc-legalize-kernel-names", "ModuleOp"> {
  let summary = "Rename outlined GPU modules and kernels to PTX identifiers";
  let description = [{
    Kernel outlining names a kernel after its host function, which may be
    any MLIR symbol (`@"conv-1"`, `@"a.b"`); PTX identifiers are
    `[A-Za-z_][A-Za-z0-9_]*` (dots and dashes end in an LLVM error or a
    ptxas syntax error). Run after `gpu-kernel-outlining`, this pass renames
    every `gpu.module` and `gpu.func` whose name is not such an identifier,
    replacing each other character by `_` and appending `_<n>` where the
    result would clash with an existing symbol, and updates every
    `gpu.launch_func` that refers to them. Host functions keep their names.

    Before:

    ```mlir
    gpu.module @conv-1_kernel {
      gpu.func @conv-1_kernel() kernel { gpu.return }
    }
    gpu.launch_func @"conv-1_kernel"::@"conv-1_kernel" ...
    ```

    After:

    ```mlir
    gpu.module @conv_1_kernel {
      gpu.func @conv_1_kernel() kernel { gpu.return }
    }
    gpu.launch_func @conv_1_kernel::@conv_1_kernel ...
    ```
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

def DwcAlignWorkgroupBuffers : Pass<"dwc-align-workgroup-buffers"> {
  let summary = "Align the shared-memory buffers of outlined GPU kernels for "
                "128-bit accesses";
  let description = [{
    The dwc kernels read and write their workgroup (shared-memory) buffers
    with vector accesses of up to 128 bits (`ld.shared.v4.b32`, `cp.async`
    of 16 bytes), but the GPU-to-NVVM lowering aligns a workgroup buffer to
    its element type only (4 bytes for f32, 2 for f16). A single buffer
    happens to start at offset 0; a second one, or a different layout by
    ptxas, would make those accesses misaligned. This pass, run after
    kernel outlining, sets `llvm.align = alignment` (default 16) on every
    workgroup attribution of every `gpu.func` whose alignment is smaller (or
    unset), which the lowering turns into the `.shared .align 16` of the
    buffer's global. Larger alignments already present are kept; private
    attributions and non-GPU functions are untouched. A non-power-of-two
    `alignment` is an error.

    Before:

    ```mlir
    gpu.func @k() workgroup(%s : memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      ...
    }
    ```

    After:

    ```mlir
    gpu.func @k() workgroup(%s : memref<256xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}) kernel {
      ...
    }
    ```
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"16",
           "Least alignment of a workgroup buffer, in bytes">,
  ];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

def DwcPropagateLayout : Pass<"dwc-propagate-layout"> {
  let summary = "Sink layout transposes through element-wise ops, cancel "
                "inverse pairs and fold transposes of constants";
  let description = [{
    Raising an NCHW program (`raise-linalg-to-dwc`) wraps every dwc op, which
    is NHWC, in a `linalg.transpose` to NHWC and one back to NCHW. This pass
    removes them between consecutive ops:

    * an all-parallel `linalg.generic` with one result, an identity output
      map, a payload that does not read its destination, and an input that
      is a `linalg.transpose` read through an identity map is re-indexed to
      iterate in the transpose's source layout (every map is composed with
      the permutation, `linalg.index` ops are renumbered, inputs transposed
      by the same permutation are replaced by their sources) and its result
      transposed for the old users: transposes move down through batch
      norms, activations and residual additions;
    * `transpose(transpose(x, p), q)` becomes one transpose, or `x` when the
      composition is the identity;
    * a transpose of a constant (dense elements, a dense resource, or a
      `tensor.collapse_shape`/`expand_shape` of either) becomes a constant.

    Everything else is left alone, so transposes can remain before ops that
    are not element-wise (matmuls, reshapes, reductions); none remains
    between two dwc ops joined by element-wise ops only.
    `raise-linalg-to-dwc` applies these patterns too.

    Before:

    ```mlir
    %t = linalg.transpose ins(%y : tensor<1x8x8x16xf32>)
           outs(%e : tensor<1x16x8x8xf32>) permutation = [0, 3, 1, 2]
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = [...]}
           ins(%t : tensor<1x16x8x8xf32>) outs(%e : tensor<1x16x8x8xf32>) {...}
    %u = linalg.transpose ins(%r : tensor<1x16x8x8xf32>)
           outs(%f : tensor<1x8x8x16xf32>) permutation = [0, 2, 3, 1]
    ```

    After:

    ```mlir
    %u = linalg.generic {indexing_maps = [#id, #id], iterator_types = [...]}
           ins(%y : tensor<1x8x8x16xf32>) outs(%f : tensor<1x8x8x16xf32>) {...}
    ```
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::tensor::TensorDialect"];
}

def DwcOutlineOps : Pass<"dwc-outline-ops", "mlir::ModuleOp"> {
  let summary = "Outline each dwc op into a callable function with a stable "
                "ABI, for an embedding compiler that keeps the rest";
  let description = [{
    The alternative to compiling a whole model with `dwc-to-nvvm`: an
    embedding compiler (IREE, a framework's own codegen) keeps everything
    but the dwc ops, and calls dwc's kernels through a stable ABI. Each
    tensor-level dwc op in a `func.func` becomes a public function
    `@<function>_dwc<N>` (N counts the dwc ops of the function, in order)
    whose arguments are the op's inputs (not its `outs` destination: dwc ops
    overwrite it, so the function makes its own `tensor.empty`) and whose
    results are the op's; the op is replaced by a `func.call`. The outlined
    functions carry the unit attribute `dwc.outlined`.

    `keep` selects what stays in the module:

    * `all` (default): the callers and the outlined functions;
    * `kernels`: only the outlined functions: compiled by `dwc-aot`, each
      becomes `dwc_status dwc_<name>(const void *in0, ..., void *out0)` on
      contiguous row-major (NHWC) device buffers, launched on its own stream
      and synchronised before it returns (the ABI of `dwc-to-nvvm`);
    * `host`: the callers, with the outlined functions as private
      declarations, for the embedding compiler to bind to those symbols.

    Refused: dwc ops on buffers (the pass runs before bufferization). (dwc
    ops have static shapes, so the outlined function can make its
    destinations.)

    Before:

    ```mlir
    func.func @f(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x8x8x16xf32> {
      %e = tensor.empty() : tensor<1x8x8x16xf32>
      %y = dwc.depthwise_conv2d ins(%x, %w : ...) outs(%e : ...) ... -> tensor<1x8x8x16xf32>
      return %y : tensor<1x8x8x16xf32>
    }
    ```

    After:

    ```mlir
    func.func @f(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x8x8x16xf32> {
      %y = call @f_dwc0(%x, %w) : (...) -> tensor<1x8x8x16xf32>
      return %y : tensor<1x8x8x16xf32>
    }
    func.func @f_dwc0(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x8x8x16xf32>
        attributes {dwc.outlined} {
      %e = tensor.empty() : tensor<1x8x8x16xf32>
      %y = dwc.depthwise_conv2d ins(%x, %w : ...) outs(%e : ...) ... -> tensor<1x8x8x16xf32>
      return %y : tensor<1x8x8x16xf32>
    }
    ```
  }];
  let options = [
    Option<"keep", "keep", "std::string", "\"all\"",
           "What stays in the module: all | kernels | host">
  ];
  let dependentDialects = ["mlir::func::FuncDialect",
                           "mlir::tensor::TensorDialect"];
}

def DwcCopyRepeatedResults : Pass<"dwc-copy-repeated-results", "mlir::ModuleOp"> {
  let summary = "Give every function result its own value: a result that "
                "repeats another, or is a function argument, becomes a copy";
  let description = [{
    The GPU pipeline's host ABI has one caller-allocated output buffer per
    function result. Upstream `buffer-results-to-out-params` cannot take a
    function that returns one buffer twice (it crashes on `return %r, %r`),
    and `drop-equivalent-buffer-results` removes a result that is an
    argument from the signature (the caller's output buffer would never be
    written). Run before bufferization, this pass replaces every operand of
    a `func.return` that an earlier operand already names, or that is an
    argument of the function, by a copy: `bufferization.alloc_tensor
    copy(...)` for tensors, `memref.alloc` + `memref.copy` for memrefs. Other
    values (scalars) and functions without such results are unchanged.

    Before:

    ```mlir
    func.func @f(%x: tensor<4xf32>, ...) -> (tensor<4xf32>, tensor<4xf32>) {
      %r = dwc.pool2d ...
      return %r, %r : tensor<4xf32>, tensor<4xf32>
    }
    ```

    After:

    ```mlir
    func.func @f(%x: tensor<4xf32>, ...) -> (tensor<4xf32>, tensor<4xf32>) {
      %r = dwc.pool2d ...
      %c = bufferization.alloc_tensor() copy(%r) : tensor<4xf32>
      return %r, %c : tensor<4xf32>, tensor<4xf32>
    }
    ```
  }];
  let dependentDialects = ["mlir::bufferization::BufferizationDialect",
                           "mlir::memref::MemRefDialect"];
}

def DwcCheckReservedSymbols : Pass<"dwc-check-reserved-symbols", "mlir::ModuleOp"> {
  let summary = "Refuse module symbols named like the runtime's entry points "
                "or the symbols of the generated host code";
  let description = [{
    The host code of the GPU pipeline calls the runtime by name
    (`mgpuLaunchKernel`, `mgpuModuleLoad`, `dwcTakeLastError`, ...) and
    defines C interface wrappers (`_mlir_ciface_<name>`). A function of the
    input with one of these names captures those calls (every kernel launch
    of a `dwc-aot` object would call it) or breaks the lowering. This pass
    emits an error on every top-level symbol whose name is reserved:

    * any name starting with `mgpu` (the runtime's and upstream's GPU
      runtime entry points) or `_mlir` (MLIR's generated wrappers);
    * `dwc` followed by an upper-case letter (the runtime's C API:
      `dwcInit`, `dwcMalloc`, ...);
    * the C library functions the lowered host code calls (`malloc`,
      `free`, `aligned_alloc`, `memrefCopy`, `memcpy`, `memset`, `abort`).

    Private declarations the pipeline itself may have added are refused
    too: the check runs first, on the user's module. Modules without such
    names are unchanged.
  }];
}

def DwcApproximateTanh : Pass<"dwc-approximate-tanh"> {
  let summary = "Lower f32 math.tanh marked afn to the GPU's tanh.approx.f32";
  let description = [{
    The fused 16-bit depthwise kernels compute sigmoid, SiLU and tanh-GELU
    through a tanh that may be approximate (`fastmath<afn>`, see
    `applyActivation`): the result is rounded to 16 bits, and one
    `tanh.approx.f32` (sm_75 and later; relative error about 2^-11) costs
    half the special-function work of an exponential and a reciprocal,
    which bound those kernels. The upstream lowering would call libdevice's
    exact `__nv_tanhf`. This pass, run on GPU code before its NVVM
    lowering, rewrites every f32 `math.tanh` (scalar) whose fastmath flags
    include `afn` into an `llvm.inline_asm` of that instruction. Other
    tanh ops (no `afn`, f16, f64, vectors) are left to the upstream
    lowering; CPU lowerings never run this pass and compute the exact tanh.

    Before:

    ```mlir
    %t = math.tanh %x fastmath<afn> : f32
    ```

    After:

    ```mlir
    %t = llvm.inline_asm "tanh.approx.f32 $0, $1;", "=f,f" %x : (f32) -> f32
    ```
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

#endif // DWC_DIALECT_DWC_TRANSFORMS_PASSES
