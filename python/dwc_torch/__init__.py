"""dwc_torch: PyTorch binding of dwc's depthwise convolution kernels.

Development machine (MLIR, no torch needed): `python -m dwc_torch.aot`
compiles forward/backward-data/backward-filter kernels per static layer spec
with dwc-aot and writes a manifest. GPU machine (torch, no MLIR):

    import dwc_torch
    dwc_torch.load_kernels(".carry/torch_kernels")     # links with g++, ctypes
    conv = dwc_torch.DepthwiseConv2d(C, C, 7, padding=3)   # drop-in for
    # nn.Conv2d(C, C, 7, padding=3, groups=C)

The torch-facing names are imported lazily, so the AOT step and the ctypes
layer work without torch.
"""

from .spec import LayerSpec, parse_spec  # noqa: F401
from .library import DwcError, KernelLibrary  # noqa: F401

__all__ = ["LayerSpec", "parse_spec", "DwcError", "KernelLibrary", "load_kernels",
           "DepthwiseConv2d", "DwcDepthwiseConv2dFunction", "dwc_depthwise_conv2d",
           "set_default_library", "get_default_library"]


def load_kernels(kernels_dir, work_dir="/tmp/dwc_torch", log_path=None, default=True):
    """Builds libdwc_runtime, links the kernels of kernels_dir and loads them;
    makes them the default of DepthwiseConv2d unless default=False."""
    lib = KernelLibrary.build(kernels_dir, work_dir, log_path)
    if default:
        from .module import set_default_library
        set_default_library(lib)
    return lib


def __getattr__(name):
    if name in ("DepthwiseConv2d", "set_default_library", "get_default_library"):
        from . import module
        return getattr(module, name)
    if name in ("DwcDepthwiseConv2dFunction", "dwc_depthwise_conv2d",
                "torch_depthwise_conv2d", "stats"):
        from . import functional
        return getattr(functional, name)
    raise AttributeError(name)
