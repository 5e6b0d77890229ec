"""End-to-end check and benchmark of dwc_torch on the GPU, in one call.

Here (MLIR machine), compile every kernel the GPU run needs:

    python3 bench/dwcbench networks prepare --aot build/bin/dwc-aot --out .carry/networks

There (GPU machine, no MLIR), with .carry/networks carried:

    python3 bench/dwcbench networks run --kernels .carry/networks --out $OUT

Sections (each writes JSON lines to OUT/results.jsonl as it finishes, so a
run cut short still reports what it did):
  correctness  the dwc:: ops vs float64 references on odd shapes (outputs
               poisoned first; the kernel call is checked to be ours, not
               the PyTorch fallback), the filter cache after an in-place
               update, autocast vs PyTorch's autocast conv2d
  routes       a converted depthwise layer with every per-op route (which
               of forward, dX, dW run PyTorch's kernels) vs float64, outputs
               poisoned; the dwc and PyTorch call counters checked
  overhead     host time per forward call on a chain of 50 small depthwise
               layers (module, plan, raw op, nn.Conv2d), GPU time per chain,
               the C++ probe of the hot path's parts, and capture + replay
               in a CUDA graph (overhead_host: the same without the graphs)
  models       timm convnext_tiny and mobilenetv2_100, channels_last, f32
               and AMP f16/bf16: inference at batch 1 and 64, training step
               at batch 64; stock PyTorch (cudnn.benchmark=True) vs
               dwc_torch.convert(model, example_inputs=...) in the same
               process: logits/gradient agreement, ms per step, layers
               converted, time inside the candidate layers (GPU time of
               the chosen ops), each depthwise layer's per-op times and
               which ops run on PyTorch (op_times, routed_layers)
"""

import argparse
import copy
import json
import os
import statistics
import sys
import time


DTYPES = ("f32", "f16", "bf16")
LARGE = ("replknet31b", "slak_t")  # large_kernel_nets.py
# The model matrix: every model in f32 and AMP f16 / bf16,
# inference at batch 1 and 64, a training step at batch 64 (32 for the
# large-kernel nets). (model, dtype, batch, train), in the order they run;
# a run stops starting new ones after --budget-s; --configs picks a subset
# ('part1' / 'part2': the two halves of the matrix, one device call each).
MODELS = ("convnext_tiny", "convnext_base", "mobilenetv2_100", "efficientnet_b0",
          "replknet31b", "slak_t")


def _matrix(models):
    return [(m, dt, b, tr) for m in models for dt in DTYPES
            for b, tr in ((1, False), (64, False), (32 if m in LARGE else 64, True))]


CONFIGS = _matrix(MODELS)
# The two halves of the matrix (one device call each), in the order they
# run: part1 the timm networks, training steps first, then inference at 64,
# then at 1; part2 the large-kernel nets, training steps not measured
# before first (bf16, f32), inference at 64, the f16 training steps, then
# inference at 1.
_RANK1 = lambda c: (not c[3], -c[2])
_RANK2 = lambda c: ({(True, "bf16"): 0, (True, "f32"): 1, (True, "f16"): 3}.get(
    (c[3], c[1]), 2 if c[2] == 64 else 4), ("f16", "bf16", "f32").index(c[1]))
PARTS = {"part1": sorted(_matrix(("convnext_tiny", "convnext_base", "mobilenetv2_100",
                                  "efficientnet_b0")), key=_RANK1),
         "part2": sorted(_matrix(LARGE), key=_RANK2)}
CHAIN = dict(N=1, C=32, H=14, W=14, k=3, layers=50)


def correctness_specs():
    from dwc_torch.spec import ConvSpec, GapSpec, LayerSpec, PoolSpec
    dw = []
    for dt in DTYPES:
        dw.append(LayerSpec.make(3, 37, 23, 19, 3, 1, 1, 1, dt, True))
        dw.append(LayerSpec.make(2, 53, 17, 29, 7, 1, 3, 1, dt, True))
    dw += [LayerSpec.make(2, 24, 15, 13, 5, 1, [2, 1, 0, 3], 1, "f32", False),
           LayerSpec.make(2, 40, 21, 17, 3, 2, 1, 1, "f32", True),
           LayerSpec.make(1, 19, 13, 11, 3, 1, 2, 2, "f32", False),
           LayerSpec.make(2, 11, 9, 7, 3, 1, 1, 1, "f64", True)]
    pools = [PoolSpec.make(2, 35, 17, 19, "max", 3, 2, 1, True, False, "f32"),
             PoolSpec.make(2, 35, 17, 19, "max", 3, 2, 1, True, False, "f16"),
             PoolSpec.make(2, 35, 17, 19, "avg", 3, 2, 1, True, False, "f32"),
             PoolSpec.make(2, 35, 17, 19, "avg", 3, 2, 1, True, False, "bf16"),
             PoolSpec.make(3, 24, 15, 13, "avg", 2, 2, 0, False, True, "f16")]
    # avg backward, ceil_mode x count_include_pad, padded overlapping windows
    # (test/Python/dwc-torch-pool-backward.test runs the same functions on
    # the CPU): 17x19 (ceil changes no size) and 16x16 (ceil adds a row and
    # a column of windows).
    pools += [PoolSpec.make(2, 35, 17, 19, "avg", 3, 2, 1, c, i, "f32")
              for c, i in ((False, False), (True, True), (False, True))]
    pools += [PoolSpec.make(2, 8, 16, 16, "avg", 3, 2, 1, True, i, dt)
              for i, dt in ((False, "f32"), (True, "f32"), (False, "f16"))]
    gaps = [GapSpec.make(3, 77, 7, 9, dt) for dt in DTYPES]
    convs = [ConvSpec.make(2, 24, 15, 13, 40, 3, 1, 1, 1, dt, True) for dt in ("f32", "f16")]
    return dw, pools, gaps, convs


def chain_specs():
    from dwc_torch.spec import LayerSpec
    c = CHAIN
    return [LayerSpec.make(c["N"], c["C"], c["H"], c["W"], c["k"], 1, c["k"] // 2, 1, dt,
                           True) for dt in DTYPES]


def create_model(name):
    if name in LARGE:
        from . import large_kernel_nets
        return large_kernel_nets.FACTORIES[name]()
    import timm
    return timm.create_model(name)


def select_configs(arg):
    """--configs: 'all', 'part1', 'part2', or comma-separated
    model[:dtype[:batch[:train|infer]]]."""
    if arg in (None, "", "all"):
        return list(CONFIGS)
    if arg in PARTS:
        return list(PARTS[arg])
    out = []
    for item in arg.split(","):
        parts = item.split(":")
        for c in CONFIGS:
            want = [c[0], c[1], str(c[2]), "train" if c[3] else "infer"]
            if parts == want[:len(parts)] and c not in out:
                out.append(c)
    return out


def prepare(args):
    from dwc_torch import aot
    from dwc_torch.spec import spec_ops
    dw, pools, gaps, convs = correctness_specs()
    work = [(s, spec_ops(s, True)) for s in dw + pools + gaps + convs + chain_specs() +
            route_specs()]
    if "large" in args.sections:
        work += [(s, spec_ops(s, True)) for s in large_specs()]
    traced_keys = set()
    for name, dt, batch, train in select_configs(args.configs) if "models" in args.sections \
            else ():
        # Inference at a batch needs a subset of the training kernels.
        key = (name, dt, batch, True) if (name, dt, batch, True) in CONFIGS else \
            (name, dt, batch, train)
        if key in traced_keys:
            continue
        traced_keys.add(key)
        traced, _ = aot.trace_model(create_model(name), [batch, 3, 224, 224], dt, True,
                                    key[3], strided=True)
        work += traced
    print("networks prepare: %d (spec, ops) entries" % len(work))
    m = aot.build(work, args.aot, args.out, args.j, chip="sm_90")
    failed = [o["symbol"] for s in m["specs"] for o in s["ops"].values() if o["error"]]
    print("networks prepare: %d specs, %d failed: %s" % (len(m["specs"]), len(failed), failed))


# --- GPU side ----------------------------------------------------------------

