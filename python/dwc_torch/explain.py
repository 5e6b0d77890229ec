"""What dwc_torch.convert would do to a model, layer by layer, and why.

    python -m dwc_torch.explain timm:mobilenetv2_100 --input 1,3,224,224 [--train]
        [--dtype f16] [--dense] [--chip sm_90a] [--json] [--measure [--kernels DIR] [--plot FILE]]
    dwc_torch.explain(model, example_inputs)   # an Explanation; print() it

For each convolution and pooling layer: on dwc or left to PyTorch, the
converter's own reason for the latter (explain runs convert on copies of the
model and reads its report: no rule is repeated here), the kernel family dwc
would run (families.kernel_family: the compiler's choice), and in eval mode
the BatchNorm/activation neighbours it would fuse (fusion.find_patterns).

Without a GPU these are the decisions made before any measurement. On a GPU
convert also times each layer against PyTorch and the whole model both ways
and keeps only what is faster: those decisions are marked `GPU` (on the
CPU) or shown with the times (`--measure`, or example_inputs on a GPU).
"""

import argparse
import copy
import dataclasses
import json
import sys
import types

from . import progress

# What a GPU adds to each static decision (the column `GPU` of the table).
GPU_KEEPS = "kept if faster than PyTorch"
GPU_TRIES = "timed against PyTorch"
GPU_FUSED = "kept if the model is faster fused"


@dataclasses.dataclass
class LayerRow:
    """One layer: name, a short description of the module, `dwc` or
    `PyTorch`, the reason (PyTorch), what a GPU decides, the spec key, the
    kernel family per op, the fused neighbours, times in us (dwc, PyTorch)."""
    name: str
    module: str
    decision: str
    reason: str = ""
    gpu: str = ""
    spec: str = ""
    families: dict = dataclasses.field(default_factory=dict)
    fused: str = ""
    times_us: tuple = None


class Explanation:
    """explain()'s answer: `rows` (LayerRow), `notes`, the convert report
    of a measured run at `report` (None on the CPU); str() is the table."""

    def __init__(self, rows, header, notes, report=None):
        self.rows, self.header, self.notes, self.report = rows, header, notes, report

    def to_dict(self):
        return {"header": self.header, "notes": self.notes,
                "layers": [dataclasses.asdict(r) for r in self.rows]}

    def __str__(self):
        return "\n".join([self.header] + _table(self.rows) + _summary(self.rows) +
                         ["  " + n for n in self.notes])


def _table(rows):
    head = ("layer", "module", "runs on", "kernel family", "GPU", "why / fused with")
    cells = [head] + [(r.name, r.module, r.decision, _families_text(r), _gpu_text(r),
                       "; ".join(t for t in (r.reason, r.fused) if t)) for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(head) - 1)]
    return [("  " + "  ".join(c[i].ljust(widths[i]) for i in range(len(widths))) + "  " +
             c[-1]).rstrip() for c in cells]


def _families_text(row):
    if not row.families:
        return "-"
    names = [str(f) if f.family else "?" for f in row.families.values()]
    return " / ".join(names)


def _gpu_text(row):
    if row.times_us:
        return "%.1f vs %.1f us" % row.times_us
    return row.gpu or "-"


def _summary(rows):
    on = sum(r.decision == "dwc" for r in rows)
    lines = ["  %d layers on dwc, %d on PyTorch" % (on, len(rows) - on)]
    gpu = [r for r in rows if r.gpu]
    if gpu:
        lines.append("  GPU: %d decisions are made by timing on a GPU (convert with "
                     "example_inputs there; here: --measure on a GPU machine)" % len(gpu))
    ops = max((list(r.families) for r in rows), key=len, default=[])
    if len(ops) > 1:
        lines.append("  kernel family: of %s" % " / ".join(ops))
    unknown = {str(f) for r in rows for f in r.families.values() if not f.family}
    lines += ["  kernel family %s" % u for u in sorted(unknown)]
    return lines


