"""The benchmark's one main loop, on the GPU machine: for every item of a
built kernel directory, check each op against float64 (NaN-poisoned
outputs, fresh uniform(-1, 1) inputs), then time it against PyTorch's best
(TF32 off; both memory formats x cudnn.benchmark on / off where PyTorch has
a cuDNN path) on the same rotated operand sets. Writes OUT/<label>.json and
.md after every item, so a run cut short still reports what it did.
Exit 0: all correct; 10: some op wrong; 3: the CUDA context was lost."""

import datetime
import os
import sys
import time

import torch

from . import ops as O
from .build import item_entry
from .kernels import KernelLib, link_objects, load_manifest
from .machine import bytes_moved, floor_ms
from .report import write_run
from .sets import Item
from .timing import GRAPH_BELOW_MS, kernel_time, operand_sets

TRAIN = ("fwd", "bwd_data", "bwd_filter")


def log(*a):
    print("[dwcbench]", *a, flush=True)


def items_of(manifest):
    from dwc_torch.spec import spec_from_dict
    return [Item(spec_from_dict(e), tuple(e["ops"]), e.get("net", ""), e.get("odd", False),
                 e.get("kernels", {}), e.get("tag", ""), e.get("note", ""))
            for e in manifest["items"]]


def check(lib, item, fns, gen, row):
    spec = item.spec
    t = O.operands(spec, item.ops, gen)
    idx = O.checked_channels(spec, item.odd)
    refs = O.references(spec, item.ops, t, idx)
    for (side, op), fn in fns.items():
        r = row.setdefault(side, {})
        if fn is None:
            r[op + "_status"] = "not built"
            continue
        out = O.new_output(spec, op, float("nan"))
        lib.call(fn, *O.call_args(spec, op, t), out)
        torch.cuda.synchronize()
        r.update(O.check_output(spec, op, out, refs[op], idx))


def time_torch(spec, ops, sets, nbuf, a):
    """{variant: {op: ms}} and the best per op (and per training step)."""
    variants = {}
    benchmark = (True, False) if spec.family in ("dw", "conv") else (False,)
    for layout in ("nchw", "channels_last"):
        for bench in benchmark:
            torch.backends.cudnn.benchmark = bench
            for name, calls in O.torch_calls(spec, ops, sets, layout).items():
                calls = {op: fn for op, fn in calls.items() if op in ops or (
                    op == "bwd_both" and {"bwd_data", "bwd_filter"} <= set(ops))}
                key = name + ("/benchmark=%s" % ("on" if bench else "off")
                              if len(benchmark) > 1 else "")
                variants[key] = {op: kernel_time(fn, nbuf, a.iters, a.target_s, a.graphs)[0]
                                 for op, fn in calls.items()}
    torch.backends.cudnn.benchmark = False
    best = {}
    for op in ops:
        times = [v[op] for v in variants.values() if op in v]
        if times:
            best[op] = min(times)
    if set(TRAIN) <= set(ops):
        steps = [v["fwd"] + min(v["bwd_data"] + v["bwd_filter"], v["bwd_both"])
                 for v in variants.values() if all(k in v for k in TRAIN + ("bwd_both",))]
        if steps:
            best["step"] = min(steps)
    return variants, best


def timing(lib, item, fns, gen, row, a):
    spec = item.spec
    nbuf = operand_sets(max(bytes_moved(spec, op) for op in item.ops))
    row["buffers"] = nbuf
    sets = [O.operands(spec, item.ops, gen) for _ in range(nbuf)]
    if spec.family == "dw" and "fwd" in item.ops:
        kind, copies = O.copy_calls(spec, nbuf)
        row["copy_ms"] = min(kernel_time(f, nbuf, a.iters, a.target_s, a.graphs)[0]
                             for f in copies)
        row["copy_kind"] = kind
        del copies
    for (side, op), fn in fns.items():
        r = row[side]
        if fn is None or r.get(op + "_status") != "ok":
            continue
        outs = [O.new_output(spec, op) for _ in sets]
        args = [O.call_args(spec, op, s) for s in sets]
        r[op + "_ms"], r[op + "_call_ms"] = kernel_time(
            lambda i: lib.call(fn, *args[i], outs[i]), nbuf, a.iters, a.target_s, a.graphs)
        del outs
    row["torch"], row["torch_best"] = time_torch(spec, item.ops, sets, nbuf, a)
    for side in {s for s, _ in fns}:
        r = row.get(side, {})
        if all(r.get(op + "_ms") for op in TRAIN):
            r["step_ms"] = sum(r[op + "_ms"] for op in TRAIN)