class Results:
    def __init__(self, out):
        os.makedirs(out, exist_ok=True)
        self.path = os.path.join(out, "results.jsonl")
        self.fh = open(self.path, "a")

    def add(self, **row):
        row["t"] = round(time.time(), 1)
        self.fh.write(json.dumps(row) + "\n")
        self.fh.flush()
        print(json.dumps(row), flush=True)


def rel_err(a, ref):
    a, ref = a.double(), ref.double()
    return ((a - ref).abs().max() / ref.abs().max().clamp_min(1e-30)).item()


def poison():
    """Leaves NaN-filled blocks in the caching allocator, so an output that
    a kernel fails to write shows up as NaN."""
    import torch
    for n in (1 << 16, 1 << 20, 1 << 22):
        t = torch.full((n,), float("nan"), device="cuda")
        del t


TOL = {"f32": 1e-5, "f64": 1e-12, "f16": 2e-3, "bf16": 2e-3}


def tol(dtype, ref):
    """TOL[dtype], plus for bf16 what rounding the exact float64 result to
    bf16 itself costs (rel_err of the correctly rounded reference): bf16's
    half ulp is 2^-9 of a value, up to 3.9e-3 of the largest one, so a correct
    bf16 output can miss 2e-3 of the float64 result by its final rounding
    alone. The kernel may add no more than TOL on top of that."""
    if dtype != "bf16":
        return TOL[dtype]
    import torch
    return TOL[dtype] + rel_err(ref.to(torch.bfloat16), ref)


def _ours(fn):
    """Runs fn and returns (result, whether a dwc kernel ran it)."""
    import dwc_torch
    before = dwc_torch.stats()
    r = fn()
    after = dwc_torch.stats()
    return r, after["calls"] > before["calls"] and after["fallbacks"] == before["fallbacks"]


def check_dw(res, s):
    import torch
    import torch.nn.functional as F
    tdt = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
           "f64": torch.float64}[s.dtype]
    cl = torch.channels_last
    x = torch.randn(s.N, s.C, s.H, s.W, device="cuda").to(tdt).contiguous(memory_format=cl)
    w = torch.randn(s.C, 1, *s.kernel, device="cuda").to(tdt)
    b = torch.randn(s.C, device="cuda").to(tdt) if s.bias else None
    gy = torch.randn(s.N, s.C, s.OH, s.OW, device="cuda").to(tdt).contiguous(memory_format=cl)
    pt, pb, pl, pr = s.padding
    xp64 = F.pad(x.double(), (pl, pr, pt, pb))
    ref = F.conv2d(xp64, w.double(), b.double() if b is not None else None, s.stride, 0,
                   s.dilation, s.C)
    d = torch.ops.dwc
    poison()
    y, ok_y = _ours(lambda: d.depthwise_conv2d(x, w, b, s.stride, s.padding, s.dilation))
    poison()
    dx, ok_dx = _ours(lambda: d.depthwise_conv2d_backward_data(
        gy, w, list(x.shape), s.stride, s.padding, s.dilation))
    poison()
    dw, ok_dw = _ours(lambda: d.depthwise_conv2d_backward_filter(
        x, gy, list(s.kernel), s.stride, s.padding, s.dilation))
    dxp = torch.nn.grad.conv2d_input(xp64.shape, w.double(), gy.double(), s.stride, 0,
                                     s.dilation, s.C)[:, :, pt:pt + s.H, pl:pl + s.W]
    dwr = torch.nn.grad.conv2d_weight(xp64, w.shape, gy.double(), s.stride, 0, s.dilation, s.C)
    for what, got, r, ours in (("fwd", y, ref, ok_y), ("bwd_data", dx, dxp, ok_dx),
                               ("bwd_filter", dw, dwr, ok_dw)):
        e = rel_err(got, r)
        res.add(section="correctness", op=what, spec=s.key, dwc_kernel=ours, rel_err=e,
                tol=tol(s.dtype, r),
                ok=bool(ours and e <= tol(s.dtype, r) and torch.isfinite(got).all().item()))


def pool_reference(s, x, gy):
    """float64 pooling of PoolSpec s on x and its input gradient for gy
    (NCHW tensors of any layout), computed on contiguous NCHW tensors: the
    channels_last CUDA avg_pool2d backward of PyTorch ignores the padding
    (pytorch/pytorch#188344, torch 2.11 -- what made the dwc kernels of
    padded average pooling look wrong)."""
    import torch
    import torch.nn.functional as F
    x64 = x.double().contiguous().requires_grad_(True)
    p = (s.padding[0], s.padding[2])
    if s.kind == "max":
        y = F.max_pool2d(x64, s.window, s.stride, p, 1, s.ceil_mode)
    else:
        y = F.avg_pool2d(x64, s.window, s.stride, p, s.ceil_mode, s.count_include_pad)
    (dx,) = torch.autograd.grad(y, x64, gy.double().contiguous())
    return y.detach(), dx


def check_pool(res, s):
    import torch
    import torch.nn.functional as F
    tdt = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}[s.dtype]
    cl = torch.channels_last
    x = torch.randn(s.N, s.C, s.H, s.W, device="cuda").to(tdt).contiguous(memory_format=cl)
    gy = torch.randn(s.N, s.C, s.OH, s.OW, device="cuda").to(tdt).contiguous(memory_format=cl)
    ref, dxr = pool_reference(s, x, gy)
    args = (s.kind, list(s.window), list(s.stride), list(s.padding), s.ceil_mode,
            s.count_include_pad)
    poison()
    y, ok_y = _ours(lambda: torch.ops.dwc.pool2d(x, *args))
    poison()
    dx, ok_dx = _ours(lambda: torch.ops.dwc.pool2d_backward(x, gy, *args))
    row = {}
    if s.kind == "avg" and any(s.padding):
        # PyTorch's own channels_last result, to show the difference
        # (float64, the layout the earlier reference used).
        x64 = x.double().requires_grad_(True)
        yt = F.avg_pool2d(x64, s.window, s.stride, (s.padding[0], s.padding[2]), s.ceil_mode,
                          s.count_include_pad)
        (g_cl,) = torch.autograd.grad(yt, x64, gy.double())
        row["torch_channels_last_bwd_rel_err"] = rel_err(g_cl, dxr)
    for what, got, r, ours in (("pool_fwd", y, ref, ok_y), ("pool_bwd", dx, dxr, ok_dx)):
        e = rel_err(got, r)
        res.add(section="correctness", op=what, spec=s.key, dwc_kernel=ours, rel_err=e,
                tol=tol(s.dtype, r),
                ok=bool(ours and e <= tol(s.dtype, r)), **(row if what == "pool_bwd" else {}))


def check_gap_conv(res, gaps, convs):
    import torch
    import torch.nn.functional as F
    T = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
    cl = torch.channels_last
    for s in gaps:
        x = torch.randn(s.N, s.C, s.H, s.W, device="cuda").to(T[s.dtype]).contiguous(
            memory_format=cl)
        poison()
        y, ours = _ours(lambda: torch.ops.dwc.global_avg_pool(x))
        ref = x.double().mean((2, 3), keepdim=True)
        e = rel_err(y, ref)
        res.add(section="correctness", op="gap", spec=s.key, dwc_kernel=ours, rel_err=e,
                tol=tol(s.dtype, ref), ok=bool(ours and e <= tol(s.dtype, ref)))
        check_gap_backward(res, s, x)
    for s in convs:
        x = torch.randn(s.N, s.C, s.H, s.W, device="cuda").to(T[s.dtype]).contiguous(
            memory_format=cl)
        w = torch.randn(s.OC, s.C, *s.kernel, device="cuda").to(T[s.dtype]) / 10
        b = torch.randn(s.OC, device="cuda").to(T[s.dtype])
        poison()
        y, ours = _ours(lambda: torch.ops.dwc.conv2d(x, w, b, s.stride, s.padding, s.dilation))
        ref = F.conv2d(x.double(), w.double(), b.double(), s.stride,
                       (s.padding[0], s.padding[2]), s.dilation)
        e = rel_err(y, ref)
        res.add(section="correctness", op="conv_fwd", spec=s.key, dwc_kernel=ours, rel_err=e,
                tol=tol(s.dtype, ref), ok=bool(ours and e <= tol(s.dtype, ref)))


