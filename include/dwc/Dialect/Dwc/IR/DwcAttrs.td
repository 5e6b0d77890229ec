//===- DwcAttrs.td - dwc enums and attributes -------------*- tablegen -*-===//
//
// Enumerations used by dwc ops (the pooling kind, fused activations) and the
// target attribute the GPU kernel choices read.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_ATTRS
#define DWC_ATTRS

include "dwc/Dialect/Dwc/IR/DwcDialect.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/AttrTypeBase.td"

def Dwc_PoolKind : I32EnumAttr<"PoolKind", "pooling reduction", [
    I32EnumAttrCase<"Max", 0, "max">,
    I32EnumAttrCase<"Avg", 1, "avg">
  ]> {
  let cppNamespace = "::mlir::dwc";
  let genSpecializedAttr = 0;
}

def Dwc_PoolKindAttr : EnumAttr<Dwc_Dialect, Dwc_PoolKind, "pool_kind"> {
  let assemblyFormat = "$value";
}

def Dwc_Activation : I32EnumAttr<"Activation", "fused elementwise activation", [
    I32EnumAttrCase<"Relu", 0, "relu">,
    I32EnumAttrCase<"Relu6", 1, "relu6">,
    I32EnumAttrCase<"Silu", 2, "silu">,
    I32EnumAttrCase<"Sigmoid", 3, "sigmoid">,
    I32EnumAttrCase<"Hardswish", 4, "hardswish">,
    I32EnumAttrCase<"Hardsigmoid", 5, "hardsigmoid">,
    I32EnumAttrCase<"Gelu", 6, "gelu">,
    I32EnumAttrCase<"GeluTanh", 7, "gelu_tanh">
  ]> {
  let cppNamespace = "::mlir::dwc";
  let genSpecializedAttr = 0;
}

def Dwc_ActivationAttr : EnumAttr<Dwc_Dialect, Dwc_Activation, "activation"> {
  let assemblyFormat = "$value";
}

def Dwc_TargetAttr : AttrDef<Dwc_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "The GPU the dwc kernels are generated for, as data";
  let description = [{
    The facts about the target GPU that the kernel choices and the kernel
    generators depend on, set once on the module (`dwc.target`) by
    `dwc-attach-target` (the GPU pipeline runs it from its `chip`, `features`
    and `sm-count` options) and read by every pass that decides a kernel:
    no pass has a chip fact of its own. A module without one is compiled
    for the default target, `TargetAttr::getDefault` (sm_90, 132 SMs).

    * `chip`: `sm_<version>[a|f]`, as NVVM expects it (`sm_90a`: Hopper's
      architecture-specific instructions, wgmma);
    * `features`: the PTX ISA version, `+ptx<NN>`;
    * `sm_count`: streaming multiprocessors (work-splitting rules: waves of
      blocks, persistent grids);
    * `shared_memory_per_block`: the most shared memory one block may use
      (the opt-in maximum of dynamic shared memory), in bytes;
    * `shared_memory_per_sm`: shared memory of one SM, in bytes;
    * `threads_per_sm`: resident threads of one SM at full occupancy;
    * `registers_per_sm`: 32-bit registers of one SM.

    ```mlir
    module attributes {dwc.target = #dwc.target<chip = "sm_90a",
        features = "+ptx80", sm_count = 132,
        shared_memory_per_block = 232448, shared_memory_per_sm = 233472,
        threads_per_sm = 2048, registers_per_sm = 65536>} {
    ```
  }];
  let parameters = (ins
    StringRefParameter<"GPU architecture, sm_<version>[a|f]">:$chip,
    StringRefParameter<"PTX ISA version, +ptx<NN>">:$features,
    "int64_t":$sm_count,
    "int64_t":$shared_memory_per_block,
    "int64_t":$shared_memory_per_sm,
    "int64_t":$threads_per_sm,
    "int64_t":$registers_per_sm
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The SM version of the chip: 90 for sm_90 and sm_90a.
    unsigned getSmVersion() const;
    /// cp.async and the m16n8k16 f16/bf16 mma.sync of the fast paths.
    bool hasAmpereInstructions() const { return getSmVersion() >= 80; }
    /// Hopper warpgroup MMA (wgmma) exists only on sm_90a.
    bool hasWgmma() const;
    /// The target of a module without `dwc.target`: sm_90, 132 SMs.
    static TargetAttr getDefault(::mlir::MLIRContext *ctx);
    /// The `dwc.target` of the module holding `op` (or of `op` itself when
    /// it is a module), else the default target.
    static TargetAttr lookup(::mlir::Operation *op);
    /// The name of the module attribute that holds the target.
    static constexpr ::llvm::StringLiteral kAttrName = "dwc.target";
  }];
}

//===----------------------------------------------------------------------===//
// Kernel configurations
//===----------------------------------------------------------------------===//

def Dwc_KernelConfigAttrInterface : AttrInterface<"KernelConfigAttrInterface"> {
  let cppNamespace = "::mlir::dwc";
  let description = [{
    A kernel configuration: which kernel family implements a dwc op and with
    which parameters, attached to the op as `dwc.kernel` by
    `dwc-select-kernels` (or written by the user: tuning sweeps, a choice
    the heuristics do not make). The kernel passes only read it. A field
    left at 0 is chosen by `dwc-select-kernels`; the verifier rejects a
    configuration that does not fit the op it is attached to.
  }];
  let methods = [
    InterfaceMethod<"The kernel family (its mnemonic)", "::llvm::StringRef",
                    "getFamily">,
    InterfaceMethod<[{Why this configuration cannot implement `op`, or an
                      empty string}], "std::string", "whyNotFor",
                    (ins "::mlir::Operation *":$op)>,
    InterfaceMethod<"Whether every field is set", "bool", "isComplete">,
  ];
}

class Dwc_KernelConfig<string name, string attrMnemonic>
    : AttrDef<Dwc_Dialect, name,
              [DeclareAttrInterfaceMethods<Dwc_KernelConfigAttrInterface>]> {
  let mnemonic = attrMnemonic;
}

def Dwc_DirectKernelAttr : Dwc_KernelConfig<"DirectKernel", "direct"> {
  let summary = "The direct kernel: one thread per output element";
  let description = [{
    `convert-dwc-to-gpu`'s kernel, for every dwc op on every target: one
    thread computes one output element (or one input-gradient element) from
    global memory. The reference the fast paths are checked against, and
    the kernel of ops no fast path takes.

    ```mlir
    %y = dwc.depthwise_conv2d ... {dwc.kernel = #dwc.direct}
    ```
  }];
}

// One file per kernel family.
include "dwc/Dialect/Dwc/IR/Configs/Strided.td"
include "dwc/Dialect/Dwc/IR/Configs/Mma.td"
include "dwc/Dialect/Dwc/IR/Configs/MmaStream.td"
include "dwc/Dialect/Dwc/IR/Configs/Gemv.td"
include "dwc/Dialect/Dwc/IR/Configs/BackwardFilter.td"
include "dwc/Dialect/Dwc/IR/Configs/Pool.td"
include "dwc/Dialect/Dwc/IR/Configs/Im2win.td"

#endif // DWC_ATTRS
