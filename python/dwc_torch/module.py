"""nn.Module drop-in for nn.Conv2d(C, C, k, groups=C, ...) on dwc kernels.

DepthwiseConv2d subclasses nn.Conv2d: same constructor arguments, the same
parameters (`weight` (C, 1, KH, KW), `bias` (C,)), the same initialisation
(nn.Conv2d's reset_parameters, so the same seed gives the same weights), so
state_dicts load both ways and isinstance(m, nn.Conv2d) holds. Extras:
padding may also be 4 values (top, bottom, left, right); `kernels=` picks a
KernelLibrary (default: the one given to dwc_torch.load_kernels);
`fallback=` 'warn' (default: PyTorch's conv2d with a one-time warning when
no compiled kernel exists for the input's shape/dtype, on CPU tensors, or
without a CUDA driver), 'silent' or 'error'.
"""

import torch.nn as nn

from . import functional as DF
from .spec import normalize_padding

_default_library = None


def set_default_library(lib):
    global _default_library
    _default_library = lib


def get_default_library():
    return _default_library


class DepthwiseConv2d(nn.Conv2d):
    def __init__(self, in_channels, out_channels=None, kernel_size=3, stride=1,
                 padding=0, dilation=1, groups=None, bias=True,
                 padding_mode="zeros", device=None, dtype=None, *, kernels=None,
                 fallback="warn"):
        out_channels = in_channels if out_channels is None else out_channels
        groups = in_channels if groups is None else groups
        if out_channels != in_channels or groups != in_channels:
            raise ValueError("DepthwiseConv2d needs out_channels == groups == in_channels "
                             "(got %d, %d, %d)" % (in_channels, out_channels, groups))
        if padding_mode != "zeros":
            raise ValueError("DepthwiseConv2d supports padding_mode='zeros' only")
        if fallback not in ("warn", "silent", "error"):
            raise ValueError("fallback must be 'warn', 'silent' or 'error'")
        four = not isinstance(padding, (str, int)) and len(tuple(padding)) == 4
        super().__init__(in_channels, out_channels, kernel_size, stride,
                         0 if four else padding, dilation, groups, bias,
                         padding_mode, device, dtype)
        self.padding4 = normalize_padding(tuple(padding) if four else padding,
                                          self.kernel_size, self.dilation)
        if four:
            self.padding = tuple(padding)
        self.kernels = kernels
        self.fallback = fallback

    @classmethod
    def from_conv(cls, conv, **kw):
        """A DepthwiseConv2d with the configuration and the parameters of an
        nn.Conv2d(C, C, k, groups=C)."""
        m = cls(conv.in_channels, conv.out_channels, conv.kernel_size, conv.stride,
                conv.padding, conv.dilation, conv.groups, conv.bias is not None,
                conv.padding_mode, conv.weight.device, conv.weight.dtype, **kw)
        m.load_state_dict(conv.state_dict())
        return m

    def forward(self, x):
        lib = self.kernels if self.kernels is not None else _default_library
        return DF.dwc_depthwise_conv2d(x, self.weight, self.bias, self.stride,
                                       self.padding4, self.dilation, lib,
                                       self.fallback)

    def extra_repr(self):
        return super().extra_repr() + ", dwc padding=%s" % (self.padding4,)
