"""Issue 20 forward / backward-data sweep (s15): kernels of the layer-set rows
the forward families lose or barely win on, with configuration variants
written on the ops (bench/stride_configs.py layers; --kernel-like forcing per
group of rows). One variant tag holds one configuration per row group, so
that one harness run times every group's variants side by side.

Groups (forward only: backward data is the same kernel on the rotated
filter):
  A  16-bit 5x5 stride 1 at batch 32 / 64 (#dwc.row_tile variants)
  B  f32 3x3 stride 1 on 14 x 14 / 7 x 7 maps at batch 64
  C  16-bit stride 2 (#dwc.strided_forward variants)
  D  batch-1 stride-1 forwards (one output vector per thread and neighbours)

    python3 bench/fw_s15/sweep_kernels.py sweep --out-root /work/main/.carry/s15fw
    python3 bench/fw_s15/sweep_kernels.py list
    python3 bench/fw_s15/sweep_kernels.py final --only-list CHANGED.txt \
        --old-aot /work/ptx/dwc-aot-s15base --out-root /work/main/.carry/s15fw

final: the forward and backward-data kernels of the layers whose selection
changed (bench/selection_diff.py --only-list) with this compiler (after)
and the baseline's (before), plus the odd shapes (correctness), the brief's
rows first; backward filter is not built (not this work's family).
"""

import argparse
import dataclasses
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from aot_build import build_objects  # noqa: E402
from stride_configs import OpConfig, get_set, odd_set  # noqa: E402

A_KEYS = ["n64h28w28c240_f5_s1", "n64h14w14c480_f5_s1", "n64h14w14c672_f5_s1",
          "n64h7w7c1152_f5_s1", "n32h56w56c128_f5_s1", "n32h28w28c256_f5_s1",
          "n32h14w14c512_f5_s1", "n32h7w7c1024_f5_s1", "n32h56w56c96_f5_s1",
          "n32h28w28c192_f5_s1", "n32h14w14c384_f5_s1", "n32h7w7c768_f5_s1"]
A_BF16 = ["n64h28w28c240_f5_s1", "n64h14w14c672_f5_s1", "n32h56w56c128_f5_s1",
          "n32h14w14c384_f5_s1"]
B_KEYS = ["n64h14w14c384_f3_s1", "n64h14w14c480_f3_s1", "n64h14w14c576_f3_s1",
          "n64h7w7c960_f3_s1", "n64h7w7c1152_f3_s1"]
C_KEYS = ["n64h112w112c96_f3_s2", "n64h14w14c576_f3_s2", "n64h56w56c144_f3_s2",
          "n64h28w28c240_f5_s2"]
D_F32 = ["n1h112w112c32_f3_s1", "n1h56w56c144_f3_s1", "n1h28w28c192_f3_s1",
         "n1h14w14c384_f3_s1", "n1h14w14c480_f3_s1", "n1h14w14c576_f3_s1",
         "n1h14w14c480_f5_s1", "n1h14w14c672_f5_s1", "n1h7w7c1152_f5_s1"]
D_F16 = ["n1h28w28c256_f5_s1", "n1h28w28c192_f5_s1", "n1h7w7c960_f3_s1",
         "n1h14w14c384_f3_s1"]


def rt(v, r, c, mb=0, filt="registers"):
    s = f'#dwc.row_tile<channels = {v}, rows = {r}, columns = {c}, filter = "{filt}"'
    return s + (f", min_blocks_per_sm = {mb}>" if mb else ">")


def sf(v, r, c):
    return f"#dwc.strided_forward<channels = {v}, rows = {r}, columns = {c}>"


