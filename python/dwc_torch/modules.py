"""nn.Module drop-ins on the dwc:: ops: subclasses of nn.Conv2d,
nn.MaxPool2d, nn.AvgPool2d and nn.AdaptiveAvgPool2d with the same
parameters and buffers (state_dicts load both ways, isinstance holds).

`convert` swaps a module's class in place (`adopt`): the parameter objects
stay the same, so an optimizer made before the conversion keeps working.

The depthwise and dense convolutions keep the filter laid out as the
kernels read it, re-laid out only when the parameter changed: the cache is
keyed on the parameter's version counter (bumped by every in-place update,
e.g. optimizer.step()), its storage and the dtype (autocast's).
"""

import torch
import torch.nn as nn

from . import ops as _ops  # noqa: F401  (registers torch.ops.dwc)
from .spec import normalize_padding

dwc = torch.ops.dwc


def _compiling():
    return torch.compiler.is_compiling()


class _FilterCache:
    """The re-laid-out filter of `weight` in `dtype`, cached on version."""

    __slots__ = ("tag", "value")

    def __init__(self):
        self.tag, self.value = None, None

    def get(self, weight, dtype, relayout):
        tag = (weight._version, weight.data_ptr(), dtype, weight.device)
        if tag != self.tag:
            w = weight.detach()
            self.value = relayout(w if w.dtype == dtype else w.to(dtype))
            self.tag = tag
        return self.value


def _autocast_dtype(x):
    dev = x.device.type
    if torch.is_autocast_enabled(dev):
        return torch.get_autocast_dtype(dev)
    return None


class _ConvMixin:
    def _dwc_init(self):
        if self.padding_mode != "zeros":
            raise ValueError("dwc convolutions support padding_mode='zeros' only")
        self.padding4 = normalize_padding(self.padding, self.kernel_size, self.dilation)
        self._filter = _FilterCache()

    def _call(self, op, relayout, x):
        # Under autocast the op's autocast kernel casts x, the weight (through
        # autocast's cast cache) and the bias as aten::conv2d's policy does;
        # the filter re-layout is cached in that dtype.
        hwc = None
        if x.is_cuda and not _compiling():
            dt = _autocast_dtype(x)
            dt = dt if dt is not None and self.weight.dtype != torch.float64 else \
                self.weight.dtype
            hwc = self._filter.get(self.weight, dt, relayout)
        return op(x, self.weight, self.bias, self.stride, self.padding4, self.dilation, hwc)


class DepthwiseConv2d(_ConvMixin, nn.Conv2d):
    """nn.Conv2d(C, C, k, groups=C, ...) on dwc::depthwise_conv2d."""

    def __init__(self, in_channels, out_channels=None, kernel_size=3, stride=1, padding=0,
                 dilation=1, groups=None, bias=True, padding_mode="zeros", device=None,
                 dtype=None):
        out_channels = in_channels if out_channels is None else out_channels
        groups = in_channels if groups is None else groups
        if not (out_channels == groups == in_channels):
            raise ValueError("DepthwiseConv2d needs out_channels == groups == in_channels "
                             "(got %d, %d, %d)" % (in_channels, out_channels, groups))
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, device, dtype)
        self._dwc_init()

    @classmethod
    def from_conv(cls, conv):
        m = cls(conv.in_channels, conv.out_channels, conv.kernel_size, conv.stride,
                conv.padding, conv.dilation, conv.groups, conv.bias is not None,
                conv.padding_mode, conv.weight.device, conv.weight.dtype)
        m.load_state_dict(conv.state_dict())
        return m

    def forward(self, x):
        if x.dim() != 4:
            return super().forward(x)
        return self._call(dwc.depthwise_conv2d, _ops.filter_hwc, x)


class Conv2d(_ConvMixin, nn.Conv2d):
    """Dense nn.Conv2d (groups=1) whose forward runs dwc::conv2d."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        if self.groups != 1:
            raise ValueError("dwc Conv2d is the dense convolution (groups=1)")
        self._dwc_init()

    def forward(self, x):
        if x.dim() != 4:
            return super().forward(x)
        return self._call(dwc.conv2d, _ops.filter_dense, x)


def _pair(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v, v)


class MaxPool2d(nn.MaxPool2d):
    def _dwc_init(self):
        if _pair(self.dilation) != (1, 1) or self.return_indices:
            raise ValueError("dwc MaxPool2d: dilation 1, no return_indices")
        p = _pair(self.padding)
        self._conf = (_pair(self.kernel_size), _pair(self.stride or self.kernel_size),
                      [p[0], p[0], p[1], p[1]], bool(self.ceil_mode))

    def forward(self, x):
        if x.dim() != 4:
            return super().forward(x)
        k, s, p, c = self._conf
        return dwc.pool2d(x, "max", k, s, p, c, False)


class AvgPool2d(nn.AvgPool2d):
    def _dwc_init(self):
        if self.divisor_override is not None:
            raise ValueError("dwc AvgPool2d: no divisor_override")
        p = _pair(self.padding)
        self._conf = (_pair(self.kernel_size), _pair(self.stride or self.kernel_size),
                      [p[0], p[0], p[1], p[1]], bool(self.ceil_mode),
                      bool(self.count_include_pad))

    def forward(self, x):
        if x.dim() != 4:
            return super().forward(x)
        k, s, p, c, cip = self._conf
        return dwc.pool2d(x, "avg", k, s, p, c, cip)


class AdaptiveAvgPool2d(nn.AdaptiveAvgPool2d):
    def _dwc_init(self):
        if _pair(self.output_size) != (1, 1):
            raise ValueError("dwc AdaptiveAvgPool2d: output size 1 only")

    def forward(self, x):
        if x.dim() != 4:
            return super().forward(x)
        return dwc.global_avg_pool(x)


def adopt(module, cls):
    """Turns `module` (an instance of cls's PyTorch base) into a `cls` in
    place: same parameters, buffers and hooks."""
    module.__class__ = cls
    module._dwc_init()
    return module


def revert(module):
    """Undoes adopt: back to the PyTorch base class."""
    for base in type(module).__mro__[1:]:
        if base.__module__.startswith("torch.nn"):
            module.__class__ = base
            for a in ("padding4", "_filter", "_conf"):
                module.__dict__.pop(a, None)
            return module
    return module
