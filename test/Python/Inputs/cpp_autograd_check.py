"""The C++ autograd kernels of dwc::depthwise_conv2d, pool2d and
global_avg_pool (registered for AutogradCUDA), built with
-DDWC_TEST_CPU_AUTOGRAD so they also serve CPU tensors here: gradcheck
(with and without the cached filter), opcheck, gradients through
torch.compile, no graph under no_grad; the modules' launch plans (C++
ConvPlan/PoolPlan) against torch.ops, and a converted model deep-copied
and pickled (the plans are not copied, the copy makes its own).

usage: cpp_autograd_check.py BUILD_DIR"""
import os
import sys
import warnings

import torch
import torch.utils._python_dispatch  # noqa: F401
import torch.utils.cpp_extension as cpp

warnings.filterwarnings("ignore")
import dwc_torch.extension  # noqa: E402
import dwc_torch.ops  # noqa: E402

os.makedirs(sys.argv[1], exist_ok=True)
ext = cpp.load(name="dwc_torch_ext_cputest", sources=[dwc_torch.extension.extension_source()],
         build_directory=sys.argv[1], extra_cflags=["-O1", "-DDWC_TEST_CPU_AUTOGRAD"])
# Every kernel counts as found (an address that is never called: CPU tensors
# run the CPU implementation), so the plans choose dwc's ops here.
ext.set_resolver(lambda key: 16)
torch.manual_seed(0)
f64 = dict(dtype=torch.float64, requires_grad=True)
x, w, b = torch.randn(2, 5, 9, 8, **f64), torch.randn(5, 1, 3, 5, **f64), torch.randn(5, **f64)


def f(x, w, b):
    return torch.ops.dwc.depthwise_conv2d(x, w, b, [2, 1], [1, 2, 0, 3], [1, 2])


print("gradcheck", torch.autograd.gradcheck(f, (x, w, b)))
print("node", f(x, w, b).grad_fn.name())
w2 = w.detach().clone()
y = f(x, w2, b)
w2.mul_(2)  # saved for backward, then changed in place: backward must refuse
try:
    y.sum().backward()
    print("inplace after forward: not detected")
except RuntimeError as e:
    print("inplace after forward:", "modified by an inplace operation" in str(e))
y = f(x, w, b)
y.sum().backward(retain_graph=False)
try:
    y.sum().backward()
    print("second backward: allowed")
except RuntimeError as e:
    print("second backward refused:", "second time" in str(e))
x.grad = w.grad = b.grad = None
hwc = dwc_torch.ops.filter_hwc(w)
print("with hwc", torch.autograd.gradcheck(
    lambda x, w, b: torch.ops.dwc.depthwise_conv2d(x, w, b, [1, 1], [1, 1, 2, 2], [1, 1], hwc),
    (x, w, b)))
print(torch.library.opcheck(torch.ops.dwc.depthwise_conv2d.default,
                            (x, w, b, [2, 1], [1, 2, 0, 3], [1, 2])))


class M(torch.nn.Module):
    def forward(self, x, w, b):
        return f(x, w, b).sum()


xf, wf, bf = [t.detach().float().requires_grad_() for t in (x, w, b)]
torch.compile(M(), backend="aot_eager", fullgraph=True)(xf, wf, bf).backward()
g1, wf.grad = wf.grad.clone(), None
M()(xf, wf, bf).backward()
print("compile grads", torch.allclose(g1, wf.grad))
# The helpers that launch kernels directly (dW / dB of the autograd node)
# must see through tracing: torch.compile's AOTAutograd runs the node on
# fake tensors (with CUDA ones, a launch on them fails the compile).
from torch._subclasses.fake_tensor import FakeTensorMode
with FakeTensorMode() as fm:
    fake = torch.empty(2, 3, 4, 5)
print("traced: real", ext.is_traced(xf), "fake", ext.is_traced(fake))
with torch.no_grad():
    print("nograd", f(x, w, b).requires_grad)

pool = lambda x: torch.ops.dwc.pool2d(x, "avg", [3, 3], [2, 2], [1, 1, 1, 1], True, False)
print("pool gradcheck", torch.autograd.gradcheck(pool, (x,)))
print("gap gradcheck", torch.autograd.gradcheck(torch.ops.dwc.global_avg_pool, (x,)))
# GapFunction's backward is dwc::global_avg_pool_backward (dwc's kernel on CUDA
# where one is loaded, here the CPU implementation).
_seen = []


