"""Dense convolution (dwc.conv2d through im2win) benchmark configurations.

Pure Python (no torch). The 12 layers of the GPU im2win paper (BRIEF.md
section 3) at batch 128 in f32 and f16, odd shapes for correctness, and
ablation variants (dwc.kernel configurations written on the op). Strides are
those of the layers' origin (the MEC benchmark: 4, 4, 2, 2, then 1), no
padding; the odd set covers padding, dilation, stride 2, C = 3, bias, bf16.

    python3 bench/conv_configs.py --set all --build --aot build/bin/dwc-aot
        -> .carry/conv_kernels/<name>.{mlir,o,h,log} + manifest.json
    python3 bench/conv_configs.py --set layers --list
"""

import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import List, Optional

ESIZE = {"f32": 4, "f16": 2, "bf16": 2}
TOLERANCE = {"f32": 1e-5, "f16": 2e-3, "bf16": 4e-3}

# (C, H, W, OC, F, stride): BRIEF.md section 3, strides of the MEC set.
LAYERS = [
    (3, 227, 227, 96, 11, 4), (3, 231, 231, 96, 11, 4), (3, 227, 227, 64, 7, 2),
    (32, 224, 224, 64, 7, 2), (96, 24, 24, 256, 5, 1), (256, 12, 12, 512, 3, 1),
    (3, 224, 224, 64, 3, 1), (64, 112, 112, 128, 3, 1), (64, 56, 56, 64, 3, 1),
    (128, 28, 28, 128, 3, 1), (256, 14, 14, 256, 3, 1), (512, 7, 7, 512, 3, 1),
]

# Ablation variants: name -> (kernel, fields) of the dwc.kernel configuration
# written on the op (#dwc.im2win_simt for f32 and #dwc.im2win_mma for
# f16/bf16, or #dwc.im2win_wgmma; fields left out are chosen by
# dwc-select-kernels). "base": no configuration, dwc-select-kernels chooses.
GEMM, WGMMA = "gemm", "wgmma"
VARIANTS = {
    "base": (None, ""),
    "noprecomp": (GEMM, "precompute = false"),
    "noasync": (GEMM, "async_copy = false"),
    "nodbuf": (GEMM, "stages = 1"),
    "noswz": (GEMM, "swizzle = false"),
    "st2": (GEMM, "stages = 2"),
    "occ2": (GEMM, "min_blocks_per_sm = 2"),
    "none": (GEMM, "stages = 1, precompute = false, async_copy = false, swizzle = false"),
    "im2wint": (GEMM, "im2win_tensor = true"),
    # Hopper warpgroup MMA (f16/bf16; C % 4 != 0 with fewer than 64 window
    # elements keeps mma.sync); compiled for sm_90a.
    "wgmma": (WGMMA, ""),
    "wgmma1": (WGMMA, "warpgroups = 1"),
    "wgmma2": (WGMMA, "warpgroups = 2"),
    "wgmma4": (WGMMA, "warpgroups = 4"),
    "wgmmao": (WGMMA, "overlap = true"),
    "wgmmao1": (WGMMA, "overlap = true, warpgroups = 1"),
    "wgmmao2": (WGMMA, "overlap = true, warpgroups = 2"),
    "wgmmao3": (WGMMA, "overlap = true, stages = 3"),
    "wgmmat": (WGMMA, "im2win_tensor = true"),
    "wgmmab": (WGMMA, "barriers = 1"),
    "wgmmab3": (WGMMA, "barriers = 1, stages = 3"),
    "wgmman256": (WGMMA, "n = 256"),
    "wgmman256w2": (WGMMA, "n = 256, warpgroups = 2"),
    "wgmmab256w2": (WGMMA, "n = 256, warpgroups = 2, barriers = 1"),
    "wgmman256s2": (WGMMA, "n = 256, warpgroups = 1, stages = 2"),
    "wgmmab2": (WGMMA, "barriers = 2"),
    "wgmmab4": (WGMMA, "barriers = 1, stages = 4"),
    "wgmmab1w2": (WGMMA, "barriers = 1, warpgroups = 2"),
    # Warp-specialised persistent wgmma kernel (copying warpgroup +
    # mbarrier stages).
    "spec": (WGMMA, "specialize = true"),
    "spec1": (WGMMA, "specialize = true, warpgroups = 1"),
    "spec2": (WGMMA, "specialize = true, warpgroups = 2"),
    "spec2s4": (WGMMA, "specialize = true, warpgroups = 2, stages = 4"),
    # C % 4 != 0 without the channel padding (the mma.sync kernel's
    # element-wise gather) ...
    "nopad": (WGMMA, "nopad"),
    # ... and padded whatever the window size.
    "padall": (WGMMA, "padall"),
    # wgmma output stores straight from the accumulator fragments.
    "nostage": (WGMMA, "staged_stores = false"),
    # wgmma pipeline depth (dynamic shared memory above 48 KB).
    "wst3": (WGMMA, "stages = 3"),
    "wst4": (WGMMA, "stages = 4"),
    "wst6": (WGMMA, "stages = 6"),
    "w2st4": (WGMMA, "warpgroups = 2, stages = 4"),
    # Filter (B) tiles by TMA (cp.async.bulk.tensor, runtime tensor map).
    "wtma": (WGMMA, "tma_filter = true"),
    "spect": (WGMMA, "specialize = true, tma_filter = true"),
    "spect1": (WGMMA, "specialize = true, tma_filter = true, warpgroups = 1"),
    "spect2": (WGMMA, "specialize = true, tma_filter = true, warpgroups = 2"),
    # Both operands by TMA where the input allows it (C % 64 == 0, unit
    # strides; dwc-select-kernels' own choice there).
    "wtmai": (WGMMA, ""),
    "wtmai1": (WGMMA, "warpgroups = 1"),
    "wtmai2": (WGMMA, "warpgroups = 2"),
}