# --- the decisions ---------------------------------------------------------

def _converted(model, **options):
    """convert()'s report on a copy of `model` (nothing timed, no output)."""
    from .converter import convert
    m = copy.deepcopy(model)
    return convert(m, verbose=False, quiet=True, **options).dwc_report, m


def _static_rows(model, train, dense, strided):
    """{name: LayerRow} of the layers convert takes or reports, as it decides
    without timing (example inputs off a GPU), and which of those left to
    PyTorch a GPU would time (they are taken when tuning: strided layers)."""
    import torch.nn as nn
    base, _ = _converted(model, dense=dense, strided=strided, tune=False, verify=False,
                         train=train)
    wide, _ = _converted(model, dense=dense, strided=True, tune=False, verify=False,
                         fuse=False, train=train)
    modules = dict(model.named_modules())
    wide_names = {n for n, _ in wide.converted}
    rows = {}
    for name, _ in base.converted:
        rows[name] = LayerRow(name, _describe(modules[name]), "dwc", gpu=GPU_KEEPS)
    for name, reason, _ in base.skipped:
        if name in modules and name not in rows:
            gpu = GPU_TRIES if name in wide_names and strided is None else ""
            rows[name] = LayerRow(name, _describe(modules[name]), "PyTorch", reason, gpu)
    for name, m in modules.items():
        if name not in rows and type(m) is nn.Conv2d:  # dense, not asked for
            rows[name] = LayerRow(name, _describe(m), "PyTorch",
                                  "dense convolution (convert(dense=True) takes it)")
    for name in (n for n in base.fused if n in rows):  # the fused kernel runs, converted or not
        row = rows[name]
        row.reason = row.reason and "unfused (model.train()) on PyTorch: " + row.reason
        row.decision, row.gpu = "dwc", GPU_FUSED
    return dict(sorted(rows.items(), key=lambda kv: list(modules).index(kv[0])))


def _describe(m):
    """'Conv2d dw 32 k3x3 s2', 'Conv2d 16->96 k1x1', 'MaxPool2d k3 s2', ..."""
    t = type(m)
    base = next((b for b in t.__mro__ if b.__module__.startswith("torch.nn")), t).__name__
    if hasattr(m, "groups"):
        x = lambda v: "x".join(map(str, v))
        kind = "dw %d" % m.in_channels if m.groups == m.in_channels == m.out_channels > 1 \
            else "%d->%d%s" % (m.in_channels, m.out_channels,
                                " g%d" % m.groups if m.groups > 1 else "")
        return "%s %s k%s s%s" % (base, kind, x(m.kernel_size), x(m.stride))
    if hasattr(m, "kernel_size"):
        return "%s k%s s%s" % (base, m.kernel_size, m.stride)
    if hasattr(m, "output_size"):
        return "%s(%s)" % (base, m.output_size)
    return base


def _fusions(model, rows):
    """Notes the fused neighbours on the rows of the depthwise layers
    convert fuses (eval mode: with their BatchNorm + activation; the
    patterns of fusion.find_patterns); returns {depthwise name: Pattern}."""
    fused = {r.name for r in rows.values() if r.gpu == GPU_FUSED}
    if not fused:
        return {}
    from .fusion import find_patterns
    found = {p.dw: p for p in find_patterns(copy.deepcopy(model)) if p.dw in fused}
    for dw, p in found.items():
        after = "+".join(n for n in (p.norm, p.act) if n)
        before = "+".join(n for n in (p.in_conv, p.in_norm, p.in_act) if n)
        rows[dw].fused = "fused with %s%s" % (after, " and input side %s" % before
                                               if before else "")
        if p.in_conv in rows:
            rows[p.in_conv].fused = "%s folded into its weight (fusion of %s)" % (
                p.in_norm, dw)
    return found


# --- the kernels ------------------------------------------------------------

