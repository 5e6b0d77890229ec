"""On a GPU: converted layers with PyTorch's semantics. A layer with its
kernels (loaded from KERNELS_DIR) returns its output in the input's memory
format, equal to the stock layer's; the same layer meeting a batch size it
has no kernel for runs the stock layer's own call (its autograd node) and
takes its time (forward and training step, each side timed alike in
alternating rounds: the ratio stock / converted is printed).

usage: gpu_semantics_check.py KERNELS_DIR"""
import copy
import statistics
import sys

import torch
import torch.nn as nn

import dwc_torch

CL = torch.channels_last
loaded = dwc_torch.load_kernels(sys.argv[1])
print("loaded", int(loaded), "chip", loaded.chip, "skipped", loaded.skipped)
torch.manual_seed(0)


def layer(kind):
    if kind == "dw7":
        return nn.Conv2d(96, 96, 7, padding=3, groups=96).cuda()
    if kind == "dw3":
        return nn.Conv2d(64, 64, 3, padding=1, groups=64).cuda()
    return nn.MaxPool2d(3, 2, 1).cuda()


def pair(kind, dtype):
    stock = layer(kind).to(dtype)
    conv = dwc_torch.convert(copy.deepcopy(stock), verbose=False)
    return stock, conv


def check_format(kind, shape, dtype, tol):
    stock, conv = pair(kind, dtype)
    for fmt in (torch.contiguous_format, CL):
        x = torch.randn(shape, device="cuda", dtype=dtype).contiguous(memory_format=fmt)
        before = dwc_torch.stats()["calls"]
        with torch.no_grad():
            y, ys = conv(x), stock(x)
        err = ((y.float() - ys.float()).abs().max() / ys.float().abs().max()).item()
        print("%s %s %s: dwc kernel %s, format as stock %s, view works %s, rel err ok %s" % (
            kind, "x".join(map(str, shape)), "cl" if fmt == CL else "nchw",
            dwc_torch.stats()["calls"] > before, y.stride() == ys.stride(),
            y.view(-1).numel() == y.numel(), err < tol))


def step(module, x, train):
    if not train:
        def run():
            with torch.no_grad():
                module(x)
        return run
    xi = x.detach().requires_grad_()

    def run():
        y = module(xi)
        y.backward(torch.ones_like(y))
    return run


def timed(fn, n=30):
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    fn()
    torch.cuda.synchronize()
    a.record()
    for _ in range(n):
        fn()
    b.record()
    b.synchronize()
    return a.elapsed_time(b) / n


def check_fallback(kind, shape, dtype, fmt):
    stock, conv = pair(kind, dtype)
    x = torch.randn(shape, device="cuda", dtype=dtype).contiguous(memory_format=fmt)
    xi = x.detach().requires_grad_()
    node = conv(xi).grad_fn.name()
    same = node == stock(xi).grad_fn.name()
    ratios = {}
    for train in (False, True):
        ours, theirs = step(conv, x, train), step(stock, x, train)
        r = []
        for i in range(12):
            a, b = (timed(ours), timed(theirs)) if i % 2 == 0 else reversed(
                (timed(theirs), timed(ours)))
            r.append(b / a)
        ratios["train" if train else "fwd"] = statistics.median(r)
    print("%s %s %s no kernel: stock node %s (%s), stock/converted fwd %.3f train %.3f" % (
        kind, "x".join(map(str, shape)), "cl" if fmt == CL else "nchw", same, node,
        ratios["fwd"], ratios["train"]))


check_format("dw7", (64, 96, 56, 56), torch.float16, 1e-2)
check_format("dw3", (8, 64, 28, 28), torch.float32, 1e-4)
check_format("pool", (64, 96, 56, 56), torch.float16, 1e-3)
for fmt in (torch.contiguous_format, CL):
    check_fallback("dw7", (50, 96, 56, 56), torch.float16, fmt)
    check_fallback("dw3", (7, 64, 28, 28), torch.float32, fmt)
    check_fallback("pool", (50, 96, 56, 56), torch.float16, fmt)
print("stats", dwc_torch.stats())