# tag -> group -> configuration (a function of the layer for D: vector width).
VARIANTS = {
    "v1": {"A": rt(2, 8, 4, 2), "B": rt(2, 4, 8), "C": sf(8, 1, 4),
           "D": lambda L: rt(vw(L), 1, 1)},
    "v2": {"A": rt(2, 4, 4, 2), "B": rt(2, 7, 7), "C": sf(8, 1, 2),
           "D": lambda L: rt(vw(L), 2, 1)},
    "v3": {"A": rt(2, 7, 2, 2), "B": rt(4, 7, 2), "C": sf(4, 2, 4),
           "D": lambda L: rt(vw(L), 1, 2)},
    "v4": {"A": rt(2, 14, 2, 2), "B": rt(1, 7, 7), "C": sf(4, 1, 8),
           "D": lambda L: rt(2 * vw(L), 1, 1)},
    "v5": {"A": rt(2, 16, 1, 3), "B": rt(2, 14, 2), "C": sf(2, 1, 4),
           "D": lambda L: rt(4 * vw(L), 1, 1)},
    "v6": {"A": rt(2, 7, 7, 2), "B": "#dwc.plane<>", "C": sf(8, 2, 2),
           "D": lambda L: "#dwc.full_row<>"},
    "v7": {"A": rt(2, 8, 2), "B": rt(2, 7, 7, 2), "C": sf(4, 1, 2)},
    "v8": {"A": rt(2, 7, 1, 3), "B": rt(2, 4, 8, 2)},
    "v9": {"A": "#dwc.plane<>"},
}


def vw(L):
    return 1 if L.dtype == "f32" else 2


def groups():
    """(group, layer) of every row of the sweep, forward only."""
    net = get_set("net")
    # (Forward only: the harness then times PyTorch's forward alone.)
    pick = lambda keys, dts: [dataclasses.replace(l, ops=["fwd"]) for l in net
                              if l.dtype in dts
                              and any(l.key.startswith(k + "x") for k in keys)]
    out = [("A", l) for l in pick(A_KEYS, ("f16",))]
    out += [("A", l) for l in pick(A_BF16, ("bf16",))]
    out += [("B", l) for l in pick(B_KEYS, ("f32",))]
    out += [("C", l) for l in pick(C_KEYS, ("f16", "bf16"))]
    out += [("D", l) for l in pick(D_F32, ("f32",))]
    out += [("D", l) for l in pick(D_F16, ("f16",))]
    return out


FINAL_OPS = ["fwd", "bwd_data"]


def final_layers(only_list):
    keys = [k for k in open(only_list).read().replace("\n", ",").split(",") if k]
    net = {l.key: l for l in get_set("net")}
    first = {l.key for _, l in groups()}
    ordered = sorted(keys, key=lambda k: (k not in first, keys.index(k)))
    pick = [net[k] for k in ordered]
    pick += odd_set()
    return [dataclasses.replace(l, ops=[o for o in l.ops if o in FINAL_OPS]) for l in pick]


def final(a):
    layers = final_layers(a.only_list)
    for side, aot in (("after", a.aot), ("before", a.old_aot)):
        tag = "" if side == "after" else "before"
        cfgs = [OpConfig(l, op, tag) for l in layers for op in l.ops]
        n = build_objects(cfgs, "s15fw-final", "stride", aot,
                          os.path.join(a.out_root, "stride_" + side), a.j, "stride_" + side)
        print(f"{side}: {n}/{len(cfgs)}")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=["sweep", "list", "final"])
    ap.add_argument("--only-list", default="")
    ap.add_argument("--old-aot", default="/work/ptx/dwc-aot-s15base")
    ap.add_argument("--out-root", default="/work/main/.carry/s15fw")
    ap.add_argument("--aot", default="build/bin/dwc-aot")
    ap.add_argument("--tags", default=",".join(VARIANTS))
    ap.add_argument("-j", type=int, default=2)
    a = ap.parse_args()
    if a.what == "final":
        return final(a)
    rows = groups()
    if a.what == "list":
        for g, l in rows:
            print(g, l.key)
        return 0
    # The current selection on the sweep's rows (and the odd shapes: correctness).
    after = [OpConfig(l, "fwd", "") for _, l in rows]
    n = build_objects(after, "s15fw", "stride", a.aot,
                      os.path.join(a.out_root, "stride_after"), a.j, "stride_after")
    print(f"after: {n}/{len(after)}")
    for tag in [t for t in a.tags.split(",") if t]:
        cfgs = []
        for g, l in rows:
            k = VARIANTS[tag].get(g)
            if k is None:
                continue
            k = k(l) if callable(k) else k
            cfgs.append(OpConfig(l, "fwd", tag, kernel=k))
        n = build_objects(cfgs, "s15fw", "stride", a.aot,
                          os.path.join(a.out_root, "stride_" + tag), a.j, "stride_" + tag)
        print(f"{tag}: {n}/{len(cfgs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