# The target dwc-to-nvvm attaches for chip=sm_90a (a #dwc.im2win_wgmma
# configuration verifies only in a module for a target with wgmma).
TARGET_SM90A = ('#dwc.target<chip = "sm_90a", features = "+ptx80", sm_count = 132, '
                'shared_memory_per_block = 232448, shared_memory_per_sm = 233472, '
                'threads_per_sm = 2048, registers_per_sm = 65536>')


def chip_of(variant):
    """Target of dwc-aot: wgmma needs the architecture-specific sm_90a."""
    return "sm_90a" if VARIANTS[variant][0] == WGMMA else "sm_90"


@dataclass
class ConvConfig:
    N: int
    H: int
    W: int
    C: int
    OC: int
    FH: int
    FW: int
    dtype: str = "f32"
    stride: List[int] = field(default_factory=lambda: [1, 1])
    dilation: List[int] = field(default_factory=lambda: [1, 1])
    padding: List[int] = field(default_factory=lambda: [0, 0, 0, 0])
    bias: bool = False
    variant: str = "base"
    layer: str = ""
    note: str = ""

    @property
    def OH(self):
        return (self.H + self.padding[0] + self.padding[1]
                - self.dilation[0] * (self.FH - 1) - 1) // self.stride[0] + 1

    @property
    def OW(self):
        return (self.W + self.padding[2] + self.padding[3]
                - self.dilation[1] * (self.FW - 1) - 1) // self.stride[1] + 1

    @property
    def IWp(self):
        return self.W + self.padding[2] + self.padding[3]

    @property
    def name(self):
        j = lambda v: "x".join(map(str, v))
        n = (f"conv_n{self.N}h{self.H}w{self.W}c{self.C}o{self.OC}_f{self.FH}x{self.FW}"
             f"_s{j(self.stride)}_d{j(self.dilation)}_p{j(self.padding)}")
        if self.bias:
            n += "_bias"
        n += "_" + self.dtype
        if self.variant != "base":
            n += "_" + self.variant
        return n

    @property
    def symbol(self):
        return "dwc_" + self.name

    def flops(self):
        return 2 * self.N * self.OH * self.OW * self.OC * self.FH * self.FW * self.C

    def bytes(self, what):
        e = ESIZE[self.dtype]
        return e * {
            "x": self.N * self.H * self.W * self.C,
            "w": self.FH * self.FW * self.C * self.OC,
            "y": self.N * self.OH * self.OW * self.OC,
            "b": self.OC if self.bias else 0,
            "im2win": self.N * self.OH * self.IWp * self.FH * self.C,
        }[what]

    def our_temp_bytes(self, chip=""):
        """Device memory our compiled function allocates itself (the IR's
        allocations are static): the im2win tensor of the separate variant;
        with the wgmma kernel (a #dwc.im2win_wgmma variant, or chip sm_90a
        choosing by itself), the x and w padded to a multiple of 4 channels
        when C % 4 != 0 (by itself: when the window has at least 64
        elements); nothing for the fused gather."""
        if self.variant == "im2wint":
            return self.bytes("im2win")
        config = self.kernel_config()
        wgmma = "im2win_wgmma" in config or (chip == "sm_90a" and not config)
        min_k = 0 if "im2win_wgmma" in config else 64
        if (wgmma and self.dtype != "f32" and self.C % 4 != 0
                and self.FH * self.FW * self.C >= min_k):
            c4 = (self.C + 3) // 4 * 4
            return (self.N * self.H * self.W + self.FH * self.FW * self.OC) * c4 * 2
        return 0

    def tolerance(self):
        return TOLERANCE[self.dtype]

    def kernel_config(self):
        """The dwc.kernel the variant writes on the op ("": none)."""
        kind, fields = VARIANTS[self.variant]
        half = self.dtype != "f32"
        mma = "#dwc.im2win_mma<%s>" if half else "#dwc.im2win_simt<%s>"
        if kind == GEMM:
            if not half:  # (the CUDA-core kernel has no swizzle)
                fields = ", ".join(f for f in fields.split(", ")
                                   if not f.startswith("swizzle"))
                if not fields:
                    return ""
            return mma % fields
        if kind is None or not half:
            return ""
        # Where the warpgroup kernel does not take the op by itself (C % 4 != 0
        # with fewer than 64 window elements), the mma.sync kernel, as the
        # pass options did; padall asks for wgmma (padded) anyway.
        unpadded = self.C % 4 != 0
        small = self.FH * self.FW * self.C < 64
        if fields == "padall":
            return "#dwc.im2win_wgmma<>"
        if fields == "nopad" or (unpadded and small):
            return mma % "" if unpadded else "#dwc.im2win_wgmma<>"
        if unpadded and "im2win_tensor" in fields:  # (no padding then)
            return mma % "im2win_tensor = true"
        return "#dwc.im2win_wgmma<%s>" % fields

    def mlir(self):
        e = self.dtype
        tx = f"tensor<{self.N}x{self.H}x{self.W}x{self.C}x{e}>"
        tw = f"tensor<{self.FH}x{self.FW}x{self.C}x{self.OC}x{e}>"
        tb = f"tensor<{self.OC}x{e}>"
        ty = f"tensor<{self.N}x{self.OH}x{self.OW}x{self.OC}x{e}>"
        args = f"%x: {tx}, %w: {tw}" + (f", %b: {tb}" if self.bias else "")
        bias = f" bias(%b : {tb})" if self.bias else ""
        lst = lambda v: "[" + ", ".join(map(str, v)) + "]"
        config = self.kernel_config()
        attr = f" {{dwc.kernel = {config}}}" if config else ""
        func = (f"func.func @{self.name}({args}) -> {ty} {{\n"
                f"  %init = tensor.empty() : {ty}\n"
                f"  %y = dwc.conv2d ins(%x, %w : {tx}, {tw}){bias} outs(%init : {ty})"
                f" strides = {lst(self.stride)} dilations = {lst(self.dilation)}"
                f" padding = {lst(self.padding)}{attr} -> {ty}\n"
                f"  return %y : {ty}\n}}\n")
        if "im2win_wgmma" in config:
            func = (f"module attributes {{dwc.target = {TARGET_SM90A}}} {{\n"
                    + func + "}\n")
        return f"// Generated by bench/conv_configs.py: {self.name}\n" + func

    def to_dict(self):
        d = asdict(self)
        d.update(name=self.name, symbol=self.symbol, OH=self.OH, OW=self.OW,
                 kernel_config=self.kernel_config())
        return d


