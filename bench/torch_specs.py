#!/usr/bin/env python3
"""Layer specs of the PyTorch-binding check (bench/torch_check.py), by tag:
gradcheck (float64, small odd shapes), grid (the issue's benchmark shapes,
f32/f16, F in {3,7,13,31,51}), train (the depthwise layers of the training
network). Compiles them with dwc_torch.aot and writes tags.json beside the
manifest:

    python3 bench/torch_specs.py --aot /work/builds/X/bin/dwc-aot \\
        --out .carry/torch_kernels [--only gradcheck,train,grid] [--grid-filters 3,7] [-j 2]
"""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
from dwc_torch import aot  # noqa: E402
from dwc_torch.spec import parse_spec  # noqa: E402

GRADCHECK = [
    "2,5,9,8,3,2,1x2x0x1,1,f64,bias",     # C=5, 3x3, stride 2, asymmetric padding
    "2,5,7,9,5x7,1,2x3,1,f64,bias",       # C=5, 5x7 filter
    "1,5,11,10,3,2,2,2,f64,nobias",       # stride 2 + dilation 2
    "2,6,8,7,5x7,2,1x3x2x4,1,f64,bias",   # C=6 (2 x f64 per thread), 5x7, stride 2, asym.
]
GRID_SHAPES = [(128, 256, 64, 64), (128, 1024, 32, 32)]   # N, C, H, W
GRID_FILTERS = [3, 7, 13, 31, 51]
TRAIN = [
    "64,64,32,32,7,1,3,1,f32,bias",
    "64,128,16,16,13,1,6,1,f32,bias",
]


def specs(only, filters):
    out = []
    if "gradcheck" in only:
        out += [(parse_spec(s), "gradcheck") for s in GRADCHECK]
    if "train" in only:
        out += [(parse_spec(s), "train") for s in TRAIN]
    if "grid" in only:
        for (n, c, h, w) in GRID_SHAPES:
            for dt in ("f32", "f16"):
                for f in filters:
                    out.append((parse_spec("%d,%d,%d,%d,%d,1,%d,1,%s,nobias" %
                                           (n, c, h, w, f, f // 2, dt)), "grid"))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--aot", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", default="gradcheck,train,grid")
    ap.add_argument("--grid-filters", default=",".join(map(str, GRID_FILTERS)))
    ap.add_argument("-j", type=int, default=2)
    args = ap.parse_args()
    tagged = specs(args.only.split(","), [int(f) for f in args.grid_filters.split(",")])
    keep = {s.func_name(op) for s, _ in tagged for op in aot.OPS}
    if os.path.isdir(args.out):
        for f in os.listdir(args.out):
            stem, ext = os.path.splitext(f)
            if ext in (".mlir", ".o", ".h", ".log") and stem not in keep:
                os.remove(os.path.join(args.out, f))
    m = aot.build([s for s, _ in tagged], args.aot, args.out, args.j)
    with open(os.path.join(args.out, "tags.json"), "w") as fh:
        json.dump({s.key: t for s, t in tagged}, fh, indent=1)
    failed = [o["symbol"] for s in m["specs"] for o in s["ops"].values() if o["error"]]
    size = sum(os.path.getsize(os.path.join(args.out, f)) for f in os.listdir(args.out))
    print("torch_specs: %d specs, %d objects failed, %.1f s, %d KiB" % (
        len(tagged), len(failed), m["build_s"], size // 1024))
    for f in failed:
        print("  FAILED", f)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
