"""Backward-filter (dW) variants of the stride-1 7x7 ConvNeXt layers (issue
20): kernels of dwc-aot with a dwc.kernel configuration that may depend on
the layer (e.g. slices from rows per slice), for bench/stride_harness.py
(--variant-dir). Pure Python (no torch).

    python3 bench/bwd_filter_small_maps.py --variants tw7,tw7r4 \\
        --out-root .carry/bwf
builds .carry/bwf/stride_<variant>/ for every variant (plus the current
selection into .carry/bwf/stride_after with --base) and prints the
harness command line.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from aot_build import build_objects  # noqa: E402
from stride_configs import Layer, OpConfig, get_set, select  # noqa: E402

CONVNEXT = "h56w56c96_f7,h28w28c192_f7,h14w14c384_f7,h7w7c768_f7," \
           "h56w56c128_f7,h28w28c256_f7,h14w14c512_f7,h7w7c1024_f7"


def split_z(tw, rows_per_slice=0, warp_slices=0):
    def cfg(L):
        f = [f"tile_width = {tw}"]
        if rows_per_slice:
            f.append(f"z = {max(1, L.N * L.OH // rows_per_slice)}")
        if warp_slices:
            f.append(f"warp_slices = {warp_slices}")
        return "#dwc.bwd_filter_split_z<" + ", ".join(f) + ">"
    return cfg


def divisor_channels(L, lo=32, hi=64):
    """The channels per block in [lo, hi] that divide C (no masked channel
    group), multiples of 16; the largest, else 0."""
    fits = [c for c in range(16, hi + 1, 16) if c >= lo and L.C % c == 0]
    return fits[-1] if fits else 0


def image(channels=0, rows=0, units=0, threads=0, row_div=0, budget=0,
          copy="", divisor=False):
    """threads: column segments for about that many threads per block
    (segments x FH x channels / 2); row_div: the default strip's rows / it
    (the selector's 48 KB strip, image_rows); budget: the rows of a strip
    of at most that many bytes of shared memory; copy: the copy mode
    ("async": two strip buffers); divisor: channels per block that divide C
    (divisor_channels, else `channels`)."""
    def cfg(L):
        ch = (divisor_channels(L) or channels) if divisor else channels
        return image_cfg(L, ch, rows, units, threads, row_div, budget, copy)
    return cfg


def image_cfg(L, channels, rows, units, threads, row_div, budget, copy):
    if True:
        cb = channels or (16 if L.dtype == "f32" else 32)
        seg = 0
        if threads:
            seg = max(1, min(64, L.OW, -(-threads // (L.F[0] * cb // 2))))
            while seg > 1 and seg * L.F[0] * cb // 2 > 1024:
                seg -= 1
        r = rows or (max(1, image_rows(L, cb) // row_div) if row_div else 0)
        r = r or (image_rows(L, cb, budget) if budget else 0)
        f = [f"{k} = {v}" for k, v in (("channels", channels), ("rows", r),
                                        ("units", units), ("segments", seg)) if v]
        if copy:
            f.append(f'copy = "{copy}"')
        return "#dwc.bwd_filter_image<" + ", ".join(f) + ">"


def image_rows(L, cb, budget=48 * 1024):
    """The selector's default strip rows (imageRows): the most whose shared
    memory fits `budget`."""
    es = {"f32": 4, "f16": 2, "bf16": 2}[L.dtype]
    x_row = L.W * cb * es
    x_row += (64 - x_row % 128 + 128) % 128
    dy_row = L.OW * cb * es
    best = 1
    for r in range(1, L.OH + 1):
        if min((r - 1) * L.stride[0] + L.F[0], L.H) * x_row + r * dy_row <= budget:
            best = r
    return best


def taps(vector=0, columns=0, rows=0, threads=0, unroll=0, prefetch=0,
         min_blocks=0, dtypes=""):
    """#dwc.bwd_filter_taps (a thread owns all taps of a channel vector over
    a band of `rows` x `columns` outputs); vector = 0: the selector's
    (128 bits where the registers fit); unroll: steps per row-loop
    iteration; prefetch: the next step's loads before a step's FMAs;
    min_blocks: min_blocks_per_sm (ptxas register cap); dtypes: the element
    types it takes (empty: all); layers the kernel does not take (stride >
    1, C not a multiple of 128 bits, too many registers) keep their current
    selection."""
    def cfg(L):
        bits = 32 if L.dtype == "f32" else 16
        cols = columns or 2
        v = vector or 128 // bits
        extra = (2 * cols + L.F[1] - 1) if prefetch else 0
        vals = lambda v: (L.F[0] * L.F[1] + L.F[0] * cols + cols + L.F[1] - 1
                          + extra) * v
        if not vector and vals(v) > 192:
            v //= 2
        if (list(L.stride) != [1, 1] or L.C % (128 // bits) or vals(v) > 192
                or v * bits not in (64, 128)
                or (dtypes and L.dtype not in dtypes.split(","))):
            return ""
        f = [f"{k} = {x}" for k, x in (("vector", vector), ("columns", columns),
                                        ("rows", rows), ("threads", threads),
                                        ("unroll", unroll), ("prefetch", prefetch),
                                        ("min_blocks_per_sm", min_blocks)) if x]
        return "#dwc.bwd_filter_taps<" + ", ".join(f) + ">"
    return cfg


def taps_name(name):
    """taps() of a name t<columns>r<rows>[v<vector>][u<unroll>][p][o<min
    blocks per SM>][h<threads>] (e.g. t2r16pu1o3)."""
    import re
    m = re.fullmatch(r"t(\d+)r(\d+)(?:v(\d+))?(?:u(\d+))?(p)?(?:o(\d+))?(?:h(\d+))?"
                     r"(?:_(f32|16))?", name)
    if not m:
        return None
    c, r, v, u, p, o, h, dt = m.groups()
    dtypes = {"f32": "f32", "16": "f16,bf16"}.get(dt or "", "")
    return taps(vector=int(v or 0), columns=int(c), rows=int(r),
                threads=int(h or 0), unroll=int(u or 0), prefetch=1 if p else 0,
                min_blocks=int(o or 0), dtypes=dtypes)


VARIANTS = {
    "tw7": split_z(7),
    "tw7r2": split_z(7, 2),
    "tw7r4": split_z(7, 4),
    "tw7r8": split_z(7, 8),
    "tw7r16": split_z(7, 16),
    "tw6r4": split_z(6, 4),
    "tw7r4w1": split_z(7, 4, 1),
    "img": image(),
    "imgr7": image(rows=7),
    "img64": image(channels=64),
    "img16": image(channels=16),
    "imgu2": image(units=2),
    "imgu4": image(units=4),
    "is128": image(threads=128),
    "is256": image(threads=256),
    "is512": image(threads=512),
    "is256r2": image(threads=256, row_div=2),
    "is512r2": image(threads=512, row_div=2),
    "i16s256": image(channels=16, threads=256),
    "i64s256": image(channels=64, threads=256),
    "is256b96": image(threads=256, budget=96 * 1024),
    "i16s256b96": image(channels=16, threads=256, budget=96 * 1024),
    # cp.async double-buffered strips (copy = "async"; two buffers)
    "a": image(copy="async"),
    "ar2": image(row_div=2, copy="async"),
    "a64s256": image(channels=64, threads=256, copy="async"),
    "a64s256r2": image(channels=64, threads=256, row_div=2, copy="async"),
    "a32s256": image(channels=32, threads=256, copy="async"),
    "ads256": image(threads=256, copy="async", divisor=True),
    "ds256": image(threads=256, divisor=True),
    "ads256r2": image(threads=256, row_div=2, copy="async", divisor=True),
    # register kernel (#dwc.bwd_filter_taps): t<columns>r<rows>[v<vector>]
    "t1r8": taps(columns=1, rows=8),
    "t2r8": taps(columns=2, rows=8),
    "t1r8v4": taps(vector=4, columns=1, rows=8),
    "t2r8v4": taps(vector=4, columns=2, rows=8),
    "t4r8v4": taps(vector=4, columns=4, rows=8),
    "t2r16v4": taps(vector=4, columns=2, rows=16),
    "t4r16v4": taps(vector=4, columns=4, rows=16),
    "t2r32v4": taps(vector=4, columns=2, rows=32),
}


def odd_layers():
    """Correctness-only shapes of the small-map kernels: C = 12 / 24 (not a
    multiple of the block's channels), W < FW, odd H/W, N = 1."""
    L = lambda *a, **k: Layer(*a, stride=[1, 1], odd=True, ops=["bwd_filter"], **k)
    return [
        L(3, 7, 5, 24, [7, 7], "f16"),
        L(1, 13, 11, 24, [7, 7], "bf16"),
        L(2, 9, 3, 12, [7, 7], "f32"),
        L(1, 14, 14, 40, [7, 7], "f16"),
        L(5, 15, 9, 24, [5, 5], "f16"),
        L(2, 7, 7, 72, [7, 7], "bf16", padding=[3, 2, 1, 3]),
        # stride 2 and 3, filters taller / wider than the map, N = 1
        Layer(3, 15, 13, 24, [3, 3], "f16", [2, 2], odd=True, ops=["bwd_filter"]),
        Layer(1, 17, 9, 12, [5, 5], "bf16", [2, 2], odd=True, ops=["bwd_filter"]),
        Layer(2, 14, 16, 16, [3, 3], "f32", [3, 3], [1, 1, 1, 1], odd=True,
              ops=["bwd_filter"]),
        Layer(2, 7, 7, 24, [13, 5], "f16", [1, 1], odd=True, ops=["bwd_filter"]),
        Layer(1, 7, 5, 40, [5, 13], "bf16", [1, 1], odd=True, ops=["bwd_filter"]),
        Layer(2, 21, 19, 24, [3, 3], "f16", [1, 1], odd=True, ops=["bwd_filter"]),
        # the register (taps) kernel: partial row bands and width chunks,
        # narrow channel groups, W < FW, asymmetric padding, N = 1
        L(3, 17, 19, 24, [3, 3], "f16"),
        L(1, 13, 11, 12, [5, 5], "f32"),
        L(2, 9, 3, 16, [5, 5], "bf16"),
        L(2, 30, 29, 40, [3, 3], "bf16", padding=[0, 1, 1, 0]),
        L(4, 57, 57, 48, [3, 3], "f16"),
        L(2, 20, 130, 8, [3, 3], "f32"),
        L(1, 33, 35, 72, [5, 5], "f16", padding=[1, 2, 2, 1]),
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default=CONVNEXT)
    ap.add_argument("--set", default="s1", help="s1 (stride 1) or net (s1 + stride 2)")
    ap.add_argument("--dtypes", default="f16,bf16,f32")
    ap.add_argument("--variants", default="")
    ap.add_argument("--base", action="store_true", help="also the current selection")
    ap.add_argument("--odd", action="store_true", help="add the odd shapes")
    ap.add_argument("--aot", default="build/bin/dwc-aot")
    ap.add_argument("--out-root", default=".carry/bwf")
    ap.add_argument("-j", type=int, default=2)
    a = ap.parse_args()
    dts = a.dtypes.split(",")
    layers = [L for L in select(get_set(a.set), a.only)
              if L.N > 1 and L.dtype in dts]
    if a.odd:
        layers += odd_layers()
    sides = ([("after", None)] if a.base else []) + \
            [(v, VARIANTS.get(v) or taps_name(v)) for v in a.variants.split(",") if v]
    unknown = [v for v, cfg in sides if v != "after" and cfg is None]
    if unknown:
        raise SystemExit(f"unknown variants: {unknown}")
    ok = True
    dirs = []
    for tag, cfg in sides:
        out = os.path.join(a.out_root, "stride_" + tag)
        # (A variant that does not take a layer, cfg(L) == "", skips it.)
        cfgs = [OpConfig(L, "bwd_filter", "" if cfg is None else tag, (),
                         "" if cfg is None else cfg(L)) for L in layers
                if cfg is None or cfg(L)]
        n = build_objects(cfgs, "s1", "stride", a.aot, out, a.j, "stride_" + tag)
        print(f"{tag}: {n}/{len(cfgs)} kernels built into {out}")
        ok &= n == len(cfgs)
        if cfg is not None:
            dirs.append(out)
    print("variant dirs:", " ".join(f"--variant-dir {d}" for d in dirs))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
