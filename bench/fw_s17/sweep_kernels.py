"""Issue 20 stride-1 forward / backward-data sweep (s17): the 3x3 and 5x5
layers at training batch (64 / 32) that miss the per-layer floor, with
configuration variants of the existing families written on the ops
(bench/stride_configs.py layers). One variant tag holds one configuration
per row group, so one harness run times every group's variants side by
side; forward and backward data (the same kernel on the rotated filter)
are both built.

Groups:
  P3  16-bit 3x3 on 14 x 14 maps (row tiles 4 x 4 x 64 bits now)
  S3  16-bit 3x3 on 7 x 7 maps (the same tile)
  L3  16-bit 3x3 on 28 / 56 / 112 maps (the same tile)
  F3  f32 3x3 on 14 x 14 / 7 x 7 maps (4 x 8 x 64 bits now)
  G3  f32 3x3 on 28 / 56 / 112 maps (the same tile)
  H5  16-bit 5x5 on maps of at most 14 rows (#dwc.plane<> now)
  M5  16-bit 5x5 on 28 x 28 maps (4 x 4 x 32 bits, 2 blocks per SM)
  B5  16-bit 5x5 on 56 x 56 maps (8 x 4 x 32 bits, 2 blocks per SM)
  F5  f32 5x5 on maps of at most 14 rows (GEMV / 8 x 8 x 32 bits now)

    python3 bench/fw_s17/sweep_kernels.py list
    python3 bench/fw_s17/sweep_kernels.py regs          # ptxas of every variant (one layer per group)
    python3 bench/fw_s17/sweep_kernels.py sweep --out-root /work/main/.carry/s17fw

The odd shapes (stride_configs.odd_set) are built with partial
configurations of every variant's tile shape (channels left to the
selector; those that do not fit an odd shape do not build): correctness.
"""

import argparse
import dataclasses
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
from aot_build import build_objects  # noqa: E402
from stride_configs import Layer, OpConfig, get_set  # noqa: E402

OPS = ["fwd", "bwd_data"]


def rt(v, r, c, mb=0):
    s = f'#dwc.row_tile<channels = {v}, rows = {r}, columns = {c}, filter = "registers"'
    return s + (f", min_blocks_per_sm = {mb}>" if mb else ">")


def pl(**f):
    return "#dwc.plane<" + ", ".join(f"{k} = {v}" for k, v in f.items()) + ">"


# (group, layer keys without the dtype, dtypes)
GROUPS = {
    "P3": (["n64h14w14c384_f3", "n64h14w14c480_f3", "n64h14w14c576_f3"], ("f16", "bf16")),
    "S3": (["n64h7w7c960_f3", "n64h7w7c1152_f3"], ("f16", "bf16")),
    "F3": (["n64h14w14c384_f3", "n64h14w14c480_f3", "n64h14w14c576_f3",
            "n64h7w7c960_f3", "n64h7w7c1152_f3"], ("f32",)),
    "H5": (["n64h14w14c480_f5", "n64h14w14c672_f5", "n64h7w7c1152_f5", "n32h14w14c512_f5",
            "n32h14w14c384_f5", "n32h7w7c1024_f5", "n32h7w7c768_f5"], ("f16", "bf16")),
    "F5": (["n64h14w14c480_f5", "n64h14w14c672_f5", "n64h7w7c1152_f5", "n32h14w14c512_f5",
            "n32h14w14c384_f5", "n32h7w7c1024_f5", "n32h7w7c768_f5"], ("f32",)),
    "M5": (["n64h28w28c240_f5", "n32h28w28c256_f5", "n32h28w28c192_f5"], ("f16", "bf16")),
    "B5": (["n32h56w56c128_f5", "n32h56w56c96_f5"], ("f16", "bf16")),
    "L3": (["n64h112w112c32_f3", "n64h56w56c144_f3", "n64h28w28c192_f3"], ("f16", "bf16")),
    "G3": (["n64h112w112c32_f3", "n64h56w56c144_f3", "n64h28w28c192_f3"], ("f32",)),
}

