"""Benchmark configuration sets for the dwc GPU harness.

Pure Python (no torch): the sets `grid`, `odd` and `smoke`, stable config
names (used as MLIR function names), the MLIR text of one kernel per config,
and the roofline floor. Run as a script to emit the .mlir files of a set:

    python3 bench/configs.py --set smoke --emit-mlir DIR
    python3 bench/configs.py --set smoke --write-manifest DIR --commit SHA
"""

import argparse
import json
import os
import sys
from dataclasses import asdict, dataclass, field
from typing import List, Optional

# Measured ceilings of the lent H200 (shared/docs/TOOLCHAIN.md).
COPY_BPS = 4.24e12                 # device copy, bytes read + written per s
FFMA_FLOPS = 60e12                 # FP32 CUDA-core FMA peak
MMA_K8_FLOPS = 460e12              # mma.sync m16n8k8 f16 -> f32
TC_DENSITY = 0.5625                # 9 useful of 16 in the packed GEMM
L2_BYTES = 60 * 1024 * 1024

ESIZE = {"f32": 4, "f16": 2, "bf16": 2}
MLIR_ELT = {"f32": "f32", "f16": "f16", "bf16": "bf16"}
# Relative-error thresholds against a float64 reference. bf16 keeps 8
# significant bits: rounding the output alone costs ~1.6e-3 (RMS), so it
# gets a looser bound than f16 (see bench/README.md).
TOLERANCE = {"f32": 1e-5, "f16": 2e-3, "bf16": 4e-3}


@dataclass
class Config:
    N: int
    H: int
    W: int
    C: int
    FH: int
    FW: int
    dtype: str = "f32"
    stride: List[int] = field(default_factory=lambda: [1, 1])
    dilation: List[int] = field(default_factory=lambda: [1, 1])
    padding: Optional[List[int]] = None     # [pt, pb, pl, pr]; None = "same"
    bias: bool = False
    op: str = "dwc_fwd"
    note: str = ""

    def __post_init__(self):
        if self.padding is None:
            ph = self.dilation[0] * (self.FH - 1) // 2
            pw = self.dilation[1] * (self.FW - 1) // 2
            self.padding = [ph, ph, pw, pw]
        assert self.dtype in ESIZE, self.dtype
        assert len(self.padding) == 4 and len(self.stride) == 2

    # --- shape -------------------------------------------------------------
    @property
    def OH(self) -> int:
        pt, pb = self.padding[0], self.padding[1]
        return (self.H + pt + pb - self.dilation[0] * (self.FH - 1) - 1) // self.stride[0] + 1

    @property
    def OW(self) -> int:
        pl, pr = self.padding[2], self.padding[3]
        return (self.W + pl + pr - self.dilation[1] * (self.FW - 1) - 1) // self.stride[1] + 1

    def is_same_padding(self) -> bool:
        ph = self.dilation[0] * (self.FH - 1) // 2
        pw = self.dilation[1] * (self.FW - 1) // 2
        return self.padding == [ph, ph, pw, pw]

    # --- naming ------------------------------------------------------------
    @property
    def name(self) -> str:
        f = f"{self.FH}" if self.FH == self.FW else f"{self.FH}x{self.FW}"
        s = f"{self.stride[0]}" if self.stride[0] == self.stride[1] else "x".join(map(str, self.stride))
        d = f"{self.dilation[0]}" if self.dilation[0] == self.dilation[1] else "x".join(map(str, self.dilation))
        n = f"{self.op}_n{self.N}h{self.H}w{self.W}c{self.C}_f{f}_s{s}_d{d}"
        if not self.is_same_padding():
            n += "_p" + "x".join(map(str, self.padding))
        if self.bias:
            n += "_bias"
        return n + "_" + self.dtype

    @property
    def symbol(self) -> str:
        """C entry point that dwc-aot generates for func @name."""
        return "dwc_" + self.name

    # --- cost model --------------------------------------------------------
    def in_elems(self) -> int:
        return self.N * self.H * self.W * self.C

    def out_elems(self) -> int:
        return self.N * self.OH * self.OW * self.C

    def filter_elems(self) -> int:
        return self.FH * self.FW * self.C

    def bytes_moved(self) -> int:
        """Each input read once, the output written once."""
        e = self.in_elems() + self.filter_elems() + self.out_elems()
        if self.bias:
            e += self.C
        return e * ESIZE[self.dtype]

    def flops(self) -> int:
        """Useful FLOPs of the direct convolution (padding taps included, as
        in the Flash-DWC count 2*N*OH*OW*C*FH*FW)."""
        return 2 * self.out_elems() * self.FH * self.FW

    def peak_flops(self) -> float:
        return FFMA_FLOPS if self.dtype == "f32" else MMA_K8_FLOPS * TC_DENSITY

    def floor_ms(self) -> float:
        return 1e3 * max(self.bytes_moved() / COPY_BPS, self.flops() / self.peak_flops())

    def tolerance(self) -> float:
        return TOLERANCE[self.dtype]

    def to_dict(self) -> dict:
        d = asdict(self)
        d.update(name=self.name, symbol=self.symbol, OH=self.OH, OW=self.OW)
        return d

    # --- MLIR --------------------------------------------------------------
    def mlir(self) -> str:
        e = MLIR_ELT[self.dtype]
        tx = f"tensor<{self.N}x{self.H}x{self.W}x{self.C}x{e}>"
        tw = f"tensor<{self.FH}x{self.FW}x{self.C}x{e}>"
        tb = f"tensor<{self.C}x{e}>"
        ty = f"tensor<{self.N}x{self.OH}x{self.OW}x{self.C}x{e}>"
        args = f"%x: {tx}, %w: {tw}" + (f", %b: {tb}" if self.bias else "")
        bias = f" bias(%b : {tb})" if self.bias else ""
        lst = lambda v: "[" + ", ".join(map(str, v)) + "]"
        return (
            f"// Generated by bench/configs.py: {self.name}\n"
            f"func.func @{self.name}({args}) -> {ty} {{\n"
            f"  %init = tensor.empty() : {ty}\n"
            f"  %y = dwc.depthwise_conv2d ins(%x, %w : {tx}, {tw}){bias}"
            f" outs(%init : {ty})"
            f" strides = {lst(self.stride)} dilations = {lst(self.dilation)}"
            f" padding = {lst(self.padding)} -> {ty}\n"
            f"  return %y : {ty}\n"
            f"}}\n")


