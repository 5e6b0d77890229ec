"""The benchmark's sets of layers, as dwc_torch specs (python/dwc_torch/
spec.py writes their MLIR, the same text the PyTorch package compiles).

An Item is one layer and the ops of it that run: a depthwise layer of a
network at its training batch runs forward, backward-data and
backward-filter; at batch 1, the forward only. `odd` items are checked for
correctness and not timed. `kernels` pins a dwc.kernel configuration on an
op (a variant; otherwise dwc-select-kernels chooses).

Topics and their sets (python3 -m dwcbench list TOPIC):
  layers   net (every depthwise layer of ConvNeXt-T/B, MobileNetV2,
           EfficientNet-B0, RepLKNet-31B, SLaK-T), stride2, stride1, grid
           (the Flash-DWC forward grid), floor (the backward grid), bias
           (bias gradients of ConvNeXt), odd, smoke, fuzz
  pool     grid (max / avg pooling, forward and backward), gap (global
           average pooling of classifier heads and squeeze-excite), odd, smoke
  conv     layers (dense conv2d of AlexNet/ResNet/VGG-like layers), odd, smoke
"""

import random
from dataclasses import dataclass, field
from typing import Dict, Tuple

from dwc_torch.spec import ConvSpec, GapSpec, LayerSpec, PoolSpec

DTYPES = ("f32", "f16", "bf16")
TRAIN = ("fwd", "bwd_data", "bwd_filter")


@dataclass
class Item:
    spec: object
    ops: Tuple[str, ...]
    net: str = ""
    odd: bool = False
    kernels: Dict[str, str] = field(default_factory=dict)
    tag: str = ""          # name suffix of a variant's entry points
    note: str = ""

    @property
    def key(self):
        return self.spec.key + (("_" + self.tag) if self.tag else "")

    def func_name(self, op):
        return self.spec.func_name(op) + (("_" + self.tag) if self.tag else "")


def dw(N, C, H, W, k, dtype="f32", stride=1, padding=None, dilation=1, bias=False,
       ops=TRAIN, **kw):
    """A depthwise layer; padding None: (F - 1) * d // 2 on every side."""
    kk = [k, k] if isinstance(k, int) else list(k)
    dd = [dilation, dilation] if isinstance(dilation, int) else list(dilation)
    if padding is None:
        ph, pw = dd[0] * (kk[0] - 1) // 2, dd[1] * (kk[1] - 1) // 2
        padding = [ph, ph, pw, pw]
    spec = LayerSpec.make(N, C, H, W, kk, stride, padding, dd, dtype, bias)
    return Item(spec, tuple(ops), **kw)


# --- layers: the depthwise layers of real networks at 224 x 224 ------------
MN, EN = "mobilenetv2_100", "efficientnet_b0"
STRIDE2 = [  # (C, H, F, networks)
    (96, 112, 3, f"{MN}, {EN}"), (144, 56, 3, MN), (192, 28, 3, MN), (576, 14, 3, MN),
    (144, 56, 5, EN), (240, 28, 3, EN), (240, 28, 5, "efficientnet_b0 (5x5 variant)"),
    (672, 14, 5, EN),
]
STRIDE1 = [  # (C, H, (FH, FW), training batch, networks)
    (96, 56, (7, 7), 64, "convnext_tiny"), (192, 28, (7, 7), 64, "convnext_tiny"),
    (384, 14, (7, 7), 64, "convnext_tiny"), (768, 7, (7, 7), 64, "convnext_tiny"),
    (128, 56, (7, 7), 64, "convnext_base"), (256, 28, (7, 7), 64, "convnext_base"),
    (512, 14, (7, 7), 64, "convnext_base"), (1024, 7, (7, 7), 64, "convnext_base"),
    (32, 112, (3, 3), 64, f"{MN}, {EN}"), (144, 56, (3, 3), 64, f"{MN}, {EN}"),
    (192, 28, (3, 3), 64, MN), (384, 14, (3, 3), 64, MN), (576, 14, (3, 3), 64, MN),
    (960, 7, (3, 3), 64, MN),
    (240, 28, (5, 5), 64, EN), (480, 14, (3, 3), 64, EN), (480, 14, (5, 5), 64, EN),
    (672, 14, (5, 5), 64, EN), (1152, 7, (5, 5), 64, EN), (1152, 7, (3, 3), 64, EN),
    (128, 56, (31, 31), 32, "replknet31b"), (256, 28, (29, 29), 32, "replknet31b"),
    (512, 14, (27, 27), 32, "replknet31b"), (1024, 7, (13, 13), 32, "replknet31b"),
    (128, 56, (5, 5), 32, "replknet31b"), (256, 28, (5, 5), 32, "replknet31b"),
    (512, 14, (5, 5), 32, "replknet31b"), (1024, 7, (5, 5), 32, "replknet31b"),
    (96, 56, (51, 5), 32, "slak_t"), (96, 56, (5, 51), 32, "slak_t"),
    (192, 28, (49, 5), 32, "slak_t"), (192, 28, (5, 49), 32, "slak_t"),
    (384, 14, (47, 5), 32, "slak_t"), (384, 14, (5, 47), 32, "slak_t"),
    (768, 7, (13, 5), 32, "slak_t"), (768, 7, (5, 13), 32, "slak_t"),
    (96, 56, (5, 5), 32, "slak_t"), (192, 28, (5, 5), 32, "slak_t"),
    (384, 14, (5, 5), 32, "slak_t"), (768, 7, (5, 5), 32, "slak_t"),
]


