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

    Max pooling pads with `-inf` (so padding never wins), average pooling
    divides by a per-position count computed with `linalg.index`, and the
    data gradient spreads `dY` by the strides into a zero tensor and
    correlates it with the 180-degree rotated filter. Only the tensor form is
    accepted: ops on memrefs are reported ("run before bufferization").

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
    Recognises the linalg ops that ML front ends (torch-mlir, TOSA) emit
    and replaces them with dwc ops:

    * `linalg.depthwise_conv_2d_nhwc_hwc` -> `dwc.depthwise_conv2d`, folding a
      producing zero `tensor.pad` into the `padding` attribute;
    * `linalg.pooling_nhwc_max` -> `dwc.pool2d max` (a `-inf` padded input
      folds into `padding`);
    * `linalg.pooling_nhwc_sum` followed by an element-wise division by the
      window size -> `dwc.pool2d avg`;
    * `linalg.conv_2d_nhwc_hwcf` -> `dwc.conv2d`;
    * a sum over H and W (`linalg.generic` to `(d0, d1)`/`(d0, d1, 0, 0)`
      in NCHW or `(d0, d3)`/`(d0, 0, 0, d3)` in NHWC, or `linalg.reduce`)
      divided by `H*W` or multiplied by `1/(H*W)` (rounded: the result can
      then differ by one rounding), and a sum pooling whose window is the
      whole image -> `dwc.global_avg_pool`, reshaped to the division's shape;
    * a sum over N, H and W into C channels (a convolution's bias gradient:
      `linalg.reduce` over dims [0, 2, 3] of NCHW / [0, 1, 2] of NHWC, or
      the `linalg.generic` with one parallel loop, the channel), from zero,
      in f32 (a 16-bit input widened by `arith.extf` in the body) or in the
      f32 / f64 input's type -> `dwc.conv2d_backward_bias` (NCHW input
      transposed first); 16-bit accumulation is left alone (dwc sums in f32).

    The forms other front ends emit are first rewritten, exactly, into those
    NHWC named ops: torch-mlir's `linalg.depthwise_conv_2d_nchw_chw`,
    `linalg.conv_2d_nchw_fchw` and `linalg.pooling_nchw_max/sum` get
    `linalg.transpose`s to NHWC around them (a constant-valued `tensor.pad`
    of the input moves after the transpose, a fill or a
    `linalg.broadcast dimensions = [0, 2, 3]` bias of `outs` is rebuilt in
    NHWC); TOSA's `linalg.conv_2d_nhwc_fhwc` gets its filter transposed to
    HWCF, and `linalg.depthwise_conv_2d_nhwc_hwcm` with a multiplier of 1 (a
    5-D result that is collapsed) becomes the HWC form. The patterns of
    `dwc-propagate-layout` run in the same rewrite: transposes sink through
    element-wise ops and cancel between consecutive dwc ops, and those of
    constant weights fold.

    Raising only happens when the result is equivalent: linalg accumulates
    into its output and dwc ops overwrite, so the linalg op's `outs` must be
    a `linalg.fill` (of any tensor) or a splat constant of +0.0 for sums, of
    `-inf` or the lowest finite value for maxima. For convolutions, `outs`
    may instead broadcast a per-channel 1-D bias (`linalg.broadcast` with
    `dimensions = [0, 1, 2]` or its `linalg.generic` form), which becomes the
    `bias` operand. Shapes must be static, the element type f32, f16 or bf16
    and the same for every operand, and the linalg output size must be the
    one dwc derives from the input (linalg may leave trailing rows unused).

    A `tensor.pad` feeding the op folds into `padding` when it pads only H
    and W, by static amounts (attributes or constant SSA values), with the
    reduction's neutral padding (0 for convolutions and average pooling,
    `-inf`/lowest for max pooling) and, for pooling, by less than the
    window. torch-mlir writes `ceil_mode` as extra high padding (pad +
    stride); when that does not fit the window, the part no window reads is
    dropped first. Otherwise the pad stays and the op is raised on the
    padded tensor with zero padding (still equivalent).

    Average pooling matches a `linalg.generic` whose body is `divf %sum, c`
    (or `mulf` by `1/c` when `c` is a power of two) or a `linalg.div` by a
    splat, with `c` the window size `KH*KW`, exactly representable in the
    element type. A folded zero pad sets `count_include_pad`: linalg windows
    never overhang the padded input, so the divisor is always `KH*KW`.
    An index-dependent divisor (torch-mlir's `count_include_pad = False`
    and `ceil_mode` divisors, TOSA's average pooling), computed in the body
    from `linalg.index` by integer arithmetic, is evaluated at every output
    position and must equal the divisor of `dwc.pool2d avg` with
    `count_include_pad` unset or set on the folded padding, or with
    `ceil_mode` on symmetric padding; otherwise nothing is raised.
    Dilated pooling is not raised.

    f16/bf16 are raised too, although linalg sums in the element type and
    dwc sums in f32: the raised op is deliberately more accurate (what ML
    compilers want), not bit-identical. Summation order may differ as well.
    Everything else (dynamic shapes, integer or mixed types, other initial
    values, memref form) is left untouched.

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
           strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] -> tensor<1x8x8x16xf32>
    ```
  }];
  let dependentDialects = ["mlir::dwc::DwcDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def ConvertDwcToGPU : Pass<"convert-dwc-to-gpu", "mlir::ModuleOp"> {
  let summary = "Lower dwc ops on memrefs to direct GPU kernels (gpu.launch)";
  let description = [{
    Replaces each dwc op in memref form (after one-shot-bufferize) with a
    direct, NHWC-coalesced `gpu.launch` that computes the op's documented
    semantics: a 1-D grid of 256-thread blocks, one output element-vector per
    thread with consecutive threads on consecutive channels, 128-bit vector
    loads (4 x f32, 8 x f16/bf16) when the channel count allows them and
    scalar loads otherwise, zero padding by predicated loads, sums in the
    op's accumulation type rounded once. It covers every legal configuration
    (any stride, dilation, padding, filter shape, channel count and element
    type) and is the correctness baseline the fast paths fall back to.
    Tensor-form dwc ops are refused (bufferize first); the vector path
    assumes 16-byte aligned base pointers.

    Before:

    ```mlir
    dwc.depthwise_conv2d ins(%x, %w : memref<1x8x8x16xf32>, memref<3x3x16xf32>)
      outs(%y : memref<1x8x8x16xf32>)
      strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
    ```

    After:

    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, ...)
               threads(%tx, %ty, %tz) in (%sx = %c256, ...) {
      // gid = bx * 256 + tx -> (n, oh, ow, c/4); for fh, fw: predicated
      // vector.load of x and w, arith.extf, vector.fma into vector<4xf32>
      vector.store %acc, %y[%n, %oh, %ow, %c] : memref<1x8x8x16xf32>, vector<4xf32>
      gpu.terminator
    }
    ```
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::vector::VectorDialect",
                           "mlir::LLVM::LLVMDialect"];
}

