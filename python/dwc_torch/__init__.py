"""dwc_torch: PyTorch integration of dwc's compiled kernels.

    import dwc_torch
    model = dwc_torch.convert(model)          # depthwise convs, pools -> dwc
    print(model.dwc_report)                   # what stayed on PyTorch, and why

Kernels come from dwc-aot: compiled on first use into ~/.cache/dwc when
dwc-aot is on PATH (or $DWC_AOT), or ahead of time on the machine with MLIR
(`python -m dwc_torch.aot --model pkg.mod:factory --input 64,3,224,224
--out DIR`) and loaded with `dwc_torch.load_kernels(DIR)`.

The ops are torch.ops.dwc.* (torch.library: fake kernels, autograd,
autocast; CPU = PyTorch's operators), registered by `import dwc_torch`
wherever torch is installed. The spec/AOT/cache layers need no torch: on a
machine without it the package imports all the same, and its PyTorch parts
(convert, explain, ...) raise an ImportError saying how to install it.
"""

from .version import __version__  # noqa: F401
from .spec import LayerSpec, parse_spec  # noqa: F401
from .library import DwcError, KernelLibrary  # noqa: F401

__all__ = ["__version__", "LayerSpec", "parse_spec", "DwcError", "KernelLibrary",
           "convert", "unconvert", "freeze", "load_kernels", "load_extension", "stats",
           "DepthwiseConv2d", "Conv2d", "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d"]

_LAZY = {
    "convert": "converter", "unconvert": "converter", "ConvertReport": "converter",
    "load_kernels": "kernels", "unresolved": "kernels", "set_chip": "kernels",
    "load_extension": "extension", "backend": "compile", "freeze": "modules",
    "DepthwiseConv2d": "modules", "Conv2d": "modules", "MaxPool2d": "modules",
    "AvgPool2d": "modules", "AdaptiveAvgPool2d": "modules",
    "explain": "explain", "plot_report": "plot",
}


def _running_aot_command():
    """Whether this process is `python -m dwc_torch.aot` / dwc-torch-aot,
    which compiles specs without the ops (on a GPU machine, registering them
    loads -- the first time builds -- the C++ extension)."""
    import os
    import sys
    argv = list(getattr(sys, "orig_argv", sys.argv))
    return "dwc_torch.aot" in argv[argv.index("-m") + 1:argv.index("-m") + 2] \
        if "-m" in argv else os.path.basename(sys.argv[0] if sys.argv else "") == "dwc-torch-aot"


def _register_ops():
    """Registers torch.ops.dwc.* when torch is installed (a model saved with
    the ops, torch.export programs and torch.compile graphs need them before
    any other dwc_torch name is touched)."""
    if _running_aot_command():
        return
    try:
        import torch  # noqa: F401
    except ImportError:  # the AOT machine: specs, dwc-aot and ctypes only
        return
    from . import ops  # noqa: F401


_register_ops()


def stats():
    """Counters of the C++ extension: kernel calls, PyTorch fallbacks,
    layout copies, registry misses, ops routed to PyTorch by convert's
    per-op choice (None before it is loaded)."""
    from .extension import loaded_extension
    ext = loaded_extension()
    return ext.stats() if ext is not None else None


def __getattr__(name):
    if name in _LAZY:
        import importlib
        try:
            module = importlib.import_module("." + _LAZY[name], __name__)
        except ModuleNotFoundError as e:
            if e.name != "torch":
                raise
            raise ImportError(torch_missing("dwc_torch." + name)) from None
        return getattr(module, name)
    raise AttributeError("module 'dwc_torch' has no attribute %r" % name)


def torch_missing(what):
    """The message of a PyTorch part used where torch is not installed."""
    return ("%s needs PyTorch, which is not installed: pip install 'dwc-torch[torch]' (or "
            "torch). Without it dwc_torch compiles kernels ahead of time: python -m "
            "dwc_torch.aot --spec ..." % what)
