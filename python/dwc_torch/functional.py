"""torch.autograd.Function over the dwc kernels, and the PyTorch fallback.

Layouts: dwc kernels are NHWC. A channels_last NCHW tensor *is* a dense NHWC
buffer, so x, y, dY and dX go to the kernels without copies when they are
channels_last (and 16-byte aligned); other tensors are converted with
`.contiguous(memory_format=torch.channels_last)` (one copy, counted in
`stats`). The filter is reordered from nn.Conv2d's (C, 1, KH, KW) to the
kernels' KH x KW x C (a copy of C*KH*KW elements per call) and dW back.
Outputs are channels_last.

Bias: added by the dwc forward op's bias operand (fused in the kernel); its
gradient, sum of dY over N, H, W, is computed by torch (in f32 for
f16/bf16).

Streams: every call first sets the runtime's external stream of the calling
thread to torch.cuda.current_stream() (PyTorch's default stream, handle 0,
as CU_STREAM_LEGACY), so the kernels are queued in order with PyTorch's work
and nothing synchronises (autograd runs backward on its own thread, with
the forward's stream current: the stream is set per call).
"""

import warnings

import torch
import torch.nn.functional as F

from .library import DwcError
from .spec import LayerSpec

TORCH_TO_DWC = {torch.float32: "f32", torch.float16: "f16",
                torch.bfloat16: "bf16", torch.float64: "f64"}
DWC_TO_TORCH = {v: k for k, v in TORCH_TO_DWC.items()}

# Counters for tests and reports: calls of our kernels, fallbacks, copies.
stats = {"dwc_forward": 0, "dwc_backward": 0, "fallback": 0, "layout_copies": 0}
_warned = set()


def warn_once(key, message):
    if key not in _warned:
        _warned.add(key)
        warnings.warn("dwc_torch: " + message, RuntimeWarning, stacklevel=3)


def _nhwc(t):
    """A channels_last, 16-byte aligned version of the NCHW-logical `t`."""
    if not t.is_contiguous(memory_format=torch.channels_last):
        t = t.contiguous(memory_format=torch.channels_last)
        stats["layout_copies"] += 1
    if t.data_ptr() % 16:
        t = t.clone(memory_format=torch.channels_last)
        stats["layout_copies"] += 1
    return t


def _filter_hwc(weight):
    C, _, KH, KW = weight.shape
    return weight.detach().reshape(C, KH * KW).t().contiguous()  # KH*KW x C


# CUDA's handle of the legacy default stream (CU_STREAM_LEGACY). PyTorch's
# default stream has the handle 0, which for the runtime would mean "no
# external stream": its own non-blocking streams, not ordered with PyTorch's
# work on the default stream.
CU_STREAM_LEGACY = 0x1


def _set_stream(lib, device):
    handle = torch.cuda.current_stream(device).cuda_stream
    lib.set_stream(handle if handle else CU_STREAM_LEGACY)


class DwcDepthwiseConv2dFunction(torch.autograd.Function):
    """y = depthwise_conv2d(x, weight, bias) on dwc kernels compiled for
    `spec`; x is (N, C, H, W), weight (C, 1, KH, KW), bias (C,) or None."""

    @staticmethod
    def forward(ctx, x, weight, bias, lib, spec):
        dev = x.device
        x = _nhwc(x)
        w = _filter_hwc(weight)
        y = torch.empty((spec.N, spec.C, spec.OH, spec.OW), dtype=x.dtype,
                        device=dev, memory_format=torch.channels_last)
        with torch.cuda.device(dev):
            _set_stream(lib, dev)
            ptrs = [x.data_ptr(), w.data_ptr()]
            if spec.bias:
                b = bias.detach().contiguous()
                ptrs.append(b.data_ptr())
            ptrs.append(y.data_ptr())
            lib.call(spec.symbol("fwd"), *ptrs)
        stats["dwc_forward"] += 1
        ctx.save_for_backward(x, w)
        ctx.lib, ctx.spec = lib, spec
        ctx.weight_dtype = weight.dtype
        return y

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, gy):
        x, w = ctx.saved_tensors
        lib, spec = ctx.lib, ctx.spec
        dev = gy.device
        gy = _nhwc(gy.to(x.dtype))
        dx = dw = db = None
        with torch.cuda.device(dev):
            _set_stream(lib, dev)
            if ctx.needs_input_grad[0]:
                dx = torch.empty((spec.N, spec.C, spec.H, spec.W), dtype=x.dtype,
                                 device=dev, memory_format=torch.channels_last)
                lib.call(spec.symbol("bwd_data"), gy.data_ptr(), w.data_ptr(),
                         dx.data_ptr())
            if ctx.needs_input_grad[1]:
                KH, KW = spec.kernel
                dw_hwc = torch.empty((KH * KW, spec.C),
                                     dtype=DWC_TO_TORCH[spec.grad_filter_dtype],
                                     device=dev)
                lib.call(spec.symbol("bwd_filter"), x.data_ptr(), gy.data_ptr(),
                         dw_hwc.data_ptr())
                dw = dw_hwc.t().contiguous().view(spec.C, 1, KH, KW).to(ctx.weight_dtype)
        if spec.bias and ctx.needs_input_grad[2]:
            acc = torch.float32 if gy.dtype in (torch.float16, torch.bfloat16) else gy.dtype
            db = gy.sum(dim=(0, 2, 3), dtype=acc).to(gy.dtype)
        stats["dwc_backward"] += 1
        return dx, dw, db, None, None