def layer_set(dtypes=("f32", "f16"), variant="base") -> List[ConvConfig]:
    out = []
    for dt in dtypes:
        for i, (c, h, w, oc, f, s) in enumerate(LAYERS):
            out.append(ConvConfig(128, h, w, c, oc, f, f, dt, [s, s], variant=variant,
                                  layer=f"cv{i + 1}"))
    return out


def odd_set() -> List[ConvConfig]:
    return [
        ConvConfig(2, 33, 35, 3, 32, 3, 3, "f32", [2, 2], padding=[1, 1, 1, 1], note="C=3, stride 2, padding"),
        ConvConfig(2, 33, 35, 3, 32, 3, 3, "f16", [2, 2], padding=[1, 1, 1, 1], note="C=3, stride 2, padding"),
        ConvConfig(3, 20, 21, 40, 72, 5, 5, "f32", [1, 1], [2, 2], [4, 4, 3, 5], note="dilation 2, asymmetric padding, C=40"),
        ConvConfig(3, 20, 21, 40, 72, 5, 5, "f16", [1, 1], [2, 2], [4, 4, 3, 5], note="dilation 2, asymmetric padding, C=40"),
        ConvConfig(2, 17, 19, 24, 200, 3, 3, "f32", [2, 1], padding=[1, 0, 2, 1], bias=True, note="bias, OC=200 tail, C=24"),
        ConvConfig(2, 17, 19, 24, 200, 3, 3, "f16", [2, 1], padding=[1, 0, 2, 1], bias=True, note="bias, OC=200 tail, C=24"),
        ConvConfig(2, 14, 14, 64, 64, 3, 3, "bf16", padding=[1, 1, 1, 1], note="bf16"),
        ConvConfig(1, 9, 9, 5, 12, 2, 2, "f32", note="C=5, OC=12, M not a tile multiple"),
        ConvConfig(2, 12, 13, 16, 64, 3, 3, "f16", padding=[1, 1, 1, 1], note="C=16 < BK"),
    ]


