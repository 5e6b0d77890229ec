"""The dwc:: custom operators of PyTorch.

Schemas, fake (meta) kernels so torch.compile and torch.export trace them,
autograd formulas, autocast kernels and the CPU implementation (PyTorch's
own operators) are registered here; the CUDA implementation is the C++
extension (csrc/dwc_ops.cpp, built against the installed torch on first
use, see extension.py) that calls the dwc-aot kernels.

    torch.ops.dwc.depthwise_conv2d(x, weight, bias, stride, padding4, dilation)

`weight` is nn.Conv2d's (C, 1, KH, KW); padding is [top, bottom, left,
right]. The optional `weight_hwc` is the filter already laid out as the
kernels read it (KH*KW x C, see filter_hwc): modules pass one cached against
the parameter's version counter, so an unchanged weight is not re-laid out on
every call. Outputs have the memory format PyTorch's own op gives: the
input's suggested one (the kernels are NHWC: an NCHW input is copied in and
the output back, which convert's per-shape-class timing counts).
"""

import torch
import torch.nn.functional as F

_SCHEMAS = {
    "depthwise_conv2d":
        "(Tensor x, Tensor weight, Tensor? bias, int[2] stride, int[4] padding, "
        "int[2] dilation, Tensor? weight_hwc=None) -> Tensor",
    "depthwise_conv2d_backward_data":
        "(Tensor grad_out, Tensor weight, int[4] input_size, int[2] stride, "
        "int[4] padding, int[2] dilation, Tensor? weight_hwc=None) -> Tensor",
    "depthwise_conv2d_backward_filter":
        "(Tensor x, Tensor grad_out, int[2] kernel_size, int[2] stride, int[4] padding, "
        "int[2] dilation) -> Tensor",
    "pool2d":
        "(Tensor x, str kind, int[2] window, int[2] stride, int[4] padding, "
        "bool ceil_mode, bool count_include_pad) -> Tensor",
    "pool2d_backward":
        "(Tensor x, Tensor grad_out, str kind, int[2] window, int[2] stride, "
        "int[4] padding, bool ceil_mode, bool count_include_pad) -> Tensor",
    "global_avg_pool": "(Tensor x) -> Tensor",
    "global_avg_pool_backward": "(Tensor grad_out, int[4] input_size) -> Tensor",
    "conv2d":
        "(Tensor x, Tensor weight, Tensor? bias, int[2] stride, int[4] padding, "
        "int[2] dilation, Tensor? weight_hwc=None) -> Tensor",
}

_lib = torch.library.Library("dwc", "DEF")
for _name, _schema in _SCHEMAS.items():
    _lib.define(_name + _schema)

ops = torch.ops.dwc
CL = torch.channels_last


def filter_hwc(weight):
    """nn.Conv2d's depthwise (C, 1, KH, KW) -> the kernels' KH*KW x C."""
    C, _, KH, KW = weight.shape
    return weight.detach().reshape(C, KH * KW).t().contiguous()


def filter_dense(weight):
    """nn.Conv2d's (OC, C, KH, KW) -> the dense kernels' KH x KW x C x OC."""
    return weight.detach().permute(2, 3, 1, 0).contiguous()


def suggested_format(x):
    """The memory format conv2d and the pools give their output for input
    x: its suggest_memory_format (channels_last where its strides are)."""
    from torch._prims_common import suggest_memory_format
    return suggest_memory_format(x)


def conv_out(size, k, s, d, p0, p1):
    return (size + p0 + p1 - d * (k - 1) - 1) // s + 1


