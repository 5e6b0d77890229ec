"""dwc_torch.convert(model): run a model's depthwise convolutions and
pooling layers on dwc kernels, in place.

Eligible: nn.Conv2d with groups == in_channels == out_channels (depthwise),
nn.MaxPool2d (dilation 1, no indices), nn.AvgPool2d (no divisor_override),
nn.AdaptiveAvgPool2d(1), and with dense=True dense nn.Conv2d (groups=1).
Exact classes only (a subclass such as a 'same'-padding Conv2d computes its
own forward). Converted modules keep their parameters (same objects), so
state_dicts load both ways and an existing optimizer keeps working.

Never slower, by default: with `example_inputs` on a GPU (`tune=True`, the
default then) every candidate is timed against PyTorch on that input (GPU
time, _gpu_time_ms) -- forward for inference, forward + backward for
training; depthwise layers per op, keeping dwc only for the ops where it is
faster (the others run PyTorch's kernels: modules.set_route) -- and kept
only when faster, then the whole model is timed both ways (`verify`) and
what does not make it faster is undone. Strided depthwise layers are candidates
when tuning decides (`strided=None`), and left to PyTorch otherwise.

Everything left on PyTorch is listed in ONE report (logged once, and at
`model.dwc_report`): the layer's name, why, and a spec line for
`python -m dwc_torch.aot` where a kernel was missing.
"""

import gc
import hashlib
import logging
import statistics
import time

import torch
import torch.nn as nn

from . import modules as M
from . import ops as _ops
from . import progress, tuning
from .spec import GapSpec, LayerSpec, PoolSpec

log = logging.getLogger("dwc_torch")


class ConvertReport:
    def __init__(self):
        self.converted = []  # (name, kind)
        self.fused = []      # depthwise layers fused with their neighbours
        self.skipped = []    # (name, reason, hint or None)
        self.timings = {}    # name -> (dwc_ms, torch_ms): GPU time, the layer's chosen ops
        self.op_times = {}   # name -> {op: (dwc_ms, torch_ms)} of depthwise layers
        self.routes = {}     # name -> ops of a converted layer left to PyTorch's kernels
        self.model_ms = None  # (dwc_ms, torch_ms) of the whole model
        self.model_check = None  # time_steps' samples of each whole-model check
        self.phase_s = {}     # seconds convert spent per phase (tuning, check, ...)
        self.notes = []       # lines on how convert ran (e.g. not tuned, and why)

    def op_lines(self):
        """One line per depthwise layer timed per op: each op's dwc and
        PyTorch GPU time and where it runs (converted layers) -- why."""
        conv = {n for n, _ in self.converted}
        out = []
        for name, ops in self.op_times.items():
            where = self.routes.get(name, ())
            parts = []
            for op, (ours, theirs) in ops.items():
                if ours is None:
                    parts.append("%s PyTorch %.1f us" % (op, theirs * 1e3))
                    continue
                side = "-" if name not in conv else ("PyTorch" if op in where else "dwc")
                parts.append("%s %.1f/%.1f us -> %s" % (op, ours * 1e3, theirs * 1e3, side))
            out.append("%s: %s" % (name, "; ".join(parts)))
        return out

    def skip(self, name, reason, hint=None):
        self.skipped.append((name, reason, hint))

    def __str__(self):
        lines = ["dwc_torch.convert: %d layers on dwc kernels, %d left on PyTorch" % (
            len(self.converted), len(self.skipped))]
        lines += ["  " + n for n in self.notes]
        if self.model_ms:
            lines.append("  whole model: dwc %.3f ms, PyTorch %.3f ms" % self.model_ms)
        kinds = {}
        for _, k in self.converted:
            kinds[k] = kinds.get(k, 0) + 1
        if kinds:
            lines.append("  converted: " + ", ".join("%d %s" % (v, k) for k, v in
                                                     sorted(kinds.items())))
        if self.fused:
            lines.append("  fused with their BatchNorm/activation neighbours (eval mode): "
                         "%d depthwise layers" % len(self.fused))
        routed = {}
        for name, ops in self.routes.items():
            routed.setdefault(ops, []).append(name)
        for ops, names in sorted(routed.items()):
            lines.append("  %d x %s on PyTorch's kernels (faster there), the rest on dwc: %s"
                         % (len(names), "+".join(ops), ", ".join(names[:4]) +
                            (" ... (+%d)" % (len(names) - 4) if len(names) > 4 else "")))
        by_reason = {}
        for name, reason, hint in self.skipped:
            by_reason.setdefault(reason, []).append((name, hint))
        for reason, items in by_reason.items():
            names = [n for n, _ in items]
            shown = ", ".join(names[:8]) + (" ... (+%d)" % (len(names) - 8) if len(names) > 8
                                            else "")
            lines.append("  %d x %s: %s" % (len(items), reason, shown))
            hints = sorted({h for _, h in items if h})
            for h in hints[:8]:
                lines.append("      " + h)
        return "\n".join(lines)


def _is_depthwise(m):
    return m.groups == m.in_channels == m.out_channels and m.groups > 1


# How a strided depthwise layer left out for want of tuning is taken over
# (aot.py's traced-model report says how to compile it instead).
STRIDED_HOW = "convert(..., strided=True) to force, or pass example_inputs on a GPU"


def _candidate(name, m, dense, strided, report, strided_how=STRIDED_HOW):
    """The dwc class for module m, or None (with the reason reported)."""
    t = type(m)
    if isinstance(m, nn.Conv2d):
        if t is not nn.Conv2d:
            if not t.__module__.startswith("dwc_torch"):
                report.skip(name, "subclass %s of nn.Conv2d (own forward)" % t.__name__)
            return None
        if m.padding_mode != "zeros":
            report.skip(name, "padding_mode=%r" % m.padding_mode)
            return None
        if m.groups > 1 and not _is_depthwise(m):
            report.skip(name, "grouped convolution that is not depthwise "
                              "(groups=%d, in=%d, out=%d)" % (m.groups, m.in_channels,
                                                               m.out_channels))
            return None
        if m.groups == 1:
            return M.Conv2d if dense else None
        if tuple(m.stride) != (1, 1) and not strided:
            report.skip(name, "strided depthwise (stride %s) without tuning: %s"
                        % (tuple(m.stride), strided_how))
            return None
        return M.DepthwiseConv2d
    if t is nn.MaxPool2d:
        if m.return_indices or M._pair(m.dilation) != (1, 1):
            report.skip(name, "MaxPool2d with indices or dilation")
            return None
        return M.MaxPool2d
    if t is nn.AvgPool2d:
        if m.divisor_override is not None:
            report.skip(name, "AvgPool2d with divisor_override")
            return None
        return M.AvgPool2d
    if t is nn.AdaptiveAvgPool2d:
        if M._pair(m.output_size) != (1, 1):
            report.skip(name, "AdaptiveAvgPool2d to %s (only 1x1 is global pooling)"
                        % (m.output_size,))
            return None
        return M.AdaptiveAvgPool2d
    return None