def ablation_set() -> List[ConvConfig]:
    """Variants on a few layers: cv4 (C=32, 7x7 s2), cv8, cv11, f16, and the
    separate-transform variant in f32 too; two blocks per SM (occ2, the
    default of the h200-v3 run, which measured one block as occ1) on the
    f16 layers with 128 x 128 tiles."""
    picks = [3, 7, 10]
    out = []
    for i, (c, h, w, oc, f, s) in enumerate(LAYERS):
        if c % 32 == 0 and oc > 64:
            out.append(ConvConfig(128, h, w, c, oc, f, f, "f16", [s, s], variant="occ2", layer=f"cv{i + 1}"))
    for v in VARIANTS:
        if v in ("base", "occ2"):
            continue
        for i in picks:
            c, h, w, oc, f, s = LAYERS[i]
            out.append(ConvConfig(128, h, w, c, oc, f, f, "f16", [s, s], variant=v, layer=f"cv{i + 1}"))
    for i in picks:
        c, h, w, oc, f, s = LAYERS[i]
        for v in ("noprecomp", "noasync", "nodbuf", "im2wint"):
            out.append(ConvConfig(128, h, w, c, oc, f, f, "f32", [s, s], variant=v, layer=f"cv{i + 1}"))
    return out


def wgmma_set() -> List[ConvConfig]:
    """The wgmma kernel (automatic warpgroup count, 1, 2 or 4 warpgroups;
    with wgmma-overlap: automatic, 1 or 2 warpgroups, 3 or 4 stages)
    against the mma.sync kernel (base, with cuDNN and im2col + cuBLAS) on
    the f16 layers it takes (C % 8 == 0), and on the
    f16/bf16 odd shapes (C = 3: the mma.sync fallback; one through the
    im2win tensor)."""
    out = []
    for v in ("base", "wgmma", "wgmma1", "wgmma2", "wgmma4", "wgmmao", "wgmmao1", "wgmmao2", "wgmmao3"):
        for i, (c, h, w, oc, f, s) in enumerate(LAYERS):
            if c % 8 == 0:
                out.append(ConvConfig(128, h, w, c, oc, f, f, "f16", [s, s], variant=v,
                                      layer=f"cv{i + 1}"))
    for v in ("wgmma", "wgmma2", "wgmma4", "wgmmao", "wgmmao2"):
        for c in odd_set():
            if c.dtype != "f32":
                c.variant = v
                out.append(c)
    t = odd_set()[3]
    t.variant = "wgmmat"
    out.append(t)
    return out


