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
import torch.utils.cpp_extension as cpp

warnings.filterwarnings("ignore")
import dwc_torch.extension  # noqa: E402
import dwc_torch.ops  # noqa: E402

os.makedirs(sys.argv[1], exist_ok=True)
ext = cpp.load(name="dwc_torch_ext_cputest", sources=[dwc_torch.extension.extension_source()],
         build_directory=sys.argv[1], extra_cflags=["-O1", "-DDWC_TEST_CPU_AUTOGRAD"])
torch.manual_seed(0)
f64 = dict(dtype=torch.float64, requires_grad=True)
x, w, b = torch.randn(2, 5, 9, 8, **f64), torch.randn(5, 1, 3, 5, **f64), torch.randn(5, **f64)


def f(x, w, b):
    return torch.ops.dwc.depthwise_conv2d(x, w, b, [2, 1], [1, 2, 0, 3], [1, 2])


print("gradcheck", torch.autograd.gradcheck(f, (x, w, b)))
print("node", f(x, w, b).grad_fn.name())
ext.set_light_autograd_node(False)  # the earlier autograd::Function
print("function gradcheck", torch.autograd.gradcheck(f, (x, w, b)), f(x, w, b).grad_fn.name())
ext.set_light_autograd_node(True)
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
with torch.no_grad():
    print("nograd", f(x, w, b).requires_grad)

pool = lambda x: torch.ops.dwc.pool2d(x, "avg", [3, 3], [2, 2], [1, 1, 1, 1], True, False)
print("pool gradcheck", torch.autograd.gradcheck(pool, (x,)))
print("gap gradcheck", torch.autograd.gradcheck(torch.ops.dwc.global_avg_pool, (x,)))
print(torch.library.opcheck(torch.ops.dwc.pool2d.default,
                            (x, "max", [3, 3], [2, 2], [1, 1, 1, 1], True, False)))

plan = ext.ConvPlan([2, 1], [1, 2, 0, 3], [1, 2], False)
yp, yo = plan(x, w, b), f(x, w, b)
gp = torch.autograd.grad(yp.sum(), (x, w, b))
go = torch.autograd.grad(yo.sum(), (x, w, b))
print("plan == op", torch.equal(yp, yo), all(torch.equal(a, c) for a, c in zip(gp, go)))
pp = ext.PoolPlan("max", [3, 3], [2, 2], [1, 1, 1, 1], True, False)
print("pool plan == op", torch.equal(pp(x), torch.ops.dwc.pool2d(
    x, "max", [3, 3], [2, 2], [1, 1, 1, 1], True, False)))
with torch.no_grad():
    print("plan nograd", plan(x, w, b).requires_grad, pp(x).requires_grad)

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
