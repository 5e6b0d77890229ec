"""nn.Module drop-ins on the dwc:: ops: subclasses of nn.Conv2d,
nn.MaxPool2d, nn.AvgPool2d and nn.AdaptiveAvgPool2d with the same
parameters and buffers (state_dicts load both ways, isinstance holds).

`convert` swaps a module's class in place (`adopt`): the parameter objects
stay the same, so an optimizer made before the conversion keeps working.

The hot path is a launch plan of the C++ extension (`ConvPlan`,
`PoolPlan`) made once per module: its fixed arguments, and for
convolutions the filter laid out as the kernels read it, re-laid out only
when the parameter changed (keyed on the parameter's version counter,
bumped by every in-place update such as optimizer.step(), its storage and
the dtype, autocast's). Calling a plan enters PyTorch's dispatcher from C++
(autograd, autocast, CUDA graphs and fake tensors behave as through
torch.ops) without Python's argument parsing. Under torch.compile or for tensor subclasses the
modules call torch.ops.dwc.* (with a Python filter cache).

A plan runs dwc's kernels only for the shape classes (compute dtype, N, C,
H, W, memory format, the gradients autograd records) it chose them for
(see Choices in csrc/dwc_ops.cpp); every other call -- a shape without a
kernel, CPU tensors, no extension -- runs the stock module's own forward
(nn.Conv2d.forward, ...): the same layout, cuDNN call and autograd node as
if the layer had never been converted. Outputs have the memory format
PyTorch's op gives (the input's suggested one).
"""

import torch
import torch.nn as nn

from . import ops as _ops  # noqa: F401  (registers torch.ops.dwc)
from .spec import normalize_padding

dwc = torch.ops.dwc


_compiling = torch.compiler.is_compiling
_Tensor = torch.Tensor


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


def _extension():
    from .extension import loaded_extension
    return loaded_extension()


class _PlanMixin:
    """The module's launch plan, made on first use; not pickled or deep
    copied (a copy makes its own)."""

    def _plan_or_none(self):
        plan = self.__dict__.get("_plan")
        if plan is None:
            ext = _extension()
            if ext is None:
                return None
            plan = self.__dict__["_plan"] = self._make_plan(ext)
            _apply_choices(self, plan)
        return plan

    def _planned_or_stock(self, x, *params):
        """forward() of a plain 4-D tensor outside torch.compile: the plan
        (made on first use), which returns None where the call runs stock
        PyTorch; stock as well without the extension."""
        plan = self._plan_or_none()
        y = plan(x, *params) if plan is not None else None
        return y if y is not None else self._stock_forward(x)

    def _fast(self, x):
        return type(x) is _Tensor and x.ndim == 4 and not _compiling()

    def __getstate__(self):
        state = self.__dict__.copy()
        state.pop("_plan", None)
        return state


def _autocast_dtype(x):
    dev = x.device.type
    if torch.is_autocast_enabled(dev):
        return torch.get_autocast_dtype(dev)
    return None


class _ConvMixin(_PlanMixin):
    _stock_forward = nn.Conv2d.forward

    def _forward_off_hot_path(self, x, op, relayout):
        """forward() of calls the inlined plan call does not take: a plan made
        on first use (stock PyTorch where it declines or is missing), inputs
        that are not 4-D (nn.Conv2d's own forward), and the op with its
        filter re-layout otherwise (torch.compile, tensor subclasses)."""
        if self._fast(x):
            p = self._parameters
            return self._planned_or_stock(x, p["weight"], p["bias"])
        if x.dim() != 4:
            return nn.Conv2d.forward(self, x)
        return self._call(op, relayout, x)

    def _dwc_init(self):
        if self.padding_mode != "zeros":
            raise ValueError("dwc convolutions support padding_mode='zeros' only")
        self.padding4 = normalize_padding(self.padding, self.kernel_size, self.dilation)
        self._filter = _FilterCache()
        self.__dict__.pop("_plan", None)

    def _make_plan(self, ext):
        plan = ext.ConvPlan(list(self.stride), list(self.padding4), list(self.dilation),
                            type(self) is Conv2d)
        route = self.__dict__.get("_dwc_route", 0)
        if route:
            plan.route = route
        if self.__dict__.get("_dwc_frozen"):
            plan.frozen = True
        return plan

    def _call(self, op, relayout, x):
        # Under autocast the op's autocast kernel casts x, the weight (through
        # autocast's cast cache) and the bias as aten::conv2d's policy does;
        # the filter re-layout is cached in that dtype.
        # Under torch.compile the re-layout is traced instead: inductor fuses
        # it with autocast's cast of the weight (one small kernel per layer
        # and step), and the op's C++ side copies nothing.
        hwc = None
        if x.is_cuda:
            dt = _autocast_dtype(x)
            dt = dt if dt is not None and self.weight.dtype != torch.float64 else \
                self.weight.dtype
            if _compiling() or (torch.cuda.is_current_stream_capturing() and
                                not self.__dict__.get("_dwc_frozen")):
                # (In a CUDA graph the re-layout is captured, so that replays
                # see in-place weight updates, as the plan does; see freeze.)
                hwc = relayout(self.weight.detach().to(dt))
            else:
                hwc = self._filter.get(self.weight, dt, relayout)
        route = self.__dict__.get("_dwc_route", 0)
        if route and _compiling():
            return _routed_call(self, x, hwc, route)
        return op(x, self.weight, self.bias, self.stride, self.padding4, self.dilation, hwc)


