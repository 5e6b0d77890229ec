"""Where the kernels of a call come from: kernel directories written by the
AOT step (`load_kernels`), or dwc-aot on first use (compile into the cache).

The C++ extension asks `resolve(key)` once per unseen registry key (see
spec.OP_IDS) and gets back the entry point's address, or None: PyTorch's
own operator then runs that call (and every later one of the key).

Compile on first use is on when dwc-aot is found: $DWC_AOT, else `dwc-aot`
on PATH ($DWC_COMPILE=0 turns it off). Chip: $DWC_CHIP, else the current
device's (device_chip: sm_90a on an H100/H200, whose warpgroup-MMA paths
need it; sm_XY elsewhere), sm_90 without a GPU. Extra dwc-aot flags:
$DWC_AOT_FLAGS (shell words).
"""

import ctypes
import json
import logging
import os
import shlex
import shutil
import threading

from . import cache, manifest, progress
from .spec import spec_from_key

log = logging.getLogger("dwc_torch")
_lock = threading.RLock()
_symbols = {}        # symbol -> address the extension calls (trusted entry where there is one)
_checked = {}        # symbol -> address of the checked entry point dwc_<name>
_libs = []           # keep the ctypes handles alive
_unresolved = {}     # symbol -> why PyTorch runs it
_kernel_dirs = []
_skipped_dirs = {}   # directory -> why load_kernels did not load it
_chip_override = None
NO_GPU_CHIP = "sm_90"
# Chips whose fast paths need the architecture-specific variant (dwc-aot:
# wgmma is sm_90a's); the others compile for sm_XY.
ARCH_SPECIFIC = {(9, 0): "sm_90a"}


def find_aot():
    if os.environ.get("DWC_COMPILE", "1") == "0":
        return None
    env = os.environ.get("DWC_AOT")
    if env:
        return shutil.which(env)  # a path, or a name on PATH; None if not executable
    return shutil.which("dwc-aot")


def aot_flags():
    return shlex.split(os.environ.get("DWC_AOT_FLAGS", ""))


def set_chip(chip):
    """Chip to compile for (None: the device's)."""
    global _chip_override
    _chip_override = chip


def device_chip(capability):
    """The chip dwc compiles for on a GPU of compute capability (major,
    minor): sm_90a on Hopper, sm_<major><minor> elsewhere."""
    major, minor = capability
    return ARCH_SPECIFIC.get((major, minor), "sm_%d%d" % (major, minor))


def _device_capability():
    """The current CUDA device's compute capability, or None."""
    try:
        import torch
        if torch.cuda.is_available():
            return tuple(torch.cuda.get_device_capability())
    except Exception:  # no torch, no driver
        pass
    return None


def current_chip():
    """set_chip's chip, else $DWC_CHIP, else the current device's
    (device_chip), else sm_90 (no GPU)."""
    if _chip_override:
        return _chip_override
    if os.environ.get("DWC_CHIP"):
        return os.environ["DWC_CHIP"]
    cap = _device_capability()
    return device_chip(cap) if cap else NO_GPU_CHIP


def _address(lib, sym):
    try:
        return ctypes.cast(getattr(lib, sym), ctypes.c_void_p).value
    except AttributeError:
        return None


def _open_library(so, symbols):
    """{symbol: address} of the entry points the C++ extension calls: the
    trusted entry point (`<symbol>_trusted`: no driver query per pointer;
    the extension passes only CUDA tensors of the current device, checked
    itself) where the object has one (dwc-aot of this version), else the
    checked `<symbol>`."""
    from .extension import load_runtime
    load_runtime()
    lib = ctypes.CDLL(so)
    _libs.append(lib)
    found = {}
    for sym in symbols:
        checked = _address(lib, sym)
        addr = _address(lib, sym + "_trusted") or checked
        if addr:
            found[sym] = addr
        if checked:
            _checked[sym] = checked
    return found


def checked_entry(spec, op):
    """Address of the checked entry point of (spec, op) (every pointer asked
    of the driver; for tests and probes), or None when not loaded."""
    with _lock:
        for alias in _aliases(spec, op):
            if alias in _checked:
                return _checked[alias]
    return None


class KernelsLoaded(int):
    """load_kernels' answer: the number of entry points loaded (an int, as
    before), with `directory`, `chip` (the directory's chip that was
    loaded, or None), `chips` (all it holds) and `skipped` (why nothing was
    loaded, e.g. kernels built for another chip; None when loaded)."""

    def __new__(cls, n, directory, chip, chips, skipped=None):
        obj = super().__new__(cls, n)
        obj.directory, obj.chip, obj.chips, obj.skipped = directory, chip, chips, skipped
        return obj