def _train_or_infer(n):
    return TRAIN if n > 1 else ("fwd",)


def stride2_set():
    return [dw(n, c, h, h, f, dt, 2, net=net, ops=_train_or_infer(n))
            for n in (64, 1) for dt in DTYPES for (c, h, f, net) in STRIDE2]


def stride1_set():
    return [dw(n, c, h, h, f, dt, net=net, ops=_train_or_infer(n))
            for batch1 in (False, True) for dt in DTYPES for (c, h, f, nb, net) in STRIDE1
            for n in ((1,) if batch1 else (nb,))]


GRID_SHAPES = [(128, 128, 128, 128), (128, 64, 64, 256), (128, 32, 32, 1024)]
GRID_FILTERS = [3, 5, 7, 9, 13, 17, 31, 51]


def grid_set():
    """The Flash-DWC forward grid: 3 shapes x 8 filters x {f32, f16}."""
    return [dw(n, c, h, w, f, dt, ops=("fwd",))
            for (n, h, w, c) in GRID_SHAPES for dt in ("f32", "f16") for f in GRID_FILTERS]


def floor_set():
    """The backward grid: backward-data and backward-filter at two shapes."""
    return [dw(n, c, h, w, f, dt, ops=("bwd_data", "bwd_filter"))
            for dt in ("f32", "f16") for (n, h, w, c) in GRID_SHAPES[1:]
            for f in (3, 7, 13, 31, 51)]


CONVNEXT = {"convnext_tiny": [(96, 56), (192, 28), (384, 14), (768, 7)],
            "convnext_base": [(128, 56), (256, 28), (512, 14), (1024, 7)]}


def bias_set():
    """The bias gradient (dwc.conv2d_backward_bias) of ConvNeXt's layers."""
    return [dw(n, c, h, h, 7, dt, bias=True, net=net, ops=("bwd_bias",))
            for dt in DTYPES for net, layers in CONVNEXT.items() for n in (64, 1)
            for c, h in layers]


