//===- Im2win.td - kernel configurations of one family ---*- tablegen -*-===//
//
// The configuration attributes of the dense conv2d im2win kernels (convert-dwc-to-gpu-im2win).
// Included by DwcAttrs.td after Dwc_KernelConfig.
//
// Three attributes, not one with a kind field: the three kernels share the
// GEMM view and the window gather but not their parameters (the warpgroup
// kernel has a dozen of its own, the CUDA-core kernel no swizzle) nor their
// ops (f32 vs f16/bf16, sm_90a only), so each attribute lists exactly what
// its kernel reads and its verifier needs no "field ignored for this kind".
// Integer fields left at 0 and flags left out are chosen by
// dwc-select-kernels; a complete configuration has all of them.
//
//===----------------------------------------------------------------------===//

class Dwc_Im2winFlag<string desc>
    : OptionalParameter<"::mlir::BoolAttr", desc>;

def Dwc_Im2winSimtKernelAttr
    : Dwc_KernelConfig<"Im2winSimtKernel", "im2win_simt"> {
  let summary = "Dense f32 conv2d: the im2win GEMM on CUDA cores";
  let description = [{
    `convert-dwc-to-gpu-im2win`'s f32 kernel for a memref `dwc.conv2d` (f32
    accumulation, OC a multiple of 4, identity layouts): a GEMM over the
    im2win windows (M = N*OH*OW pixels, N = OC, K = FH*FW*C) in blocks of
    256 threads, K tiles of 16 staged in shared memory, 8 x 8 or 16 x 4
    outputs per thread in registers.

    * `tile_n`: output channels per block tile, 64 (256 x 64 tiles) or 128
      (128 x 128);
    * `stages`: shared-memory buffers, 1 (one buffer: load, wait, compute),
      2 (double buffering) or 3 (cp.async only; all stages within 48 KB of
      static shared memory);
    * `min_blocks_per_sm`: launch bound nvvm.minctasm, 1 (none) to 32;
    * `precompute`: per-thread gather offsets computed once before the K
      loop (false: recomputed from (m, k) for every copy);
    * `async_copy`: tiles staged by cp.async with zero fill (false: loads
      through registers; at most 2 stages);
    * `im2win_tensor`: the input first rearranged by `dwc.im2win` into a
      temporary N x OH x IWp x FH x C tensor (false: the window gather fused
      into the A loads).

    ```mlir
    {dwc.kernel = #dwc.im2win_simt<tile_n = 128, stages = 3,
        min_blocks_per_sm = 1, precompute = true, async_copy = true,
        im2win_tensor = false>}
    ```
  }];
  let parameters = (ins
      DefaultValuedParameter<"int64_t", "0">:$tile_n,
      DefaultValuedParameter<"int64_t", "0">:$stages,
      DefaultValuedParameter<"int64_t", "0">:$min_blocks_per_sm,
      Dwc_Im2winFlag<"offsets computed once">:$precompute,
      Dwc_Im2winFlag<"cp.async staging">:$async_copy,
      Dwc_Im2winFlag<"materialised im2win tensor">:$im2win_tensor);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Dwc_Im2winMmaKernelAttr
    : Dwc_KernelConfig<"Im2winMmaKernel", "im2win_mma"> {
  let summary = "Dense f16/bf16 conv2d: the im2win GEMM on mma.sync";
  let description = [{
    `convert-dwc-to-gpu-im2win`'s tensor-core kernel for a memref
    `dwc.conv2d` of f16 or bf16 (f32 accumulation, OC a multiple of 8,
    identity layouts): the same GEMM as `im2win_simt` with K tiles of 32,
    8 warps of 64 x 32 outputs, m16n8k16 `mma.sync` with f32 accumulators,
    B fragments by `ldmatrix.trans`.

    * `tile_n`, `stages`, `min_blocks_per_sm`, `precompute`, `async_copy`,
      `im2win_tensor`: as for `im2win_simt`;
    * `swizzle`: the parity swizzle of the B tile's 16-byte chunks, so that
      the rows an ldmatrix phase reads fall in different bank groups.

    ```mlir
    {dwc.kernel = #dwc.im2win_mma<tile_n = 128, stages = 3,
        min_blocks_per_sm = 1, precompute = true, async_copy = true,
        im2win_tensor = false, swizzle = true>}
    ```
  }];
  let parameters = (ins
      DefaultValuedParameter<"int64_t", "0">:$tile_n,
      DefaultValuedParameter<"int64_t", "0">:$stages,
      DefaultValuedParameter<"int64_t", "0">:$min_blocks_per_sm,
      Dwc_Im2winFlag<"offsets computed once">:$precompute,
      Dwc_Im2winFlag<"cp.async staging">:$async_copy,
      Dwc_Im2winFlag<"materialised im2win tensor">:$im2win_tensor,
      Dwc_Im2winFlag<"parity swizzle of B">:$swizzle);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Dwc_Im2winWgmmaKernelAttr
    : Dwc_KernelConfig<"Im2winWgmmaKernel", "im2win_wgmma"> {
  let summary = "Dense f16/bf16 conv2d: the im2win GEMM on Hopper "
                "warpgroup MMA";
  let description = [{
    `convert-dwc-to-gpu-im2win`'s warpgroup kernel for a memref `dwc.conv2d`
    of f16 or bf16 on a target with wgmma (`sm_90a`): `warpgroups` x 128
    threads, each warpgroup 64 output rows x `n` channels by
    `wgmma.mma_async` from 128-byte swizzled shared memory, K tiles of 64
    in `stages` cp.async (or TMA) stages. Inputs with C % 4 != 0 are first
    zero-padded to a multiple of 4 channels (x and w in temporaries), those
    with C % 8 == 4 gathered in 8-byte chunks.

    * `warpgroups`: 1, 2 or 4 (64-row slices of the block tile);
    * `n`: output channels per warpgroup, 64, 128 or 256, at most what OC
      needs (64 when OC <= 64, 128 when OC <= 128);
    * `stages`: 2 to 8 (3 or more with `overlap` or `specialize`); over
      48 KB they live in dynamic shared memory, within the target's
      `shared_memory_per_block`;
    * `barriers`: block barriers per K tile, 2, or 1 (the copies of a later
      tile issued while the tile's wgmma group runs);
    * `min_blocks_per_sm`: as for `im2win_simt`;
    * `overlap`: the tile's wgmma group kept in flight while the next copies
      are issued (wait_group 1; needs 2 barriers);
    * `specialize`: warp-specialised persistent kernel, one copying
      warpgroup handing stages to 1 or 2 multiplying ones through mbarriers
      (needs 2 barriers, no overlap);
    * `tma_filter`: the filter (B) tiles by cp.async.bulk.tensor through a
      runtime tensor map, one mbarrier per stage (no overlap, 2 barriers);
    * `tma_im2col`: the input (A) tiles by im2col-mode TMA as well (needs
      `tma_filter`, C % 64 == 0, unit strides and dilations, window corners
      in [-128, 127], `precompute`, no `im2win_tensor`, no `specialize`);
    * `staged_stores`: the output tile through shared memory in 16-byte row
      chunks (where the idle buffers hold it);
    * `precompute`, `im2win_tensor`: as for `im2win_simt` (`im2win_tensor`
      needs C % 4 == 0).

    ```mlir
    {dwc.kernel = #dwc.im2win_wgmma<warpgroups = 2, n = 128, stages = 3,
        barriers = 2, min_blocks_per_sm = 1, overlap = false,
        specialize = false, tma_filter = true, tma_im2col = true,
        staged_stores = true, precompute = true, im2win_tensor = false>}
    ```
  }];
  let parameters = (ins
      DefaultValuedParameter<"int64_t", "0">:$warpgroups,
      DefaultValuedParameter<"int64_t", "0">:$n,
      DefaultValuedParameter<"int64_t", "0">:$stages,
      DefaultValuedParameter<"int64_t", "0">:$barriers,
      DefaultValuedParameter<"int64_t", "0">:$min_blocks_per_sm,
      Dwc_Im2winFlag<"wgmma group in flight across copies">:$overlap,
      Dwc_Im2winFlag<"warp-specialised persistent kernel">:$specialize,
      Dwc_Im2winFlag<"B tiles by TMA">:$tma_filter,
      Dwc_Im2winFlag<"A tiles by im2col TMA">:$tma_im2col,
      Dwc_Im2winFlag<"output through shared memory">:$staged_stores,
      Dwc_Im2winFlag<"offsets computed once">:$precompute,
      Dwc_Im2winFlag<"materialised im2win tensor">:$im2win_tensor);
  let assemblyFormat = "`<` struct(params) `>`";
}