def _meta_inputs(example_inputs, dtype):
    import torch
    from torch.utils._pytree import tree_map
    from .converter import example_call
    ex = example_call(example_inputs)
    meta = lambda t: t.detach().to("meta", dtype if t.is_floating_point() else t.dtype) \
        if torch.is_tensor(t) else t
    return tree_map(meta, tuple(ex)), tree_map(meta, ex.kwargs)


def _input_shapes(model, names, example_inputs):
    """{name: input shape} of the modules `names`, from one forward on the
    meta device (nothing computed)."""
    import torch
    from .converter import example_call
    m = copy.deepcopy(model).to("meta")
    args, kwargs = _meta_inputs(example_inputs, torch.float32)
    shapes, hooks, mods = {}, [], dict(m.named_modules())
    def record(name, args):  # returns None: the call's arguments stay as they are
        shapes.setdefault(name, tuple(args[0].shape))
    for n in names:
        hooks.append(mods[n].register_forward_pre_hook(lambda mod, a, n=n: record(n, a)))
    try:
        with torch.no_grad():
            m(*args, **kwargs)
    except Exception as e:  # the model's own forward (a wrong input shape)
        raise ValueError("the model's forward on example inputs of shape %s failed (are they "
                         "what the model takes?): %s: %s" % (
                             _shapes_text(example_call(example_inputs)), type(e).__name__,
                             (str(e).splitlines() or [""])[0])) from None
    finally:
        for h in hooks:
            h.remove()
    return shapes


def _spec(module, shape, dtype):
    """The dwc spec of a layer on an input of `shape` in `dtype` (a name), or None."""
    import torch
    import torch.nn as nn
    from .converter import spec_of
    from .spec import ConvSpec, GapSpec
    tdt = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
           "f64": torch.float64}[dtype]
    if len(shape) != 4:
        return None
    if isinstance(module, nn.AdaptiveAvgPool2d):
        return GapSpec.make(*shape, dtype)
    if isinstance(module, nn.Conv2d) and module.groups == 1:
        m = module
        return ConvSpec.make(*shape, m.out_channels, m.kernel_size, m.stride, m.padding,
                             m.dilation, dtype, m.bias is not None)
    return spec_of(module, torch.empty(shape, dtype=tdt, device="meta"))


def _kernels(model, rows, patterns, example_inputs, dtype, train, chip):
    """Fills each row's spec and kernel families (dwc-opt, one call per
    distinct spec and op, with a progress bar)."""
    from .families import kernel_family
    from .spec import FusedSpec, LayerSpec, spec_ops
    shapes = _input_shapes(model, list(rows), example_inputs)
    modules = dict(model.named_modules())
    work = []
    for name, row in rows.items():
        if row.decision != "dwc" and not row.gpu or name not in shapes:
            continue
        spec = _spec(modules[name], shapes[name], dtype)
        p = patterns.get(name)
        if spec is not None and p is not None:
            m = modules[name]
            spec = FusedSpec.make(LayerSpec.make(*shapes[name], m.kernel_size, m.stride,
                                                 m.padding, m.dilation, dtype, True),
                                  p.act_name, p.in_act_name, p.in_norm is not None)
        if spec is not None:
            row.spec = spec.key
            work += [(row, spec, op) for op in spec_ops(spec, train)]
    with progress.Progress(len(work), "dwc_torch.explain: kernel selection") as bar:
        for row, spec, op in work:
            row.families[op] = kernel_family(spec, op, chip)
            bar.step("%s %s" % (op, spec.key))


# --- measured (a GPU) --------------------------------------------------------

