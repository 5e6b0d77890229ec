"""Kernel configurations of the networks' fused depthwise layers, measured:
every layer's fused forward as dwc-select-kernels configures it and under
each candidate configuration of the families that fuse (row tiles, planes
in shared memory, strided tiles), each checked against float64 and timed.
What the selection rules for fused ops are derived from.

Here (MLIR):  python3 bench/dwcbench fusion-sweep prepare [--models ...] [--dtypes f16,f32]
There (GPU):  bench/run_on_gpu.sh fusion-sweep [--only KEY,...]
"""

import argparse
import json
import os
import statistics
import time

from . import ROOT

MODELS = ("mobilenetv2_100", "efficientnet_b0", "mobilenetv3_large_100", "mnasnet_100")
PLANE_SMEM = 48 << 10


def _plane_fits(L, ch, cb, rows, cols, band):
    """The plane layout's limits (PlaneLayout): threads and staged bytes."""
    OH, OW = L.OH, L.OW
    sh, sw = L.stride
    band = min(band, OH)
    staged_rows = (band - 1) * sh + L.kernel[0]
    pitch = (OW - 1) * sw + L.kernel[1] + 1
    threads = (cb // ch) * -(-band // min(rows, band)) * -(-OW // min(cols, OW))
    return L.C % cb == 0 and threads <= 1024 and staged_rows * pitch * cb * 4 <= PLANE_SMEM


def candidates(spec):
    """[(tag, #dwc config)] worth measuring for a fused layer, most likely
    first (the default, untagged, is what the selection picks)."""
    L = spec.layer
    chans = [c for c in ((1, 2, 4) if L.dtype == "f32" else (2, 4, 8)) if L.C % c == 0]
    cols = min(L.OW, 8)
    tiles = []
    if tuple(L.stride) == (1, 1):
        for c, r, m in ((4, 4, 4), (4, 2, cols), (chans[-1], 4, 4), (chans[0], 8, 4)):
            if c in chans:
                tiles.append(("rt_c%dr%dm%d" % (c, r, m),
                              "#dwc.row_tile<channels = %d, rows = %d, columns = %d, "
                              "filter = \"registers\">" % (c, r, m)))
    else:
        for c, r, m in ((chans[-1], 2, 4), (4, 2, 2), (chans[-1], 1, 4), (chans[0], 2, 4)):
            if c in chans:
                tiles.append(("sf_c%dr%dm%d" % (c, r, m),
                              "#dwc.strided_forward<channels = %d, rows = %d, columns = %d>"
                              % (c, r, m)))
    planes = []
    for c, cb, rows, m in ((2, 16, 2, 7), (4, 32, 2, 7), (4, 16, 4, 4), (2, 32, 4, 4),
                           (4, 64, 2, 7), (1, 32, 2, 7)):
        m = min(m, L.OW)
        if L.C % c:
            continue
        for band in sorted({L.OH, 8, 4}, reverse=True):
            if band <= L.OH and _plane_fits(L, c, cb, rows, m, band):
                planes.append(("pl_c%db%dr%dm%dh%d" % (c, cb, rows, m, band),
                               "#dwc.plane<channels = %d, block_channels = %d, rows = %d, "
                               "columns = %d, band = %d>" % (c, cb, rows, m, band)))
                break  # the widest band that fits
    out = []
    for i in range(max(len(tiles), len(planes))):
        out += tiles[i:i + 1] + planes[i:i + 1]
    seen, uniq = set(), []
    for tag, cfg in out:
        if cfg not in seen:
            seen.add(cfg)
            uniq.append((tag, cfg))
    return uniq


def fused_specs(models, dtypes, batch=64):
    """{key: (FusedSpec, [model names])} of the networks' fused layers."""
    from dwc_torch import aot
    from dwc_torch.spec import FusedSpec

    from .fusion import create_model
    found = {}
    for name in models:
        for dt in dtypes:
            work, _ = aot.trace_model(create_model(name), (batch, 3, 224, 224), dt,
                                      amp=dt != "f32", train=False)
            for spec, _ops in work:
                if isinstance(spec, FusedSpec):
                    found.setdefault(spec.key, (spec, []))[1].append(name)
    return found


def prepare(args):
    from .build import build
    from .sets import Item
    specs = fused_specs(args.models.split(","), args.dtypes.split(","))
    items = []
    for key, (spec, nets) in sorted(specs.items()):
        net = "+".join(sorted(set(nets)))
        items.append(Item(spec, ("fused_fwd",), net=net))
        limit = args.max_variants if spec.dtype != "f32" else args.max_variants_f32
        for tag, cfg in candidates(spec)[:limit]:
            items.append(Item(spec, ("fused_fwd",), net=net, kernels={"fused_fwd": cfg},
                              tag=tag))
    from .fusion import odd_specs
    for spec in odd_specs():  # tails, C not a multiple of 8: correctness only
        items.append(Item(spec, ("fused_fwd",), net="odd", odd=True))
        for tag, cfg in candidates(spec)[:args.max_variants]:
            items.append(Item(spec, ("fused_fwd",), net="odd", odd=True,
                              kernels={"fused_fwd": cfg}, tag=tag))
    print("%d layers, %d kernels" % (len(specs), len(items)), flush=True)
    built, total = build(items, "fusion-sweep", "networks", args.aot, args.out, args.j)
    for f in os.listdir(args.out):  # the GPU side needs the objects and the manifest
        if f.endswith((".log", ".h")):
            os.remove(os.path.join(args.out, f))
    print("built %d of %d" % (built, total))


# --- the GPU side ---------------------------------------------------------

def _operands(spec, gen):
    import torch
    from .ops import TD
    L = spec.layer
    dt = TD[L.dtype]
    x = torch.empty(L.N, L.H, L.W, L.C, device="cuda", dtype=dt).uniform_(-2, 2, generator=gen)
    w = (torch.empty(*L.kernel, L.C, device="cuda").uniform_(-1, 1, generator=gen)
         / (L.kernel[0] * L.kernel[1]) ** 0.5).to(dt)
    ops = [x, w]
    if L.bias:
        ops.append(torch.empty(L.C, device="cuda", dtype=dt).uniform_(-1, 1, generator=gen))
    if spec.in_bias:
        ops.append(torch.empty(L.C, device="cuda", dtype=dt).uniform_(-1, 1, generator=gen))
    return ops


def _reference(spec, ops):
    """float64 NHWC output of the fused layer."""
    import torch
    from dwc_torch import fusion
    L = spec.layer
    x = ops[0].double().permute(0, 3, 1, 2)
    if spec.in_bias:
        x = x + ops[-1].double().view(1, -1, 1, 1)
    x = fusion.apply_activation(spec.in_act, x)
    pt, pb, pl, pr = L.padding
    x = torch.nn.functional.pad(x, (pl, pr, pt, pb))
    w = ops[1].double().permute(2, 0, 1).unsqueeze(1)
    b = ops[2].double() if L.bias else None
    y = torch.nn.functional.conv2d(x, w, b, L.stride, 0, L.dilation, L.C)
    return fusion.apply_activation(spec.act, y).permute(0, 2, 3, 1)


def run(args):
    import torch

    from .kernels import KernelLib, link_objects, load_manifest
    from .timing import kernel_time, operand_sets
    man = load_manifest(args.kernels)
    built = man["built"]
    so = link_objects(args.kernels, args.runtime_lib, args.work, "dwcsweep")
    stream = torch.cuda.Stream()
    torch.cuda.set_stream(stream)
    lib = KernelLib(args.runtime_lib, [so])
    lib.init(stream.cuda_stream)
    # The kernels call the runtime their library was bound to, which is
    # dwc_torch's copy when the extension is loaded (the same soname): set
    # the stream through the kernel library too, or CUDA-graph capture
    # sees no launches.
    import ctypes
    for kl in lib.libs:
        kl.dwcInit()
        kl.dwcSetStream(ctypes.c_void_p(stream.cuda_stream))
    gen = torch.Generator(device="cuda")
    gen.manual_seed(7)
    a = torch.empty(1 << 28, device="cuda")
    b = torch.empty_like(a)
    copy_ms = kernel_time(lambda i: b.copy_(a), 1, 20, 0.3)[0]
    bw = 2 * a.numel() * 4 / copy_ms
    del a, b
    from dwc_torch.spec import FusedSpec, LayerSpec
    groups = {}
    for it in man["items"]:
        tag = it.get("tag") or ""
        spec_key = it["key"][:-len(tag) - 1] if tag else it["key"]
        groups.setdefault(spec_key, []).append(it)
    t0 = time.time()
    out = open(args.out, "a")
    for key, variants in sorted(groups.items()):
        if args.only and not any(k in key for k in args.only.split(",")):
            continue
        d = variants[0]
        spec = FusedSpec.make(LayerSpec.from_dict(d["layer"]), d["act"], d["in_act"], d["in_bias"])
        L = spec.layer
        ops = _operands(spec, gen)
        ref = _reference(spec, ops)
        nbytes = (ops[0].numel() + ref.numel()) * ops[0].element_size() + ops[1].numel() * 2
        nbuf = operand_sets(nbytes)
        sets = [ops] + [_operands(spec, gen) for _ in range(nbuf - 1)]
        row = {"key": key, "nets": d.get("net", ""), "shape": [L.N, L.C, L.H, L.W],
               "kernel": list(L.kernel), "stride": list(L.stride), "dtype": L.dtype,
               "act": spec.act, "in_act": spec.in_act, "floor_ms": nbytes / bw,
               "device": torch.cuda.get_device_name(), "variants": {}}
        for it in variants:
            name = "fused_fwd_" + it["key"]
            tag = it.get("tag") or "default"
            if not built.get(name):
                row["variants"][tag] = {"status": "not built"}
                continue
            fn = lib.entry("dwc_" + name, len(ops) + 1)
            y = torch.full(ref.shape, float("nan"), device="cuda", dtype=ops[0].dtype)
            try:
                lib.call(fn, *ops, y)
                torch.cuda.synchronize()
            except RuntimeError as ex:
                row["variants"][tag] = {"status": "error: %s" % str(ex)[:100]}
                continue
            err = ((y.double() - ref).norm() / ref.norm()).item()
            tol = 1e-5 if L.dtype == "f32" else 2e-3
            ok = err <= tol
            v = {"config": (it.get("kernels") or {}).get("fused_fwd", "selected"),
                 "rel_err": err, "ok": ok}
            if ok and not d.get("odd") and time.time() - t0 < args.time_budget:
                outs = [torch.empty_like(y) for _ in sets]
                v["ms"], v["call_ms"] = kernel_time(
                    lambda i: lib.call(fn, *sets[i], outs[i]), nbuf, 200, args.target_s)
                if v["ms"] < 0.5 * row["floor_ms"]:  # an empty capture: not a time
                    v["graph_ms"], v["ms"] = v["ms"], v["call_ms"]
                v["pct_floor"] = 100 * row["floor_ms"] / v["ms"]
            row["variants"][tag] = v
        timed = {t: v["ms"] for t, v in row["variants"].items() if "ms" in v}
        if timed:
            best = min(timed, key=timed.get)
            row["best"], row["best_ms"] = best, timed[best]
            row["default_ms"] = timed.get("default")
        out.write(json.dumps(row) + "\n")
        out.flush()
        print("%s: default %s best %s %s (%.0f%% floor) bad=%s" % (
            key, _fmt(row.get("default_ms")), row.get("best"), _fmt(row.get("best_ms")),
            100 * row["floor_ms"] / row["best_ms"] if timed else 0,
            [t for t, v in row["variants"].items() if v.get("ok") is False]), flush=True)
        del sets
        torch.cuda.empty_cache()
    return 0


def _fmt(ms):
    return "-" if ms is None else "%.1fus" % (1e3 * ms)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="dwcbench fusion-sweep", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--aot", default=os.path.join(ROOT, "build/bin/dwc-aot"))
    p.add_argument("--out", default=os.path.join(ROOT, ".carry", "fusion-sweep"))
    p.add_argument("--models", default=",".join(MODELS))
    p.add_argument("--dtypes", default="f16,f32")
    p.add_argument("--max-variants", type=int, default=10)
    p.add_argument("--max-variants-f32", type=int, default=4)
    p.add_argument("-j", type=int, default=2)
    r = sub.add_parser("run")
    r.add_argument("--kernels", default=os.path.join(ROOT, ".carry", "fusion-sweep"))
    r.add_argument("--runtime-lib", required=True)
    r.add_argument("--work", default="/tmp/dwcbench")
    r.add_argument("--out", required=True)
    r.add_argument("--only", default="")
    r.add_argument("--target-s", type=float, default=0.15)
    r.add_argument("--time-budget", type=float, default=400)
    args = ap.parse_args(argv)
    return prepare(args) if args.cmd == "prepare" else run(args)