def check_gap_backward(res, s, x):
    """dwc::global_avg_pool_backward (the op and the autograd of
    global_avg_pool, GapFunction's backward) vs float64: dX = dY / (H * W)."""
    import torch
    gy = torch.randn(s.N, s.C, 1, 1, device="cuda").to(x.dtype)
    ref = (gy.double() / (s.H * s.W)).expand(s.N, s.C, s.H, s.W)
    poison()
    dx, ours = _ours(lambda: torch.ops.dwc.global_avg_pool_backward(gy, [s.N, s.C, s.H, s.W]))
    e = rel_err(dx, ref)
    xg = x.detach().requires_grad_(True)
    poison()
    (dxa,), ours_a = _ours(lambda: torch.autograd.grad(torch.ops.dwc.global_avg_pool(xg), xg, gy))
    ea = rel_err(dxa, ref)
    res.add(section="correctness", op="gap_bwd", spec=s.key, dwc_kernel=ours, rel_err=e,
            autograd_dwc_kernel=ours_a, autograd_rel_err=ea,
            tol=tol(s.dtype, ref),
            ok=bool(ours and ours_a and max(e, ea) <= tol(s.dtype, ref) and
                    torch.isfinite(dx).all().item()))


def check_module(res):
    """Filter cache (the module's C++ plan) after an in-place update;
    autocast vs PyTorch's."""
    import torch
    import dwc_torch
    s = chain_specs()[0]
    ref = torch.nn.Conv2d(s.C, s.C, 3, padding=1, groups=s.C).cuda()
    m = dwc_torch.convert(copy.deepcopy(ref), verbose=False)
    x = torch.randn(s.N, s.C, s.H, s.W, device="cuda").contiguous(
        memory_format=torch.channels_last)
    e0 = rel_err(m(x), ref(x))
    plan = m.__dict__.get("_plan")
    n0 = plan.relayouts
    m(x)
    same_tag = plan.relayouts == n0
    with torch.no_grad():
        m.weight.mul_(-0.5)
        ref.weight.mul_(-0.5)
    e1 = rel_err(m(x), ref(x))
    relaid = plan.relayouts == n0 + 1
    res.add(section="correctness", op="filter_cache", rel_err=max(e0, e1),
            reused_when_unchanged=same_tag, relaid_after_update=relaid,
            ok=bool(same_tag and relaid and max(e0, e1) <= 1e-5))
    for dt, tdt in (("f16", torch.float16), ("bf16", torch.bfloat16)):
        with torch.autocast("cuda", dtype=tdt):
            y, ok = _ours(lambda: m(x))
            yr = ref(x)
        res.add(section="correctness", op="autocast", dtype=dt, out_dtype=str(y.dtype),
                dwc_kernel=ok, rel_err=rel_err(y, yr),
                ok=bool(ok and y.dtype == yr.dtype and rel_err(y, yr) <= 1e-2))
    check_autocast_training(res, m, ref, x)
    check_compiled_training(res, m, ref, x)


def autocast_grads(base, run, x, gy):
    """Output and gradients (input, weight, bias) of run(x) under f16
    autocast, backward from gy; `base` is the module holding the weights."""
    import torch
    xi = x.detach().requires_grad_(True)
    base.zero_grad(set_to_none=True)
    with torch.autocast("cuda", dtype=torch.float16):
        y = run(xi)
    y.backward(gy.to(y.dtype))
    return [y.detach(), xi.grad, base.weight.grad, base.bias.grad]


def check_compiled_training(res, m, ref, x):
    """torch.compile(module) trained under autocast: AOTAutograd traces the
    op's C++ autograd node with fake tensors (its dW / dB helpers must not
    launch on them); outputs and gradients agree with PyTorch's eager
    autocast ones -- also for a layer whose route leaves dW to PyTorch
    (modules._RoutedBackward)."""
    import torch
    from dwc_torch import modules
    gy = torch.randn_like(ref(x))
    want = autocast_grads(ref, ref, x, gy)
    routed = modules.set_route(copy.deepcopy(m), ("bwd_filter",))
    for op, mod in (("compiled_autocast_train", m), ("compiled_routed_autocast_train", routed)):
        try:
            got = autocast_grads(mod, torch.compile(mod), x, gy)
            e = max(rel_err(a, b) for a, b in zip(got, want))
            res.add(section="correctness", op=op, rel_err=e, ok=bool(e <= 1e-2))
        except Exception as ex:  # report, do not hide
            res.add(section="correctness", op=op, ok=False, error=repr(ex)[:300])


def check_autocast_training(res, m, ref, x):
    """Training under autocast through a module's plan: the op takes the f32
    master weight (the 'master_weight' counter rises), the weight's
    gradient is f32 and agrees with PyTorch's autocast gradients."""
    import torch
    import dwc_torch
    gy = torch.randn_like(ref(x))
    want = autocast_grads(ref, ref, x, gy)
    before = dwc_torch.stats()
    got = autocast_grads(m, m, x, gy)
    torch.cuda.synchronize()
    masters = dwc_torch.stats()["master_weight"] - before["master_weight"]
    e = max(rel_err(a, b) for a, b in zip(got, want))
    res.add(section="correctness", op="autocast_train", rel_err=e,
            master_weight_calls=masters, weight_grad_dtype=str(got[2].dtype),
            ok=bool(e <= 1e-2 and got[2].dtype == torch.float32 and masters == 1))


def check_trusted_paths(res):
    """The C++ extension calls the trusted entry points (no driver query per
    pointer) after checking the tensors itself: a weight on another device
    or with other channels is refused with PyTorch's kind of error, never a
    kernel reading host memory; the checked entry point still refuses a host
    pointer, the trusted one a null or misaligned pointer."""
    import ctypes

    import torch
    from dwc_torch import kernels
    from dwc_torch.extension import load_runtime
    s = chain_specs()[0]
    x = torch.randn(s.N, s.C, s.H, s.W, device="cuda").contiguous(
        memory_format=torch.channels_last)
    w, b = torch.randn(s.C, 1, 3, 3), torch.randn(s.C)
    d = torch.ops.dwc.depthwise_conv2d
    for what, args in (("cpu_weight", (w, b.cuda())), ("cpu_bias", (w.cuda(), b)),
                       ("other_channels", (w[:16].cuda(), b[:16].cuda()))):
        try:
            d(x, *args, [1, 1], [1, 1, 1, 1], [1, 1])
            torch.cuda.synchronize()
            res.add(section="correctness", op="refused", case=what, ok=False, error="not refused")
        except RuntimeError as e:
            res.add(section="correctness", op="refused", case=what, message=str(e)[:200],
                    ok=True)
    rt = load_runtime()
    checked = kernels.checked_entry(s, "fwd")
    trusted = kernels.resolve(s.registry_key("fwd"))
    sig = ctypes.CFUNCTYPE(ctypes.c_int, *([ctypes.c_void_p] * 4))
    y = torch.empty_like(x)
    wd, bd = w.cuda().reshape(s.C, 9).t().contiguous(), b.cuda()
    host = (ctypes.c_float * (s.N * s.C * s.H * s.W + 4))()
    host_x = (ctypes.addressof(host) + 15) // 16 * 16  # aligned: refused as host memory
    cases = (("checked_host_x", checked, host_x, 3, "not a CUDA device pointer"),
             ("trusted_null_out", trusted, None, 3, "is null"),
             ("trusted_misaligned_x", trusted, x.data_ptr() + 4, 4, "not 16-byte aligned"))
    for what, fn, xp, want, text in cases:
        args = [xp, wd.data_ptr(), bd.data_ptr(), y.data_ptr()]
        if what == "trusted_null_out":
            args = [x.data_ptr(), wd.data_ptr(), bd.data_ptr(), None]
        st = sig(fn)(*args) if fn else -1
        msg = rt.dwcGetLastErrorMessage().decode()
        res.add(section="correctness", op="entry_check", case=what, status=st, message=msg,
                distinct_entries=bool(checked and trusted and checked != trusted),
                ok=bool(st == want and text in msg and checked != trusted))