def wgmma2_set() -> List[ConvConfig]:
    """The wgmma kernel's tile and pipeline options on the layers where it
    trails cuDNN most (cv5, cv6, cv8-cv12, f16): base (with --chip sm_90a:
    the default wgmma kernel, with cuDNN and im2col + cuBLAS), one barrier
    per K tile (2 or 3 stages), m64n256 warpgroup tiles (layers with
    OC >= 256 only: below, wgmma-n=256 is the default kernel) with 1 or 2
    warpgroups; the f16/bf16 odd shapes with the new options."""
    out = []
    for v in ("base", "wgmmab", "wgmmab3", "wgmman256", "wgmman256w2", "wgmmab256w2", "wgmman256s2"):
        for i, (c, h, w, oc, f, s) in enumerate(LAYERS):
            if c % 8 != 0 or i == 3 or ("256" in v and oc < 256):
                continue
            out.append(ConvConfig(128, h, w, c, oc, f, f, "f16", [s, s], variant=v,
                                  layer=f"cv{i + 1}"))
    for v in ("wgmmab", "wgmmab3", "wgmman256w2", "wgmmab256w2"):
        for c in odd_set():
            if c.dtype != "f32":
                c.variant = v
                out.append(c)
    return out


def wgmma3_set() -> List[ConvConfig]:
    """base (with --chip sm_90a: the default wgmma kernel; at commit 59cb626,
    run 2026-11-30-conv-wgmma2-v2, it used one barrier per K tile with two
    warpgroups) against two barriers (wgmmab2) on the 8 f16 layers with
    C % 8 == 0; one barrier with 3 or 4
    stages on single-warpgroup layers; the f16/bf16 odd shapes with the
    default and with one barrier and two warpgroups."""
    out = []
    picks = {"base": (3, 4, 5, 7, 8, 9, 10, 11), "wgmmab2": (3, 4, 5, 7, 8, 9, 10, 11),
             "wgmmab3": (4, 5), "wgmmab4": (4, 5, 7, 9, 10)}
    for v, idx in picks.items():
        for i in idx:
            c, h, w, oc, f, s = LAYERS[i]
            out.append(ConvConfig(128, h, w, c, oc, f, f, "f16", [s, s], variant=v,
                                  layer=f"cv{i + 1}"))
    for v in ("base", "wgmmab1w2"):
        for c in odd_set():
            if c.dtype != "f32":
                c.variant = v
                out.append(c)
    return out


def spec_set() -> List[ConvConfig]:
    """The warp-specialised persistent wgmma kernel (automatic, 1 or 2
    multiplying warpgroups; 4 stages with 2) against base (with --chip
    sm_90a: the default wgmma kernel, with cuDNN and im2col + cuBLAS) on the
    8 f16 layers with C % 8 == 0; the f16/bf16 odd shapes with it."""
    out = []
    for v in ("base", "spec", "spec1", "spec2", "spec2s4"):
        for i, (c, h, w, oc, f, s) in enumerate(LAYERS):
            if c % 8 == 0:
                out.append(ConvConfig(128, h, w, c, oc, f, f, "f16", [s, s], variant=v,
                                      layer=f"cv{i + 1}"))
    for v in ("spec", "spec1", "spec2"):
        for c in odd_set():
            if c.dtype != "f32":
                c.variant = v
                out.append(c)
    return out


def pad_set() -> List[ConvConfig]:
    """Channel padding (with --chip sm_90a): the 12 f16 layers (base: the
    C = 3 layers with windows of >= 64 elements padded to 4 channels and on
    the wgmma kernel with 8-byte A chunks) with cuDNN and im2col + cuBLAS,
    the C = 3 layers without padding (nopad) and cv7 padded (padall), the
    f16/bf16 odd shapes and three more (C = 12: 8-byte chunks without
    padding, with bias, stride, dilation, asymmetric padding; bf16 C = 5
    padded to 8; C = 3 7x7 stride 2 padded to 4, with padding)."""
    out = []
    for i, (c, h, w, oc, f, s) in enumerate(LAYERS):
        out.append(ConvConfig(128, h, w, c, oc, f, f, "f16", [s, s], layer=f"cv{i + 1}"))
        if c % 8 != 0:
            out.append(ConvConfig(128, h, w, c, oc, f, f, "f16", [s, s], variant="nopad",
                                  layer=f"cv{i + 1}"))
        if c % 8 != 0 and f * f * c < 64:
            out.append(ConvConfig(128, h, w, c, oc, f, f, "f16", [s, s], variant="padall",
                                  layer=f"cv{i + 1}"))
    out += [c for c in odd_set() if c.dtype != "f32"]
    out.append(ConvConfig(2, 19, 23, 12, 40, 5, 5, "f16", [1, 2], [2, 1], [2, 1, 0, 3], bias=True,
                          note="C=12 (8-byte chunks), bias, stride, dilation"))
    out.append(ConvConfig(3, 16, 15, 5, 24, 5, 5, "bf16", padding=[2, 2, 2, 2], note="bf16 C=5 padded to 8"))
    out.append(ConvConfig(2, 37, 41, 3, 64, 7, 7, "f16", [2, 2], padding=[3, 3, 3, 2], note="C=3 padded to 4, 7x7 s2"))
    return out


