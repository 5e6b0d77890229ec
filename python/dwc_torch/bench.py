"""One layer on this machine's GPU: dwc against PyTorch's best.

    python -m dwc_torch.bench dw:64x96x56x56:k3:s1:f16 [--forward-only] [--kernels DIR] [--json]

LAYER is KIND:NxCxHxW[:FIELD...] -- the kind, the input shape (PyTorch's
NCHW order) and colon-separated fields, each at most once:

    kind    dw (depthwise nn.Conv2d), max / avg (nn.MaxPool2d / AvgPool2d),
            gap (nn.AdaptiveAvgPool2d(1))
    kK      filter / window K or KHxKW (dw, max, avg: required)
    sS      stride S or SHxSW (default 1; pools: the window)
    pP      padding P, PHxPW (default: dw K//2 * dilation, pools 0)
    dD      dilation D or DHxDW (dw; default 1)
    f32 f16 bf16 f64   dtype (default f32)
    bias    a bias (dw; default none)
    ceil    ceil_mode (pools);  cip   count_include_pad (avg)

e.g. dw:64x96x56x56:k3:s1:f16, dw:8x64x32x32:k31:f16:bias, max:64x64x112x112:k3:s2:p1,
gap:64x1280x7x7:f16. The layer is validated first (a mistake: exit status 2).

Timed (GPU time, CUDA events around calls queued back to back, warm-up
first, the median of the samples; inputs rotated through copies that
exceed L2, as convert's tuning times layers): the forward and a training
step (forward + the input's and parameters' gradients). dwc runs the
layer's dwc module on a channels_last input; PyTorch's best is the fastest
of its module on channels_last and NCHW inputs, with cudnn.benchmark off and
on. The byte floor of a call is the bytes it must move at least (input and
output once, the parameters; a training step adds the output gradient, the
input gradient, the parameters' gradients and, where the backward needs
it, the input again) over this GPU's copy bandwidth, measured in the same
process; `% floor` is that floor's share of the measured time. The kernel
family per op is the compiler's choice (families.py). Without a GPU the
command exits with status 1 after checking LAYER.
"""

import argparse
import json
import re
import sys

KINDS = ("dw", "max", "avg", "gap")
DTYPES = ("f32", "f16", "bf16", "f64")
FLAGS = {"bias": ("dw",), "ceil": ("max", "avg"), "cip": ("avg",)}
SIZED = {"k": "filter", "s": "stride", "p": "padding", "d": "dilation"}
# Where the layer is timed; the tests set "cpu" to run the whole measurement
# there (the flow, not the numbers), on a machine without a GPU.
DEVICE = "cuda"


class LayerError(ValueError):
    """A LAYER argument that is not a layer: said on one line, exit 2."""


def _ints(text, field, most):
    """'3' or '3x5' -> (3, 3) / (3, 5); positive (padding: non-negative)."""
    if not re.fullmatch(r"\d+(x\d+)*", text) or text.count("x") >= most:
        raise LayerError("%s %r: one number or %s" % (
            SIZED[field], text, "HxW" if most == 2 else "H x W"))
    v = tuple(int(t) for t in text.split("x"))
    if field != "p" and min(v) < 1:
        raise LayerError("%s %r: must be positive" % (SIZED[field], text))
    return v * 2 if len(v) == 1 else v


def _shape(text):
    if not re.fullmatch(r"\d+x\d+x\d+x\d+", text or ""):
        raise LayerError("shape %r: the input as NxCxHxW (e.g. 64x96x56x56)" % text)
    shape = tuple(int(t) for t in text.split("x"))
    if min(shape) < 1:
        raise LayerError("shape %r: every size must be positive" % text)
    return shape


def _fields(kind, parts):
    """{name: value} of the fields after the shape."""
    out = {}
    for f in parts:
        name = f if f in DTYPES or f in FLAGS else f[:1]
        if name in out or (name in DTYPES and "dtype" in out):
            raise LayerError("field %r given twice" % f)
        if f in DTYPES:
            out["dtype"] = f
        elif f in FLAGS:
            if kind not in FLAGS[f]:
                raise LayerError("%r is for %s layers, not %s" % (f, "/".join(FLAGS[f]), kind))
            out[f] = True
        elif name in SIZED and len(f) > 1 and f[1].isdigit():
            if kind == "gap" or (name == "d" and kind != "dw"):
                raise LayerError("%s layers take no %s (%r)" % (kind, SIZED[name], f))
            out[name] = _ints(f[1:], name, 2)
        else:
            raise LayerError("unknown field %r (kK, sS, pP, dD, %s, bias, ceil, cip)"
                             % (f, ", ".join(DTYPES)))
    return out