def route_specs():
    """Odd shapes for the per-op routes (convert's mixed layers)."""
    from dwc_torch.spec import LayerSpec
    return [LayerSpec.make(3, 37, 23, 19, 3, 1, 1, 1, "f32", True),
            LayerSpec.make(2, 53, 17, 29, 7, 1, 3, 1, "f16", True),
            LayerSpec.make(2, 53, 17, 29, 7, 1, 3, 1, "bf16", True),
            LayerSpec.make(2, 40, 21, 17, 3, 2, 1, 1, "f32", True),
            LayerSpec.make(1, 19, 13, 11, 3, 1, 2, 2, "f32", False)]


def section_routes(res):
    """A converted depthwise layer with every per-op route (0-7: which of
    forward, dX, dW run PyTorch's kernels): output and gradients vs float64,
    outputs poisoned first; the ops not routed ran dwc kernels (calls up,
    no fallback) and the routed ones PyTorch's (the 'routed' counter)."""
    import torch
    import dwc_torch
    from dwc_torch import modules
    torch.manual_seed(0)
    T = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
    cl = torch.channels_last
    for s in route_specs():
        tdt = T[s.dtype]
        conv = torch.nn.Conv2d(s.C, s.C, s.kernel, s.stride, (s.padding[0], s.padding[2]),
                               s.dilation, s.C, s.bias).cuda().to(tdt)
        ref = copy.deepcopy(conv).double()  # the same (rounded) weights
        conv = dwc_torch.convert(conv, strided=True, verbose=False)
        x = torch.randn(s.N, s.C, s.H, s.W, device="cuda").to(tdt).contiguous(memory_format=cl)
        gy = torch.randn(s.N, s.C, s.OH, s.OW, device="cuda").to(tdt).contiguous(
            memory_format=cl)
        x64 = x.double().requires_grad_(True)
        y64 = ref(x64)
        want = [y64] + list(torch.autograd.grad(y64, [x64] + list(ref.parameters()),
                                                gy.double()))
        for route in range(8):
            ops = [o for o, b in modules.ROUTE_OPS.items() if route & b]
            modules.set_route(conv, ops)
            xi = x.detach().requires_grad_(True)
            poison()
            before = dwc_torch.stats()
            y = conv(xi)
            got = [y] + list(torch.autograd.grad(y, [xi] + list(conv.parameters()), gy))
            torch.cuda.synchronize()
            after = dwc_torch.stats()
            errs = [rel_err(a, b) for a, b in zip(got, want)]
            dwc_calls = after["calls"] - before["calls"]
            routed = after["routed"] - before["routed"]
            # dX and dW on PyTorch together are one call.
            want_routed = (route & 1) + (1 if route & 6 else 0)
            res.add(section="routes", spec=s.key, route=route, torch_ops=ops,
                    rel_err=max(errs), dwc_kernel_calls=dwc_calls, routed_calls=routed,
                    ok=bool(max(errs) <= TOL[s.dtype] and routed == want_routed and
                            after["fallbacks"] == before["fallbacks"] and
                            dwc_calls == 3 - bin(route).count("1")))


def large_specs():
    """Layers of the large-kernel networks (batch 32), f16 and f32."""
    from dwc_torch.spec import LayerSpec
    out = []
    for dt in ("f16",):
        out += [LayerSpec.make(32, 128, 56, 56, 31, 1, 15, 1, dt, False),
                LayerSpec.make(32, 512, 14, 14, 27, 1, 13, 1, dt, False),
                LayerSpec.make(32, 128, 56, 56, 5, 1, 2, 1, dt, False),
                LayerSpec.make(32, 96, 56, 56, (51, 5), 1, (25, 2), 1, dt, False),
                LayerSpec.make(32, 96, 56, 56, (5, 51), 1, (2, 25), 1, dt, False),
                LayerSpec.make(32, 768, 7, 7, (13, 5), 1, (6, 2), 1, dt, False),
                LayerSpec.make(32, 256, 56, 56, 3, 2, 1, 1, dt, False)]
    return out


def section_large(res, deadline=float("inf")):
    import torch
    torch.manual_seed(0)
    for s in large_specs():
        if time.time() > deadline:
            res.add(section="correctness", op="large", spec=s.key, skipped="time budget")
            continue
        try:
            check_dw(res, s)
        except Exception as e:
            res.add(section="correctness", op="large", spec=s.key, error=repr(e)[:300],
                    ok=False)


def section_correctness(res):
    import torch
    torch.manual_seed(0)
    dw, pools, gaps, convs = correctness_specs()
    for s in dw:
        check_dw(res, s)
    for s in pools:
        check_pool(res, s)
    check_gap_conv(res, gaps, convs)
    check_module(res)
    check_trusted_paths(res)


def _host_us(fn, calls, reps=15, inner=8):
    """Median host time per call: fn() enqueues `calls` calls; no sync
    inside a measurement (inner * calls launches stay within the queue)."""
    import torch
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    out = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        out.append((time.perf_counter() - t0) / (inner * calls) * 1e6)
        torch.cuda.synchronize()
    return statistics.median(out)


def _gpu_ms(fn, reps=20, warm=3):
    import torch
    for _ in range(warm):
        fn()
    ts = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        ts.append(a.elapsed_time(b))
    return statistics.median(ts)


def section_overhead_host(res):
    """The overhead section without the CUDA graph checks (repeat runs)."""
    section_overhead(res, graphs=False)


def chain_models():
    """(stock, converted, x): CHAIN's depthwise layers as nn.Conv2d and
    converted, channels_last, and an input."""
    import torch
    import dwc_torch
    c = CHAIN
    torch.backends.cudnn.benchmark = True
    stock = torch.nn.Sequential(*[torch.nn.Conv2d(c["C"], c["C"], c["k"], padding=c["k"] // 2,
                                                  groups=c["C"]) for _ in range(c["layers"])])
    stock = stock.cuda().to(memory_format=torch.channels_last)
    ours = dwc_torch.convert(copy.deepcopy(stock), verbose=False)
    x = torch.randn(c["N"], c["C"], c["H"], c["W"], device="cuda").contiguous(
        memory_format=torch.channels_last)
    return stock, ours, x


def section_overhead(res, graphs=True):
    import torch
    import dwc_torch
    c = CHAIN
    stock, ours, x = chain_models()
    L = c["layers"]
    d = torch.ops.dwc
    ours(x)
    w, b = ours[0].weight, ours[0].bias
    plan = ours[0].__dict__["_plan"]
    hwc = plan.cached
    idle = torch.nn.Sequential(*[torch.nn.Identity() for _ in range(L)])

    def raw():
        y = x
        for _ in range(L):
            y = d.depthwise_conv2d(y, w, b, [1, 1], [1, 1, 1, 1], [1, 1], hwc)
        return y

    def planned():
        y = x
        for _ in range(L):
            y = plan(y, w, b)
        return y

    call = plan.call  # the same plan call as a pybind11 method (v3's __call__)

    def planned_method():
        y = x
        for _ in range(L):
            y = call(y, w, b)
        return y
    calls0 = dwc_torch.stats()["calls"]
    with torch.no_grad():
        rows = {"module_no_grad": (_host_us(lambda: ours(x), L), _gpu_ms(lambda: ours(x))),
                "plan_call_no_grad": (_host_us(planned, L), _gpu_ms(planned)),
                "plan_method_no_grad": (_host_us(planned_method, L), _gpu_ms(planned_method)),
                "raw_op_no_grad": (_host_us(raw, L), _gpu_ms(raw)),
                "torch_no_grad": (_host_us(lambda: stock(x), L), _gpu_ms(lambda: stock(x))),
                "identity_modules": (_host_us(lambda: idle(x), L), 0.0)}
    xg = x.clone().requires_grad_(True)
    rows["module_grad"] = (_host_us(lambda: ours(xg), L), _gpu_ms(lambda: ours(xg)))
    rows["torch_grad"] = (_host_us(lambda: stock(xg), L), _gpu_ms(lambda: stock(xg)))
    with torch.no_grad(), torch.autocast("cuda", dtype=torch.float16):
        rows["module_autocast_f16"] = (_host_us(lambda: ours(x), L), _gpu_ms(lambda: ours(x)))
        rows["torch_autocast_f16"] = (_host_us(lambda: stock(x), L), _gpu_ms(lambda: stock(x)))
    used = dwc_torch.stats()["calls"] > calls0
    for k, (h, g) in rows.items():
        res.add(section="overhead", variant=k, host_us_per_call=round(h, 2),
                gpu_ms_per_chain=round(g, 4), chain=c, dwc_kernels_used=used)
    if graphs:
        section_graph(res, ours, x)
        section_graph_train(res, ours, x)