def layers_odd_set():
    """Correctness corner cases of every depthwise op: C not a multiple of
    the vector width, odd maps, W < FW, N = 1, strides 2-3 and unequal,
    dilation, asymmetric padding, filters taller than the map, bias, and
    shapes that reach each default configuration's tails."""
    o = lambda *a, **k: dw(*a, odd=True, **k)
    fw = ("fwd",)
    return [
        # forward
        o(2, 72, 56, 57, 3, "f32", ops=fw), o(2, 72, 56, 57, 7, "f16", ops=fw),
        o(2, 64, 64, 64, (51, 5), "f32", ops=fw), o(2, 64, 64, 64, (5, 51), "f16", ops=fw),
        o(4, 96, 57, 57, 5, "f16", 2, ops=fw), o(2, 64, 32, 32, 3, "f32", dilation=2, ops=fw),
        o(2, 64, 33, 35, 5, "f16", 2, dilation=2, ops=fw), o(1, 32, 112, 112, 7, "f16", ops=fw),
        o(2, 13, 20, 21, 9, "f16", ops=fw), o(2, 40, 30, 31, 4, "f32", 1, [1, 2, 2, 1], ops=fw),
        o(2, 128, 56, 56, 7, "bf16", ops=fw), o(2, 72, 28, 29, 13, "bf16", 2, ops=fw),
        o(2, 64, 28, 28, 3, "f32", bias=True, ops=fw),
        o(2, 12, 20, 21, 3, "f16", ops=fw), o(2, 6, 21, 19, 7, "f16", ops=fw),
        o(3, 10, 13, 11, 5, "bf16", 1, [1, 3, 2, 0], bias=True, ops=fw),
        o(2, 72, 5, 57, (3, 7), "f16", ops=fw), o(2, 72, 37, 45, 31, "f16", ops=fw),
        o(2, 24, 33, 70, 19, "bf16", ops=fw), o(1, 64, 20, 130, (21, 27), "f16", ops=fw),
        o(3, 40, 19, 17, 25, "f16", 1, [3, 9, 20, 4], ops=fw),
        o(2, 64, 28, 40, 27, "bf16", bias=True, ops=fw), o(2, 64, 16, 16, 51, "f16", ops=fw),
        # all three ops, strided and stride 1
        o(3, 13, 17, 19, 3, "f32", 2), o(1, 13, 15, 13, 5, "f32", 2), o(2, 12, 9, 3, 5, "f32", 2),
        o(1, 10, 21, 23, 3, "f16", 2), o(2, 6, 11, 9, 5, "bf16", 2), o(1, 24, 13, 11, 7, "f16", 2),
        o(2, 16, 14, 16, 3, "f32", 3, 1), o(1, 20, 12, 15, (3, 5), "f16", (2, 1), [1, 1, 2, 2]),
        o(2, 8, 10, 11, 3, "f32", 2, [0, 1, 1, 0]), o(1, 40, 7, 7, 3, "bf16", 2, 1),
        o(37, 203, 27, 27, 3, "f32", 2, 1), o(41, 202, 25, 23, 3, "f32", 2, 1),
        o(3, 24, 37, 23, (21, 5), "f16", 1, [10, 10, 2, 2]),
        o(1, 16, 9, 31, (15, 3), "bf16", 1, [7, 7, 1, 1]),
        o(2, 8, 150, 6, (13, 3), "f16", 1, [5, 7, 2, 0]),
        o(2, 24, 13, 11, 7, "f16"), o(4, 36, 7, 7, 7, "bf16"), o(64, 120, 13, 11, 7, "f32"),
        o(16, 40, 27, 27, 7, "f16"), o(6, 24, 9, 9, 3, "bf16"), o(32, 198, 14, 14, 7, "bf16"),
        o(1, 72, 13, 13, 7, "f16"), o(24, 390, 7, 7, 7, "f16"),
        # backward-data and backward-filter
        o(3, 40, 17, 19, (5, 3), "f32", 1, [2, 1, 0, 2]), o(2, 72, 15, 33, 19, "f16"),
        o(3, 10, 17, 19, (5, 7), "f16", 1, [2, 3, 1, 2]), o(2, 6, 21, 19, 7, "bf16"),
        o(2, 32, 16, 16, 3, "f32", 2), o(3, 40, 17, 19, 3, "f32", 1, [1, 0, 2, 0]),
        o(2, 264, 13, 5, 3, "f16"), o(2, 8, 9, 2, (2, 3), "f32", 1, [0, 1, 1, 1]),
        o(5, 520, 11, 30, 3, "f32", tag="rows4",
          kernels={"bwd_filter": "#dwc.bwd_filter_stream<rows = 4>"}, ops=("bwd_filter",)),
        o(2, 72, 15, 37, 7, "f16"), o(2, 72, 15, 37, (13, 5), "f16", 1, [6, 6, 0, 4]),
        # bias gradients
        o(3, 77, 7, 9, 1, "f32", bias=True, ops=("bwd_bias",)),
        o(3, 77, 7, 9, 1, "f16", bias=True, ops=("bwd_bias",)),
        o(1, 6, 13, 11, 1, "bf16", bias=True, ops=("bwd_bias",)),
        o(5, 1000, 9, 9, 1, "f32", bias=True, ops=("bwd_bias",)),
        o(7, 2056, 3, 5, 1, "bf16", bias=True, ops=("bwd_bias",)),
        o(1, 40, 97, 1, 1, "f32", bias=True, ops=("bwd_bias",)),
    ]


def layers_smoke_set():
    return [dw(2, 12, 17, 15, 3, "f32", 2), dw(1, 16, 13, 13, 5, "f16", 2),
            dw(1, 32, 8, 8, 3, "f32", ops=("fwd",)), dw(1, 8, 9, 11, 3, "bf16", ops=("fwd",)),
            dw(2, 64, 16, 16, 7, "f16", bias=True, ops=TRAIN + ("bwd_bias",))]


