"""Ahead-of-time step (the machine with MLIR): layers -> one .mlir per op ->
dwc-aot (through the content-hash cache, see cache.py) -> DIR/<op>_<key>.o
+ .h and DIR/manifest.json, which the GPU machine loads with
dwc_torch.load_kernels(DIR).

From a model (needs torch; traced on the meta device, nothing computed):

    python -m dwc_torch.aot --model pkg.module:factory --input 64,3,224,224 \\
        --dtype f16 --out DIR [--train] [--no-amp] [--no-strided] [--dense] [--chip sm_90]

compiles what convert() would run: forward kernels for inference, forward,
backward-data and backward-filter (and pooling backward) with --train;
strided depthwise layers too (convert on a GPU times them against PyTorch's
kernels), unless --no-strided. With
--dtype f16/bf16 the model is taken to run under torch.autocast (f32
weights): convolutions in that dtype, pooling in it and in f32 (what
autocast feeds them depends on the layer before); --no-amp for a model
converted to that dtype.

From explicit layers (no torch needed):

    python -m dwc_torch.aot --out DIR --spec 64,64,32,32,7,1,3,1,f32,bias --spec-json '{...}'

A spec is N,C,H,W,kernel[,stride[,padding[,dilation[,dtype[,bias]]]]] (see
spec.parse_spec). dwc-aot: --aot, else $DWC_AOT, else PATH. A failing
compile is recorded in the manifest (`error`) and the others go on; the GPU
side then runs that layer on PyTorch. Progress: a bar on a terminal, a line
per kernel otherwise; --quiet (or DWC_QUIET=1) shows neither.
"""

import argparse
import concurrent.futures
import importlib
import json
import os
import shutil
import sys
import time

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "dwc_torch"

from . import cache, manifest, progress  # noqa: E402
from .spec import OPS, layer_ops, parse_spec, spec_from_dict, spec_ops  # noqa: E402
from .version import __version__  # noqa: E402

MANIFEST_FORMAT = manifest.FORMAT
# What the report of a traced model says about the strided depthwise
# layers it leaves out: only --no-strided does (convert with example_inputs
# on a GPU times them, so their kernels are compiled by default).
STRIDED_HOW = "left out by --no-strided"


def _compile_one(aot, spec, op, flags, chip, root):
    t0 = time.time()
    try:
        entry, fresh = cache.compile_kernel(spec.mlir(op), spec.func_name(op), aot, flags,
                                            chip, root)
        return entry, None, time.time() - t0, not fresh
    except cache.CompileError as e:
        return None, str(e), time.time() - t0, False


def build(work, aot, out, jobs=2, extra_flags=(), chip="sm_90", cache_root=None,
          log=print, clean=False, quiet=None):
    """work: [(spec, [ops])]. Writes DIR/<chip>/<func>.{mlir,o,h} and adds
    them to DIR/manifest.json (manifest.write: earlier runs' kernels, of
    this chip and others, stay listed; clean=True replaces them); returns
    the manifest (a dict) with this run's chip and spec entries at "chip"
    and "specs", as a manifest of the first format had them (callers of
    build that read m["specs"]). Each compile is a progress step
    (progress.Progress: a bar on a terminal, `log` lines otherwise)."""
    aot = os.path.abspath(aot)
    if not os.access(aot, os.X_OK):
        raise FileNotFoundError("dwc-aot not found or not executable: %s" % aot)
    os.makedirs(os.path.join(out, chip), exist_ok=True)
    merged = _ops_per_spec(work)
    t0 = time.time()
    results = _compile_all(merged, aot, out, jobs, extra_flags, chip, cache_root, log, quiet)
    section = {"aot": aot, "aot_flags": list(extra_flags),
               "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               "build_s": round(time.time() - t0, 1),
               "specs": [_spec_entry(s, ops, results, chip) for s, ops in merged.items()]}
    m = manifest.write(out, chip, section, __version__, clean=clean)
    return dict(m, chip=chip, specs=section["specs"], build_s=section["build_s"])


def _ops_per_spec(work):
    merged = {}
    for spec, ops in work:
        merged.setdefault(spec, [])
        merged[spec] += [o for o in ops if o not in merged[spec]]
    return merged


