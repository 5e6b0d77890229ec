//===- Gemv.td - kernel configurations of one family ---*- tablegen -*-===//
//
// The configuration attributes of the GEMV, row-tile and plane depthwise kernels (convert-dwc-to-gpu-gemv).
// Included by DwcAttrs.td after Dwc_KernelConfig.
//
//===----------------------------------------------------------------------===//

def Dwc_GemvKernelAttr : Dwc_KernelConfig<"GemvKernel", "gemv"> {
  let summary = "Stride-1 depthwise forward / backward data: the GEMV-dataflow "
                "CUDA-core kernel";
  let description = [{
    `convert-dwc-to-gpu-gemv`'s GEMV kernel for a stride-1, dilation-1
    `dwc.depthwise_conv2d` or `dwc.depthwise_conv2d_backward_data` (the
    latter on the 180-degree rotated filter; f32, f16 or bf16 with f32
    accumulation, identity layouts): 128-thread blocks of 8 threads along
    8 x `channels` channels x 16 patches of `outputs` outputs along the
    width; per filter row a register window of `outputs` input vectors.

    * `channels`: channels per thread: 4 for f32 (128 bits); 4 (64 bits)
      or 8 (128 bits) for f16/bf16; must divide C;
    * `outputs`: outputs per thread along the width, in [1, 32] (clamped to
      the output's width);
    * `filter`: `"smem"`: filter rows staged in shared memory with
      double-buffered `cp.async` (128-bit vectors only); `"global"`: filter
      vectors read from global memory (L1);
    * `rows`: `"loop"`: a loop over the filter rows, rows in the padding
      skipped; `"unrolled"` (f16/bf16 with `filter = "global"` only): the
      rows unrolled, padding rows as zeroed clamped loads.

    ```mlir
    {dwc.kernel = #dwc.gemv<channels = 4, outputs = 8, filter = "smem", rows = "loop">}
    ```
  }];
  let parameters = (ins DefaultValuedParameter<"int64_t", "0">:$channels,
                        DefaultValuedParameter<"int64_t", "0">:$outputs,
                        StringRefParameter<"", "\"\"">:$filter,
                        StringRefParameter<"", "\"\"">:$rows);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Dwc_RowTileKernelAttr : Dwc_KernelConfig<"RowTileKernel", "row_tile"> {
  let summary = "Stride-1 depthwise forward / backward data: register row "
                "tiles for short filters";
  let description = [{
    `convert-dwc-to-gpu-gemv`'s row-tile kernel for the ops the GEMV kernel
    takes with filters of at most 49 taps: a thread owns `rows` output rows
    x `columns` outputs x `channels` channels (1-D grid of 256-thread
    blocks) and reads each of the tile's input rows once, feeding every
    output row it touches.

    * `channels`: channels per thread, a 32- to 128-bit power of two
      dividing C (f32: 1, 2 or 4; f16/bf16: 2, 4 or 8);
    * `rows`: output rows per thread, in [1, 16];
    * `columns`: outputs per thread along the width, in [1, 8] (both
      clamped to the output's height and width);
    * `filter`: `"registers"`: the FH x FW filter vectors held in registers;
      `"global"`: read through L1 at each use;
    * `min_blocks_per_sm`: 0 (default, left out when printed): no launch
      bound; k in [1, 8]: blocks of 256 threads that must fit on one SM
      (`nvvm.minctasm`: ptxas caps the registers at 65536 / (256 k));
    * `loads_first`: 0 (default, left out when printed): the input rows
      are loaded row by row, each before its FMAs; 1: every input vector
      of the tile is loaded before the first FMA, so that a thread waits
      for memory once (for grids too small to hide a latency per row);
    * `block_threads`: threads per block, a power of two in [32, 1024]; 0
      (default, left out when printed): 256 (`min_blocks_per_sm` counts
      blocks of this size);
    * `prefetch_rows`: 0 (default, left out when printed): as
      `loads_first` says; k in [1, 4]: input row t + k is loaded before
      the FMAs of row t (k + 1 rows in flight), the 16-bit ones kept as
      loaded and widened at their row's turn; not with `loads_first`.

    ```mlir
    {dwc.kernel = #dwc.row_tile<channels = 4, rows = 4, columns = 4, filter = "registers">}
    {dwc.kernel = #dwc.row_tile<channels = 1, rows = 2, columns = 2, filter = "registers", loads_first = 1>}
    {dwc.kernel = #dwc.row_tile<channels = 2, rows = 8, columns = 4, filter = "registers", prefetch_rows = 1>}
    ```
  }];
  let parameters = (ins DefaultValuedParameter<"int64_t", "0">:$channels,
                        DefaultValuedParameter<"int64_t", "0">:$rows,
                        DefaultValuedParameter<"int64_t", "0">:$columns,
                        StringRefParameter<"", "\"\"">:$filter,
                        DefaultValuedParameter<"int64_t", "0">:$min_blocks_per_sm,
                        DefaultValuedParameter<"int64_t", "0">:$loads_first,
                        DefaultValuedParameter<"int64_t", "0">:$block_threads,
                        DefaultValuedParameter<"int64_t", "0">:$prefetch_rows);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Dwc_PlaneKernelAttr : Dwc_KernelConfig<"PlaneKernel", "plane"> {
  let summary = "Stride-1 depthwise forward / backward data on small maps: "
                "whole planes staged in shared memory";
  let description = [{
    `convert-dwc-to-gpu-gemv`'s plane kernel for the ops the row tiles take
    (filters of at most 49 taps): a block owns `block_channels` channels of
    `band` output rows of one image (the whole plane when `band` >= OH). It
    stages the band's input rows with their zero halo once in shared memory
    (widened to f32: no bounds checks, no conversions in the inner loop),
    then each thread computes `rows` x `columns` outputs x `channels`
    channels from the staged plane: every input row of its tile is read
    once into a register window (width-first) and feeds each output row it
    touches; the filter is held in f32 registers.

    * `channels`: channels per thread: 1, 2 or 4, dividing C (a filter of
      at most 49 taps: at most 196 f32 filter registers);
    * `block_channels`: channels per block: a multiple of `channels`
      dividing C;
    * `rows`: output rows per thread, in [1, 16]; `columns`: outputs per
      thread along the width, in [1, 16] (both clamped to the band and the
      output's width);
    * `band`: output rows per block, >= 1 (clamped to OH);
    * at most 1024 threads per block and 48 KiB of staged plane.

    ```mlir
    {dwc.kernel = #dwc.plane<channels = 1, block_channels = 16, rows = 2, columns = 7, band = 14>}
    ```
  }];
  let parameters = (ins DefaultValuedParameter<"int64_t", "0">:$channels,
                        DefaultValuedParameter<"int64_t", "0">:$block_channels,
                        DefaultValuedParameter<"int64_t", "0">:$rows,
                        DefaultValuedParameter<"int64_t", "0">:$columns,
                        DefaultValuedParameter<"int64_t", "0">:$band);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Dwc_FullRowKernelAttr : Dwc_KernelConfig<"FullRowKernel", "full_row"> {
  let summary = "Stride-1 depthwise forward / backward data on small maps: "
                "one output row per thread, taps restricted to the map";
  let description = [{
    `convert-dwc-to-gpu-gemv`'s full-row kernel for the ops the GEMV kernel
    takes, on narrow maps (batch-1 inference, filters larger than the map):
    a thread owns a whole output row (OW outputs) of `channels` channels of
    one image. It loops over the input rows its filter window covers
    (bounds from the output row: at most min(FH, IH) rows, never a padding
    row) and, within a row, does the FMAs of the (input column, output
    column) pairs whose tap lies in the filter, decided at compile time (at
    most min(FW, IW) per output: a 27 x 27 filter on a 14 x 14 map does 14
    x 14 FMAs per output, not 729). Input and filter vectors are read
    through L1 (no shared memory, no barrier).

    * `channels`: channels per thread, a 32- to 128-bit power of two
      dividing C (f32: 1, 2 or 4; f16/bf16: 2, 4 or 8);
    * `threads`: threads per block, a multiple of 32 in [32, 1024];
    * `unroll`: input rows per loop step, 1, 2 or 4 (their loads in flight
      together; rows past the window read as zeros);
    * `columns`: the output row split into this many column parts, each
      a thread of its own (0 or 1: one part; at most OW). A part's
      taps are decided at compile time like a whole row's (the parts are
      cases of one `scf.index_switch` on the thread's part): more threads
      per row and fewer FMAs each, where a small grid leaves SMs idle
      (batch 1, long filters); neighbouring parts read the filter window's
      overlap twice through L1;
    * a part's accumulators and its input columns take at most 128 f32
      registers ((OWp + min(IW, OWp + FW - 1)) x channels <= 128, OWp =
      ceil(OW / columns));
    * `max_registers`: 0 (default, left out when printed): no register
      budget; R in [16, 255]: `nvvm.maxnreg` R (`.maxnreg`). Given a budget
      ptxas keeps a step's loads together ahead of its FMAs instead of
      interleaving them to save registers (for grids too small to hide
      the latency of each load).

    ```mlir
    {dwc.kernel = #dwc.full_row<channels = 1, threads = 64, unroll = 2>}
    {dwc.kernel = #dwc.full_row<channels = 1, threads = 128, unroll = 2, columns = 4, max_registers = 255>}
    ```
  }];
  let parameters = (ins DefaultValuedParameter<"int64_t", "0">:$channels,
                        DefaultValuedParameter<"int64_t", "0">:$threads,
                        DefaultValuedParameter<"int64_t", "0">:$unroll,
                        DefaultValuedParameter<"int64_t", "0">:$columns,
                        DefaultValuedParameter<"int64_t", "0">:$max_registers);
  let assemblyFormat = "`<` struct(params) `>`";
}