def section_graph_train(res, model, x):
    """Forward + backward of the converted chain captured with
    torch.cuda.make_graphed_callables; the weights then updated in place
    (as optimizer.step() does) and the graph replayed on new inputs: output
    and gradients vs the same module run eagerly."""
    import torch
    try:
        ref = copy.deepcopy(model)
        m = copy.deepcopy(model)
        g = torch.cuda.make_graphed_callables(m, (x.clone().requires_grad_(True),))
        with torch.no_grad():
            for a, b in zip(m.parameters(), ref.parameters()):
                a.mul_(-0.5)
                b.mul_(-0.5)
        xn = torch.randn_like(x).requires_grad_(True)
        xr = xn.detach().clone().requires_grad_(True)
        y, yr = g(xn), ref(xr)
        y.sum().backward()
        yr.sum().backward()
        e = max([rel_err(y, yr), rel_err(xn.grad, xr.grad)] +
                [rel_err(a.grad, b.grad) for a, b in zip(m.parameters(), ref.parameters())])
        res.add(section="cuda_graph_train", captured=True, rel_err=e,
                weights_updated_after_capture=True, ok=e <= 1e-5)
    except Exception as e:  # report, do not hide
        res.add(section="cuda_graph_train", captured=False, error=repr(e)[:500], ok=False)


def section_graph(res, model, x):
    """Inference of the converted chain captured with torch.cuda.graph,
    replayed on a new input, then again after an in-place weight update."""
    import torch
    model = copy.deepcopy(model)
    static_x = x.clone()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    try:
        with torch.no_grad(), torch.cuda.stream(s):
            for _ in range(3):
                model(static_x)
        torch.cuda.current_stream().wait_stream(s)
        g = torch.cuda.CUDAGraph()
        with torch.no_grad(), torch.cuda.graph(g):
            static_y = model(static_x)
        static_x.copy_(torch.randn_like(x))
        g.replay()
        torch.cuda.synchronize()
        with torch.no_grad():
            e = rel_err(static_y, model(static_x))
            for p in model.parameters():
                p.mul_(-0.5)
        g.replay()
        torch.cuda.synchronize()
        with torch.no_grad():
            e2 = rel_err(static_y, model(static_x))
        res.add(section="cuda_graph", captured=True, rel_err=e,
                rel_err_after_weight_update=e2, ok=max(e, e2) <= 1e-5)
    except Exception as e:  # report, do not hide
        res.add(section="cuda_graph", captured=False, error=repr(e)[:500], ok=False)


def _train_step(model, opt, x, target, amp):
    import torch
    with torch.autocast("cuda", dtype=amp or torch.float16, enabled=amp is not None):
        loss = torch.nn.functional.cross_entropy(model(x), target)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()


def _agreement(stock, ours, x, target, amp, train):
    """dwc against stock: relative logit error, worst relative gradient
    error (by norm) and the error of all gradients together, both sides
    with cuDNN's TF32 off: PyTorch's default (allow_tf32 = True) runs stock
    f32 convolutions in TF32 (10-bit mantissa), which alone moves a deep f32
    network's logits by ~1e-2 and cannot be the 1e-4 reference. Also both
    sides against the same model run in float64 (`vs_f64`): how far stock's
    own arithmetic is from the exact result bounds what any agreement with
    stock can mean (AMP or a deep network's summation order)."""
    import torch
    tf32 = torch.backends.cudnn.allow_tf32
    torch.backends.cudnn.allow_tf32 = False
    try:
        ref = _f64_side(stock, x, target, train)
        sides = [_run_side(m, x, target, amp, train) for m in (stock, ours)]
        alt = _stock_other_algorithms(stock, x, target, amp, train)
    finally:
        torch.backends.cudnn.allow_tf32 = tf32
    (y_s, g_s), (y_d, g_d) = sides
    logit = rel_err(y_d, y_s)
    gerr, worst, gall = grad_errors(g_d, g_s) if train else (0.0, None, 0.0)
    vs = _vs_f64(ref, sides + [alt], train) or {}
    vs["stock_vs_stock_other_algorithms"] = _pair_errors(alt, sides[0], train)
    return logit, gerr, worst, gall, vs


def _stock_other_algorithms(stock, x, target, amp, train):
    """Stock's own step with cuDNN's default heuristics and deterministic
    algorithms instead of the benchmarked ones: the same model and inputs,
    a different summation order; how far this lands from stock is how
    closely two correct computations of the model can agree."""
    import torch
    flags = torch.backends.cudnn.benchmark, torch.backends.cudnn.deterministic
    torch.backends.cudnn.benchmark, torch.backends.cudnn.deterministic = False, True
    try:
        return _run_side(stock, x, target, amp, train)
    finally:
        torch.backends.cudnn.benchmark, torch.backends.cudnn.deterministic = flags


def _pair_errors(a, b, train):
    """{logits, grad_worst, worst_grad, grad_all} of step a against step b."""
    row = {"logits": rel_err(a[0], b[0])}
    if train:
        w, name, al = grad_errors(a[1], b[1])
        row.update(grad_worst=w, worst_grad=name, grad_all=al)
    return row


def _run_side(m, x, target, amp, train):
    """(logits, {parameter name: gradient}) of one step of model m on x."""
    import torch
    m.train(train)
    m.zero_grad(set_to_none=True)
    with torch.autocast("cuda", dtype=amp or torch.float16, enabled=amp is not None):
        y = m(x)
    grads = {}
    if train:
        torch.nn.functional.cross_entropy(y.float(), target).backward()
        grads = {n: p.grad.detach().clone() for n, p in m.named_parameters()
                 if p.grad is not None}
        m.zero_grad(set_to_none=True)
    return y.detach().float(), grads


def _f64_side(stock, x, target, train):
    """The stock model's step in float64 (a copy; no autocast), or None when
    it does not fit in memory or the device has no float64 kernel for it."""
    import torch
    try:
        ref = copy.deepcopy(stock).double()
        return _run_side(ref, x.double(), target, None, train)
    except (RuntimeError, torch.OutOfMemoryError) as e:  # reported as missing
        print(f"networks: no float64 reference: {str(e)[:200]}", file=sys.stderr)
        return None
    finally:
        ref = None
        torch.cuda.empty_cache()


def _vs_f64(ref, sides, train):
    """Each step's logits / gradients against the float64 step: {stock,
    dwc, stock_other_algorithms: {logits, grad_worst, worst_grad,
    grad_all}}; None without a reference."""
    if ref is None:
        return None
    return {label: _pair_errors(side, ref, train)
            for label, side in zip(("stock", "dwc", "stock_other_algorithms"), sides)}


def as_accurate_as_stock(vs_f64, tol, slack=1.25):
    """dwc at most `slack` times as far from float64 as stock on each measure
    (or within `tol` of float64 outright); None without a reference."""
    if not vs_f64 or "dwc" not in vs_f64:
        return None
    d, s = vs_f64["dwc"], vs_f64["stock"]
    return all(d[k] <= max(slack * s[k], tol) for k in ("logits", "grad_worst", "grad_all")
               if k in d)


def grad_errors(got, ref, floor=1e-6):
    """(worst relative error by norm over the parameters, that parameter,
    the relative error of all gradients together). Parameters whose
    reference gradient is below `floor` of the largest norm are left out of
    the worst: a BatchNorm bias followed (through a residual add) by a
    training-mode BatchNorm has a gradient that cancels exactly (norm ~1e-15
    in float64 on timm's mobilenetv2_100, rel. error ~1e9 between PyTorch's
    own f32 and f64), so any two computations of it disagree completely."""
    top = max((g.double().norm().item() for g in ref.values()), default=0.0)
    worst, name, num, den = 0.0, None, 0.0, 0.0
    for n, g in ref.items():
        if n not in got:
            continue
        d, r = (got[n].double() - g.double()).norm().item(), g.double().norm().item()
        num, den = num + d * d, den + r * r
        if r > floor * top and d / r > worst:
            worst, name = d / r, n
    return worst, name, (num ** 0.5) / max(den ** 0.5, 1e-300)


