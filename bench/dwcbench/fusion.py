"""Whole networks with dwc's fused depthwise layers, against stock PyTorch.

Here (the machine with MLIR), compile every kernel the GPU run needs (the
fused forwards of each network's depthwise layers, the plain ones, and the
odd shapes of the correctness check):

    python3 bench/dwcbench fusion prepare --aot build/bin/dwc-aot --out .carry/fusion

There (the GPU machine), with .carry/fusion carried (and a timm wheel in
.carry/wheels where the machine has no timm):

    bench/run_on_gpu.sh fusion [--sections correctness,layers,eager,compile]

Sections (JSON lines as they finish):
  correctness  fused kernels on odd shapes (C not a multiple of 8, stride 2,
               asymmetric padding, every activation, f32/f16/bf16) against
               float64, outputs poisoned first, the call checked to be dwc's
  layers       each fused layer of the networks alone: its time, the byte
               floor (input + output + filter at the copy bandwidth measured
               in the same process) and % of it, against PyTorch's best for
               the unfused conv + BatchNorm + activation (channels_last and
               NCHW, cudnn.benchmark on and off)
  eager        inference, stock eager (channels_last, cudnn.benchmark) vs
               dwc_torch.convert(model.eval(), example_inputs=x): ms per
               forward (eager) and per CUDA-graph replay (the GPU's time),
               logits against the float64 model for both sides
  compile      torch.compile(model) on both sides (default mode), ms per call
"""

import argparse
import copy
import json
import os
import statistics
import time

from . import ROOT  # noqa: F401  (puts python/ on the import path)

MODELS = ("mobilenetv2_100", "efficientnet_b0", "mobilenetv3_large_100", "mnasnet_100")
DTYPES = ("f16", "f32")
BATCHES = (64, 1)


def odd_specs():
    """Fused layers of odd shapes for the correctness section."""
    from dwc_torch.spec import FusedSpec, LayerSpec
    L = LayerSpec.make
    return [
        FusedSpec.make(L(3, 24, 17, 19, 3, 1, 1, dtype="f32", bias=True), "relu6", "relu6", True),
        FusedSpec.make(L(2, 40, 15, 13, 5, 2, 2, dtype="f16", bias=True), "silu", "silu", True),
        FusedSpec.make(L(1, 13, 9, 11, 3, 1, 1, dtype="f32", bias=True), "hardswish", "", False),
        FusedSpec.make(L(2, 16, 12, 10, 7, 1, 3, dtype="bf16", bias=True), "gelu", "", False),
        FusedSpec.make(L(2, 72, 14, 14, 3, 2, (0, 1, 0, 1), dtype="f16", bias=True),
                       "relu", "relu", True),
        FusedSpec.make(L(4, 96, 7, 7, 3, 1, 1, dtype="f16", bias=True), "hardsigmoid",
                       "sigmoid", True),
        FusedSpec.make(L(1, 32, 28, 28, 5, 1, 2, dtype="bf16", bias=True), "gelu_tanh",
                       "silu", True),
        FusedSpec.make(L(3, 20, 11, 9, 3, 2, 1, dtype="f32", bias=True), "", "relu6", True),
    ]


def create_model(name):
    import timm
    return timm.create_model(name, pretrained=False)


def prepare(args):
    from dwc_torch import aot
    from dwc_torch.spec import spec_ops
    os.makedirs(args.out, exist_ok=True)
    for name in args.models.split(","):
        for dt in args.dtypes.split(","):
            for batch in (int(b) for b in args.batches.split(",")):
                work, _ = aot.trace_model(create_model(name), (batch, 3, 224, 224), dt,
                                          amp=dt != "f32", train=False)
                out = os.path.join(args.out, "%s-%s-b%d" % (name, dt, batch))
                aot.build(work, args.aot, out, jobs=args.j, chip=args.chip)
    odd = [(s, spec_ops(s, False)) for s in odd_specs()]
    aot.build(odd, args.aot, os.path.join(args.out, "odd"), jobs=args.j, chip=args.chip)


# --- the GPU side ---------------------------------------------------------

class Results:
    def __init__(self, path):
        self.path = path

    def add(self, **row):
        row["device"] = _device_name()
        with open(self.path, "a") as fh:
            fh.write(json.dumps(row) + "\n")
        print(json.dumps(row), flush=True)


