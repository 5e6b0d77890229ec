"""Depthwise-convolution backward benchmark configurations (issue 7 floor).

Pure Python (no torch). Sets:
  floor - 128x64x64x256 and 128x32x32x1024, F in {3, 7, 13, 31, 51}
          ('same' padding F//2, stride 1), f32 and f16, backward-data and
          backward-filter (40 configs)
  smoke - five small configs (odd sizes, asymmetric padding, stride 2 on the
          direct fallback)
  zsweep - backward filter with slice counts around the rule's choice
  f32dw - f16 backward filter into an f32 dW (no workspace), floor shapes
  all   - all of them
Names are MLIR function names; the C entry point is dwc_<name>:
  bwd_data    int dwc_<name>(const void *dy, const void *w, void *dx)
  bwd_filter  int dwc_<name>(const void *x, const void *dy, void *dw)
dW has the element type of X (f16 sums go through an f32 workspace).

    python3 bench/backward_configs.py --set floor --list
    python3 bench/backward_configs.py --set floor --build --aot BUILD/bin/dwc-aot
        (one .mlir per config -> dwc-aot -> .carry/backward_kernels/{name.o,.h,.log}
         + manifest.json)
"""

import argparse
import os
import sys
from dataclasses import asdict, dataclass, field
from typing import List

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from aot_build import build_objects  # noqa: E402

COPY_BPS = 4.24e12        # measured H200 copy bandwidth (anchors-h200.json)
FFMA_FLOPS = 60e12        # measured H200 FP32 FFMA peak (CUDA cores)
MMA_FLOPS = 620e12        # measured mma.sync m16n8k16 f16->f32 peak
L2_BYTES = 60 * 1024 * 1024
ESIZE = {"f32": 4, "f16": 2, "bf16": 2}
# ||ours - ref|| / ||ref|| against float64 (FP32 accumulation everywhere).
TOLERANCE = {"f32": 1e-5, "f16": 2e-3, "bf16": 2e-3}
# The tensor-core kernel takes f16/bf16 backward-data with FW >= this
# (lib/Pipelines/GPUPipeline.cpp).
MMA_MIN_FW = 9


def _options(text):
    return dict(kv.split("=", 1) for kv in (text or "").split())


def _attr(name, fields):
    body = ", ".join(f"{k} = {v}" for k, v in fields if v is not None)
    return f"#dwc.{name}<{body}>"


def bwd_filter_kernel_config(F, stride, opts="", z=0):
    """The dwc.kernel configuration of a backward-filter variant, written in
    the retired option vocabulary of convert-dwc-to-gpu-backward-filter
    (rows-per-step, stream-block-threads, stream-max-taps, max-tile-width,
    half-partial-steps, warp-reduce-taps, z / bwd-filter-z), or "" for the
    selection of dwc-select-kernels. Fields left out are chosen by it."""
    o = _options(opts)
    if z:
        o.setdefault("z", str(z))
    if not o:
        return ""
    taps = F[0] * F[1]
    stream_keys = {"rows-per-step", "stream-block-threads"}
    split_keys = {"max-tile-width", "half-partial-steps"}
    if "stream-max-taps" in o:
        stream = taps <= int(o["stream-max-taps"])
    elif stream_keys & o.keys():
        stream = True
    elif split_keys & o.keys():
        stream = False
    else:  # only z or warp-reduce-taps: the kernel the selection takes
        stream = taps <= 9 and stride == [1, 1]
    no_reduce = o.get("warp-reduce-taps") == "0"
    if stream:
        return _attr("bwd_filter_stream", [
            ("rows", o.get("rows-per-step")), ("threads", o.get("stream-block-threads")),
            ("workers", o.get("z")), ("reduce", '"atomics"' if no_reduce else None)])
    half = o.get("half-partial-steps")
    return _attr("bwd_filter_split_z", [
        ("z", o.get("z")), ("tile_width", o.get("max-tile-width")),
        ("warp_slices", "1" if no_reduce else None),
        ("half_steps", half if half and half != "0" else None)])


