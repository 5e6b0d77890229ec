"""Strided depthwise layers of real networks (issue 20): forward,
backward-data and backward-filter kernels of every layer, for the training
step benchmark (bench/stride_harness.py). Pure Python (no torch).

Sets:
  layers - the stride-2 depthwise layers of timm mobilenetv2_100 and
           efficientnet_b0 at 224x224 (3x3 and 5x5, 'same' padding F//2),
           plus the 240-channel 28x28 5x5 layer of the issue, at batch 64
           (training) and 1 (inference), f32 / f16 / bf16 (48 layers)
  odd    - correctness-only shapes: C not a multiple of 8 (f32 C = 13, f16
           C = 10, bf16 C = 6), odd H/W, N = 1, W < FW, stride 3, unequal
           strides, asymmetric padding (10 layers)
  smoke  - two small layers
  all    - layers + odd

Each layer gives three entry points (the name is the MLIR function name, the
C entry point dwc_<name>):
  fwd         int dwc_<name>(const void *x, const void *w, void *y)
  bwd_data    int dwc_<name>(const void *dy, const void *w, void *dx)
  bwd_filter  int dwc_<name>(const void *x, const void *dy, void *dw)
With --tag T, names end in _T (the kernels of another dwc-aot, e.g. the
baseline before the strided fast paths, can be loaded next to these).

    python3 bench/stride_configs.py --set all --list
    python3 bench/stride_configs.py --set all --build --aot build/bin/dwc-aot \\
        --out .carry/stride_after
    python3 bench/stride_configs.py --set layers --build --aot OLD/dwc-aot \\
        --tag before --out .carry/stride_before
    python3 bench/stride_configs.py --set layers --only n64 --build --tag r2 \\
        --kernel 'bwd_filter=#dwc.bwd_filter_stream<rows = 2>' --out .carry/stride_r2
(kernel variants are dwc.kernel configurations written on the op in the
generated MLIR, --kernel OP=CONFIG, or per layer --layer-kernels FILE.json:
docs/KernelSelection.md)
"""

import argparse
import os
import sys
from dataclasses import asdict, dataclass, field
from typing import List

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from aot_build import build_objects  # noqa: E402

COPY_BPS = 4.24e12   # measured H200 copy bandwidth (anchors-h200.json)
FFMA_FLOPS = 60e12   # measured H200 FP32 FFMA peak (CUDA cores)
MMA16_FLOPS = 460e12 * 0.5625  # 16-bit mma.sync m16n8k8 at 56.25 % density
L2_BYTES = 60 * 1024 * 1024
ESIZE = {"f32": 4, "f16": 2, "bf16": 2}
TOLERANCE = {"f32": 1e-5, "f16": 2e-3, "bf16": 2e-3}
OPS = ("fwd", "bwd_data", "bwd_filter")


def copy_bound(r, torch_ms, copy_ms, ops):
    """Whether no kernel can meet the per-layer floor of `ops` ops (1:
    forward, 3: training step) of row `r`: the best copy of their bytes
    (stride_harness copy_time) is under 85 % of the floor and PyTorch's best
    under 1.5x that copy. A copy reads what it writes, like the stride-1
    layers; a strided forward reads stride^2 times what it writes, which
    HBM serves faster (PyTorch's 64x14x14x576 3x3 stride-2 f32 forward,
    13.4 us on an H100, beat the copy of its bytes, 14.0 us): strided rows
    count only with a read-heavy copy (row copy_kind, the forward's
    pattern; rows timed before it have none) and only for the forward."""
    if not torch_ms or not copy_ms:
        return False
    if list(r.get("stride", [1, 1])) != [1, 1] and (r.get("copy_kind") != "read-heavy"
                                                    or ops != 1):
        return False
    return 100 * ops * r["floor_ms"] / copy_ms < 85 and torch_ms / copy_ms < 1.5


def conv_out(i, f, s, p0, p1):
    return (i + p0 + p1 - f) // s + 1