def torch_depthwise_conv2d(x, weight, bias, stride, padding4, dilation):
    """The PyTorch computation of the same layer (fallback and reference);
    asymmetric padding is an explicit F.pad."""
    pt, pb, pl, pr = padding4
    C = weight.shape[0]
    if pt == pb and pl == pr:
        return F.conv2d(x, weight, bias, tuple(stride), (pt, pl), tuple(dilation), C)
    return F.conv2d(F.pad(x, (pl, pr, pt, pb)), weight, bias, tuple(stride), 0,
                    tuple(dilation), C)


def dwc_depthwise_conv2d(x, weight, bias, stride, padding4, dilation, lib,
                         fallback="warn"):
    """Functional form: our kernels when `lib` has them for this exact layer,
    else (fallback 'warn'/'silent') PyTorch, or (fallback 'error') an error.
    Checks: x 4-D on a CUDA device, dtype equal to the weight's and one of
    f32/f16/bf16/f64; layout/alignment handled by copies (see module doc)."""
    if x.dim() != 4:
        raise ValueError("dwc_torch: expected a 4-D (N, C, H, W) input, got shape %s"
                         % (tuple(x.shape),))
    if x.shape[1] != weight.shape[0]:
        raise ValueError("dwc_torch: input has %d channels, the layer %d"
                         % (x.shape[1], weight.shape[0]))
    if x.dtype != weight.dtype:
        raise TypeError("dwc_torch: input type (%s) and weight type (%s) should be the same"
                        % (x.dtype, weight.dtype))
    if x.device != weight.device:
        raise ValueError("dwc_torch: input on %s but weight on %s" % (x.device, weight.device))

    def fall(key, why):
        if fallback == "error":
            raise RuntimeError("dwc_torch: " + why)
        if fallback != "silent":
            warn_once(key, why + "; using PyTorch's conv2d")
        stats["fallback"] += 1
        return torch_depthwise_conv2d(x, weight, bias, stride, padding4, dilation)

    if x.device.type != "cuda":
        return fall(("device", x.device.type),
                    "input on %s, the dwc kernels run on CUDA devices" % x.device.type)
    if lib is None:
        return fall("nolib", "no dwc kernel library loaded (dwc_torch.load_kernels)")
    dt = TORCH_TO_DWC.get(x.dtype)
    if dt is None:
        return fall(("dtype", x.dtype), "dtype %s is not supported" % x.dtype)
    N, C, H, W = x.shape
    spec = LayerSpec.make(N, C, H, W, tuple(weight.shape[2:]), tuple(stride),
                          list(padding4), tuple(dilation), dt, bias is not None)
    if not lib.has(spec):
        return fall(("spec", spec.key), lib.why_missing(spec))
    try:
        return DwcDepthwiseConv2dFunction.apply(x, weight, bias, lib, spec)
    except DwcError as e:
        # e.g. no CUDA driver for the runtime: nothing was launched.
        return fall(("dwcerror", e.status), str(e))
