//===- Mma.td - kernel configurations of one family ---*- tablegen -*-===//
//
// The configuration attributes of the depthwise tensor-core ring/band kernels (convert-dwc-to-gpu-mma).
// Included by DwcAttrs.td after Dwc_KernelConfig.
//
//===----------------------------------------------------------------------===//

def Dwc_MmaBandKernelAttr : Dwc_KernelConfig<"MmaBandKernel", "mma_band"> {
  let summary = "Depthwise tensor-core band kernel: K = 16 slices of each "
                "filter row's Toeplitz band, input rows in a shared ring";
  let description = [{
    `convert-dwc-to-gpu-mma`'s band-packing kernel for stride-1 f16/bf16
    `dwc.depthwise_conv2d` and `dwc.depthwise_conv2d_backward_data` (f32
    accumulation, dilation 1, C % 8 == 0): a block owns 64 channels and
    `rows` x R output rows; each stage copies one input row into a ring of
    `rows` x R + 1 (+ 1) slots and one filter row, and multiplies
    ceil((FW + 7) / 16) m16n8k16 slices per output group.

    * `rows`: spatial tiles per warp sharing the B registers, 1, 2 or 4;
    * `warp_channels`: channels per warp, 8 (256 threads) or 16 (128);
    * `filter_pairs`: a first kernel writes each filter row's register pairs
      (v[s], v[s + 1]) into a workspace (else the filter row is copied);
    * `input_pairs`: a first kernel writes the input with the columns of a
      pair interleaved (measured slower; requestable for tests and sweeps);
    * `one_barrier`: one barrier per stage (one more ring slot and a third
      filter buffer);
    * `unroll`: the slices unrolled (up to 8 slices; else an scf.for);
    * `copy_split`: a thread's copies share its chunk and address part;
    * `min_blocks_per_sm`: blocks per SM wanted (nvvm.minctasm; 0: no hint,
      never chosen).

    The shared memory the configuration needs must fit the target's
    `shared_memory_per_block`. A field left out (0) is chosen by
    `dwc-select-kernels` (docs/KernelSelection.md, "tensor cores").

    ```mlir
    {dwc.kernel = #dwc.mma_band<rows = 2, warp_channels = 8,
        filter_pairs = false, input_pairs = false, one_barrier = true,
        unroll = true, copy_split = true>}
    ```
  }];
  let parameters = (ins DefaultValuedParameter<"int64_t", "0">:$rows,
                        DefaultValuedParameter<"int64_t", "0">:$warp_channels,
                        OptionalParameter<"BoolAttr">:$filter_pairs,
                        OptionalParameter<"BoolAttr">:$input_pairs,
                        OptionalParameter<"BoolAttr">:$one_barrier,
                        OptionalParameter<"BoolAttr">:$unroll,
                        OptionalParameter<"BoolAttr">:$copy_split,
                        DefaultValuedParameter<"int64_t", "0">:$min_blocks_per_sm);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Dwc_MmaRingKernelAttr : Dwc_KernelConfig<"MmaRingKernel", "mma_ring"> {
  let summary = "Depthwise tensor-core fragment kernel: width-9 filter "
                "fragments, a row ring or per-fragment stages";
  let description = [{
    `convert-dwc-to-gpu-mma`'s Flash-DWC fragment kernel (the ops of
    `mma_band`, chosen where the band ring does not fit): 16 GEMVs of 8
    outputs x one width-9 filter fragment per m16n8k16 mma, compressed
    23-element filter vectors, double-buffered cp.async stages.

    * `ring`: true: a stage is a whole filter row, R + 1 input row slots
      renumbered circularly; false: `frags_per_stage` fragments of a row per
      stage, sharing one input tile;
    * `frags_per_stage`: in [1, 16], clamped to ceil(FW / 9) (a ring
      stages all of them: at least ceil(FW / 9));
    * `warp_channels`: 8 or 16, as for `mma_band`;
    * `min_blocks_per_sm`: as for `mma_band`.

    ```mlir
    {dwc.kernel = #dwc.mma_ring<ring = false, frags_per_stage = 1,
        warp_channels = 16>}
    ```
  }];
  let parameters = (ins OptionalParameter<"BoolAttr">:$ring,
                        DefaultValuedParameter<"int64_t", "0">:$frags_per_stage,
                        DefaultValuedParameter<"int64_t", "0">:$warp_channels,
                        DefaultValuedParameter<"int64_t", "0">:$min_blocks_per_sm);
  let assemblyFormat = "`<` struct(params) `>`";
}