def gemv_kernel_config(dtype, gemv_opts=""):
    """The dwc.kernel configuration of a stride-1 forward / backward-data
    variant, written in the retired option vocabulary of
    convert-dwc-to-gpu-gemv (row-tile, row-tile-strip, row-tile-vector-bits,
    row-tile-filter-regs, tm, half-vector-bits, filter-smem,
    half-filter-smem, unroll-rows), or "" for the selection. row-tile-max-taps
    (49) and row-tile-filter-regs (register limits the configuration turns
    into filter = "registers" / "global") are the selection's defaults and
    dropped."""
    o = _options(gemv_opts)
    o.pop("row-tile-max-taps", None)
    o.pop("row-tile-filter-regs", None)
    if not o:
        return ""
    bits = 32 if dtype == "f32" else 16
    if o.get("row-tile", "0") != "1" and not {"tm", "filter-smem", "unroll-rows"} & o.keys() \
            and ("row-tile" in o or "row-tile-strip" in o or "row-tile-vector-bits" in o):
        vb = o.get("row-tile-vector-bits")
        return _attr("row_tile", [
            ("channels", str(int(vb) // bits) if vb else None),
            ("rows", o.get("row-tile")), ("columns", o.get("row-tile-strip"))])
    vb = o.get("half-vector-bits")
    smem = o.get("filter-smem" if dtype == "f32" else "half-filter-smem")
    return _attr("gemv", [
        ("channels", str(int(vb) // bits) if vb and dtype != "f32" else None),
        ("outputs", o.get("tm")),
        ("filter", '"global"' if smem == "false" else None),
        ("rows", '"loop"' if o.get("unroll-rows") == "0" and dtype != "f32" else None)])


def conv_out(i, f, s, d, p0, p1):
    return (i + p0 + p1 - d * (f - 1) - 1) // s + 1


@dataclass
class BwdConfig:
    N: int
    H: int
    W: int
    C: int
    F: List[int]                 # [FH, FW]
    op: str                      # "bwd_data" | "bwd_filter"
    dtype: str = "f32"
    stride: List[int] = field(default_factory=lambda: [1, 1])
    padding: List[int] = None    # [pt, pb, pl, pr]; default F//2 ('same')
    note: str = ""
    z: int = 0                   # bwd_filter: slices / workers (0: the selection's rule)
    dw_dtype: str = ""           # bwd_filter: dW element type ("": that of X)
    opts: str = ""               # bwd_filter variant, retired option words (kernel_config)
    tag: str = ""                # name suffix for `opts` / `gemv_opts`
    gemv_opts: str = ""          # bwd_data variant, retired option words (kernel_config)

    def __post_init__(self):
        if self.padding is None:
            self.padding = [self.F[0] // 2, self.F[0] // 2, self.F[1] // 2, self.F[1] // 2]

    @property
    def OH(self):
        return conv_out(self.H, self.F[0], self.stride[0], 1, self.padding[0], self.padding[1])

    @property
    def OW(self):
        return conv_out(self.W, self.F[1], self.stride[1], 1, self.padding[2], self.padding[3])

    @property
    def name(self):
        f = str(self.F[0]) if self.F[0] == self.F[1] else "x".join(map(str, self.F))
        p = "x".join(map(str, self.padding))
        s = "" if self.stride == [1, 1] else "_s" + "x".join(map(str, self.stride))
        z = f"_z{self.z}" if self.z else ""
        dw = f"_dw{self.dw_dtype}" if self.dw_dtype and self.dw_dtype != self.dtype else ""
        t = f"_{self.tag}" if self.tag else ""
        return f"dw_{self.op}_n{self.N}h{self.H}w{self.W}c{self.C}_f{f}{s}_p{p}_{self.dtype}{dw}{z}{t}"

    @property
    def out_dtype(self):
        return self.dw_dtype or self.dtype if self.op == "bwd_filter" else self.dtype

    def kernel_config(self):
        """The variant as a dwc.kernel configuration on the op ("": the
        selection of dwc-select-kernels)."""
        if self.op == "bwd_filter":
            return bwd_filter_kernel_config(self.F, self.stride, self.opts, self.z)
        return gemv_kernel_config(self.dtype, self.gemv_opts)

    def aot_flags(self):
        return []

    @property
    def symbol(self):
        return "dwc_" + self.name

    def flops(self):
        """Useful FLOPs: 2 per tap per output-gradient element (the direct
        convolution's count; padding taps excluded only at the borders is
        ignored, as in maxDNN's accounting of the dense problem)."""
        return 2 * self.N * self.OH * self.OW * self.C * self.F[0] * self.F[1]

    def bytes_moved(self):
        e = ESIZE[self.dtype]
        x = self.N * self.H * self.W * self.C
        y = self.N * self.OH * self.OW * self.C
        w = self.F[0] * self.F[1] * self.C
        return (x + y) * e + w * ESIZE[self.out_dtype]

    def kernel(self):
        """The kernel dwc-to-nvvm selects (documentation for the report)."""
        if self.stride != [1, 1]:
            return "direct"
        if self.op == "bwd_filter":
            config = self.kernel_config()
            if config:
                return "stream" if "stream" in config else "split-z"
            return "stream" if self.F[0] * self.F[1] <= 9 else "split-z"
        if self.dtype != "f32" and self.F[1] >= MMA_MIN_FW:
            return "mma"
        return "gemv"

    def floor_ms(self):
        peak = MMA_FLOPS if self.kernel() == "mma" else FFMA_FLOPS
        return 1e3 * max(self.bytes_moved() / COPY_BPS, self.flops() / peak)

    def to_dict(self):
        d = asdict(self)
        d.update(name=self.name, symbol=self.symbol, OH=self.OH, OW=self.OW,
                 flops=self.flops(), bytes=self.bytes_moved(), floor_ms=self.floor_ms(),
                 kernel=self.kernel())
        return d

    def mlir(self):
        e = self.dtype
        tx = f"tensor<{self.N}x{self.H}x{self.W}x{self.C}x{e}>"
        ty = f"tensor<{self.N}x{self.OH}x{self.OW}x{self.C}x{e}>"
        tw = f"tensor<{self.F[0]}x{self.F[1]}x{self.C}x{e}>"
        tdw = f"tensor<{self.F[0]}x{self.F[1]}x{self.C}x{self.out_dtype}>"
        lst = lambda v: "[" + ", ".join(map(str, v)) + "]"
        attrs = (f"strides = {lst(self.stride)} dilations = [1, 1] "
                 f"padding = {lst(self.padding)}")
        if self.kernel_config():
            attrs += f" {{dwc.kernel = {self.kernel_config()}}}"
        head = f"// Generated by bench/backward_configs.py: {self.name}\n"
        if self.op == "bwd_data":
            return (head + f"func.func @{self.name}(%dy: {ty}, %w: {tw}) -> {tx} {{\n"
                    f"  %init = tensor.empty() : {tx}\n"
                    f"  %dx = dwc.depthwise_conv2d_backward_data ins(%dy, %w : {ty}, {tw}) "
                    f"outs(%init : {tx}) {attrs} -> {tx}\n"
                    f"  return %dx : {tx}\n}}\n")
        return (head + f"func.func @{self.name}(%x: {tx}, %dy: {ty}) -> {tdw} {{\n"
                f"  %init = tensor.empty() : {tdw}\n"
                f"  %dw = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : {tx}, {ty}) "
                f"outs(%init : {tdw}) {attrs} -> {tdw}\n"
                f"  return %dw : {tdw}\n}}\n")


def config_from_dict(d):
    keys = ("N", "H", "W", "C", "F", "op", "dtype", "stride", "padding", "note", "z", "dw_dtype",
            "opts", "tag")
    return BwdConfig(**{k: d[k] for k in keys if k in d})


FLOOR_SHAPES = [(128, 64, 64, 256), (128, 32, 32, 1024)]
FLOOR_F = [3, 7, 13, 31, 51]


def floor_set():
    return [BwdConfig(n, h, w, c, [f, f], op, dt)
            for op in ("bwd_data", "bwd_filter")
            for dt in ("f32", "f16")
            for (n, h, w, c) in FLOOR_SHAPES
            for f in FLOOR_F]


def smoke_set():
    return [
        BwdConfig(3, 17, 19, 40, [5, 3], "bwd_data", "f32", padding=[2, 1, 0, 2], note="odd, asym"),
        BwdConfig(3, 17, 19, 40, [5, 3], "bwd_filter", "f32", padding=[2, 1, 0, 2], note="odd, asym"),
        BwdConfig(2, 15, 33, 72, [19, 19], "bwd_data", "f16", note="tensor cores, channel tail"),
        BwdConfig(2, 15, 33, 72, [7, 7], "bwd_filter", "f16", note="f16 workspace"),
        BwdConfig(3, 17, 19, 10, [5, 7], "bwd_data", "f16", padding=[2, 3, 1, 2],
                  note="2-channel row tiles, asym"),
        BwdConfig(2, 21, 19, 6, [7, 7], "bwd_data", "bf16", note="2-channel row tiles, bf16, C=6"),
        BwdConfig(2, 16, 16, 32, [3, 3], "bwd_data", "f32", stride=[2, 2], note="stride 2: direct"),
    ]


def tcdata_set():
    """f16/bf16 backward data on the tensor-core (row-ring) kernel, which
    takes FW >= 9 since the issue-5 work: the floor's F = 13 and F = 31 and
    odd shapes (channel tails, asymmetric padding, W < FW, bf16)."""
    return [
        BwdConfig(128, 64, 64, 256, [13, 13], "bwd_data", "f16"),
        BwdConfig(128, 32, 32, 1024, [13, 13], "bwd_data", "f16"),
        BwdConfig(2, 15, 33, 72, [9, 9], "bwd_data", "f16", note="channel tail"),
        BwdConfig(1, 20, 7, 40, [11, 11], "bwd_data", "bf16", padding=[5, 4, 6, 3], note="asym, W < FW, bf16"),
        BwdConfig(2, 13, 29, 24, [9, 15], "bwd_data", "f16", padding=[3, 5, 7, 7], note="asym rectangular"),
    ]


def tcrows_set():
    """tcdata plus backward-data shapes on which dwc-to-nvvm's band-auto
    takes two rows per warp (3+ slices or one-row tiles with 2+ slices,
    1024+ blocks): the rotated filter through the filter-row copies."""
    return tcdata_set() + [
        BwdConfig(128, 64, 64, 256, [31, 31], "bwd_data", "f16", note="two rows per warp"),
        BwdConfig(64, 40, 130, 64, [27, 27], "bwd_data", "bf16", padding=[3, 20, 9, 14],
                  note="two rows, asym, bf16, W tail"),
    ]


def zsweep_set():
    """Slice counts around the rule's choice (F=7: 586, F=51: 14 on
    128x64x64x256 f32)."""
    return [BwdConfig(128, 64, 64, 256, [f, f], "bwd_filter", "f32", z=z, note="z sweep")
            for f, zs in ((7, (146, 2048)), (51, (4, 56))) for z in zs]


def f16_f32dw_set():
    """f16 backward filter with an f32 dW (no workspace: atomics straight
    into dW), the floor shapes."""
    return [BwdConfig(n, h, w, c, [f, f], "bwd_filter", "f16", dw_dtype="f32", note="f32 dW")
            for (n, h, w, c) in FLOOR_SHAPES for f in FLOOR_F]


def bwdf_sweep_set():
    """Backward-filter variants (2026-11-30 bwdf work): the streaming
    kernel's rows per step for F=3, the split-z kernel before it
    (stream-max-taps=0), and the f16 partial-sum length for F=7/13
    (half-partial-steps=0: f32 FMAs, as before)."""
    out = []
    for (n, h, w, c) in FLOOR_SHAPES:
        for dt, rs in (("f32", (1, 4)), ("f16", (2,))):
            for r in rs:
                out.append(BwdConfig(n, h, w, c, [3, 3], "bwd_filter", dt, opts=f"rows-per-step={r}",
                                     tag=f"r{r}", note="stream rows per step"))
            out.append(BwdConfig(n, h, w, c, [3, 3], "bwd_filter", dt, opts="stream-max-taps=0",
                                 tag="splitz", note="split-z (before)"))
        if c == 256:
            out.append(BwdConfig(n, h, w, c, [3, 3], "bwd_filter", "f32", z=1056,
                                 note="stream, two waves of resident blocks"))
        for f in (7, 13):
            for k in (0, 16):
                out.append(BwdConfig(n, h, w, c, [f, f], "bwd_filter", "f16",
                                     opts=f"half-partial-steps={k}", tag=f"h{k}",
                                     note="f16 partial-sum steps"))
    return out


def bwdf_sweep2_set():
    """Second sweep: streaming rows per step x block threads for F=3, tap
    tile width for the f16 partial-sum split-z kernel (F=7, 13)."""
    out = []
    for (n, h, w, c) in FLOOR_SHAPES:
        for dt, variants in (("f32", ((4, 256), (4, 128), (2, 128), (3, 128), (3, 256))),
                             ("f16", ((2, 256), (2, 128)))):
            for r, t in variants:
                out.append(BwdConfig(n, h, w, c, [3, 3], "bwd_filter", dt,
                                     opts=f"rows-per-step={r} stream-block-threads={t}",
                                     tag=f"r{r}t{t}", note="stream rows x threads"))
        for f, mtw in ((7, 4), (13, 5)):
            for m in (0, mtw):
                out.append(BwdConfig(n, h, w, c, [f, f], "bwd_filter", "f16",
                                     opts=f"half-partial-steps=16 max-tile-width={m}",
                                     tag=f"h16m{m}", note="f16 partial sums, tile width"))
    return out


def bwdf_sweep3_set():
    """Third sweep: slice counts around the rule's choice for the f16
    partial-sum split-z kernel (F=7: Z=4096 both shapes; F=13: 1171 on
    128x64x64x256, 316 on 128x32x32x1024) and wider tap tiles for F=51 f32."""
    out = []
    for (n, h, w, c), zs in (((128, 64, 64, 256), {7: (2048,), 13: (585, 2340)}),
                             ((128, 32, 32, 1024), {7: (2048,), 13: (158, 632)})):
        for f, zz in zs.items():
            for z in zz:
                out.append(BwdConfig(n, h, w, c, [f, f], "bwd_filter", "f16", z=z,
                                     note="f16 partial sums, z sweep"))
    for m in (13, 17):
        out.append(BwdConfig(128, 64, 64, 256, [51, 51], "bwd_filter", "f32",
                             opts=f"max-tile-width={m}", tag=f"m{m}", note="F=51 tile width"))
    return out


def bwdf_sweep4_set():
    """Fourth sweep: wider f32 tap tiles (max-tile-width 13 / 17) for the
    large filters after sweep 3 (F=51: 37.5 -> 20.7 ms with 17)."""
    out = []
    for (n, h, w, c) in FLOOR_SHAPES:
        for f, ms in ((13, (17,)), (31, (13, 17)), (51, (13, 17))):
            if c == 256 and f == 51:
                continue  # measured in sweep 3
            for m in ms:
                out.append(BwdConfig(n, h, w, c, [f, f], "bwd_filter", "f32",
                                     opts=f"max-tile-width={m}", tag=f"m{m}",
                                     note="f32 tile width"))
    return out


def bwdf_sweep5_set():
    """Fifth sweep: f16 partial-sum run length 8 against the default 16 for
    the larger filters (dev run: F=13 on 128x32x32x1024 2.55 ms with k=8,
    3.18 ms with k=16)."""
    out = [BwdConfig(n, h, w, c, [f, f], "bwd_filter", "f16", opts="half-partial-steps=8",
                     tag="h8", note="f16 partial sums k=8")
           for (n, h, w, c) in FLOOR_SHAPES for f in (13, 31, 51)]
    out.append(BwdConfig(128, 32, 32, 1024, [13, 13], "bwd_filter", "f16", note="default k=16, repeat"))
    return out


ROWTILE_VARIANTS = [("rt1", "row-tile=1"), ("rt4", "row-tile=4"),
                    ("rt4s4", "row-tile=4 row-tile-strip=4"),
                    ("rt8", "row-tile=8"),
                    ("rt4v128", "row-tile=4 half-vector-bits=128")]


def rowtile_set():
    """Backward data on the GEMV pass's register row tiles against its GEMV
    kernel (rt1) at F = 3 and 5 (f16, and f32 with the tile forced), odd
    shapes on the default selection; the F = 3 f32 backward-filter tie of
    128x64x64x256 with streaming-kernel variants."""
    out = []
    for (n, h, w, c) in FLOOR_SHAPES:
        for f in (3, 5):
            for tag, o in ROWTILE_VARIANTS:
                out.append(BwdConfig(n, h, w, c, [f, f], "bwd_data", "f16", gemv_opts=o,
                                     tag=tag, note="row tile " + o))
        for tag, o in ROWTILE_VARIANTS[:3]:
            out.append(BwdConfig(n, h, w, c, [3, 3], "bwd_data", "f32", gemv_opts=o,
                                 tag=tag, note="row tile " + o))
    # The issue-5 forward grid's third shape (same kernel as the forward).
    for tag, o in ROWTILE_VARIANTS[:4]:
        out.append(BwdConfig(128, 128, 128, 128, [3, 3], "bwd_data", "f16", gemv_opts=o,
                             tag=tag, note="row tile " + o))
    out += [
        BwdConfig(3, 17, 19, 40, [5, 3], "bwd_data", "f16", padding=[2, 1, 0, 2], note="odd, asym, row tile"),
        BwdConfig(2, 13, 7, 24, [3, 3], "bwd_data", "bf16", note="odd, bf16, row tile"),
        BwdConfig(1, 9, 2, 8, [3, 3], "bwd_data", "f16", padding=[0, 2, 1, 1], note="W < FW, row tile"),
        BwdConfig(3, 17, 19, 40, [5, 3], "bwd_data", "f32", padding=[2, 1, 0, 2],
                  gemv_opts="row-tile=4", tag="rt4", note="odd, asym, f32 row tile forced"),
    ]
    for tag, o in [("", ""), ("r1", "rows-per-step=1"), ("r4", "rows-per-step=4"),
                   ("b128", "stream-block-threads=128"), ("b512", "stream-block-threads=512")]:
        out.append(BwdConfig(128, 64, 64, 256, [3, 3], "bwd_filter", "f32", opts=o, tag=tag,
                             note="stream " + (o or "default")))
    return out


def rowtile2_set():
    """Second row-tile sweep: wider strips and other tile heights at F = 3
    (f16 on the three grid shapes), filters in registers at F = 5."""
    out = []
    f3 = [("rt4s4", "row-tile=4 row-tile-strip=4"), ("rt4s6", "row-tile=4 row-tile-strip=6"),
          ("rt4s8", "row-tile=4 row-tile-strip=8"), ("rt8s4", "row-tile=8 row-tile-strip=4"),
          ("rt2s8", "row-tile=2 row-tile-strip=8"), ("rt3s4", "row-tile=3 row-tile-strip=4"),
          ("rt6s4", "row-tile=6 row-tile-strip=4"), ("rt2s4", "row-tile=2 row-tile-strip=4")]
    f5 = [("rt1", "row-tile=1"), ("rt4s4fr", "row-tile=4 row-tile-strip=4 row-tile-filter-regs=128"),
          ("rt2s4fr", "row-tile=2 row-tile-strip=4 row-tile-filter-regs=128"),
          ("rt4s2fr", "row-tile=4 row-tile-strip=2 row-tile-filter-regs=128"),
          ("rt4s8", "row-tile=4 row-tile-strip=8")]
    for (n, h, w, c) in FLOOR_SHAPES + [(128, 128, 128, 128)]:
        for tag, o in f3:
            out.append(BwdConfig(n, h, w, c, [3, 3], "bwd_data", "f16", gemv_opts=o,
                                 tag=tag, note="row tile " + o))
        for tag, o in f5:
            out.append(BwdConfig(n, h, w, c, [5, 5], "bwd_data", "f16", gemv_opts=o,
                                 tag=tag, note="row tile " + o))
    return out


def rowtile3_set():
    """Third row-tile sweep: 5x5 and 7x7 f16 with filter vectors read at
    each use, tile heights 2 and 4, strips 4 and 8, against the GEMV kernel
    (rt1)."""
    out = []
    variants = [("rt1", "row-tile=1"), ("rt4s8", "row-tile=4 row-tile-strip=8"),
                ("rt2s8", "row-tile=2 row-tile-strip=8"), ("rt2s4", "row-tile=2 row-tile-strip=4"),
                ("rt4s4", "row-tile=4 row-tile-strip=4")]
    for (n, h, w, c) in FLOOR_SHAPES + [(128, 128, 128, 128)]:
        for f in (5, 7):
            for tag, o in variants:
                out.append(BwdConfig(n, h, w, c, [f, f], "bwd_data", "f16",
                                     gemv_opts=o + " row-tile-max-taps=49", tag=tag,
                                     note="row tile " + o))
    return out


def rowtile_check_set():
    """After the row-tile defaults: the floor configurations at F = 3 and 7
    (f16 backward data on the row tiles, the rest unchanged) and odd
    shapes on the default selection."""
    return ([c for c in floor_set() if c.F[0] in (3, 7)]
            + [c for c in rowtile_set() if c.N < 128 and not c.gemv_opts])


def bwdf_set():
    """The backward-filter floor configurations and the smoke/odd ones."""
    return ([c for c in floor_set() if c.op == "bwd_filter"]
            + [c for c in smoke_set() if c.op == "bwd_filter"] + bwdf_odd_set())


def bwdf_odd_set():
    """Odd shapes for the streaming kernel and the f16 partial sums: row
    blocks past OH, C not a multiple of the block's channels, asymmetric
    padding, W < FW, a channel tail in the last group."""
    return [
        BwdConfig(3, 17, 19, 40, [3, 3], "bwd_filter", "f32", padding=[1, 0, 2, 0], note="stream, odd, asym"),
        BwdConfig(2, 13, 5, 264, [3, 3], "bwd_filter", "f16", note="stream, channel tail, OH % R"),
        BwdConfig(2, 9, 2, 8, [2, 3], "bwd_filter", "f32", padding=[0, 1, 1, 1], note="stream, W < FW"),
        BwdConfig(5, 11, 30, 520, [3, 3], "bwd_filter", "f32", opts="rows-per-step=4", tag="r4",
                  note="stream R=4, 3 groups with tail"),
        BwdConfig(2, 15, 37, 72, [7, 7], "bwd_filter", "f16", note="f16 partial sums, odd"),
        BwdConfig(2, 15, 37, 72, [13, 5], "bwd_filter", "f16", padding=[6, 6, 0, 4], note="f16 partial sums, asym"),
    ]


def check_set():
    """Correctness and sanitizer runs: the smoke and odd backward-filter
    configurations."""
    return smoke_set() + bwdf_odd_set()


SETS = {"floor": floor_set, "smoke": smoke_set, "check": check_set, "zsweep": zsweep_set, "tcdata": tcdata_set,
        "tcrows": tcrows_set,
        "f32dw": f16_f32dw_set, "bwdf": bwdf_set, "bwdfsweep": bwdf_sweep_set,
        "bwdfodd": bwdf_odd_set, "bwdfsweep2": bwdf_sweep2_set,
        "bwdfsweep3": bwdf_sweep3_set, "bwdfsweep4": bwdf_sweep4_set,
        "bwdfsweep5": bwdf_sweep5_set, "rowtile": rowtile_set,
        "rowtile2": rowtile2_set, "rowtile3": rowtile3_set,
        "rowtilecheck": rowtile_check_set,
        "bwdfdev": lambda: ([c for c in floor_set() if c.op == "bwd_filter" and c.F[0] <= 13]
                            + bwdf_sweep_set() + bwdf_odd_set())}


def get_set(name):
    if name == "all":
        return floor_set() + smoke_set() + zsweep_set() + f16_f32dw_set()
    if name not in SETS:
        raise SystemExit(f"unknown set '{name}' (choose from {', '.join(SETS)}, all)")
    return SETS[name]()


def select(cfgs, only):
    keys = [k for k in (only or "").split(",") if k]
    return [c for c in cfgs if not keys or any(k in c.name for k in keys)]


def build(cfgs, set_name, aot, outdir, jobs):
    """dwc-aot per config into outdir (wiped); writes manifest.json."""
    built = build_objects(cfgs, set_name, "backward", aot, outdir, jobs, "backward_kernels")
    print(f"backward_configs: {built}/{len(cfgs)} kernels built in {outdir}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="smoke")
    ap.add_argument("--only", default="")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--emit-mlir", metavar="DIR")
    ap.add_argument("--build", action="store_true", help="compile with dwc-aot and write the manifest")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--aot", default=os.path.join(root, "build", "bin", "dwc-aot"))
    ap.add_argument("--out", default=os.path.join(root, ".carry", "backward_kernels"))
    ap.add_argument("-j", type=int, default=2)
    a = ap.parse_args(argv)
    cfgs = select(get_set(a.set), a.only)
    assert len({c.name for c in cfgs}) == len(cfgs), "config names must be unique"
    if a.emit_mlir:
        os.makedirs(a.emit_mlir, exist_ok=True)
        for c in cfgs:
            with open(os.path.join(a.emit_mlir, c.name + ".mlir"), "w") as f:
                f.write(c.mlir())
    if a.build:
        build(cfgs, a.set, os.path.abspath(a.aot), os.path.abspath(a.out), a.j)
    if a.list or not (a.emit_mlir or a.build):
        for c in cfgs:
            print(f"{c.name:58s} {c.kernel():7s} {c.flops() / 1e9:8.1f} GFLOP "
                  f"{c.bytes_moved() / 1e6:8.1f} MB floor {c.floor_ms():8.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
