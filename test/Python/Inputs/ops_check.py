"""dwc:: custom ops on the CPU: registration and schemas, opcheck (schema,
fake kernels, autograd registration, AOT dispatch), gradcheck against
PyTorch's autograd in float64 (odd shapes), autocast (bf16 on the CPU),
torch.export / torch.compile seeing the ops, and the C++ extension built
against this torch, loaded, with its counters (no GPU needed)."""
import sys
import warnings

import torch
from torch.library import opcheck

warnings.filterwarnings("ignore")
import dwc_torch.ops  # noqa: E402,F401

d = torch.ops.dwc
for name in ("depthwise_conv2d", "depthwise_conv2d_backward_data",
             "depthwise_conv2d_backward_filter", "pool2d", "pool2d_backward",
             "global_avg_pool", "global_avg_pool_backward", "conv2d"):
    print("schema", getattr(d, name).default._schema)

torch.manual_seed(0)
f64 = dict(dtype=torch.float64, requires_grad=True)


def check(label, op, args, grad_inputs=None):
    r = opcheck(op, args)
    ok = all(v == "SUCCESS" for v in r.values())
    gc = "-"
    if grad_inputs is not None:
        def fn(*ts):
            a = list(args)
            for i, t in zip(grad_inputs, ts):
                a[i] = t
            return op(*a)
        gc = torch.autograd.gradcheck(fn, tuple(args[i] for i in grad_inputs))
    print("%-28s opcheck %s gradcheck %s" % (label, "ok" if ok else r, gc))


x = torch.randn(2, 6, 11, 9, **f64)
w = torch.randn(6, 1, 3, 5, **f64)
b = torch.randn(6, **f64)
check("dw asym-pad stride dil", d.depthwise_conv2d.default,
      [x, w, b, [2, 1], [1, 2, 0, 3], [1, 2]], [0, 1, 2])
check("dw 7x7 nobias", d.depthwise_conv2d.default,
      [x, torch.randn(6, 1, 7, 7, **f64), None, [1, 1], [3, 3, 3, 3], [1, 1]], [0, 1])
gy = torch.randn(2, 6, 11, 9, dtype=torch.float64)
check("dw backward_data", d.depthwise_conv2d_backward_data.default,
      [gy, w.detach(), [2, 6, 11, 9], [1, 1], [1, 1, 2, 2], [1, 1]])
check("dw backward_filter", d.depthwise_conv2d_backward_filter.default,
      [x.detach(), gy, [3, 5], [1, 1], [1, 1, 2, 2], [1, 1]])
xp = torch.randn(2, 4, 9, 7, **f64)
check("maxpool ceil", d.pool2d.default, [xp, "max", [3, 3], [2, 2], [1, 1, 1, 1], True, False], [0])
check("avgpool cip", d.pool2d.default, [xp, "avg", [3, 2], [2, 1], [1, 1, 0, 0], False, True], [0])
check("avgpool ceil nocip", d.pool2d.default, [xp, "avg", [2, 2], [2, 2], [0, 0, 0, 0], True, False], [0])
check("global_avg_pool", d.global_avg_pool.default, [xp], [0])
check("global_avg_pool_backward", d.global_avg_pool_backward.default,
      [torch.randn(2, 4, 1, 1, dtype=torch.float64), [2, 4, 9, 7]])


