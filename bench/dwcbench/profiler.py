"""torch.profiler over training steps (GPU only): each kernel's time per
step by name and category, attributed to the innermost depthwise-layer
scope (forward) or autograd node (backward) that launched it, the GPU's
busy time against the steps' span; the timing methods (single steps,
bursts) whose spread networks_profile compares; and diffs of two sides."""

import gc
import json
import re
import statistics
import time


def category(name):
    n = name.lower()
    if re.match(r"^(fwd|bwd_data|bwd_filter|gap|pool\w*)_", n):
        return "dwc kernels"
    if "depthwise" in n or "dgrad" in n or "wgrad" in n or "fprop" in n or "conv" in n \
            or "cudnn" in n:
        return "convolution (cuDNN)"
    if "layer_norm" in n or "layernorm" in n:
        return "layer norm"
    if "gemm" in n or "nvjet" in n or "cutlass" in n or "xmma" in n or "cublas" in n:
        return "matmul"
    if "multi_tensor_apply" in n:
        return "optimizer (foreach)"
    if "reduce_kernel" in n:
        return "reductions"
    if "copy" in n:
        return "copies / casts"
    if "gelu" in n:
        return "gelu"
    if "elementwise" in n or "vectorized" in n:
        return "other elementwise"
    return "other"


def _label(evt):
    """The innermost scope of a CPU event that names where its kernels
    belong: a depthwise layer's forward, an autograd node, the optimizer."""
    e = evt
    while e is not None:
        n = e.name
        if n.startswith("dwlayer:"):
            return n
        if n.startswith("autograd::engine::evaluate_function: "):
            return "bwd:" + n.split(": ", 1)[1]
        if n.startswith("step:"):
            return n
        e = e.cpu_parent
    return "(unscoped)"


def _union_us(intervals):
    total, end = 0.0, None
    for s, t in sorted(intervals):
        if end is None or s > end:
            total += t - s
            end = t
        elif t > end:
            total += t - end
            end = t
    return total


def profile_steps(step, n):
    """Kernel time per step by name / category / scope, GPU busy vs span."""
    import torch
    from torch.autograd import DeviceType
    for _ in range(2):
        step()
    torch.cuda.synchronize()
    acts = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    with torch.profiler.profile(activities=acts) as prof:
        t0 = time.perf_counter()
        for _ in range(n):
            step()
        torch.cuda.synchronize()
        wall = (time.perf_counter() - t0) * 1e3 / n
    events = prof.events()
    # Device-side copies of record_function ranges (gpu_user_annotation)
    # span kernels; they are not kernels.
    dev = [e for e in events if e.device_type == DeviceType.CUDA and
           not getattr(e, "is_user_annotation", False) and
           not e.name.startswith(("step:", "dwlayer:", "Optimizer.", "ProfilerStep"))]
    by_name, by_cat, by_scope = {}, {}, {}
    for e in dev:
        d = e.time_range.elapsed_us() / 1e3 / n
        c = by_name.setdefault(e.name, [0.0, 0])
        c[0] += d
        c[1] += 1.0 / n
        by_cat[category(e.name)] = by_cat.get(category(e.name), 0.0) + d
    for e in events:
        if e.device_type != DeviceType.CPU or not e.kernels:
            continue
        lab = _label(e)
        for k in e.kernels:
            key = (lab, category(k.name))
            by_scope[key] = by_scope.get(key, 0.0) + k.duration / 1e3 / n
    spans = [(e.time_range.start, e.time_range.end) for e in dev]
    busy = _union_us(spans) / 1e3 / n
    span = (max(t for _, t in spans) - min(s for s, _ in spans)) / 1e3 / n if spans else 0
    total = sum(v[0] for v in by_name.values())
    return dict(kernel_ms_per_step=total, busy_ms_per_step=busy, span_ms_per_step=span,
                wall_ms_per_step=wall, kernels_per_step=sum(v[1] for v in by_name.values()),
                by_category=by_cat, by_name=by_name,
                by_scope={"%s | %s" % k: v for k, v in by_scope.items()})


def _events():
    import torch
    return torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)


