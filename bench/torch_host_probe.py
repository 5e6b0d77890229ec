#!/usr/bin/env python3
"""Where a converted model's eager training step spends host time (GPU).

The eager steps of the timm models are host-bound on the H200 machine
(e.g. EfficientNet-B0 f16: 12 ms of kernels in 46 ms wall), so what a
converted layer costs the host decides whether convert() pays off there.
This measures, stock vs dwc_torch in the same process:

  chain   host time per layer of a training step (forward with autograd,
          backward) on a chain of 50 small depthwise layers, f32 and AMP
          f16: enqueue time, no synchronisation inside a sample
  models  per model: convert() with per-layer tuning but without the
          whole-model check (every layer tuned faster stays), then the eager
          step's host enqueue time, its wall time (ABBA rounds) and the GPU
          kernel time; torch.profiler's CPU self time by op name on the
          dwc side and the stock side (the 15 largest differences)

  PYTHONPATH=python python3 bench/torch_host_probe.py --kernels DIR[,DIR] \
      --out $OUT [--models efficientnet_b0:f16:64,...]
"""

import argparse
import copy
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python"))

import torch_e2e as E  # noqa: E402  (create_model, _step_fn, Results)


def host_ms(step, reps=12, warm=3):
    """Median host time of one step(): from the call to its return, the GPU
    drained before each sample (no queue back-pressure inside one)."""
    import torch
    for _ in range(warm):
        step()
    out = []
    for _ in range(reps):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        step()
        out.append((time.perf_counter() - t0) * 1e3)
    torch.cuda.synchronize()
    return statistics.median(out)


def chain(res):
    import torch
    c = E.CHAIN
    stock, ours, x = E.chain_models()
    x = x.requires_grad_(True)
    for amp in (None, torch.float16):
        for label, m in (("stock", stock), ("dwc", ours)):
            def step():
                with torch.autocast("cuda", dtype=amp or torch.float16, enabled=amp is not None):
                    y = m(x)
                y.float().sum().backward()
            ms = host_ms(step)
            res.add(section="host_chain", side=label, amp=str(amp), layers=c["layers"],
                    host_us_per_layer_train=round(ms * 1e3 / c["layers"], 2), chain=c)


def cpu_self_by_op(step, steps=3):
    import torch
    from torch.profiler import profile, ProfilerActivity
    for _ in range(2):
        step()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU]) as p:
        for _ in range(steps):
            step()
        torch.cuda.synchronize()
    return {e.key: (e.self_cpu_time_total / steps / 1e3, e.count / steps)
            for e in p.key_averages()}


def model_row(res, name, dt, batch):
    import torch
    import dwc_torch
    from dwc_torch.converter import time_steps
    amp = {"f32": None, "f16": torch.float16, "bf16": torch.bfloat16}[dt]
    torch.backends.cudnn.benchmark = True
    torch.manual_seed(0)
    stock = E.create_model(name).cuda().to(memory_format=torch.channels_last)
    ours = copy.deepcopy(stock)
    xs = [torch.randn(batch, 3, 224, 224, device="cuda").contiguous(
        memory_format=torch.channels_last) for _ in range(2)]
    target = torch.randint(0, 1000, (batch,), device="cuda")
    stock.train(True)
    ours.train(True)
    dwc_torch.convert(ours, example_inputs=xs[0], train=True, amp_dtype=amp, verify=False,
                      verbose=False)
    rep = ours.dwc_report
    steps = {k: E._step_fn(m, xs, target, amp, True) for k, m in
             (("stock", stock), ("dwc", ours))}
    host = {k: round(host_ms(f), 3) for k, f in steps.items()}
    t = time_steps(steps, rounds=6, burst=4)
    wall = {k: round(min(v), 3) for k, v in t.items()}
    gpu = {}
    for k, f in steps.items():
        import torch_e2e_profile as P
        gpu[k] = round(P.profile_steps(f, 2)["kernel_ms_per_step"], 3)
    prof = {k: cpu_self_by_op(f) for k, f in steps.items()}
    keys = set(prof["stock"]) | set(prof["dwc"])
    diff = sorted(((prof["dwc"].get(k, (0, 0))[0] - prof["stock"].get(k, (0, 0))[0], k)
                   for k in keys), reverse=True)
    top = [{"op": k, "dwc_ms": round(prof["dwc"].get(k, (0, 0))[0], 3),
            "stock_ms": round(prof["stock"].get(k, (0, 0))[0], 3),
            "dwc_calls": prof["dwc"].get(k, (0, 0))[1],
            "stock_calls": prof["stock"].get(k, (0, 0))[1]} for d, k in diff[:15]]
    res.add(section="host_model", model=name, dtype=dt, batch=batch,
            layers_converted=len(rep.converted), host_ms=host, wall_ms=wall,
            kernel_ms=gpu, host_ms_per_converted_layer=round(
                (host["dwc"] - host["stock"]) / max(1, len(rep.converted)), 4),
            cpu_self_top_diff=top,
            cpu_self_total_ms={k: round(sum(v[0] for v in p.values()), 3)
                               for k, p in prof.items()})


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kernels", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--models", default="efficientnet_b0:f16:64,mobilenetv2_100:f16:64")
    p.add_argument("--sections", default="chain,models")
    a = p.parse_args()
    import dwc_torch
    for d in a.kernels.split(","):
        dwc_torch.load_kernels(d)
    res = E.Results(a.out)
    if "chain" in a.sections:
        chain(res)
    if "models" in a.sections:
        for item in a.models.split(","):
            name, dt, batch = item.split(":")
            try:
                model_row(res, name, dt, int(batch))
            except Exception as e:  # report, go on with the next model
                res.add(section="host_model", model=name, dtype=dt, error=repr(e)[:400])


if __name__ == "__main__":
    main()