def config_from_dict(d: dict) -> Config:
    keys = ("N", "H", "W", "C", "FH", "FW", "dtype", "stride", "dilation",
            "padding", "bias", "op", "note")
    return Config(**{k: d[k] for k in keys if k in d})


# --- the sets --------------------------------------------------------------
GRID_SHAPES = [(128, 128, 128, 128), (128, 64, 64, 256), (128, 32, 32, 1024)]
GRID_FILTERS = [3, 5, 7, 9, 13, 17, 31, 51]


def grid_set() -> List[Config]:
    """Flash-DWC forward grid: 3 shapes x 8 filters x {f32, f16} = 48."""
    return [Config(n, h, w, c, f, f, dt)
            for (n, h, w, c) in GRID_SHAPES
            for dt in ("f32", "f16")
            for f in GRID_FILTERS]


def odd_set() -> List[Config]:
    """Correctness corner cases: odd widths and channel counts, non-square
    filters, strides, dilations, asymmetric padding, bf16, bias."""
    return [
        Config(2, 56, 57, 72, 3, 3, "f32", note="C=72, W=57"),
        Config(2, 56, 57, 72, 7, 7, "f16", note="C=72, W=57"),
        Config(2, 64, 64, 64, 51, 5, "f32", note="51x5 filter"),
        Config(2, 64, 64, 64, 5, 51, "f16", note="5x51 filter"),
        Config(4, 56, 56, 96, 3, 3, "f32", stride=[2, 2], note="stride 2"),
        Config(4, 57, 57, 96, 5, 5, "f16", stride=[2, 2], note="stride 2, odd H/W"),
        Config(2, 32, 32, 64, 3, 3, "f32", dilation=[2, 2], note="dilation 2"),
        Config(2, 33, 35, 64, 5, 5, "f16", stride=[2, 2], dilation=[2, 2], note="stride 2 + dilation 2"),
        Config(1, 112, 112, 32, 7, 7, "f16", note="N=1"),
        Config(2, 20, 21, 13, 3, 3, "f32", note="C=13, not a multiple of 4"),
        Config(2, 20, 21, 13, 9, 9, "f16", note="C=13, F=9"),
        Config(2, 30, 31, 40, 4, 4, "f32", padding=[1, 2, 2, 1], note="even filter, asymmetric padding"),
        Config(2, 30, 31, 40, 3, 3, "f16", padding=[0, 2, 1, 0], note="asymmetric padding"),
        Config(2, 56, 56, 128, 7, 7, "bf16", note="bf16"),
        Config(2, 28, 29, 72, 13, 13, "bf16", stride=[2, 2], note="bf16, stride 2, C=72"),
        Config(2, 28, 28, 64, 3, 3, "f32", bias=True, note="bias"),
    ]


def smoke_set() -> List[Config]:
    return [
        Config(1, 8, 8, 32, 3, 3, "f32", note="smoke"),
        Config(2, 16, 16, 64, 5, 5, "f16", note="smoke"),
        Config(1, 9, 11, 8, 3, 3, "bf16", note="smoke"),
    ]


