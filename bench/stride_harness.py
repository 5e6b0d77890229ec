"""Strided depthwise layers (issue 20): correctness and training-step speed of
the dwc-aot forward / backward-data / backward-filter kernels against
PyTorch's best, in one process on the GPU machine.

    python3 bench/stride_harness.py --runtime-lib RT.so --kernels-dir DIR \
        [--before-dir DIR] --out OUT [--label L]

Per layer (bench/stride_configs.py):
  1. correctness of every op (ours; the baseline kernels of --before-dir
     too): fresh uniform(-1, 1) inputs, NaN-poisoned outputs, one call; the
     float64 reference is autograd of F.conv2d(F.pad(x), w, stride,
     groups) on contiguous NCHW float64 tensors, on 16 random channels (all
     channels of the odd shapes); ||ours - ref|| / ||ref|| <= 1e-5 (f32),
     2e-3 (f16/bf16);
  2. timing (not for odd shapes): CUDA events around every run, median, a
     warm-up run first, operand sets rotated so that the working set exceeds
     3x L2 (at most 64 sets). Ours: forward, backward-data, backward-filter
     (before and after). PyTorch: F.conv2d and
     aten.convolution_backward(groups=C) (dX alone, dW alone, and both in
     one call, as autograd asks for them) with NCHW tensors and with
     channels_last inputs and weights, cudnn.benchmark on and off; TF32
     off. PyTorch's best per op is the minimum over the four variants; its
     best training step the minimum over the variants of forward +
     min(dX + dW, both in one call).
Writes stride-<label>.json / .md under --out after every layer.
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
from cuda_timing import graph_time  # noqa: E402
from kernel_lib import KernelLib, link_objects  # noqa: E402
from stride_configs import (L2_BYTES, OPS, TOLERANCE, copy_bound, get_set,  # noqa: E402
                            layer_from_dict, select)

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

TD = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
CHECK_CHANNELS = 16
# 16-bit outputs: the relative error of a few channels' values is mostly the
# output's own rounding (bf16: ~1.7e-3 of the 2e-3 tolerance on dW), and on
# 16 x 9 values its spread reaches the tolerance; 128 channels make the
# estimate steady (the criterion is unchanged).
CHECK_CHANNELS_16BIT = 128


def check_channels(dtype):
    return CHECK_CHANNELS if dtype == "f32" else CHECK_CHANNELS_16BIT


def log(*a):
    print("[stride]", *a, flush=True)


def sync():
    torch.cuda.synchronize()


def make(shape, dt, gen):
    return torch.empty(shape, dtype=TD[dt], device="cuda").uniform_(-1, 1, generator=gen)


def operands(L, gen):
    """x (NHWC), w (FH x FW x C), dy (NHWC)."""
    return (make((L.N, L.H, L.W, L.C), L.dtype, gen),
            make((L.F[0], L.F[1], L.C), L.dtype, gen),
            make((L.N, L.OH, L.OW, L.C), L.dtype, gen))


def call_args(op, x, w, dy):
    return {"fwd": (x, w), "bwd_data": (dy, w), "bwd_filter": (x, dy)}[op]


def out_shape(L, op):
    return {"fwd": (L.N, L.OH, L.OW, L.C), "bwd_data": (L.N, L.H, L.W, L.C),
            "bwd_filter": (L.F[0], L.F[1], L.C)}[op]


def references(L, x, w, dy, idx):
    """float64 y, dX, dW on the channels `idx`, in our layouts."""
    pt, pb, pl, pr = L.padding
    K = len(idx)
    x64 = x[..., idx].double().permute(0, 3, 1, 2).contiguous().requires_grad_(True)
    w64 = w[:, :, idx].double().permute(2, 0, 1).unsqueeze(1).contiguous().requires_grad_(True)
    dy64 = dy[..., idx].double().permute(0, 3, 1, 2).contiguous()
    y = F.conv2d(F.pad(x64, (pl, pr, pt, pb)), w64, stride=tuple(L.stride), groups=K)
    gx, gw = torch.autograd.grad(y, (x64, w64), dy64)
    return {"fwd": y.detach().permute(0, 2, 3, 1), "bwd_data": gx.permute(0, 2, 3, 1),
            "bwd_filter": gw.squeeze(1).permute(1, 2, 0)}


def check(lib, L, fns, gen, rows):
    x, w, dy = operands(L, gen)
    k = L.C if L.odd else min(check_channels(L.dtype), L.C)
    idx = torch.randperm(L.C, generator=torch.Generator().manual_seed(L.C + L.H))[:k]
    idx = idx.sort().values.to("cuda")
    ref = references(L, x, w, dy, idx)
    for (side, op), fn in fns.items():
        r = rows.setdefault(side, {})
        if op not in L.ops:
            continue
        if fn is None:
            r[op + "_status"] = "not built"
            continue
        out = torch.full(out_shape(L, op), float("nan"), dtype=TD[L.dtype], device="cuda")
        lib.call(fn, *call_args(op, x, w, dy), out)
        sync()
        got = out[..., idx].double()
        nan = int(torch.isnan(out).sum().item())
        err = torch.linalg.vector_norm(got - ref[op]).item() / max(
            torch.linalg.vector_norm(ref[op]).item(), 1e-300)
        ok = nan == 0 and err <= TOLERANCE[L.dtype]
        r[op + "_rel_err"], r[op + "_nan"] = err, nan
        if L.dtype != "f32":  # what rounding the exact result to the output type costs
            ro = ref[op].to(TD[L.dtype]).double()
            r[op + "_rounding_floor"] = torch.linalg.vector_norm(ro - ref[op]).item() / max(
                torch.linalg.vector_norm(ref[op]).item(), 1e-300)
        r[op + "_status"] = "ok" if ok else "WRONG"


def time_fn(launch, nbuf, iters, target_s):
    launch(0)
    sync()
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    e0.record()
    launch(1 % nbuf)
    e1.record()
    sync()
    t1 = max(e0.elapsed_time(e1) / 1e3, 1e-6)
    runs = max(5, min(iters, int(target_s / t1)))
    st = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    en = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    for i in range(runs):
        st[i].record()
        launch(i % nbuf)
        en[i].record()
    sync()
    return statistics.median(s.elapsed_time(e) for s, e in zip(st, en))


GRAPH_BELOW_MS = 0.25


def time_kernel(launch, nbuf, iters, target_s, graphs):
    """(kernel ms, per-call ms): the kernel time from a CUDA graph when one
    call takes under GRAPH_BELOW_MS (and graphs are on), else the per-call
    event time."""
    user = time_fn(launch, nbuf, iters, target_s)
    if not graphs or user >= GRAPH_BELOW_MS:
        return user, user
    k = int(min(512, max(nbuf, 16, math.ceil(2.0 / user))))
    try:
        return graph_time(launch, nbuf, k), user
    except RuntimeError as ex:
        log("graph capture failed:", str(ex).splitlines()[0][:160])
        return user, user


def torch_variants(L, sets, nbuf, iters, target_s, graphs=False, only_ops=None):
    """{variant: {fwd, bwd_data, bwd_filter, bwd_both}} in ms (`only_ops`:
    just those)."""
    pt, pb, pl, pr = L.padding
    res = {}
    if pt != pb or pl != pr:
        return res
    args = dict(bias_sizes=None, stride=list(L.stride), padding=[pt, pl], dilation=[1, 1],
                transposed=False, output_padding=[0, 0], groups=L.C)
    for layout in ("nchw", "channels_last"):
        ts = []
        for x, w, dy in sets:
            xt, dyt = x.permute(0, 3, 1, 2), dy.permute(0, 3, 1, 2)
            wt = w.permute(2, 0, 1).unsqueeze(1)
            if layout == "nchw":
                xt, dyt, wt = xt.contiguous(), dyt.contiguous(), wt.contiguous()
            else:
                wt = wt.contiguous(memory_format=torch.channels_last)
            ts.append((xt, wt, dyt))
        for bench in (True, False):
            torch.backends.cudnn.benchmark = bench
            cb = torch.ops.aten.convolution_backward
            calls = {
                "fwd": lambda i: F.conv2d(ts[i][0], ts[i][1], None, L.stride, [pt, pl], 1, L.C),
                "bwd_data": lambda i: cb(ts[i][2], ts[i][0], ts[i][1],
                                         output_mask=[True, False, False], **args),
                "bwd_filter": lambda i: cb(ts[i][2], ts[i][0], ts[i][1],
                                           output_mask=[False, True, False], **args),
                "bwd_both": lambda i: cb(ts[i][2], ts[i][0], ts[i][1],
                                         output_mask=[True, True, False], **args),
            }
            if L.ops == ["fwd"]:
                calls = {"fwd": calls["fwd"]}
            if only_ops:
                calls = {k: f for k, f in calls.items() if k in only_ops}
            v = {}
            with torch.no_grad():
                for op, fn in calls.items():
                    v[op], v[op + "_call"] = time_kernel(fn, nbuf, iters, target_s, graphs)
            res[f"{layout}/bench={'on' if bench else 'off'}"] = v
        del ts
    torch.backends.cudnn.benchmark = False
    return res


def copy_time(L, nbuf, iters, target_s, graphs):
    """(kernel time in ms, kind) of a copy that moves the forward's bytes
    (operand sets rotated as the layer's). Stride 1 ('copy': half read,
    half written, like the layer): the least of PyTorch's memcpy and its
    elementwise kernel. Strided ('read-heavy'): a strided forward reads
    stride^2 times what it writes, which HBM serves faster than a copy, so
    the least of those two and of PyTorch's average pooling with the
    stride as window (channels_last, the layer's input: the same bytes
    read, the layer's output written). No forward kernel moves those bytes
    much faster than the best of these, launch and ramp included: where it
    is under 85 % of the copy bandwidth and PyTorch's best under 1.5x of
    it, no kernel meets the per-layer floor (stride_configs.copy_bound)."""
    words = max(1, L.bytes_moved() // 8)
    src = [torch.empty(words, dtype=torch.float32, device="cuda") for _ in range(nbuf)]
    dst = [torch.empty(words, dtype=torch.float32, device="cuda") for _ in range(nbuf)]
    for t in src:
        t.zero_()
    fns = [lambda i: dst[i].copy_(src[i]), lambda i: torch.mul(src[i], 1.0, out=dst[i])]
    strided = list(L.stride) != [1, 1]
    if strided:
        xs = [torch.zeros(L.N, L.C, L.H, L.W, dtype=TD[L.dtype], device="cuda").to(
            memory_format=torch.channels_last) for _ in range(nbuf)]
        fns.append(lambda i: torch.nn.functional.avg_pool2d(xs[i], L.stride, L.stride,
                                                            ceil_mode=True))
    best = min(time_kernel(fn, nbuf, iters, target_s, graphs)[0] for fn in fns)
    return best, "read-heavy" if strided else "copy"


def timing(lib, L, fns, gen, rows, iters, target_s, graphs=False, torch_ops=None):
    nbuf = int(min(64, max(2, math.ceil(3 * L2_BYTES / L.bytes_moved()))))
    rows["buffers"] = nbuf
    rows["copy_ms"], rows["copy_kind"] = copy_time(L, nbuf, iters, target_s, graphs)
    sets = [operands(L, gen) for _ in range(nbuf)]
    for (side, op), fn in fns.items():
        r = rows[side]
        if fn is None or r.get(op + "_status") != "ok":
            continue
        outs = [torch.empty(out_shape(L, op), dtype=TD[L.dtype], device="cuda") for _ in sets]
        r[op + "_ms"], r[op + "_call_ms"] = time_kernel(
            lambda i: lib.call(fn, *call_args(op, *sets[i]), outs[i]), nbuf, iters, target_s,
            graphs)
        del outs
    tv = torch_variants(L, sets, nbuf, iters, target_s, graphs, torch_ops)
    rows["torch"] = tv
    if tv:
        best = {op: min(v[op] for v in tv.values()) for op in L.ops
                if all(op in v for v in tv.values())}
        if all(op in v for op in OPS + ("bwd_both",) for v in tv.values()):
            best["step"] = min(v["fwd"] + min(v["bwd_data"] + v["bwd_filter"], v["bwd_both"])
                               for v in tv.values())
        rows["torch_best"] = best
    for side in {s for s, _ in fns}:
        r = rows.get(side, {})
        if all(r.get(op + "_ms") for op in OPS):
            r["step_ms"] = sum(r[op + "_ms"] for op in OPS)


def fmt(v, p="%.3f"):
    return (p % v) if isinstance(v, (int, float)) else "-"


def failed_ops(row, sides):
    """The side:op pairs of a row whose result was wrong. An op a run did
    not build (a sweep of some ops only) is not a failure."""
    return [f"{s}:{k[:-7]}" for s in sides for k, v in row.get(s, {}).items()
            if k.endswith("_status") and v not in ("ok", "not built")]


def write(out, label, meta, rows):
    os.makedirs(out, exist_ok=True)
    stem = os.path.join(out, f"stride-{label}")
    with open(stem + ".json", "w") as f:
        json.dump({"meta": meta, "rows": rows}, f, indent=1)
    lines = [f"# dwc strided depthwise layers: training step vs PyTorch ({meta['gpu']}, "
             f"torch {meta['torch']}, cuDNN {meta['cudnn']}, {meta['date']})", "",
             f"Command: `{meta['command']}` (commit {meta['commit']})", "",
             f"Kernel times in ms ({meta['statistic']}; operands rotated beyond L2). "
             "PyTorch best = min over NCHW / channels_last x cudnn.benchmark on / off; its step = "
             "min over those of fwd + min(dX + dW, one dX+dW call). x = PyTorch best / ours. "
             "% floor = floor / ours, floor per op max(bytes / 4.24 TB/s, FLOPs / unit peak) "
             "(FP32 FFMA 60 TFLOP/s; 16-bit mma.sync 460 TFLOP/s x 56.25 %), "
             "step floor = 3 x that. before = the baseline kernels of --before-dir. "
             "floors: x >= 1.5 or % floor >= 85 (fwd; step). copy = the best copy of the "
             "forward's bytes (harness copy_time; strided layers: also PyTorch's average "
             "pooling of the input with the stride as window, the read-heavy pattern of a "
             "strided forward; step: 3 x), % copy = copy / ours; a floor "
             "marked 'copy-bound' is out of every kernel's reach: the copy itself is under 85 % "
             "of the floor's bandwidth and PyTorch's best under 1.5x the copy.", "",
             "| layer | net | fwd before | fwd ours | fwd PT | fwd x | fwd % floor | copy | fwd % copy | dX before | dX ours | dX PT | dX x | "
             "dW before | dW ours | dW PT | dW x | step before | step ours | step PT | step x | "
             "step % floor | floors | correct |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    met = {}
    geo = {}
    for r in rows:
        b, a, t = r.get("before", {}), r.get("after", {}), r.get("torch_best", {})
        bad = failed_ops(r, meta["sides"])
        ok = not bad
        if r.get("odd"):
            errs = ", ".join(f"{op} {fmt(a.get(op + '_rel_err'), '%.1e')}" for op in OPS)
            lines.append(f"| {r['key']} (odd) | - | - | - | - | - | - | - | - | - | - | - | - | - | - | - | - | - | "
                         f"- | - | - | - | - | {'yes' if ok else 'NO ' + ' '.join(bad)} ({errs}) |")
            continue
        x = lambda op: (t[op] / a[op + "_ms"]) if t.get(op) and a.get(op + "_ms") else None
        xs = t.get("step") / a["step_ms"] if t.get("step") and a.get("step_ms") else None
        pf = 100 * 3 * r["floor_ms"] / a["step_ms"] if a.get("step_ms") else None
        pff = 100 * r["floor_ms"] / a["fwd_ms"] if a.get("fwd_ms") else None
        for k, v in (("fwd", x("fwd")), ("step", xs)):
            if v:
                geo.setdefault((k, r["dtype"], r["N"]), []).append(v)
        copy = r.get("copy_ms")
        verdict = []
        for k, v, p, m in (("fwd", x("fwd"), pff, 1), ("step", xs, pf, 3)):
            if v is not None:
                good = v >= 1.5 or (p or 0) >= 85
                met.setdefault(k, []).append(good)
                verdict.append(f"{k} {'ok' if good else 'NO'}")
                if not good and copy_bound(r, t.get(k), m * copy if copy else None, m):
                    verdict[-1] += " (copy-bound)"
                    met.setdefault(k + " copy-bound", []).append(True)
        lines.append(
            f"| {r['key']} | {r.get('net', '')} | {fmt(b.get('fwd_ms'))} | {fmt(a.get('fwd_ms'))} | {fmt(t.get('fwd'))} | "
            f"{fmt(x('fwd'), '%.2f')} | {fmt(pff, '%.0f%%')} | {fmt(copy, '%.4f')} | "
            f"{fmt(100 * copy / a['fwd_ms'] if copy and a.get('fwd_ms') else None, '%.0f%%')} | "
            f"{fmt(b.get('bwd_data_ms'))} | {fmt(a.get('bwd_data_ms'))} | "
            f"{fmt(t.get('bwd_data'))} | {fmt(x('bwd_data'), '%.2f')} | {fmt(b.get('bwd_filter_ms'))} | "
            f"{fmt(a.get('bwd_filter_ms'))} | {fmt(t.get('bwd_filter'))} | {fmt(x('bwd_filter'), '%.2f')} | "
            f"{fmt(b.get('step_ms'))} | {fmt(a.get('step_ms'))} | {fmt(t.get('step'))} | "
            f"{fmt(xs, '%.2f')} | {fmt(pf, '%.0f%%')} | {', '.join(verdict) or '-'} | "
            f"{'yes' if ok else 'NO ' + ' '.join(bad)} |")
    if geo:
        lines += ["", "| what | dtype | N | layers | geomean x | min | max |",
                  "|---|---|---|---|---|---|---|"]
        groups = dict(geo)
        for k in ("fwd", "step"):
            allv = [u for (kk, _, _), v in geo.items() if kk == k for u in v]
            if allv:
                groups[(k, "all", "all")] = allv
        for (k, dt, n), v in sorted(groups.items(), key=lambda kv: tuple(map(str, kv[0]))):
            g = math.exp(sum(math.log(u) for u in v) / len(v))
            lines.append(f"| {k} | {dt} | {n} | {len(v)} | {g:.2f} | {min(v):.2f} | {max(v):.2f} |")
        lines += ["", "Per-layer floor (x >= 1.5 or >= 85 % of floor): " + "; ".join(
            f"{k} {sum(v)}/{len(v)} layers" for k, v in met.items() if "copy" not in k)]
        bound = {k: len(v) for k, v in met.items() if "copy" in k}
        if bound:
            lines += ["Below the floor but copy-bound (no kernel can meet it): " + "; ".join(
                f"{k.split()[0]} {n}" for k, n in bound.items())]
    variants = [s for s in meta["sides"] if s not in ("after", "before")]
    if variants:
        lines += ["", "Tuning variants (ms; the kernels of dwc-aot with the options in the "
                  "variant manifests):", "",
                  "| layer | op | ours | " + " | ".join(variants) + " |",
                  "|---|---|---|" + "---|" * len(variants)]
        for r in rows:
            if r.get("odd"):
                continue
            for op in OPS:
                vals = [r.get(v, {}).get(op + "_ms") for v in variants]
                if any(vals):
                    lines.append(f"| {r['key']} | {op} | {fmt(r.get('after', {}).get(op + '_ms'))} | "
                                 + " | ".join(fmt(v) for v in vals) + " |")
    with open(stem + ".md", "w") as f:
        f.write("\n".join(lines) + "\n")


def load_manifest(d):
    with open(os.path.join(d, "manifest.json")) as f:
        return json.load(f)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--set", default=None)
    ap.add_argument("--only", default="")
    ap.add_argument("--kernels-dir", required=True)
    ap.add_argument("--before-dir", default="")
    ap.add_argument("--variant-dir", action="append", default=[],
                    help="kernels of a tuning variant (built with --tag); timed next to ours")
    ap.add_argument("--runtime-lib", required=True)
    ap.add_argument("--work", default="/tmp/dwc-stride-bench")
    ap.add_argument("--out", default=os.environ.get("OUT", "/tmp/dwc-bench-out"))
    ap.add_argument("--label", default="stride")
    ap.add_argument("--iters", type=int, default=200)
    ap.add_argument("--target-s", type=float, default=0.08)
    ap.add_argument("--time-budget", type=float, default=420.0)
    ap.add_argument("--torch-ops", default="",
                    help="PyTorch ops to time (comma-separated; default all)")
    ap.add_argument("--seed", type=int, default=2020)
    ap.add_argument("--graphs", action="store_true",
                    help=f"kernel time of calls under {GRAPH_BELOW_MS} ms from CUDA graphs of "
                         "back-to-back launches (the per-call time is kept as *_call_ms)")
    a = ap.parse_args(argv)
    t0 = time.time()

    man = load_manifest(a.kernels_dir)
    layers, seen = [], set()
    for e in man["configs"]:
        if e["key"] not in seen:
            seen.add(e["key"])
            layers.append(layer_from_dict(e))
    if a.set:
        layers = get_set(a.set)
    layers = select(layers, a.only)
    built = {e["name"]: e.get("built") for e in man["configs"]}
    libs = link_objects(a.kernels_dir, a.runtime_lib, a.work, "dwc_stride_after")
    sides = [("after", "")]
    for kind, d in [("before", a.before_dir)] + [("variant", v) for v in a.variant_dir]:
        if not d:
            continue
        vman = load_manifest(d)
        built.update({e["name"]: e.get("built") for e in vman["configs"]})
        tag = vman["configs"][0].get("tag") or kind
        sides.append(("before" if kind == "before" else tag, tag))
        libs += link_objects(d, a.runtime_lib, a.work, "dwc_stride_" + tag)

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
    meta = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
            "cudnn": torch.backends.cudnn.version(), "commit": man.get("commit"),
            "command": " ".join(["bench/stride_harness.py"] + sys.argv[1:]),
            "statistic": ("kernel: median of CUDA-graph replays / launches under "
                          f"{GRAPH_BELOW_MS} ms, else of per-run CUDA events" if a.graphs
                          else "median of per-run CUDA events"),
            "sides": [s for s, _ in sides]}
    rows = []
    for L in layers:
        row = L.to_dict()
        rows.append(row)
        fns = {}
        for side, tag in sides:
            for op in L.ops:
                n = L.name(op, tag)
                fns[(side, op)] = lib.entry("dwc_" + n, 3) if built.get(n) else None
            if side != "after" and all(fns[(side, op)] is None for op in L.ops):
                for op in L.ops:
                    del fns[(side, op)]
        try:
            check(lib, L, fns, gen, row)
            if not L.odd and time.time() - t0 < a.time_budget:
                timing(lib, L, fns, gen, row, a.iters, a.target_s, a.graphs,
                       [o for o in a.torch_ops.split(",") if o])
            elif not L.odd:
                row["timing"] = "skipped: time budget"
        except torch.cuda.OutOfMemoryError as ex:
            row["error"] = f"out of memory: {str(ex)[:120]}"
        except RuntimeError as ex:
            row["error"] = f"error: {str(ex).splitlines()[0][:200]}"
            try:
                sync()
            except RuntimeError:
                log("CUDA context lost; stopping")
                write(a.out, a.label, meta, rows)
                return 3
        torch.cuda.empty_cache()
        af, tb = row.get("after", {}), row.get("torch_best", {})
        log(f"{L.key}: " + " ".join(f"{op}={af.get(op + '_status')}/{fmt(af.get(op + '_rel_err'), '%.1e')}"
                                     for op in OPS)
            + f" step ours={fmt(af.get('step_ms'))} before={fmt(row.get('before', {}).get('step_ms'))}"
            + f" torch={fmt(tb.get('step'))}  t={time.time() - t0:.0f}s")
        write(a.out, a.label, meta, rows)
    write(a.out, a.label, meta, rows)
    with open(os.path.join(a.out, f"stride-{a.label}.md")) as f:
        print(f.read(), flush=True)
    ok = not any(failed_ops(r, meta["sides"]) for r in rows)
    return 0 if ok and not any(r.get("error") for r in rows) else 10


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    os._exit(code)