def ops_run_by(fn):
    """The aten/dwc ops a call runs (TorchDispatchMode)."""
    from torch.utils._python_dispatch import TorchDispatchMode
    seen = []

    class Record(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(str(func.overloadpacket))
            return func(*args, **(kwargs or {}))
    with Record():
        fn()
    return seen


xg = xp.detach().requires_grad_(True)
yg = d.global_avg_pool(xg)
gy_gap = torch.randn(2, 4, 1, 1, dtype=torch.float64)
got = []
ran = ops_run_by(lambda: got.extend(torch.autograd.grad(yg, xg, gy_gap)))
print("gap backward runs dwc.global_avg_pool_backward:", "dwc.global_avg_pool_backward" in ran,
      "grad == dy / (H*W):", torch.allclose(got[0], gy_gap.expand(2, 4, 9, 7) / 63),
      "channels_last:", got[0].is_contiguous(memory_format=torch.channels_last))
check("dense conv2d", d.conv2d.default,
      [xp, torch.randn(5, 4, 3, 3, **f64), torch.randn(5, **f64), [1, 2], [1, 0, 2, 1], [1, 1]],
      [0, 1, 2])

# The CPU implementation is PyTorch's convolution (reference values).
xf, wf = x.detach().float(), w.detach().float()
ref = torch.nn.functional.conv2d(torch.nn.functional.pad(xf, (0, 3, 1, 2)), wf, None, (2, 1), 0,
                                 (1, 2), 6)
got = d.depthwise_conv2d(xf, wf, None, [2, 1], [1, 2, 0, 3], [1, 2])
xcl = xf.contiguous(memory_format=torch.channels_last)
gcl = d.depthwise_conv2d(xcl, wf, None, [1, 1], [1, 1, 1, 1], [1, 1])
print("cpu == torch:", torch.equal(got, ref), "input's format:",
      got.is_contiguous(), gcl.is_contiguous(memory_format=torch.channels_last))

# autocast: inputs cast as aten::conv2d would be (bf16 on the CPU), f32 grads.
wa = torch.randn(6, 1, 3, 3, requires_grad=True)
with torch.autocast("cpu", dtype=torch.bfloat16):
    ya = d.depthwise_conv2d(xf, wa, None, [1, 1], [1, 1, 1, 1], [1, 1])
    yr = torch.nn.functional.conv2d(xf, wa, None, 1, 1, 1, 6)
ya.float().sum().backward()
print("autocast dtype:", ya.dtype, "as conv2d:", yr.dtype, "grad dtype:", wa.grad.dtype)


class M(torch.nn.Module):
    def forward(self, x, w):
        y = d.depthwise_conv2d(x, w, None, [1, 1], [1, 1, 1, 1], [1, 1])
        return d.global_avg_pool(d.pool2d(y, "max", [2, 2], [2, 2], [0, 0, 0, 0], False, False))


ep = torch.export.export(M(), (xf, torch.randn(6, 1, 3, 3)))
print("export:", sorted({str(n.target) for n in ep.graph.nodes if "dwc" in str(n.target)}))
cm = torch.compile(M(), backend="aot_eager", fullgraph=True)
wc = torch.randn(6, 1, 3, 3)
print("compile fullgraph matches:", torch.allclose(cm(xf, wc), M()(xf, wc)))

# The traced backward of global_avg_pool is dwc::global_avg_pool_backward.
from torch._functorch.aot_autograd import aot_function  # noqa: E402
graphs = []


def keep(gm, example):
    graphs.append(sorted({str(n.target) for n in gm.graph.nodes if "dwc" in str(n.target)}))
    return gm


xg2 = xf.detach().requires_grad_(True)
aot_function(lambda t: d.global_avg_pool(t).sum(), fw_compiler=keep, bw_compiler=keep)(
    xg2).backward()
print("traced gap graphs:", graphs, "grad:",
      torch.allclose(xg2.grad, torch.full_like(xf, 1.0 / (xf.shape[2] * xf.shape[3]))))

if "--extension" in sys.argv:
    from dwc_torch.extension import load_extension
    ext = load_extension()
    print("extension:", sorted(k for k in ext.stats()))
    print("bench-only entry points:", [n for n in ("probe_hot_path", "set_lean_autocast",
                                                   "set_light_autograd_node") if hasattr(ext, n)])
    # A converted layer on CPU tensors: the stock module's own call.
    import dwc_torch
    layer = dwc_torch.convert(torch.nn.Conv2d(6, 6, 3, groups=6), verbose=False)
    print("converted layer on the CPU:", layer(torch.randn(2, 6, 9, 9, requires_grad=True)).grad_fn.name())

    # A converted layer as torch.compile traces it (fake CUDA tensors, CUDA
    # autocast in bf16): the filter re-layout is part of the trace (no
    # re-layout inside the op), the op takes autocast's f32 master weight,
    # and its backward's dW is dwc's op, not PyTorch's convolution_backward.
    import dwc_torch.modules as mods
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.utils._python_dispatch import TorchDispatchMode

    class Log(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.calls = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            self.calls.append((str(func), args))
            return func(*args, **(kwargs or {}))

    compiling, mods._compiling = mods._compiling, lambda: True
    torch.set_autocast_enabled("cuda", True)
    torch.set_autocast_dtype("cuda", torch.bfloat16)
    try:
        with FakeTensorMode():
            conv = mods.DepthwiseConv2d(8, kernel_size=3, padding=1, device="cuda")
            xc = torch.randn(2, 8, 6, 6, device="cuda", requires_grad=True)
            with Log() as fwd:
                yc = conv(xc)
            torch.set_autocast_enabled("cuda", False)
            # The node itself (the engine needs a CUDA device for CUDA tensors).
            with Log() as bwd:
                grads = yc.grad_fn(torch.ones_like(yc))
    finally:
        mods._compiling = compiling
        torch.set_autocast_enabled("cuda", False)
    dw_call = [a for f, a in fwd.calls if f == "dwc.depthwise_conv2d.default"]
    print("traced layer: output", yc.dtype, "weight", dw_call[0][1].dtype,
          "filter", dw_call[0][6].dtype, tuple(dw_call[0][6].shape))
    print("traced backward:", sorted({f for f, _ in bwd.calls if "conv" in f}),
          "node", yc.grad_fn.name(), "dW", grads[1].dtype)
