#!/usr/bin/env python3
"""One depthwise layer's kernels, ours and PyTorch's, launched a few times
each for Nsight Compute (bench/results/*-ncu-*.sh run it under `ncu`):
our forward (or backward) kernel from --kernels-dir, then PyTorch's conv2d
(or its backward) in channels_last and NCHW, cudnn.benchmark off and on
(warmed up first, so that the profiled launches are the chosen algorithms
when the profiler's --launch-skip / NVTX ranges select them).
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_lib import KernelLib, link_objects  # noqa: E402
from stride_configs import get_set, select  # noqa: E402
from stride_harness import TD, call_args, operands, out_shape  # noqa: E402

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402


def torch_call(L, layout, x, w):
    xt = x.permute(0, 3, 1, 2)
    wt = w.permute(2, 0, 1).unsqueeze(1)
    fmt = torch.channels_last if layout == "cl" else torch.contiguous_format
    xt, wt = xt.contiguous(memory_format=fmt), wt.contiguous(memory_format=fmt)
    pt, pl = L.padding[0], L.padding[2]
    return lambda: F.conv2d(xt, wt, None, L.stride, [pt, pl], 1, L.C)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--kernels-dir", action="append", required=True)
    ap.add_argument("--runtime-lib", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--set", default="net")
    ap.add_argument("--only", required=True, help="one layer key")
    ap.add_argument("--tag", action="append", default=[], help="variant tag per extra dir")
    a = ap.parse_args()
    (L,) = select(get_set(a.set), a.only)
    torch.zeros(1, device="cuda")
    libs, names = [], []
    for i, d in enumerate(a.kernels_dir):
        tag = "" if i == 0 else a.tag[i - 1]
        libs += link_objects(d, a.runtime_lib, a.work, "ncu_" + (tag or "after"))
        names.append(L.name("fwd", tag))
    lib = KernelLib(a.runtime_lib, libs)
    if lib.rt.dwcInit() != 0:
        raise SystemExit("dwc runtime init failed")
    gen = torch.Generator(device="cuda")
    gen.manual_seed(0)
    x, w, dy = operands(L, gen)
    out = torch.empty(out_shape(L, "fwd"), dtype=TD[L.dtype], device="cuda")
    with torch.no_grad():
        for n in names:
            fn = lib.entry("dwc_" + n, 3)
            torch.cuda.nvtx.range_push("dwc " + n)
            for _ in range(3):
                lib.call(fn, *call_args("fwd", x, w, dy), out)
            torch.cuda.synchronize()
            torch.cuda.nvtx.range_pop()
        for bench in (False, True):
            torch.backends.cudnn.benchmark = bench
            for layout in ("cl", "nchw"):
                f = torch_call(L, layout, x, w)
                for _ in range(5):  # warm-up: the benchmark's algorithm search
                    f()
                torch.cuda.synchronize()
                torch.cuda.nvtx.range_push(f"torch {layout} bench={bench}")
                for _ in range(3):
                    f()
                torch.cuda.synchronize()
                torch.cuda.nvtx.range_pop()


if __name__ == "__main__":
    main()