def failed_ops(row, sides):
    """side:op of every result that was wrong (not built is not wrong)."""
    return ["%s:%s" % (s, k[:-len("_status")]) for s in sides for k, v in row.get(s, {}).items()
            if k.endswith("_status") and v not in ("ok", "not built")]


def run(a):
    man = load_manifest(a.kernels)
    items = [i for i in items_of(man) if not a.only or any(
        k in i.key for k in a.only.split(",") if k)]
    built = dict(man["built"])
    sides = [("dwc", a.kernels)] + ([("baseline", a.baseline)] if a.baseline else [])
    baseline = {}  # spec key -> the baseline's item (its entry points carry its tag)
    if a.baseline:
        bman = load_manifest(a.baseline)
        baseline = {i.spec.key: i for i in items_of(bman)}
        if any(not i.tag for i in baseline.values()):
            raise SystemExit("the baseline's entry points would clash with these: "
                             "build it with --tag")
        built.update(bman["built"])
    libs = [link_objects(d, a.runtime_lib, a.work, "dwcbench_" + side) for side, d in sides]
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    stream = torch.cuda.Stream()
    torch.cuda.set_stream(stream)
    lib = KernelLib(a.runtime_lib, libs)
    lib.init(stream.cuda_stream)
    gen = torch.Generator(device="cuda")
    gen.manual_seed(a.seed)
    meta = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "topic": man["topic"], "set": man["set"], "gpu": torch.cuda.get_device_name(),
            "torch": torch.__version__, "cudnn": torch.backends.cudnn.version(),
            "commit": man.get("commit"), "aot_flags": man.get("aot_flags", []),
            "command": " ".join(["python3 bench/dwcbench"] + sys.argv[1:]),
            "statistic": ("kernel time: median of CUDA-graph replays for calls under %g ms, "
                          "else median of per-run CUDA events" % GRAPH_BELOW_MS if a.graphs
                          else "median of per-run CUDA events"),
            "sides": [s for s, _ in sides]}
    t0, rows = time.time(), []
    for item in items:
        row = item_entry(item)
        row["floor_ms"] = {op: floor_ms(item.spec, op) for op in item.ops}
        rows.append(row)
        fns = {}
        for side, _ in sides:
            owner = item if side == "dwc" else baseline.get(item.spec.key)
            for op in item.ops:
                name = owner.func_name(op) if owner and op in owner.ops else None
                nargs = len(O.tensor_shapes(item.spec, op))  # the inputs and the output
                fns[(side, op)] = (lib.entry("dwc_" + name, nargs)
                                   if name and built.get(name) else None)
        try:
            check(lib, item, fns, gen, row)
            if item.odd or a.no_timing:
                pass
            elif time.time() - t0 < a.time_budget:
                timing(lib, item, fns, gen, row, a)
            else:
                row["timing"] = "skipped: time budget"
        except torch.cuda.OutOfMemoryError as ex:
            row["error"] = "out of memory: %s" % str(ex)[:120]
        except RuntimeError as ex:
            row["error"] = "error: %s" % str(ex).splitlines()[0][:200]
            try:
                torch.cuda.synchronize()
            except RuntimeError:
                log("CUDA context lost; stopping")
                write_run(a.out, a.label, meta, rows)
                return 3
        torch.cuda.empty_cache()
        d, tb = row.get("dwc", {}), row.get("torch_best", {})
        log("%s: %s  t=%.0fs" % (item.key, " ".join(
            "%s=%s/%.1e %s/%s ms" % (op, d.get(op + "_status"), d.get(op + "_rel_err") or 0,
                                     _ms(d.get(op + "_ms")), _ms(tb.get(op)))
            for op in item.ops), time.time() - t0))
        write_run(a.out, a.label, meta, rows)
    write_run(a.out, a.label, meta, rows)
    bad = [k for r in rows for k in failed_ops(r, meta["sides"])] + [
        r["key"] for r in rows if r.get("error")]
    log("%d items, %d failing%s" % (len(rows), len(bad), (": " + ", ".join(bad[:20])) if bad else ""))
    return 10 if bad else 0


def _ms(v):
    return "%.4f" % v if isinstance(v, (int, float)) else "-"