def spec_of(module, x):
    """The dwc spec of `module` (a PyTorch or dwc module) on input x (a
    tensor or its shape + dtype name), or None."""
    shape = tuple(x.shape)
    dt = {torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16",
          torch.float64: "f64"}.get(x.dtype)
    if dt is None or len(shape) != 4:
        return None
    N, C, H, W = shape
    if isinstance(module, nn.Conv2d) and _is_depthwise(module):
        return LayerSpec.make(N, C, H, W, module.kernel_size, module.stride,
                              module.padding, module.dilation, dt, module.bias is not None)
    if isinstance(module, (nn.MaxPool2d, nn.AvgPool2d)):
        kind = "max" if isinstance(module, nn.MaxPool2d) else "avg"
        return PoolSpec.make(N, C, H, W, kind, module.kernel_size, module.stride,
                             M._pair(module.padding), module.ceil_mode,
                             getattr(module, "count_include_pad", False), dt)
    return None


def _parent(model, name):
    parts = name.split(".")
    obj = model
    for p in parts[:-1]:
        obj = getattr(obj, p)
    return obj, parts[-1]


def _time_ms(fn, reps=15, warm=3, inner=1):
    """Median wall time of fn() in ms: CUDA events around the calls on a GPU
    (what a user waits for, host time included), the clock elsewhere."""
    cuda = torch.cuda.is_available() and torch.cuda.is_initialized()
    for _ in range(warm):
        fn()
    times = []
    for _ in range(reps):
        if cuda:
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            for _ in range(inner):
                fn()
            b.record()
            b.synchronize()
            times.append(a.elapsed_time(b) / inner)
        else:
            t0 = time.perf_counter()
            for _ in range(inner):
                fn()
            times.append((time.perf_counter() - t0) * 1e3 / inner)
    return statistics.median(times)


_SPIN = {}  # device index -> GPU spin cycles per ms (torch.cuda._sleep)


def _spin_cycles_per_ms():
    dev = torch.cuda.current_device()
    if dev not in _SPIN:
        n = 1 << 21
        torch.cuda._sleep(n)  # warm-up
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        torch.cuda._sleep(n)
        b.record()
        b.synchronize()
        _SPIN[dev] = n / max(a.elapsed_time(b), 1e-3)
    return _SPIN[dev]


# A sample of _gpu_time_ms spans at least this much GPU time (calls under it
# are repeated, up to `inner`); calls of at least LONG_CALL_MS take fewer
# samples. Precision is not lost (a kernel of milliseconds varies by well
# under the 3 % margin between runs), but the minutes are: a RepLKNet
# 31x31 layer's PyTorch backward takes tens of ms, and 8 x 9 of them per op
# made convert() spend 50 s on that one layer.
SAMPLE_MS, LONG_CALL_MS, LONG_CALL_REPS = 1.0, 2.0, 5


def _sampling(first_ms, reps, inner):
    """(reps, inner) of _gpu_time_ms for calls that take first_ms."""
    inner = max(1, min(inner, int(SAMPLE_MS / max(first_ms, 1e-6)) + 1))
    return (min(reps, LONG_CALL_REPS) if first_ms >= LONG_CALL_MS else reps), inner


def _gpu_time_ms(fn, reps=9, warm=2, inner=8):
    """Median GPU time of fn() in ms (the clock off the GPU): a layer's cost
    inside a GPU-bound model step, where its host time overlaps the GPU's
    work. Each sample first fills the stream with a spin
    (torch.cuda._sleep) that outlasts the host's enqueueing of the `inner`
    timed calls; the start event follows the spin, so the events bracket
    kernels queued back to back, however long the host takes. A sample
    whose enqueueing took longer than its spin (the GPU may have waited) is
    taken again with a longer spin. Slow calls take fewer repetitions
    (_sampling). Both sides of a comparison are timed alike."""
    if not (torch.cuda.is_available() and torch.cuda.is_initialized()):
        return _time_ms(fn, reps=reps, warm=warm, inner=inner)
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    fn()
    b.record()
    b.synchronize()
    reps, inner = _sampling(a.elapsed_time(b), reps, inner)
    per_ms = _spin_cycles_per_ms()
    spin_ms, times, retries = 1.0, [], 0
    while len(times) < reps:
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(int(spin_ms * per_ms))
        a.record()
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        host_ms = (time.perf_counter() - t0) * 1e3
        b.record()
        b.synchronize()
        if host_ms > 0.7 * spin_ms and retries < 8:
            spin_ms, retries = min(2.0 * host_ms + 0.5, 200.0), retries + 1
            continue
        times.append(a.elapsed_time(b) / inner)
    return statistics.median(times)


def _layer_step(module, x, train):
    if not train:
        def run():
            with torch.no_grad():
                module(x)
        return run
    xi = x.detach().requires_grad_(True)

    def run():
        y = module(xi)
        y.backward(torch.ones_like(y))
    return run


class ExampleInputs(tuple):
    """The positional arguments of the model's example call, with its
    keyword arguments at `.kwargs`."""

    def __new__(cls, args=(), kwargs=None):
        obj = super().__new__(cls, args)
        obj.kwargs = dict(kwargs or {})
        return obj

    def tensors(self):
        from torch.utils._pytree import tree_leaves
        return [t for t in tree_leaves((tuple(self), self.kwargs)) if torch.is_tensor(t)]


def example_call(example_inputs):
    """ExampleInputs of convert's example_inputs: a tensor (the one
    argument), a tuple or list (the positional arguments) or a dict (the
    keyword arguments), as the model is called."""
    if isinstance(example_inputs, ExampleInputs):
        return example_inputs
    if torch.is_tensor(example_inputs):
        return ExampleInputs((example_inputs,))
    if isinstance(example_inputs, (tuple, list)):
        return ExampleInputs(tuple(example_inputs))
    if isinstance(example_inputs, dict):
        return ExampleInputs((), example_inputs)
    raise TypeError("dwc_torch.convert: example_inputs is a tensor, a tuple or list of the "
                    "model's positional arguments or a dict of its keyword arguments, got %s"
                    % type(example_inputs).__name__)


