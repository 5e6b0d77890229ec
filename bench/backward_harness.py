"""dwc depthwise backward harness: correctness and speed of the dwc-aot
backward-data / backward-filter kernels against cuDNN (through PyTorch), in
one process on the GPU machine.

    python3 bench/backward_harness.py --runtime-lib RT.so \
        [--kernels-dir .carry/backward_kernels] [--kernel-lib LIB.so] --out DIR

Per config:
  1. correctness: fresh uniform(-1, 1) inputs, NaN-poisoned output, one call;
     the float64 reference is computed on the GPU by autograd of
     F.conv2d(F.pad(x), w, groups) on a random subset of 16 channels (the
     channels of a depthwise convolution are independent, and the float64
     convolution of the whole 128-image batch at F=51 would take minutes);
     ||ours - ref|| / ||ref|| over those channels <= 1e-5 (f32) / 2e-3 (f16);
  2. timing: ours and cuDNN (torch.ops.aten.convolution_backward with
     groups=C on channels_last tensors, the call autograd makes) on the same
     inputs, CUDA events around every run, median; buffers rotated so that
     the working set exceeds 3x L2. cuDNN autotuning: benchmark=True for
     F <= 13; for F >= 31 benchmark=False (heuristic algorithm), because
     autotuning big depthwise filters takes minutes; TF32 is disabled (FP32
     against FP32).
Reports ms, TFLOP/s (useful FLOPs 2*N*OH*OW*C*FH*FW), % of the roofline
floor (max(bytes / 4.24 TB/s, FLOPs / peak), peak = 60 TFLOP/s FFMA or 620
TFLOP/s mma.sync for the tensor-core kernel), the speedup over cuDNN and the
anchor (/work/shared/bench/anchors-h200.json, when given and matching).
Writes backward-<label>.json / .md under --out after every config.
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
from backward_configs import L2_BYTES, TOLERANCE, config_from_dict, get_set, select  # noqa: E402

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

TORCH_DTYPE = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
CHECK_CHANNELS = 16


def log(*a):
    print("[bwd]", *a, flush=True)


def sync():
    torch.cuda.synchronize()


def nchw(t):
    """NHWC contiguous -> NCHW view (channels_last)."""
    return t.permute(0, 3, 1, 2)


def make(shape, dtype, gen):
    return torch.empty(shape, dtype=TORCH_DTYPE[dtype], device="cuda").uniform_(-1, 1, generator=gen)


def inputs(c, gen):
    """Operands in NHWC / FH x FW x C, and the output tensor shape."""
    if c.op == "bwd_data":
        return [make((c.N, c.OH, c.OW, c.C), c.dtype, gen),
                make((c.F[0], c.F[1], c.C), c.dtype, gen)], (c.N, c.H, c.W, c.C)
    return [make((c.N, c.H, c.W, c.C), c.dtype, gen),
            make((c.N, c.OH, c.OW, c.C), c.dtype, gen)], (c.F[0], c.F[1], c.C)


def reference(c, ops, idx):
    """float64 gradient on the channels `idx` (in our layout)."""
    pt, pb, pl, pr = c.padding
    K = len(idx)
    if c.op == "bwd_data":
        dy, w = ops
        dy64 = nchw(dy[..., idx].double())
        w64 = w[:, :, idx].double().permute(2, 0, 1).unsqueeze(1)
        x64 = torch.zeros(c.N, K, c.H, c.W, dtype=torch.float64, device="cuda", requires_grad=True)
        y = F.conv2d(F.pad(x64, (pl, pr, pt, pb)), w64, stride=tuple(c.stride), groups=K)
        (g,) = torch.autograd.grad(y, x64, dy64)
        return g.permute(0, 2, 3, 1)
    x, dy = ops
    x64 = nchw(x[..., idx].double())
    dy64 = nchw(dy[..., idx].double())
    w64 = torch.zeros(K, 1, c.F[0], c.F[1], dtype=torch.float64, device="cuda", requires_grad=True)
    y = F.conv2d(F.pad(x64, (pl, pr, pt, pb)), w64, stride=tuple(c.stride), groups=K)
    (g,) = torch.autograd.grad(y, w64, dy64)
    return g.squeeze(1).permute(1, 2, 0)


def check(lib, c, row, gen):
    fn = lib.entry(c.symbol, 3)
    if fn is None:
        row["status"] = "not built" if not row.get("built", True) else "symbol not found"
        return
    ops, out_shape = inputs(c, gen)
    out = torch.full(out_shape, float("nan"), dtype=TORCH_DTYPE[c.out_dtype], device="cuda")
    lib.call(fn, *ops, out)
    sync()
    k = min(CHECK_CHANNELS, c.C)
    idx = torch.randperm(c.C, generator=torch.Generator().manual_seed(c.C + c.F[1]))[:k].sort().values
    idx = idx.to("cuda")
    ref = reference(c, ops, idx)
    got = out[..., idx].double()
    row["nan_count"] = int(torch.isnan(out).sum().item())
    row["checked_channels"] = k
    nref = torch.linalg.vector_norm(ref).item()
    row["rel_err"] = torch.linalg.vector_norm(got - ref).item() / max(nref, 1e-300)
    ok = row["rel_err"] <= TOLERANCE[c.dtype] and row["nan_count"] == 0
    row["correct"] = bool(ok)
    row["status"] = "ok" if ok else "WRONG"


def time_fn(launch, nbuf, iters, deadline, target_s):
    launch(0)
    sync()
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    e0.record()
    launch(1 % nbuf)
    e1.record()
    sync()
    t1 = max(e0.elapsed_time(e1) / 1e3, 1e-6)
    runs = max(3, min(iters, int(target_s / t1), int(0.5 * max(deadline - time.time(), 0) / t1)))
    st = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    en = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    for i in range(runs):
        st[i].record()
        launch(i % nbuf)
        en[i].record()
    sync()
    return statistics.median(s.elapsed_time(e) for s, e in zip(st, en)), runs


def cudnn_call(c, ops, wt):
    """The cuDNN backward the autograd of conv2d(groups=C) runs."""
    pt, pb, pl, pr = c.padding
    assert pt == pb and pl == pr, "cuDNN pads symmetrically"
    args = dict(bias_sizes=None, stride=list(c.stride), padding=[pt, pl], dilation=[1, 1],
                transposed=False, output_padding=[0, 0], groups=c.C)
    if c.op == "bwd_data":
        dy, _ = ops
        # Only the shape (and layout) of the input is used.
        xshape = torch.empty((c.N, c.H, c.W, c.C), device="cuda", dtype=dy.dtype).permute(0, 3, 1, 2)
        return lambda: torch.ops.aten.convolution_backward(
            nchw(dy), xshape, wt, output_mask=[True, False, False], **args)[0]
    x, dy = ops
    return lambda: torch.ops.aten.convolution_backward(
        nchw(dy), nchw(x), wt, output_mask=[False, True, False], **args)[1]


def timing(lib, c, row, gen, iters, deadline, target_s, no_cudnn=False, cudnn_max_f=10**9):
    fn = lib.entry(c.symbol, 3)
    nbuf = int(min(8, max(2, math.ceil(3 * L2_BYTES / c.bytes_moved()))))
    row["buffers"] = nbuf
    sets = [inputs(c, gen) for _ in range(nbuf)]
    outs = [torch.empty(s[1], dtype=TORCH_DTYPE[c.out_dtype], device="cuda") for s in sets]
    if fn is not None and row.get("correct"):
        row["ours_ms"], row["ours_runs"] = time_fn(
            lambda i: lib.call(fn, *sets[i][0], outs[i]), nbuf, iters, deadline, target_s)
    del outs
    pt, pb, pl, pr = c.padding
    if pt == pb and pl == pr and not no_cudnn and max(c.F) <= cudnn_max_f:
        torch.backends.cudnn.benchmark = max(c.F) <= 13
        row["cudnn_benchmark"] = torch.backends.cudnn.benchmark
        wts = [torch.empty(c.C, 1, c.F[0], c.F[1], dtype=TORCH_DTYPE[c.dtype], device="cuda")
               .uniform_(-1, 1, generator=gen).contiguous(memory_format=torch.channels_last)
               for _ in range(nbuf)]
        calls = [cudnn_call(c, s[0], wt) for s, wt in zip(sets, wts)]
        with torch.no_grad():
            row["cudnn_ms"], row["cudnn_runs"] = time_fn(lambda i: calls[i](), nbuf, iters,
                                                         deadline, target_s)
    for side in ("ours", "cudnn"):
        ms = row.get(side + "_ms")
        if ms:
            row[side + "_TFLOPS"] = c.flops() / (ms * 1e-3) / 1e12
            row[side + "_pct_roofline"] = 100 * c.floor_ms() / ms
    if row.get("ours_ms") and row.get("cudnn_ms"):
        row["speedup_vs_cudnn"] = row["cudnn_ms"] / row["ours_ms"]


def anchor_for(anchors, c):
    op = {"bwd_data": "dwc_bwd_data", "bwd_filter": "dwc_bwd_filter"}[c.op]
    dt = {"f32": "float32", "f16": "float16", "bf16": "bfloat16"}[c.dtype]
    best = None
    for r in anchors:
        if (r.get("op") == op and r.get("N") == c.N and r.get("H") == c.H and r.get("W") == c.W
                and r.get("C") == c.C and r.get("F") == c.F[0] == c.F[1] and r.get("dtype") == dt):
            best = r["ms"] if best is None else min(best, r["ms"])
    return best


def write(out, label, meta, rows):
    os.makedirs(out, exist_ok=True)
    stem = os.path.join(out, f"backward-{label}")
    with open(stem + ".json", "w") as f:
        json.dump({"meta": meta, "rows": rows}, f, indent=1)
    fmt = lambda v, p="%.3f": (p % v) if isinstance(v, (int, float)) else "-"
    lines = [f"# dwc depthwise backward vs cuDNN ({meta['gpu']}, torch {meta['torch']}, "
             f"cuDNN {meta['cudnn']}, {meta['date']})", "",
             "Useful FLOPs 2*N*OH*OW*C*FH*FW; roofline floor = max(bytes / 4.24 TB/s, FLOPs / peak), "
             "peak 60 TFLOP/s FFMA (gemv, split-z) or 620 TFLOP/s mma.sync (mma). cuDNN: "
             "aten.convolution_backward(groups=C), channels_last, TF32 off, benchmark=True for F <= 13, "
             "False (heuristic) for F >= 31. Correctness: float64 autograd reference on 16 random channels.",
             "",
             "| config | kernel | status | rel err | ours ms | ours TFLOP/s | ours % roofline | "
             "cuDNN ms | cuDNN % roofline | speedup | anchor ms | vs anchor |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        va = (r["anchor_ms"] / r["ours_ms"]) if r.get("anchor_ms") and r.get("ours_ms") else None
        lines.append(f"| {r['name']} | {r.get('kernel')} | {r.get('status', '-')} | {fmt(r.get('rel_err'), '%.1e')} | "
                     f"{fmt(r.get('ours_ms'))} | {fmt(r.get('ours_TFLOPS'), '%.2f')} | "
                     f"{fmt(r.get('ours_pct_roofline'), '%.0f%%')} | {fmt(r.get('cudnn_ms'))} | "
                     f"{fmt(r.get('cudnn_pct_roofline'), '%.0f%%')} | {fmt(r.get('speedup_vs_cudnn'), '%.2fx')} | "
                     f"{fmt(r.get('anchor_ms'))} | {fmt(va, '%.2fx')} |")
    sp = {}
    for r in rows:
        if r.get("speedup_vs_cudnn") and r.get("N") == 128:
            sp.setdefault((r["op"], r["dtype"]), []).append(r["speedup_vs_cudnn"])
    if sp:
        lines += ["", "| op | dtype | configs | geomean speedup | min | max |", "|---|---|---|---|---|---|"]
        for (op, dt), v in sorted(sp.items()):
            g = math.exp(sum(math.log(x) for x in v) / len(v))
            lines.append(f"| {op} | {dt} | {len(v)} | {g:.2f}x | {min(v):.2f}x | {max(v):.2f}x |")
    with open(stem + ".md", "w") as f:
        f.write("\n".join(lines) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description="dwc depthwise backward correctness + speed vs cuDNN")
    ap.add_argument("--set", default=None, help="configs of this set (default: the manifest's)")
    ap.add_argument("--only", default="")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--kernels-dir", default=os.path.join(root, ".carry", "backward_kernels"))
    ap.add_argument("--runtime-lib", required=True)
    ap.add_argument("--kernel-lib", action="append", default=[])
    ap.add_argument("--work", default="/tmp/dwc-backward-bench")
    ap.add_argument("--out", default=os.environ.get("OUT", "/tmp/dwc-bench-out"))
    ap.add_argument("--label", default="")
    ap.add_argument("--anchors", default="")
    ap.add_argument("--iters", type=int, default=200)
    ap.add_argument("--target-s", type=float, default=0.25,
                    help="timed seconds per side and config (at least 3 runs)")
    ap.add_argument("--time-budget", type=float, default=400.0)
    ap.add_argument("--no-timing", action="store_true")
    ap.add_argument("--cudnn-max-f", type=int, default=10**9,
                    help="time cuDNN only for filters up to this size (its heuristic "
                         "algorithms for big filters take seconds per call)")
    ap.add_argument("--no-cudnn", action="store_true",
                    help="time our kernels only (cuDNN numbers from an earlier run / the anchors)")
    ap.add_argument("--seed", type=int, default=1234)
    a = ap.parse_args(argv)
    t0 = time.time()
    deadline = t0 + a.time_budget

    with open(os.path.join(a.kernels_dir, "manifest.json")) as f:
        man = json.load(f)
    built = {e["name"]: e for e in man["configs"]}
    cfgs = get_set(a.set) if a.set else [config_from_dict(e) for e in man["configs"]]
    cfgs = select(cfgs, a.only)
    libs = a.kernel_lib or link_objects(a.kernels_dir, a.runtime_lib, a.work, "dwc_backward_kernels")
    anchors = []
    if a.anchors and os.path.exists(a.anchors):
        with open(a.anchors) as f:
            anchors = json.load(f).get("rows", [])

    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
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
            "cudnn": torch.backends.cudnn.version(),
            "commit": man.get("commit"), "set": man.get("set"),
            "command": " ".join(sys.argv), "statistic": "median of per-run CUDA events",
            "reference": "torch float64 autograd of conv2d(groups) on 16 random channels"}
    rows = []
    for c in cfgs:
        row = c.to_dict()
        e = built.get(c.name)
        row["built"] = bool(e and e.get("built"))
        if e and e.get("build_error"):
            row["build_error"] = e["build_error"][-500:]
        row["anchor_ms"] = anchor_for(anchors, c)
        rows.append(row)
        try:
            check(lib, c, row, gen)
            if not a.no_timing and time.time() < deadline:
                timing(lib, c, row, gen, a.iters, deadline, a.target_s, a.no_cudnn,
                       a.cudnn_max_f)
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
            f"cudnn={row.get('cudnn_ms')} ms speedup={row.get('speedup_vs_cudnn')}")
        write(a.out, label, meta, rows)
    write(a.out, label, meta, rows)
    with open(os.path.join(a.out, f"backward-{label}.md")) as f:
        print(f.read(), flush=True)
    return 0 if all(r.get("correct") for r in rows) else 10


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    os._exit(code)