def time_single(steps, rounds):
    """v5's method: events around one step, synchronised; median of 5 per round."""
    import torch
    out = {k: [] for k in steps}
    labels = list(steps)
    for r in range(rounds):
        for k in (labels if r % 2 == 0 else labels[::-1]):
            ts = []
            steps[k]()
            for _ in range(5):
                a, b = _events()
                a.record()
                steps[k]()
                b.record()
                b.synchronize()
                ts.append(a.elapsed_time(b))
            out[k].append(statistics.median(ts))
    torch.cuda.synchronize()
    return out


def time_burst(steps, rounds, burst, gc_off=True):
    """The converter's method (dwc_torch.converter.time_steps)."""
    from dwc_torch.converter import time_steps
    return time_steps(steps, rounds=rounds, burst=burst, gc_off=gc_off)


def summary(samples):
    ks = list(samples)
    out = {}
    for k, v in samples.items():
        out[k] = dict(min=round(min(v), 3), median=round(statistics.median(v), 3),
                      max=round(max(v), 3),
                      spread_pct=round(100 * (max(v) - min(v)) / min(v), 1))
    if "stock" in samples:
        for k in ks:
            if k == "stock":
                continue
            pr = [s / o for s, o in zip(samples["stock"], samples[k])]
            out["speedup_" + k] = dict(
                of_min=round(min(samples["stock"]) / min(samples[k]), 4),
                of_median=round(statistics.median(samples["stock"]) /
                                statistics.median(samples[k]), 4),
                paired_median=round(statistics.median(pr), 4),
                paired_min_max=[round(min(pr), 4), round(max(pr), 4)])
    return out


def graph_summary(samples):
    out = summary(samples)
    out["samples"] = {k: [round(x, 3) for x in v] for k, v in samples.items()}
    return out


def host_ms(steps, n=2):
    """Host time per step (ms) while the GPU is held by a long spin, so
    the host never waits for it: what the host spends to enqueue a step.
    None where the spin ran out first (the launch queue filled up)."""
    import torch
    from dwc_torch.converter import _spin_cycles_per_ms
    out = {}
    per_ms = _spin_cycles_per_ms()
    for k, f in steps.items():
        ts = []
        for _ in range(n):
            torch.cuda.synchronize()
            a, b = _events()
            torch.cuda._sleep(int(150 * per_ms))
            a.record()
            t0 = time.perf_counter()
            f()
            host = (time.perf_counter() - t0) * 1e3
            b.record()
            b.synchronize()
            ts.append(round(host, 3) if host < 135 else None)
        out[k] = ts
    torch.cuda.synchronize()
    return out


def _scope_layers(model, names):
    """record_function scopes around the forward of the named modules."""
    import torch
    mods = dict(model.named_modules())
    hooks = []
    for n in names:
        rf = {}

        def pre(m, a, n=n, rf=rf):
            rf["r"] = torch.autograd.profiler.record_function("dwlayer:" + n)
            rf["r"].__enter__()

        def post(m, a, y, rf=rf):
            rf.pop("r").__exit__(None, None, None)
        hooks += [mods[n].register_forward_pre_hook(pre), mods[n].register_forward_hook(post)]
    return hooks


def make_step(model, xs, target, amp):
    import torch
    opt = torch.optim.SGD(model.parameters(), lr=1e-4, momentum=0.9)
    it = [0]
    rf = torch.autograd.profiler.record_function

    def step():
        x = xs[it[0] % len(xs)]
        it[0] += 1
        with rf("step:forward"), torch.autocast("cuda", dtype=amp or torch.float16,
                                                enabled=amp is not None):
            loss = torch.nn.functional.cross_entropy(model(x), target)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        with rf("step:optimizer"):
            opt.step()
    return step


def _diff(a, b, key, floor):
    """Entries of two profiles' `key` dicts whose per-step ms differ by at
    least `floor`: (name, a ms, b ms, b - a), largest first."""
    def ms(v):
        return v[0] if isinstance(v, list) else v
    out = []
    for n in set(a[key]) | set(b[key]):
        va, vb = ms(a[key].get(n, 0.0)), ms(b[key].get(n, 0.0))
        if abs(va - vb) >= floor:
            out.append((n[:140], round(va, 4), round(vb, 4), round(vb - va, 4)))
    return sorted(out, key=lambda r: -abs(r[3]))
