//===- Pool.td - kernel configurations of one family ---*- tablegen -*-===//
//
// The configuration attributes of the pooling and global-pooling kernels (convert-dwc-to-gpu-pool, -global-pool).
// Included by DwcAttrs.td after Dwc_KernelConfig.
//
//===----------------------------------------------------------------------===//

def Dwc_GlobalPoolKernelAttr
    : Dwc_KernelConfig<"GlobalPoolKernel", "global_pool"> {
  let summary = "Global average pooling: a streaming block reduction";
  let description = [{
    `convert-dwc-to-gpu-global-pool`'s reduction kernel for
    `dwc.global_avg_pool` and for `dwc.pool2d avg` whose window is the whole
    input (no padding, no activation), memref form with static shapes and
    identity layouts. A block owns one image and `channel_tile` channel
    vectors (the widest power of two of at most 128 bits dividing C);
    its `threads` / `channel_tile` position rows stride over the H * W
    positions, `unroll` loads in flight per loop step; the partial sums meet
    in a warp butterfly and workgroup memory.

    * `channel_tile`: channel vectors per block, a power of two in [1, 32];
    * `threads`: threads per block, a multiple of 32 in [32, 1024] and of
      `channel_tile`;
    * `unroll`: positions per loop step of a thread, in [1, 16].

    ```mlir
    {dwc.kernel = #dwc.global_pool<channel_tile = 32, threads = 256, unroll = 8>}
    ```
  }];
  let parameters = (ins DefaultValuedParameter<"int64_t", "0">:$channel_tile,
                        DefaultValuedParameter<"int64_t", "0">:$threads,
                        DefaultValuedParameter<"int64_t", "0">:$unroll);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Dwc_GlobalPoolBackwardKernelAttr
    : Dwc_KernelConfig<"GlobalPoolBackwardKernel", "global_pool_backward"> {
  let summary = "Gradient of global average pooling: a streaming broadcast";
  let description = [{
    `convert-dwc-to-gpu-global-pool`'s kernel for `dwc.pool2d_backward avg`
    whose window is the whole input (dX = dY / (H * W)): the block layout of
    `global_pool`, each thread dividing its dY vector once and storing it at
    its positions; `position_blocks` blocks share one image and channel
    tile, block s taking position rows s * R + r + k * R * S.

    * `channel_tile`: channel vectors per block, any width in [1, 32]
      (no lanes meet in a butterfly here, so a tile may match C exactly);
    * `threads`: a multiple of 32 in [32, 1024] and of `channel_tile`;
    * `unroll`: as for `global_pool`;
    * `position_blocks`: blocks per image and channel tile, in [1, 4096] and
      at most the number of position rows, ceil(H * W / R).

    ```mlir
    {dwc.kernel = #dwc.global_pool_backward<channel_tile = 32, threads = 256,
                                            unroll = 8, position_blocks = 1>}
    ```
  }];
  let parameters = (ins DefaultValuedParameter<"int64_t", "0">:$channel_tile,
                        DefaultValuedParameter<"int64_t", "0">:$threads,
                        DefaultValuedParameter<"int64_t", "0">:$unroll,
                        DefaultValuedParameter<"int64_t", "0">:$position_blocks);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Dwc_BackwardBiasKernelAttr
    : Dwc_KernelConfig<"BackwardBiasKernel", "backward_bias"> {
  let summary = "Bias gradient: a sliced streaming reduction of dY";
  let description = [{
    `convert-dwc-to-gpu-global-pool`'s kernels for
    `dwc.conv2d_backward_bias` (memref form, static shapes, identity
    layouts, f32 / f16 / bf16 dY): the M = N * OH * OW rows of dY are cut
    into `slices` runs of M / slices rows, each run reduced by the
    `global_pool` block layout (`channel_tile` channel vectors of 128 bits
    x threads / channel_tile position rows, `unroll` loads in flight) into
    an f32 workspace row; a second kernel adds the workspace rows in order
    (the same layout over f32 vectors, channel tile the widest power of two
    up to 32 vectors, `total_threads` threads), so the result does not
    depend on scheduling. With one slice the first kernel writes dB itself.

    * `slices`: runs of rows, a divisor of M in [1, 2^20];
    * `channel_tile`: a power of two in [1, 32];
    * `threads`, `total_threads`: threads per block of the two kernels,
      multiples of 32 in [32, 1024];
    * `unroll`: positions per loop step of a thread, in [1, 16].

    ```mlir
    {dwc.kernel = #dwc.backward_bias<slices = 256, channel_tile = 16,
                                     threads = 512, unroll = 8,
                                     total_threads = 256>}
    ```
  }];
  let parameters = (ins DefaultValuedParameter<"int64_t", "0">:$slices,
                        DefaultValuedParameter<"int64_t", "0">:$channel_tile,
                        DefaultValuedParameter<"int64_t", "0">:$threads,
                        DefaultValuedParameter<"int64_t", "0">:$unroll,
                        DefaultValuedParameter<"int64_t", "0">:$total_threads);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Dwc_ConvPoolKernelAttr : Dwc_KernelConfig<"ConvPoolKernel", "conv_pool"> {
  let summary = "Depthwise convolution with a pooling epilogue in one kernel";
  let description = [{
    `convert-dwc-to-gpu-pool`'s fused kernel for
    `dwc.depthwise_conv2d_pool2d` (stride-1 undilated convolution, f32
    filters of at most 49 taps, 16-bit ones of at most 9, C a multiple of
    128 bits): a thread owns `columns` pooled outputs along the width x 128
    bits of channels of one pooled row and computes the convolution columns
    their windows need in registers. An op carrying it is not split by
    `dwc-decompose-conv-pool`.

    * `columns`: pooled outputs per thread, in [1, 8], the convolution
      columns of the strip plus a filter row at most 64.

    ```mlir
    {dwc.kernel = #dwc.conv_pool<columns = 4>}
    ```
  }];
  let parameters = (ins DefaultValuedParameter<"int64_t", "0">:$columns);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Dwc_PoolForwardKernelAttr
    : Dwc_KernelConfig<"PoolForwardKernel", "pool_forward"> {
  let summary = "Windowed pooling: register strips or separable row tiles";
  let description = [{
    `convert-dwc-to-gpu-pool`'s kernel for `dwc.pool2d` (memref form, static
    shapes, identity layouts, C a multiple of the channel vector): a thread
    owns `rows` output rows x `columns` outputs along the width x one channel
    vector of `vector_bits` bits. With `rows` = 1 each window row's strip
    columns are loaded once and folded into every output whose window holds
    them; with `rows` >= 2 (windows overlapping in height only) the tile's
    input rows are visited once each and their row partials folded into the
    output rows that hold them.

    * `vector_bits`: 32, 64 or 128 (at least one element);
    * `rows`: output rows per thread, in [1, 16];
    * `columns`: outputs per thread along the width, in [1, 16]; the strip's
      (columns - 1) * stride + window columns at most 64, a row tile's
      input rows x columns at most 128.

    ```mlir
    {dwc.kernel = #dwc.pool_forward<vector_bits = 128, rows = 8, columns = 4>}
    ```
  }];
  let parameters = (ins DefaultValuedParameter<"int64_t", "0">:$vector_bits,
                        DefaultValuedParameter<"int64_t", "0">:$rows,
                        DefaultValuedParameter<"int64_t", "0">:$columns);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Dwc_PoolBackwardKernelAttr
    : Dwc_KernelConfig<"PoolBackwardKernel", "pool_backward"> {
  let summary = "Pooling gradient: a gather without atomics";
  let description = [{
    `convert-dwc-to-gpu-pool`'s kernels for `dwc.pool2d_backward` (memref
    form, static shapes, identity layouts): a thread owns `rows` dX rows x
    `columns` dX columns x one 128-bit channel vector (scalars when C is
    not a multiple) and gathers from the dY windows covering them.

    * `rows`: 1 for single-row strips; above 1, stride-1 average gradients
      as row tiles (a box sum of the scaled dY) and strided gradients as
      tiles aligned to the stride (a multiple of the height stride; avg,
      and max with the stored argmax or overlapping windows); in [1, 16];
    * `columns`: dX columns per thread, in [1, 64] (a multiple of the width
      stride except for the stride-1 average row tiles);
    * `argmax`: how max gradients find each window's argmax: `"recompute"`
      (from X, in the gather), `"stored"` (a first kernel writes an i8 tap
      index per window to a workspace), `"packed"` (stored, the 16-bit scan
      on packed pairs with `set.gt.u32.{f16x2,bf16x2}`); `"none"` for
      average gradients;
    * `argmax_columns`: windows per thread of the stored-argmax kernel, in
      [1, 8] (0 without a stored argmax).

    ```mlir
    {dwc.kernel = #dwc.pool_backward<rows = 2, columns = 2, argmax = "packed",
                                     argmax_columns = 1>}
    ```
  }];
  let parameters = (ins DefaultValuedParameter<"int64_t", "0">:$rows,
                        DefaultValuedParameter<"int64_t", "0">:$columns,
                        StringRefParameter<"argmax strategy", "\"\"">:$argmax,
                        DefaultValuedParameter<"int64_t", "0">:$argmax_columns);
  let assemblyFormat = "`<` struct(params) `>`";
}