def _measured(model, rows, example_inputs, train, dense, amp_dtype):
    """convert() with its timing on a copy: each row's decision, reason and
    times as the GPU gave them; returns the report."""
    report, _ = _converted(model, dense=dense, example_inputs=example_inputs, train=train,
                           amp_dtype=amp_dtype)
    done = {n for n, _ in report.converted} | set(report.fused)  # fused: dwc's fused kernel
    why = {n: r for n, r, _ in report.skipped}
    for name, row in rows.items():
        row.decision = "dwc" if name in done else "PyTorch"
        row.reason = "" if name in done else why.get(name, row.reason)
        row.gpu = ""
        if name in report.timings:
            row.times_us = tuple(v * 1e3 for v in report.timings[name])
        if name in report.routes:
            row.reason = "%s on PyTorch's kernels (faster there)" % "+".join(report.routes[name])
    for row in rows.values():  # fusions undone by the whole-model check
        if row.fused.startswith("fused with") and row.name not in report.fused:
            row.fused = ""
    return report


# --- the API -------------------------------------------------------------------

def explain(model, example_inputs, *, train=None, dense=False, strided=None, dtype=None,
            amp_dtype=None, chip=None, measure=None):
    """An Explanation of what convert(model, ...) does with these options.
    example_inputs: as convert's (a tensor, a tuple / list, a dict); on a
    GPU (or measure=True) convert's timing runs on a copy of the model and
    the measured decisions are shown. dtype: the convolutions' dtype name
    for the kernel families (default: amp_dtype's, else the inputs')."""
    from .converter import example_call
    from .kernels import current_chip
    ex = example_call(example_inputs)
    train = model.training if train is None else train
    on_gpu = bool(ex.tensors()) and all(t.is_cuda for t in ex.tensors())
    measure = on_gpu if measure is None else measure
    if measure and not on_gpu:
        raise ValueError("dwc_torch.explain: measure=True needs the model and example_inputs "
                         "on a GPU (the timing runs there)")
    dtype = dtype or _dtype_name(amp_dtype or next((t.dtype for t in ex.tensors()), None))
    chip = chip or current_chip()
    rows = _static_rows(model, train, dense, strided)
    patterns = _fusions(model, rows)
    _kernels(model, rows, patterns, ex, dtype, train, chip)
    report = _measured(model, rows, ex, train, dense, amp_dtype) if measure else None
    header = "dwc_torch.explain: %s, input %s, %s, %s, chip %s%s" % (
        type(model).__name__, _shapes_text(ex), "training" if train else "inference", dtype,
        chip, ", measured on this GPU" if measure else ", not measured (no GPU timing)")
    return Explanation(list(rows.values()), header, _notes(report), report)


def _dtype_name(dt):
    import torch
    return {torch.float16: "f16", torch.bfloat16: "bf16", torch.float64: "f64"}.get(dt, "f32")


def _shapes_text(ex):
    return ", ".join("x".join(map(str, t.shape)) for t in ex.tensors()) or "-"


def _notes(report):
    if report is None:
        return []
    notes = list(report.notes)
    if report.model_ms:
        notes.append("whole model: dwc %.3f ms, PyTorch %.3f ms" % report.model_ms)
    return notes


# --- the command -----------------------------------------------------------------

def load_model(text):
    """'pkg.module:factory[:arg]' as for the AOT step, or 'timm:NAME' (a
    registry's model by name: pkg.create_model(NAME))."""
    import importlib
    from .aot import UsageError, load_factory
    parts = text.split(":")
    if len(parts) == 2 and all(parts):
        try:
            mod = importlib.import_module(parts[0])
        except ImportError as e:
            raise UsageError("%s: cannot import %s (%s)" % (text, parts[0], e))
        if not callable(getattr(mod, parts[1], None)) and callable(
                getattr(mod, "create_model", None)):
            try:
                return mod.create_model(parts[1])
            except Exception as e:  # the registry's message (an unknown name)
                raise UsageError("%s: %s.create_model(%r) raised %s: %s" % (
                    text, parts[0], parts[1], type(e).__name__, e))
    try:
        return load_factory(text)
    except UsageError as e:  # the AOT step's text names its option; here MODEL is an argument
        raise UsageError(str(e).replace("--model ", "", 1)) from None