def _run_model(model, example_inputs):
    return model(*example_inputs, **getattr(example_inputs, "kwargs", {}))


def _input_tensors(example_inputs):
    return example_call(example_inputs).tensors()


def first_sight_choice(module, x, shape_class, margin=0.03, timer=None):
    """The choice of a tuned layer's plan for a shape class it meets first
    (its decider, modules.set_choices): dwc (0) where the layer's call on
    this input -- forward, and backward where autograd records the class
    (shape_class[6]: 1 dX, 2 the parameters') -- is faster on dwc's ops
    than stock by `margin`, else stock (modules.STOCK). GPU time
    (_gpu_time_ms, a short run); the parameters' .grad are not touched."""
    timer = timer or (lambda fn: _gpu_time_ms(fn, reps=5, warm=1, inner=4))
    grads = shape_class[6]
    ours = timer(_first_sight_step(module, module._op_forward, x, grads))
    theirs = timer(_first_sight_step(module, module._stock_forward, x, grads))
    return 0 if ours < theirs * (1.0 - margin) else M.STOCK


def _first_sight_step(module, forward, x, grads):
    """One call of forward(x) as the class runs it: without autograd, or
    with the gradients it records (torch.autograd.grad: nothing is
    accumulated into the parameters' .grad)."""
    xi = x.detach().requires_grad_(bool(grads & 1))
    wrt = ([xi] if grads & 1 else []) + (
        [p for p in module.parameters() if p.requires_grad] if grads & 2 else [])
    if not wrt:
        def run():
            with torch.no_grad():
                forward(x)
        return run

    def run():
        with torch.enable_grad():
            y = forward(xi)
            torch.autograd.grad(y, wrt, torch.ones_like(y), allow_unused=True)
    return run


def _device(example_inputs):
    return next((t.device.type for t in _input_tensors(example_inputs)), "cuda")


def _capture_inputs(model, names, example_inputs, amp_dtype):
    """One forward of the model; returns {name: input tensor}."""
    got, hooks = {}, []
    mods = dict(model.named_modules())
    for n in names:
        hooks.append(mods[n].register_forward_pre_hook(
            lambda m, a, n=n: got.setdefault(n, a[0].detach())))
    try:
        with torch.no_grad(), torch.autocast(_device(example_inputs),
                                             dtype=amp_dtype or torch.float16,
                                             enabled=amp_dtype is not None):
            _run_model(model, example_inputs)
    finally:
        for h in hooks:
            h.remove()
    return got


def _layer_result(module, x, train):
    """The layer's output on x and, for training, the gradients of
    sum(y * r) (r fixed random) w.r.t. x and the parameters."""
    xi = x.detach().requires_grad_(train)
    with torch.set_grad_enabled(train):
        y = module(xi)
    if not train:
        return [y.detach()]
    gen = torch.Generator(device=y.device).manual_seed(0)
    r = torch.randn(y.shape, generator=gen, device=y.device, dtype=y.dtype)
    params = [p for p in module.parameters() if p.requires_grad]
    grads = torch.autograd.grad((y * r).sum(), [xi] + params, allow_unused=True)
    return [y.detach()] + [g for g in grads if g is not None]


def _reference_input(module, x):
    """The input of the PyTorch side of the agreement check: contiguous for
    padded average pooling on the GPU, whose channels_last backward kernel
    ignores the padding (wrong gradients: pytorch/pytorch#188344, torch
    2.11; the NCHW kernel is right)."""
    if type(module) is nn.AvgPool2d and any(M._pair(module.padding)) and x.is_cuda:
        return x.contiguous()
    return x


def _exact_result(module, x, train):
    """PyTorch's result with cuDNN's TF32 off: by default (allow_tf32 =
    True) an f32 convolution runs in TF32, ~1e-3 from the exact result, which
    would hide a wrong kernel behind the check's tolerance or reject a right
    one. The timed PyTorch side keeps the user's setting."""
    tf32 = torch.backends.cudnn.allow_tf32
    torch.backends.cudnn.allow_tf32 = False
    try:
        return _layer_result(module, x, train)
    finally:
        torch.backends.cudnn.allow_tf32 = tf32


def _disagreement(a, b):
    """Worst relative error (of the maximum) over matching tensors."""
    worst = 0.0
    for u, v in zip(a, b):
        u, v = u.double(), v.double()
        worst = max(worst, ((u - v).abs().max() / v.abs().max().clamp_min(1e-30)).item())
    return worst


