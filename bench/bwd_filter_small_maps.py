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


def image(channels=0, rows=0, units=0):
    def cfg(L):
        f = [f"{k} = {v}" for k, v in (("channels", channels), ("rows", rows),
                                        ("units", units)) if v]
        return "#dwc.bwd_filter_image<" + ", ".join(f) + ">"
    return cfg


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
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default=CONVNEXT)
    ap.add_argument("--dtypes", default="f16,bf16,f32")
    ap.add_argument("--variants", default="")
    ap.add_argument("--base", action="store_true", help="also the current selection")
    ap.add_argument("--odd", action="store_true", help="add the odd shapes")
    ap.add_argument("--aot", default="build/bin/dwc-aot")
    ap.add_argument("--out-root", default=".carry/bwf")
    ap.add_argument("-j", type=int, default=2)
    a = ap.parse_args()
    dts = a.dtypes.split(",")
    layers = [L for L in select(get_set("s1"), a.only)
              if L.N > 1 and L.dtype in dts]
    if a.odd:
        layers += odd_layers()
    sides = ([("after", None)] if a.base else []) + \
            [(v, VARIANTS[v]) for v in a.variants.split(",") if v]
    ok = True
    dirs = []
    for tag, cfg in sides:
        out = os.path.join(a.out_root, "stride_" + tag)
        cfgs = [OpConfig(L, "bwd_filter", "" if cfg is None else tag, (),
                         "" if cfg is None else cfg(L)) for L in layers]
        n = build_objects(cfgs, "s1", "stride", a.aot, out, a.j, "stride_" + tag)
        print(f"{tag}: {n}/{len(cfgs)} kernels built into {out}")
        ok &= n == len(cfgs)
        if cfg is not None:
            dirs.append(out)
    print("variant dirs:", " ".join(f"--variant-dir {d}" for d in dirs))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
