"""Pooling benchmark configurations for the dwc GPU harness.

Pure Python (no torch). Sets:
  grid  - 128x112x112x64 and 128x56x56x256; max 3x3 s2 p1, max 2x2 s2,
          avg 3x3 s1 p1, avg 3x3 s2 p1; f32 and f16; forward and backward (32)
  odd   - W=57, C=72, 3x3 s2 ceil_mode, N=1, count_include_pad, C=13 (12)
  smoke - two tiny configs
  act   - fused relu/relu6 epilogues (3)
  tune  - tuning variants (dwc.kernel configurations) of a few configurations;
  btiles - strided backward: gather tiles vs strips vs 4-row tiles (24);
  s1tune - f16 3x3 stride-1 average forward thread tiles (6);
  maxbwd - f16 max 3x3 s2 backward: argmax/gather thread tiles (12);
  fuse  - depthwise conv + pool, fused vs unfused vs PyTorch (24);
  maxbwd2 - f16 max 3x3 s2 backward: stored vs recomputed argmax tiles (10);
  maxbwd3 - f16 max 3x3 s2 backward: gather tile shapes with 1 window/argmax thread (8);
          sets combine with '+' (names with '+' are written as '_')
Names are MLIR function names; the C entry point is dwc_<name>:
  forward  int dwc_<name>(const void *x, void *y)
  conv+pool int dwc_<name>(const void *x, const void *w, const void *b, void *y)
  backward int dwc_<name>(const void *x, const void *dy, void *dx)

    python3 bench/pool_configs.py --set grid --list
    python3 bench/pool_configs.py --set grid --build [--aot build/bin/dwc-aot]
        (one .mlir per config -> dwc-aot -> .carry/pool_kernels/{name.o,.h,.log}
         + manifest.json, like bench/build_kernels.sh does for convolutions)
"""

import argparse
import os
import sys
from dataclasses import asdict, dataclass
from typing import List

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from aot_build import build_objects  # noqa: E402

COPY_BPS = 4.24e12                       # measured H200 copy bandwidth
L2_BYTES = 60 * 1024 * 1024
ESIZE = {"f32": 4, "f16": 2, "bf16": 2}
# avg: relative error vs float64; max forward: exact after rounding.
TOLERANCE = {"f32": 1e-6, "f16": 2e-3, "bf16": 8e-3}


