#!/usr/bin/env python3
"""Issue 20, forward / backward data on narrow maps: builds the kernels of a
device run of bench/stride_harness.py (bench/results/2026-12-01-full-row-*).

Under --out-root:
  stride_after   this checkout's selection (every op of each layer)
  stride_before  main's selection (--base-aot), the same layers
  stride_<tag>   forward (at batch > 1 also backward-data) variants
Layers: batch-1 forwards of 3x3 / 5x5 / 7x7 filters on 7..56 maps (f32,
f16), filters larger than the map at batch 1 (f32, f16, bf16) and 32 (f32,
f16); plus odd shapes (correctness only, every variant that fits them): C =
12 / 24 / 6, W < FW, odd H and W, N = 1, filters larger than the map,
asymmetric padding.

    python3 bench/small_maps/full_row_kernels.py sweep --out-root .carry/fw
    python3 bench/small_maps/full_row_kernels.py final --only-list F --out-root .carry/fw
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from aot_build import build_objects  # noqa: E402
from stride_configs import Layer, OpConfig, get_set, select  # noqa: E402

SMALL = ("n1h14w14c576_f3_,n1h14w14c480_f3_,n1h14w14c384_f3_,n1h28w28c192_f3_,n1h56w56c144_f3_,"
         "n1h7w7c1152_f3_,n1h7w7c960_f3_,n1h14w14c384_f5_,n1h14w14c480_f5_,n1h14w14c512_f5_,"
         "n1h14w14c672_f5_,n1h28w28c192_f5_,n1h28w28c240_f5_,n1h28w28c256_f5_,n1h56w56c96_f5_,"
         "n1h56w56c128_f5_,n1h7w7c1152_f5_,n1h7w7c768_f5_,n1h7w7c1024_f5_,n1h14w14c384_f7_,"
         "n1h14w14c512_f7_,n1h7w7c1024_f7_,n1h7w7c768_f7_,n1h28w28c192_f7_")
LARGE = ("h7w7c1024_f13_,h14w14c384_f47x5_,h14w14c384_f5x47_,h14w14c512_f27_,h7w7c768_f13x5_,"
         "h7w7c768_f5x13_,h28w28c256_f29_,h28w28c192_f49x5_,h28w28c192_f5x49_")


def odd_layers():
    L = lambda *a, **k: Layer(*a, stride=[1, 1], odd=True, **k)
    return [
        L(1, 7, 7, 12, [13, 13], "f16"),                          # filter > map
        L(2, 5, 6, 24, [11, 11], "bf16"),
        L(1, 9, 7, 6, [13, 3], "f32"),                            # tall, W odd
        L(1, 7, 5, 12, [3, 13], "f16", padding=[1, 1, 6, 5]),    # wide, asymmetric
        L(1, 13, 11, 24, [3, 3], "f32"),                          # odd H/W
        L(1, 10, 3, 12, [5, 7], "bf16"),                          # W < FW
        L(3, 14, 14, 12, [27, 27], "f32"),
        L(1, 15, 13, 24, [5, 5], "f16", padding=[0, 4, 3, 1]),
    ]


def layers(only):
    return [l for l in select(get_set("s1"), only)]


def keep(ls, dtypes, n=None):
    return [l for l in ls if l.dtype in dtypes and (n is None or l.N == n)]


def sweep_sets():
    small = keep(layers(SMALL), ("f32", "f16"))
    large = layers(",".join(f"n1{s}" for s in LARGE.split(","))) + \
        keep(layers(",".join(f"n32{s}" for s in LARGE.split(","))), ("f32", "f16"))
    odd = odd_layers()
    s32 = keep(small, ("f32",))
    s16 = keep(small, ("f16",))
    variants = [
        ("fr", "#dwc.full_row<>", s32 + s16 + odd),
        ("fru1", "#dwc.full_row<unroll = 1>", s32 + large + odd),
        ("fru4", "#dwc.full_row<unroll = 4>", large + odd),
        ("frt256", "#dwc.full_row<threads = 256>", s32),
        ("frc2", "#dwc.full_row<channels = 2>", s32 + keep(large, ("f32",)) + keep(odd, ("f32", "f16", "bf16"))),
        ("frc4", "#dwc.full_row<channels = 4>", s16 + keep(large, ("f16", "bf16"))
         + [l for l in odd if l.C % 4 == 0 and l.dtype != "f32"]),
        ("rt122", "#dwc.row_tile<channels = 1, rows = 2, columns = 2>", s32),
        ("rt124", "#dwc.row_tile<channels = 1, rows = 2, columns = 4>", s32),
    ]
    return small + large + odd, variants


def fits(layer, cfg):
    """Whether a forced configuration can take the layer (the full-row
    register budget, the row tiles' 49 taps)."""
    if "full_row" in cfg:
        v = 4 if "channels = 4" in cfg else 2 if "channels = 2" in cfg else (1 if layer.dtype == "f32" else 2)
        return (layer.OW + layer.W) * v <= 128 and layer.C % v == 0
    return layer.F[0] * layer.F[1] <= 49


def build(ls, tag, out, aot, cfg="", ops_filter=None):
    cfgs = []
    for l in ls:
        for op in l.ops:
            if op == "bwd_filter" and (cfg or ops_filter):
                continue
            if cfg and not fits(l, cfg):
                continue
            cfgs.append(OpConfig(l, op, tag, (), cfg))
    n = build_objects(cfgs, "s1", "stride", aot, out, 2, "stride_" + (tag or "after"))
    print(f"{tag or 'after'}: {n}/{len(cfgs)} kernels built", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=("sweep", "final"))
    ap.add_argument("--out-root", default=".carry/fw")
    ap.add_argument("--aot", default="build/bin/dwc-aot")
    ap.add_argument("--base-aot", default="/work/main/build/bin/dwc-aot")
    ap.add_argument("--only-list", default="", help="final: the changed layers (selection_diff.py)")
    ap.add_argument("--skip", default="", help="sides not to rebuild (after,before,TAG...)")
    a = ap.parse_args()
    skip = set(a.skip.split(","))
    if a.what == "sweep":
        ls, variants = sweep_sets()
    else:
        ls = layers(open(a.only_list).read().strip()) + odd_layers()
        wide = [l for l in ls if max(l.F) > min(l.H, l.W) or l.odd]
        variants = [("fru1", "#dwc.full_row<unroll = 1>", wide),
                    ("frc4", "#dwc.full_row<channels = 4>",
                     [l for l in wide if l.dtype != "f32" and l.C % 4 == 0])]
    out = lambda tag: os.path.join(a.out_root, "stride_" + tag)
    if "after" not in skip:
        build(ls, "", out("after"), a.aot)
    if "before" not in skip:
        build([l for l in ls if not l.odd], "before", out("before"), a.base_aot)
    for tag, cfg, vl in variants:
        if tag not in skip:
            build(vl, tag, out(tag), a.aot, cfg)
    return 0


if __name__ == "__main__":
    sys.exit(main())
