"""What the driver needs of each op, on the GPU: operands in dwc's layouts
(NHWC activations, HWC / HWCO filters), the float64 reference of an op, and
the PyTorch calls it is timed against (every layout / cuDNN autotuning
variant PyTorch offers; its best is the minimum over them).

Our entry points take their inputs in the order of machine.tensor_shapes
and write the output last:
  fwd (x, w[, b], y)   bwd_data (dy, w, dx)   bwd_filter (x, dy, dw)
  bwd_bias (dy, db)    pool_fwd (x, y)        pool_bwd (x, dy, dx)
  gap (x, y)           gap_bwd (x, dy, dx)    conv_fwd (x, w[, b], y)
"""

import torch
import torch.nn.functional as F

from .machine import TOLERANCE, tensor_shapes

DEVICE = "cuda"
TD = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
      "f64": torch.float64}
# Channels checked against float64 on large layers (all on odd ones): 16 for
# f32; 128 for 16-bit outputs, whose error on a few channels is mostly their
# own rounding and would scatter around the tolerance.
CHECK_CHANNELS = {"f32": 16, "f16": 128, "bf16": 128, "f64": 16}


def out_dtype(spec, op):
    if op in ("bwd_filter", "bwd_bias"):
        return spec.grad_filter_dtype
    return spec.dtype


def operands(spec, ops, gen):
    """{name: tensor} of every input the ops read, uniform(-1, 1)."""
    shapes = {}
    for op in ops:
        shapes.update({k: v for k, v in tensor_shapes(spec, op).items() if k != "out"})
    return {k: torch.empty(s, dtype=TD[spec.dtype], device=DEVICE).uniform_(-1, 1, generator=gen)
            for k, s in shapes.items()}


def call_args(spec, op, t):
    return [t[k] for k in tensor_shapes(spec, op) if k != "out"]


def new_output(spec, op, fill=None):
    shape = tensor_shapes(spec, op)["out"]
    dt = TD[out_dtype(spec, op)]
    if fill is None:
        return torch.empty(shape, dtype=dt, device=DEVICE)
    return torch.full(shape, fill, dtype=dt, device=DEVICE)


def checked_channels(spec, odd):
    """Sorted channel (conv: output channel) indices compared with float64."""
    c = spec.OC if spec.family == "conv" else spec.C
    k = c if odd else min(CHECK_CHANNELS[spec.dtype], c)
    idx = torch.randperm(c, generator=torch.Generator().manual_seed(c + spec.H))[:k]
    return idx.sort().values.to(DEVICE)


def nchw64(t, idx=None):
    t = t if idx is None else t[..., idx]
    return t.double().permute(0, 3, 1, 2).contiguous()


def nhwc(t):
    return t.permute(0, 2, 3, 1)


