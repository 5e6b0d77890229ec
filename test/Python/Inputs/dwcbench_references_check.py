"""CPU check of the benchmark's float64 references (bench/dwcbench/ops.py):
for the smoke and odd layers of every topic, PyTorch's own result of each
op (the calls the GPU run times it by), brought into dwc's layouts, must
match the reference within the op's tolerance. A wrong permutation or
padding in a reference would fail every GPU kernel against it."""
import argparse
import os
import sys

import torch

ap = argparse.ArgumentParser()
ap.add_argument("--src", required=True)
args = ap.parse_args()
sys.path.insert(0, os.path.join(args.src, "bench"))
from dwcbench import ops as O  # noqa: E402
from dwcbench import sets  # noqa: E402

O.DEVICE = "cpu"
gen = torch.Generator().manual_seed(0)
items = (sets.get_set("layers", "smoke+odd") + sets.get_set("pool", "smoke+odd")
         + sets.get_set("conv", "smoke+odd"))
checked = wrong = 0
for it in items:
    spec = it.spec
    # f32 only (PyTorch's 16-bit CPU kernels are not the point here), and
    # layers small enough for float64 on a CPU.
    if spec.dtype != "f32" or spec.N * spec.H * spec.W * spec.C > 200000:
        continue
    t = O.operands(spec, it.ops, gen)
    idx = O.checked_channels(spec, it.odd)
    refs = O.references(spec, it.ops, t, idx)
    for name, calls in O.torch_calls(spec, it.ops, [t], "nchw").items():
        for op, fn in calls.items():
            if op not in it.ops:
                continue
            got = fn(0)
            if op == "bwd_data":
                got = got[0]
            elif op == "bwd_filter":
                got = got[1].squeeze(1).permute(1, 2, 0)
            elif op in ("pool_bwd", "gap_bwd"):
                got = got[0]
            if op not in ("bwd_filter", "bwd_bias"):
                got = got.permute(0, 2, 3, 1)
            r = O.check_output(spec, op, got, refs[op], idx)
            checked += 1
            if r[op + "_status"] != "ok":
                wrong += 1
                print("WRONG", it.key, name, op, r)
print("checked %d PyTorch results against the references, %d wrong" % (checked, wrong))