def _step_fn(m, xs, target, amp, train):
    import torch
    it = iter(range(1 << 30))
    m.train(train)
    if train:
        opt = torch.optim.SGD(m.parameters(), lr=1e-4, momentum=0.9)
        return lambda: _train_step(m, opt, xs[next(it) % len(xs)], target, amp)

    def step():
        with torch.no_grad(), torch.autocast("cuda", dtype=amp or torch.float16,
                                             enabled=amp is not None):
            m(xs[next(it) % len(xs)])
    return step


def graph_step(m, x, target, amp, train, loss_scale=1.0):
    """The model's whole step (forward; for training also the loss,
    backward and SGD step) captured in one CUDA graph, as PyTorch's
    whole-network capture does it (warm-up on a side stream, autocast's
    weight cache off, gradients set to None before the capture so the graph
    owns them); returns its replay. Replays run no Python and no launch
    path: their time is the step's GPU time, the host's cost left out.
    `loss_scale`: the loss is multiplied by it before backward (a fixed
    loss scale, so f16 gradients do not underflow in checks)."""
    import torch
    m.train(train)
    static_x = x.clone()
    opt = torch.optim.SGD(m.parameters(), lr=1e-4, momentum=0.9) if train else None

    def body():
        with torch.autocast("cuda", dtype=amp or torch.float16, enabled=amp is not None,
                            cache_enabled=False):
            if not train:
                with torch.no_grad():
                    return m(static_x)
            loss = torch.nn.functional.cross_entropy(m(static_x), target)
        (loss * loss_scale if loss_scale != 1.0 else loss).backward()
        opt.step()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            if train:
                opt.zero_grad(set_to_none=True)
            body()
    torch.cuda.current_stream().wait_stream(side)
    g = torch.cuda.CUDAGraph()
    if train:
        opt.zero_grad(set_to_none=True)
    with torch.cuda.graph(g):
        body()

    # The graph reads static_x and the optimizer's momentum buffers at the
    # addresses of the capture: they must outlive every replay (freed, their
    # memory is reused and the replay reads / writes someone else's tensors).
    def replay():
        g.replay()
    replay.keep = (g, static_x, opt, target, body)
    return replay


def time_graphs(res_row, models, xs, target, amp, train, rounds=8, burst=10):
    """Adds graph_ms (time_steps over the graph replays: quietest round,
    paired speedup) of stock vs dwc to res_row; an error is reported."""
    from dwc_torch.converter import time_steps
    try:
        steps = {k: graph_step(m, xs[0], target, amp, train) for k, m in models.items()}
        t = time_steps(steps, rounds=rounds, burst=burst)
        res_row["graph_ms"] = {k: round(min(v), 3) for k, v in t.items()}
        res_row["graph_spread_pct"] = {k: round(100 * (max(v) - min(v)) / min(v), 1)
                                       for k, v in t.items()}
        res_row["graph_speedup"] = round(min(t["stock"]) / min(t["dwc"]), 4)
        res_row["graph_speedup_paired"] = round(statistics.median(
            a / b for a, b in zip(t["stock"], t["dwc"])), 4)
    except Exception as e:  # report, do not hide
        res_row["graph_error"] = repr(e)[:300]


def _graphs_mode(train):
    """convert's graphs= for a model that runs captured: 'frozen' filters
    for inference, True for training (its weights change in place)."""
    return True if train else "frozen"


def graph_mode_row(stock, xs, target, amp, train):
    """The user path of a model that runs captured: a copy of stock converted
    with convert(graphs=...) (its per-layer timings come from the tuning
    cache of the eager convert, only the whole-model check is new, in CUDA
    graphs), its replays against stock's (time_graphs). An error is
    reported in the row."""
    import dwc_torch
    ours = copy.deepcopy(stock)
    t0 = time.time()
    try:
        dwc_torch.convert(ours, example_inputs=xs[0], train=train, amp_dtype=amp,
                          verbose=False, graphs=_graphs_mode(train))
    except Exception as e:  # report, do not hide the row's other results
        return {"error": repr(e)[:300]}
    row = {"layers_converted": len(ours.dwc_report.converted),
           "convert_s": round(time.time() - t0, 1), "model_check": ours.dwc_report.model_check,
           "notes": ours.dwc_report.notes}
    time_graphs(row, {"stock": stock, "dwc": ours}, xs, target, amp, train)
    return row


def time_compiled(res_row, models, xs, target, amp, train, rounds=8):
    """Adds compiled_ms (time_steps over steps of torch.compile(model),
    --compile-mode, default inductor: the user path of a compiled model, the eager
    host cost of PyTorch's own ops mostly gone) of stock vs dwc to res_row,
    with each side's compile time; an error is reported."""
    import torch
    import dwc_torch
    from dwc_torch.converter import time_steps
    try:
        # Both sides from the same weights and buffers (the eager steps
        # before moved them apart), so that the compiled dwc model's first
        # outputs can be held against the eager stock model's.
        models["dwc"].load_state_dict(models["stock"].state_dict())
        fwd_mode = lambda: (torch.set_grad_enabled(train), torch.autocast(  # noqa: E731
            "cuda", dtype=amp or torch.float16, enabled=amp is not None))
        g, a = fwd_mode()
        with g, a:
            want = models["stock"](xs[0]).detach().float()
        steps, compile_s, compiled, first = {}, {}, {}, {}
        for k, m in models.items():
            t0 = time.time()
            compiled[k] = torch.compile(m, mode=COMPILE_MODE[0])
            g, a = fwd_mode()  # before any step; grad mode as in the steps
            with g, a:
                first[k] = compiled[k](xs[0]).detach().float().clone()
            steps[k] = _step_fn(compiled[k], xs, target, amp, train)
            for _ in range(3):  # compiles on the first call
                steps[k]()
            torch.cuda.synchronize()
            compile_s[k] = round(time.time() - t0, 1)
        # Against eager stock, and against compiled stock (inductor's own
        # fusions round 16-bit intermediates differently from eager).
        res_row["compiled_logits_rel_err"] = rel_err(first["dwc"], want)
        res_row["compiled_logits_rel_err_vs_compiled"] = rel_err(first["dwc"], first["stock"])
        s0 = dwc_torch.stats()
        for _ in range(2):
            steps["dwc"]()
        s1 = dwc_torch.stats()
        res_row["compiled_dwc_calls_per_step"] = {k: (s1.get(k, 0) - s0.get(k, 0)) / 2
                                                  for k in STAT_KEYS}
        t = time_steps(steps, rounds=rounds, burst=4)
        res_row["compiled_ms"] = {k: round(min(v), 3) for k, v in t.items()}
        res_row["compiled_speedup"] = round(min(t["stock"]) / min(t["dwc"]), 4)
        res_row["compiled_speedup_paired"] = round(statistics.median(
            a / b for a, b in zip(t["stock"], t["dwc"])), 4)
        res_row["compile_s"] = compile_s
        res_row["compile_mode"] = COMPILE_MODE[0] or "default"
        if PROFILE_STEPS[0]:
            res_row["compiled_profile"] = profile_compiled(steps)
    except Exception as e:  # report, do not hide
        res_row["compiled_error"] = repr(e)[:300]


def profile_compiled(steps):
    """torch.profiler on PROFILE_STEPS compiled steps per side: kernel time
    per step by category, and the kernels whose time differs most."""
    from . import profiler as P
    profs = {k: P.profile_steps(f, PROFILE_STEPS[0]) for k, f in steps.items()}
    a, b = profs["stock"], profs["dwc"]
    names = set(a["by_name"]) | set(b["by_name"])
    diff = sorted(((b["by_name"].get(n, [0, 0])[0] - a["by_name"].get(n, [0, 0])[0], n)
                   for n in names), key=lambda t: -abs(t[0]))[:25]
    return {"kernel_ms_per_step": {k: round(p["kernel_ms_per_step"], 4) for k, p in profs.items()},
            "busy_ms_per_step": {k: round(p["busy_ms_per_step"], 4) for k, p in profs.items()},
            "wall_ms_per_step": {k: round(p["wall_ms_per_step"], 4) for k, p in profs.items()},
            "kernels_per_step": {k: round(p["kernels_per_step"], 1) for k, p in profs.items()},
            "by_category": P._diff(a, b, "by_category", 0.005),
            "by_kernel_dwc_minus_stock_ms": [
                [n[:120], round(d, 4), round(a["by_name"].get(n, [0, 0])[1], 1),
                 round(b["by_name"].get(n, [0, 0])[1], 1)] for d, n in diff]}