class _RoutedBackward(torch.autograd.Function):
    """A converted depthwise layer whose route (set_route) leaves dX and / or
    dW to PyTorch's kernels, as torch.compile traces it: dwc's forward, and
    each backward op as routed (eagerly the plan's route does this in the
    C++ autograd node). Inputs are already in the compute dtype; the weight
    may be autocast's f32 master weight (its filter `hwc` in x's dtype)."""

    @staticmethod
    def forward(ctx, x, weight, bias, hwc, stride, padding, dilation, route):
        ctx.save_for_backward(x, weight, hwc)
        ctx.conf = (stride, padding, dilation, route, None if bias is None else bias.dtype)
        if route & ROUTE_OPS["fwd"]:
            return _ops._torch_conv(x, weight.to(x.dtype), bias, stride, padding, dilation,
                                    weight.shape[0])
        return dwc.depthwise_conv2d(x, weight, bias, stride, padding, dilation, hwc)

    @staticmethod
    def backward(ctx, gy):
        x, w, hwc = ctx.saved_tensors
        stride, padding, dilation, route, bias_dtype = ctx.conf
        want_dx, want_dw = ctx.needs_input_grad[0], ctx.needs_input_grad[1]
        torch_dx = want_dx and bool(route & ROUTE_OPS["bwd_data"])
        torch_dw = want_dw and bool(route & ROUTE_OPS["bwd_filter"])
        dx = dw = db = None
        if torch_dx or torch_dw:
            dx, dw = _ops.torch_dw_backward(gy, x, w.to(gy.dtype), stride, padding, dilation,
                                            torch_dx, torch_dw)
        if want_dx and not torch_dx:
            dx = dwc.depthwise_conv2d_backward_data(gy, w, list(x.shape), stride, padding,
                                                    dilation, hwc)
        if want_dw and not torch_dw:
            dw = dwc.depthwise_conv2d_backward_filter(x, gy, list(w.shape[2:]), stride,
                                                      padding, dilation)
        if dw is not None:
            dw = dw.to(w.dtype)
        if bias_dtype is not None and ctx.needs_input_grad[2]:
            db = gy.sum((0, 2, 3), dtype=torch.float32).to(bias_dtype)
        return dx, dw, db, None, None, None, None, None


def _routed_call(conv, x, hwc, route):
    """conv(x) through _RoutedBackward, cast as autocast would cast for the op."""
    dt = _autocast_dtype(x)
    weight, bias = conv.weight, conv.bias
    if dt is not None and x.dtype != torch.float64:
        x = x.to(dt)
        bias = None if bias is None else bias.to(dt)
    if hwc is None or hwc.dtype != x.dtype:  # no master weight without its filter
        hwc, weight = None, weight.to(x.dtype)
    return _RoutedBackward.apply(x, weight, bias, hwc, list(conv.stride),
                                 list(conv.padding4), list(conv.dilation), route)


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
        # The hot path, inlined: a plan call for a plain 4-D tensor outside
        # torch.compile (no nn.Module.__getattr__, no helper calls).
        plan = self.__dict__.get("_plan")
        if plan is not None and type(x) is _Tensor and x.ndim == 4 and not _compiling():
            p = self._parameters
            y = plan(x, p["weight"], p["bias"])
            return y if y is not None else nn.Conv2d.forward(self, x)
        return self._forward_off_hot_path(x, dwc.depthwise_conv2d, _ops.filter_hwc)

    def _op_forward(self, x):
        """The dwc op's path (no plan, no choice): a measurement of dwc's side."""
        return self._call(dwc.depthwise_conv2d, _ops.filter_hwc, x)