def _compile_all(merged, aot, out, jobs, extra_flags, chip, cache_root, log, quiet=None):
    """{(spec, op): (cache entry or None, error or None, seconds)}; each
    compiled kernel's files copied to out/<chip>/."""
    results = {}
    total = sum(len(ops) for ops in merged.values())
    bar = progress.Progress(total, "dwc_torch.aot: compiling", quiet,
                            log=lambda done, total, text: log(text))
    with bar, concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        futs = {ex.submit(_compile_one, aot, s, op, list(extra_flags), chip, cache_root):
                (s, op) for s, ops in merged.items() for op in ops}
        for f in concurrent.futures.as_completed(futs):
            s, op = futs[f]
            entry, err, dt, hit = f.result()
            results[(s, op)] = (entry, err, dt)
            if entry:
                for ext in (".o", ".h", ".mlir"):
                    shutil.copyfile(os.path.join(entry, "kernel" + ext),
                                    os.path.join(out, chip, s.func_name(op) + ext))
            bar.step("  %-8s %-10s %s%s" % ("FAILED" if err else ("cached" if hit else "ok"),
                                          op, s.key, "" if hit else " (%.1f s)" % dt))
    return results


def _spec_entry(spec, ops, results, chip):
    entry = spec.to_dict()
    entry["ops"] = {}
    for op in ops:
        e, err, dt = results[(spec, op)]
        name = spec.func_name(op)
        entry["ops"][op] = {
            "function": name, "symbol": spec.symbol(op),
            "object": chip + "/" + name + ".o", "header": chip + "/" + name + ".h",
            "source": chip + "/" + name + ".mlir",
            "cache_key": os.path.basename(e) if e else None,
            "compile_s": round(dt, 2), "error": err}
    return entry


# --- from a model ---------------------------------------------------------

class UsageError(ValueError):
    """A mistake in the command line or what it names (a module, a file):
    main() prints it on one line and exits 2, without a traceback."""


def load_factory(text):
    """'pkg.module:factory[:arg]' -> the model (factory() or factory(arg))."""
    parts = text.split(":")
    if len(parts) < 2 or not all(parts[:2]):
        raise UsageError("--model is pkg.module:factory[:arg], got %r" % text)
    try:
        mod = importlib.import_module(parts[0])
    except ImportError as e:
        raise UsageError("--model %s: cannot import %s (%s)" % (text, parts[0], e))
    fn = getattr(mod, parts[1], None)
    if not callable(fn):
        raise UsageError("--model %s: module %s has no factory %r%s" % (
            text, parts[0], parts[1], _factory_hint(mod, parts[1])))
    try:
        return fn(*parts[2:])
    except Exception as e:  # the user's factory: its message, not our traceback
        raise UsageError("--model %s: %s(%s) raised %s: %s" % (
            text, parts[1], ", ".join(map(repr, parts[2:])), type(e).__name__, e))


def _factory_hint(mod, name):
    """How to name a model of a registry module such as timm's, whose
    factories live in a submodule (timm.models.convnext_tiny)."""
    if callable(getattr(mod, "create_model", None)):
        return " (for a registry's model: --model %s:create_model:%s)" % (mod.__name__, name)
    return ""


def parse_input(text):
    """'64,3,224,224' -> [64, 3, 224, 224] (positive ints)."""
    try:
        shape = [int(v) for v in text.split(",")]
    except ValueError:
        shape = []
    if not shape or min(shape) < 1:
        raise UsageError("--input is the model's input shape as positive ints, "
                         "e.g. 64,3,224,224; got %r" % text)
    return shape


