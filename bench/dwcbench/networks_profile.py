"""Where a training step's GPU time goes, stock PyTorch vs dwc_torch, and how
steadily it can be timed on this device (GPU only).

    python3 bench/dwcbench networks profile --kernels K --out DIR \\
        --configs convnext_tiny:f16,convnext_tiny:bf16 [--tuned convnext_tiny:f16]

For each model:dtype (training step at batch 64 -- 32 for the large-kernel
nets --, channels_last, cudnn.benchmark, SGD with momentum, AMP for f16 /
bf16), in one process:

- sides: `stock`, `dwc` (every eligible layer converted, no tuning: every op
  on dwc kernels) and, for --tuned configurations, `tuned` (convert() with
  the example input, as a user calls it; its phases timed and profiled with
  cProfile: where convert's seconds go);
- timing methods side by side, so their spread can be compared: `single`
  (v5's: CUDA events around ONE step, synchronised after each, median of 5,
  rounds alternating) and `burst` (events around `--burst` steps queued back
  to back, so the host's launch ramp of each sample is amortised, Python's
  GC off, rounds in ABBA order), each over `--rounds` rounds;
- torch.profiler on `--profile-steps` steps per side: the GPU kernel time per
  step summed by kernel name and by category, each kernel attributed to the
  innermost depthwise-layer scope (forward) or autograd node (backward) that
  launched it, the GPU's busy time (union of kernel intervals) against the
  span of the steps and the host's wall time: whether the step is GPU-bound.

Rows go to DIR/profile.jsonl (one per side and config, plus the diffs).
"""

import argparse
import copy
import cProfile
import gc
import io
import json
import os
import pstats
import re
import statistics
import sys
import time

from . import networks as E  # noqa: E402
from .profiler import *  # noqa: E402,F401,F403
from .profiler import _diff, _scope_layers  # noqa: E402


def _tuned_side(res, name, dt, stock, xs, amp):
    """convert() with the example input, under cProfile (where its seconds
    go), then once more on a fresh copy (the tuning cache's answer)."""
    import dwc_torch
    m = copy.deepcopy(stock)
    pr = cProfile.Profile()
    t0 = time.time()
    pr.enable()
    dwc_torch.convert(m, example_inputs=xs[0], train=True, amp_dtype=amp, verbose=False)
    pr.disable()
    s = io.StringIO()
    pstats.Stats(pr, stream=s).sort_stats("cumulative").print_stats(45)
    rep = m.dwc_report
    res.add(section="convert_profile", model=name, dtype=dt, convert_s=round(time.time() - t0, 2),
            phase_s=rep.phase_s, layers_converted=len(rep.converted),
            routes={n: list(r) for n, r in rep.routes.items()},
            model_ms=rep.model_ms, model_check=rep.model_check,
            cprofile=s.getvalue().splitlines()[:80])
    t0 = time.time()
    m2 = dwc_torch.convert(copy.deepcopy(stock), example_inputs=xs[0], train=True,
                           amp_dtype=amp, verbose=False)
    res.add(section="convert_profile", model=name, dtype=dt, again=True,
            convert_s=round(time.time() - t0, 2), phase_s=m2.dwc_report.phase_s,
            layers_converted=len(m2.dwc_report.converted),
            same_choice=sorted(m2.dwc_report.converted) == sorted(rep.converted) and
            m2.dwc_report.routes == rep.routes)
    return m


def _agreement_row(res, name, dt, models, xs, target, amp):
    """Logits and gradients of each converted side vs stock (before any
    step), with the extension's counters of the check: which kernels ran."""
    import dwc_torch
    stock = models["stock"]
    agree = {}
    for k, m in models.items():
        if k == "stock":
            continue
        before = dwc_torch.stats()
        lg, ge, worst, gall = E._agreement(stock, m, xs[0], target, amp, True)
        after = dwc_torch.stats()
        agree[k] = {"logits_rel_err": lg, "grad_rel_err": ge, "worst_grad": worst,
                    "grad_rel_err_all": gall,
                    "calls": {c: after.get(c, 0) - before.get(c, 0)
                              for c in ("calls", "fallbacks", "routed", "master_weight")}}
    res.add(section="agreement", model=name, dtype=dt, **agree)


def _graph_timing(args, models, xs, target, amp):
    """Each side's training step in a CUDA graph, replays timed (--graphs)."""
    if not args.graphs:
        return {"skipped": "not asked for (--graphs)"}
    try:
        gsteps = {k: E.graph_step(m, xs[0], target, amp, True)
                  for k, m in models.items()}
        return graph_summary(time_burst(gsteps, args.rounds, 5))
    except Exception as e:  # report, do not hide
        return {"error": repr(e)[:300]}


def _timing_row(res, name, dt, batch, args, models, steps, xs, target, amp):
    t0 = time.time()
    single = time_single(steps, args.rounds) if args.all_methods else None
    t1 = time.time()
    burst = time_burst(steps, args.rounds, args.burst, gc_off=True)
    t2 = time.time()
    burst_gc = time_burst(steps, args.rounds, args.burst, gc_off=False) \
        if args.all_methods else None
    t3 = time.time()
    graph = _graph_timing(args, models, xs, target, amp)
    res.add(section="timing", model=name, dtype=dt, batch=batch, rounds=args.rounds,
            graph=graph, graph_s=round(time.time() - t3, 1), host_ms=host_ms(steps),
            burst=args.burst, single=single and summary(single), burst_gc_off=summary(burst),
            burst_gc_on=burst_gc and summary(burst_gc),
            seconds=[round(t1 - t0, 1), round(t2 - t1, 1), round(t3 - t2, 1)],
            samples={"single": single, "burst_gc_off": burst, "burst_gc_on": burst_gc},
            wall_clock=[round(t0, 1), round(t3, 1)])