def ConvertHostLinalgToGPU : Pass<"convert-host-linalg-to-gpu",
                                  "mlir::ModuleOp"> {
  let summary = "Map the linalg ops left in host code to GPU parallel loops";
  let description = [{
    The generic GPU lowering of the ops of a whole model that are not dwc
    ops (element-wise generics, matmuls, reductions, fills, transposes,
    copies into padded buffers). In host code (outside `gpu.launch` and
    `gpu.module`), on buffers:

    * a `memref.copy` between non-contiguous buffers becomes `linalg.copy`
      (contiguous copies stay: `convert-host-buffers-to-gpu` makes them
      `gpu.memcpy`);
    * every linalg op is generalized, its parallel dimensions are moved
      outermost, and it becomes an `scf.parallel` over them (reduction
      dimensions as sequential `scf.for`s inside: one thread per output
      element, no atomics, the sum in the op's iteration order);
    * that `scf.parallel` is collapsed to one dimension, tiled by
      `block-size` and mapped to `block_x` (tiles) and `thread_x` (the
      elements of a tile, with a bounds guard); an op with no parallel
      dimension runs in a single thread.

    `convert-parallel-loops-to-gpu` then turns the mapped loops into
    `gpu.launch`es. An op it cannot lower (a linalg op on tensors, i.e.
    not bufferized; a non-zero-based loop) is an error.

    Before:

    ```mlir
    linalg.generic {indexing_maps = [#id, #id],
                    iterator_types = ["parallel", "parallel"]}
        ins(%a : memref<4x300xf32>) outs(%b : memref<4x300xf32>) {...}
    ```

    After (before `convert-parallel-loops-to-gpu`):

    ```mlir
    scf.parallel (%t) = (%c0) to (%c1200) step (%c256) {
      scf.parallel (%i) = (%c0) to (%c256) step (%c1) {
        %j = arith.addi %i, %t : index
        %in = arith.cmpi slt, %j, %c1200 : index
        scf.if %in { ... delinearize %j, load, compute, store ... }
      } {mapping = [#gpu.loop_dim_map<processor = thread_x, ...>]}
    } {mapping = [#gpu.loop_dim_map<processor = block_x, ...>]}
    ```
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", "256",
           "Threads per block of the generated kernels (1 to 1024)">
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::gpu::GPUDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::scf::SCFDialect"];
}

def ConvertHostBuffersToGPU : Pass<"convert-host-buffers-to-gpu",
                                   "mlir::ModuleOp"> {
  let summary = "Turn host-side buffer management into GPU buffer management";
  let description = [{
    In the GPU pipeline every buffer a host function handles lives in device
    memory. This pass rewrites, in host code (outside `gpu.launch` and
    `gpu.module`):

    * `memref.alloc` -> `gpu.alloc`, `memref.dealloc` -> `gpu.dealloc`;
    * `memref.copy` -> `gpu.memcpy` (both buffers contiguous);
    * `memref.get_global` (constants) -> a `gpu.alloc`'ed copy, filled by
      `gpu.memcpy` from the host global and freed before each return.

    Any other host op that reads or writes a buffer (e.g. a leftover
    `linalg` op or `memref.load`) is an error: it would touch device memory
    from the host.

    Before:

    ```mlir
    %t = memref.alloc() : memref<1x8x8x16xf32>
    memref.copy %a, %t : memref<1x8x8x16xf32> to memref<1x8x8x16xf32>
    memref.dealloc %t : memref<1x8x8x16xf32>
    ```

    After:

    ```mlir
    %t = gpu.alloc () : memref<1x8x8x16xf32>
    gpu.memcpy %t, %a : memref<1x8x8x16xf32>, memref<1x8x8x16xf32>
    gpu.dealloc %t : memref<1x8x8x16xf32>
    ```
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect",
                           "mlir::memref::MemRefDialect"];
}

def ConvertDwcToGPUGemv : Pass<"convert-dwc-to-gpu-gemv", "mlir::ModuleOp"> {
  let summary = "Lower depthwise convolutions to the Flash-DWC GEMV-dataflow CUDA-core kernel";
  let description = [{
    Replaces each memref-form `dwc.depthwise_conv2d` and stride-1
    `dwc.depthwise_conv2d_backward_data` whose `dwc.kernel` is a
    `#dwc.gemv` (below), a `#dwc.row_tile` (register row tiles, further
    below), a `#dwc.plane` (planes in shared memory, below those) or a
    `#dwc.full_row` (one output row per thread, below those) with a tiled
    `gpu.launch` (kernel `<func>_gemv` / `<func>_row_tile` / `<func>_plane`
    / `<func>_full_row`); `dwc-select-kernels` chooses the kernel and its
    fields (docs/KernelSelection.md), ops without such a configuration are
    left alone. The GEMV kernel follows the Flash-DWC GEMV dataflow on CUDA
    cores:

    * workload tiling: a block owns BN consecutive channels (32 for f32,
      64 for f16/bf16 with 128-bit vectors, 32 with 64-bit ones) and 16
      output patches of TM consecutive outputs along the width (BM =
      16*TM); 4 warps of 8 x 4 threads: 8 threads cover the BN channels
      with 128-bit loads (one 128-byte transaction; 64-bit f16/bf16 loads:
      64 bytes), 4 threads take adjacent patches; f16/bf16 filters of at
      most 9 taps take the 64-bit vectors (twice the threads at half the
      registers: the kernel is memory-bound there) and read the filter
      through L1 instead of shared memory;
    * each thread computes TM outputs x 128 bits of channels in registers,
      accumulating in f32 (f16/bf16 inputs are widened once when loaded
      and the result rounded once);
    * filter reuse: the block stages one filter row (FW taps x BN channels,
      rows padded by 16 bytes) in shared memory with `cp.async.cg`
      (L2 only), double-buffered: the next row is prefetched while the
      current one is used;
    * width-first input reuse: the FH x FW filter is split into FH rows; for
      each row the thread keeps a register window of TM input vectors and
      loads one new vector per filter tap (the FW loop is fully unrolled
      for the static filter width), each filter vector feeding TM FMAs;
    * padding by predication: a filter row that lies wholly in the padding
      is skipped, width padding is a clamped in-bounds load and a select
      (no branch in the inner loop); outputs past OW are not stored.

    Backward data: a stride-1 `dwc.depthwise_conv2d_backward_data` is the
    forward convolution of dY with the 180-degree rotated filter under the
    transposed padding (top' = FH-1-top, left' = FW-1-left; bottom and right
    follow from the shapes, asymmetric padding included), so it takes the
    same kernel with the rotation fused into the filter loads (tap
    (FH-1-i, FW-1-j) is read for (i, j): nothing is materialised). Padding
    larger than the filter extent minus one (a negative transposed padding)
    is left to the direct kernel.

    Register row tiles (`#dwc.row_tile`: filters of at most 49 taps,
    forward and backward data): a second kernel for short filters, where
    the GEMV kernel re-reads each input row once per output row. A thread owns TH output rows x TM outputs
    along the width x V channels (1-D grid, channel vectors innermost); it
    visits the TH + FH - 1 input rows of its tile in order,
    loads each row's TM + FW - 1 vectors once and feeds every output row r
    of the tile with filter row t - r; an output row is rounded and stored
    right after its last filter row (at most FH rows of accumulators live).
    The filter stays in f32 registers (`filter = "registers"`, chosen when
    FH x FW x V <= 200: up to 7 x 7 f16), else its vectors are
    read through L1 at each use. No branches: padding rows and columns are
    clamped loads replaced by
    zeros (selected as 32-bit words before they are widened: one select per
    two 16-bit channels), so all loads of a tile may be in flight together.
    A row or column the tile does not divide ends with a tile moved back
    to the image's edge (overlapping its neighbour, no guarded stores).
    `min_blocks_per_sm` becomes a `dwc.min_blocks_per_sm` marker on the
    first store (nvvm.minctasm on the outlined kernel); `loads_first`
    loads the tile's whole window before its first FMA under an explicit
    register budget. Which tile each shape gets: docs/KernelSelection.md
    (row tile).

    Planes in shared memory (`#dwc.plane`: filters of at most 49 taps,
    forward and backward data, and strided forward ops): for small maps,
    where the row tiles re-read a 7x7 filter's halo per tile and widen each
    16-bit load for few FMAs. A block (1-D grid over images x row bands x channel groups) copies
    its band's input rows with the zero halo into a shared f32 plane once
    (up to 128-bit loads, clamped and zeroed in the halo, widened; rows
    padded against bank conflicts), one barrier, then each thread computes
    a row tile from the plane like the row-tile kernel (no bounds checks,
    no conversions: shared-memory loads and FMAs), the filter in registers.
    Tails: the last band and tile are moved back to the edge (overlapping,
    same values stored).

    Full rows (`#dwc.full_row`, kernel `<func>_full_row`; filters larger
    than the map): a thread computes one whole output row of `channels`
    channels; its filter rows are a loop over the input rows the window covers (bounds
    from the output row: no padding row is visited, `unroll` rows per
    step, rows past the window zeroed) and the (input column, output
    column) pairs whose tap lies in the filter are unrolled at compile
    time, so a filter larger than the map multiplies no padding (27 x 27
    on 14 x 14: at most 196 FMAs per output). Inputs and filter vectors
    are read through L1; no shared memory, no barrier.

    Eligible (Configs/Gemv.h; dwc-select-kernels leaves everything else to
    the other families and `convert-dwc-to-gpu`, the direct kernel): f32,
    f16 or bf16 with f32 accumulation, strides 1, dilations 1, C a multiple
    of the channel vector, identity layouts. `outputs` (TM) is chosen as
    min(8, OW) (8 outputs amortise each filter vector over 8 FMAs while
    keeping 2 x 8 vectors of registers).

    Before:

    ```mlir
    dwc.depthwise_conv2d ins(%x, %w : memref<1x8x8x32xf32>, memref<3x3x32xf32>)
      outs(%y : memref<1x8x8x32xf32>)
      strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
      {dwc.kernel = #dwc.gemv<channels = 4, outputs = 8, filter = "global", rows = "loop">}
    ```

    After:

    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%c1, %c1, %c1)
               threads(%tx, %ty, %tz) in (%c128, %c1, %c1) {
      // per thread: 8 outputs x vector<4xf32>, for each filter row:
      //   window of 8 vector.loads, then per tap one new vector.load,
      //   one filter vector.load and 8 vector.fma
      gpu.terminator
    }
    ```

    After, the same op in f16 with
    `#dwc.row_tile<channels = 4, rows = 4, columns = 4, filter = "registers">`:

    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%c1, %c1, %c1)
               threads(%tx, %ty, %tz) in (%c256, %c1, %c1) {
      // 32 threads of 256 active (2 x 2 tiles x 8 channel vectors); each:
      // 9 filter vector<4xf16> loads (kept as f32), then for
      // each of the 6 input rows of a 4-row tile: 6 vector.loads and the
      // vector.fma of every output row it touches; row r stored after
      // input row r + 2
      gpu.terminator
    }
    ```
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::vector::VectorDialect",
                           "mlir::nvgpu::NVGPUDialect"];
}

def ConvertDwcToGPUPool : Pass<"convert-dwc-to-gpu-pool", "mlir::ModuleOp"> {
  let summary = "Lower NHWC pooling (forward, backward, fused with a depthwise convolution) to bandwidth-oriented GPU kernels";
  let description = [{
    Replaces memref-form `dwc.pool2d`, `dwc.pool2d_backward` and
    `dwc.depthwise_conv2d_pool2d` carrying a `#dwc.pool_forward`,
    `#dwc.pool_backward` or `#dwc.conv_pool` configuration (attached by
    `dwc-select-kernels`; include/dwc/Dialect/Dwc/IR/Configs/Pool.td lists
    the fields) with `gpu.launch` kernels built to stream memory once. The
    pass makes no choice of its own: ops without such a configuration, or
    with another family's, are left alone.

    * Channel vectors: every thread owns V consecutive channels (128 bits:
      4 x f32, 8 x f16/bf16; `vector_bits` for the forward kernel), so
      loads and stores are vectors and C/V consecutive threads cover whole
      NHWC rows (coalesced).
    * `pool2d`, `rows = 1`: 1-D grid of 256-thread blocks, a thread
      computes a strip of `columns` consecutive outputs along the width.
      Width-first register reuse: for each window row the
      (columns-1)*sw + KW input columns of the strip are loaded once each
      and folded into every output of the strip whose window holds them.
      Max compares in the element type (exact); avg sums in `acc` (f32 for
      f16/bf16 too) and divides by the forward divisor (count_include_pad,
      ceil_mode overhang) computed per output. Padding is exact: a window
      row wholly outside the input is skipped (scf.if), a column outside is
      a clamped in-bounds load replaced by the neutral element (-inf or 0).
    * `pool2d`, `rows > 1` (windows overlapping in height, KH > sh): a
      thread owns `rows` output rows x `columns` outputs x V channels and
      visits the tile's (rows-1)*sh + KH input rows once each (separable:
      per input row the KW-tap partial of every strip output, then folded
      into the output rows whose window holds the row; a row is divided and
      stored after its last window row). Rows and columns outside the input
      are clamped loads replaced by the neutral element (no branches).
    * `pool2d_backward`, as a gather (no atomics, dX written once): a
      thread owns a strip of `columns` consecutive dX positions (a multiple
      of the width stride) x V channels; for every window row kh with
      `(ih + pt - kh) % sh == 0` the windows covering the strip are visited
      once each (their dY vector loaded once) and each adds to the strip
      outputs it covers: avg `dY / divisor`; max `dY` where the window's
      argmax tap is this position. The argmax comes from X (nothing is
      stored by the forward op): the window's taps inside the input are
      scanned in row-major order keeping the first strict maximum (the
      tie-breaking of the op). `argmax = "recompute"`: the gather rescans
      each window it visits; `"stored"`: a first kernel (`argmax_columns`
      windows per thread) writes each window's tap index as i8 to a
      `memref.alloc` workspace of dY's shape, which the gather reads
      instead; `"packed"`: the same, the 16-bit scan on packed pairs
      (`set.gt.u32.{f16x2,bf16x2}`, inline PTX). The scan costs one compare
      and two selects per tap and lane: taps outside the input are loaded
      as -inf, and the running tap starts at the window's first tap inside
      the input (so an all -inf window keeps it; NaN never wins). Sums in
      `acc`, one rounding. Any channel count (V = 1 scalar accesses when
      C % V != 0).
    * `pool2d_backward`, `rows > 1`: stride-1 averages as row tiles (the
      dX box sum of the scaled dY, like the forward row tiles); strided
      windows as tiles of `rows` x `columns` aligned to the stride, whose
      covering windows and taps are static: each window visited once (one
      dY load, for max one i8 tap-vector load compared with constant tap
      indices), no per-row parity branch and, for avg, NR + NW reciprocal
      divisors per thread instead of one per window.
    * `depthwise_conv2d_pool2d`: a thread owns `columns` pooled outputs and
      computes the convolution columns their windows need in registers; the
      convolution output never goes to memory (`dwc-decompose-conv-pool`
      splits the fused ops that carry no `#dwc.conv_pool`).

    Kernels are named `<func>_pool_forward`, `<func>_pool_backward`
    (`<func>_pool_backward_argmax` for the stored argmax) and
    `<func>_conv_pool`. Refused: tensor form (bufferize first). Vector
    accesses assume 16-byte aligned base pointers.

    Before:

    ```mlir
    dwc.pool2d max ins(%x : memref<1x8x8x16xf32>) outs(%y : memref<1x4x4x16xf32>)
      window = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1]
      {dwc.kernel = #dwc.pool_forward<vector_bits = 128, rows = 1, columns = 4>}
    ```

    After:

    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%c1, %c1, %c1)
               threads(%tx, %ty, %tz) in (%c256, %c1, %c1) {
      // gid -> (n, oh, strip, c/4); per window row: 9 vector.load columns,
      // each folded with arith.maximumf into the 4 outputs that contain it
      vector.store %m0, %y[%n, %oh, %ow0, %c] : memref<1x4x4x16xf32>, vector<4xf32>
      ...
      gpu.terminator
    }
    ```
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::vector::VectorDialect",
                           "mlir::LLVM::LLVMDialect"];
}

def ConvertDwcToGPUGlobalPool
    : Pass<"convert-dwc-to-gpu-global-pool", "mlir::ModuleOp"> {
  let summary = "Lower global average pooling, its gradient and bias gradients to streaming GPU kernels";
  let description = [{
    Replaces memref-form `dwc.global_avg_pool` and `dwc.pool2d avg` whose
    window is the whole input (no padding, no activation) carrying a
    `#dwc.global_pool` configuration, and `dwc.pool2d_backward avg` with
    such a window (the broadcast-divide
    `dX[n, h, w, c] = dY[n, 0, 0, c] / (H * W)`) carrying a
    `#dwc.global_pool_backward` one (attached by `dwc-select-kernels`),
    with `gpu.launch` kernels that stream X (or dX) once at memory
    bandwidth, named `<func>_global_pool` and `<func>_global_pool_backward`.
    Ops without such a configuration are left alone.

    * Channel vectors: a thread owns vw consecutive channels, the widest
      power of two of at most 128 bits dividing C (4 x f32, 8 x f16/bf16;
      narrower vectors, down to scalars, for other C).
    * A block owns one image and a tile of CT channel vectors (a power of
      two <= 32, field `channel_tile`) and R position rows (CT x R threads,
      field `threads`): thread (r, cv) visits positions r, r + R, ... of
      the H * W, K = ceil(H*W / R) of them. CT is the widest tile (32
      vectors, or C rounded up to a power of two), halved while the grid
      has fewer blocks than SMs (of #dwc.target; N = 1), not below 64
      bytes per row: wide rows stream faster even with idle lanes
      (docs/KernelSelection.md, "global pool"). R gives 256 threads (fewer for small maps), doubled
      up to 1024 while the grid holds less than half of the GPU's threads.
    * Bytes in flight: a thread's positions are visited in groups of
      `unroll` (field) independent 128-bit loads (or stores) per scf.for step,
      K <= 16 unrolled completely; only a thread's last position can lie
      past H * W (a clamped load whose value is replaced by zero; a guarded
      store).
    * Reduction without atomics: f32 (`acc`) sums per thread, a butterfly
      (`gpu.shuffle xor`) over the lanes of a warp that hold the same
      channels (lanes CT apart), the warps' sums through workgroup memory,
      added and divided by H * W by the first CT lanes.
    * Backward: each thread loads its dY vector once, divides it by H * W
      in `acc`, rounds once and stores it at its K positions. With no
      reduction to keep in one block, a grid of fewer blocks than SMs
      (N = 1) splits each image's positions over S blocks (~2 blocks per
      SM; field `position_blocks`): block s takes position rows
      s * R + r + k * R * S. (Not yet timed on the GPU: batch-1 gradients
      ran on 6-80 blocks at 0.37-0.95x PyTorch before the split.)
    * Bias gradient (`dwc.conv2d_backward_bias` carrying
      `#dwc.backward_bias`): the reduction's layout over the
      `slices` x (N * OH * OW / slices) x C view of dY (block = slice x
      channel tile) into an f32 `slices` x C workspace
      (`<func>_backward_bias_slices`), then the same reduction over the
      workspace viewed as 1 x slices x C into dB
      (`<func>_backward_bias_total`): two ordered sums, no atomics, so the
      result is the same on every run. One slice is summed straight into
      dB (one launch, no workspace).

    The configuration's rules (include/dwc/Dialect/Dwc/IR/Configs/Pool.h)
    refuse non-identity layouts, dynamic shapes, grids over 2^31 - 1
    blocks and pooling that is not global; this pass refuses the tensor
    form (bufferize first). Vector
    accesses assume base pointers aligned to the vector (16 bytes).

    Before:

    ```mlir
    dwc.global_avg_pool ins(%x : memref<128x7x7x768xf32>)
      outs(%y : memref<128x1x1x768xf32>)
      {dwc.kernel = #dwc.global_pool<channel_tile = 32, threads = 256, unroll = 8>}
    ```

    After (CT = 32 channel vectors x R = 8 rows, K = 7 loads per thread):

    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%c768, %c1, %c1)
               threads(%tx, %ty, %tz) in (%c256, %c1, %c1)
               workgroup(%part : memref<8x32x4xf32, #gpu.address_space<workgroup>>) {
      // n = bx / 6, c = 4 * ((bx % 6) * 32 + tx % 32), r = tx / 32
      %v0 = vector.load %flat[%n, %r, %c] : memref<128x49x768xf32>, vector<4xf32>
      ...   // 7 loads at positions r, r + 8, ... (the last clamped + select)
      vector.store %s, %part[%warp, %cvl, %c0] ...
      gpu.barrier
      // tx < 32: 8 partial sums added, divided by 49
      vector.store %mean, %y[%n, %c0, %c0, %c] : memref<128x1x1x768xf32>, vector<4xf32>
    }
    ```
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::vector::VectorDialect"];
}

def ConvertDwcToGPUMma : Pass<"convert-dwc-to-gpu-mma", "mlir::ModuleOp"> {
  let summary = "Lower f16/bf16 depthwise convolutions configured #dwc.mma_band / #dwc.mma_ring to the Flash-DWC tensor-core (mma.sync) kernels";
  let description = [{
    Replaces each memref-form `dwc.depthwise_conv2d` and
    `dwc.depthwise_conv2d_backward_data` carrying a complete
    `dwc.kernel = #dwc.mma_band<...>` or `#dwc.mma_ring<...>` (set by
    `dwc-select-kernels`, or written by the user) with a `gpu.launch` of
    that configuration; ops without one, or with another family's, are left
    alone. The pass has no options: the configuration decides everything
    and the target's shared memory per block (`#dwc.target`) bounds it
    (the rules and the layout: dwc/Dialect/Dwc/IR/Configs/Mma.h).

    Both kernels run the Flash-DWC GEMV->GEMM packing on tensor cores:

    * a GEMV is 8 consecutive outputs of one row and channel; 16 spatially
      adjacent GEMVs (R rows x G groups of 8 outputs, G = pow2 >= OW/8 in
      [4, 16]) form the A matrix (16 x 16) of one m16n8k16
      `nvgpu.mma.sync` per channel, f32 accumulators (bf16:
      `nvvm.mma.sync` directly, as the nvgpu lowering does not handle
      bf16); a block owns 64 channels (`warp_channels` per warp: 4 warps
      of 16 or 8 of 8);
    * input rows and filter taps are copied into shared memory by 16-byte
      `nvgpu.device_async_copy` (cp.async; inputs L1-cached, filters L2
      only), padding and tails by zero-fill (source count 0), double-
      buffered: stage s+1 is in flight while stage s is multiplied;
    * results are stored as 8-channel 16-byte vectors.

    `#dwc.mma_ring`: width-9 filter fragments, B (16 x 8) read from
    compressed 23-element vectors (`B[k][i] = z[k-i+7]`). With `ring`, a
    pipeline stage is a whole filter row: R + 1 input row slots of
    8G + 9 ceil(FW/9) - 1 columns renumbered circularly (each stage copies
    one new input row), positions padded to 144 bytes with a gap after
    every 8 columns (no XOR swizzle); without, `frags_per_stage` fragments
    of a row share one XOR-swizzled input tile per stage.

    `#dwc.mma_band`: K = 16 slices of each filter row's Toeplitz band
    instead of width-9 fragments (slice p multiplies input blocks 2p, 2p + 1
    with `B[k][i] = v[16p + k - i + 7]`, v = the filter row with 7 zeros in
    front), the mma's GEMV rows on adjacent output groups so that a lane's
    block registers serve both rows and consecutive slices (carried in
    iter_args, or unrolled with `unroll`); `filter_pairs` / `input_pairs`:
    a first kernel writes pair workspaces (memref.alloc, freed after the
    op); `rows` = T: each warp multiplies T tiles stacked along the height
    with the same B registers (TR + 1 ring slots); `one_barrier`: one
    barrier per stage (one more slot, a third filter buffer); `copy_split`:
    a thread's copies share chunk and address part; `min_blocks_per_sm`
    marks the kernel for `dwc-kernel-occupancy`.
    test/Conversion/DwcToGPUMma/Inputs/{band,packing}_model.py mirror the
    index math.

    Stride-1 backward-data ops take the same kernels as the forward
    convolution of dY with the 180-degree rotated filter under the
    transposed padding (top' = FH-1-top, left' = FW-1-left), the rotation
    fused into the filter copies. Tiles over 48 KB use dynamic shared
    memory. Vector accesses assume 16-byte aligned base pointers. Kernels
    are named `<func>_mma_band` / `<func>_mma_ring` (the workspace kernels
    `<func>_mma_band_filter_pairs`, `<func>_mma_band_input_pairs`).

    Before:

    ```mlir
    dwc.depthwise_conv2d ins(%x, %w : memref<1x8x32x64xf16>, memref<3x3x64xf16>)
      outs(%y : memref<1x8x32x64xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
      {dwc.kernel = #dwc.mma_ring<ring = false, frags_per_stage = 1,
                                  warp_channels = 16>}
    ```

    After:

    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%c2, %c1, %c1)
               threads(%tx, %ty, %tz) in (%c128, %c1, %c1)
               workgroup(%in : memref<2x160x64xf16, #gpu.address_space<workgroup>>,
                         %z : memref<2x23x64xf16, #gpu.address_space<workgroup>>)
               function(@f_mma_ring) {
      // cp.async stage 0; scf.for over FH x ceil(FW/9) stages:
      //   cp.async stage s+1, commit, wait(1), barrier,
      //   16 x nvgpu.mma.sync {mmaShape = [16, 8, 16]} per warp, barrier
      // truncf + vector.store of 8 channels per output
      gpu.terminator
    }
    ```
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::vector::VectorDialect",
                           "mlir::nvgpu::NVGPUDialect",
                           "mlir::NVVM::NVVMDialect",
                           "mlir::LLVM::LLVMDialect"];
}

def ConvertDwcToGPUMmaStream
    : Pass<"convert-dwc-to-gpu-mma-stream", "mlir::ModuleOp"> {
  let summary = "Emit the streaming band kernel on tensor cores for the ops configured #dwc.mma_stream";
  let description = [{
    Emits the kernels of every `dwc.depthwise_conv2d` and stride-1
    `dwc.depthwise_conv2d_backward_data` (memref form) whose `dwc.kernel`
    is a complete `#dwc.mma_stream` (chosen by `dwc-select-kernels`, or
    written by the user; ops with no configuration or another family's are
    left alone). The configuration's fields are described with the
    attribute; the kernel:

    * the band packing of `convert-dwc-to-gpu-mma` (K = 16 slices of each
      filter row's Toeplitz band) with the loops turned around for wide
      filters: one warp owns one channel and a tile of 128 outputs along
      the width (16 groups of 8 with `input_operand = a`, 8 groups of 16
      with `b`: one image row, or several images of S groups for narrow
      rows, S a power of two); a block owns 8 channels (8 warps), the tile
      and `row_blocks_per_chunk` row blocks;
    * a row block is `rows` = R output rows. The warp streams the R + FH - 1
      input rows the block needs, each loaded once (all R x FH x slices mma
      of the row block are unrolled, so the accumulators stay in registers
      and every shared-memory offset is a constant), in the `loop_order`
      `filter_rows` (step fh loads the filter operand of (fh, slice) once
      and multiplies it with input rows fh .. fh + R - 1) or `input_rows`
      (a row's words are multiplied with every filter row it meets);
    * the rows come from a channel-major workspace written by a first
      kernel, `xt[n][h][c][pc] = x[n][h][pc - pl][c]` (zero-padded columns
      or, with `compact_workspace`, only the left padding modulo 2; followed
      by a zero row that rows outside the image read): an input word is one
      aligned 32-bit global load, issued `prefetch` steps ahead; the rows
      due before a row block's first step are loaded by the previous one
      and carried through the loop;
    * a second first kernel writes the band entries of every channel
      (backward data: the rotated filter); each block copies its 8
      channels' entries into shared memory with 16-byte loads; with
      `filter_in_registers` the operands are loaded once;
    * each row block's accumulators go through shared memory
      ([warp][row][position]) into 16-byte stores of 8 channels;
    * `min_blocks_per_sm` becomes `dwc.min_blocks_per_sm` on the first
      barrier (nvvm.minctasm: ptxas caps the registers);
    * `smem_input`, `nhwc_input` and `overlap_workspace` move the input rows
      through shared memory, drop the workspace or write it inside the
      streaming launch (producer and consumer blocks, roles from an atomic
      ticket in start order, so no schedule deadlocks);
    * `stream_columns` turns a filter taller than wide into a wide one: the
      kernel is emitted for the shape with height and width swapped and
      only the workspace's input loads, the band's filter loads and the
      output stores swap their indices back (`x[n][col][row][c]`,
      `w[tap][row][c]`, `y[n][col][row][c]`).

    docs/KernelSelection.md ("streaming tensor-core kernel") has the
    evidence of each choice, against the ring kernel of
    `convert-dwc-to-gpu-mma` among others.
    test/Conversion/DwcToGPUMmaStream/Inputs/stream_model.py mirrors the
    index math. Over 48 KB the kernel takes dynamic shared memory. The
    kernels are named `<func>_mma_stream_workspace`, `<func>_mma_stream_band`
    and `<func>_mma_stream`.

    Before:

    ```mlir
    dwc.depthwise_conv2d ins(%x, %w : memref<1x6x128x16xf16>, memref<13x13x16xf16>)
      outs(%y : memref<1x6x128x16xf16>)
      strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6]
      {dwc.kernel = #dwc.mma_stream<input_operand = b, loop_order = filter_rows,
         rows = 2, prefetch = 2, compact_workspace = true,
         filter_in_registers = true, row_blocks_per_chunk = 1,
         min_blocks_per_sm = 2>}
    ```

    After (input B, 2 slices):

    ```mlir
    %xt = memref.alloc() : memref<12432xf16>   // 1 x 6 x 16 x 128 + zero row
    gpu.launch ... threads(...) in (%c256, ...) {
      // eight 16-byte loads of %x, an 8 x 8 transpose, eight 16-byte stores
    }
    %bw = memref.alloc() : memref<53248xf16>   // 2 x 13 x 8 x 32 entries x 8
    gpu.launch ... { // one band entry per thread: 8 filter taps, one store }
    gpu.launch blocks(...) in (%c6, ...) threads(...) in (%c256, ...)
        dynamic_shared_memory_size %c57344_i32 {
      // the block's band entries -> shared memory (16-byte copies)
      gpu.barrier {dwc.min_blocks_per_sm = 2 : i64}
      scf.for %rb = ... iter_args(<prefetched input words>) {
        // per filter row fh: the input rows due (4 vector.load vector<2xf16>
        // of %xt each), then per slice the filter fragment (vector.load of
        // the band) and per output row o
        // nvgpu.mma.sync(%filt, %in[o + fh], %acc[o]) {mmaShape = [16, 8, 16]}
        //   : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>)
        // accumulators -> stage, gpu.barrier, 16-byte stores to %y, gpu.barrier
      }
    }
    memref.dealloc %xt
    memref.dealloc %bw
    ```
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::vector::VectorDialect",
                           "mlir::nvgpu::NVGPUDialect",
                           "mlir::NVVM::NVVMDialect",
                           "mlir::LLVM::LLVMDialect"];
}

