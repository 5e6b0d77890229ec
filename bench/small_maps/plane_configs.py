"""Kernels of the small-map work (issue 20, plane kernel): bench/stride_configs.py
layers with a dwc.kernel configuration per layer, for bench/stride_harness.py.

    python3 bench/small_maps/plane_configs.py main --out .carry/f20/stride_after
        (the ConvNeXt stride-1 7x7 layers, fwd + dX, current selection; and
        odd shapes, fwd + dX, with a partial #dwc.plane<> the selector completes)
    python3 bench/small_maps/plane_configs.py variant --tag p1 \\
        --kernel '#dwc.plane<channels = 1, rows = 2>' --out .carry/f20/stride_p1
        (the small-map ConvNeXt layers with that configuration on fwd and dX)
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from aot_build import build_objects  # noqa: E402
from stride_configs import Layer, OpConfig, s1_set  # noqa: E402

CONVNEXT = [l for l in s1_set() if "convnext" in l.net]


def small(dtypes):
    return [l for l in CONVNEXT if l.H <= 28 and l.dtype in dtypes]


def odd_layers():
    """C = 12 / 24, W < FW, odd H / W, N = 1, asymmetric padding, 3 dtypes."""
    L = lambda *a, **k: Layer(*a, stride=[1, 1], odd=True, ops=["fwd", "bwd_data"], **k)
    return [
        L(2, 14, 14, 12, [7, 7], "f16"),
        L(1, 7, 7, 24, [7, 7], "bf16"),
        L(3, 9, 5, 24, [7, 7], "f32"),                        # W < FW
        L(1, 13, 11, 12, [7, 7], "f16"),                      # odd H, W
        L(2, 15, 9, 40, [5, 5], "f16"),
        L(1, 5, 3, 12, [3, 3], "bf16"),                       # W = FW
        L(2, 11, 13, 20, [7, 7], "f32", padding=[2, 4, 3, 1]),  # asymmetric
        L(1, 28, 28, 24, [7, 7], "f16"),
        L(4, 7, 7, 36, [7, 7], "f16"),
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=["main", "variant"])
    ap.add_argument("--tag", default="")
    ap.add_argument("--kernel", default="")
    ap.add_argument("--dtypes", default="f16,f32")
    ap.add_argument("--odd-kernel", default="#dwc.plane<>")
    ap.add_argument("--all-maps", action="store_true", help="main: 56 x 56 too")
    ap.add_argument("--aot", default="build/bin/dwc-aot")
    ap.add_argument("--out", required=True)
    ap.add_argument("-j", type=int, default=2)
    a = ap.parse_args()
    dtypes = a.dtypes.split(",")
    if a.what == "main":
        layers = CONVNEXT if a.all_maps else small(dtypes)
        cfgs = [OpConfig(l, op, "") for l in layers if l.dtype in dtypes for op in l.ops
                if op != "bwd_filter"]
        cfgs += [OpConfig(l, op, "", kernel=a.odd_kernel) for l in odd_layers() for op in l.ops]
    else:
        cfgs = [OpConfig(l, op, a.tag, kernel=a.kernel) for l in small(dtypes) for op in l.ops
                if op != "bwd_filter"]
    n = build_objects(cfgs, "small_maps", "stride", a.aot, a.out, a.j,
                      "stride_" + (a.tag or "after"))
    print(f"{n}/{len(cfgs)} kernels built into {a.out}")
    return 0 if n == len(cfgs) else 1


if __name__ == "__main__":
    sys.exit(main())