STAT_KEYS = ("calls", "fallbacks", "routed", "master_weight", "layout_copies")
ROUNDS = [8]
COMPILED = [False]
COMPILE_MODE = [None]
PROFILE_STEPS = [0]
GRAPHS = [True]
GRAPHS_TRAIN = [False]
CONVERT_GRAPHS = [False]  # --convert-graphs: convert(..., graphs=True)
GRAPH_CONVERT = [False]  # --graph-convert: the graph column from convert(graphs=True)
CONTROL = [False]  # --control: stock against an unconverted copy of itself


def control_row(stock, xs, target, amp, train, rounds):
    """Stock against an unconverted copy of itself, timed as the row's two
    sides are (time_steps, ABBA rounds, bursts of 4): the eager noise of
    this model's step on this machine, the band inside which a row's
    speedup says nothing. {control_speedup (quietest rounds), control_paired
    (median same-round ratio), control_round_min_max}."""
    from dwc_torch.converter import time_steps
    twin = copy.deepcopy(stock)
    steps = {"stock": _step_fn(stock, xs, target, amp, train),
             "copy": _step_fn(twin, xs, target, amp, train)}
    for f in steps.values():
        f()
    t = time_steps(steps, rounds=rounds, burst=4)
    paired = statistics.median(a / b for a, b in zip(t["stock"], t["copy"]))
    return {"control_speedup": round(min(t["stock"]) / min(t["copy"]), 4),
            "control_paired": round(paired, 4),
            "control_round_min_max": {k: [round(min(v), 3), round(max(v), 3)]
                                      for k, v in t.items()}}


def args_rounds():
    """Interleaved timing rounds per model configuration (--rounds)."""
    return ROUNDS[0]


def profile_row(stock, ours, steps):
    """torch.profiler on PROFILE_STEPS steps per side (profiler.py):
    GPU kernel time per step, by category, and where the two sides differ
    most, by layer scope (depthwise / pooling layers named, the rest by
    autograd node or op) -- what makes a row slower."""
    import torch
    from . import profiler as P
    names = {k: [n for n, mod in m.named_modules()
                 if (isinstance(mod, torch.nn.Conv2d) and mod.groups > 1
                     and mod.groups == mod.in_channels)
                 or type(mod).__name__ in ("AdaptiveAvgPool2d", "MaxPool2d", "AvgPool2d")]
             for k, m in (("stock", stock), ("dwc", ours))}
    profs = {}
    try:
        for k, m in (("stock", stock), ("dwc", ours)):
            hooks = P._scope_layers(m, names[k])
            try:
                profs[k] = P.profile_steps(steps[k], PROFILE_STEPS[0])
            finally:
                for h in hooks:
                    h.remove()
    except Exception as e:  # report, do not hide
        return {"profile_error": repr(e)[:300]}
    a, b = profs["stock"], profs["dwc"]
    return {"kernel_ms_per_step": {k: round(p["kernel_ms_per_step"], 4) for k, p in profs.items()},
            "kernel_speedup": round(a["kernel_ms_per_step"] / b["kernel_ms_per_step"], 4),
            "busy_ms_per_step": {k: round(p["busy_ms_per_step"], 4) for k, p in profs.items()},
            "kernels_per_step": {k: round(p["kernels_per_step"], 1) for k, p in profs.items()},
            "profile_by_category": P._diff(a, b, "by_category", 0.005),
            "profile_by_scope": P._diff(a, b, "by_scope", 0.01)[:25]}


def bench_model(res, name, dt, batch, train):
    import torch
    import dwc_torch
    amp = {"f32": None, "f16": torch.float16, "bf16": torch.bfloat16}[dt]
    torch.backends.cudnn.benchmark = True
    torch.manual_seed(0)
    stock = create_model(name).cuda().to(memory_format=torch.channels_last)
    ours = copy.deepcopy(stock)
    xs = [torch.randn(batch, 3, 224, 224, device="cuda").contiguous(
        memory_format=torch.channels_last) for _ in range(3 if batch > 1 else 1)]
    target = torch.randint(0, 1000, (batch,), device="cuda")
    stock.train(train)
    ours.train(train)
    t0 = time.time()
    dwc_torch.convert(ours, example_inputs=xs[0], train=train, amp_dtype=amp, verbose=False,
                      graphs=_graphs_mode(train) if CONVERT_GRAPHS[0] else False)
    convert_s = time.time() - t0
    rep = ours.dwc_report
    logit, gerr, worst, gall, vs_f64 = _agreement(stock, ours, xs[0], target, amp, train)
    steps = {label: _step_fn(m, xs, target, amp, train) for label, m in
             (("stock", stock), ("dwc", ours))}
    # Eager steps: bursts of 4 steps between events, ABBA rounds, GC off
    # (converter.time_steps); the quietest round of each side, and the
    # median of the same-round ratios.
    from dwc_torch.converter import time_steps
    s0 = dwc_torch.stats()
    for f in steps.values():
        for _ in range(3):
            f()
    s1 = dwc_torch.stats()
    t = time_steps(steps, rounds=args_rounds(), burst=4)
    spread = {k: [round(min(v), 3), round(max(v), 3)] for k, v in t.items()}
    paired = statistics.median(a / b for a, b in zip(t["stock"], t["dwc"]))
    medians = {k: round(statistics.median(v), 3) for k, v in t.items()}
    ms = {k: min(v) for k, v in t.items()}
    extra = {}
    # Training steps only on request (--graphs-train): they cost a capture
    # per side; v6's illegal address in them was most likely graph_step's freed
    # input and optimizer (fixed).
    if GRAPHS[0] and (not train or GRAPHS_TRAIN[0]):
        time_graphs(extra, {"stock": stock, "dwc": ours}, xs, target, amp, train)
        if GRAPH_CONVERT[0] and not CONVERT_GRAPHS[0]:
            extra["graph_mode"] = graph_mode_row(stock, xs, target, amp, train)
    if COMPILED[0]:
        time_compiled(extra, {"stock": stock, "dwc": ours}, xs, target, amp, train,
                      rounds=args_rounds())
    if PROFILE_STEPS[0]:
        extra.update(profile_row(stock, ours, steps))
    if CONTROL[0]:
        extra.update(control_row(stock, xs, target, amp, train, args_rounds()))
    # The dwc side's counters over its 3 warm-up steps (per step): kernel
    # calls, PyTorch fallbacks (a missing kernel), routed ops, and autocast
    # calls that took the f32 master weight (the lean autocast path).
    extra["dwc_calls_per_step"] = {k: (s1.get(k, 0) - s0.get(k, 0)) / 3 for k in STAT_KEYS}
    kept = {n for n, _ in rep.converted}
    ours_in = sum(v[0] for n, v in rep.timings.items() if n in kept)
    theirs_in = sum(v[1] for n, v in rep.timings.items() if n in kept)
    tol = 1e-4 if dt == "f32" else 1e-2
    res.add(section="models", model=name, dtype=dt, amp=amp is not None, batch=batch,
            mode="train" if train else "inference", layers_converted=len(rep.converted),
            candidates_timed=len(rep.timings), left_on_pytorch=len(rep.skipped),
            stock_ms=round(ms["stock"], 3), dwc_ms=round(ms["dwc"], 3),
            speedup=round(ms["stock"] / ms["dwc"], 3), round_min_max=spread,
            round_medians=medians, speedup_paired=round(paired, 4), timing="burst4-min",
            logits_rel_err=logit,
            grad_rel_err=gerr, worst_grad=worst, grad_rel_err_all=gall,
            agree=bool(logit <= tol and gerr <= tol),
            vs_f64=vs_f64, as_accurate_as_stock=as_accurate_as_stock(vs_f64, tol),
            converted_layers_ms_dwc=round(ours_in, 4), converted_layers_ms_torch=round(theirs_in, 4),
            convert_s=round(convert_s, 1), convert_phase_s=rep.phase_s,
            convert_graphs=CONVERT_GRAPHS[0], convert_notes=rep.notes,
            convert_model_check=rep.model_check, **extra,
            convert_model_check_ms=[round(v, 3) for v in rep.model_ms] if rep.model_ms else None,
            routed_layers={n: list(r) for n, r in rep.routes.items()},
            op_times={n: {o: [None if a is None else round(a * 1e3, 1), round(b * 1e3, 1)]
                          for o, (a, b) in ops.items()} for n, ops in rep.op_times.items()},
            report=str(rep).splitlines()[:12])