def DwcSelectKernels : Pass<"dwc-select-kernels", "mlir::ModuleOp"> {
  let summary = "Decide the kernel of each dwc op and record it as dwc.kernel";
  let description = [{
    The one place that decides which kernel implements a dwc op, by the
    module's `#dwc.target` (dwc-attach-target) and the op's shape: each
    kernel family's selector (dwc/Conversion/KernelSelection.h) is asked in
    priority order, and the first configuration one returns is attached as
    `dwc.kernel = #dwc.<family><...>`. The kernel passes only emit what the
    attribute says. An op that already carries a complete configuration
    keeps it (tuning sweeps, a user's choice: written in the input IR, it
    survives bufferization); a partial one (fields left out) is completed
    by its own family, or is an error if that family cannot take the op.
    With `diagnose`, a remark per op says what was chosen and why the other
    families refused. Ops no selectable family takes are left without a
    configuration, for the kernel passes that still decide for themselves
    (docs/KernelSelection.md lists the families selected here and the
    evidence behind each rule).

    Before (after bufferization):

    ```mlir
    dwc.depthwise_conv2d ins(%x, %w : memref<2x16x16x32xf32>, memref<3x3x32xf32>)
      outs(%y : memref<2x8x8x32xf32>)
      strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
    ```

    After:

    ```mlir
    dwc.depthwise_conv2d ins(%x, %w : memref<2x16x16x32xf32>, memref<3x3x32xf32>)
      outs(%y : memref<2x8x8x32xf32>)
      strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
      {dwc.kernel = #dwc.strided_forward<channels = 4, rows = 2, columns = 8>}
    ```
  }];
  let options = [
    Option<"diagnose", "diagnose", "bool", /*default=*/"false",
           "Remark per op: the configuration chosen and the families that "
           "refused it, with their reasons">,
  ];
}

