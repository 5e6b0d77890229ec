"""Bias gradients (dwc.conv2d_backward_bias): correctness and bandwidth of
the dwc-aot kernels against PyTorch's best, in one process on the GPU.

    python3 bench/bias_grad_harness.py --runtime-lib RT.so --kernels-dir DIR \
        [--variant-dir DIR ...] --out OUT [--label L]

Per shape (bench/bias_grad_configs.py):
  1. correctness of every kernel: fresh uniform(-1, 1) dY, a NaN-poisoned
     f32 dB, one call; float64 reference dY.double().sum over N, H, W;
     ||ours - ref|| / ||ref|| <= 1e-5 (f32), 2e-3 (f16/bf16), no NaN left;
  2. timing (not for odd shapes): kernel = K launches (operand sets rotated
     beyond 3x L2) captured in one CUDA graph, median of 7 replays / K;
     user = median of per-launch CUDA events. PyTorch: dY.sum((0, 2, 3),
     dtype=float32) on channels_last (what autograd's bias gradient of a
     channels_last layer runs) and on contiguous NCHW; best = the minimum.
  % copy = (dY + dB) bytes / time / 4.24 TB/s.
Writes bias-grad-<label>.json / .md under --out after every shape.
Exit 0: all correct, 10: some incorrect.
"""

import argparse
import ctypes
import datetime
import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gap_harness import load_manifest, timed  # noqa: E402  (kernel + user ms)
from kernel_lib import KernelLib, link_objects  # noqa: E402
from bias_grad_configs import COPY_BPS, TOLERANCE, from_dict  # noqa: E402

import torch  # noqa: E402

TD = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
L2_BYTES = 60 * 1024 * 1024
ITERS = 300  # per-launch event samples at most


def log(*a):
    print("[bias]", *a, flush=True)


def grad(g, gen):
    return torch.empty(g.N, g.H, g.W, g.C, dtype=TD[g.dtype],
                       device="cuda").uniform_(-1, 1, generator=gen)


def check(lib, g, fns, gen, row):
    dy = grad(g, gen)
    ref = dy.double().sum(dim=(0, 1, 2))
    for side, fn in fns.items():
        r = row.setdefault(side, {})
        if fn is None:
            r["status"] = "not built"
            continue
        db = torch.full((g.C,), float("nan"), dtype=torch.float32, device="cuda")
        lib.call(fn, dy, db)
        torch.cuda.synchronize()
        nan = int(torch.isnan(db).sum().item())
        err = torch.linalg.vector_norm(db.double() - ref).item() / max(
            torch.linalg.vector_norm(ref).item(), 1e-300)
        r.update(rel_err=err, nan=nan,
                 status="ok" if nan == 0 and err <= TOLERANCE[g.dtype] else "WRONG")


def timing(lib, g, fns, gen, row, target_s):
    nbuf = int(min(2048, max(2, math.ceil(3 * L2_BYTES / g.bytes_moved()))))
    row["buffers"] = nbuf
    sets = [grad(g, gen) for _ in range(nbuf)]
    outs = [torch.empty(g.C, dtype=torch.float32, device="cuda") for _ in sets]
    for side, fn in fns.items():
        r = row[side]
        if fn is not None and r.get("status") == "ok":
            r["ms"], r["user_ms"] = timed(lambda i: lib.call(fn, sets[i], outs[i]), nbuf,
                                          ITERS, target_s)
    pt = {}
    for layout in ("channels_last", "nchw"):
        ts = [s.permute(0, 3, 1, 2) for s in sets]
        if layout == "nchw":
            ts = [t.contiguous() for t in ts]
        with torch.no_grad():
            k, u = timed(lambda i: ts[i].sum(dim=(0, 2, 3), dtype=torch.float32), nbuf,
                         ITERS, target_s)
        pt[layout], pt["user/" + layout] = k or u, u
        del ts
    row["torch"] = pt
    row["torch_best"] = min(pt["channels_last"], pt["nchw"])


def fmt(v, p="%.4f"):
    return (p % v) if isinstance(v, (int, float)) else "-"