def references(spec, ops, t, idx):
    """{op: float64 result on the channels idx, in dwc's layout}."""
    fam, out = spec.family, {}
    if fam == "dw":
        pt, pb, pl, pr = spec.padding
        x = nchw64(t["x"], idx).requires_grad_(True) if "x" in t else None
        dy = nchw64(t["dy"], idx) if "dy" in t else None
        if "bwd_bias" in ops:
            out["bwd_bias"] = dy.sum((0, 2, 3))
        if x is None:
            return out
        # dW alone has no filter operand; its value does not enter dW.
        wt = t["w"] if "w" in t else torch.zeros(*spec.kernel, spec.C, device=DEVICE)
        w = wt[:, :, idx].double().permute(2, 0, 1).unsqueeze(1).contiguous()
        w.requires_grad_(True)
        b = t["b"][idx].double() if "b" in t else None
        y = F.conv2d(F.pad(x, (pl, pr, pt, pb)), w, b, spec.stride, 0, spec.dilation, len(idx))
        out["fwd"] = nhwc(y.detach())
        if dy is not None:
            gx, gw = torch.autograd.grad(y, (x, w), dy)
            out["bwd_data"], out["bwd_filter"] = nhwc(gx), gw.squeeze(1).permute(1, 2, 0)
        return out
    if fam == "pool":
        x = nchw64(t["x"]).requires_grad_(True)
        p = (spec.padding[0], spec.padding[2])
        if spec.kind == "max":
            y = F.max_pool2d(x, spec.window, spec.stride, p, 1, spec.ceil_mode)
        else:
            y = F.avg_pool2d(x, spec.window, spec.stride, p, spec.ceil_mode,
                             spec.count_include_pad)
        out["pool_fwd"] = nhwc(y.detach())
        if "pool_bwd" in ops:
            out["pool_bwd"] = nhwc(torch.autograd.grad(y, x, nchw64(t["dy"]))[0])
        return out
    if fam == "gap":
        out["gap"] = t["x"].double().mean((1, 2), keepdim=True)
        if "gap_bwd" in ops:
            out["gap_bwd"] = (t["dy"].double() / (spec.H * spec.W)).expand(*t["x"].shape)
        return out
    pt, pb, pl, pr = spec.padding
    w = t["w"][..., idx].double().permute(3, 2, 0, 1)
    b = t["b"][idx].double() if "b" in t else None
    y = F.conv2d(F.pad(nchw64(t["x"]), (pl, pr, pt, pb)), w, b, spec.stride, 0, spec.dilation)
    out["conv_fwd"] = nhwc(y)
    return out


def relative_error(got, ref):
    return torch.linalg.vector_norm(got.double() - ref).item() / max(
        torch.linalg.vector_norm(ref).item(), 1e-300)


def check_output(spec, op, got, ref, idx):
    """Row fields of one op's result against its float64 reference."""
    sub = got if spec.family in ("pool", "gap") else got[..., idx]
    nan = int(torch.isnan(got).sum().item())
    err = relative_error(sub, ref)
    r = {op + "_rel_err": err, op + "_nan": nan,
         op + "_status": "ok" if nan == 0 and err <= TOLERANCE[spec.dtype] else "WRONG"}
    if spec.dtype in ("f16", "bf16"):  # what rounding the exact result alone costs
        r[op + "_rounding_floor"] = relative_error(ref.to(TD[out_dtype(spec, op)]), ref)
    return r


def _in_layout(t, layout):
    """{name: tensor} with the activations (x, dy) as NCHW-shaped views or
    copies; filters and bias as they are."""
    d = {}
    for k, v in t.items():
        if k in ("x", "dy"):
            v = v.permute(0, 3, 1, 2)
            v = v.contiguous() if layout == "nchw" else v
        d[k] = v
    return d


def _grad_graphs(ts, fwd):
    """One forward graph per operand set, kept to time its backward alone."""
    out = []
    for d in ts:
        x = d["x"].detach().requires_grad_(True)
        out.append((x, fwd(x), d["dy"]))
    return lambda i: torch.autograd.grad(out[i][1], out[i][0], out[i][2], retain_graph=True)