def parse_layer(text):
    """LAYER -> (kind, the dwc spec, the fields); LayerError on a mistake."""
    parts = text.split(":")
    if parts[0] not in KINDS:
        raise LayerError("kind %r: one of %s (LAYER is KIND:NxCxHxW[:FIELD...])"
                         % (parts[0], ", ".join(KINDS)))
    kind, shape = parts[0], _shape(parts[1] if len(parts) > 1 else "")
    f = _fields(kind, parts[2:])
    if kind != "gap" and "k" not in f:
        raise LayerError("%s needs its %s: a field kK (e.g. k3)" % (
            kind, "filter" if kind == "dw" else "window"))
    try:
        return kind, _spec(kind, shape, f), f
    except ValueError as e:  # the spec's own check (a filter larger than the input)
        raise LayerError(str(e))


def _spec(kind, shape, f):
    from .spec import GapSpec, LayerSpec, PoolSpec
    dtype = f.get("dtype", "f32")
    if kind == "gap":
        return GapSpec.make(*shape, dtype)
    k = f["k"]
    if kind == "dw":
        d = f.get("d", (1, 1))
        p = f.get("p", (k[0] // 2 * d[0], k[1] // 2 * d[1]))
        return LayerSpec.make(*shape, k, f.get("s", 1), p, d, dtype, f.get("bias", False))
    return PoolSpec.make(*shape, kind, k, f.get("s", k), f.get("p", 0), f.get("ceil", False),
                         f.get("cip", False), dtype)


# --- on the GPU ------------------------------------------------------------------

def torch_module(kind, spec, f):
    """The PyTorch module of the layer (parameters random, on the GPU)."""
    import torch
    import torch.nn as nn
    dt = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
          "f64": torch.float64}[spec.dtype]
    if kind == "dw":
        p = f.get("p", (spec.padding[0], spec.padding[2]))
        m = nn.Conv2d(spec.C, spec.C, spec.kernel, spec.stride, p, spec.dilation,
                      groups=spec.C, bias=spec.bias)
    elif kind == "gap":
        m = nn.AdaptiveAvgPool2d(1)
    elif kind == "max":
        m = nn.MaxPool2d(f["k"], f.get("s", f["k"]), f.get("p", 0), ceil_mode=f.get("ceil",
                                                                                    False))
    else:
        m = nn.AvgPool2d(f["k"], f.get("s", f["k"]), f.get("p", 0),
                         ceil_mode=f.get("ceil", False), count_include_pad=f.get("cip", False))
    return m.to(DEVICE, dt), dt


def dwc_module(module):
    """A dwc copy of `module` (convert without timing: it runs dwc)."""
    import copy

    import torch.nn as nn
    from .converter import convert
    seq = convert(nn.Sequential(copy.deepcopy(module)), tune=False, verify=False, strided=True,
                  fuse=False, verbose=False, quiet=True)
    return seq[0]


def _step(module, train):
    """f(x) for one forward, or a training step (the input's and the
    parameters' gradients, as autograd computes them for a model)."""
    import torch
    params = [p for p in module.parameters()]
    if not train:
        def fwd(x):
            with torch.no_grad():
                module(x)
        return fwd

    def step(x, gy):
        xi = x.requires_grad_(True)
        y = module(xi)
        torch.autograd.grad(y, [xi] + params, gy)
    return step


def _timed(fn, *rotations):
    from .converter import _cycling, _gpu_time_ms
    return _gpu_time_ms(_cycling(fn, *rotations), reps=15)


def _inputs(spec, dt, channels_last, module):
    import torch
    from .converter import _rotation
    x = torch.randn(spec.N, spec.C, spec.H, spec.W, device=DEVICE, dtype=dt)
    x = x.contiguous(memory_format=torch.channels_last) if channels_last else x
    with torch.no_grad():
        y = module(x)
    gy = torch.randn_like(y)
    return _rotation(x), _rotation(gy), y


def time_side(module, spec, dt, channels_last, train):
    """ms of the layer's forward (train False) or training step on `module`."""
    xs, gys, _ = _inputs(spec, dt, channels_last, module)
    fn = _step(module, train)
    return _timed(fn, xs, gys) if train else _timed(fn, xs)


def pytorch_best(module, spec, dt, train):
    """(ms, setting) of PyTorch's fastest: channels_last / NCHW input,
    cudnn.benchmark off / on."""
    import torch
    was = torch.backends.cudnn.benchmark
    best = None
    try:
        for cl in (True, False):
            for bm in (False, True):
                torch.backends.cudnn.benchmark = bm
                ms = time_side(module, spec, dt, cl, train)
                setting = "%s, cudnn.benchmark %s" % ("channels_last" if cl else "NCHW",
                                                      "on" if bm else "off")
                best = min(best or (ms, setting), (ms, setting))
    finally:
        torch.backends.cudnn.benchmark = was
    return best


def copy_bandwidth(nbytes=512 << 20):
    """Bytes per ms of a device-to-device copy (read + write) of `nbytes`."""
    import torch
    a = torch.empty(nbytes, dtype=torch.uint8, device=DEVICE)
    b = torch.empty_like(a)
    from .converter import _gpu_time_ms
    ms = _gpu_time_ms(lambda: b.copy_(a), reps=9, inner=2)
    return 2 * nbytes / ms


def floor_bytes(kind, module, x_shape, y, dt_size, train):
    """Bytes a call must move at least: the input and the output once and
    the parameters; a training step also the output gradient, the input
    gradient, the parameters' gradients, and the input again where the
    backward reads it (dW of a convolution, the argmax of a max pool)."""
    import math
    x = math.prod(x_shape) * dt_size
    out = y.numel() * dt_size
    params = sum(p.numel() * p.element_size() for p in module.parameters())
    total = x + out + params
    if train:
        total += out + x + params + (x if kind in ("dw", "max") else 0)
    return total


# --- the command -------------------------------------------------------------------

def _parse_args(argv):
    ap = argparse.ArgumentParser(prog="python -m dwc_torch.bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("layer", metavar="LAYER", help="e.g. dw:64x96x56x56:k3:s1:f16")
    ap.add_argument("--forward-only", action="store_true", help="no training step")
    ap.add_argument("--kernels", metavar="DIR", help="load_kernels(DIR) first (AOT output)")
    ap.add_argument("--json", action="store_true", help="the results as JSON")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress display")
    return ap, ap.parse_args(argv)


def main(argv=None):
    """The command: a bad LAYER exits 2, a machine without torch or a GPU 1."""
    ap, args = _parse_args(argv)
    try:
        kind, spec, fields = parse_layer(args.layer)
    except LayerError as e:
        print("%s: error: LAYER %s: %s" % (ap.prog, args.layer, e), file=sys.stderr)
        return 2
    print("dwc_torch.bench: %s = %s" % (args.layer, spec.key), flush=True)
    why = _no_gpu_reason()
    if why:
        print("%s: error: %s" % (ap.prog, why), file=sys.stderr)
        return 1
    from . import progress
    with progress.quiet_scope(True if args.quiet else None):
        result = run(kind, spec, fields, not args.forward_only, args.kernels)
    print(json.dumps(result, indent=1) if args.json else render(result))
    return 0


def _no_gpu_reason():
    """Why this machine cannot time the layer, or None."""
    try:
        import torch
    except ImportError:
        from . import torch_missing
        return torch_missing("bench")
    if not torch.cuda.is_available():
        return ("no CUDA GPU here (torch.cuda.is_available() is False): bench times the layer "
                "on a GPU; `python -m dwc_torch.explain` shows what needs none")
    return None


def run(kind, spec, fields, train=True, kernels_dir=None):
    """The measurements as a dict (render() prints them)."""
    import torch
    from . import kernels, progress
    from .families import kernel_family
    from .spec import spec_ops
    if kernels_dir:
        kernels.load_kernels(kernels_dir)
    ref, dt = torch_module(kind, spec, fields)
    ours = dwc_module(ref)
    modes = ["forward"] + (["training step"] * train)
    bar = progress.Progress(1 + 5 * len(modes), "dwc_torch.bench")
    bw = copy_bandwidth()
    bar.step("copy bandwidth")
    _, _, y = _inputs(spec, dt, True, ref)
    name = torch.cuda.get_device_name() if DEVICE == "cuda" else DEVICE
    out = {"layer": spec.key, "device": name,
           "chip": kernels.current_chip(), "copy_GBps": bw / 1e6, "modes": {}}
    for mode in modes:
        t = mode != "forward"
        dwc_ms = time_side(ours, spec, dt, True, t)
        bar.step("%s dwc" % mode)
        best_ms, setting = pytorch_best(ref, spec, dt, t)
        bar.step("%s PyTorch" % mode, 4)
        floor_ms = floor_bytes(kind, ref, (spec.N, spec.C, spec.H, spec.W), y,
                               y.element_size(), t) / bw
        out["modes"][mode] = {"dwc_us": dwc_ms * 1e3, "pytorch_us": best_ms * 1e3,
                              "pytorch_setting": setting, "floor_us": floor_ms * 1e3}
    bar.close()
    out["families"] = {op: str(kernel_family(spec, op, out["chip"]))
                       for op in spec_ops(spec, train)}
    out["fallbacks"] = [why for why, _, _ in kernels.unresolved().values()]
    return out


def render(r):
    lines = ["device: %s (%s), copy bandwidth %.0f GB/s" % (r["device"], r["chip"],
                                                           r["copy_GBps"]),
             "%-14s %10s %12s %8s %9s %9s  %s" % ("", "dwc us", "PyTorch us", "speedup",
                                                 "dwc %flr", "PT %flr", "PyTorch's best")]
    for mode, m in r["modes"].items():
        lines.append("%-14s %10.1f %12.1f %7.2fx %8.0f%% %8.0f%%  %s" % (
            mode, m["dwc_us"], m["pytorch_us"], m["pytorch_us"] / m["dwc_us"],
            100 * m["floor_us"] / m["dwc_us"], 100 * m["floor_us"] / m["pytorch_us"],
            m["pytorch_setting"]))
    lines += ["kernel family %-10s %s" % (op, fam) for op, fam in r["families"].items()]
    lines += ["NOTE: no dwc kernel, PyTorch ran it: %s" % why for why in r["fallbacks"]]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
