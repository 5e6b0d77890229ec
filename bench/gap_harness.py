"""Global average pooling (issue 20): correctness and bandwidth of the dwc-aot
forward (dwc.global_avg_pool) and backward (pool2d_backward avg over the
whole map) kernels against PyTorch's best, in one process on the GPU machine.

    python3 bench/gap_harness.py --runtime-lib RT.so --kernels-dir DIR \
        [--before-dir DIR] [--variant-dir DIR ...] --out OUT [--label L]

Per shape (bench/gap_configs.py):
  1. correctness of every kernel (ours, before, variants): fresh
     uniform(-1, 1) inputs, NaN-poisoned outputs, one call; float64
     reference (x.double().mean over H, W; dY.double() / (H * W) broadcast);
     ||ours - ref|| / ||ref|| <= 1e-5 (f32), 2e-3 (f16/bf16), no NaN left;
  2. timing (not for odd shapes): CUDA events around every run, median, a
     warm-up run first, operand sets rotated so that the working set exceeds
     3x L2 (at most 2048 sets). PyTorch forward: x.mean((2, 3), keepdim) and
     F.adaptive_avg_pool2d(x, 1) on channels_last and on contiguous NCHW
     tensors; backward: aten._adaptive_avg_pool2d_backward and the
     broadcast-divide (dY.expand / (H * W)).contiguous() in both layouts
     (dwc_torch's autograd formula is the channels_last one); each with
     cudnn.benchmark on and off. PyTorch's best = the minimum over those.
  % copy = bytes / time / 4.24 TB/s, bytes = X (or dX) + Y (or dY) once.
Writes gap-<label>.json / .md under --out after every shape.
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
from gap_configs import COPY_BPS, L2_BYTES, OPS, TOLERANCE, gap_from_dict, select  # noqa: E402

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

TD = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
CL = torch.channels_last


def log(*a):
    print("[gap]", *a, flush=True)


def sync():
    torch.cuda.synchronize()


def operands(g, gen):
    x = torch.empty(g.N, g.H, g.W, g.C, dtype=TD[g.dtype], device="cuda").uniform_(-1, 1, generator=gen)
    dy = torch.empty(g.N, 1, 1, g.C, dtype=TD[g.dtype], device="cuda").uniform_(-1, 1, generator=gen)
    return x, dy


def call_args(op, x, dy):
    return (x,) if op == "fwd" else (x, dy)


def out_like(g, op):
    return (g.N, 1, 1, g.C) if op == "fwd" else (g.N, g.H, g.W, g.C)


def reference(g, op, x, dy):
    if op == "fwd":
        return x.double().mean(dim=(1, 2), keepdim=True)
    return (dy.double() / (g.H * g.W)).expand(g.N, g.H, g.W, g.C)


def check(lib, g, fns, gen, row):
    x, dy = operands(g, gen)
    for (side, op), fn in fns.items():
        r = row.setdefault(side, {})
        if fn is None:
            r[op + "_status"] = "not built"
            continue
        out = torch.full(out_like(g, op), float("nan"), dtype=TD[g.dtype], device="cuda")
        lib.call(fn, *call_args(op, x, dy), out)
        sync()
        ref = reference(g, op, x, dy)
        nan = int(torch.isnan(out).sum().item())
        err = torch.linalg.vector_norm(out.double() - ref).item() / max(
            torch.linalg.vector_norm(ref).item(), 1e-300)
        r[op + "_rel_err"], r[op + "_nan"] = err, nan
        r[op + "_status"] = "ok" if nan == 0 and err <= TOLERANCE[g.dtype] else "WRONG"


def timed(launch, nbuf, iters, target_s):
    """(kernel ms from a CUDA graph, user-path ms from per-launch events)."""
    user = time_fn(launch, nbuf, iters, target_s)
    try:
        kern = graph_time(launch, nbuf)
    except RuntimeError as ex:
        log("graph capture failed:", str(ex).splitlines()[0][:160])
        kern = None
    return kern, user


def time_fn(launch, nbuf, iters, target_s):
    launch(0)
    sync()
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    e0.record()
    launch(1 % nbuf)
    e1.record()
    sync()
    t1 = max(e0.elapsed_time(e1) / 1e3, 1e-6)
    runs = max(20, min(iters, int(target_s / t1)))
    st = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    en = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    for i in range(runs):
        st[i].record()
        launch(i % nbuf)
        en[i].record()
    sync()
    return statistics.median(s.elapsed_time(e) for s, e in zip(st, en))


def torch_variants(g, sets, nbuf, iters, target_s):
    """{variant: {fwd, bwd}} in ms."""
    res = {}
    hw = g.H * g.W
    for layout in ("channels_last", "nchw"):
        if layout == "nchw":
            ts = [(x.permute(0, 3, 1, 2).contiguous(), dy.permute(0, 3, 1, 2).contiguous())
                  for x, dy in sets]
            fmt = torch.contiguous_format
        else:
            ts = [(x.permute(0, 3, 1, 2), dy.permute(0, 3, 1, 2)) for x, dy in sets]
            fmt = CL
        for bench in (True, False):
            torch.backends.cudnn.benchmark = bench
            calls = {
                "fwd/mean": lambda i: ts[i][0].mean(dim=(2, 3), keepdim=True),
                "fwd/adaptive": lambda i: F.adaptive_avg_pool2d(ts[i][0], 1),
                "bwd/adaptive": lambda i: torch.ops.aten._adaptive_avg_pool2d_backward(
                    ts[i][1], ts[i][0]),
                "bwd/expand": lambda i: (ts[i][1].expand(g.N, g.C, g.H, g.W) / hw).contiguous(
                    memory_format=fmt),
            }
            with torch.no_grad():
                for k, fn in calls.items():
                    kern, user = timed(fn, nbuf, iters, target_s)
                    res[f"{layout}/bench={'on' if bench else 'off'}/{k}"] = kern or user
                    res[f"user/{layout}/bench={'on' if bench else 'off'}/{k}"] = user
        del ts
    torch.backends.cudnn.benchmark = False
    return res


def timing(lib, g, fns, gen, row, iters, target_s):
    nbuf = int(min(2048, max(2, math.ceil(3 * L2_BYTES / g.bytes_moved()))))
    row["buffers"] = nbuf
    sets = [operands(g, gen) for _ in range(nbuf)]
    for (side, op), fn in fns.items():
        r = row[side]
        if fn is None or r.get(op + "_status") != "ok":
            continue
        outs = [torch.empty(out_like(g, op), dtype=TD[g.dtype], device="cuda") for _ in sets]
        r[op + "_ms"], r[op + "_user_ms"] = timed(
            lambda i: lib.call(fn, *call_args(op, *sets[i]), outs[i]), nbuf, iters, target_s)
        del outs
    tv = torch_variants(g, sets, nbuf, iters, target_s)
    row["torch"] = tv
    row["torch_best"] = {op: min(v for k, v in tv.items() if f"/{op}/" in k and
                                 not k.startswith("user/")) for op in OPS}
    row["torch_best_user"] = {op: min(v for k, v in tv.items() if f"/{op}/" in k and
                                      k.startswith("user/")) for op in OPS}
    # dwc_torch's autograd backward today: the channels_last broadcast-divide.
    row["torch_binding_bwd"] = min(v for k, v in tv.items()
                                   if k.startswith("channels_last") and k.endswith("bwd/expand"))


def fmt(v, p="%.4f"):
    return (p % v) if isinstance(v, (int, float)) else "-"


def pct(g, ms):
    return 100 * g.bytes_moved() / (ms * 1e-3) / COPY_BPS if ms else None


def write(out, label, meta, rows):
    os.makedirs(out, exist_ok=True)
    stem = os.path.join(out, f"gap-{label}")
    with open(stem + ".json", "w") as f:
        json.dump({"meta": meta, "rows": rows}, f, indent=1)
    lines = [f"# dwc global average pooling vs PyTorch ({meta['gpu']}, torch {meta['torch']}, "
             f"{meta['date']})", "", f"Command: `{meta['command']}` (commit {meta['commit']})", "",
             "Kernel times in ms: K back-to-back launches captured in a CUDA graph (operand sets "
             "rotated beyond 3x L2, K = min(max(sets, 32), 512)), median of 7 replays / K; user = "
             "median of per-launch CUDA events around one host call (includes the launch "
             "latency). "
             "PyTorch best = min over mean / adaptive_avg_pool2d (fwd), "
             "_adaptive_avg_pool2d_backward / expand-divide-contiguous (bwd) x channels_last / "
             "NCHW x cudnn.benchmark on / off. x = PyTorch best / ours. % = bytes (X + Y once) / "
             "time / 4.24 TB/s. before = main's kernels (fwd: the convert-dwc-to-gpu-pool block "
             "reduction; bwd: its pool2d_backward gather); binding bwd = dwc_torch's autograd "
             "formula today (channels_last expand / divide / contiguous).", "",
             "| shape | net | fwd before | fwd ours | fwd % | fwd PT | fwd PT % | fwd x | "
             "bwd before | bwd ours | bwd % | bwd PT | binding bwd | bwd x | "
             "user fwd ours / PT | user bwd ours / PT | correct |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        g = gap_from_dict(r)
        a, b, t = r.get("after", {}), r.get("before", {}), r.get("torch_best", {})
        bad = [f"{s}:{k[:-7]}" for s in meta["sides"] for k, v in r.get(s, {}).items()
               if k.endswith("_status") and v != "ok"]
        ok = "yes" if not bad else "NO " + " ".join(bad)
        if r.get("odd"):
            errs = ", ".join(f"{op} {fmt(a.get(op + '_rel_err'), '%.1e')}" for op in OPS)
            lines.append(f"| {r['key']} (odd) | - | - | - | - | - | - | - | - | - | - | - | - | - | "
                         f"- | - | {ok} ({errs}) |")
            continue
        x = lambda op: t[op] / a[op + "_ms"] if t.get(op) and a.get(op + "_ms") else None
        lines.append(
            f"| {r['key']} | {r.get('net', '')} | {fmt(b.get('fwd_ms'))} | {fmt(a.get('fwd_ms'))} | "
            f"{fmt(pct(g, a.get('fwd_ms')), '%.0f%%')} | {fmt(t.get('fwd'))} | "
            f"{fmt(pct(g, t.get('fwd')), '%.0f%%')} | {fmt(x('fwd'), '%.2f')} | "
            f"{fmt(b.get('bwd_ms'))} | {fmt(a.get('bwd_ms'))} | {fmt(pct(g, a.get('bwd_ms')), '%.0f%%')} | "
            f"{fmt(t.get('bwd'))} | {fmt(r.get('torch_binding_bwd'))} | {fmt(x('bwd'), '%.2f')} | "
            f"{fmt(a.get('fwd_user_ms'))} / {fmt(r.get('torch_best_user', {}).get('fwd'))} | "
            f"{fmt(a.get('bwd_user_ms'))} / {fmt(r.get('torch_best_user', {}).get('bwd'))} | {ok} |")
    variants = [s for s in meta["sides"] if s not in ("after", "before")]
    if variants:
        lines += ["", "Tuning variants (ms; kernels of dwc-aot with the options in the variant "
                  "manifests):", "", "| shape | op | ours | " + " | ".join(variants) + " |",
                  "|---|---|---|" + "---|" * len(variants)]
        for r in rows:
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
    ap.add_argument("--only", default="")
    ap.add_argument("--kernels-dir", required=True)
    ap.add_argument("--before-dir", default="")
    ap.add_argument("--variant-dir", action="append", default=[])
    ap.add_argument("--runtime-lib", required=True)
    ap.add_argument("--work", default="/tmp/dwc-gap-bench")
    ap.add_argument("--out", default=os.environ.get("OUT", "/tmp/dwc-bench-out"))
    ap.add_argument("--label", default="gap")
    ap.add_argument("--iters", type=int, default=300)
    ap.add_argument("--target-s", type=float, default=0.03)
    ap.add_argument("--time-budget", type=float, default=150.0)
    ap.add_argument("--seed", type=int, default=2020)
    a = ap.parse_args(argv)
    t0 = time.time()
    man = load_manifest(a.kernels_dir)
    shapes, seen = [], set()
    for e in man["configs"]:
        if e["key"] not in seen:
            seen.add(e["key"])
            shapes.append(gap_from_dict(e))
    # Correctness-only shapes first, then training batches, then batch 1 (the
    # time budget stops timing, never checking).
    shapes = sorted(select(shapes, a.only), key=lambda g: (not g.odd, g.N == 1))
    built = {e["name"]: e.get("built") for e in man["configs"]}
    libs = link_objects(a.kernels_dir, a.runtime_lib, a.work, "dwc_gap_after")
    sides = [("after", "")]
    for kind, d in [("before", a.before_dir)] + [("variant", v) for v in a.variant_dir]:
        if not d:
            continue
        vman = load_manifest(d)
        built.update({e["name"]: e.get("built") for e in vman["configs"]})
        tag = vman["configs"][0].get("tag") or kind
        sides.append(("before" if kind == "before" else tag, tag))
        libs += link_objects(d, a.runtime_lib, a.work, "dwc_gap_" + tag)

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
            "commit": man.get("commit"),
            "command": " ".join(["bench/gap_harness.py"] + sys.argv[1:]),
            "statistic": "median of per-run CUDA events", "sides": [s for s, _ in sides]}
    rows = []
    for g in shapes:
        row = g.to_dict()
        rows.append(row)
        fns = {}
        for side, tag in sides:
            for op in OPS:
                n = g.name(op, tag)
                if built.get(n) or side == "after":
                    fns[(side, op)] = lib.entry("dwc_" + n, 2 if op == "fwd" else 3) \
                        if built.get(n) else None
        try:
            check(lib, g, fns, gen, row)
            if not g.odd and time.time() - t0 < a.time_budget:
                timing(lib, g, fns, gen, row, a.iters, a.target_s)
            elif not g.odd:
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
        log(f"{g.key}: " + " ".join(f"{op}={af.get(op + '_status')}/{fmt(af.get(op + '_rel_err'), '%.1e')}"
                                     f" {fmt(af.get(op + '_ms'))} pt {fmt(tb.get(op))}" for op in OPS)
            + f" t={time.time() - t0:.0f}s")
        write(a.out, a.label, meta, rows)
    write(a.out, a.label, meta, rows)
    ok = all(v == "ok" for r in rows for s in meta["sides"]
             for k, v in r.get(s, {}).items() if k.endswith("_status"))
    return 0 if ok and not any(r.get("error") for r in rows) else 10


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    os._exit(code)