def ConvertDwcToGPUStrided : Pass<"convert-dwc-to-gpu-strided", "mlir::ModuleOp"> {
  let summary = "Lower strided depthwise convolutions and input gradients to register-window / phase-decomposed gather kernels";
  let description = [{
    Replaces each memref-form `dwc.depthwise_conv2d` carrying
    `dwc.kernel = #dwc.strided_forward<...>` and each
    `dwc.depthwise_conv2d_backward_data` carrying
    `#dwc.strided_gather<...>` (set by `dwc-select-kernels`: a stride other
    than 1, every downsampling block of MobileNet and EfficientNet) with a
    CUDA-core kernel of that configuration; ops without one are left alone. Both are 1-D grids of 256-thread blocks with channel vectors
    innermost (NHWC-coalesced loads and stores), keep the FH x FW filter
    vectors in f32 registers, sum in f32 and round once for f16/bf16. V
    (channels per thread) is the configuration's `channels`. Borders by predication: loads outside the source are
    clamped loads replaced by zeros, stores outside the destination are
    skipped; only the checks that can fail for the thread's static index
    ranges are emitted.

    Forward: a thread owns TH output rows (`rows`) x TQ consecutive output
    columns (`columns`) x V channels and slides a register window of FW
    input columns of (TH-1)*sh + FH vectors along the width, over the
    stride-interleaved input columns: the max(FW - sw, 0) columns that
    output column ow shares with ow + 1 stay in registers, the others are
    loaded (sw new columns per output column at 3x3 / 5x5 stride 2, against
    FW in the direct kernel), and each loaded row serves every output row
    of the tile it meets (height reuse). TH*FH*FW FMAs per step.

    Backward data: a phase-decomposed gather, without divisibility tests or
    atomics. Writing h + pt = t*sh + ph and w + pl = q*sw + pw
    (0 <= ph < sh, 0 <= pw < sw),

      dX[n, h, w, c] = sum_{j, i} dY[n, t - j, q - i, c] *
                                  W[ph + sh*j, pw + sw*i, c]

    over the taps ph + sh*j < FH, pw + sw*i < FW: a dX pixel only receives
    the taps of its phase (ph, pw), a static set, and the dY pixels it
    reads are those of its "super pixel" (t, q) and its ceil(FH/sh) - 1
    upper and ceil(FW/sw) - 1 left neighbours, for all sh*sw phases alike.
    A thread owns one super row t (the sh dX rows of every row phase) x TQ
    consecutive super columns (`columns`; the last segment of a row is cut
    at the edge) x V channels. Per super column one new dY
    column of ceil(FH/sh) vectors enters a register window of ceil(FW/sw)
    columns (after a warm-up of ceil(FW/sw) - 1 columns); the sh*sw dX
    vectors of the super pixel are summed from the window (FH*FW FMAs:
    every product once) and stored right away.

    The configurations fit (their verifier and `dwc-select-kernels` share
    the rule, dwc/Dialect/Dwc/IR/KernelConfigs.h): a stride other than
    [1, 1] (stride 1 takes the
    GEMV / tensor-core kernels), dilations 1, filters of at most 49 taps
    (every tap of a step is unrolled, the filter lives in registers),
    f32/f16/bf16 operands (and bias) of one element type with f32
    accumulation, identity layouts, C a
    multiple of 32 bits (any C for f32, even C for f16/bf16), non-negative
    padding. Vector accesses assume base pointers aligned to the vector
    width.

    Before:

    ```mlir
    dwc.depthwise_conv2d_backward_data
      ins(%dy, %w : memref<2x4x4x32xf32>, memref<3x3x32xf32>)
      outs(%dx : memref<2x8x8x32xf32>)
      strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1]
      {dwc.kernel = #dwc.strided_gather<channels = 4, columns = 4>}
    ```

    After:

    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, ...)
               threads(%tx, %ty, %tz) in (%sx = %c256, ...) {
      // gid -> (n, super row t, segment, channel vector c)
      // 9 filter vector.loads; per super column q: 2 vector.loads of dY
      // (rows t, t - 1), the 2x2 dX vectors of the phases with 4 / 2 / 2 / 1
      // vector.fma each, 4 vector.stores (under scf.if at the borders)
      gpu.terminator
    }
    ```
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::vector::VectorDialect"];
}

def ConvertDwcToGPUBackwardFilter
    : Pass<"convert-dwc-to-gpu-backward-filter", "mlir::ModuleOp"> {
  let summary = "Lower depthwise filter gradients to streaming / split-z CUDA-core kernels with f32 atomics, or the small-map image kernel";
  let description = [{
    Replaces each memref-form `dwc.depthwise_conv2d_backward_filter` whose
    `dwc.kernel` is a `#dwc.bwd_filter_stream` or `#dwc.bwd_filter_split_z`
    (chosen with its fields by `dwc-select-kernels`, docs/KernelSelection.md;
    ops without such a configuration are left alone) with kernels
    (`<func>_bwd_filter_<stream|split_z>`, plus `_zero` and `_convert`
    launches) that parallelise along the accumulation axis (the filter
    gradient FH x FW x C is small, the reduction over N x OH x OW is large):

    1. a zero-fill kernel clears an f32 accumulation buffer (dW itself when
       it is f32, otherwise an f32 workspace `memref.alloc`ed next to the op
       and freed after it);
    2. a. small filters, FH*FW <= 9 (`#dwc.bwd_filter_stream`, up to 49 if requested; 3x3 and
       smaller; their gradient is bound by reading X and dY once): the
       streaming kernel. A thread owns one 128-bit channel vector (4 f32 /
       8 f16/bf16 channels) and all FH*FW taps as f32 register
       accumulators; a block is `lanes` = min(C/V, 64, T) channel vectors
       (consecutive threads, coalesced 128-bit loads) x T/lanes workers
       (T = `threads`, 256). The N*OH output rows are cut into
       row blocks of R rows (`rows`; chosen: R = 3 for f32, 2 for
       f16/bf16, the fastest measured); worker w of a channel group
       streams row blocks w, w + W, w + 2W, ... (W workers per group), so
       the neighbours of a row block are read at the same time by the
       neighbouring workers and DRAM sees each byte about once. Per output
       column a new column of R+FH-1 input vectors enters a register window
       of FW columns (width reuse; the R+FH-1 rows serve all R output rows:
       height reuse), R dY vectors are loaded and R*FH*FW FMAs accumulate.
       Interior row blocks (all rows inside the image) and columns run
       without predicates (clamped loads and selects only at the borders);
       the column loop is unrolled by 4 with the window carried. At the end
       the block sums its workers' vectors tap by tap in shared memory (one
       T x V f32 buffer, `gpu.barrier`) and the first worker of each
       channel lane adds the sum with one f32 atomic per tap and channel
       (with `reduce = "atomics"`, no shared memory or barriers: every
       thread adds its own sums, as the host emulation needs).
       Rule for W: one wave of resident blocks. Resident blocks per SM come
       from an estimate of the registers per thread,
       regs = (FH*FW + FW*(R+FH-1) + R) * V + 48, as
       min(65536 / (T * round8(regs)), 2048 / T) (1 for 3x3 at T = 256;
       ptxas uses 248 (f32, R = 3) / 227 (f16, R = 2) registers, no spills);
       then
       W0 = max(1, sm-count * blocksPerSM / groups) * workersPerBlock,
       iterations = ceil(N*ceil(OH/R) / W0) and W = ceil(N*ceil(OH/R) /
       iterations), so that every worker streams the same number of row
       blocks (W0 is the configuration's `workers`). The measurements of R,
       T and the one-wave rule are in docs/KernelSelection.md ("backward
       filter").
       b. larger filters: the split-z kernel: the N*OH rows of dY are split
       into Z contiguous
       slices; a block is 8 threads along channels (128-bit vectors: 4 f32 /
       8 f16/bf16 channels each, one 128-byte transaction) x 32 work units;
       a work unit is (tap tile, slice), tap tile = one filter row fh and TW
       consecutive taps. Each thread walks the rows of its slice, and for
       each row whose input row is inside the image slides along the width:
       per output column one new input vector enters a register window of
       TW vectors, one dY vector is loaded and TW FMAs accumulate in f32
       registers (f16/bf16 widened once on load); the column loop is
       unrolled by 8 (f16 partial sums: by k) with the window carried.
       Padding is a clamped load and
       a select. At the end the sums are added to the buffer with f32
       atomics (`memref.atomic_rmw addf`). Filters of at most 64 taps
       (`warp_slices = 4`) have few FMAs per atomic: there the 4
       work-unit slots of a warp take 4 consecutive slices of the same tap
       tile, sum their TW x V results with butterfly shuffles
       (`gpu.shuffle xor` 8, 16) and only the first slot adds (4x fewer
       atomics). Larger filters keep the 4 slots of a warp on 4 tap tiles of
       the same rows (their dY loads are one broadcast: the kernel is bound
       by L1 traffic there; docs/KernelSelection.md has the measurements).
       f16 inputs, opt-in (`half_steps` = k, default 0:
       off, f32 FMAs as the op's f32 accumulation promises):
       the window and dY stay f16 and the FMAs are packed f16x2
       (`vector.fma` on vector<8xf16>, PTX `fma.rn.f16x2`) into f16 partial
       sums over runs of k columns, each run flushed into the f32 sums with
       one widening add; no f16 -> f32 conversion per input element (the
       conversions, not the FMAs, bound the f16 kernel otherwise). The
       partial sums hold at most k
       products; the f16 range limits each partial sum (|sum of k products|
       < 65504: inputs in [64, 128] overflow to +inf at k = 16) and its
       per-element error is about k * 2^-11 of the partial sum, ~20x an
       f32-accumulation bound, hence off by default (times and errors:
       docs/KernelSelection.md).
       maxTW is then 9 (f16 window and partial sums take half the
       registers; 13 spills);
    3. for f16/bf16 filter gradients a conversion kernel rounds the f32
       sums once into dW.

    `#dwc.bwd_filter_image` (any stride, FW <= 17; chosen by
    dwc-select-kernels where measured faster, docs/KernelSelection.md, else
    on request) replaces steps 1-3 by two or three kernels
    (`<func>_bwd_filter_image`, `_partial` past 64 slices, `_reduce`): a
    block of segments x FH x channels/2 threads owns `channels` channels
    and a run of `units` strips of `rows` output rows (whole images when
    rows >= OH); per strip it copies the strip's (rows - 1) x stride + FH
    input rows (inside the image) and dY rows of its channels into shared
    memory (128-bit loads, the inputs' type, input rows padded so that the
    two filter rows of a warp read opposite bank halves), between barriers
    (`copy = "thread"`: every thread copies the strip itself, no barriers,
    one strip per block: the host emulation; `copy = "async"`: two strip
    buffers, the cp.async copies of the block's next strip are issued and
    committed before it reads the current one, `cp.async.wait_group 1` and
    a barrier before the reads, a barrier after them). Thread (segment, fh, pair)
    owns filter row fh x FW taps x 2 channels in f32 registers; for every
    output row of the strip whose input row lies inside the image it slides
    along its segment's fully unrolled columns (a switch over the segments):
    per column the new input pairs (stride: sw of them) and one dY pair
    (2-element shared loads, widened to f32) and one FMA per tap whose input
    column lies inside the image (padding columns take no load and no FMA).
    Each thread writes its sums once into its slice of an f32 workspace
    (`memref.alloc` of ceil(N*strips/units) x segments x FH x FW x C slices,
    freed after the op); the slices are added in slice order
    (deterministic, no atomics): directly by one thread per 4 channels, or
    past 64 slices first in runs of ceil(sqrt(slices)) into a second
    workspace, 4 loads in flight per step, and rounded once into dW. Shared
    memory past 48 KB is dynamic.

    `#dwc.bwd_filter_taps` (stride 1, small filters; chosen where measured
    faster, else on request) is a register kernel with the same workspace
    and slice reduction (`<func>_bwd_filter_taps`, `_partial`, `_reduce`):
    a thread owns one channel vector (`vector` channels, 64 or 128 bits)
    and all FH x FW taps in f32 registers for a band of `rows` output rows
    x `columns` output columns of one image; it walks the band's input rows
    top to bottom, each step loading one input row segment (columns + FW -
    1 vectors from global memory: neighbouring bands share their halos in
    L1) and one dY segment, keeping the FH newest dY segments in registers
    and adding every tap's products (bands inside the image without
    predicates, the others with clamped loads and selects; the first and
    last FH - 1 steps unrolled, the others a loop). A block holds lanes x
    bands threads (lanes: a divisor of C / vector up to 32); the bands'
    sums are added tap by tap in shared memory in band order into one
    workspace slice per block (`reduce = "band"`: one slice per band, no
    barriers: the host emulation).

    Rules. TW: the FW taps of a row are split into ceil(FW / maxTW) tiles
    of equal width TW = ceil(FW / tiles) (maxTW = 17 for f32, 6 for
    f16/bf16, whose vectors are twice as wide, 9 for f16 with
    half_steps > 0; the configuration's `tile_width`); taps of the last tile
    past FW are computed and dropped (ptxas keeps TW = 17 in 255 registers
    without spills). Z: four waves
    of resident threads at full occupancy,
    Z = ceil(4 * sm-count * 2048 / (threads per slice)), threads per slice
    = 8 * ceil(C / (8V)) * FH * tiles, clamped to [1, N*OH] and rounded so
    that slices are equal (the configuration's `z`; sm-count is
    #dwc.target's); for 16-bit inputs on strided dY at most 256 slices (64
    atomic adds per dW element after the warp reduction: the short slices
    of small strided maps made the atomics the bottleneck). Four waves:
    shorter slices balance the SMs better than the extra atomics cost (the
    profiles of both rules are in docs/KernelSelection.md). Every slice adds
    FH*FW*C atomics, at most one per output column of work per thread.

    Strided dY (any stride sh x sw; every downsampling block of MobileNet /
    EfficientNet): a row block's input rows start at oh0*sh - pt and number
    (R-1)*sh + FH (output row r meets filter row fh in window row r*sh + fh);
    along the width, output column ow reads input columns ow*sw - pl + fw,
    so max(FW - sw, 0) window columns (split-z: TW - sw vectors) carry over
    to the next output column and the others are loaded (one at stride 1).
    R keeps its stride-1 defaults (3 for f32, 2 for f16/bf16; measured on
    strided layers too, docs/KernelSelection.md). With a stride, only f16/bf16 filters of at most 9 taps
    whose streaming grid has at least sm-count / 4 blocks stream; the rest
    take split-z (the row blocks are the streaming kernel's only
    parallelism; the stride-2 measurements are in docs/KernelSelection.md).

    Eligible (everything else is left to `convert-dwc-to-gpu`): dilations
    1, C a multiple of 128 bits, identity layouts. Vector accesses assume
    16-byte aligned base pointers.

    Before:

    ```mlir
    dwc.depthwise_conv2d_backward_filter
      ins(%x, %dy : memref<2x8x8x32xf32>, memref<2x8x8x32xf32>)
      outs(%dw : memref<3x3x32xf32>)
      strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
      {dwc.kernel = #dwc.bwd_filter_stream<rows = 3, threads = 256, workers = 1056, reduce = "block">}
    ```

    After (3x3: the streaming kernel):

    ```mlir
    gpu.launch ... {  // zero-fill: vector.store of zeros into %dw
    }
    gpu.launch blocks(...) threads(...) in (%sx = %c256, ...)
        workgroup(%red : memref<256x4xf32, #gpu.address_space<workgroup>>) {
      // (lane, worker) -> channel vector c0, first row block w
      %sums:9 = scf.for %blk = %w to %end step %workers ... {
        scf.if %interior {  // R+2 input rows, R dY rows, FW-column window:
          // per column 5 vector.load x, 3 vector.load dy, 27 vector.fma
        } else { /* the same with clamped rows and arith.select */ }
      }
      // per tap: vector.store %sums#t -> %red, gpu.barrier, worker 0 sums
      // the block's workers and does 4 x memref.atomic_rmw addf, gpu.barrier
      gpu.terminator
    }
    ```

    After (larger filters: the split-z kernel; here the same 3x3 op with
    `#dwc.bwd_filter_split_z<z = 16, tile_width = 17, warp_slices = 4>`):

    ```mlir
    gpu.launch ... {  // zero-fill
    }
    gpu.launch blocks(...) in (%gx = %c1, ...) threads(...) in (%sx = %c256, ...) {
      // (lane, slot) -> channel vector, tap tile (fh, fw0), slice z
      %sums:3 = scf.for %r = %r0 to %r1 ... {   // rows n*OH + oh of the slice
        // window of 3 input vectors, per column: vector.load x, vector.load dy,
        // 3 x vector.fma
      }
      memref.atomic_rmw addf %s, %dw[%fh, %fw, %c] : (f32, memref<3x3x32xf32>) -> f32
      gpu.terminator
    }
    ```
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::vector::VectorDialect",
                           "mlir::nvgpu::NVGPUDialect"];
}

def ConvertDwcToGPUIm2win : Pass<"convert-dwc-to-gpu-im2win", "mlir::ModuleOp"> {
  let summary = "Lower dense conv2d with an im2win dwc.kernel to im2win GEMM-like kernels on CUDA cores (f32), mma.sync or wgmma (f16/bf16)";
  let description = [{
    Replaces each memref-form `dwc.conv2d` whose `dwc.kernel` is
    `#dwc.im2win_simt`, `#dwc.im2win_mma` or `#dwc.im2win_wgmma` (attached by
    `dwc-select-kernels`, or written by the user) with a blocked,
    register-tiled kernel that treats the convolution as a GEMM over the
    im2win windows: M = N*OH*OW output pixels (the NHWC output is an M x OC
    row-major matrix), N = OC, K = FH*FW*C in the filter's order (the
    FH x FW x C x OC filter is a K x OC row-major matrix), the whole batch in
    one launch. The kernel reads only its configuration (every field set)
    and the target's facts; ops without one, with an incomplete one or on
    tensors are left alone (the direct kernel of `convert-dwc-to-gpu` takes
    dense convolutions no im2win configuration fits).

    * `#dwc.im2win_simt` (f32) and `#dwc.im2win_mma` (f16/bf16): 256-thread
      blocks, tile BM x BN = 128 x 128 (`tile_n = 128`) or 256 x 64
      (`tile_n = 64`), K tiles of 16 (f32) / 32 (f16, bf16) in `stages`
      shared buffers; f32 on CUDA cores (each thread BM/16 x BN/16 outputs,
      128-bit shared loads, `vector.fma`), f16/bf16 on 8 warps of 64 x 32
      outputs, 16 m16n8k16 `mma.sync` per k16 step with f32 accumulators, B
      fragments from `nvgpu.ldmatrix` x4 `.trans` (parity `swizzle` of the
      B tile's 16-byte chunks against bank conflicts);
    * the window gather is fused into the A loads: a 16-byte chunk of K
      (C % 8 or 4 == 0) lies in one input pixel
      `X[n, oh*sh + fh*dh - pt, ow*sw + fw*dw - pl, c..c+V)` and is copied
      with zero-fill outside the input; other channel counts (e.g. C = 3)
      are gathered element by element. With `im2win_tensor`, the input is
      first rearranged by `dwc.im2win` into a temporary
      `N x OH x IWp x FH x C` tensor and the chunks are read from there;
    * the paper's optimisations are fields: `precompute` (per-thread row
      offsets once before the K loop), `async_copy` (cp.async with
      zero-fill; false: register-staged loads), `stages` (1: one buffer;
      2: double buffering; 3: tiles t+1 and t+2 in flight);
    * `#dwc.im2win_wgmma` (f16/bf16, `sm_90a` only): `warpgroups` x 128
      threads, each multiplying 64 rows by `n` channels with
      `wgmma.mma_async` from 1024-byte aligned, 128-byte swizzled shared
      memory through matrix descriptors, K tiles of 64 in `stages` stages
      (dynamic shared memory over 48 KB); `fence.proxy.async` before the
      barrier; `barriers`, `overlap`, `specialize` (warp-specialised
      persistent kernel, mbarrier hand-over), `tma_filter` / `tma_im2col`
      (the operands by cp.async.bulk.tensor through runtime tensor maps:
      `dwcTensorMap2D`, `dwcTensorMapIm2col`; the kernel does nothing when it
      got none) and `staged_stores` (the output tile through shared memory
      in 16-byte row chunks). Inputs with C % 4 != 0 are first zero-padded
      to a multiple of 4 channels (x and w into temporaries by two
      element-wise kernels `<func>_im2win_wgmma_pad_input` / `_pad_filter`).

    The measurements behind the fields dwc-select-kernels chooses are in
    docs/KernelSelection.md ("dense conv2d"). The pass outlines its kernels
    itself (`gpu.module @<func>_<family>` with one `gpu.func`, launched by
    `gpu.launch_func`), so that they carry launch bounds: `known_block_size`
    and, with `min_blocks_per_sm` > 1, `nvvm.minctasm`. Vector accesses
    assume 16-byte aligned base pointers.

    Before:

    ```mlir
    dwc.conv2d ins(%x, %w : memref<2x8x8x32xf32>, memref<3x3x32x64xf32>)
      outs(%y : memref<2x8x8x64xf32>)
      strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
      {dwc.kernel = #dwc.im2win_simt<tile_n = 64, stages = 2,
          min_blocks_per_sm = 1, precompute = true, async_copy = true,
          im2win_tensor = false>}
    ```

    After:

    ```mlir
    gpu.launch_func @f_im2win_simt::@f_im2win_simt blocks in (%c1, %c1, %c1)
        threads in (%c256, %c1, %c1) args(%x : ..., %w : ..., %y : ...)
    ...
    gpu.module @f_im2win_simt {
      gpu.func @f_im2win_simt(%x: memref<2x8x8x32xf32>,
                              %w: memref<3x3x32x64xf32>,
                              %y: memref<2x8x8x64xf32>)
          workgroup(%a : memref<2x256x16xf32, #gpu.address_space<workgroup>>,
                    %b : memref<2x16x64xf32, #gpu.address_space<workgroup>>)
          kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
        // cp.async tile 0; scf.for over K tiles: cp.async tile t+1, commit,
        // wait(1), barrier, 16 x 4 x vector.fma per k per thread, barrier
        // vector.store of 4 channels per output row
        gpu.return
      }
    }
    ```
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::vector::VectorDialect",
                           "mlir::nvgpu::NVGPUDialect",
                           "mlir::NVVM::NVVMDialect",
                           "mlir::LLVM::LLVMDialect",
                           "mlir::func::FuncDialect",
                           "mlir::dwc::DwcDialect"];
}

#endif // DWC_CONVERSION_PASSES