def _parse_args(argv):
    ap = argparse.ArgumentParser(prog="python -m dwc_torch.explain",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("model", help="pkg.module:factory[:arg], or timm:NAME")
    ap.add_argument("--input", required=True, help="input shape, e.g. 1,3,224,224")
    ap.add_argument("--train", action="store_true", help="a training step (default: eval)")
    ap.add_argument("--dtype", default="f32", choices=["f32", "f16", "bf16"],
                    help="the convolutions' dtype (autocast's for f16/bf16)")
    ap.add_argument("--dense", action="store_true", help="dense nn.Conv2d too")
    ap.add_argument("--chip", help="GPU architecture (default: this GPU's, sm_90 without)")
    ap.add_argument("--measure", action="store_true",
                    help="time the layers and the model on this machine's GPU (convert's "
                         "tuning; needs a GPU)")
    ap.add_argument("--kernels", metavar="DIR",
                    help="with --measure: load_kernels(DIR) first (AOT output)")
    ap.add_argument("--json", action="store_true", help="the rows as JSON")
    ap.add_argument("--plot", metavar="FILE",
                    help="with --measure: dwc vs PyTorch per layer and whole model (matplotlib)")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress display")
    return ap, ap.parse_args(argv)


def main(argv=None):
    """The command; a user's mistake is one line on stderr and exit status 2,
    a missing GPU for --measure or matplotlib for --plot exit status 1."""
    ap, args = _parse_args(argv)
    try:
        return _main(args)
    except ValueError as e:  # UsageError, a bad shape, measure without a GPU
        print("%s: error: %s" % (ap.prog, e), file=sys.stderr)
        return 2
    except ImportError as e:  # torch or matplotlib missing
        from . import torch_missing
        text = torch_missing("explain") if getattr(e, "name", None) == "torch" else str(e)
        print("%s: error: %s" % (ap.prog, text), file=sys.stderr)
        return 1


def _main(args):
    from .aot import parse_input
    shape = parse_input(args.input)
    if args.plot and not args.measure:
        raise ValueError("--plot draws the measured comparison: add --measure (on a GPU)")
    if args.plot:
        from .plot import require_matplotlib
        require_matplotlib()
    import torch
    if args.measure and not torch.cuda.is_available():
        print("python -m dwc_torch.explain: error: --measure times the layers on a GPU and "
              "this machine has none (torch.cuda.is_available() is False); without "
              "--measure the decisions made before timing are shown", file=sys.stderr)
        return 1
    if args.kernels:
        from .kernels import load_kernels
        load_kernels(args.kernels)
    model = load_model(args.model).train(args.train)
    device = "cuda" if args.measure else "cpu"
    x = torch.randn(shape, device=device) if args.measure else torch.empty(shape, device="meta")
    with progress.quiet_scope(True if args.quiet else None):
        e = explain(model.to(device) if args.measure else model, x, train=args.train,
                    dense=args.dense, dtype=args.dtype, chip=args.chip, measure=args.measure,
                    amp_dtype=_amp(args.dtype) if args.measure else None)
    print(json.dumps(e.to_dict(), indent=1, default=str) if args.json else e)
    if args.plot:
        from .plot import plot_report
        plot_report(e.report, args.plot, title=args.model)
        print("dwc_torch.explain: plot written to %s" % args.plot)
    return 0


def _amp(dtype):
    import torch
    return {"f16": torch.float16, "bf16": torch.bfloat16}.get(dtype)


class _CallableModule(types.ModuleType):
    """`dwc_torch.explain` names this module (`python -m dwc_torch.explain`)
    and, once the module is imported, the package's attribute is the module:
    calling it calls explain(), so dwc_torch.explain(model, x) always works."""

    def __call__(self, *args, **kwargs):
        return explain(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule

if __name__ == "__main__":
    sys.exit(main())