class Conv2d(_ConvMixin, nn.Conv2d):
    """Dense nn.Conv2d (groups=1) whose forward runs dwc::conv2d."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        if self.groups != 1:
            raise ValueError("dwc Conv2d is the dense convolution (groups=1)")
        self._dwc_init()

    def forward(self, x):
        # The hot path, inlined: a plan call for a plain 4-D tensor outside
        # torch.compile (no nn.Module.__getattr__, no helper calls).
        plan = self.__dict__.get("_plan")
        if plan is not None and type(x) is _Tensor and x.ndim == 4 and not _compiling():
            p = self._parameters
            y = plan(x, p["weight"], p["bias"])
            return y if y is not None else nn.Conv2d.forward(self, x)
        return self._forward_off_hot_path(x, dwc.conv2d, _ops.filter_dense)

    def _op_forward(self, x):
        return self._call(dwc.conv2d, _ops.filter_dense, x)


def _pair(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v, v)


class _PoolMixin(_PlanMixin):
    def _make_plan(self, ext):
        k, s, p, c, cip = self._conf
        return ext.PoolPlan(self._kind, list(k), list(s), list(p), c, cip)

    def forward(self, x):
        plan = self.__dict__.get("_plan")
        if plan is not None and type(x) is _Tensor and x.ndim == 4 and not _compiling():
            y = plan(x)
            return y if y is not None else self._stock_forward(x)
        if self._fast(x):
            return self._planned_or_stock(x)
        return self._slow_forward(x)

    def _op_forward(self, x):
        return self._slow_forward(x)


class MaxPool2d(_PoolMixin, nn.MaxPool2d):
    _kind = "max"
    _stock_forward = nn.MaxPool2d.forward

    def _dwc_init(self):
        if _pair(self.dilation) != (1, 1) or self.return_indices:
            raise ValueError("dwc MaxPool2d: dilation 1, no return_indices")
        p = _pair(self.padding)
        self._conf = (_pair(self.kernel_size), _pair(self.stride or self.kernel_size),
                      [p[0], p[0], p[1], p[1]], bool(self.ceil_mode), False)
        self.__dict__.pop("_plan", None)

    def _slow_forward(self, x):
        if x.dim() != 4:
            return nn.MaxPool2d.forward(self, x)
        k, s, p, c, _ = self._conf
        return dwc.pool2d(x, "max", k, s, p, c, False)


class AvgPool2d(_PoolMixin, nn.AvgPool2d):
    _kind = "avg"
    _stock_forward = nn.AvgPool2d.forward

    def _dwc_init(self):
        if self.divisor_override is not None:
            raise ValueError("dwc AvgPool2d: no divisor_override")
        p = _pair(self.padding)
        self._conf = (_pair(self.kernel_size), _pair(self.stride or self.kernel_size),
                      [p[0], p[0], p[1], p[1]], bool(self.ceil_mode),
                      bool(self.count_include_pad))
        self.__dict__.pop("_plan", None)

    def _slow_forward(self, x):
        if x.dim() != 4:
            return nn.AvgPool2d.forward(self, x)
        k, s, p, c, cip = self._conf
        return dwc.pool2d(x, "avg", k, s, p, c, cip)


class AdaptiveAvgPool2d(_PoolMixin, nn.AdaptiveAvgPool2d):
    """nn.AdaptiveAvgPool2d(1): global average pooling on dwc's kernels."""
    _stock_forward = nn.AdaptiveAvgPool2d.forward

    def _dwc_init(self):
        if _pair(self.output_size) != (1, 1):
            raise ValueError("dwc AdaptiveAvgPool2d: output size 1 only")
        self.__dict__.pop("_plan", None)

    def _make_plan(self, ext):
        return ext.PoolPlan("gap", [1, 1], [1, 1], [0, 0, 0, 0], False, False)

    def _slow_forward(self, x):
        if x.dim() != 4:
            return nn.AdaptiveAvgPool2d.forward(self, x)
        return dwc.global_avg_pool(x)


# The ops of a depthwise layer convert() may leave to PyTorch's kernels
# (the plan's route mask: 1 forward, 2 dX, 4 dW).
ROUTE_OPS = {"fwd": 1, "bwd_data": 2, "bwd_filter": 4}


def set_route(module, torch_ops=()):
    """Runs the ops named in `torch_ops` (of ROUTE_OPS) of a converted
    depthwise layer on PyTorch's kernels, the others on dwc's (convert's
    per-op choice). Eager calls take it through the module's plan, calls
    under torch.compile through _RoutedBackward. Not part of the
    state_dict."""
    bad = set(torch_ops) - set(ROUTE_OPS)
    if bad:
        raise ValueError("dwc_torch: unknown ops %s (known: %s)" % (sorted(bad),
                                                                   sorted(ROUTE_OPS)))
    if torch_ops and type(module) is not DepthwiseConv2d:
        raise ValueError("dwc_torch: per-op routes are for converted depthwise layers")
    bits = route_bits(torch_ops)
    module.__dict__["_dwc_route"] = bits
    plan = module.__dict__.get("_plan")
    if plan is not None:
        plan.route = bits  # (forgets the plan's choices: put them back)
        _apply_choices(module, plan)
    return module