def _device_name():
    import torch
    return torch.cuda.get_device_name() if torch.cuda.is_available() else "cpu"


def _torch_dtype(dt):
    import torch
    return {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}[dt]


def _poison():
    """Leaves NaNs in the caching allocator's free blocks, so an output the
    kernel did not write shows up."""
    import torch
    junk = torch.full((64 << 20,), float("nan"), device="cuda")
    del junk


def _event_ms(fn, reps=30, warm=5):
    """Median CUDA-event time of fn (the networks topic's timer)."""
    from .networks import _gpu_ms
    return _gpu_ms(fn, reps, warm)


def section_correctness(res):
    import torch
    from dwc_torch import fusion
    from dwc_torch.extension import load_extension
    from dwc_torch.spec import ACTIVATIONS
    ext = load_extension()
    for spec in odd_specs():
        L = spec.layer
        dt = _torch_dtype(L.dtype)
        x = torch.randn(L.N, L.C, L.H, L.W, device="cuda").to(dt).contiguous(
            memory_format=torch.channels_last)
        w = (torch.randn(L.C, 1, *L.kernel, device="cuda") * 0.3).to(dt)
        b = torch.randn(L.C, device="cuda").to(dt)
        ib = torch.randn(L.C, device="cuda").to(dt) if spec.in_bias else None
        hwc = w.reshape(L.C, -1).t().contiguous()
        act, in_act = ACTIVATIONS.index(spec.act), ACTIVATIONS.index(spec.in_act)
        stats0 = ext.stats()
        _poison()
        y = ext.fused_forward(x, hwc, b, ib, list(L.kernel), list(L.stride), list(L.padding),
                              list(L.dilation), act, in_act)
        ours = y is not None and ext.stats().get("calls", 0) > stats0.get("calls", 0)
        xd = x.double()
        if ib is not None:
            xd = xd + ib.double().view(1, -1, 1, 1)
        xd = fusion.apply_activation(spec.in_act, xd)
        pt, pb, pl, pr = L.padding
        xd = torch.nn.functional.pad(xd, (pl, pr, pt, pb))
        ref = torch.nn.functional.conv2d(xd, w.double(), b.double(), L.stride, 0, L.dilation,
                                         L.C)
        ref = fusion.apply_activation(spec.act, ref)
        err = float("inf") if y is None else \
            ((y.double() - ref).norm() / ref.norm()).item()
        tol = 1e-5 if L.dtype == "f32" else (2e-3 if L.dtype == "f16" else 1e-2)
        res.add(section="correctness", spec=spec.key, ours=bool(ours), rel_err=err,
                tol=tol, ok=bool(ours and err <= tol and torch.isfinite(y).all().item()))


def _copy_bandwidth():
    """Bytes per ms of a device copy (read + write) of 1 GiB."""
    import torch
    a = torch.empty(1 << 28, device="cuda")
    b = torch.empty_like(a)
    ms = _event_ms(lambda: b.copy_(a), reps=10, warm=2)
    return 2 * a.numel() * 4 / ms


def _pytorch_best_unfused(state, x):
    """PyTorch's best time of the unfused layers (conv + BN + act) on x."""
    import torch
    dw, norm = state.dw, state.norm
    act = fusion_act(state)
    best = float("inf")
    for fmt in (torch.channels_last, torch.contiguous_format):
        for bench in (True, False):
            torch.backends.cudnn.benchmark = bench
            xi = x.contiguous(memory_format=fmt)
            dwf = copy.deepcopy(dw).to(memory_format=fmt)
            dwf.forward = torch.nn.Conv2d.forward.__get__(dwf)
            with torch.no_grad():
                best = min(best, _event_ms(lambda: act(norm_eval(norm, dwf(xi)))))
    torch.backends.cudnn.benchmark = True
    return best


def norm_eval(norm, y):
    import torch.nn.functional as F
    return F.batch_norm(y, norm.running_mean, norm.running_var, norm.weight, norm.bias,
                        False, 0.0, norm.eps)


def fusion_act(state):
    from dwc_torch import fusion
    from dwc_torch.spec import ACTIVATIONS
    name = ACTIVATIONS[state.act]
    return lambda t: fusion.apply_activation(name, t)