# tag -> group -> configuration. Channels: 16-bit 2 / 4 / 8 = 32 / 64 / 128
# bits, f32 1 / 2 / 4.
VARIANTS = {
    "t1": {"P3": rt(2, 2, 7), "S3": rt(2, 1, 7), "L3": rt(2, 4, 4), "F3": rt(1, 2, 7),
           "G3": rt(2, 4, 4), "H5": pl(block_channels=16), "M5": rt(2, 4, 7),
           "B5": rt(2, 4, 4, 2), "F5": pl()},
    "t2": {"P3": rt(2, 4, 4), "S3": rt(4, 1, 7), "L3": rt(2, 4, 8), "F3": rt(2, 2, 7),
           "G3": rt(1, 4, 8), "H5": pl(rows=1), "M5": rt(2, 7, 4, 2),
           "B5": rt(2, 8, 7), "F5": pl(channels=2)},
    "t3": {"P3": rt(2, 7, 7), "S3": rt(2, 7, 1), "L3": rt(2, 8, 4), "F3": rt(1, 1, 7),
           "G3": rt(2, 2, 8), "H5": pl(rows=4), "M5": rt(2, 2, 7),
           "B5": rt(2, 2, 4), "F5": pl(rows=1)},
    "t4": {"P3": rt(4, 2, 7), "S3": rt(4, 7, 1), "L3": rt(4, 2, 8), "F3": rt(2, 1, 7),
           "G3": rt(4, 4, 4), "H5": pl(rows=7), "M5": rt(2, 1, 7),
           "B5": rt(2, 2, 8), "F5": pl(rows=4)},
    "t5": {"P3": rt(2, 1, 7), "S3": rt(2, 7, 7), "L3": rt(4, 8, 4), "F3": rt(4, 1, 7),
           "G3": rt(4, 2, 8), "H5": pl(channels=4), "M5": rt(2, 2, 4),
           "B5": rt(2, 8, 2), "F5": pl(block_channels=16)},
    "t6": {"P3": rt(4, 1, 7), "S3": rt(2, 2, 7), "L3": rt(4, 2, 4), "F3": rt(2, 4, 4),
           "G3": rt(2, 8, 4), "H5": pl(columns=14), "M5": rt(2, 4, 2),
           "B5": rt(2, 2, 7), "F5": rt(1, 7, 7)},
    "t7": {"P3": pl(), "S3": pl(), "L3": rt(2, 2, 8), "F3": pl(channels=2),
           "H5": rt(2, 2, 7, 2), "M5": rt(2, 7, 2), "B5": pl(band=8),
           "F5": rt(1, 2, 7)},
    "t8": {"P3": pl(channels=4), "S3": pl(channels=4), "L3": rt(4, 4, 2),
           "F3": pl(channels=4), "H5": rt(2, 1, 7), "M5": pl(band=7),
           "F5": rt(2, 2, 7)},
    "t9": {"P3": rt(4, 2, 4), "S3": rt(2, 4, 4), "L3": rt(2, 2, 4), "F3": pl(channels=1),
           "H5": pl(rows=1, columns=14), "M5": pl(band=4), "F5": rt(1, 1, 7)},
    "t10": {"P3": pl(rows=1), "S3": rt(8, 1, 7), "F3": rt(1, 4, 4), "H5": pl(channels=1),
            "M5": rt(2, 1, 4), "F5": rt(1, 4, 4)},
    "t11": {"P3": pl(rows=7), "S3": pl(rows=1), "F5": pl(channels=2, rows=1)},
}


def layers_of(group):
    keys, dtypes = GROUPS[group]
    net = get_set("net")
    return [dataclasses.replace(l, ops=list(OPS)) for l in net
            if l.N > 1 and l.dtype in dtypes
            and any(l.key.startswith(k + "_s1x1") for k in keys)]


def rows():
    """(group, layer) of every row; the brief's rows come first in each
    group (the stride_configs order)."""
    return [(g, l) for g in GROUPS for l in layers_of(g)]


# Correctness-only shapes for the variants (stride 1): odd H / W, C with
# few channel vectors, W < FW, asymmetric padding. Every distinct variant
# configuration runs on each shape of its element class whose C its channel
# width divides, as its own layer: N = 1 + the configuration's index (the
# layer keys must differ), the map written to odd-configs.txt.
L1 = lambda n, h, w, c, f, dt, p=None: Layer(n, h, w, c, [f, f], dt, [1, 1], p, odd=True,
                                             ops=list(OPS))
ODD16 = [L1(0, 13, 11, 24, 3, "f16"), L1(0, 15, 9, 12, 3, "bf16"),
         L1(0, 29, 27, 8, 3, "f16", [0, 2, 1, 1]), L1(0, 9, 3, 16, 5, "f16"),
         L1(0, 14, 14, 24, 5, "bf16", [1, 3, 2, 2]), L1(0, 57, 55, 16, 5, "bf16")]