def torch_calls(spec, ops, sets, layout):
    """{variant: {op: launch(i)}} of PyTorch doing the ops on operand set i
    in one memory format (ops PyTorch cannot express, e.g. asymmetric
    padding, are left out). The caller sets cudnn.benchmark."""
    fam = spec.family
    ts = [_in_layout(s, layout) for s in sets]
    calls = {}
    if fam in ("dw", "conv"):
        pt, pb, pl, pr = spec.padding
        for d in ts:
            if "x" not in d:  # the bias gradient alone
                break
            # dW alone has no filter operand; PyTorch's call wants one for its shape.
            w = d["w"] if "w" in d else torch.zeros(*spec.kernel, spec.C, device=DEVICE,
                                                     dtype=d["x"].dtype)
            wt = w.permute(2, 0, 1).unsqueeze(1) if fam == "dw" else w.permute(3, 2, 0, 1)
            d["wt"] = (wt.contiguous() if layout == "nchw"
                       else wt.contiguous(memory_format=torch.channels_last))
        if pt == pb and pl == pr:
            conv = dict(stride=list(spec.stride), padding=[pt, pl], dilation=list(spec.dilation),
                        groups=spec.C if fam == "dw" else 1)
            if "x" in ts[0]:
                calls["fwd" if fam == "dw" else "conv_fwd"] = (
                    lambda i: F.conv2d(ts[i]["x"], ts[i]["wt"], ts[i].get("b"), **conv))
            cb = torch.ops.aten.convolution_backward
            bw = dict(bias_sizes=None, transposed=False, output_padding=[0, 0], **conv)
            if fam == "dw" and "dy" in ts[0] and "x" in ts[0]:
                for name, mask in (("bwd_data", [True, False, False]),
                                   ("bwd_filter", [False, True, False]),
                                   ("bwd_both", [True, True, False])):
                    calls[name] = (lambda m: lambda i: cb(
                        ts[i]["dy"], ts[i]["x"], ts[i]["wt"], output_mask=m, **bw))(mask)
        if fam == "dw" and "bwd_bias" in ops:
            calls["bwd_bias"] = lambda i: ts[i]["dy"].sum((0, 2, 3))
        return {layout: calls} if calls else {}
    if fam == "pool":
        if spec.padding[0] != spec.padding[1] or spec.padding[2] != spec.padding[3]:
            return {}
        p = (spec.padding[0], spec.padding[2])
        if spec.kind == "max":
            fwd = lambda x: F.max_pool2d(x, spec.window, spec.stride, p, 1, spec.ceil_mode)
        else:
            fwd = lambda x: F.avg_pool2d(x, spec.window, spec.stride, p, spec.ceil_mode,
                                         spec.count_include_pad)
        calls["pool_fwd"] = lambda i: fwd(ts[i]["x"])
        if "pool_bwd" in ops:
            calls["pool_bwd"] = _grad_graphs(ts, fwd)
        return {layout: calls}
    out = {}
    for name, fwd in (("mean", lambda x: x.mean((2, 3), keepdim=True)),
                      ("adaptive_avg_pool2d", lambda x: F.adaptive_avg_pool2d(x, 1))):
        calls = {"gap": (lambda f: lambda i: f(ts[i]["x"]))(fwd)}
        if "gap_bwd" in ops:
            calls["gap_bwd"] = _grad_graphs(ts, fwd)
        out["%s/%s" % (layout, name)] = calls
    return out


def copy_calls(spec, nbuf):
    """(kind, [launch]) of copies that move the forward's bytes: PyTorch's
    memcpy and its elementwise kernel; strided layers also PyTorch's average
    pooling of the input with the stride as window (a strided forward
    reads stride^2 times what it writes, which HBM serves faster than a
    copy: 'read-heavy'). No forward moves those bytes much faster than the
    best of these, launch and ramp included."""
    from .machine import bytes_moved
    words = max(1, bytes_moved(spec, "fwd") // 8)
    src = [torch.zeros(words, dtype=torch.float32, device=DEVICE) for _ in range(nbuf)]
    dst = [torch.empty(words, dtype=torch.float32, device=DEVICE) for _ in range(nbuf)]
    fns = [lambda i: dst[i].copy_(src[i]), lambda i: torch.mul(src[i], 1.0, out=dst[i])]
    strided = list(spec.stride) != [1, 1]
    if strided:
        xs = [torch.zeros(spec.N, spec.C, spec.H, spec.W, dtype=TD[spec.dtype], device=DEVICE).to(
            memory_format=torch.channels_last) for _ in range(nbuf)]
        fns.append(lambda i: F.avg_pool2d(xs[i], spec.stride, spec.stride, ceil_mode=True))
    return ("read-heavy" if strided else "copy"), fns