class _Record(torch.utils._python_dispatch.TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        _seen.append(str(func.overloadpacket))
        return func(*args, **(kwargs or {}))


_yg = torch.ops.dwc.global_avg_pool(x)
with _Record():
    _yg.backward(torch.ones_like(_yg))
print("gap node", _yg.grad_fn.name(), "backward op",
      [o for o in _seen if o.startswith("dwc.")])
print(torch.library.opcheck(torch.ops.dwc.pool2d.default,
                            (x, "max", [3, 3], [2, 2], [1, 1, 1, 1], True, False)))

plan = ext.ConvPlan([2, 1], [1, 2, 0, 3], [1, 2], False)
yp, yo = plan(x, w, b), f(x, w, b)
gp = torch.autograd.grad(yp.sum(), (x, w, b))
go = torch.autograd.grad(yo.sum(), (x, w, b))
print("plan == op", torch.equal(yp, yo), all(torch.equal(a, c) for a, c in zip(gp, go)))
pp = ext.PoolPlan("max", [3, 3], [2, 2], [1, 1, 1, 1], True, False)
xs = x.detach().float()  # (f64 pooling has no dwc kernel: the plan leaves it to stock)
print("pool plan == op", torch.equal(pp(xs), torch.ops.dwc.pool2d(
    xs, "max", [3, 3], [2, 2], [1, 1, 1, 1], True, False)), pp(x) is None)
with torch.no_grad():
    print("plan nograd", plan(x, w, b).requires_grad, pp(xs).requires_grad)

import copy  # noqa: E402
import io  # noqa: E402
import dwc_torch  # noqa: E402
dwc_torch.extension._ext = ext  # the modules take their plans from this build
net = torch.nn.Sequential(torch.nn.Conv2d(4, 4, 3, padding=1, groups=4),
                          torch.nn.MaxPool2d(2), torch.nn.AdaptiveAvgPool2d(1))
dwc_torch.convert(net, verbose=False)
xn = torch.randn(2, 4, 9, 9)
net(xn)
print("planned", sorted(type(m.__dict__.get("_plan")).__name__ for m in net))
twin = copy.deepcopy(net)
print("copied plans", [m.__dict__.get("_plan") is not None for m in twin])
buf = io.BytesIO()
torch.save(net, buf)
print("deepcopy", type(twin[0]).__name__, torch.equal(twin(xn), net(xn)),
      "pickled", len(buf.getvalue()) > 0)
# freeze: the converted convolutions' plans take the flag (CUDA graphs of
# inference read the filter cached at capture), a plan made later too;
# unfreeze and revert drop it.
print("frozen layers", dwc_torch.freeze(net), net[0].__dict__["_plan"].frozen)
net[0].__dict__.pop("_plan")
net(xn)
print("new plan frozen", net[0].__dict__["_plan"].frozen, torch.equal(twin(xn), net(xn)))
print("unfrozen", dwc_torch.freeze(net, False), net[0].__dict__["_plan"].frozen)
dwc_torch.freeze(net)
dwc_torch.unconvert(net)
print("reverted", "_dwc_frozen" in net[0].__dict__, dwc_torch.freeze(net))
dwc_torch.convert(net, verbose=False)

# --- per-op routes (convert's per-op choice): the plan's route leaves the
# named ops to PyTorch's kernels. Here both sides are PyTorch's operators,
# so what is checked is which ops run (the profiler's op names), that the
# gradients are right (gradcheck, every route, asymmetric padding, stride,
# dilation) and that the route is set only for the plan's call.
from dwc_torch import converter, modules  # noqa: E402


class Ops(torch.utils._python_dispatch.TorchDispatchMode):
    """The ops below autograd (the kernels' level), in call order."""

    def __init__(self):
        super().__init__()
        self.names = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.names.append(str(func.overloadpacket).split(".")[-1])
        return func(*args, **(kwargs or {}))


def ran(fn):
    """Which side ran the forward, dX and dW of a depthwise layer."""
    with Ops() as mode:
        fn()
    n = mode.names
    return "fwd:%s dx/dw:%s" % (
        "dwc" if "depthwise_conv2d" in n else "torch" if "conv2d" in n or "convolution" in n else "-",
        "+".join(x for x in ("depthwise_conv2d_backward_data", "depthwise_conv2d_backward_filter",
                             "convolution_backward") if x in n).replace(
            "depthwise_conv2d_backward_data", "dwc-dx").replace(
            "depthwise_conv2d_backward_filter", "dwc-dw").replace("convolution_backward",
                                                                   "torch"))


rp = ext.ConvPlan([2, 1], [1, 2, 0, 3], [1, 2], False)
for r in range(8):
    rp.route = r
    if rp(x, w, b) is None:  # every op the call runs left to PyTorch: stock
        print("route", r, "runs stock")
        continue
    ok = torch.autograd.gradcheck(lambda x, w, b: rp(x, w, b), (x, w, b))
    n0 = ext.stats()["routed"]
    how = ran(lambda: rp(x, w, b).sum().backward())
    print("route", r, "gradcheck", ok, "ran:", how, "routed", ext.stats()["routed"] - n0)
x.grad = w.grad = b.grad = None
rp.route = 6
y = rp(x, w, b)
print("route only inside the plan's call:", ran(lambda: f(x, w, b).sum().backward()))
for bad in (8, -1):
    try:
        rp.route = bad
        print("route", bad, "accepted")
    except RuntimeError as e:
        print("route", bad, "refused:", "mask of 1 (forward)" in str(e))
try:
    ext.ConvPlan([1, 1], [0, 0, 0, 0], [1, 1], True).route = 4
    print("dense route accepted")
except RuntimeError as e:
    print("dense route refused:", "depthwise plan" in str(e))

# The module side: set_route / route_of, the plan made afterwards takes it,
# the state_dict is the same, revert forgets it, torch.compile still traces.
conv = torch.nn.Conv2d(6, 6, 5, padding=2, groups=6).double()
ref = copy.deepcopy(conv)
dwc_torch.convert(conv, verbose=False)
modules.set_route(conv, ("bwd_filter",))
xm = torch.randn(3, 6, 11, 10, dtype=torch.float64, requires_grad=True)
print("module route", modules.route_of(conv), "ran:",
      ran(lambda: conv(xm).sum().backward()), "plan", conv._plan.route)
gm = [t.grad.clone() for t in (xm, conv.weight, conv.bias)]
xm.grad = None
ref(xm).sum().backward()
print("module grads == nn.Conv2d:", all(torch.allclose(a, c, rtol=1e-10, atol=1e-12)
                                        for a, c in zip(gm, (xm.grad, ref.weight.grad,
                                                              ref.bias.grad))))
print("state_dict keys equal:", list(conv.state_dict()) == list(ref.state_dict()))
cc = torch.compile(conv, backend="aot_eager", fullgraph=True)
print("compile with a route:", torch.allclose(cc(xm), ref(xm)))
# Under torch.compile the route holds too: the traced backward runs
# PyTorch's convolution_backward for dW and dwc's op for dX.
from torch._dynamo.backends.common import aot_autograd  # noqa: E402
traced_ops = []


def keep_ops(gm, example):
    traced_ops.append(sorted({str(n.target) for n in gm.graph.nodes
                              if "conv" in str(n.target)}))
    return gm


torch._dynamo.reset()
cr = torch.compile(conv, backend=aot_autograd(fw_compiler=keep_ops, bw_compiler=keep_ops),
                   fullgraph=True)
xm.grad, conv.weight.grad, conv.bias.grad = None, None, None
cr(xm).sum().backward()
gc = [t.grad.clone() for t in (xm, conv.weight, conv.bias)]
print("compiled route graphs:", traced_ops)
print("compiled route grads == eager:", all(torch.allclose(a, c, rtol=1e-10, atol=1e-12)
                                             for a, c in zip(gc, gm)))
for bad in (("bwd_weight",), ("fwd",)):
    try:
        modules.set_route(conv if bad[0] != "fwd" else torch.nn.MaxPool2d(2), bad)
        print("set_route", bad, "accepted")
    except ValueError as e:
        print("set_route", bad, "refused:", str(e)[:40])
modules.revert(conv)
print("reverted:", type(conv).__name__, modules.route_of(conv))

# convert's choice from per-op times: each op on the faster side, PyTorch's
# single dX + dW call where it beats both; inference never routes.
T = {"fwd": (1.0, 2.0), "bwd_data": (1.0, 3.0), "bwd_filter": (5.0, 2.0), "bwd_both": (None, 4.5)}
print("choose", converter.choose_route(T, True))
T2 = dict(T, fwd=(3.0, 2.0), bwd_data=(3.0, 2.0), bwd_both=(None, 3.5))
print("choose", converter.choose_route(T2, True))
print("choose infer", converter.choose_route(T2, False))