def section_layers(res, models, dtypes):
    """Each fused layer alone (batch 64): ms, % of the byte floor, PyTorch's
    best for the unfused layers."""
    import torch
    import dwc_torch
    from dwc_torch import fusion
    from dwc_torch.extension import load_extension
    ext = load_extension()
    bw = _copy_bandwidth()
    res.add(section="layers", copy_bytes_per_ms=bw)
    for name in models:
        for dt in dtypes:
            model = create_model(name).cuda().eval().to(memory_format=torch.channels_last)
            tdt = _torch_dtype(dt)
            model = model.to(tdt)
            states = fusion.apply(model, fusion.find_patterns(model))
            inputs = {}
            hooks = [st.dw.register_forward_pre_hook(
                lambda m, a, st=st: inputs.setdefault(id(st), a[0].detach()))
                for st in states]
            x = torch.randn(64, 3, 224, 224, device="cuda", dtype=tdt).contiguous(
                memory_format=torch.channels_last)
            fusion.set_enabled(states, False)
            with torch.no_grad():
                model(x)
            for h in hooks:
                h.remove()
            for st in states:
                xi = inputs[id(st)]
                w, hwc, b, ib = st.folded(tdt)
                dw = st.dw
                pad = dwc_torch.spec.normalize_padding(dw.padding, dw.kernel_size, dw.dilation)
                call = lambda: ext.fused_forward(xi, hwc, b, ib, list(dw.kernel_size),
                                                 list(dw.stride), pad, list(dw.dilation),
                                                 st.act, st.in_act)
                y = call()
                if y is None:
                    res.add(section="layers", model=name, dtype=dt, layer=st.pattern.dw,
                            missing=True)
                    continue
                ms = _event_ms(call)
                nbytes = (xi.numel() + y.numel()) * xi.element_size() + hwc.numel() * 2
                floor = nbytes / bw
                torch_ms = _pytorch_best_unfused(st, xi)
                res.add(section="layers", model=name, dtype=dt, layer=st.pattern.dw,
                        shape=list(xi.shape), kernel=list(dw.kernel_size),
                        stride=list(dw.stride), act=st.pattern.act_name,
                        in_act=st.pattern.in_act_name, ms=ms, floor_ms=floor,
                        pct_floor=100 * floor / ms, torch_unfused_ms=torch_ms,
                        speedup=torch_ms / ms)


def _step(model, xs, amp):
    import torch
    i = [0]

    def run():
        i[0] = (i[0] + 1) % len(xs)
        with torch.no_grad(), torch.autocast("cuda", dtype=amp or torch.float16,
                                             enabled=amp is not None):
            return model(xs[i[0]])
    return run


def _graph_replay(step):
    """The replay of `step` captured in a CUDA graph (convert's capture)."""
    from dwc_torch.converter import _captured
    return _captured(step, False, None).replay


def _logits_error(model, ref64, x, amp):
    import torch
    with torch.no_grad(), torch.autocast("cuda", dtype=amp or torch.float16,
                                         enabled=amp is not None):
        y = model(x).double()
    r = ref64(x.double())
    return ((y - r).norm() / r.norm()).item()


def _inputs(batch, tdt, count):
    import torch
    return [torch.randn(batch, 3, 224, 224, device="cuda", dtype=tdt).contiguous(
        memory_format=torch.channels_last) for _ in range(count)]


def _models(name, dt):
    """stock, dwc (converted and fused) and the float64 reference."""
    import torch
    torch.manual_seed(0)
    stock = create_model(name).cuda().eval().to(memory_format=torch.channels_last)
    for m in stock.modules():  # statistics off the identity, as a trained net has
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.uniform_(-0.2, 0.2)
            m.running_var.uniform_(0.5, 2.0)
    ref64 = copy.deepcopy(stock).double()
    ours = copy.deepcopy(stock)
    amp = None if dt == "f32" else _torch_dtype(dt)
    return stock, ours, ref64, amp