def fuzz_set(count=300, seed=2026):
    """Seeded random forward layers, checked against float64 only: half in
    the fast paths' domain (stride 1, dilation 1, C a multiple of 8)."""
    rng = random.Random(seed)
    out, seen = [], set()
    while len(out) < count:
        f = lambda: rng.choice([1, 2, 3, 3, 4, 5, 5, 7, 7, 9, 13, 31])
        fast = rng.random() < 0.5
        try:
            it = dw(rng.randint(1, 4), 8 * rng.randint(1, 12) if fast else rng.randint(1, 80),
                    rng.randint(1, 40), rng.randint(1, 40), (f(), f()),
                    rng.choice(DTYPES), (1, 1) if fast else (rng.randint(1, 3), rng.randint(1, 3)),
                    [rng.randint(0, 4) for _ in range(4)],
                    (1, 1) if fast else (rng.choice([1, 1, 2]), rng.choice([1, 1, 2])),
                    rng.random() < 0.3, ops=("fwd",), odd=True)
        except ValueError:  # the filter does not fit the padded map
            continue
        if it.key not in seen:
            seen.add(it.key)
            out.append(it)
    return out


# --- pool ------------------------------------------------------------------
POOLS = [("max", 3, 2, 1, False), ("max", 2, 2, 0, False), ("avg", 3, 1, 1, False),
         ("avg", 3, 2, 1, False)]  # (kind, window, stride, padding, count_include_pad)


def pool(N, C, H, W, kind, k, s, p, dtype="f32", ceil=False, cip=False, bwd=True, **kw):
    spec = PoolSpec.make(N, C, H, W, kind, k, s, p, ceil, cip, dtype)
    return Item(spec, ("pool_fwd", "pool_bwd") if bwd else ("pool_fwd",), **kw)


def pool_grid_set():
    return [pool(n, c, h, w, kind, k, s, p, dt, cip=cip)
            for (n, h, w, c) in [(128, 112, 112, 64), (128, 56, 56, 256)]
            for dt in ("f32", "f16") for (kind, k, s, p, cip) in POOLS]


HEADS = [(768, 7, "convnext_tiny"), (1024, 7, "convnext_base"),
         (1280, 7, f"{MN}, {EN}"), (2048, 7, "resnet50")]
SE = [(96, 56), (144, 56), (144, 28), (240, 28), (240, 14), (480, 14), (672, 14), (672, 7),
      (1152, 7)]


def gap_set():
    """Global average pooling: classifier heads and EfficientNet-B0's
    squeeze-excite inputs, forward and gradient."""
    ops = ("gap", "gap_bwd")
    out = []
    for dt in DTYPES:
        for n in (128, 256):
            out += [Item(GapSpec.make(n, c, h, h, dt), ops, net) for c, h, net in HEADS]
        out += [Item(GapSpec.make(128, c, h, h, dt), ops, "efficientnet_b0 SE") for c, h in SE]
        out += [Item(GapSpec.make(1, c, h, h, dt), ops, net) for c, h, net in HEADS]
        out += [Item(GapSpec.make(1, c, h, h, dt), ops, "efficientnet_b0 SE") for c, h in SE]
    return out


def pool_odd_set():
    o = lambda *a, **k: pool(*a, odd=True, **k)
    gap = lambda *a: Item(GapSpec.make(*a), ("gap", "gap_bwd"), odd=True)
    return [
        o(8, 72, 56, 57, "max", 3, 2, 1, "f32", ceil=True),
        o(8, 72, 56, 57, "max", 3, 2, 0, "f16", ceil=True),
        o(8, 72, 56, 57, "avg", 3, 2, 1, "f32", ceil=True, cip=True),
        o(8, 72, 56, 57, "avg", 3, 2, 1, "f16", ceil=True),
        o(1, 64, 112, 112, "max", 3, 2, 1, "f16"),
        o(4, 13, 30, 31, "avg", 3, 1, 1, "f32"),
        gap(3, 77, 7, 9, "f32"), gap(3, 77, 7, 9, "f16"), gap(3, 77, 7, 9, "bf16"),
        gap(2, 13, 5, 3, "f32"), gap(1, 6, 13, 11, "bf16"), gap(4, 100, 9, 9, "f16"),
        gap(5, 1000, 9, 9, "f32"), gap(2, 16, 1, 1, "f16"), gap(1, 24, 57, 55, "f32"),
        gap(7, 2056, 3, 5, "bf16"),
    ]