ODD32 = [L1(0, 13, 11, 12, 3, "f32"), L1(0, 7, 5, 40, 3, "f32"),
         L1(0, 30, 29, 8, 3, "f32", [2, 0, 1, 1]), L1(0, 11, 13, 20, 5, "f32"),
         L1(0, 9, 3, 12, 5, "f32"), L1(0, 14, 14, 6, 5, "f32", [2, 2, 3, 1])]


def channels_of(kernel):
    m = re.search(r"(?<!block_)channels = (\d+)", kernel)
    return int(m.group(1)) if m else 1


def odd_rows():
    """(layer, kernel) of the correctness run: main's selection (N = 1 and
    the base shapes' batch 2), then every distinct variant configuration."""
    configs = []
    for tag in VARIANTS:
        for g, k in VARIANTS[tag].items():
            f32 = GROUPS[g][1] == ("f32",)
            if (k, f32) not in configs:
                configs.append((k, f32))
    out = [(dataclasses.replace(l, N=n), "") for l in ODD16 + ODD32 for n in (1, 2)]
    for i, (k, f32) in enumerate(configs):
        for l in ODD32 if f32 else ODD16:
            if l.C % channels_of(k) == 0:
                out.append((dataclasses.replace(l, N=3 + i), k))
    return out


def ptxas(layer, op, kernel):
    """'registers, spills' of the kernel's PTX (sm_90)."""
    m = layer.mlir(op, "", kernel)
    r = subprocess.run([os.path.join(ROOT, "build/bin/dwc-opt"), "-", "--dwc-to-nvvm=format=isa"],
                       input=m, capture_output=True, text=True)
    if r.returncode:
        return "ERROR " + r.stderr.strip().splitlines()[0][:160]
    d = tempfile.mkdtemp()
    subprocess.run(["python3", os.path.join(ROOT, "test/Pipelines/Inputs/extract_ptx.py"),
                    "--out-dir", d], input=r.stdout, capture_output=True, text=True)
    res = []
    for p in sorted(os.listdir(d)):
        v = subprocess.run(["/usr/local/cuda/bin/ptxas", "-arch=sm_90", "-v",
                            os.path.join(d, p), "-o", "/dev/null"],
                           capture_output=True, text=True).stderr
        regs = [x.split("Used ")[1].split(" registers")[0] for x in v.splitlines() if "Used " in x]
        spill = [x.split(",")[1].strip() for x in v.splitlines() if "spill stores" in x]
        res.append(f"{','.join(regs)} regs {','.join(spill)}")
    subprocess.run(["rm", "-rf", d])
    return "; ".join(res)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=["sweep", "list", "regs"])
    ap.add_argument("--out-root", default="/work/main/.carry/s17fw")
    ap.add_argument("--aot", default="build/bin/dwc-aot")
    ap.add_argument("--tags", default=",".join(VARIANTS))
    ap.add_argument("-j", type=int, default=2)
    a = ap.parse_args()
    rs = rows()
    tags = [t for t in a.tags.split(",") if t]
    if a.what == "list":
        for g, l in rs:
            print(g, l.key)
        print(len(rs), "rows")
        return 0
    if a.what == "regs":
        first = {}
        for g, l in rs:
            first.setdefault(g, l)
        for g, l in first.items():
            for tag in tags:
                k = VARIANTS[tag].get(g)
                if k:
                    print(g, tag, l.key, k, "->", ptxas(l, "fwd", k), flush=True)
        return 0
    after = [OpConfig(l, op, "") for _, l in rs for op in OPS]
    n = build_objects(after, "s17fw", "stride", a.aot,
                      os.path.join(a.out_root, "stride_after"), a.j, "stride_after")
    print(f"after: {n}/{len(after)}")
    odd = odd_rows()
    cfgs = [OpConfig(l, op, "", kernel=k) for l, k in odd for op in OPS]
    n = build_objects(cfgs, "s17fw-odd", "stride", a.aot,
                      os.path.join(a.out_root, "stride_odd"), a.j, "stride_odd")
    with open(os.path.join(a.out_root, "odd-configs.txt"), "w") as f:
        f.writelines(f"{l.key} {k or '(selection)'}\n" for l, k in odd)
    print(f"odd: {n}/{len(cfgs)}")
    for tag in tags:
        cfgs = [OpConfig(l, op, tag, kernel=VARIANTS[tag][g])
                for g, l in rs if g in VARIANTS[tag] for op in OPS]
        n = build_objects(cfgs, "s17fw", "stride", a.aot,
                          os.path.join(a.out_root, "stride_" + tag), a.j, "stride_" + tag)
        print(f"{tag}: {n}/{len(cfgs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