def pool_out(i, k, s, p0, p1, ceil):
    span = i + p0 + p1 - k
    o = (-(-span // s) if ceil else span // s) + 1
    if ceil and (o - 1) * s >= i + p0:
        o -= 1
    return o


@dataclass
class PoolConfig:
    N: int
    H: int
    W: int
    C: int
    kind: str                      # "max" | "avg"
    K: List[int]                   # [KH, KW]
    stride: List[int]
    padding: List[int]             # [pt, pb, pl, pr]
    dtype: str = "f32"
    bwd: bool = False
    ceil: bool = False
    cip: bool = False              # count_include_pad
    note: str = ""
    act: str = ""                  # fused activation: "" | "relu" | "relu6"
    variant: str = ""              # tuning variant tag (part of the name)
    kernel: str = ""               # the variant's dwc.kernel on the pooling op
                                   # (#dwc.pool_forward<...> / #dwc.pool_backward<...>)
    conv_f: int = 0                # > 0: an F x F stride-1 'same' depthwise conv
                                   # (with bias) feeds the pool (fusion configs)

    @property
    def OH(self):
        return pool_out(self.H, self.K[0], self.stride[0], self.padding[0], self.padding[1], self.ceil)

    @property
    def OW(self):
        return pool_out(self.W, self.K[1], self.stride[1], self.padding[2], self.padding[3], self.ceil)

    @property
    def name(self):
        k = f"{self.K[0]}" if self.K[0] == self.K[1] else "x".join(map(str, self.K))
        s = f"{self.stride[0]}" if self.stride[0] == self.stride[1] else "x".join(map(str, self.stride))
        p = "x".join(map(str, self.padding)) if len(set(self.padding)) > 1 else str(self.padding[0])
        n = (f"pool_{self.kind}{'_bwd' if self.bwd else ''}_n{self.N}h{self.H}w{self.W}c{self.C}"
             f"_k{k}_s{s}_p{p}")
        if self.conv_f:
            n = f"dw{self.conv_f}_" + n
        if self.ceil:
            n += "_ceil"
        if self.cip:
            n += "_cip"
        if self.act:
            n += "_" + self.act
        n += "_" + self.dtype
        if self.variant:
            n += "__" + self.variant
        return n

    @property
    def symbol(self):
        return "dwc_" + self.name

    @property
    def op(self):
        if self.conv_f:
            return f"dwconv{self.conv_f}_{self.kind}pool"
        return f"{self.kind}pool_{'bwd' if self.bwd else 'fwd'}"

    def in_elems(self):
        return self.N * self.H * self.W * self.C

    def out_elems(self):
        return self.N * self.OH * self.OW * self.C

    def bytes_moved(self):
        """Forward: X read once + Y written once. Backward: dY + dX, plus X
        for max (the argmax is recomputed from X)."""
        e = self.in_elems() + self.out_elems()
        if self.bwd and self.kind == "max":
            e += self.in_elems()
        if self.conv_f:  # filter and bias
            e += (self.conv_f * self.conv_f + 1) * self.C
        return e * ESIZE[self.dtype]

    def floor_ms(self):
        return 1e3 * self.bytes_moved() / COPY_BPS

    def nargs(self):
        if self.conv_f:
            return 4  # x, w, b, y
        return 3 if self.bwd else 2

    def aot_flags(self):
        """Extra dwc-aot arguments (none: a variant is its dwc.kernel)."""
        return []

    def to_dict(self):
        d = asdict(self)
        d.update(name=self.name, symbol=self.symbol, OH=self.OH, OW=self.OW, op=self.op,
                 bytes=self.bytes_moved(), floor_ms=self.floor_ms())
        return d

    def mlir(self):
        e = self.dtype
        tx = f"tensor<{self.N}x{self.H}x{self.W}x{self.C}x{e}>"
        ty = f"tensor<{self.N}x{self.OH}x{self.OW}x{self.C}x{e}>"
        lst = lambda v: "[" + ", ".join(map(str, v)) + "]"
        attrs = (f"window = {lst(self.K)} strides = {lst(self.stride)} padding = {lst(self.padding)}"
                 + (" ceil_mode" if self.ceil else "") + (" count_include_pad" if self.cip else ""))
        fwd_attrs = attrs + (f" activation = {self.act}" if self.act else "")
        if self.kernel:
            # (On a pool2d fed by a convolution, a configuration also keeps
            # dwc-fuse-conv-pool from fusing the two.)
            fwd_attrs += f" {{dwc.kernel = {self.kernel}}}"
            attrs += f" {{dwc.kernel = {self.kernel}}}"
        if self.conv_f:
            # conv + pool as a network has them; dwc-fuse-conv-pool fuses them.
            f, C = self.conv_f, self.C
            tw, tb = f"tensor<{f}x{f}x{C}x{e}>", f"tensor<{C}x{e}>"
            pad = lst([f // 2] * 4)
            return (f"// Generated by bench/pool_configs.py: {self.name}\n"
                    f"func.func @{self.name}(%x: {tx}, %w: {tw}, %b: {tb}) -> {ty} {{\n"
                    f"  %ce = tensor.empty() : {tx}\n"
                    f"  %c = dwc.depthwise_conv2d ins(%x, %w : {tx}, {tw}) bias(%b : {tb}) outs(%ce : {tx}) "
                    f"strides = [1, 1] dilations = [1, 1] padding = {pad} -> {tx}\n"
                    f"  %init = tensor.empty() : {ty}\n"
                    f"  %y = dwc.pool2d {self.kind} ins(%c : {tx}) outs(%init : {ty}) {fwd_attrs} -> {ty}\n"
                    f"  return %y : {ty}\n}}\n")
        if not self.bwd:
            return (f"// Generated by bench/pool_configs.py: {self.name}\n"
                    f"func.func @{self.name}(%x: {tx}) -> {ty} {{\n"
                    f"  %init = tensor.empty() : {ty}\n"
                    f"  %y = dwc.pool2d {self.kind} ins(%x : {tx}) outs(%init : {ty}) {fwd_attrs} -> {ty}\n"
                    f"  return %y : {ty}\n}}\n")
        return (f"// Generated by bench/pool_configs.py: {self.name}\n"
                f"func.func @{self.name}(%x: {tx}, %dy: {ty}) -> {tx} {{\n"
                f"  %init = tensor.empty() : {tx}\n"
                f"  %dx = dwc.pool2d_backward {self.kind} ins(%x, %dy : {tx}, {ty}) outs(%init : {tx}) {attrs} -> {tx}\n"
                f"  return %dx : {tx}\n}}\n")


def config_from_dict(d):
    keys = ("N", "H", "W", "C", "kind", "K", "stride", "padding", "dtype", "bwd", "ceil", "cip", "note",
            "act", "variant", "kernel", "conv_f")
    return PoolConfig(**{k: d[k] for k in keys if k in d})


POOLS = [  # (kind, K, stride, padding, cip)
    ("max", [3, 3], [2, 2], [1, 1, 1, 1], False),
    ("max", [2, 2], [2, 2], [0, 0, 0, 0], False),
    ("avg", [3, 3], [1, 1], [1, 1, 1, 1], False),
    ("avg", [3, 3], [2, 2], [1, 1, 1, 1], False),
]
GRID_SHAPES = [(128, 112, 112, 64), (128, 56, 56, 256)]


def grid_set():
    return [PoolConfig(n, h, w, c, kind, k, s, p, dt, bwd, cip=cip)
            for bwd in (False, True)
            for (n, h, w, c) in GRID_SHAPES
            for dt in ("f32", "f16")
            for (kind, k, s, p, cip) in POOLS]


def odd_set():
    out = []
    for bwd in (False, True):
        out += [
            PoolConfig(8, 56, 57, 72, "max", [3, 3], [2, 2], [1, 1, 1, 1], "f32", bwd, ceil=True, note="W=57 C=72 ceil"),
            PoolConfig(8, 56, 57, 72, "max", [3, 3], [2, 2], [0, 0, 0, 0], "f16", bwd, ceil=True, note="W=57 C=72 ceil"),
            PoolConfig(8, 56, 57, 72, "avg", [3, 3], [2, 2], [1, 1, 1, 1], "f32", bwd, ceil=True, cip=True, note="ceil+cip"),
            PoolConfig(8, 56, 57, 72, "avg", [3, 3], [2, 2], [1, 1, 1, 1], "f16", bwd, ceil=True, note="ceil, pad excluded"),
            PoolConfig(1, 112, 112, 64, "max", [3, 3], [2, 2], [1, 1, 1, 1], "f16", bwd, note="N=1"),
            PoolConfig(4, 30, 31, 13, "avg", [3, 3], [1, 1], [1, 1, 1, 1], "f32", bwd, note="C=13 (scalar/baseline)"),
        ]
    return out


def smoke_set():
    return [PoolConfig(2, 16, 17, 32, "max", [3, 3], [2, 2], [1, 1, 1, 1], "f32", False, note="smoke"),
            PoolConfig(2, 16, 17, 32, "avg", [3, 3], [2, 2], [1, 1, 1, 1], "f16", True, ceil=True, note="smoke")]


def act_set():
    """Fused ReLU/ReLU6 epilogues (PyTorch side: pool then F.relu/relu6)."""
    n, h, w, c = GRID_SHAPES[0]
    return [PoolConfig(n, h, w, c, "max", [3, 3], [2, 2], [1, 1, 1, 1], "f16", act="relu"),
            PoolConfig(n, h, w, c, "avg", [3, 3], [1, 1], [1, 1, 1, 1], "f32", act="relu6"),
            PoolConfig(8, 56, 57, 72, "avg", [3, 3], [2, 2], [1, 1, 1, 1], "f16", ceil=True, act="relu6",
                       note="W=57 C=72 ceil")]


# Tuning variants: (tag, dwc.kernel of the pooling op). The former pass
# options map to fields: row-tile -> rows, tile-acc-regs=24 -> columns = 1
# (the strip width it allowed for f16 3x3 stride-1 averages), vector-bits
# -> vector_bits, backward-strip -> columns, backward-row-tile -> rows,
# argmax-strip -> argmax_columns, max-backward-argmax -> argmax,
# fuse-conv=false -> a pool_forward configuration on the pool2d.
FWD = "#dwc.pool_forward<%s>"
BWD = "#dwc.pool_backward<%s>"
FWD_VARIANTS = [("strip", FWD % "rows = 1"), ("vb64", FWD % "vector_bits = 64")]


def occupancy_set():
    """f16 3x3 stride-1 average forward with fewer live accumulators (more
    resident threads): TM = 1 (tile-acc-regs=24), with 4/8/16 rows."""
    out = []
    for (n, h, w, c) in GRID_SHAPES:
        for tag, opts in (("acc24", FWD % "rows = 8, columns = 1"),
                          ("acc24rt4", FWD % "rows = 4, columns = 1"),
                          ("acc24rt16", FWD % "rows = 16, columns = 1")):
            out.append(PoolConfig(n, h, w, c, "avg", [3, 3], [1, 1], [1, 1, 1, 1], "f16",
                                  variant=tag, kernel=opts))
    return out


def tune_set():
    """Variants of the stride-2 3x3 windows (row tiles are the default since
    2026-11-30-pool-v3; 'strip' is the previous single-row kernel) and of f16
    3x3 stride-1 average pooling, on the larger grid shape."""
    n, h, w, c = GRID_SHAPES[0]
    out = []
    for kind, dt in (("max", "f32"), ("max", "f16"), ("avg", "f32"), ("avg", "f16")):
        out.append(PoolConfig(n, h, w, c, kind, [3, 3], [2, 2], [1, 1, 1, 1], dt,
                              variant="strip", kernel=FWD % "rows = 1"))
    for tag, opts in FWD_VARIANTS[1:]:
        out.append(PoolConfig(n, h, w, c, "avg", [3, 3], [1, 1], [1, 1, 1, 1], "f16",
                              variant=tag, kernel=opts))
    # Backward gather strips of 8 dX positions (default 4), stride-2 windows.
    for kind in ("max", "avg"):
        for dt in ("f32", "f16"):
            out.append(PoolConfig(n, h, w, c, kind, [3, 3], [2, 2], [1, 1, 1, 1], dt, True,
                                  variant="bs8", kernel=BWD % "columns = 8"))
    return out


def btiles_set():
    """Strided (3x3 stride 2) backward on both grid shapes: the default
    stride-aligned gather tiles, the single-row strips (backward-row-tile=1)
    and 4-row tiles (backward-row-tile=4)."""
    out = []
    for (n, h, w, c) in GRID_SHAPES:
        for kind in ("max", "avg"):
            for dt in ("f32", "f16"):
                for tag, opts in (("", ""), ("strip", BWD % "rows = 1"),
                                  ("rows4", BWD % "rows = 4")):
                    out.append(PoolConfig(n, h, w, c, kind, [3, 3], [2, 2], [1, 1, 1, 1], dt, True,
                                          variant=tag, kernel=opts))
    return out


def s1tune_set():
    """f16 3x3 stride-1 average forward: thread tiles other than the default
    (TM = 1 x 4 rows, in the grid set): 2 and 6 rows, TM = 2 x 4 rows."""
    out = []
    for (n, h, w, c) in GRID_SHAPES:
        for tag, opts in (("rt2", FWD % "rows = 2, columns = 1"),
                          ("rt6", FWD % "rows = 6, columns = 1"), ("tm2rt4", FWD % "rows = 4, columns = 2")):
            out.append(PoolConfig(n, h, w, c, "avg", [3, 3], [1, 1], [1, 1, 1, 1], "f16",
                                  variant=tag, kernel=opts))
    return out


def maxbwd_set():
    """f16 max 3x3 stride-2 backward: registers vs occupancy of its two
    kernels -- argmax windows per thread (as) and gather tile width (bs)."""
    out = []
    for (n, h, w, c) in GRID_SHAPES:
        for tag, opts in (("", ""), ("bs2", BWD % "columns = 2"), ("as2", BWD % "argmax_columns = 2"),
                          ("as2bs2", BWD % "argmax_columns = 2, columns = 2"),
                          ("as1bs2", BWD % "argmax_columns = 1, columns = 2"),
                          ("as2rows1", BWD % "argmax_columns = 2, rows = 1")):
            out.append(PoolConfig(n, h, w, c, "max", [3, 3], [2, 2], [1, 1, 1, 1], "f16", True,
                                  variant=tag, kernel=opts))
    return out


def fuse_set():
    """Depthwise conv (F x F, stride 1, same padding, bias) followed by a
    pool: the fused kernel (dwc-fuse-conv-pool + convert-dwc-to-gpu-pool)
    against the same IR unfused (a #dwc.pool_forward on the pool2d: GEMV
    conv + pooling kernel), and PyTorch's conv2d + pool on the same inputs."""
    out = []
    pools = [("max", [3, 3], [2, 2], [1, 1, 1, 1]), ("avg", [2, 2], [2, 2], [0, 0, 0, 0])]
    for (n, h, w, c) in GRID_SHAPES:
        for dt in ("f32", "f16"):
            for f, (kind, k, st, pad) in ((3, pools[0]), (3, pools[1]), (7, pools[0])):
                for tag, opts in (("", ""), ("unfused", FWD % "")):
                    out.append(PoolConfig(n, h, w, c, kind, k, st, pad, dt, conv_f=f,
                                          variant=tag, kernel=opts))
    return out


def maxbwd2_set():
    """f16 max 3x3 stride-2 backward: the stored argmax (default: one window
    per argmax thread, 2-wide gather tiles) against one kernel that
    recomputes each tile's argmax from X (argmax = "recompute", gather
    tiles 2 and 4 wide); f16 3x3 conv + pool fused (16-bit rule)."""
    out = []
    for (n, h, w, c) in GRID_SHAPES:
        for tag, opts in (("rc2", BWD % 'argmax = "recompute", columns = 2'),
                          ("rc4", BWD % 'argmax = "recompute", columns = 4')):
            out.append(PoolConfig(n, h, w, c, "max", [3, 3], [2, 2], [1, 1, 1, 1], "f16", True,
                                  variant=tag, kernel=opts))
        out.append(PoolConfig(n, h, w, c, "max", [3, 3], [2, 2], [1, 1, 1, 1], "f16", True))
        for kind, k, st, pad in (("max", [3, 3], [2, 2], [1, 1, 1, 1]), ("avg", [2, 2], [2, 2], [0, 0, 0, 0])):
            out.append(PoolConfig(n, h, w, c, kind, k, st, pad, "f16", conv_f=3))
    return out


def maxbwd3_set():
    """f16 max 3x3 stride-2 backward, one window per argmax thread: gather
    tiles 4 and 8 wide, 4 rows high."""
    out = []
    for (n, h, w, c) in GRID_SHAPES:
        for tag, opts in (("as1bs4", BWD % "argmax_columns = 1, columns = 4"),
                          ("as1bs8", BWD % "argmax_columns = 1, columns = 8"),
                          ("as1rt4", BWD % "argmax_columns = 1, columns = 2, rows = 4"),
                          ("as1strip", BWD % "argmax_columns = 1, columns = 2, rows = 1")):
            out.append(PoolConfig(n, h, w, c, "max", [3, 3], [2, 2], [1, 1, 1, 1], "f16", True,
                                  variant=tag, kernel=opts))
    return out


def bindbug_set():
    """The average-pool backward cases reported wrong through dwc_torch
    (bench/results/2026-12-01-torch-e2e-v2.md): overlapping 3x3 stride-2
    windows, odd C, ceil_mode and count_include_pad on and off."""
    out = []
    for dt in ("f32", "f16"):
        for ceil in (False, True):
            for cip in (False, True):
                out.append(PoolConfig(2, 35, 17, 19, "avg", [3, 3], [2, 2], [1, 1, 1, 1], dt, True,
                                      ceil=ceil, cip=cip, note="binding report"))
    out.append(PoolConfig(2, 17, 19, 35, "avg", [3, 3], [2, 2], [1, 1, 1, 1], "f32", True, ceil=True,
                          note="binding report"))
    out.append(PoolConfig(2, 17, 19, 32, "avg", [3, 3], [2, 2], [1, 1, 1, 1], "f32", True, ceil=True,
                          note="binding report"))
    return out


SETS = {"grid": grid_set, "bindbug": bindbug_set, "odd": odd_set, "smoke": smoke_set, "act": act_set, "tune": tune_set,
        "occupancy": occupancy_set, "btiles": btiles_set,
        "s1tune": s1tune_set, "maxbwd": maxbwd_set,
        "fuse": fuse_set, "maxbwd2": maxbwd2_set,
        "maxbwd3": maxbwd3_set}


def get_set(name):
    if "+" in name:
        return [c for part in name.split("+") for c in get_set(part)]
    if name == "all":
        return grid_set() + odd_set() + smoke_set()
    if name not in SETS:
        raise SystemExit(f"unknown set '{name}' (choose from {', '.join(SETS)}, all)")
    return SETS[name]()


def select(cfgs, only):
    keys = [k for k in (only or "").split(",") if k]
    return [c for c in cfgs if not keys or any(k in c.name for k in keys)]


def build(cfgs, set_name, aot, outdir, jobs):
    """dwc-aot per config into outdir (wiped); writes manifest.json."""
    built = build_objects(cfgs, set_name, "pool", aot, outdir, jobs, "pool_kernels")
    print(f"pool_configs: {built}/{len(cfgs)} kernels built in {outdir}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="smoke")
    ap.add_argument("--only", default="")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--emit-mlir", metavar="DIR")
    ap.add_argument("--build", action="store_true", help="compile with dwc-aot and write the manifest")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--aot", default=os.path.join(root, "build", "bin", "dwc-aot"))
    ap.add_argument("--out", default=os.path.join(root, ".carry", "pool_kernels"))
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
            print(f"{c.name:62s} out {c.N}x{c.OH}x{c.OW}x{c.C} {c.bytes_moved() / 1e6:9.1f} MB floor {c.floor_ms():7.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