def _vs(a, b):
    """(logit rel err, worst grad rel err by norm, its parameter, all grads'
    rel err) of a vs b (see grad_errors)."""
    (ya, ga), (yb, gb) = a, b
    return (rel_err(ya, yb),) + grad_errors(ga, gb)


def section_amp_reference(res, configs):
    """Whether AMP disagreement is dwc's: stock f32 (reference), stock AMP
    and dwc AMP (every stride-1 depthwise layer converted, no tuning) on one
    batch in training mode; each against the others."""
    import torch
    import dwc_torch
    for name, dt in sorted({(c[0], c[1]) for c in configs if c[1] != "f32"}):
        amp = {"f16": torch.float16, "bf16": torch.bfloat16}[dt]
        torch.manual_seed(0)
        stock = create_model(name).cuda().to(memory_format=torch.channels_last).train()
        ours = dwc_torch.convert(copy.deepcopy(stock), tune=False, verbose=False)
        x = torch.randn(32, 3, 224, 224, device="cuda").contiguous(
            memory_format=torch.channels_last)
        target = torch.randint(0, 1000, (32,), device="cuda")
        ref = _run_side(stock, x, target, None, True)
        st = _run_side(stock, x, target, amp, True)
        dw = _run_side(ours, x, target, amp, True)
        res.add(section="amp_reference", model=name, dtype=dt,
                layers_converted=len(ours.dwc_report.converted),
                stock_amp_vs_f32=_vs(st, ref), dwc_amp_vs_f32=_vs(dw, ref),
                dwc_amp_vs_stock_amp=_vs(dw, st))


def section_agreement(res, deadline, configs):
    """Every eligible layer on dwc's kernels (convert without tuning, strided
    layers too, no op routed to PyTorch), each config's step against stock
    and both against float64 (_agreement): the accuracy of dwc's
    kernels inside the whole network, whatever convert would keep."""
    import torch
    import dwc_torch
    for name, dt, batch, train in configs:
        head = dict(section="agreement", model=name, dtype=dt, batch=batch,
                    mode="train" if train else "inference")
        if time.time() > deadline:
            res.add(**head, skipped="time budget")
            continue
        try:
            amp = {"f32": None, "f16": torch.float16, "bf16": torch.bfloat16}[dt]
            torch.manual_seed(0)
            stock = create_model(name).cuda().to(memory_format=torch.channels_last)
            ours = dwc_torch.convert(copy.deepcopy(stock), tune=False, strided=True,
                                     verbose=False)
            x = torch.randn(batch, 3, 224, 224, device="cuda").contiguous(
                memory_format=torch.channels_last)
            target = torch.randint(0, 1000, (batch,), device="cuda")
            s0 = dwc_torch.stats()
            logit, gerr, worst, gall, vs = _agreement(stock, ours, x, target, amp, train)
            s1 = dwc_torch.stats()
            tol = 1e-4 if dt == "f32" else 1e-2
            res.add(**head, layers_converted=len(ours.dwc_report.converted),
                    dwc_calls={k: s1.get(k, 0) - s0.get(k, 0) for k in STAT_KEYS},
                    logits_rel_err=logit, grad_rel_err=gerr, worst_grad=worst,
                    grad_rel_err_all=gall, vs_f64=vs,
                    as_accurate_as_stock=as_accurate_as_stock(vs, tol))
            del stock, ours
            torch.cuda.empty_cache()
        except Exception as e:
            res.add(**head, error=repr(e)[:800])


def section_models(res, deadline, configs):
    for name, dt, batch, train in configs:
        if time.time() > deadline:
            res.add(section="models", model=name, dtype=dt, batch=batch,
                    mode="train" if train else "inference", skipped="time budget")
            continue
        try:
            bench_model(res, name, dt, batch, train)
        except Exception as e:
            res.add(section="models", model=name, dtype=dt, batch=batch,
                    mode="train" if train else "inference", error=repr(e)[:800])


def run(args):
    import logging

    import torch
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    t_start = time.time()
    res = Results(args.out)
    import dwc_torch
    t0 = time.time()
    dwc_torch.load_extension()
    n = sum(dwc_torch.load_kernels(k) for k in args.kernels.split(","))
    res.add(section="setup", torch=torch.__version__, device=torch.cuda.get_device_name(),
            extension_and_load_s=round(time.time() - t0, 1), entry_points=n)
    for name, fn in (("correctness", section_correctness), ("routes", section_routes),
                     ("overhead", section_overhead),
                     ("overhead_host", section_overhead_host)):
        if name in args.sections.split(","):
            try:
                fn(res)
            except Exception as e:
                res.add(section=name, error=repr(e)[:800])
    if "amp_reference" in args.sections:
        try:
            section_amp_reference(res, select_configs(args.configs))
        except Exception as e:
            res.add(section="amp_reference", error=repr(e)[:800])
    if "agreement" in args.sections.split(","):
        section_agreement(res, t_start + args.budget_s, select_configs(args.configs))
    if "models" in args.sections.split(","):
        section_models(res, t_start + args.budget_s, select_configs(args.configs))
    if "large" in args.sections:
        section_large(res, t_start + args.budget_s + args.large_s)
    res.add(section="done", wall_s=round(time.time() - t_start, 1), stats=dwc_torch.stats())


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--aot", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("-j", type=int, default=2)
    p.add_argument("--sections", default="correctness,overhead,models")
    p.add_argument("--configs", default="all")
    r = sub.add_parser("run")
    r.add_argument("--kernels", required=True)
    r.add_argument("--out", required=True)
    r.add_argument("--sections", default="correctness,overhead,models")
    r.add_argument("--configs", default="all")
    r.add_argument("--large-s", type=float, default=60,
                   help="seconds after --budget-s for the large-kernel layer checks")
    r.add_argument("--profile-steps", type=int, default=0,
                   help="torch.profiler on this many steps per side of each model row "
                        "(kernel time per step, where the sides differ)")
    r.add_argument("--rounds", type=int, default=8,
                   help="interleaved timing rounds per model configuration")
    r.add_argument("--no-graphs", action="store_true",
                   help="no CUDA-graph timing of the whole step (graph_ms)")
    r.add_argument("--graphs-train", action="store_true",
                   help="CUDA-graph timing of training steps too (see GRAPHS_TRAIN)")
    r.add_argument("--compiled", action="store_true",
                   help="also time both sides as torch.compile(model) (compiled_ms)")
    r.add_argument("--compile-mode", default=None,
                   help="torch.compile's mode for --compiled (e.g. reduce-overhead: "
                        "inductor's CUDA graphs)")
    r.add_argument("--convert-graphs", action="store_true",
                   help="convert(..., graphs=True): the whole-model check in CUDA graphs")
    r.add_argument("--graph-convert", action="store_true",
                   help="also a copy converted with graphs=True, its CUDA-graph replays "
                        "against stock's (graph_mode): each mode with its own conversion")
    r.add_argument("--control", action="store_true",
                   help="also time stock against an unconverted copy of itself (the row's "
                        "eager noise: control_speedup, control_paired)")
    r.add_argument("--budget-s", type=float, default=300,
                   help="no new model benchmark starts after this many seconds")
    args = ap.parse_args(argv)
    if args.cmd == "run":
        ROUNDS[0] = args.rounds
        GRAPHS[0] = not args.no_graphs
        GRAPHS_TRAIN[0] = args.graphs_train
        PROFILE_STEPS[0] = args.profile_steps
        COMPILED[0] = args.compiled
        COMPILE_MODE[0] = args.compile_mode
        CONVERT_GRAPHS[0] = args.convert_graphs
        GRAPH_CONVERT[0] = args.graph_convert
        CONTROL[0] = args.control
    prepare(args) if args.cmd == "prepare" else run(args)