def trace_model(model, input_shape, dtype="f32", amp=True, train=False, dense=False,
                strided=True):
    """[(spec, ops)] of the layers convert() would take over, traced on the
    meta device, and the convert report of what it would leave out."""
    import torch

    from .converter import ConvertReport, _candidate, spec_of
    from .spec import ConvSpec, GapSpec
    tdt = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
           "f64": torch.float64}[dtype]
    amp = amp and dtype in ("f16", "bf16")
    model = model.to("meta").train(train)
    if not amp:
        model = model.to(tdt)
    report = ConvertReport()
    found, hooks = [], []
    dw_shapes = {}  # depthwise layer -> its input shape (the fused kernels')

    def record(name, m, x):
        dw_shapes[name] = tuple(x.shape)
        if m.__class__.__name__ == "AdaptiveAvgPool2d":
            N, C, H, W = x.shape
            dts = [dtype, "f32"] if amp else [dtype]
            found.extend((GapSpec.make(N, C, H, W, d), ()) for d in dts)
            return
        if isinstance(m, torch.nn.Conv2d) and m.groups == 1:
            N, C, H, W = x.shape
            found.append((ConvSpec.make(N, C, H, W, m.out_channels, m.kernel_size, m.stride,
                                        m.padding, m.dilation, dtype, m.bias is not None), ()))
            return
        dts = [dtype] + (["f32"] if amp and not isinstance(m, torch.nn.Conv2d) else [])
        for d in dts:
            s = spec_of(m, torch.empty(x.shape, dtype=tdt if d == dtype else torch.float32,
                                       device="meta"))
            if s is not None:
                found.append((s, ()))

    for name, m in model.named_modules():
        if _candidate(name, m, dense, strided, report, STRIDED_HOW) is not None:
            hooks.append(m.register_forward_pre_hook(
                lambda mod, a, name=name: record(name, mod, a[0])))
    x = torch.empty(tuple(input_shape), device="meta",
                    dtype=torch.float32 if amp else tdt)
    try:
        with torch.no_grad():
            model(x)
    except Exception as e:  # the model's own forward (wrong --input, data-dependent code)
        raise UsageError("the model's forward on a meta tensor of shape %s failed "
                         "(is --input right?): %s: %s" % (
                             tuple(input_shape), type(e).__name__, str(e).splitlines()[0]))
    finally:
        for h in hooks:
            h.remove()
    if not train:  # inference: convert() fuses BatchNorm/activation neighbours
        from .fusion import fused_specs
        found += [(s, ()) for s in fused_specs(model, dw_shapes, dtype)]
    return [(s, spec_ops(s, train)) for s, _ in dict.fromkeys(found)], report


def _parse_args(argv):
    ap = argparse.ArgumentParser(prog="python -m dwc_torch.aot",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--aot", help="dwc-aot (default: $DWC_AOT, else PATH)")
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--spec", action="append", default=[],
                    help="N,C,H,W,k[,stride[,pad[,dil[,dtype[,bias]]]]] (depthwise)")
    ap.add_argument("--spec-json", action="append", default=[],
                    help="any spec as JSON (spec.to_dict())")
    ap.add_argument("--specs-file", help="JSON list of spec strings or dicts")
    ap.add_argument("--model", help="pkg.module:factory[:arg] returning an nn.Module")
    ap.add_argument("--input", help="input shape of --model, e.g. 64,3,224,224")
    ap.add_argument("--dtype", default="f32", choices=["f32", "f16", "bf16", "f64"])
    ap.add_argument("--train", action="store_true",
                    help="also the backward kernels (training)")
    ap.add_argument("--no-amp", action="store_true",
                    help="--dtype f16/bf16 is the model's own dtype, not autocast's")
    ap.add_argument("--strided", action=argparse.BooleanOptionalAction, default=True,
                    help="strided depthwise layers too (default; convert on a GPU tunes "
                         "them): --no-strided leaves them to PyTorch")
    ap.add_argument("--dense", action="store_true", help="dense nn.Conv2d too (forward)")
    ap.add_argument("--ops", help="ops of --spec layers (default: all three)")
    ap.add_argument("--chip", help="GPU architecture, e.g. sm_90a (default: this machine's "
                    "GPU's, sm_90a on a Hopper; sm_90 without a GPU); run again with another "
                    "--chip into the same --out for several GPUs")
    ap.add_argument("--cache", help="cache directory (default: $DWC_CACHE_DIR or ~/.cache/dwc)")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--clean", action="store_true",
                    help="replace what --out holds (default: add to it, every chip's kernels "
                         "of earlier runs stay in its manifest)")
    ap.add_argument("-q", "--quiet", action="store_true",
                    help="no progress (bar or per-kernel lines; also DWC_QUIET=1)")
    ap.add_argument("--aot-flag", action="append", default=[],
                    help="extra dwc-aot flag (e.g. --aot-flag=--opt-level=2)")
    return ap, ap.parse_args(argv)


def _spec_from_json(text):
    try:
        return spec_from_dict(json.loads(text))
    except (KeyError, TypeError, AttributeError) as e:  # ValueError passes as it is
        raise UsageError("--spec-json %s: not a spec (%s: %s)" % (text, type(e).__name__, e))