def write(out, label, meta, rows):
    os.makedirs(out, exist_ok=True)
    stem = os.path.join(out, f"bias-grad-{label}")
    with open(stem + ".json", "w") as f:
        json.dump({"meta": meta, "rows": rows}, f, indent=1)
    pct = lambda g, ms: 100 * g.bytes_moved() / (ms * 1e-3) / COPY_BPS if ms else None
    lines = [f"# dwc bias gradients vs PyTorch ({meta['gpu']}, torch {meta['torch']}, "
             f"{meta['date']})", "", f"Command: `{meta['command']}` (commit {meta['commit']})",
             "", "Kernel ms (CUDA graph of K launches, operand sets rotated beyond 3x L2, "
             "median of 7 replays / K); user = per-launch CUDA events. PyTorch = "
             "dY.sum((0, 2, 3), dtype=float32), channels_last (autograd's path) and NCHW; "
             "x = PyTorch best / ours; % = (dY + dB) bytes / time / 4.24 TB/s.", "",
             "| shape | net | ours | % copy | PT channels_last | PT NCHW | x | user ours / PT "
             "channels_last | correct |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        g, a, t = from_dict(r), r.get("after", {}), r.get("torch", {})
        bad = [s for s in meta["sides"] if r.get(s, {}).get("status") != "ok"]
        ok = ("yes" if not bad else "NO " + " ".join(bad)) + f" ({fmt(a.get('rel_err'), '%.1e')})"
        x = r["torch_best"] / a["ms"] if r.get("torch_best") and a.get("ms") else None
        lines.append(f"| {r['key']}{' (odd)' if r.get('odd') else ''} | {r.get('net', '')} | "
                     f"{fmt(a.get('ms'))} | {fmt(pct(g, a.get('ms')), '%.0f%%')} | "
                     f"{fmt(t.get('channels_last'))} | {fmt(t.get('nchw'))} | {fmt(x, '%.2f')} | "
                     f"{fmt(a.get('user_ms'))} / {fmt(t.get('user/channels_last'))} | {ok} |")
    variants = [s for s in meta["sides"] if s != "after"]
    if variants:
        lines += ["", "| shape | ours | " + " | ".join(variants) + " |",
                  "|---|---|" + "---|" * len(variants)]
        for r in rows:
            if not r.get("odd"):
                lines.append(f"| {r['key']} | {fmt(r.get('after', {}).get('ms'))} | " +
                             " | ".join(fmt(r.get(v, {}).get("ms")) for v in variants) + " |")
    with open(stem + ".md", "w") as f:
        f.write("\n".join(lines) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernels-dir", required=True)
    ap.add_argument("--variant-dir", action="append", default=[])
    ap.add_argument("--runtime-lib", required=True)
    ap.add_argument("--work", default="/tmp/dwc-bias-bench")
    ap.add_argument("--out", default=os.environ.get("OUT", "/tmp/dwc-bench-out"))
    ap.add_argument("--label", default="bias")
    ap.add_argument("--target-s", type=float, default=0.02)
    ap.add_argument("--time-budget", type=float, default=60.0)
    ap.add_argument("--seed", type=int, default=2021)
    a = ap.parse_args(argv)
    t0 = time.time()
    man = load_manifest(a.kernels_dir)
    shapes = [from_dict(e) for e in man["configs"]]
    shapes.sort(key=lambda g: (not g.odd, g.N == 1))
    built = {e["name"]: e.get("built") for e in man["configs"]}
    libs = link_objects(a.kernels_dir, a.runtime_lib, a.work, "dwc_bias_after")
    sides = [("after", "")]
    for d in a.variant_dir:
        vman = load_manifest(d)
        built.update({e["name"]: e.get("built") for e in vman["configs"]})
        tag = vman["configs"][0].get("tag") or "variant"
        sides.append((tag, tag))
        libs += link_objects(d, a.runtime_lib, a.work, "dwc_bias_" + tag)
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
            "commit": man.get("commit"), "sides": [s for s, _ in sides],
            "command": " ".join(["bench/bias_grad_harness.py"] + sys.argv[1:])}
    rows = []
    for g in shapes:
        row = g.to_dict()
        rows.append(row)
        fns = {side: (lib.entry("dwc_" + g.name(tag), 2) if built.get(g.name(tag)) else None)
               for side, tag in sides}
        check(lib, g, fns, gen, row)
        if not g.odd and time.time() - t0 < a.time_budget:
            timing(lib, g, fns, gen, row, a.target_s)
        torch.cuda.empty_cache()
        af = row.get("after", {})
        log(f"{g.key}: {af.get('status')} {fmt(af.get('rel_err'), '%.1e')} "
            f"{fmt(af.get('ms'))} pt {fmt(row.get('torch_best'))} t={time.time() - t0:.0f}s")
        write(a.out, a.label, meta, rows)
    ok = all(r.get(s, {}).get("status") == "ok" for r in rows for s in meta["sides"])
    return 0 if ok else 10


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    os._exit(code)