def route_bits(torch_ops):
    """The plan's route mask of ops named in ROUTE_OPS."""
    return sum(ROUTE_OPS[o] for o in set(torch_ops))


# The choice of a shape class that runs stock PyTorch (kStock in csrc).
STOCK = -1
DTYPE_IDS = {torch.float32: 0, torch.float16: 1, torch.bfloat16: 2, torch.float64: 3}


def shape_class(x, dtype, grads):
    """The plan's shape class (ShapeClass in csrc/dwc_ops.cpp) of a call on
    x (a tensor, or a meta tensor with its shape and strides) computing in
    `dtype` (autocast's for convolutions under it); grads: 1 when autograd
    records dX, 2 the parameters' gradients."""
    fmt = _ops.suggested_format(x)
    return (DTYPE_IDS[dtype],) + tuple(x.shape) + (int(fmt == torch.channels_last), grads)


def set_choices(module, choices, measure_others=False, margin=0.03):
    """Sets a converted layer's choice per shape class ({shape_class: route
    mask >= 0 for dwc, or STOCK}), as convert does for the class it timed.
    measure_others: other classes are timed dwc against stock when first
    met on a GPU (convert's first-sight measurement); else they take dwc
    wherever every kernel they need is found. Not part of the state_dict."""
    module.__dict__["_dwc_choices"] = dict(choices)
    module.__dict__["_dwc_measure"] = margin if measure_others else None
    plan = module.__dict__.get("_plan")
    if plan is not None:
        plan.forget_choices()
        _apply_choices(module, plan)
    return module


def choices_of(module):
    """{shape class: choice} of a converted layer's plan as it is now
    (those it was given and those it decided), or of the module where it
    has no plan yet."""
    plan = module.__dict__.get("_plan")
    if plan is not None:
        return dict(plan.choices)
    return dict(module.__dict__.get("_dwc_choices", {}))


def _apply_choices(module, plan):
    for cls, choice in module.__dict__.get("_dwc_choices", {}).items():
        plan.choose(list(cls), choice)
    margin = module.__dict__.get("_dwc_measure")
    plan.decider = None if margin is None else _first_sight_decider(module, margin)


def _first_sight_decider(module, margin):
    """The plan's decider of a tuned layer: times dwc against stock on the
    first input of a new shape class (converter.first_sight_choice). Holds
    the module weakly (the plan lives in it)."""
    import weakref
    ref = weakref.ref(module)

    def decide(x, cls):
        from .converter import first_sight_choice
        m = ref()
        return STOCK if m is None else first_sight_choice(m, x, tuple(cls), margin)
    return decide


def freeze(model, frozen=True):
    """Freezes the filters of `model`'s converted convolutions for CUDA
    graphs of inference: a graph captured afterwards reads each layer's
    re-laid-out filter as it was when captured, instead of re-laying out
    the weight in every replay (one small kernel per layer and replay,
    about 1 us at batch 1). A weight changed in place afterwards (an
    optimizer step, load_state_dict) is then NOT seen by such a graph's
    replays: freeze again and capture again. Eager calls are not affected
    (they re-lay out a changed weight). frozen=False undoes it. Returns the
    number of layers set."""
    n = 0
    for m in model.modules():
        if isinstance(m, _ConvMixin):
            m.__dict__["_dwc_frozen"] = bool(frozen)
            plan = m.__dict__.get("_plan")
            if plan is not None:
                plan.frozen = bool(frozen)
            n += 1
    return n


def route_of(module):
    """The ops of `module` that run on PyTorch's kernels (set_route)."""
    bits = module.__dict__.get("_dwc_route", 0)
    return tuple(o for o, b in ROUTE_OPS.items() if bits & b)


def adopt(module, cls):
    """Turns `module` (an instance of cls's PyTorch base) into a `cls` in
    place: same parameters, buffers and hooks."""
    module.__class__ = cls
    module._dwc_init()
    return module


def revert(module):
    """Undoes adopt: back to the PyTorch base class (a module that is not a
    dwc one is left as it is)."""
    if type(module).__module__ != __name__:
        return module
    for base in type(module).__mro__[1:]:
        if base.__module__.startswith("torch.nn"):
            module.__class__ = base
            for a in ("padding4", "_filter", "_conf", "_plan", "_dwc_route", "_dwc_frozen",
                      "_dwc_choices", "_dwc_measure"):
                module.__dict__.pop(a, None)
            return module
    return module