def section_eager(res, models, dtypes, batches):
    import torch
    import dwc_torch
    from dwc_torch.converter import time_steps
    torch.backends.cudnn.benchmark = True
    for name in models:
        for dt in dtypes:
            for batch in batches:
                stock, ours, ref64, amp = _models(name, dt)
                xs = _inputs(batch, torch.float32, 4 if batch > 8 else 1)
                t0 = time.time()
                dwc_torch.convert(ours, example_inputs=xs[0], amp_dtype=amp, verbose=False)
                convert_s = time.time() - t0
                rep = ours.dwc_report
                sides = {"stock": _step(stock, xs, amp), "dwc": _step(ours, xs, amp)}
                t = time_steps(sides, rounds=8)
                eager = {k: statistics.median(v) for k, v in t.items()}
                graphs = {k: _graph_replay(f) for k, f in sides.items()}
                g = time_steps(graphs, rounds=8)
                gpu = {k: statistics.median(v) for k, v in g.items()}
                xe = xs[0]
                res.add(section="eager", model=name, dtype=dt, batch=batch,
                        fused=len(rep.fused), converted=len(rep.converted),
                        notes=rep.notes, convert_s=round(convert_s, 1),
                        stock_ms=eager["stock"], dwc_ms=eager["dwc"],
                        eager_speedup=eager["stock"] / eager["dwc"],
                        stock_graph_ms=gpu["stock"], dwc_graph_ms=gpu["dwc"],
                        graph_speedup=gpu["stock"] / gpu["dwc"],
                        err_stock=_logits_error(stock, ref64, xe, amp),
                        err_dwc=_logits_error(ours, ref64, xe, amp))
                del stock, ours, ref64, graphs
                torch.cuda.empty_cache()


def section_compile(res, models, dtypes, batch=64):
    import torch
    import dwc_torch
    from dwc_torch.converter import time_steps
    torch.backends.cudnn.benchmark = True
    for name in models:
        for dt in dtypes:
            stock, ours, ref64, amp = _models(name, dt)
            xs = _inputs(batch, torch.float32, 4)
            dwc_torch.convert(ours, example_inputs=xs[0], amp_dtype=amp, verbose=False)
            cs, co = torch.compile(stock), torch.compile(ours)
            t0 = time.time()
            for m in (cs, co):
                for _ in range(3):
                    _step(m, xs, amp)()
            torch.cuda.synchronize()
            t = time_steps({"stock": _step(cs, xs, amp), "dwc": _step(co, xs, amp)}, rounds=8)
            ms = {k: statistics.median(v) for k, v in t.items()}
            xe = xs[0]
            res.add(section="compile", model=name, dtype=dt, batch=batch,
                    fused=len(ours.dwc_report.fused), compile_s=round(time.time() - t0, 1),
                    stock_ms=ms["stock"], dwc_ms=ms["dwc"], speedup=ms["stock"] / ms["dwc"],
                    err_stock=_logits_error(cs, ref64, xe, amp),
                    err_dwc=_logits_error(co, ref64, xe, amp))
            torch._dynamo.reset()
            del stock, ours, cs, co
            torch.cuda.empty_cache()


def run(args):
    import dwc_torch
    res = Results(args.out)
    for d in sorted(os.listdir(args.kernels)):
        path = os.path.join(args.kernels, d)
        if os.path.isfile(os.path.join(path, "manifest.json")):
            n = dwc_torch.load_kernels(path)
            print("loaded %d kernels from %s" % (n, d), flush=True)
    models = args.models.split(",")
    dtypes = args.dtypes.split(",")
    batches = [int(b) for b in args.batches.split(",")]
    for section in args.sections.split(","):
        t0 = time.time()
        if section == "correctness":
            section_correctness(res)
        elif section == "layers":
            section_layers(res, models, dtypes)
        elif section == "eager":
            section_eager(res, models, dtypes, batches)
        elif section == "compile":
            section_compile(res, models, dtypes)
        res.add(section="timing", name=section, seconds=round(time.time() - t0, 1))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="dwcbench fusion", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--aot", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--models", default=",".join(MODELS))
    p.add_argument("--dtypes", default=",".join(DTYPES))
    p.add_argument("--chip", default="sm_90")
    p.add_argument("--batches", default=",".join(map(str, BATCHES)))
    p.add_argument("-j", type=int, default=2)
    r = sub.add_parser("run")
    r.add_argument("--kernels", required=True)
    r.add_argument("--out", required=True)
    r.add_argument("--models", default=",".join(MODELS))
    r.add_argument("--dtypes", default=",".join(DTYPES))
    r.add_argument("--batches", default="64,1")
    r.add_argument("--sections", default="correctness,layers,eager")
    args = ap.parse_args(argv)
    prepare(args) if args.cmd == "prepare" else run(args)
    return 0