@dataclass
class Layer:
    N: int
    H: int
    W: int
    C: int
    F: List[int]
    dtype: str = "f32"
    stride: List[int] = field(default_factory=lambda: [2, 2])
    padding: List[int] = None  # [pt, pb, pl, pr]; default F//2
    net: str = ""
    odd: bool = False
    ops: List[str] = field(default_factory=lambda: list(OPS))  # fwd only: inference layers

    def __post_init__(self):
        if self.padding is None:
            self.padding = [self.F[0] // 2] * 2 + [self.F[1] // 2] * 2

    @property
    def OH(self):
        return conv_out(self.H, self.F[0], self.stride[0], *self.padding[:2])

    @property
    def OW(self):
        return conv_out(self.W, self.F[1], self.stride[1], *self.padding[2:])

    @property
    def key(self):
        f = str(self.F[0]) if self.F[0] == self.F[1] else "x".join(map(str, self.F))
        s = "x".join(map(str, self.stride))
        p = "x".join(map(str, self.padding))
        return f"n{self.N}h{self.H}w{self.W}c{self.C}_f{f}_s{s}_p{p}_{self.dtype}"

    def name(self, op, tag=""):
        return f"sl_{op}_{self.key}" + (f"_{tag}" if tag else "")

    def elems(self):
        x = self.N * self.H * self.W * self.C
        y = self.N * self.OH * self.OW * self.C
        return x, y, self.F[0] * self.F[1] * self.C

    def flops(self):
        return 2 * self.N * self.OH * self.OW * self.C * self.F[0] * self.F[1]

    def bytes_moved(self):
        """Each op reads two of X / dY(Y) / W and writes the third: X + Y + W
        once (the same for all three ops)."""
        return sum(self.elems()) * ESIZE[self.dtype]

    def floor_ms(self):
        """Per op: max(bytes / copy bandwidth, FLOPs / unit peak), the unit
        peak of ../shared/bench/anchors-h200.md (FP32 FFMA; 16-bit mma.sync at
        56.25 % density)."""
        peak = FFMA_FLOPS if self.dtype == "f32" else MMA16_FLOPS
        return 1e3 * max(self.bytes_moved() / COPY_BPS, self.flops() / peak)

    def to_dict(self):
        d = asdict(self)
        d.update(key=self.key, OH=self.OH, OW=self.OW, flops=self.flops(),
                 bytes=self.bytes_moved(), floor_ms=self.floor_ms())
        return d

    def mlir(self, op, tag="", kernel=""):
        e = self.dtype
        tx = f"tensor<{self.N}x{self.H}x{self.W}x{self.C}x{e}>"
        ty = f"tensor<{self.N}x{self.OH}x{self.OW}x{self.C}x{e}>"
        tw = f"tensor<{self.F[0]}x{self.F[1]}x{self.C}x{e}>"
        lst = lambda v: "[" + ", ".join(map(str, v)) + "]"
        attrs = (f"strides = {lst(self.stride)} dilations = [1, 1] "
                 f"padding = {lst(self.padding)}")
        if kernel:
            attrs += f" {{dwc.kernel = {kernel}}}"
        n = self.name(op, tag)
        head = f"// Generated by bench/stride_configs.py: {n}\n"
        if op == "fwd":
            a, b, out, opname = ("x", tx), ("w", tw), ty, "depthwise_conv2d"
        elif op == "bwd_data":
            a, b, out, opname = ("dy", ty), ("w", tw), tx, "depthwise_conv2d_backward_data"
        else:
            a, b, out, opname = ("x", tx), ("dy", ty), tw, "depthwise_conv2d_backward_filter"
        return (head + f"func.func @{n}(%{a[0]}: {a[1]}, %{b[0]}: {b[1]}) -> {out} {{\n"
                f"  %init = tensor.empty() : {out}\n"
                f"  %r = dwc.{opname} ins(%{a[0]}, %{b[0]} : {a[1]}, {b[1]}) "
                f"outs(%init : {out}) {attrs} -> {out}\n"
                f"  return %r : {out}\n}}\n")


def layer_from_dict(d):
    keys = ("N", "H", "W", "C", "F", "dtype", "stride", "padding", "net", "odd", "ops")
    return Layer(**{k: d[k] for k in keys if k in d})


# (C, H, F, networks): the stride-2 depthwise layers at 224x224 input.
REAL = [
    (96, 112, 3, "mobilenetv2_100, efficientnet_b0"),
    (144, 56, 3, "mobilenetv2_100"),
    (192, 28, 3, "mobilenetv2_100"),
    (576, 14, 3, "mobilenetv2_100"),
    (144, 56, 5, "efficientnet_b0"),
    (240, 28, 3, "efficientnet_b0"),
    (240, 28, 5, "issue 20"),
    (672, 14, 5, "efficientnet_b0"),
]


# (C, H, [FH, FW], training batch, networks): the stride-1 depthwise layers at
# 224x224 input (RepLKNet-31B / SLaK-T as bench/large_kernel_nets.py builds them).
MN, EN = "mobilenetv2_100", "efficientnet_b0"
REAL_S1 = [
    (96, 56, [7, 7], 64, "convnext_tiny"), (192, 28, [7, 7], 64, "convnext_tiny"),
    (384, 14, [7, 7], 64, "convnext_tiny"), (768, 7, [7, 7], 64, "convnext_tiny"),
    (128, 56, [7, 7], 64, "convnext_base"), (256, 28, [7, 7], 64, "convnext_base"),
    (512, 14, [7, 7], 64, "convnext_base"), (1024, 7, [7, 7], 64, "convnext_base"),
    (32, 112, [3, 3], 64, f"{MN}, {EN}"), (144, 56, [3, 3], 64, f"{MN}, {EN}"),
    (192, 28, [3, 3], 64, MN), (384, 14, [3, 3], 64, MN), (576, 14, [3, 3], 64, MN),
    (960, 7, [3, 3], 64, MN),
    (240, 28, [5, 5], 64, EN), (480, 14, [3, 3], 64, EN), (480, 14, [5, 5], 64, EN),
    (672, 14, [5, 5], 64, EN), (1152, 7, [5, 5], 64, EN), (1152, 7, [3, 3], 64, EN),
    (128, 56, [31, 31], 32, "replknet31b"), (256, 28, [29, 29], 32, "replknet31b"),
    (512, 14, [27, 27], 32, "replknet31b"), (1024, 7, [13, 13], 32, "replknet31b"),
    (128, 56, [5, 5], 32, "replknet31b"), (256, 28, [5, 5], 32, "replknet31b"),
    (512, 14, [5, 5], 32, "replknet31b"), (1024, 7, [5, 5], 32, "replknet31b"),
    (96, 56, [51, 5], 32, "slak_t"), (96, 56, [5, 51], 32, "slak_t"),
    (192, 28, [49, 5], 32, "slak_t"), (192, 28, [5, 49], 32, "slak_t"),
    (384, 14, [47, 5], 32, "slak_t"), (384, 14, [5, 47], 32, "slak_t"),
    (768, 7, [13, 5], 32, "slak_t"), (768, 7, [5, 13], 32, "slak_t"),
    (96, 56, [5, 5], 32, "slak_t"), (192, 28, [5, 5], 32, "slak_t"),
    (384, 14, [5, 5], 32, "slak_t"), (768, 7, [5, 5], 32, "slak_t"),
]
DTYPES = ("f32", "f16", "bf16")


def layers_set():
    return [Layer(n, h, h, c, [f, f], dt, net=net, ops=list(OPS) if n > 1 else ["fwd"])
            for n in (64, 1) for dt in DTYPES for (c, h, f, net) in REAL]


def s1_set():
    """Training batch: the three ops; batch 1: the forward (inference)."""
    return [Layer(n, h, h, c, f, dt, [1, 1], net=net, ops=list(OPS) if n > 1 else ["fwd"])
            for batch1 in (False, True) for dt in DTYPES for (c, h, f, nb, net) in REAL_S1
            for n in ((1,) if batch1 else (nb,))]


def odd_set():
    L = lambda *a, **k: Layer(*a, odd=True, **k)
    return [
        L(3, 17, 19, 13, [3, 3], "f32"),
        L(1, 15, 13, 13, [5, 5], "f32"),
        L(2, 9, 3, 12, [5, 5], "f32"),                               # W < FW
        L(1, 21, 23, 10, [3, 3], "f16"),
        L(2, 11, 9, 6, [5, 5], "bf16"),
        L(1, 13, 11, 24, [7, 7], "f16"),
        L(2, 14, 16, 16, [3, 3], "f32", [3, 3], [1, 1, 1, 1]),       # stride 3
        L(1, 12, 15, 20, [3, 5], "f16", [2, 1], [1, 1, 2, 2]),       # unequal
        L(2, 10, 11, 8, [3, 3], "f32", [2, 2], [0, 1, 1, 0]),        # asymmetric
        L(1, 7, 7, 40, [3, 3], "bf16", [2, 2], [1, 1, 1, 1]),
        # Big grids of short outputs: the f32 window-first strided tile
        # (odd C: 32 bits; odd width).
        L(37, 27, 27, 203, [3, 3], "f32", [2, 2], [1, 1, 1, 1]),
        L(41, 25, 23, 202, [3, 3], "f32", [2, 2], [1, 1, 1, 1]),
        # 16-bit filters taller than wide (odd N / H / W, a filter taller
        # than the map, asymmetric padding, a height past one 128-output
        # tile): the defaults, and with --kernel the mma_stream kernel
        # streamed along the columns (bench/results/2026-12-07-s28-columns.sh).
        L(3, 37, 23, 24, [21, 5], "f16", [1, 1], [10, 10, 2, 2]),
        L(1, 9, 31, 16, [15, 3], "bf16", [1, 1], [7, 7, 1, 1]),
        L(2, 150, 6, 8, [13, 3], "f16", [1, 1], [5, 7, 2, 0]),
    ] + odd_default_kernels()


def odd_default_kernels():
    """Odd shapes that reach the stride-1 defaults chosen from the layer-set
    sweeps: 2x2x32-bit row tiles of tiny grids, fitted 7x7 16-bit tiles,
    #dwc.plane (f32 7x7, <= 14 rows), #dwc.bwd_filter_image with odd maps and
    partial bands (27 rows in bands of 11)."""
    L = lambda *a: Layer(*a, [1, 1], odd=True)
    return [
        L(2, 13, 11, 24, [7, 7], "f16"),
        L(4, 7, 7, 36, [7, 7], "bf16"),
        L(64, 13, 11, 120, [7, 7], "f32"),
        L(16, 27, 27, 40, [7, 7], "f16"),
        L(6, 9, 9, 24, [3, 3], "bf16"),
        L(32, 14, 14, 198, [7, 7], "bf16"),
        L(1, 13, 13, 72, [7, 7], "f16"),
        L(24, 7, 7, 390, [7, 7], "f16"),
    ]


def smoke_set():
    return [Layer(2, 17, 15, 12, [3, 3], "f32"), Layer(1, 13, 13, 16, [5, 5], "f16")]


def get_set(name):
    if name == "layers":
        return layers_set()
    if name == "odd":
        return odd_set()
    if name == "smoke":
        return smoke_set()
    if name == "s1":
        return s1_set()
    if name == "net":
        return s1_set() + layers_set()
    if name == "all":
        return layers_set() + odd_set()
    raise SystemExit(f"unknown set {name}")


def select(layers, only):
    keep = [s for s in only.split(",") if s]
    return [l for l in layers if not keep or any(k in l.key for k in keep)]


class OpConfig:
    """One kernel of a layer, as aot_build.build_objects expects."""

    def __init__(self, layer, op, tag, flags=(), kernel=""):
        self.layer, self.op, self.tag, self.flags = layer, op, tag, list(flags)
        self.kernel = kernel
        self.name = layer.name(op, tag)

    def aot_flags(self):
        return self.flags

    def mlir(self):
        return self.layer.mlir(self.op, self.tag, self.kernel)

    def to_dict(self):
        d = self.layer.to_dict()
        d.update(op=self.op, tag=self.tag, name=self.name, aot_flags=self.flags,
                 kernel=self.kernel)
        return d


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--set", default="layers")
    ap.add_argument("--only", default="")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--build", action="store_true")
    ap.add_argument("--aot", default="build/bin/dwc-aot")
    ap.add_argument("--tag", default="")
    ap.add_argument("--aot-flag", action="append", default=[],
                    help="extra dwc-aot flag for every kernel")
    ap.add_argument("--kernel", action="append", default=[], metavar="OP=CONFIG",
                    help="dwc.kernel configuration of every OP (fwd, bwd_data, "
                         "bwd_filter) kernel (variants), e.g. "
                         "'bwd_filter=#dwc.bwd_filter_stream<rows = 2>'")
    ap.add_argument("--layer-kernels", default="", metavar="JSON",
                    help="file of {layer key: {op: CONFIG}}: per-layer dwc.kernel "
                         "configurations (complete ones), ahead of --kernel")
    ap.add_argument("--ops", default=",".join(OPS), help="ops to build (variants)")
    ap.add_argument("--out", default=".carry/stride_after")
    ap.add_argument("-j", type=int, default=2)
    a = ap.parse_args()
    layers = select(get_set(a.set), a.only)
    ops = [o for o in a.ops.split(",") if o]
    kernels = dict(k.split("=", 1) for k in a.kernel)
    per_layer = {}
    if a.layer_kernels:
        import json
        with open(a.layer_kernels) as f:
            per_layer = json.load(f)
        layers = [l for l in layers if l.key in per_layer]
    cfgs = [OpConfig(l, op, a.tag, a.aot_flag,
                     per_layer.get(l.key, {}).get(op, kernels.get(op, "")))
            for l in layers for op in ops if op in l.ops]
    if a.list:
        for c in cfgs:
            print(c.name, f"floor {c.layer.floor_ms():.4f} ms")
    if a.build:
        suffix = "stride_" + (a.tag or "after")
        n = build_objects(cfgs, a.set, "stride", a.aot, a.out, a.j, suffix)
        print(f"{n}/{len(cfgs)} kernels built into {a.out}")
        return 0 if n == len(cfgs) else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
