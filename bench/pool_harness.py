"""dwc pooling harness: correctness and bandwidth of dwc-aot pooling kernels
against PyTorch (max_pool2d / avg_pool2d and their backward kernels on
channels_last tensors), in one process on the GPU machine.

    python3 bench/pool_harness.py --set grid --runtime-lib RT.so \
        [--kernels-dir .carry/pool_kernels] [--kernel-lib LIB.so] --out DIR

Without --kernel-lib the objects of --kernels-dir are linked into one shared
library (g++ -shared, against the runtime). Per config:
  1. correctness: fresh inputs (max backward: X on a 7-level grid, so that
     windows hold ties), NaN-poisoned output, float64 PyTorch reference on
     the GPU. max forward must be exact; max backward must put every
     gradient where the reference does (misrouted = 0) within the relative
     tolerance of the summation; avg: ||ours - ref|| / ||ref|| <= 1e-6
     (f32) / 2e-3 (f16);
  2. timing: ours and PyTorch, CUDA events, median, buffers rotated so the
     working set is >= 3x L2. bytes = input read once + output written once
     (backward: dY + dX, + X for max); GB/s and share of 4.24 TB/s.
Depthwise conv + pool configs (conv_f > 0): the reference is the float64
conv rounded to the element type, then float64 pooling (relative error, the
conv sums make max inexact too); PyTorch side: cuDNN conv2d (groups = C,
benchmark=True) + pool on the same inputs; bytes = X + W + b + Y.
Writes pool-<label>.json and pool-<label>.md under --out after every config.
Exit 0: all correct, 10: some incorrect.
"""

import argparse
import ctypes
import datetime
import json
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_lib import KernelLib, link_objects  # noqa: E402
from pool_configs import COPY_BPS, L2_BYTES, TOLERANCE, config_from_dict, get_set, select  # noqa: E402

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

TORCH_DTYPE = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}


def log(*a):
    print("[pool]", *a, flush=True)


def sync():
    torch.cuda.synchronize()


# --- torch side ------------------------------------------------------------
def nchw(t):
    """NHWC contiguous -> NCHW view (channels_last)."""
    return t.permute(0, 3, 1, 2)


def torch_args(c):
    pt, pb, pl, pr = c.padding
    assert pt == pb and pl == pr, "PyTorch pooling pads symmetrically"
    return dict(kernel_size=tuple(c.K), stride=tuple(c.stride), padding=(pt, pl), ceil_mode=c.ceil)


def torch_activation(c, y):
    if c.act == "relu":
        return F.relu(y)
    if c.act == "relu6":
        return F.relu6(y)
    return y


def torch_fwd_nchw(c, x):
    """PyTorch's pooling (then the configuration's activation, unfused)."""
    a = torch_args(c)
    if c.kind == "max":
        return torch_activation(c, F.max_pool2d(x, **a))
    return torch_activation(c, F.avg_pool2d(x, count_include_pad=c.cip, **a))


def torch_fwd(c, x):
    return torch_fwd_nchw(c, nchw(x))


def make_x(c, gen, ties):
    x = torch.empty(c.N, c.H, c.W, c.C, dtype=TORCH_DTYPE[c.dtype], device="cuda")
    x.uniform_(-1, 1, generator=gen)
    if ties:
        x = (torch.round(x * 3) / 4).to(x.dtype)
    return x


def make_dy(c, gen):
    return torch.empty(c.N, c.OH, c.OW, c.C, dtype=TORCH_DTYPE[c.dtype],
                       device="cuda").uniform_(-1, 1, generator=gen)


def make_wb(c, gen):
    """Depthwise filter (F x F x C) and bias of a conv + pool config."""
    dt = TORCH_DTYPE[c.dtype]
    w = torch.empty(c.conv_f, c.conv_f, c.C, dtype=dt, device="cuda").uniform_(-1, 1, generator=gen)
    b = torch.empty(c.C, dtype=dt, device="cuda").uniform_(-1, 1, generator=gen)
    return w, b


