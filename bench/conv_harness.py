"""Dense conv2d harness: our im2win kernels vs cuDNN vs im2col + cuBLAS.

Runs on the GPU machine (torch + ctypes); bench/gpu_conv.sh builds the
libraries and calls it. For each configuration of .carry/conv_kernels:

  1. correctness: fresh U(-1,1) inputs, NaN-poisoned output inside NaN
     guards, our entry point, float64 reference (torch conv2d in float64 on
     images 0, N/2, N-1) -> ||ours - ref|| / ||ref||, NaNs, guard writes;
  2. timing (layers and ablation, while the time budget lasts): ours,
     PyTorch conv2d channels_last with cudnn.benchmark=True (cuDNN), and
     im2col + cuBLAS written with PyTorch ops (F.unfold + matmul), CUDA
     events, median, two rotating input buffers (all layer inputs but the
     last few exceed L2 together with their outputs);
  3. peak device memory of each method: x + w + the output + temporaries.
     PyTorch's extra is read from torch.cuda.max_memory_allocated around one
     call after warm-up (output + workspace + unfold buffer); ours is the
     output plus what the compiled function allocates (the IR's allocations
     are static: the im2win tensor of the separate variant, else nothing).

Writes conv-<label>.json and conv-<label>.md under --out after every row.
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
from conv_configs import ConvConfig  # noqa: E402

from kernel_lib import KernelLib  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

TD = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
KEYS = ("N", "H", "W", "C", "OC", "FH", "FW", "dtype", "stride", "dilation",
        "padding", "bias", "variant", "layer", "note")


def log(*a):
    print("[conv]", *a, flush=True)


def sync():
    torch.cuda.synchronize()


def make_inputs(c, gen):
    dt = TD[c.dtype]
    x = torch.empty(c.N, c.H, c.W, c.C, dtype=dt, device="cuda").uniform_(-1, 1, generator=gen)
    w = torch.empty(c.FH, c.FW, c.C, c.OC, dtype=dt, device="cuda").uniform_(-1, 1, generator=gen)
    b = torch.empty(c.OC, dtype=dt, device="cuda").uniform_(-1, 1, generator=gen) if c.bias else None
    return x, w, b


def torch_args(c):
    pt, pb, pl, pr = c.padding
    return (pt, pb, pl, pr), dict(stride=tuple(c.stride), dilation=tuple(c.dilation))


def ref_conv(c, x_nhwc, w_hwco, b):
    """torch conv2d on the NHWC data as channels_last NCHW (explicit F.pad
    for asymmetric padding). Returns NCHW (channels_last)."""
    x = x_nhwc.permute(0, 3, 1, 2)
    wt = w_hwco.permute(3, 2, 0, 1)
    (pt, pb, pl, pr), kw = torch_args(c)
    if pt == pb and pl == pr:
        return F.conv2d(x, wt, b, padding=(pt, pl), **kw)
    return F.conv2d(F.pad(x, (pl, pr, pt, pb)), wt, b, padding=0, **kw)


def im2col_gemm(c, x_nchw, wmat, b):
    """im2col + cuBLAS with PyTorch ops: unfold to N x (C*FH*FW) x L, one
    batched matmul with the OC x (C*FH*FW) filter."""
    (pt, pb, pl, pr), kw = torch_args(c)
    if pt != pb or pl != pr:
        x_nchw = F.pad(x_nchw, (pl, pr, pt, pb))
        pt = pl = 0
    cols = F.unfold(x_nchw, (c.FH, c.FW), dilation=kw["dilation"], padding=(pt, pl),
                    stride=kw["stride"])
    out = torch.matmul(wmat, cols)
    if b is not None:
        out = out + b.view(1, -1, 1)
    return out.view(c.N, c.OC, c.OH, c.OW)


CHIP = ""  # the manifest's target (sm_90a: dwc-to-nvvm picks wgmma itself)


def time_fn(launch, nbuf, target_s=0.25, max_runs=200, min_runs=5):
    launch(0)
    sync()
    launch(1 % nbuf)
    sync()
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    e0.record()
    launch(0)
    e1.record()
    sync()
    t1 = max(e0.elapsed_time(e1) / 1e3, 1e-6)
    runs = max(min_runs, min(max_runs, int(target_s / t1)))
    st = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    en = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    for i in range(runs):
        st[i].record()
        launch(i % nbuf)
        en[i].record()
    sync()
    ts = [a.elapsed_time(z) for a, z in zip(st, en)]
    return statistics.median(ts), runs


def torch_peak_extra(fn):
    """Bytes PyTorch allocates at peak during one call beyond what was
    allocated before (output + workspace + temporaries)."""
    sync()
    torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated()
    out = fn()
    sync()
    peak = torch.cuda.max_memory_allocated() - base
    del out
    return peak


def check(ours, c, gen, row):
    fn = ours.entry(c.symbol, 3 + (1 if c.bias else 0))
    if fn is None:
        row["status"] = "symbol missing"
        return False
    x, w, b = make_inputs(c, gen)
    dt = TD[c.dtype]
    n = c.N * c.OH * c.OW * c.OC
    guard = 4096
    buf = torch.full((guard + n + guard,), float("nan"), dtype=dt, device="cuda")
    y = buf[guard:guard + n].view(c.N, c.OH, c.OW, c.OC)
    sync()
    ours.call(fn, x, w, b, y)
    sync()
    row["nan_count"] = int(torch.isnan(y).sum().item())
    row["guard_writes"] = int((~torch.isnan(buf[:guard])).sum().item() + (~torch.isnan(buf[guard + n:])).sum().item())
    idx = sorted({0, c.N // 2, c.N - 1})
    it = torch.tensor(idx, device="cuda")
    torch.backends.cudnn.benchmark = False
    ref = ref_conv(c, x.index_select(0, it).double(), w.double(),
                   b.double() if b is not None else None).permute(0, 2, 3, 1)
    ys = y.index_select(0, it).double()
    nref = torch.linalg.vector_norm(ref).item()
    row["rel_err"] = torch.linalg.vector_norm(ys - ref).item() / max(nref, 1e-300)
    row["checked_images"] = idx
    ok = row["nan_count"] == 0 and row["guard_writes"] == 0 and math.isfinite(row["rel_err"]) \
        and row["rel_err"] <= c.tolerance()
    row["correct"] = bool(ok)
    row["status"] = "ok" if ok else ("NaN/unwritten" if row["nan_count"] else
                                     "wrote outside" if row["guard_writes"] else "wrong result")
    del x, w, b, y, buf, ref, ys
    sync()
    return ok


def timing(ours, c, gen, row, with_refs):
    fn = ours.entry(c.symbol, 3 + (1 if c.bias else 0))
    dt = TD[c.dtype]
    per = c.bytes("x") + c.bytes("y")
    nbuf = 2 if per < 2e9 else 1
    sets = [make_inputs(c, gen) for _ in range(nbuf)]
    w, b = sets[0][1], sets[0][2]
    xs = [s[0] for s in sets]
    ys = [torch.empty(c.N, c.OH, c.OW, c.OC, dtype=dt, device="cuda") for _ in range(nbuf)]
    fl = c.flops()
    med, runs = time_fn(lambda i: ours.call(fn, xs[i], w, b, ys[i]), nbuf)
    row.update(ours_ms=med, ours_runs=runs, ours_tflops=fl / med / 1e9)
    io = c.bytes("x") + c.bytes("w") + c.bytes("b")
    row["ours_peak_bytes"] = io + c.bytes("y") + c.our_temp_bytes(CHIP)
    row["ours_extra_bytes"] = c.our_temp_bytes(CHIP)
    ys.clear()
    if not with_refs:
        return
    xv = [x.permute(0, 3, 1, 2) for x in xs]          # channels_last NCHW views
    wt = w.permute(3, 2, 0, 1).contiguous(memory_format=torch.channels_last)
    (pt, pb, pl, pr), kw = torch_args(c)
    sym = pt == pb and pl == pr
    # cuDNN, autotuned.
    torch.backends.cudnn.benchmark = True
    if sym:
        cud = lambda i: F.conv2d(xv[i], wt, b, padding=(pt, pl), **kw)
    else:
        cud = lambda i: F.conv2d(F.pad(xv[i], (pl, pr, pt, pb)), wt, b, padding=0, **kw)
    t0 = time.time()
    med, runs = time_fn(cud, nbuf)
    row.update(cudnn_ms=med, cudnn_runs=runs, cudnn_tflops=fl / med / 1e9,
               cudnn_wall_s=time.time() - t0)
    ex = torch_peak_extra(lambda: cud(0))
    row["cudnn_extra_bytes"] = ex - c.bytes("y")
    row["cudnn_peak_bytes"] = io + ex
    # im2col + cuBLAS.
    # unfold orders K as (C, FH, FW): the filter as OC x (C*FH*FW).
    wmat = w.permute(3, 2, 0, 1).reshape(c.OC, -1).contiguous()
    xc = [x.permute(0, 3, 1, 2).contiguous() for x in xs]   # unfold wants NCHW
    cols_bytes = c.N * c.C * c.FH * c.FW * c.OH * c.OW * ESZ(c)
    if cols_bytes > 40e9:
        row["im2col"] = "skipped: column buffer over 40 GB"
    else:
        med, runs = time_fn(lambda i: im2col_gemm(c, xc[i], wmat, b), nbuf)
        row.update(im2col_ms=med, im2col_runs=runs, im2col_tflops=fl / med / 1e9)
        ex = torch_peak_extra(lambda: im2col_gemm(c, xc[0], wmat, b))
        row["im2col_extra_bytes"] = ex - c.bytes("y")
        row["im2col_peak_bytes"] = io + ex
    del xc, xv, sets, xs
    sync()


def ESZ(c):
    return {"f32": 4, "f16": 2, "bf16": 2}[c.dtype]


def geomean(v):
    v = [x for x in v if x and x > 0]
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else float("nan")


def write_report(args, man, rows):
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    meta = {"label": args.label, "date": stamp, "commit": man.get("commit"),
            "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
            "cudnn": torch.backends.cudnn.version(),
            "command": os.environ.get("DWC_BENCH_COMMAND", "")}
    with open(os.path.join(args.out, f"conv-{args.label}.json"), "w") as f:
        json.dump({"meta": meta, "rows": rows}, f, indent=1)
    L = [f"# dense conv2d via im2win, {args.label} ({stamp})", "",
         f"{meta['gpu']}, torch {meta['torch']}, cuDNN {meta['cudnn']}, commit {meta['commit']}.",
         f"Command: `{meta['command']}`", "",
         "Correctness: float64 reference on images 0, N/2, N-1, NaN-poisoned output with guards; "
         "tolerance 1e-5 (f32), 2e-3 (f16), 4e-3 (bf16). FP32 baselines with TF32 disabled "
         "(cudnn.allow_tf32 = matmul.allow_tf32 = False). Peak memory = x + w + output + "
         "temporaries (PyTorch: its peak allocation around one call; ours: the function's "
         "static allocations). TFLOP/s count 2*N*OH*OW*OC*FH*FW*C.", ""]
    lay = [r for r in rows if r.get("variant") == "base" and r.get("layer")]
    if lay:
        L += ["## The 12 layers, batch 128", "",
              "| layer | C,H,W x OC,F,s | dtype | rel err | ours ms | TFLOP/s | cuDNN ms | TFLOP/s | im2col ms | ours/cuDNN speed | ours/im2col speed | peak MiB ours / cuDNN / im2col | mem ours/cuDNN |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in lay:
            sp = r["cudnn_ms"] / r["ours_ms"] if r.get("cudnn_ms") and r.get("ours_ms") else None
            si = r["im2col_ms"] / r["ours_ms"] if r.get("im2col_ms") and r.get("ours_ms") else None
            mr = r["ours_peak_bytes"] / r["cudnn_peak_bytes"] if r.get("cudnn_peak_bytes") else None
            mib = lambda k: f"{r[k] / 2**20:.0f}" if r.get(k) else "-"
            f = lambda k, fmt="{:.3f}": fmt.format(r[k]) if r.get(k) is not None else "-"
            L.append(f"| {r['layer']} | {r['C']},{r['H']},{r['W']} x {r['OC']},{r['FH']},{r['stride'][0]} | {r['dtype']} "
                     f"| {f('rel_err', '{:.1e}')} {'' if r.get('correct') else 'FAIL'} | {f('ours_ms')} | {f('ours_tflops', '{:.1f}')} "
                     f"| {f('cudnn_ms')} | {f('cudnn_tflops', '{:.1f}')} | {f('im2col_ms')} "
                     f"| {sp and f'{sp:.2f}x' or '-'} | {si and f'{si:.2f}x' or '-'} "
                     f"| {mib('ours_peak_bytes')} / {mib('cudnn_peak_bytes')} / {mib('im2col_peak_bytes')} "
                     f"| {mr and f'{mr:.2f}' or '-'} |")
        L.append("")
        for dt in ("f32", "f16"):
            rs = [r for r in lay if r["dtype"] == dt and r.get("ours_ms")]
            if not rs:
                continue
            g1 = geomean([r["cudnn_ms"] / r["ours_ms"] for r in rs if r.get("cudnn_ms")])
            g2 = geomean([r["im2col_ms"] / r["ours_ms"] for r in rs if r.get("im2col_ms")])
            g3 = geomean([r["ours_peak_bytes"] / r["cudnn_peak_bytes"] for r in rs if r.get("cudnn_peak_bytes")])
            g4 = geomean([r["ours_peak_bytes"] / r["im2col_peak_bytes"] for r in rs if r.get("im2col_peak_bytes")])
            L.append(f"- {dt}: {len(rs)} layers timed, {sum(1 for r in lay if r['dtype'] == dt and r.get('correct'))} correct; "
                     f"geomean speed vs cuDNN {g1:.2f}x, vs im2col+cuBLAS {g2:.2f}x; "
                     f"geomean peak memory ours/cuDNN {g3:.2f}, ours/im2col {g4:.2f}")
        L.append("")
    ab = [r for r in rows if r.get("variant") != "base" or not r.get("layer")]
    if ab:
        L += ["## Odd shapes and ablation variants", "",
              "| name | note | rel err | status | ours ms | TFLOP/s | base ms (same layer) | variant/base time | peak MiB (temporaries) |",
              "|---|---|---|---|---|---|---|---|---|"]
        base = {(r["layer"], r["dtype"]): r for r in lay}
        for r in ab:
            bl = base.get((r.get("layer"), r["dtype"]))
            bms = bl.get("ours_ms") if bl else None
            rat = r["ours_ms"] / bms if bms and r.get("ours_ms") else None
            L.append(f"| {r['name']} | {r.get('note') or r.get('variant')} | {r.get('rel_err', float('nan')):.1e} "
                     f"| {r.get('status')} | {r.get('ours_ms', float('nan')):.3f} | {r.get('ours_tflops', float('nan')):.1f} "
                     f"| {bms if bms is None else f'{bms:.3f}'} | {rat and f'{rat:.2f}' or '-'} "
                     f"| {r.get('ours_peak_bytes', 0) / 2**20:.0f} ({r.get('ours_extra_bytes', 0) / 2**20:.0f}) |")
    with open(os.path.join(args.out, f"conv-{args.label}.md"), "w") as f:
        f.write("\n".join(L) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--runtime-lib", required=True)
    ap.add_argument("--kernel-lib", action="append", default=[])
    ap.add_argument("--out", required=True)
    ap.add_argument("--label", default="conv")
    ap.add_argument("--only", default="")
    ap.add_argument("--time-budget", type=float, default=400)
    ap.add_argument("--seed", type=int, default=4321)
    ap.add_argument("--no-timing", action="store_true", help="correctness checks only")
    args = ap.parse_args()
    t_start = time.time()
    with open(args.manifest) as f:
        man = json.load(f)
    global CHIP
    CHIP = man.get("chip", "")
    cfgs = []
    for e in man["configs"]:
        c = ConvConfig(**{k: e[k] for k in KEYS if k in e})
        if args.only and not any(k in c.name for k in args.only.split(",")):
            continue
        cfgs.append((c, e))
    torch.zeros(1, device="cuda")
    # FP32 means FP32: no TF32 tensor cores in cuDNN or cuBLAS (PyTorch lets
    # cuDNN use TF32 for convolutions by default).
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    ours = KernelLib(args.runtime_lib, args.kernel_lib)
    assert ours.rt.dwcInit() == 0, "dwcInit failed"
    ours.rt.dwcSetStream(ctypes.c_void_p(torch.cuda.current_stream().cuda_stream))
    gen = torch.Generator(device="cuda")
    gen.manual_seed(args.seed)
    rows = []
    byname = {}
    for c, e in cfgs:
        r = c.to_dict()
        r["built"] = e.get("built", False)
        rows.append(r)
        byname[c.name] = r
    # 1. correctness of everything.
    for c, e in cfgs:
        r = byname[c.name]
        if not r["built"]:
            r["status"] = "build failed"
            continue
        try:
            check(ours, c, gen, r)
        except Exception as ex:  # noqa: BLE001
            r["status"] = f"error: {ex}"
            r["correct"] = False
        log(f"{c.name}: {r.get('status')} rel_err {r.get('rel_err', float('nan')):.2e}")
    write_report(args, man, rows)
    # 2. timing: base layers (with cuDNN and im2col), then the rest.
    order = [x for x in cfgs if x[0].variant == "base" and x[0].layer] + \
            [x for x in cfgs if not (x[0].variant == "base" and x[0].layer)]
    for c, e in order:
        r = byname[c.name]
        if not r.get("correct"):
            continue
        if args.no_timing or time.time() - t_start > args.time_budget:
            r["timing"] = "skipped: " + ("--no-timing" if args.no_timing else "time budget")
            continue
        refs = c.variant == "base" and bool(c.layer)
        try:
            timing(ours, c, gen, r, refs)
            r["timing"] = "done"
        except Exception as ex:  # noqa: BLE001
            r["timing"] = f"error: {ex}"
            torch.cuda.empty_cache()
        log(f"{c.name}: ours {r.get('ours_ms', float('nan')):.3f} ms cudnn {r.get('cudnn_ms', float('nan')):.3f} "
            f"im2col {r.get('im2col_ms', float('nan')):.3f}")
        torch.cuda.empty_cache()
        write_report(args, man, rows)
    write_report(args, man, rows)
    bad = [r["name"] for r in rows if not r.get("correct")]
    log(f"done in {time.time() - t_start:.0f} s; incorrect: {bad}")
    return 10 if bad else 0


if __name__ == "__main__":
    rc = main()
    sys.stdout.flush()
    # Skip interpreter teardown: the CUDA runtime and our driver-API runtime
    # both tear down at exit and abort with a double free.
    os._exit(rc)