def stage_set() -> List[ConvConfig]:
    """Staged output stores (with --chip sm_90a): the pad set (base = the
    default kernels, with cuDNN and im2col + cuBLAS) and the wgmma layers
    (all but cv7) without staged stores (nostage)."""
    out = [c for c in pad_set() if c.variant != "padall"]
    for i, (c, h, w, oc, f, s) in enumerate(LAYERS):
        if c % 8 == 0 or f * f * c >= 64:
            out.append(ConvConfig(128, h, w, c, oc, f, f, "f16", [s, s], variant="nostage",
                                  layer=f"cv{i + 1}"))
    return out


def stages_set() -> List[ConvConfig]:
    """wgmma pipeline depth (with --chip sm_90a): base (the default kernel,
    with cuDNN) against 3, 4 and 6 stages and two warpgroups with 4 stages
    on the 11 layers that take the wgmma kernel."""
    out = []
    for v in ("base", "wst3", "wst4", "wst6", "w2st4"):
        for i, (c, h, w, oc, f, s) in enumerate(LAYERS):
            if c % 8 == 0 or f * f * c >= 64:
                out.append(ConvConfig(128, h, w, c, oc, f, f, "f16", [s, s], variant=v,
                                      layer=f"cv{i + 1}"))
    return out


def tma_set() -> List[ConvConfig]:
    """B by TMA (with --chip sm_90a): base (the default kernel, with cuDNN)
    and wtma on the 11 layers that take the wgmma kernel; the f16/bf16 odd
    shapes with wtma (OC tails, K tiles across taps, padded C = 3/5)."""
    out = []
    for v in ("base", "wtma"):
        for i, (c, h, w, oc, f, s) in enumerate(LAYERS):
            if c % 8 == 0 or f * f * c >= 64:
                out.append(ConvConfig(128, h, w, c, oc, f, f, "f16", [s, s], variant=v,
                                      layer=f"cv{i + 1}"))
    for c in pad_set():
        if c.layer == "" and c.dtype != "f32":
            c.variant = "wtma"
            out.append(c)
    return out


def spec2_set() -> List[ConvConfig]:
    """The warp-specialised kernel with per-warp staged stores, with and
    without TMA for B (automatic, 1 or 2 multiplying warpgroups), against
    base (with --chip sm_90a, with cuDNN) on the 11 wgmma layers; the
    f16/bf16 odd shapes with spec and spect."""
    out = []
    for v in ("base", "spec", "spec2", "spect", "spect1", "spect2"):
        for i, (c, h, w, oc, f, s) in enumerate(LAYERS):
            if c % 8 == 0 or f * f * c >= 64:
                out.append(ConvConfig(128, h, w, c, oc, f, f, "f16", [s, s], variant=v,
                                      layer=f"cv{i + 1}"))
    for v in ("spec", "spect"):
        for c in pad_set():
            if c.layer == "" and c.dtype != "f32":
                c.variant = v
                out.append(c)
    return out


def tmai_set() -> List[ConvConfig]:
    """A and B by TMA (im2col mode for A) against base (with --chip sm_90a,
    with cuDNN) on the layers it takes (C % 64 == 0, stride 1: cv6,
    cv8-cv12), with 1 and 2 warpgroups; odd shapes with C % 64 == 0 (padding,
    asymmetric padding, M and OC tails, bf16, 5x5)."""
    out = []
    for v in ("base", "wtmai", "wtmai1", "wtmai2"):
        for i, (c, h, w, oc, f, s) in enumerate(LAYERS):
            if c % 64 == 0 and s == 1:
                out.append(ConvConfig(128, h, w, c, oc, f, f, "f16", [s, s], variant=v,
                                      layer=f"cv{i + 1}"))
    odd = [ConvConfig(2, 14, 14, 64, 64, 3, 3, "bf16", padding=[1, 1, 1, 1], note="bf16, padding"),
           ConvConfig(3, 13, 11, 64, 72, 3, 3, "f16", padding=[1, 1, 2, 0], bias=True,
                      note="asymmetric padding, M and OC tails, bias"),
           ConvConfig(2, 9, 10, 128, 64, 5, 5, "f16", padding=[2, 2, 2, 2], note="5x5, C=128"),
           ConvConfig(1, 7, 7, 192, 256, 3, 3, "f16", note="C=192, no padding, tiny M")]
    for v in ("wtmai", "wtmai1", "wtmai2"):
        for c in odd:
            c2 = ConvConfig(**{**c.__dict__, "variant": v})
            out.append(c2)
    return out