def torch_conv_nchw(c, x, w, b):
    """PyTorch's depthwise conv2d (groups = C, 'same' padding) on an NCHW view."""
    return F.conv2d(x, w.permute(2, 0, 1).unsqueeze(1), b, padding=c.conv_f // 2, groups=c.C)


def reference_conv_pool(c, x, w, b):
    """float64 conv, rounded to the element type (the unfused op's rounding),
    then float64 pooling; NHWC."""
    x64 = nchw(x.double()).contiguous()
    conv = torch_conv_nchw(c, x64, w.double(), b.double())
    conv = conv.to(x.dtype).double()
    return torch_fwd_nchw(c, conv).permute(0, 2, 3, 1)


def reference(c, x, dy):
    """float64 result in NHWC, computed on contiguous NCHW tensors: PyTorch's
    CUDA avg_pool2d backward on channels_last float64 views returned a
    gradient shifted by one row and column on the H200 (torch 2.11,
    bench/results/2026-11-30-pool-grid-v3.md), the contiguous path agrees
    with our float64 loop oracle (test/Integration/CPU)."""
    x64 = nchw(x.double()).contiguous()
    if not c.bwd:
        return torch_fwd_nchw(c, x64).permute(0, 2, 3, 1)
    x64.requires_grad_(True)
    y = torch_fwd_nchw(c, x64)
    (g,) = torch.autograd.grad(y, x64, nchw(dy.double()).contiguous())
    return g.permute(0, 2, 3, 1)


# --- phases ------------------------------------------------------------------
def check(lib, c, row, gen):
    fn = lib.entry(c.symbol, c.nargs())
    if fn is None:
        row["status"] = "not built" if not row.get("built", True) else "symbol not found"
        return
    ties = c.bwd and c.kind == "max"
    x = make_x(c, gen, ties)
    dy = make_dy(c, gen) if c.bwd else None
    out_shape = x.shape if c.bwd else (c.N, c.OH, c.OW, c.C)
    y = torch.full(out_shape, float("nan"), dtype=x.dtype, device="cuda")
    if c.conv_f:
        w, b = make_wb(c, gen)
        lib.call(fn, x, w, b, y)
        sync()
        ref = reference_conv_pool(c, x, w, b)
    else:
        lib.call(fn, *([x, dy, y] if c.bwd else [x, y]))
        sync()
        ref = reference(c, x, dy)
    if c.bwd and c.kind == "avg":
        # Record how far PyTorch's channels_last float64 backward is from
        # the contiguous one (see reference()).
        x64 = x.double().requires_grad_(True)
        (g_cl,) = torch.autograd.grad(torch_fwd(c, x64), x64, nchw(dy.double()))
        row["channels_last_ref_rel_diff"] = (torch.linalg.vector_norm(g_cl - ref)
                                             / torch.linalg.vector_norm(ref)).item()
    ys = y.double()
    row["nan_count"] = int(torch.isnan(ys).sum().item())
    nref = torch.linalg.vector_norm(ref).item()
    row["rel_err"] = torch.linalg.vector_norm(ys - ref).item() / max(nref, 1e-300)
    if c.kind == "max" and not c.bwd and not c.conv_f:
        mism = int((ys != ref.to(x.dtype).double()).sum().item())
        row["mismatches"] = mism
        ok = mism == 0
    else:
        ok = row["rel_err"] <= TOLERANCE[c.dtype]
        if c.kind == "max" and c.bwd:
            misrouted = int(((ys == 0) != (ref == 0)).sum().item())
            row["misrouted"] = misrouted
            ok = ok and misrouted == 0
    ok = ok and row["nan_count"] == 0
    row["correct"] = bool(ok)
    row["status"] = "ok" if ok else "WRONG"


def time_fn(launch, nbuf, iters, deadline):
    launch(0)
    sync()
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    e0.record()
    launch(1 % nbuf)
    e1.record()
    sync()
    t1 = max(e0.elapsed_time(e1) / 1e3, 1e-6)
    runs = max(5, min(iters, int(0.5 / t1), int(0.5 * max(deadline - time.time(), 0) / t1)))
    st = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    en = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    for i in range(runs):
        st[i].record()
        launch(i % nbuf)
        en[i].record()
    sync()
    return statistics.median(s.elapsed_time(e) for s, e in zip(st, en)), runs


def timing(lib, c, row, gen, iters, deadline):
    fn = lib.entry(c.symbol, c.nargs())
    nbuf = int(min(16, max(2, math.ceil(3 * L2_BYTES / c.bytes_moved()))))
    row["buffers"] = nbuf
    xs = [make_x(c, gen, False) for _ in range(nbuf)]
    dys = [make_dy(c, gen) for _ in range(nbuf)] if c.bwd else None
    out_shape = xs[0].shape if c.bwd else (c.N, c.OH, c.OW, c.C)
    ys = [torch.empty(out_shape, dtype=xs[0].dtype, device="cuda") for _ in range(nbuf)]
    w, b = make_wb(c, gen) if c.conv_f else (None, None)
    if fn is not None and row.get("correct"):
        if c.conv_f:
            row["ours_ms"], row["ours_runs"] = time_fn(lambda i: lib.call(fn, xs[i], w, b, ys[i]),
                                                       nbuf, iters, deadline)
        elif c.bwd:
            row["ours_ms"], row["ours_runs"] = time_fn(lambda i: lib.call(fn, xs[i], dys[i], ys[i]),
                                                       nbuf, iters, deadline)
        else:
            row["ours_ms"], row["ours_runs"] = time_fn(lambda i: lib.call(fn, xs[i], ys[i]),
                                                       nbuf, iters, deadline)
    del ys
    a = torch_args(c)
    with torch.no_grad():
        if c.conv_f:
            # cuDNN's depthwise conv (autotuned) on channels_last, then pool.
            torch.backends.cudnn.benchmark = True
            ref = lambda i: torch_fwd_nchw(c, torch_conv_nchw(c, nchw(xs[i]), w, b))
        elif not c.bwd:
            ref = lambda i: torch_fwd(c, xs[i])
        elif c.kind == "max":
            # The autograd backward of max_pool2d: saved int64 indices.
            idx = [F.max_pool2d(nchw(x), return_indices=True, **a)[1] for x in xs]
            ref = lambda i: torch.ops.aten.max_pool2d_with_indices_backward(
                nchw(dys[i]), nchw(xs[i]), list(c.K), list(c.stride), list(a["padding"]),
                [1, 1], c.ceil, idx[i])
        else:
            ref = lambda i: torch.ops.aten.avg_pool2d_backward(
                nchw(dys[i]), nchw(xs[i]), list(c.K), list(c.stride), list(a["padding"]),
                c.ceil, c.cip, None)
        row["torch_ms"], row["torch_runs"] = time_fn(ref, nbuf, iters, deadline)
    for side in ("ours", "torch"):
        ms = row.get(side + "_ms")
        if ms:
            row[side + "_GBps"] = c.bytes_moved() / (ms * 1e-3) / 1e9
            row[side + "_pct_copy_bw"] = 100 * c.bytes_moved() / (ms * 1e-3) / COPY_BPS
    if row.get("ours_ms") and row.get("torch_ms"):
        row["speedup_vs_torch"] = row["torch_ms"] / row["ours_ms"]


def write(out, label, meta, rows):
    os.makedirs(out, exist_ok=True)
    stem = os.path.join(out, f"pool-{label}")
    with open(stem + ".json", "w") as f:
        json.dump({"meta": meta, "rows": rows}, f, indent=1)
    fmt = lambda v, p="%.3f": (p % v) if isinstance(v, (int, float)) else "-"
    lines = [f"# dwc pooling vs PyTorch ({meta['gpu']}, torch {meta['torch']}, {meta['date']})", "",
             "bytes = input read once + output written once (bwd: dY + dX, + X for max); "
             "% of the 4.24 TB/s copy bandwidth.", "",
             "| config | status | rel err | ours ms | ours GB/s | ours % | torch ms | torch GB/s | torch % | speedup |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['name']} | {r.get('status', '-')} | {fmt(r.get('rel_err'), '%.1e')} | "
                     f"{fmt(r.get('ours_ms'))} | {fmt(r.get('ours_GBps'), '%.0f')} | {fmt(r.get('ours_pct_copy_bw'), '%.0f%%')} | "
                     f"{fmt(r.get('torch_ms'))} | {fmt(r.get('torch_GBps'), '%.0f')} | {fmt(r.get('torch_pct_copy_bw'), '%.0f%%')} | "
                     f"{fmt(r.get('speedup_vs_torch'), '%.2fx')} |")
    with open(stem + ".md", "w") as f:
        f.write("\n".join(lines) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description="dwc pooling correctness + bandwidth vs PyTorch")
    ap.add_argument("--set", default=None, help="configs of this set (default: the manifest's)")
    ap.add_argument("--only", default="")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--kernels-dir", default=os.path.join(root, ".carry", "pool_kernels"))
    ap.add_argument("--runtime-lib", required=True)
    ap.add_argument("--kernel-lib", action="append", default=[])
    ap.add_argument("--work", default="/tmp/dwc-pool-bench")
    ap.add_argument("--out", default=os.environ.get("OUT", "/tmp/dwc-bench-out"))
    ap.add_argument("--label", default="")
    ap.add_argument("--iters", type=int, default=300)
    ap.add_argument("--time-budget", type=float, default=400.0)
    ap.add_argument("--no-timing", action="store_true")
    ap.add_argument("--seed", type=int, default=1234)
    a = ap.parse_args(argv)
    t0 = time.time()
    deadline = t0 + a.time_budget

    with open(os.path.join(a.kernels_dir, "manifest.json")) as f:
        man = json.load(f)
    built = {e["name"]: e for e in man["configs"]}
    cfgs = get_set(a.set) if a.set else [config_from_dict(e) for e in man["configs"]]
    cfgs = select(cfgs, a.only)
    libs = a.kernel_lib or link_objects(a.kernels_dir, a.runtime_lib, a.work, "dwc_pool_kernels")

    torch.zeros(1, device="cuda")
    stream = torch.cuda.Stream()
    torch.cuda.set_stream(stream)
    lib = KernelLib(a.runtime_lib, libs)
    if lib.rt.dwcInit() != 0 or lib.rt.dwcSetStream(ctypes.c_void_p(stream.cuda_stream)) != 0:
        raise SystemExit("dwc runtime init failed")
    gen = torch.Generator(device="cuda")
    gen.manual_seed(a.seed)
    label = a.label or a.set or man.get("set", "run")
    meta = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
            "commit": man.get("commit"), "set": man.get("set"),
            "command": " ".join(sys.argv), "statistic": "median of per-run CUDA events",
            "reference": "torch float64 (forward: max_pool2d/avg_pool2d; backward: autograd)"}
    rows = []
    for c in cfgs:
        row = c.to_dict()
        e = built.get(c.name)
        row["built"] = bool(e and e.get("built"))
        if e and e.get("build_error"):
            row["build_error"] = e["build_error"][-500:]
        rows.append(row)
        try:
            check(lib, c, row, gen)
            if not a.no_timing and time.time() < deadline:
                timing(lib, c, row, gen, a.iters, deadline)
            elif not a.no_timing:
                row["timing"] = "skipped: time budget"
        except torch.cuda.OutOfMemoryError as ex:
            row["status"] = f"out of memory: {str(ex)[:120]}"
        except RuntimeError as ex:
            row["status"] = f"error: {str(ex).splitlines()[0][:200]}"
            try:
                sync()
            except RuntimeError:
                log("CUDA context lost; stopping")
                write(a.out, label, meta, rows)
                return 3
        torch.cuda.empty_cache()
        log(f"{c.name}: {row.get('status')} rel_err={row.get('rel_err')} ours={row.get('ours_ms')} ms "
            f"({row.get('ours_pct_copy_bw')} %) torch={row.get('torch_ms')} ms ({row.get('torch_pct_copy_bw')} %)")
        write(a.out, label, meta, rows)
    write(a.out, label, meta, rows)
    with open(os.path.join(a.out, f"pool-{label}.md")) as f:
        print(f.read(), flush=True)
    return 0 if all(r.get("correct") for r in rows) else 10


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    os._exit(code)
