"""Where a dwc forward kernel is wrong: runs the kernels of a manifest on
random inputs and prints, per configuration, the (n, oh, ow) positions and
channels whose output differs from the float64 reference.

    python3 bench/diag_positions.py --manifest DIR/manifest.json \
        --runtime-lib RT --kernel-lib LIB [--only SUBSTR]
"""
import argparse
import json
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_lib import KernelLib  # noqa: E402

DT = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}


def reference(c, x, w, b):
    pt, pb, pl, pr = c["padding"]
    xn = F.pad(x.double().permute(0, 3, 1, 2), (pl, pr, pt, pb))
    wn = w.double().permute(2, 0, 1).unsqueeze(1)
    y = F.conv2d(xn, wn, None if b is None else b.double(), stride=c["stride"],
                 dilation=c["dilation"], groups=c["C"])
    return y.permute(0, 2, 3, 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--runtime-lib", required=True)
    ap.add_argument("--kernel-lib", action="append", required=True)
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    lib = KernelLib(a.runtime_lib, a.kernel_lib)
    lib.rt.dwcInit()
    torch.manual_seed(0)
    for c in json.load(open(a.manifest))["configs"]:
        if a.only not in c["name"]:
            continue
        dt = DT[c["dtype"]]
        x = torch.randn(c["N"], c["H"], c["W"], c["C"], device="cuda").to(dt)
        w = torch.randn(c["FH"], c["FW"], c["C"], device="cuda").to(dt)
        b = torch.randn(c["C"], device="cuda").to(dt) if c["bias"] else None
        y = torch.full((c["N"], c["OH"], c["OW"], c["C"]), float("nan"), device="cuda", dtype=dt)
        args = [x, w] + ([b] if b is not None else []) + [y]
        lib.call(lib.entry(c["symbol"], len(args)), *args)
        torch.cuda.synchronize()
        ref = reference(c, x, w, b)
        bad = ((y.double() - ref).abs() > 2e-2 * (1 + ref.abs())) | torch.isnan(y)
        idx = bad.nonzero().tolist()
        print("%s: %d of %d wrong" % (c["name"], len(idx), bad.numel()))
        for key, name in ((0, "n"), (1, "oh"), (2, "ow"), (3, "c")):
            vals = sorted({i[key] for i in idx})
            print("  %s: %s" % (name, vals[:40]))
        for i in idx[:6]:
            n, h, ww, ch = i
            print("  at", i, "ours", y[n, h, ww, ch].item(), "ref", ref[n, h, ww, ch].item())


if __name__ == "__main__":
    main()