def _work_from_args(ap, args):
    ops = tuple(o for o in (args.ops or ",".join(OPS)).split(",") if o)
    if not set(ops) <= set(OPS):
        raise UsageError("--ops: unknown %s (the ops of --spec layers: %s)" % (
            ",".join(sorted(set(ops) - set(OPS))), ",".join(OPS)))
    specs = [parse_spec(t) for t in args.spec]
    specs += [_spec_from_json(t) for t in args.spec_json]
    if args.specs_file:
        with open(args.specs_file) as fh:
            items = json.load(fh)
        for item in items:
            specs.append(parse_spec(item) if isinstance(item, str) else spec_from_dict(item))
    work = [(s, layer_ops(s, ops) if s.family == "dw" else spec_ops(s, True)) for s in specs]
    if args.model:
        if not args.input:
            ap.error("--model needs --input (e.g. 64,3,224,224)")
        try:
            import torch  # noqa: F401
        except ImportError:
            raise UsageError("--model needs PyTorch (pip install 'dwc-torch[torch]'); "
                             "--spec and --spec-json compile without it") from None
        shape = parse_input(args.input)
        model = load_factory(args.model)
        traced, report = trace_model(model, shape, args.dtype, not args.no_amp, args.train,
                                     args.dense, args.strided)
        print("dwc_torch.aot: %s: %d eligible layer shapes (%s)" % (
            args.model, len(traced), "training" if args.train else "inference"))
        if report.skipped:
            print(str(report).replace("dwc_torch.convert: 0 layers on dwc kernels, ",
                                      "dwc_torch.aot: "))
        work += traced
    return work


def main(argv=None):
    """The command; a user's mistake (UsageError, a bad spec, a file that
    cannot be read or written) is one line on stderr and exit status 2."""
    ap, args = _parse_args(argv)
    try:
        return _main(ap, args)
    except (ValueError, OSError) as e:  # UsageError, a bad spec or JSON, files
        print("%s: error: %s" % (ap.prog, e), file=sys.stderr)
        return 2


def _find_aot(ap, args):
    aot = args.aot or os.environ.get("DWC_AOT") or shutil.which("dwc-aot")
    if not aot:
        ap.error("dwc-aot not found: --aot PATH, DWC_AOT or PATH")
    found = shutil.which(aot)  # a path, or a name looked up on PATH
    if not found:
        ap.error("dwc-aot %s (from %s) is not an executable file" % (
            aot, "--aot" if args.aot else "DWC_AOT"))
    return found


def _main(ap, args):
    aot = _find_aot(ap, args)
    if os.path.exists(args.out) and not os.path.isdir(args.out):
        ap.error("--out %s is not a directory" % args.out)
    work = _work_from_args(ap, args)
    if not work:
        ap.error("nothing to compile (--spec, --spec-json, --specs-file or --model)")
    chip = args.chip or _default_chip()
    n = sum(len(ops) for _, ops in work)
    print("dwc_torch.aot: %d specs, %d ops -> %s (%s)" % (
        len({s for s, _ in work}), n, args.out, chip))
    m = build(work, aot, args.out, args.j, args.aot_flag, chip, args.cache, clean=args.clean,
              quiet=True if args.quiet else None)
    mine = {(s.symbol(op)) for s, ops in work for op in ops}
    entries = [o for s in manifest.specs(m, chip) for o in s["ops"].values()
               if o["symbol"] in mine]
    failed = [(o["symbol"], o["error"]) for o in entries if o["error"]]
    size = sum(os.path.getsize(os.path.join(args.out, chip, f))
               for f in os.listdir(os.path.join(args.out, chip)))
    print("dwc_torch.aot: %d compiled, %d failed, %.1f s, %d KiB in %s" % (
        len(entries) - len(failed), len(failed), m["chips"][chip]["build_s"], size // 1024,
        os.path.join(args.out, chip)))
    _print_holdings(m, args.out, len(entries))
    said = set()
    for sym, err in failed:
        # Each distinct reason once: a wrong --chip fails every op alike.
        why = cache.error_summary(err)
        print("dwc_torch.aot: FAILED %s%s" % (sym, "" if why in said else ": " + why))
        said.add(why)
    return 1 if failed else 0


def _default_chip():
    from .kernels import current_chip
    return current_chip()


def _print_holdings(m, out, this_run):
    """What the directory holds now, where earlier runs put more there."""
    held = {c: sum(len(s["ops"]) for s in m["chips"][c]["specs"]) for c in manifest.chips(m)}
    if sum(held.values()) > this_run:
        print("dwc_torch.aot: %s holds %s" % (out, ", ".join(
            "%d %s kernels" % (n, c) for c, n in sorted(held.items()))))


if __name__ == "__main__":
    sys.exit(main())