def load_kernels(kernels_dir, chip=None):
    """Makes the kernels of an AOT directory (manifest.json) available to
    the dwc:: ops: those of this device's chip (or `chip`), where the
    directory holds several. Returns a KernelsLoaded (the number of entry
    points loaded); a directory without kernels for this chip loads
    nothing, and says why in its `skipped` and in convert's report."""
    from .extension import load_extension, runtime_path
    m = manifest.read(kernels_dir)
    want = chip or current_chip()
    found = manifest.chip_for(m, want)
    key = os.path.abspath(kernels_dir)
    if found is None:
        return _skip(key, m, "compiled for %s, this device is %s (add its kernels with "
                     "python -m dwc_torch.aot --chip %s --out %s)" % (
                         ", ".join(manifest.chips(m)) or "no chip", want, want, kernels_dir))
    objs, syms = _objects(kernels_dir, manifest.specs(m, found))
    _skipped_dirs.pop(key, None)
    if not objs:
        return KernelsLoaded(0, key, found, manifest.chips(m))
    so = cache.link_shared(objs, runtime_path())
    with _lock:
        _symbols.update(_open_library(so, syms))
        _kernel_dirs.append(key)
        for s in syms:
            _unresolved.pop(s, None)
    ext = load_extension()
    ext.clear_registry(True)
    return KernelsLoaded(len(syms), key, found, manifest.chips(m))


def _skip(key, m, why):
    _skipped_dirs[key] = why
    log.warning("dwc_torch: %s: not loaded: %s", key, why)
    return KernelsLoaded(0, key, None, manifest.chips(m), why)


def _objects(kernels_dir, specs):
    """(object paths, symbols) of the ops that compiled."""
    objs, syms = [], []
    for s in specs:
        for o in s["ops"].values():
            path = os.path.join(kernels_dir, o["object"])
            if not o.get("error") and os.path.isfile(path):
                objs.append(path)
                syms.append(o["symbol"])
    return objs, syms


def skipped_directories():
    """{directory: why} of the kernel directories load_kernels did not load."""
    return dict(_skipped_dirs)


def compile_spec(spec, op, aot=None, chip=None, flags=None, around=None):
    """Compiles one op of a spec through the cache; returns the entry
    directory (kernel.o, kernel.h). around: see cache.compile_kernel."""
    aot = aot or find_aot()
    if not aot:
        raise FileNotFoundError("dwc-aot not found (set DWC_AOT or put it on PATH)")
    entry, _ = cache.compile_kernel(spec.mlir(op), spec.func_name(op), aot,
                                    aot_flags() if flags is None else flags,
                                    chip or current_chip(), around=around)
    return entry


def resolve(key):
    """Address of the entry point of registry key `key`, or None."""
    try:
        op, spec = spec_from_key(key)
    except (ValueError, KeyError, IndexError) as e:
        _note("key %s" % list(key), "not a dwc layer: %s" % e)
        return None
    sym = spec.symbol(op)
    with _lock:
        for alias in _aliases(spec, op):
            if alias in _symbols:
                return _symbols[alias]
        aot = find_aot()
        if not aot:
            _note(sym, _no_compiler_reason(), spec, op)
            return None
        try:
            from .extension import runtime_path
            entry = compile_spec(spec, op, aot, around=lambda: progress.task(
                "compiling %s %s (first use)" % (op, spec.key)))
            so = cache.link_shared([os.path.join(entry, "kernel.o")], runtime_path())
            _symbols.update(_open_library(so, [sym]))
        except Exception as e:  # a failed compile: PyTorch runs the layer
            _note(sym, "compile failed: %s" % cache.error_summary(e), spec, op)
            return None
        return _symbols.get(sym)


def _no_compiler_reason():
    """Why a missing kernel was not compiled on first use: a DWC_AOT that
    names no executable is said so, not lumped with 'set DWC_AOT'."""
    how = "load_kernels(DIR) of python -m dwc_torch.aot output"
    if os.environ.get("DWC_COMPILE", "1") == "0":
        return "no compiled kernel (%s; compile on first use is off: DWC_COMPILE=0)" % how
    if os.environ.get("DWC_AOT"):
        return "no compiled kernel (%s; DWC_AOT=%s is not an executable)" % (
            how, os.environ["DWC_AOT"])
    return "no compiled kernel (%s, or put dwc-aot on PATH / set DWC_AOT)" % how


def _aliases(spec, op):
    """Symbols that implement (spec, op): the backward kernels of a layer do
    not depend on its bias, and an AOT directory names them after the
    layer (with or without '_bias')."""
    syms = [spec.symbol(op)]
    if op in ("bwd_data", "bwd_filter"):
        import dataclasses
        syms.append(dataclasses.replace(spec, bias=not spec.bias).symbol(op))
    return syms


def _note(sym, why, spec=None, op=None):
    if sym not in _unresolved:
        _unresolved[sym] = (why, spec, op)
        log.warning("dwc_torch: %s runs on PyTorch: %s", sym, why)


def unresolved():
    """{symbol: (reason, spec, op)} of the calls PyTorch ran instead of a
    dwc kernel."""
    return dict(_unresolved)


def aot_command(specs_ops, out="DIR"):
    """A `python -m dwc_torch.aot` command line compiling these (spec, op)."""
    args = []
    for spec, op in specs_ops:
        a = "--spec " + spec.spec_string() if hasattr(spec, "spec_string") else \
            "--spec-json '%s'" % json.dumps(spec.to_dict())
        if a not in args:
            args.append(a)
    # --ops selects the ops of depthwise specs (the AOT step compiles every
    # op of the others), and --chip the chip of this process (the AOT
    # machine may have no GPU, or another one).
    ops = sorted({op for spec, op in specs_ops if spec.family == "dw"})
    return "python -m dwc_torch.aot --out %s%s %s --chip %s" % (
        out, " --ops " + ",".join(ops) if ops else "", " ".join(args), current_chip())