def pool_smoke_set():
    return [pool(2, 32, 16, 17, "max", 3, 2, 1, "f32", bwd=False),
            pool(2, 32, 16, 17, "avg", 3, 2, 1, "f16", ceil=True),
            Item(GapSpec.make(2, 40, 7, 7, "f16"), ("gap", "gap_bwd"))]


# --- conv: dense conv2d (im2win) -------------------------------------------
CONV_LAYERS = [  # (C, H, W, OC, F, stride)
    (3, 227, 227, 96, 11, 4), (3, 231, 231, 96, 11, 4), (3, 227, 227, 64, 7, 2),
    (32, 224, 224, 64, 7, 2), (96, 24, 24, 256, 5, 1), (256, 12, 12, 512, 3, 1),
    (3, 224, 224, 64, 3, 1), (64, 112, 112, 128, 3, 1), (64, 56, 56, 64, 3, 1),
    (128, 28, 28, 128, 3, 1), (256, 14, 14, 256, 3, 1), (512, 7, 7, 512, 3, 1),
]


def conv(N, C, H, W, OC, k, dtype="f32", stride=1, dilation=1, padding=0, bias=False, **kw):
    return Item(ConvSpec.make(N, C, H, W, OC, k, stride, padding, dilation, dtype, bias),
                ("conv_fwd",), **kw)


def conv_layers_set():
    return [conv(128, c, h, w, oc, f, dt, s, net="cv%d" % (i + 1))
            for dt in ("f32", "f16") for i, (c, h, w, oc, f, s) in enumerate(CONV_LAYERS)]


def conv_odd_set():
    o = lambda *a, **k: conv(*a, odd=True, **k)
    return [o(2, 3, 33, 35, 32, 3, dt, 2, padding=1) for dt in ("f32", "f16")] + [
        o(3, 40, 20, 21, 72, 5, dt, 1, 2, [4, 4, 3, 5]) for dt in ("f32", "f16")] + [
        o(2, 24, 17, 19, 200, 3, dt, (2, 1), padding=[1, 0, 2, 1], bias=True)
        for dt in ("f32", "f16")] + [
        o(2, 64, 14, 14, 64, 3, "bf16", padding=1), o(1, 5, 9, 9, 12, 2, "f32"),
        o(2, 16, 12, 13, 64, 3, "f16", padding=1)]


def conv_smoke_set():
    return [conv(2, 16, 12, 13, 32, 3, "f32", padding=1), conv(1, 8, 9, 9, 16, 3, "f16")]


SETS = {
    "layers": {"net": lambda: stride1_set() + stride2_set(), "stride2": stride2_set,
               "stride1": stride1_set, "grid": grid_set, "floor": floor_set, "bias": bias_set,
               "odd": layers_odd_set, "smoke": layers_smoke_set, "fuzz": fuzz_set},
    "pool": {"grid": pool_grid_set, "gap": gap_set, "odd": pool_odd_set,
             "smoke": pool_smoke_set},
    "conv": {"layers": conv_layers_set, "odd": conv_odd_set, "smoke": conv_smoke_set},
}


def get_set(topic, names):
    """The items of the '+'-joined set names of a topic, each key once."""
    out, seen = [], set()
    for name in names.split("+"):
        if name not in SETS[topic]:
            raise SystemExit("unknown %s set %r (choose from %s)"
                             % (topic, name, ", ".join(SETS[topic])))
        for it in SETS[topic][name]():
            if it.key not in seen:
                seen.add(it.key)
                out.append(it)
    return out


def select(items, only):
    """Items whose key contains one of the comma-separated substrings."""
    keep = [s for s in (only or "").split(",") if s]
    return [i for i in items if not keep or any(k in i.key for k in keep)]


def benchmark_kernels():
    """(name, MLIR) of every kernel of every timed and odd set: what the
    PTX identity check compiles."""
    from .build import mlir_of
    out, seen = [], set()
    for topic, sets in SETS.items():
        for name in sets:
            if name in ("smoke", "fuzz"):
                continue
            for it in sets[name]():
                for op in it.ops:
                    n = it.func_name(op)
                    if n not in seen:
                        seen.add(n)
                        out.append((n, mlir_of(it, op)))
    return out