def fwd16_set() -> List[Config]:
    """Issue-5 subset: the f16 grid rows of the GEMV kernel's small filters
    and of the tensor-core kernel's big ones, plus odd shapes for both."""
    grid = [Config(n, h, w, c, f, f, "f16")
            for (n, h, w, c) in GRID_SHAPES for f in GRID_FILTERS]
    return grid + [
        Config(2, 20, 21, 12, 3, 3, "f16", note="C=12: 64-bit f16 vectors"),
        Config(2, 30, 31, 40, 5, 5, "bf16", padding=[0, 2, 1, 3], note="bf16, asymmetric padding"),
        Config(2, 21, 19, 6, 7, 7, "f16", note="2-channel row tiles: C=6, row and column tails"),
        Config(3, 13, 11, 10, 5, 5, "bf16", padding=[1, 3, 2, 0], bias=True,
               note="2-channel row tiles: bf16, bias, asymmetric padding"),
        Config(2, 5, 57, 72, 3, 7, "f16", note="3x7: 8-row tiles taller than the output"),
        Config(2, 37, 45, 72, 31, 31, "f16", note="TC: C=72, odd H/W"),
        Config(2, 33, 70, 24, 19, 19, "bf16", note="TC: bf16, C=24, 3 fragments"),
        Config(1, 20, 130, 64, 21, 27, "f16", note="TC: 21x27, W=130"),
        Config(3, 19, 17, 40, 25, 25, "f16", padding=[3, 9, 20, 4], note="TC: asymmetric padding"),
        Config(2, 28, 40, 64, 27, 27, "bf16", bias=True, note="TC: bf16 + bias"),
        Config(2, 16, 16, 64, 51, 51, "f16", note="TC: F=51 > H"),
    ]


def fuzz_set(count: int = 300, seed: int = 2026) -> List[Config]:
    """Seeded random forward configurations for GPU fuzzing: N = 1..4, maps
    of 1..40 (W < filter, odd sizes), C = 1..80 or multiples of 8,
    filters 1..9 and sometimes 13/31, strides 1..3, dilations 1..2,
    asymmetric padding, f32/f16/bf16, bias. Checked against float64 with
    poisoned outputs and guard regions (harness.py --no-timing)."""
    import random
    rng = random.Random(seed)
    out: List[Config] = []
    while len(out) < count:
        f = lambda: rng.choice([1, 2, 3, 3, 4, 5, 5, 7, 7, 9, 13, 31])
        # Half the configurations in the fast paths' domain (stride 1,
        # dilation 1, C a multiple of 8), the rest anywhere.
        fast = rng.random() < 0.5
        ch = 8 * rng.randint(1, 12) if fast else rng.randint(1, 80)
        c = Config(rng.randint(1, 4), rng.randint(1, 40), rng.randint(1, 40),
                   ch, f(), f(), rng.choice(["f32", "f16", "bf16"]),
                   stride=[1, 1] if fast else [rng.randint(1, 3), rng.randint(1, 3)],
                   dilation=[1, 1] if fast else [rng.choice([1, 1, 2]), rng.choice([1, 1, 2])],
                   padding=[rng.randint(0, 4) for _ in range(4)],
                   bias=rng.random() < 0.3, note="fuzz")
        if c.OH >= 1 and c.OW >= 1 and all(
                c.name != o.name for o in out):
            out.append(c)
    return out


def fuzzbug2_set() -> List[Config]:
    """Neighbours of fuzzbug's f16 configuration, to find what triggers it."""
    p = [1, 1, 1, 2]
    return [Config(3, 8, 6, 72, 3, 3, "f16", padding=p, note="H=8"),
            Config(3, 4, 10, 72, 3, 3, "f16", padding=p, note="W=10"),
            Config(1, 4, 6, 72, 3, 3, "f16", padding=p, note="N=1"),
            Config(3, 4, 6, 8, 3, 3, "f16", padding=p, note="C=8"),
            Config(3, 4, 6, 72, 3, 3, "f16", padding=[1, 1, 1, 1], note="same padding"),
            Config(3, 5, 6, 72, 3, 3, "f16", padding=p, note="H=5"),
            Config(3, 4, 6, 64, 3, 3, "f16", padding=p, note="C=64")]


def fuzzbug_set() -> List[Config]:
    """The configuration bench/gpu_fuzz.sh found wrong (bf16, right padding
    wider than the filter: OW = 9 > W = 6) in every element type, and its
    neighbours (no bias, narrower right padding)."""
    out = []
    for dt in ("bf16", "f16", "f32"):
        out += [Config(3, 4, 6, 72, 3, 3, dt, padding=[1, 1, 1, 4], bias=True, note="fuzz bug"),
                Config(3, 4, 6, 72, 3, 3, dt, padding=[1, 1, 1, 4], note="no bias"),
                Config(3, 4, 6, 72, 3, 3, dt, padding=[1, 1, 1, 2], bias=True, note="pad 2")]
    return out