def _profile_rows(res, name, dt, args, models, steps, dw_names):
    profs = {}
    for k, m in models.items():
        hooks = _scope_layers(m, dw_names)
        try:
            profs[k] = profile_steps(steps[k], args.profile_steps)
        finally:
            for h in hooks:
                h.remove()
        p = profs[k]
        top = sorted(p["by_name"].items(), key=lambda kv: -kv[1][0])[:45]
        res.add(section="profile", model=name, dtype=dt, side=k,
                **{x: round(p[x], 4) for x in ("kernel_ms_per_step", "busy_ms_per_step",
                                               "span_ms_per_step", "wall_ms_per_step",
                                               "kernels_per_step")},
                by_category={c: round(v, 4) for c, v in sorted(p["by_category"].items(),
                                                              key=lambda kv: -kv[1])},
                by_scope={c: round(v, 4) for c, v in sorted(p["by_scope"].items(),
                                                           key=lambda kv: -kv[1])[:60]},
                top_kernels=[[n[:140], round(v[0], 4), round(v[1], 2)] for n, v in top])
    for k in profs:
        if k == "stock":
            continue
        a, b = profs["stock"], profs[k]
        res.add(section="profile_diff", model=name, dtype=dt, side=k,
                kernel_ms=[round(a["kernel_ms_per_step"], 4), round(b["kernel_ms_per_step"], 4)],
                by_category=_diff(a, b, "by_category", 0.005),
                by_scope=_diff(a, b, "by_scope", 0.01)[:40],
                by_name=_diff(a, b, "by_name", 0.01)[:40])


def run_config(res, name, dt, args, tuned):
    import torch
    import dwc_torch
    amp = {"f32": None, "f16": torch.float16, "bf16": torch.bfloat16}[dt]
    batch = 32 if name in E.LARGE else 64
    torch.backends.cudnn.benchmark = True
    torch.manual_seed(0)
    stock = E.create_model(name).cuda().to(memory_format=torch.channels_last).train()
    xs = [torch.randn(batch, 3, 224, 224, device="cuda").contiguous(
        memory_format=torch.channels_last) for _ in range(3)]
    target = torch.randint(0, 1000, (batch,), device="cuda")
    models = {"stock": stock,
              "dwc": dwc_torch.convert(copy.deepcopy(stock), tune=False, verbose=False)}
    dw_names = [n for n, m in stock.named_modules() if isinstance(m, torch.nn.Conv2d) and
                m.groups > 1 and m.groups == m.in_channels]
    if tuned:
        models["tuned"] = _tuned_side(res, name, dt, stock, xs, amp)
    _agreement_row(res, name, dt, models, xs, target, amp)
    steps = {k: make_step(m, xs, target, amp) for k, m in models.items()}
    for f in steps.values():  # warm-up (cuDNN's benchmark, kernel loading)
        for _ in range(4):
            f()
    torch.cuda.synchronize()
    _timing_row(res, name, dt, batch, args, models, steps, xs, target, amp)
    _profile_rows(res, name, dt, args, models, steps, dw_names)
    del models, steps
    gc.collect()
    torch.cuda.empty_cache()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernels", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--configs", default="convnext_tiny:f16,convnext_tiny:bf16")
    ap.add_argument("--tuned", default="")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--burst", type=int, default=5)
    ap.add_argument("--profile-steps", type=int, default=3)
    ap.add_argument("--budget-s", type=float, default=1e9)
    ap.add_argument("--graphs", action="store_true",
                    help="CUDA-graph replay timing of each side's training step (v6's illegal "
                         "address there: most likely graph_step's freed input/optimizer, fixed "
                         "in v7)")
    ap.add_argument("--all-methods", action="store_true",
                    help="also v5's single-step timing and bursts with the GC on")
    args = ap.parse_args(argv)
    import logging

    import torch
    import dwc_torch
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    res = E.Results(args.out)
    res.path = os.path.join(args.out, "profile.jsonl")
    res.fh = open(res.path, "a")
    t0 = time.time()
    dwc_torch.load_extension()
    n = sum(dwc_torch.load_kernels(k) for k in args.kernels.split(","))
    res.add(section="setup", torch=torch.__version__, cudnn=torch.backends.cudnn.version(),
            device=torch.cuda.get_device_name(), extension_and_load_s=round(time.time() - t0, 1),
            entry_points=n)
    tuned = set(args.tuned.split(",")) if args.tuned else set()
    for c in args.configs.split(","):
        if time.time() - t0 > args.budget_s:
            res.add(section="timing", config=c, skipped="time budget")
            continue
        name, dt = c.split(":")
        try:
            run_config(res, name, dt, args, c in tuned)
        except Exception as e:  # report, do not hide
            import traceback
            res.add(section="profile", model=name, dtype=dt, error=repr(e)[:500],
                    trace=traceback.format_exc()[-1500:])
    res.add(section="done", wall_s=round(time.time() - t0, 1), stats=dwc_torch.stats())
