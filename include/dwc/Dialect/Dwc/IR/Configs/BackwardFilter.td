//===- BackwardFilter.td - kernel configurations of one family ---*- tablegen -*-===//
//
// The configuration attributes of the depthwise backward-filter kernels (convert-dwc-to-gpu-backward-filter).
// Included by DwcAttrs.td after Dwc_KernelConfig.
//
//===----------------------------------------------------------------------===//

def Dwc_BwdFilterStreamKernelAttr
    : Dwc_KernelConfig<"BwdFilterStreamKernel", "bwd_filter_stream"> {
  let summary = "Depthwise filter gradient: the streaming kernel (small "
                "filters)";
  let description = [{
    `convert-dwc-to-gpu-backward-filter`'s streaming kernel for a
    `dwc.depthwise_conv2d_backward_filter` of at most 49 taps (f32, f16 or
    bf16 inputs, dW f32 or the inputs' type, dilation 1, C a multiple of
    128 bits, identity layouts): every thread owns one 128-bit channel
    vector and all taps in f32 registers and streams blocks of `rows`
    output rows, grid-stride over the N x OH rows.

    * `rows`: output rows per step, in [1, 16] (clamped to OH);
    * `threads`: threads per block, in [32, 1024];
    * `workers`: most row-block workers per channel group (the grid
      stride; rounded down so that every worker streams the same number of
      row blocks), at least 1;
    * `reduce`: `"block"`: the block sums its workers' vectors in shared
      memory and adds them with one atomic per tap and channel;
      `"atomics"`: every thread adds its own sums (no shared memory or
      barriers).

    ```mlir
    {dwc.kernel = #dwc.bwd_filter_stream<rows = 3, threads = 256, workers = 132, reduce = "block">}
    ```
  }];
  let parameters = (ins DefaultValuedParameter<"int64_t", "0">:$rows,
                        DefaultValuedParameter<"int64_t", "0">:$threads,
                        DefaultValuedParameter<"int64_t", "0">:$workers,
                        StringRefParameter<"", "\"\"">:$reduce);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Dwc_BwdFilterSplitZKernelAttr
    : Dwc_KernelConfig<"BwdFilterSplitZKernel", "bwd_filter_split_z"> {
  let summary = "Depthwise filter gradient: the split-z kernel";
  let description = [{
    `convert-dwc-to-gpu-backward-filter`'s split-z kernel for the ops the
    streaming kernel takes, any filter size: the N x OH rows of dY are
    split into `z` slices; a thread reduces one slice for one filter row x
    at most `tile_width` consecutive taps x 128 bits of channels and adds
    its sums with f32 atomics.

    * `z`: slices, at least 1 (clamped to N x OH, rounded so that slices
      are equal);
    * `tile_width`: most taps per thread along a filter row, in [1, 17]
      (the row is cut into ceil(FW / tile_width) tiles of equal width);
    * `warp_slices`: 4: the 4 slots of a warp take 4 consecutive slices of
      one tap tile and sum them with shuffles before one atomic; 1: no
      cross-lane operations;
    * `half_steps`: f16 inputs only: 0 (default) f32 FMAs; k in [1, 16]:
      packed f16x2 FMAs into f16 partial sums over runs of k columns
      (opt-in reduced precision).

    ```mlir
    {dwc.kernel = #dwc.bwd_filter_split_z<z = 528, tile_width = 17, warp_slices = 4>}
    ```
  }];
  let parameters = (ins DefaultValuedParameter<"int64_t", "0">:$z,
                        DefaultValuedParameter<"int64_t", "0">:$tile_width,
                        DefaultValuedParameter<"int64_t", "0">:$warp_slices,
                        DefaultValuedParameter<"int64_t", "0">:$half_steps);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Dwc_BwdFilterImageKernelAttr
    : Dwc_KernelConfig<"BwdFilterImageKernel", "bwd_filter_image"> {
  let summary = "Depthwise filter gradient: whole small images or row "
                "strips per block in shared memory";
  let description = [{
    `convert-dwc-to-gpu-backward-filter`'s kernel for small maps or bands
    of larger ones (any stride, at most 17 taps along a filter row; f32,
    f16 or bf16 inputs): a block owns `channels` channels and a run of
    `units` work units, a work unit is a strip of `rows` output rows of one
    image (the whole image when `rows` >= OH). Per unit the block copies
    the strip's (rows - 1) * stride + FH input rows and its dY rows of its
    channels into shared memory (128-bit loads, the inputs' type); thread
    (segment, fh, pair) owns filter row fh x FW taps x 2 channels in f32
    registers and slides along its segment of the output columns of every
    output row of the strip whose input row is inside the image. Each
    thread writes its sums to its own slice of an f32 workspace (one per
    block and segment) and a second kernel adds the slices in a fixed
    order (deterministic, no atomics) into dW.

    * `channels`: channels per block, a multiple of 128 bits in [vector,
      1024], with segments * FH * channels / 2 threads at most 1024;
    * `rows`: output rows per strip, at least 1 (clamped to OH);
    * `units`: strips per block (the batch split: ceil(N * strips /
      units) blocks along the batch), at least 1;
    * `copy`: `"block"` (default): the block's threads copy a strip
      together between two barriers; `"thread"` (host emulation, `units`
      = 1): every thread copies the whole strip itself (identical values)
      and no barrier is needed; `"async"` (sm_80+): two strip buffers,
      the block issues the cp.async copies of its next strip before it
      reads the current one (copy and FMAs overlap inside the block; twice
      the shared memory);
    * `segments`: the output columns are cut into this many runs of
      ceil(OW / segments) columns, each taken by its own FH * channels / 2
      threads (more threads per strip on narrow channel groups), in [1,
      64]; 1 (default): every thread slides along whole rows.

    ```mlir
    {dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 14, units = 1, copy = "block">}
    {dwc.kernel = #dwc.bwd_filter_image<channels = 32, rows = 4, units = 2, copy = "block", segments = 4>}
    {dwc.kernel = #dwc.bwd_filter_image<channels = 64, rows = 2, units = 10, copy = "async", segments = 3>}
    ```
  }];
  let parameters = (ins DefaultValuedParameter<"int64_t", "0">:$channels,
                        DefaultValuedParameter<"int64_t", "0">:$rows,
                        DefaultValuedParameter<"int64_t", "0">:$units,
                        StringRefParameter<"", "\"\"">:$copy,
                        DefaultValuedParameter<"int64_t", "1">:$segments);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Dwc_BwdFilterTapsKernelAttr
    : Dwc_KernelConfig<"BwdFilterTapsKernel", "bwd_filter_taps"> {
  let summary = "Depthwise filter gradient: a thread owns all taps of a "
                "channel vector over a band of output columns";
  let description = [{
    `convert-dwc-to-gpu-backward-filter`'s register kernel for stride-1
    ops with small filters (f32, f16 or bf16 inputs): a thread owns one
    channel vector of `vector` channels and all FH x FW taps of it in f32
    registers and walks the input rows of a band of `rows` output rows x
    `columns` output columns of one image, top to bottom: each step loads
    one input row segment (columns + FW - 1 vectors, halos shared with the
    neighbouring bands through L1) and one dY row segment from global
    memory, keeps the last FH dY segments in registers and adds every tap's
    products. No shared memory in the loop; the block's column bands are
    summed in shared memory in a fixed order into one f32 workspace slice
    per block and a second kernel adds the slices in order (deterministic,
    no atomics) into dW.

    * `vector`: channels per thread, 64 or 128 bits of the inputs' type
      (16-bit: 4 or 8; f32: 2 or 4);
    * `columns`: output columns per band, in [1, 8];
    * `rows`: output rows per band, at least 1 (clamped to OH);
    * `threads`: most threads per block, in [32, 1024]: channel lanes x
      column bands;
    * `reduce`: `"block"` (default): one slice per block (shared memory,
      barriers); `"band"` (host emulation): every band writes its own
      slice (no cross-thread operations);
    * `unroll`: steps per iteration of the row loop, in [1, 4] (0: 2);
    * `prefetch`: 1: every step of the row loop issues the next step's
      loads before its own FMAs (carried in registers across the loop's
      back edge); 0 (default): a step loads what it uses;
    * `min_blocks_per_sm`: 0 (default) or the blocks per SM ptxas caps the
      registers for (`.minnctapersm`), in [1, 32].

    ```mlir
    {dwc.kernel = #dwc.bwd_filter_taps<vector = 8, columns = 1, rows = 8, threads = 256, reduce = "block">}
    ```
  }];
  let parameters = (ins DefaultValuedParameter<"int64_t", "0">:$vector,
                        DefaultValuedParameter<"int64_t", "0">:$columns,
                        DefaultValuedParameter<"int64_t", "0">:$rows,
                        DefaultValuedParameter<"int64_t", "0">:$threads,
                        StringRefParameter<"", "\"\"">:$reduce,
                        DefaultValuedParameter<"int64_t", "0">:$unroll,
                        DefaultValuedParameter<"int64_t", "0">:$prefetch,
                        DefaultValuedParameter<"int64_t", "0">:$min_blocks_per_sm);
  let assemblyFormat = "`<` struct(params) `>`";
}