SETS = {"grid": grid_set, "odd": odd_set, "smoke": smoke_set, "fwd16": fwd16_set,
        "fuzz": fuzz_set, "fuzzbug": fuzzbug_set, "fuzzbug2": fuzzbug2_set}


def get_set(name: str) -> List[Config]:
    if name == "all":
        return grid_set() + odd_set() + smoke_set()
    if name not in SETS:
        raise SystemExit(f"unknown set '{name}' (choose from {', '.join(SETS)}, all)")
    return SETS[name]()


def select(configs: List[Config], only: Optional[str]) -> List[Config]:
    """Filter by comma-separated substrings of the name (e.g. 'f16,_f3_')."""
    if not only:
        return configs
    keys = [k for k in only.split(",") if k]
    return [c for c in configs if any(k in c.name for k in keys)]


def _defined_symbols(obj: str) -> Optional[set]:
    import subprocess
    try:
        out = subprocess.run(["nm", "-g", "--defined-only", obj], capture_output=True,
                             text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return {ln.split()[-1] for ln in out.splitlines() if ln.strip()}


def write_manifest(kdir: str, set_name: str, commit: str, aot: str) -> dict:
    """manifest.json for the kernels in kdir: config fields, symbol, object,
    and the dwc-aot error for configs that failed to build."""
    with open(os.path.join(kdir, "configs.json")) as f:
        cfgs = [config_from_dict(d) for d in json.load(f)["configs"]]
    entries = []
    for c in cfgs:
        e = c.to_dict()
        obj = os.path.join(kdir, c.name + ".o")
        logf = os.path.join(kdir, c.name + ".log")
        e["object"] = c.name + ".o"
        e["built"] = os.path.exists(obj) and os.path.getsize(obj) > 0
        if e["built"]:
            syms = _defined_symbols(obj)
            if syms is not None and c.symbol not in syms:
                cand = sorted(s for s in syms if s.endswith(c.name))
                if cand:
                    e["symbol"] = cand[0]
                else:
                    e["built"] = False
                    e["build_error"] = f"{c.symbol} not defined in {c.name}.o"
        else:
            err = ""
            if os.path.exists(logf):
                with open(logf, errors="replace") as f:
                    err = f.read().strip()
            e["build_error"] = (err or "dwc-aot produced no object")[-2000:]
        hdr = os.path.join(kdir, c.name + ".h")
        if os.path.exists(hdr):
            import re
            with open(hdr, errors="replace") as f:
                m = re.search(r"variant\s*[:=]\s*\"?([\w.+\-]+)", f.read(), re.I)
            if m:
                e["variant"] = m.group(1)
        entries.append(e)
    man = {"set": set_name, "commit": commit, "dwc_aot": aot, "configs": entries}
    with open(os.path.join(kdir, "manifest.json"), "w") as f:
        json.dump(man, f, indent=1)
    return man


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="smoke")
    ap.add_argument("--only", default="", help="comma-separated name substrings")
    ap.add_argument("--emit-mlir", metavar="DIR", help="write <name>.mlir per config and configs.json")
    ap.add_argument("--list", action="store_true", help="print names, floors and sizes")
    ap.add_argument("--write-manifest", metavar="DIR", help="write DIR/manifest.json after dwc-aot ran")
    ap.add_argument("--commit", default="")
    ap.add_argument("--aot", default="")
    a = ap.parse_args(argv)
    if a.write_manifest:
        man = write_manifest(a.write_manifest, a.set, a.commit, a.aot)
        built = sum(1 for e in man["configs"] if e["built"])
        print(f"manifest: {built}/{len(man['configs'])} kernels built")
        for e in man["configs"]:
            if not e["built"]:
                print(f"  FAILED {e['name']}: {e['build_error'].splitlines()[-1] if e['build_error'] else ''}")
        return 0
    cfgs = select(get_set(a.set), a.only)
    names = [c.name for c in cfgs]
    assert len(set(names)) == len(names), "config names must be unique"
    if a.emit_mlir:
        os.makedirs(a.emit_mlir, exist_ok=True)
        for c in cfgs:
            with open(os.path.join(a.emit_mlir, c.name + ".mlir"), "w") as f:
                f.write(c.mlir())
        with open(os.path.join(a.emit_mlir, "configs.json"), "w") as f:
            json.dump({"set": a.set, "configs": [c.to_dict() for c in cfgs]}, f, indent=1)
    if a.list or not a.emit_mlir:
        for c in cfgs:
            print(f"{c.name:55s} out {c.N}x{c.OH}x{c.OW}x{c.C}  "
                  f"{c.bytes_moved() / 1e6:9.1f} MB  {c.flops() / 1e9:9.1f} GFLOP  floor {c.floor_ms():8.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