SETS = {"tmai": tmai_set, "spec2": spec2_set, "tma": tma_set, "stages": stages_set, "stage": stage_set, "pad": pad_set, "spec": spec_set, "layers": layer_set, "odd": odd_set, "ablation": ablation_set, "wgmma": wgmma_set, "wgmma2": wgmma2_set, "wgmma3": wgmma3_set}


def get_set(name):
    if name == "all":
        return layer_set() + odd_set() + ablation_set()
    return SETS[name]()


def build(cfgs, aot, outdir, jobs, chip=""):
    """chip: the target of every kernel ("": sm_90, sm_90a for the wgmma
    variants); sm_90a lets dwc-to-nvvm pick the wgmma kernel by itself."""
    os.makedirs(outdir, exist_ok=True)
    for f in os.listdir(outdir):
        os.remove(os.path.join(outdir, f))

    def one(c):
        base = os.path.join(outdir, c.name)
        with open(base + ".mlir", "w") as f:
            f.write(c.mlir())
        cmd = [aot, base + ".mlir", "-o", base + ".o", "--header", base + ".h"]
        cmd.append("--chip=" + (chip or chip_of(c.variant)))
        t0 = time.time()
        r = subprocess.run(cmd, capture_output=True, text=True)
        with open(base + ".log", "w") as f:
            f.write(" ".join(cmd) + "\n" + r.stdout + r.stderr)
        ok = r.returncode == 0 and os.path.exists(base + ".o")
        os.remove(base + ".mlir")
        return c, ok, time.time() - t0, (r.stderr or r.stdout)[-1500:]

    entries = []
    with ThreadPoolExecutor(jobs) as ex:
        for c, ok, dt, err in ex.map(one, cfgs):
            e = c.to_dict()
            e["built"] = ok
            e["object"] = c.name + ".o"
            if not ok:
                e["build_error"] = err
                print("  FAILED", c.name, err.strip().splitlines()[-1:] if err else "")
            entries.append(e)
    return entries


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="layers")
    ap.add_argument("--only", default="")
    ap.add_argument("--variants", default="", help="comma-separated variants to keep")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--build", action="store_true")
    ap.add_argument("--aot", default="build/bin/dwc-aot")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".carry", "conv_kernels"))
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--chip", default="", help="target of every kernel (default: sm_90, "
                    "sm_90a for wgmma variants); sm_90a: dwc-to-nvvm's own choice with wgmma")
    a = ap.parse_args(argv)
    cfgs = get_set(a.set)
    if a.only:
        keys = a.only.split(",")
        cfgs = [c for c in cfgs if any(k in c.name for k in keys)]
    if a.variants:
        cfgs = [c for c in cfgs if c.variant in a.variants.split(",")]
    assert len({c.name for c in cfgs}) == len(cfgs)
    if a.list or not a.build:
        for c in cfgs:
            print(f"{c.name:70s} {c.layer:5s} out {c.N}x{c.OH}x{c.OW}x{c.OC} {c.flops() / 1e9:8.1f} GFLOP")
        return 0
    t0 = time.time()
    entries = build(cfgs, os.path.abspath(a.aot), a.out, a.j, a.chip)
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                                cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    except OSError:
        commit = "unknown"
    with open(os.path.join(a.out, "manifest.json"), "w") as f:
        json.dump({"set": a.set, "commit": commit, "chip": a.chip or "sm_90 (sm_90a for wgmma variants)",
                   "configs": entries}, f, indent=1)
    n_ok = sum(e["built"] for e in entries)
    print(f"conv_configs: built {n_ok}/{len(entries)} in {time.time() - t0:.0f} s -> {a.out}")
    return 0 if n_ok == len(entries) else 1


if __name__ == "__main__":
    sys.exit(main())