def pool_out(size, k, s, p0, p1, ceil):
    if not ceil:
        return (size + p0 + p1 - k) // s + 1
    o = -(-(size + p0 + p1 - k) // s) + 1
    return o - 1 if (o - 1) * s >= size + p0 else o


def _pad(x, padding):
    pt, pb, pl, pr = padding
    return F.pad(x, (pl, pr, pt, pb)) if any(padding) else x


# --- PyTorch implementations (CPU; CUDA when the extension is missing) -----

def _torch_conv(x, weight, bias, stride, padding, dilation, groups):
    pt, pb, pl, pr = padding
    if pt == pb and pl == pr:
        y = F.conv2d(x, weight, bias, stride, (pt, pl), dilation, groups)
    else:
        y = F.conv2d(_pad(x, padding), weight, bias, stride, 0, dilation, groups)
    return y


def _dw_fwd(x, weight, bias, stride, padding, dilation, weight_hwc=None):
    return _torch_conv(x, weight, bias, stride, padding, dilation, weight.shape[0])


def _dw_bwd_data(grad_out, weight, input_size, stride, padding, dilation, weight_hwc=None):
    N, C, H, W = input_size
    pt, pb, pl, pr = padding
    dxp = torch.nn.grad.conv2d_input((N, C, H + pt + pb, W + pl + pr), weight, grad_out,
                                     stride, 0, dilation, C)
    return dxp[:, :, pt:pt + H, pl:pl + W].contiguous(memory_format=suggested_format(grad_out))


def _dw_bwd_filter(x, grad_out, kernel_size, stride, padding, dilation):
    C = x.shape[1]
    return torch.nn.grad.conv2d_weight(_pad(x, padding), (C, 1) + tuple(kernel_size),
                                       grad_out, stride, 0, dilation, C).contiguous()


def torch_dw_backward(grad_out, x, weight, stride, padding, dilation, data, filter):
    """(dX or None, dW or None) of a depthwise convolution by PyTorch's
    kernels, as its autograd computes them and as the C++ node does for
    ops convert() leaves to PyTorch (torchDwBackward in csrc/dwc_ops.cpp)."""
    pt, pb, pl, pr = padding
    sym = pt == pb and pl == pr
    xp = x if sym else _pad(x, padding)
    dx, dw, _ = torch.ops.aten.convolution_backward(
        grad_out, xp, weight, None, list(stride), [pt, pl] if sym else [0, 0],
        list(dilation), False, [0, 0], weight.shape[0], [data, filter, False])
    if data and not sym:
        dx = dx[:, :, pt:pt + x.shape[2], pl:pl + x.shape[3]]
    return dx, dw


def _pool_args(window, stride, padding):
    pt, pb, pl, pr = padding
    if pt != pb or pl != pr:
        raise ValueError("dwc::pool2d: PyTorch's pooling needs symmetric padding, got %s"
                         % (list(padding),))
    return tuple(window), tuple(stride), (pt, pl)


def _pool_fwd(x, kind, window, stride, padding, ceil_mode, count_include_pad):
    k, s, p = _pool_args(window, stride, padding)
    if kind == "max":
        y = F.max_pool2d(x, k, s, p, 1, ceil_mode)
    elif kind == "avg":
        y = F.avg_pool2d(x, k, s, p, ceil_mode, count_include_pad)
    else:
        raise ValueError("dwc::pool2d: kind is 'max' or 'avg', got %r" % kind)
    return y


def _pool_bwd(x, grad_out, kind, window, stride, padding, ceil_mode, count_include_pad):
    k, s, p = _pool_args(window, stride, padding)
    if kind == "max":
        _, idx = torch.ops.aten.max_pool2d_with_indices(x, k, s, p, (1, 1), ceil_mode)
        dx = torch.ops.aten.max_pool2d_with_indices_backward(grad_out, x, k, s, p, (1, 1),
                                                             ceil_mode, idx)
    elif any(p):
        # PyTorch's channels_last CUDA avg_pool2d_backward ignores the padding
        # when it maps an input position to its windows (pytorch/pytorch#188344,
        # torch 2.11): padded windows through contiguous tensors.
        dx = torch.ops.aten.avg_pool2d_backward(grad_out.contiguous(), x.contiguous(), k, s,
                                                p, ceil_mode, count_include_pad, None)
    else:
        dx = torch.ops.aten.avg_pool2d_backward(grad_out, x, k, s, p, ceil_mode,
                                                count_include_pad, None)
    return dx.contiguous(memory_format=suggested_format(x))


def _gap(x):
    return F.adaptive_avg_pool2d(x, 1)


def _gap_bwd(grad_out, input_size):
    N, C, H, W = input_size
    return (grad_out.expand(N, C, H, W) / (H * W)).contiguous(memory_format=CL)


def _conv_fwd(x, weight, bias, stride, padding, dilation, weight_hwc=None):
    return _torch_conv(x, weight, bias, stride, padding, dilation, 1)


TORCH_IMPLS = {
    "depthwise_conv2d": _dw_fwd,
    "depthwise_conv2d_backward_data": _dw_bwd_data,
    "depthwise_conv2d_backward_filter": _dw_bwd_filter,
    "pool2d": _pool_fwd,
    "pool2d_backward": _pool_bwd,
    "global_avg_pool": _gap,
    "global_avg_pool_backward": _gap_bwd,
    "conv2d": _conv_fwd,
}
for _name, _fn in TORCH_IMPLS.items():
    _lib.impl(_name, _fn, "CPU")


def register_torch_cuda_impls():
    """PyTorch's operators for CUDA tensors too (when the extension cannot
    be built): the ops keep working, without the dwc kernels."""
    for name, fn in TORCH_IMPLS.items():
        _lib.impl(name, fn, "CUDA")
    key = torch._C.DispatchKey.AutocastCUDA
    _lib.impl("depthwise_conv2d", _autocast_kernel("depthwise_conv2d", "cuda", key), key.name)


# --- fake kernels ----------------------------------------------------------

def _empty_cl(x, shape, dtype=None):
    return x.new_empty(shape, dtype=dtype).contiguous(memory_format=CL)


def _empty_like_op(x, shape):
    """The output of shape `shape` an op on x gives: x's suggested format."""
    return torch.empty(shape, dtype=x.dtype, device=x.device,
                       memory_format=suggested_format(x))


@torch.library.register_fake("dwc::depthwise_conv2d")
def _(x, weight, bias, stride, padding, dilation, weight_hwc=None):
    torch._check(x.dim() == 4, lambda: "dwc::depthwise_conv2d: x must be 4-D")
    torch._check(x.shape[1] == weight.shape[0], lambda: "dwc::depthwise_conv2d: channels")
    N, C, H, W = x.shape
    KH, KW = weight.shape[2:]
    return _empty_like_op(x, (N, C, conv_out(H, KH, stride[0], dilation[0], *padding[0:2]),
                              conv_out(W, KW, stride[1], dilation[1], *padding[2:4])))


@torch.library.register_fake("dwc::depthwise_conv2d_backward_data")
def _(grad_out, weight, input_size, stride, padding, dilation, weight_hwc=None):
    return _empty_like_op(grad_out, tuple(input_size))


@torch.library.register_fake("dwc::depthwise_conv2d_backward_filter")
def _(x, grad_out, kernel_size, stride, padding, dilation):
    return x.new_empty((x.shape[1], 1) + tuple(kernel_size))


@torch.library.register_fake("dwc::pool2d")
def _(x, kind, window, stride, padding, ceil_mode, count_include_pad):
    N, C, H, W = x.shape
    return _empty_like_op(x, (N, C, pool_out(H, window[0], stride[0], *padding[0:2], ceil_mode),
                              pool_out(W, window[1], stride[1], *padding[2:4], ceil_mode)))


@torch.library.register_fake("dwc::pool2d_backward")
def _(x, grad_out, kind, window, stride, padding, ceil_mode, count_include_pad):
    return _empty_like_op(x, tuple(x.shape))


@torch.library.register_fake("dwc::global_avg_pool")
def _(x):
    return _empty_like_op(x, (x.shape[0], x.shape[1], 1, 1))


@torch.library.register_fake("dwc::global_avg_pool_backward")
def _(grad_out, input_size):
    torch._check(len(input_size) == 4, lambda: "dwc::global_avg_pool_backward: input_size[4]")
    return _empty_cl(grad_out, tuple(input_size))


@torch.library.register_fake("dwc::conv2d")
def _(x, weight, bias, stride, padding, dilation, weight_hwc=None):
    N, _, H, W = x.shape
    OC, _, KH, KW = weight.shape
    return _empty_like_op(x, (N, OC, conv_out(H, KH, stride[0], dilation[0], *padding[0:2]),
                              conv_out(W, KW, stride[1], dilation[1], *padding[2:4])))


# --- autograd ----------------------------------------------------------------

def _bias_grad(g, bias):
    acc = torch.float32 if g.dtype in (torch.float16, torch.bfloat16) else g.dtype
    return g.sum(dim=(0, 2, 3), dtype=acc).to(bias.dtype)


def _dw_setup(ctx, inputs, output):
    x, weight, bias, stride, padding, dilation, weight_hwc = inputs
    ctx.save_for_backward(x, weight, weight_hwc, bias)
    ctx.conf = (tuple(stride), tuple(padding), tuple(dilation))


def _dw_backward(ctx, gy):
    x, weight, weight_hwc, bias = ctx.saved_tensors
    stride, padding, dilation = ctx.conf
    dx = dw = db = None
    if ctx.needs_input_grad[0]:
        dx = ops.depthwise_conv2d_backward_data(gy, weight, list(x.shape), stride, padding,
                                                dilation, weight_hwc)
    if ctx.needs_input_grad[1]:
        dw = ops.depthwise_conv2d_backward_filter(x, gy, list(weight.shape[2:]), stride,
                                                  padding, dilation).to(weight.dtype)
    if bias is not None and ctx.needs_input_grad[2]:
        db = _bias_grad(gy, bias)
    return dx, dw, db, None, None, None, None


torch.library.register_autograd("dwc::depthwise_conv2d", _dw_backward,
                                setup_context=_dw_setup)


def _pool_setup(ctx, inputs, output):
    ctx.save_for_backward(inputs[0])
    ctx.conf = inputs[1:]


def _pool_backward(ctx, gy):
    (x,) = ctx.saved_tensors
    return (ops.pool2d_backward(x, gy, *ctx.conf),) + (None,) * 6


torch.library.register_autograd("dwc::pool2d", _pool_backward, setup_context=_pool_setup)


def _gap_setup(ctx, inputs, output):
    x = inputs[0]
    ctx.shape = tuple(x.shape)


def _gap_backward(ctx, gy):
    return ops.global_avg_pool_backward(gy, list(ctx.shape)),


torch.library.register_autograd("dwc::global_avg_pool", _gap_backward,
                                setup_context=_gap_setup)


def _conv_setup(ctx, inputs, output):
    x, weight, bias, stride, padding, dilation, _ = inputs
    ctx.save_for_backward(x, weight)
    ctx.has_bias = bias is not None
    ctx.conf = (tuple(stride), tuple(padding), tuple(dilation))


def _conv_backward(ctx, gy):
    # The dense backward runs on PyTorch's kernels (dwc compiles the forward).
    x, weight = ctx.saved_tensors
    stride, padding, dilation = ctx.conf
    xp = _pad(x, padding)
    mask = [ctx.needs_input_grad[0], ctx.needs_input_grad[1],
            ctx.has_bias and ctx.needs_input_grad[2]]
    dxp, dw, db = torch.ops.aten.convolution_backward(
        gy, xp, weight, [weight.shape[0]] if ctx.has_bias else None, stride, [0, 0],
        dilation, False, [0, 0], 1, mask)
    dx = None
    if dxp is not None:
        pt, _, pl, _ = padding
        dx = dxp[:, :, pt:pt + x.shape[2], pl:pl + x.shape[3]]
    return dx, dw, db, None, None, None, None


torch.library.register_autograd("dwc::conv2d", _conv_backward, setup_context=_conv_setup)


# --- autocast ----------------------------------------------------------------
# Under torch.autocast the convolutions take the inputs the way aten::conv2d
# does (its 'lower precision' policy): floating tensors other than float64 are
# cast to the autocast dtype of the device; the parameters stay f32 (the
# casts are differentiable, so f32 master weights get their gradients).

def _autocast_kernel(name, device_type, key):
    op = getattr(ops, name).default
    exclude = torch._C.DispatchKeySet(key)

    def cast(t, dt):
        if t is not None and t.is_floating_point() and t.dtype != torch.float64:
            return t.to(dt)
        return t

    def kernel(x, weight, bias, stride, padding, dilation, weight_hwc=None):
        dt = torch.get_autocast_dtype(device_type)
        if weight_hwc is not None and weight_hwc.dtype != dt:
            weight_hwc = None
        with torch._C._ExcludeDispatchKeyGuard(exclude):
            return op(cast(x, dt), cast(weight, dt), cast(bias, dt), stride, padding,
                      dilation, weight_hwc)
    return kernel


# CUDA's autocast of depthwise_conv2d is the C++ extension's (with its
# autograd); these Python kernels serve the CPU, conv2d, and CUDA when the
# extension is missing.
_AUTOCAST = [("depthwise_conv2d", "cpu", torch._C.DispatchKey.AutocastCPU),
             ("conv2d", "cpu", torch._C.DispatchKey.AutocastCPU),
             ("conv2d", "cuda", torch._C.DispatchKey.AutocastCUDA)]
for _name, _dev, _key in _AUTOCAST:
    _lib.impl(_name, _autocast_kernel(_name, _dev, _key), _key.name)


# --- CUDA implementation -------------------------------------------------

def _init_cuda():
    """The C++ extension on a machine with CUDA (built on first use); where
    it cannot be built, PyTorch's operators so the ops keep working."""
    import os
    import warnings
    if not torch.cuda.is_available():
        return
    if os.environ.get("DWC_TORCH_EXTENSION", "1") != "0":
        try:
            from .extension import load_extension
            load_extension()
            return
        except Exception as e:  # no compiler, no headers: keep PyTorch's ops
            warnings.warn("dwc_torch: the C++ extension could not be loaded (%s); the "
                          "dwc ops run PyTorch's operators" % e, RuntimeWarning)
    register_torch_cuda_impls()


_init_cuda()
