//===- MmaStream.td - kernel configurations of one family ---*- tablegen -*-===//
//
// The configuration attribute of the streaming wide-filter tensor-core
// kernels (convert-dwc-to-gpu-mma-stream). Included by DwcAttrs.td after
// Dwc_KernelConfig.
//
//===----------------------------------------------------------------------===//

def Dwc_StreamInputOperand : I32EnumAttr<"StreamInputOperand",
    "which mma operand the streamed input rows are", [
    I32EnumAttrCase<"A", 0, "a">,
    I32EnumAttrCase<"B", 1, "b">
  ]> {
  let cppNamespace = "::mlir::dwc";
  let genSpecializedAttr = 0;
}

def Dwc_StreamLoopOrder : I32EnumAttr<"StreamLoopOrder",
    "the outer unrolled loop of a streaming row block", [
    I32EnumAttrCase<"FilterRows", 0, "filter_rows">,
    I32EnumAttrCase<"InputRows", 1, "input_rows">
  ]> {
  let cppNamespace = "::mlir::dwc";
  let genSpecializedAttr = 0;
}

def Dwc_MmaStreamKernelAttr
    : Dwc_KernelConfig<"MmaStreamKernel", "mma_stream"> {
  let summary = "Streaming wide-filter depthwise kernel on tensor cores: "
                "input rows streamed through registers";
  let description = [{
    `convert-dwc-to-gpu-mma-stream`'s kernel for stride-1 f16/bf16
    `dwc.depthwise_conv2d` and `dwc.depthwise_conv2d_backward_data` (f32
    accumulation, dilation 1, C % 8 == 0, static identity-layout operands):
    one warp owns one channel and a tile of 128 outputs along the width and
    streams the input rows of each row block once, multiplying each row
    with every filter row it meets (m16n8k16 slices of the filter rows'
    Toeplitz bands, from shared memory).

    * `input_operand`: `a` (16 groups of 8 outputs, band FW + 7 wide) or
      `b` (8 groups of 16 outputs, band FW + 15 wide; the filter is the
      A operand);
    * `loop_order`: `filter_rows` (outer: filter row fh, its operand loaded
      once per R mma) or `input_rows` (outer: input row, multiplied with
      every filter row it meets);
    * `rows`: output rows R per warp and row block, in [1, 32] (clamped to
      the output's height);
    * `prefetch`: how far an input row's loads run ahead of its first use,
      filter-row steps or input rows, in [0, 8] (clamped to FH, input-row
      order FH - 1); -1: not set;
    * `compact_workspace`: the channel-major workspace rows keep only the
      left padding modulo 2 (modulo 8 with `smem_input`) and lanes mask the
      words outside a row; else whole padded rows;
    * `filter_in_registers`: the filter operand is loaded into registers
      once (else a shared-memory load per mma);
    * `row_blocks_per_chunk`: row blocks one block computes (the row blocks
      of a tile are split over the grid), at least 1 (clamped to the row
      blocks);
    * `min_blocks_per_sm`: blocks wanted on one SM (nvvm.minctasm), in
      [0, 8], 0: no hint; -1: not set;
    * `smem_input` (filter-row order): each row block's input rows copied
      into double-buffered shared memory with cp.async;
    * `nhwc_input` (filter-row order): no workspace, the rows are copied
      from the NHWC input into swizzled shared memory;
    * `overlap_workspace` (not with `nhwc_input`): producer blocks write the
      workspace inside the streaming launch, `overlap_lookahead` (1 to 64)
      image sets ahead of the consumers;
    * `stream_columns` (not with `nhwc_input`): the height and width swap
      roles - the workspace holds the input's columns, the warps stream
      them and the tile runs along the height - so a filter taller than
      wide (FW < 10 <= FH) becomes the wide filter this kernel is built
      for. Only the workspace's loads, the band's filter loads and the
      output stores change their index order. Left out: false.

    `smem_input`, `nhwc_input` and `overlap_workspace` are measured slower
    on the H200 and never chosen
    (docs/KernelSelection.md, "streaming tensor-core kernel"). The band,
    the output stage and the input buffers must fit the target's
    `shared_memory_per_block`. A field left out is chosen by
    `dwc-select-kernels`, for the swapped shape where `stream_columns` is
    asked; the selector does not set `stream_columns` itself (not yet
    measured on a GPU).

    ```mlir
    {dwc.kernel = #dwc.mma_stream<input_operand = b,
        loop_order = filter_rows, rows = 8, prefetch = 2,
        compact_workspace = true, filter_in_registers = true,
        row_blocks_per_chunk = 1, min_blocks_per_sm = 2>}
    // A 51 x 5 filter, streamed along the columns:
    {dwc.kernel = #dwc.mma_stream<input_operand = a,
        loop_order = input_rows, rows = 8, prefetch = 4,
        compact_workspace = false, filter_in_registers = true,
        row_blocks_per_chunk = 3, min_blocks_per_sm = 0,
        stream_columns = true>}
    ```
  }];
  let parameters = (ins
      OptionalParameter<"std::optional<StreamInputOperand>">:$input_operand,
      OptionalParameter<"std::optional<StreamLoopOrder>">:$loop_order,
      DefaultValuedParameter<"int64_t", "0">:$rows,
      DefaultValuedParameter<"int64_t", "-1">:$prefetch,
      OptionalParameter<"BoolAttr">:$compact_workspace,
      OptionalParameter<"BoolAttr">:$filter_in_registers,
      DefaultValuedParameter<"int64_t", "0">:$row_blocks_per_chunk,
      DefaultValuedParameter<"int64_t", "-1">:$min_blocks_per_sm,
      OptionalParameter<"BoolAttr">:$smem_input,
      OptionalParameter<"BoolAttr">:$nhwc_input,
      OptionalParameter<"BoolAttr">:$overlap_workspace,
      DefaultValuedParameter<"int64_t", "2">:$overlap_lookahead,
      OptionalParameter<"BoolAttr">:$stream_columns);
  let assemblyFormat = "`<` struct(params) `>`";
  let extraClassDeclaration = [{
    /// The variants never chosen: false when left out.
    bool isSmemInput() const { return getSmemInput() && getSmemInput().getValue(); }
    bool isNhwcInput() const { return getNhwcInput() && getNhwcInput().getValue(); }
    bool isOverlapWorkspace() const {
      return getOverlapWorkspace() && getOverlapWorkspace().getValue();
    }
    bool isStreamColumns() const {
      return getStreamColumns() && getStreamColumns().getValue();
    }
  }];
}