def _rotation(t, budget=96 << 20, most=4):
    """Copies of t that back-to-back timed calls cycle through, so that they
    read their inputs from memory rather than from the last call's L2 (50 MB
    on an H200), as a layer inside a running model does."""
    n = max(1, min(most, -(-budget // max(t.numel() * t.element_size(), 1))))
    return [t] + [t.clone() for _ in range(n - 1)]


def _cycling(fn, *rotations):
    step = [0]

    def run():
        k = step[0]
        step[0] += 1
        return fn(*(r[k % len(r)] for r in rotations))
    return run


def _dw_op_times(mod, x, train, amp_dtype):
    """{op: (dwc ms, PyTorch ms)} of a converted depthwise layer on input x,
    each op alone on the GPU (_gpu_time_ms), on the tensors it gets inside
    the model: x and the weight in the compute dtype (autocast's, whose
    casts cost both sides the same and are left out), a channels_last
    output gradient. 'fwd', and for training 'bwd_data', 'bwd_filter' (as
    the autograd node calls them) and 'bwd_both' (PyTorch's one call for
    dX and dW: dwc's entry is None). The bias gradient, the same reduction
    on both sides, is left out."""
    low = amp_dtype is not None and x.dtype != torch.float64
    dt = amp_dtype if low else x.dtype
    d = torch.ops.dwc
    with torch.no_grad():
        xc = x.detach().to(dt)
        w = mod.weight.detach().to(dt)
        b = mod.bias.detach().to(dt) if mod.bias is not None else None
        hwc = _ops.filter_hwc(w)
        st, pad, dil = list(mod.stride), list(mod.padding4), list(mod.dilation)
        gy = torch.randn_like(nn.Conv2d._conv_forward(mod, xc, w, b))
        xs, gys = _rotation(xc), _rotation(gy)

        def timed(fn, *rot):
            return _gpu_time_ms(_cycling(fn, *rot))

        def torch_bwd(data, filt):
            return timed(lambda g, xi: _ops.torch_dw_backward(g, xi, w, st, pad, dil, data, filt),
                         gys, xs)
        times = {"fwd": (timed(lambda xi: d.depthwise_conv2d(xi, w, b, st, pad, dil, hwc), xs),
                         timed(lambda xi: nn.Conv2d._conv_forward(mod, xi, w, b), xs))}
        if train:
            size, k = list(xc.shape), list(w.shape[2:])
            times["bwd_data"] = (
                timed(lambda g: d.depthwise_conv2d_backward_data(g, w, size, st, pad, dil, hwc),
                      gys), torch_bwd(True, False))
            times["bwd_filter"] = (
                timed(lambda xi, g: d.depthwise_conv2d_backward_filter(xi, g, k, st, pad, dil)
                      .to(dt), xs, gys), torch_bwd(False, True))
            times["bwd_both"] = (None, torch_bwd(True, True))
    return times


def choose_route(times, train):
    """(ops left to PyTorch, the layer's ms with that choice, PyTorch's ms)
    from _dw_op_times: each op on the faster side; for the backward also
    PyTorch's single dX + dW call. Inference: the forward alone, never
    routed (a layer whose dwc forward is slower stays a PyTorch module)."""
    fwd_dwc, fwd_torch = times["fwd"]
    if not train:
        return (), fwd_dwc, fwd_torch
    (bd_dwc, bd_torch), (bf_dwc, bf_torch) = times["bwd_data"], times["bwd_filter"]
    both = times["bwd_both"][1]
    options = [((), bd_dwc + bf_dwc), (("bwd_filter",), bd_dwc + bf_torch),
               (("bwd_data",), bd_torch + bf_dwc), (("bwd_data", "bwd_filter"), both)]
    bwd_route, bwd = min(options, key=lambda o: o[1])
    route = (("fwd",) if fwd_torch < fwd_dwc else ()) + bwd_route
    return route, min(fwd_dwc, fwd_torch) + bwd, fwd_torch + both


def _run_under(x, amp_dtype, fn):
    with torch.autocast(x.device.type, dtype=amp_dtype or torch.float16,
                        enabled=amp_dtype is not None):
        return fn()


def _measure(mod, cls, x, train, amp_dtype):
    """(route, ours ms, PyTorch ms, disagreement, per-op times or None) of
    one converted layer on its input x; leaves it reverted. Depthwise
    layers are timed per op (choose_route), the others as one layer step;
    the agreement check runs the layer as it will run (its route set)."""
    def run(fn):
        return _run_under(x, amp_dtype, fn)
    op_times, route = None, ()
    if cls is M.DepthwiseConv2d:
        op_times = run(lambda: _dw_op_times(mod, x, train, amp_dtype))
        route, ours, theirs = choose_route(op_times, train)
        if len(route) < len(M.ROUTE_OPS):
            M.set_route(mod, route)
    else:
        ours = run(lambda: _gpu_time_ms(_layer_step(mod, x, train)))
    got = run(lambda: _layer_result(mod, x, train))
    M.revert(mod)
    if op_times is None:
        theirs = run(lambda: _gpu_time_ms(_layer_step(mod, x, train)))
    want = run(lambda: _exact_result(mod, _reference_input(mod, x), train))
    return route, ours, theirs, _disagreement(got, want), op_times


def _layer_key(cls, spec, x, train, amp_dtype):
    return tuning.key("layer", {"cls": cls.__name__, "spec": spec.key,
                                "stride": list(x.stride()), "dtype": str(x.dtype),
                                "train": bool(train), "amp": str(amp_dtype)})


def _measured(mod, cls, spec, x, train, amp_dtype, report):
    """_measure's answer for the layer, from the tuning cache where a
    convert on this machine and software measured the same layer before
    (tuning.py); measured and stored otherwise. Leaves the layer reverted."""
    k = _layer_key(cls, spec, x, train, amp_dtype) if spec is not None else None
    hit = tuning.load(k) if k else None
    if hit is not None:
        try:
            ops = hit["op_times"]
            got = (tuple(hit["route"]), hit["ours"], hit["theirs"], hit["err"],
                   None if ops is None else {o: tuple(v) for o, v in ops.items()})
            report.phase_s["tune_cache_hits"] = report.phase_s.get("tune_cache_hits", 0) + 1
            M.revert(mod)
            return got
        except (KeyError, TypeError, ValueError):
            pass  # an entry of another shape: measure again
    got = _measure(mod, cls, x, train, amp_dtype)
    if k:
        route, ours, theirs, err, ops = got
        tuning.store(k, {"route": list(route), "ours": ours, "theirs": theirs, "err": err,
                         "op_times": None if ops is None else {o: list(v)
                                                                for o, v in ops.items()}})
    return got


def _adopt(mod, cls, route=()):
    M.adopt(mod, cls)
    if route:
        M.set_route(mod, route)
    return mod


def _tune(model, chosen, example_inputs, train, amp_dtype, margin, report):
    """Keeps a converted layer only where it agrees with PyTorch's result on
    its input (a safety net against a wrong kernel) and beats its GPU time;
    a depthwise layer keeps dwc for the ops where dwc is faster and calls
    PyTorch's kernels for the others (report.routes). Returns {name: (its
    input as a meta tensor, the convolutions' compute dtype)} of the layers
    kept."""
    t0 = time.perf_counter()
    kept = {}
    inputs = _capture_inputs(model, list(chosen), example_inputs, amp_dtype)
    report.phase_s["capture"] = round(time.perf_counter() - t0, 3)
    measured = report.phase_s.setdefault("measure", {})
    timed = {}
    bar = progress.Progress(len(chosen), "dwc_torch.convert: tuning")
    for name, mod in list(chosen.items()):
        bar.step(name)
        x = inputs.get(name)
        if x is None:
            continue  # not reached by this input: keep the static choice
        cls = type(mod)
        try:
            spec = spec_of(mod, x)
        except ValueError:
            spec = None
        # Layers of one shape (a stage's blocks) are checked and timed once,
        # on the first one's real input.
        tkey = (cls, spec.key if spec is not None else name, x.stride(), x.dtype)
        if tkey not in timed:
            t0 = time.perf_counter()
            timed[tkey] = _measured(mod, cls, spec, x, train, amp_dtype, report)
            measured[name] = round(time.perf_counter() - t0, 3)
        M.revert(mod)
        route, ours, theirs, err, op_times = timed[tkey]
        report.timings[name] = (ours, theirs)
        if op_times is not None:
            report.op_times[name] = op_times
        low = x.dtype in (torch.float16, torch.bfloat16) or amp_dtype is not None
        if err > (2e-2 if low else 1e-3):
            del chosen[name]
            report.skip(name, "disagrees with PyTorch on this input (a dwc kernel bug: "
                              "please report it)",
                        "%s: relative error %.2e (output%s)" % (
                            name, err, " and gradients" if train else ""))
            continue
        if ours < theirs * (1.0 - margin) and len(route) < len(M.ROUTE_OPS):
            _adopt(mod, cls, route)
            if route:
                report.routes[name] = route
            low = amp_dtype is not None and x.dtype != torch.float64
            kept[name] = (torch.empty_strided(x.shape, x.stride(), dtype=x.dtype,
                                              device="meta"), amp_dtype if low else x.dtype)
        else:
            del chosen[name]
            report.skip(name, "slower than PyTorch on this GPU and input",
                        "%s: dwc %.1f us vs PyTorch %.1f us (GPU time)" % (
                            name, ours * 1e3, theirs * 1e3))
    bar.close()
    if train:
        model.zero_grad(set_to_none=True)
    return kept


def _model_step(model, example_inputs, train, amp_dtype, cast_cache=True):
    """One step of the model as the user runs it (forward; for training
    also backward and a no-op weight update). cast_cache=False for a step
    captured in a CUDA graph: autocast's cache of cast weights would keep
    tensors of the capture's memory pool across replays."""
    dev = _device(example_inputs)
    params = [p for p in model.parameters() if p.requires_grad]

    def run():
        with torch.autocast(dev, dtype=amp_dtype or torch.float16, enabled=amp_dtype is not None,
                            cache_enabled=cast_cache):
            if not train:
                with torch.no_grad():
                    return _run_model(model, example_inputs)
            y = _run_model(model, example_inputs)
        (y.float().sum() if torch.is_tensor(y) else sum(t.float().sum() for t in y)).backward()
        # An optimizer updates the weights in place every step, so the next
        # forward re-lays out every converted filter: count that here too
        # (one fused no-op update; it bumps the version counters).
        with torch.no_grad():
            torch._foreach_mul_(params, 1.0)
    return run


def time_steps(steps, rounds=8, burst=4, warm=1, gc_off=True, before=None, settled=None):
    """{label: [ms per step of each round]} of the callables in `steps`
    (a dict): in each round every side runs `warm` untimed steps, then
    `burst` steps queued back to back between two CUDA events (the host's
    launch ramp at the start of a sample, with the GPU idle, is spread over
    `burst` steps instead of being added to each one), rounds in ABBA order
    (drifts hit both sides alike); Python's garbage collector is off while
    timing (a collection of a training step's objects stalls the host for
    milliseconds, at random). `before(label)` runs ahead of each side's
    sample (convert: adopt / revert the layers). `settled(out)`, if
    given, is asked after every second round (an ABBA pair): True ends the
    timing early. The clock off the GPU."""
    cuda = torch.cuda.is_available() and torch.cuda.is_initialized()
    labels = list(steps)
    out = {k: [] for k in labels}
    was_on = gc.isenabled()
    if gc_off:
        gc.collect()
        gc.disable()
    try:
        for r in range(rounds):
            for k in (labels if r % 2 == 0 else labels[::-1]):
                if before is not None:
                    before(k)
                for _ in range(warm):
                    steps[k]()
                if cuda:
                    torch.cuda.synchronize()
                    a = torch.cuda.Event(enable_timing=True)
                    b = torch.cuda.Event(enable_timing=True)
                    a.record()
                    for _ in range(burst):
                        steps[k]()
                    b.record()
                    b.synchronize()
                    out[k].append(a.elapsed_time(b) / burst)
                else:
                    t0 = time.perf_counter()
                    for _ in range(burst):
                        steps[k]()
                    out[k].append((time.perf_counter() - t0) * 1e3 / burst)
            if settled is not None and r % 2 == 1 and settled(out):
                break
    finally:
        if gc_off and was_on:
            gc.enable()
    return out


# The whole-model check stops after an ABBA pair of rounds whose every
# sample of one side is this factor faster than every sample of the other:
# eager rounds of one side spread by 10-40 % on a busy host, so a wider gap
# is the verdict of all 8 rounds already (RepLKNet-31B training: 46-54 vs
# 271-273 ms; its 8 rounds took 26 s of convert's 124).
CLEARLY_APART = 1.5


def clearly_apart(t):
    """time_steps' `settled` for the whole-model check (CLEARLY_APART)."""
    a, b = t.get("dwc"), t.get("torch")
    return bool(a and b) and (max(a) * CLEARLY_APART < min(b) or max(b) * CLEARLY_APART < min(a))


def _time_both(model, layers, classes, step, routes, rounds=8):
    """(ms, ms, detail) of `step` with `layers` converted and with them
    reverted (time_steps: bursts of steps, ABBA rounds, GC off). The
    quietest round of each side, not the median: on a shared host,
    interference only adds time, and it moved whole rounds of one side by
    10-25 % (bench/results/2026-12-01-torch-e2e-v5.md); detail: each side's
    round samples and the median of the paired (same round) ratios."""
    def switch(label):
        for n, m in layers.items():
            if label == "dwc":
                _adopt(m, classes[n], routes.get(n, ()))
            else:
                M.revert(m)

    t = time_steps({"dwc": step, "torch": step}, rounds=rounds, burst=4, before=switch,
                   settled=clearly_apart)
    for m in layers.values():
        M.revert(m)
    paired = statistics.median(b / a for a, b in zip(t["dwc"], t["torch"]))
    detail = {"dwc_ms": [round(v, 3) for v in t["dwc"]],
              "torch_ms": [round(v, 3) for v in t["torch"]], "paired_speedup": round(paired, 4)}
    return min(t["dwc"]), min(t["torch"]), detail


def _captured(step, train, model):
    """The replay of `step` captured in a CUDA graph, after three warm-up
    steps on a side stream (as torch.cuda.graphs wants); gradients are set
    to None first so the graph owns the ones its backward writes."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            step()
    torch.cuda.current_stream().wait_stream(side)
    if train:
        model.zero_grad(set_to_none=True)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        step()
    return g


def _time_both_graphs(model, layers, classes, step, train, routes, frozen=False, rounds=8):
    """_time_both for a model that runs captured in CUDA graphs: each side's
    step captured once (converted, then reverted) and their replays timed
    in ABBA rounds -- GPU time, no launch path. frozen: the converted side
    with its filters frozen (modules.freeze). The converted side's filter
    caches and launch plans are held until its replays end (revert drops
    them from the modules; the graph may still read them)."""
    graphs, held = {}, []
    stream = torch.cuda.current_stream()
    try:
        for label in ("dwc", "torch"):
            for n, m in layers.items():
                if label == "dwc":
                    _adopt(m, classes[n], routes.get(n, ()))
                    if frozen:
                        M.freeze(m)
                else:
                    held.append(dict(m.__dict__))
                    M.revert(m)
            graphs[label] = _captured(step, train, model)
        t = time_steps({k: g.replay for k, g in graphs.items()}, rounds=rounds, burst=10,
                       settled=clearly_apart)
    finally:
        # (A capture that failed may leave torch's capture stream current.)
        torch.cuda.set_stream(stream)
        for m in layers.values():
            M.revert(m)
        model.zero_grad(set_to_none=True)
        graphs.clear()
        torch.cuda.synchronize()
    paired = statistics.median(b / a for a, b in zip(t["dwc"], t["torch"]))
    detail = {"dwc_ms": [round(v, 4) for v in t["dwc"]], "graphs": True,
              "torch_ms": [round(v, 4) for v in t["torch"]], "paired_speedup": round(paired, 4)}
    return min(t["dwc"]), min(t["torch"]), detail


def _whole_model_timer(model, classes, example_inputs, train, amp_dtype, graphs, report):
    """time(layers) -> (dwc ms, PyTorch ms, detail) of the whole-model
    check: eager steps (_time_both), or with graphs=True CUDA-graph replays
    (_time_both_graphs); `classes`: each layer's dwc class (the timings
    leave the layers reverted). A model whose step cannot be captured is
    checked eagerly, with a note in the report."""
    eager = _model_step(model, example_inputs, train, amp_dtype)
    captured = _model_step(model, example_inputs, train, amp_dtype, cast_cache=False)
    mode = ["graphs" if graphs else "eager"]

    def time(layers):
        if mode[0] == "graphs":
            try:
                return _time_both_graphs(model, layers, classes, captured, train,
                                         report.routes, frozen=graphs == "frozen")
            except RuntimeError as e:
                mode[0] = "eager"
                report.notes.append("whole-model check run eagerly: the step could not be "
                                    "captured in a CUDA graph (%s)"
                                    % (str(e).splitlines() or [repr(e)])[0])
        return _time_both(model, layers, classes, eager, report.routes)
    time.mode = mode
    return time


def _verify(model, chosen, example_inputs, train, amp_dtype, margin, report, graphs=False):
    """The whole model, converted vs not: if it is not faster with every
    tuned layer, once more with only the clear per-layer winners (dwc at
    most 0.8x PyTorch's time); what is not faster (model_is_faster) is
    undone. graphs: the model will run captured in CUDA graphs, so both
    sides are timed as graph replays (GPU time)."""
    if not chosen:
        return
    classes = {n: type(m) for n, m in chosen.items()}
    mkey = _model_key(model, chosen, example_inputs, train, amp_dtype, margin, report, graphs)
    hit = tuning.load(mkey)
    if hit is not None and set(hit.get("keep", ())) <= set(chosen):
        report.phase_s["verify_cached"] = True
        report.model_ms = tuple(hit["model_ms"]) if hit.get("model_ms") else None
        report.model_check = hit.get("model_check")
        _apply_verdict(chosen, classes, set(hit["keep"]), report)
        return
    time_both = _whole_model_timer(model, classes, example_inputs, train, amp_dtype, graphs,
                                   report)
    with progress.task("timing the whole model, dwc vs PyTorch", "dwc_torch.convert"):
        ours, theirs, detail = time_both(chosen)
    report.model_ms = (ours, theirs)
    report.model_check = [detail]
    keep = _verdict(chosen, time_both, report)
    if not graphs or time_both.mode[0] != "eager":  # a fallback's verdict is not the graphs'
        tuning.store(mkey, {"keep": sorted(keep), "model_ms": list(report.model_ms),
                            "model_check": report.model_check})
    _apply_verdict(chosen, classes, keep, report)


def _model_key(model, chosen, example_inputs, train, amp_dtype, margin, report, graphs=False):
    """The tuning-cache key of the whole-model check: the model's class,
    every module's name and type (its structure), the candidate layers with
    their specs' timings and routes, the inputs, the mode (and whether the
    check ran in CUDA graphs)."""
    layers = [[n, type(m).__name__, list(report.routes.get(n, ())),
               [round(v, 6) for v in report.timings.get(n, ())]]
              for n, m in sorted(chosen.items())]
    structure = hashlib.sha256("\n".join(
        "%s %s" % (n, type(m).__name__) for n, m in model.named_modules()).encode()).hexdigest()
    ex = example_call(example_inputs)
    ins = [[list(t.shape), str(t.dtype), list(t.stride())] if torch.is_tensor(t) else repr(t)
           for t in list(ex) + [ex.kwargs[k] for k in sorted(ex.kwargs)]]
    if ex.kwargs:
        ins.append(sorted(ex.kwargs))
    return tuning.key("model", {"model": type(model).__name__, "structure": structure,
                                "layers": layers, "inputs": ins, "train": bool(train),
                                "amp": str(amp_dtype), "margin": margin, "rule": "both",
                                **({"graphs": graphs} if graphs else {})})


def check_passes(detail, ours, theirs):
    """model_is_faster for one whole-model check (eager or in CUDA graphs)
    from its detail (time_steps' samples and their paired ratio)."""
    return model_is_faster(ours, theirs, detail.get("paired_speedup"))


def model_is_faster(ours, theirs, paired):
    """The whole-model check's test: the converted model is faster on both
    statistics -- its quietest round beats stock's, and the median of the
    same-round ratios (stock / converted) is at least 1. Every layer left
    converted beat PyTorch's GPU time on its own; the check is there for the
    model as it runs: a host-bound eager step (H100: MobileNetV2 /
    EfficientNet-B0 AMP training, 24 ms eager for 15 ms of GPU work) can be
    slower converted although its GPU time is 6-10 % lower, and a model
    whose gain is only on the GPU is converted for graphs with
    convert(graphs=True). Where the two statistics disagree the model is
    not faster, so it stays stock: never slower, at the price of a
    within-noise gain on a noisy host."""
    return ours < theirs and (paired is None or paired >= 1.0)


def _verdict(chosen, time_both, report):
    """The names to keep converted after the whole-model check."""
    keep = set(chosen)
    ours, theirs = report.model_ms
    if not check_passes(report.model_check[-1], ours, theirs):
        strong = {n: m for n, m in chosen.items()
                  if n in report.timings and report.timings[n][0] <= 0.8 * report.timings[n][1]}
        keep = set()
        if strong and len(strong) < len(chosen):
            o2, t2, d2 = time_both(strong)
            report.model_check.append(d2)
            if check_passes(d2, o2, t2):
                keep, report.model_ms = set(strong), (o2, t2)
    return keep


def _apply_verdict(chosen, classes, keep, report):
    ours, theirs = report.model_ms or (float("nan"), float("nan"))
    for n, m in chosen.items():
        if n in keep:
            _adopt(m, classes[n], report.routes.get(n, ()))
        else:
            report.routes.pop(n, None)
            M.revert(m)
            report.skip(n, "the whole model is not faster converted on this GPU and input",
                        "model step: dwc %.3f ms vs PyTorch %.3f ms" % (ours, theirs))
    for n in list(chosen):
        if n not in keep:
            del chosen[n]


class ConvertError(RuntimeError):
    """convert() failed; the model is as it was before the call."""


def convert(model, *, depthwise=True, pools=True, dense=False, strided=None,
            example_inputs=None, train=None, amp_dtype=None, tune=None, margin=0.03,
            verify=None, graphs=False, fuse=None, verbose=True, quiet=None):
    """Converts `model` in place and returns it; the report is at
    `model.dwc_report`. example_inputs: for tuning, as the model is called:
    a tensor, a tuple or list (positional arguments) or a dict (keyword
    arguments); train: tune forward+backward (default: model.training);
    amp_dtype: the autocast dtype the model will run under; tune (default:
    with example_inputs on a GPU): keep only layers faster than PyTorch's,
    each for the shape class it was timed on (other shapes a layer meets
    are timed when first met, see modules.set_choices); verify (default: as
    tune): then time the whole model both ways and undo the conversion if
    it is not faster; graphs: the model will run captured in CUDA graphs
    (torch.cuda.graphs, torch.compile's reduce-overhead), so verify times
    both sides as graph replays -- the GPU's time, where the eager check
    also counts the host's launch cost, which dwc's lower per-call overhead
    wins at small batches; graphs='frozen' (inference): as True with the
    converted layers' filters frozen (modules.freeze: no filter re-layout
    in each replay; weights changed in place afterwards need
    dwc_torch.freeze(model) and a new capture), timed and left so.
    fuse (default: for inference, i.e. train False): fold each depthwise
    layer's BatchNorm + activation neighbours into one fused dwc kernel
    (dwc_torch.fusion; eval mode only, model.train() runs them apart),
    kept where the whole model is faster. quiet: no progress display of
    the tuning and of kernels compiled on first use (default: DWC_QUIET).
    The model's buffers (e.g. BatchNorm statistics) and gradients are
    restored after the timing runs. Transactional: on any error the model
    is left exactly as it was and ConvertError says what to do."""
    _check_options(model, graphs, train)
    example_inputs = None if example_inputs is None else example_call(example_inputs)
    saved = _ModelState(model)
    try:
        with progress.quiet_scope(quiet):
            report = _convert_in_place(model, depthwise, pools, dense, strided, example_inputs,
                                       train, amp_dtype, tune, margin, verify, graphs, fuse)
    except BaseException as e:
        from .fusion import remove
        remove(model)
        saved.restore()
        if isinstance(e, Exception):
            raise ConvertError(_failure_message(e)) from e
        raise
    model.dwc_report = report
    if verbose:
        log.warning("%s", report) if report.skipped else log.info("%s", report)
    return model


def _check_options(model, graphs, train):
    if graphs not in (False, True, "frozen"):
        raise ValueError("dwc_torch.convert: graphs is False, True or 'frozen', got %r"
                         % (graphs,))
    if graphs == "frozen" and (model.training if train is None else train):
        raise ValueError("dwc_torch.convert: graphs='frozen' is for inference (model.eval() "
                         "or train=False): a training step changes the weights in place; "
                         "use graphs=True")


class _ModelState:
    """What convert may change in a model -- each module's class and
    attributes, the buffers' values, the parameters' gradients, the
    training flags, the report -- taken before, and put back on failure."""

    def __init__(self, model):
        self.model = model
        self.modules = [(m, type(m), dict(m.__dict__)) for m in model.modules()]
        self.training = [(m, m.training) for m in model.modules()]
        self.buffers = [(b, b.detach().clone()) for b in model.buffers()]
        self.grads = [(p, p.grad) for p in model.parameters()]
        self.report = model.__dict__.get("dwc_report", _ModelState)

    def restore(self):
        for m, cls, attrs in self.modules:
            m.__class__ = cls
            m.__dict__.clear()
            m.__dict__.update(attrs)
        for m, training in self.training:
            m.training = training
        with torch.no_grad():
            for b, value in self.buffers:
                b.copy_(value)
        for p, g in self.grads:
            p.grad = g
        if self.report is _ModelState:
            self.model.__dict__.pop("dwc_report", None)
        else:
            self.model.__dict__["dwc_report"] = self.report


def _failure_message(e):
    """ConvertError's text: the cause, that the model is unchanged, and
    what to do about it."""
    what = "%s: %s" % (type(e).__name__, str(e).strip().splitlines()[0] if str(e).strip()
                       else "")
    if _is_extension_failure(e):
        todo = ("dwc_torch's C++ extension could not be built or loaded: install a C++ "
                "compiler and ninja (pip install ninja) matching this torch, or set "
                "DWC_TORCH_EXT to an extension built for it; DWC_TORCH_EXTENSION=0 runs "
                "the model on PyTorch's operators")
    elif isinstance(e, torch.cuda.OutOfMemoryError):
        todo = "smaller example_inputs, or convert(..., tune=False) (no timing runs)"
    else:
        todo = ("convert(..., tune=False) converts without timing the model; if the error "
                "is dwc_torch's, please report it with this message")
    return "dwc_torch.convert failed, the model is left as it was: %s. What to do: %s" % (
        what, todo)


def _is_extension_failure(e):
    import subprocess
    text = str(e)
    return isinstance(e, (ImportError, OSError, subprocess.CalledProcessError)) or \
        "extension" in text or "Ninja" in text or "ninja" in text


def _strided_default(tune, example_inputs):
    """strided=None: measured (tuning) or left to PyTorch."""
    if tune is not None:
        return tune
    return example_inputs is not None and all(t.is_cuda for t in example_inputs.tensors())


def _take_candidates(model, dense, strided, depthwise, pools, report):
    """{name: module} of the layers convert takes over (adopted in place)."""
    chosen = {}
    for name, m in list(model.named_modules()):
        if type(m).__module__ == M.__name__:  # converted before
            chosen[name] = m
            continue
        cls = _candidate(name, m, dense, strided, report)
        if cls is None:
            continue
        is_pool = cls in (M.MaxPool2d, M.AvgPool2d, M.AdaptiveAvgPool2d)
        if (is_pool and not pools) or (cls is M.DepthwiseConv2d and not depthwise):
            continue
        try:
            M.adopt(m, cls)
        except ValueError as e:
            M.revert(m)
            report.skip(name, str(e))
            continue
        chosen[name] = m
    return chosen


def _convert_in_place(model, depthwise, pools, dense, strided, example_inputs, train,
                      amp_dtype, tune, margin, verify, graphs, fuse=None):
    """convert()'s work; returns the report (raises on failure, the caller
    restores the model)."""
    from .extension import load_extension
    report = ConvertReport()
    if strided is None:
        strided = _strided_default(tune, example_inputs)
    chosen = _take_candidates(model, dense, strided, depthwise, pools, report)
    on_gpu = example_inputs is not None and all(t.is_cuda for t in example_inputs.tensors())
    if example_inputs is not None and not on_gpu and tune is None:
        # Not an error (the model is right), but not what the user asked
        # for either: say it rather than report layers 'on dwc kernels'.
        report.notes.append("not tuned: example_inputs are not on a GPU (tuning times each "
                            "layer there); on the CPU the dwc ops run PyTorch's operators")
    tune = on_gpu if tune is None else tune
    verify = tune if verify is None else verify
    if chosen and on_gpu:
        load_extension()
    if chosen and example_inputs is not None and (tune or verify):
        _tune_and_verify(model, chosen, example_inputs, model.training if train is None
                         else train, amp_dtype, margin, tune, verify, graphs, on_gpu, report)
    train = model.training if train is None else train
    if (not train if fuse is None else fuse) and not train:
        from .fusion import fuse_model
        if on_gpu:
            load_extension()
        fuse_model(model, example_inputs, amp_dtype, report,
                   verify=bool(verify and on_gpu and example_inputs is not None),
                   graphs=bool(graphs) and on_gpu)
    report.converted = [(n, type(m).__name__) for n, m in chosen.items()]
    if graphs == "frozen" and M.freeze(model):
        report.notes.append("filters frozen for CUDA graphs (dwc_torch.freeze): after changing "
                            "weights in place, freeze(model) again and capture again")
    _report_chip_mismatch(report)
    _report_missing(report, chosen)
    return report


def _tune_and_verify(model, chosen, example_inputs, train, amp_dtype, margin, tune, verify,
                     graphs, on_gpu, report):
    """The timed part of convert: per-layer tuning, the whole-model check,
    then each kept layer's choice for the shape class it was timed on (and
    on the GPU a measurement of the other classes when first met)."""
    t0 = time.perf_counter()
    buffers = {k: v.detach().clone() for k, v in model.state_dict().items()
               if k not in dict(model.named_parameters())}
    tuned = {}
    t1 = time.perf_counter()
    if tune:
        tuned = _tune(model, chosen, example_inputs, train, amp_dtype, margin, report)
    t2 = time.perf_counter()
    if verify:
        _verify(model, chosen, example_inputs, train, amp_dtype, margin, report,
                graphs=graphs if on_gpu else False)
    report.phase_s.update(setup=round(t1 - t0, 3), tune=round(t2 - t1, 3),
                          verify=round(time.perf_counter() - t2, 3))
    model.load_state_dict(buffers, strict=False)
    model.zero_grad(set_to_none=True)
    for name, (x, conv_dtype) in tuned.items():
        if name in chosen:
            M.set_choices(chosen[name], tuned_choices(x, conv_dtype, report.routes.get(name, ()),
                                                      train, type(chosen[name])),
                          measure_others=on_gpu, margin=margin)


def tuned_choices(x, conv_dtype, route, train, cls):
    """{shape class: choice} of a layer tuned on input x (modules.shape_class):
    its route where it was timed -- for training the classes autograd
    records (dX and / or the parameters' gradients), and the forward's
    choice for calls without autograd; for inference that forward alone."""
    dt = conv_dtype if cls in (M.DepthwiseConv2d, M.Conv2d) else x.dtype
    bits = M.route_bits(route)
    fwd_only = M.STOCK if bits & M.ROUTE_OPS["fwd"] else 0
    out = {M.shape_class(x, dt, 0): fwd_only if train else bits}
    if train:
        for grads in ((1, 2, 3) if cls in (M.DepthwiseConv2d, M.Conv2d) else (1,)):
            out[M.shape_class(x, dt, grads)] = bits
    return out


def _report_chip_mismatch(report):
    """Kernel directories load_kernels skipped (built for another chip), in
    the report: their layers would otherwise just run PyTorch's, unexplained."""
    from .kernels import skipped_directories
    for d, why in skipped_directories().items():
        report.notes.append("kernels in %s not loaded: %s" % (d, why))


def _report_missing(report, chosen):
    """The kernels PyTorch ran instead of dwc's, under the names of the
    converted layers that need them, with one command compiling them all;
    those no layer here needs (another model's, dense convolutions) as a
    count."""
    from .kernels import aot_command, unresolved
    miss = [(v[1], v[2]) for v in unresolved().values() if v[1] is not None]
    if not miss:
        return
    why, hint = "no dwc kernel for the shape, PyTorch ran it", aot_command(miss)
    names, unnamed = [], 0
    for spec, _ in miss:
        found = [n for n, m in chosen.items() if _computes(m, spec)]
        names += [n for n in found if n not in names]
        unnamed += not found
    for name in names:
        report.skip(name, why, hint)
    if unnamed:
        report.skip("(%d more kernel%s, of no layer here)" % (unnamed, "s" * (unnamed > 1)),
                    why, hint)


def _computes(module, spec):
    """Whether `module` computes `spec` on an input of the spec's shape."""
    spec = getattr(spec, "layer", spec)  # a fused layer: its convolution
    dt = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
          "f64": torch.float64}.get(getattr(spec, "dtype", None))
    if dt is None or getattr(module, "in_channels", spec.C) != spec.C:
        return False
    x = torch.empty((spec.N, spec.C, spec.H, spec.W), dtype=dt, device="meta")
    if isinstance(spec, GapSpec):
        return isinstance(module, nn.AdaptiveAvgPool2d) and spec == GapSpec.make(
            *x.shape, spec.dtype)
    return spec_of(module, x) == spec


def unconvert(model):
    """Back to PyTorch modules (in place)."""
    from .fusion import remove
    remove(model)
    for _, m in model.named_modules():
        if type(m).__module__ == M.__name__:
            M.revert(m)
    return model
