//===- Strided.td - kernel configurations of one family ---*- tablegen -*-===//
//
// The configuration attributes of the strided forward and backward-data kernels (convert-dwc-to-gpu-strided).
// Included by DwcAttrs.td after Dwc_KernelConfig.
//
//===----------------------------------------------------------------------===//

def Dwc_StridedForwardKernelAttr
    : Dwc_KernelConfig<"StridedForwardKernel", "strided_forward"> {
  let summary = "Strided depthwise forward: a register window over the "
                "stride-interleaved input columns";
  let description = [{
    `convert-dwc-to-gpu-strided`'s forward kernel for `dwc.depthwise_conv2d`
    with a stride above 1 (dilation 1, at most 49 taps, f32/f16/bf16 with f32
    accumulation): each thread computes `rows` x `columns` outputs of
    `channels` channels, keeping the input columns its neighbouring outputs
    share in registers.

    * `channels`: channels per thread, a power of two dividing C (f32: 1, 2
      or 4; f16/bf16: 2, 4 or 8);
    * `rows`: output rows per thread, in [1, 8];
    * `columns`: output columns per thread, in [1, 32];
    * `loads_first`: 0 (default, left out when printed): the window's
      input columns are loaded as the outputs advance; 1: every input
      vector of the tile is loaded before the first FMA, with an explicit
      register budget (`nvvm.maxnreg`) so that ptxas keeps them there: a
      thread waits for memory once (grids too small to hide a latency per
      column);
    * `block_threads`: threads per block, a power of two in [32, 1024]; 0
      (default, left out when printed): 256. Fewer on small grids spread
      the blocks evenly over the SMs.

    Both tile sizes are clamped to the output's height and width.

    ```mlir
    {dwc.kernel = #dwc.strided_forward<channels = 4, rows = 1, columns = 4>}
    {dwc.kernel = #dwc.strided_forward<channels = 1, rows = 1, columns = 2, loads_first = 1>}
    {dwc.kernel = #dwc.strided_forward<channels = 2, rows = 4, columns = 16, block_threads = 64>}
    ```
  }];
  let parameters = (ins DefaultValuedParameter<"int64_t", "0">:$channels,
                        DefaultValuedParameter<"int64_t", "0">:$rows,
                        DefaultValuedParameter<"int64_t", "0">:$columns,
                        DefaultValuedParameter<"int64_t", "0">:$loads_first,
                        DefaultValuedParameter<"int64_t", "0">:$block_threads);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Dwc_StridedGatherKernelAttr
    : Dwc_KernelConfig<"StridedGatherKernel", "strided_gather"> {
  let summary = "Strided depthwise backward data: a phase-decomposed gather";
  let description = [{
    `convert-dwc-to-gpu-strided`'s kernel for
    `dwc.depthwise_conv2d_backward_data` with a stride above 1 (the same
    restrictions as `strided_forward`): input-gradient pixels are grouped
    into super pixels of stride x stride phases; each thread gathers
    `columns` super columns of one super row for `channels` channels,
    reading each dY element once per phase it contributes to (no atomics).

    * `channels`: as for `strided_forward`;
    * `columns`: super columns per thread, in [1, 32] (clamped to the
      number of super columns).

    ```mlir
    {dwc.kernel = #dwc.strided_gather<channels = 8, columns = 4>}
    ```
  }];
  let parameters = (ins DefaultValuedParameter<"int64_t", "0">:$channels,
                        DefaultValuedParameter<"int64_t", "0">:$columns);
  let assemblyFormat = "`<` struct(params) `>`";
}
