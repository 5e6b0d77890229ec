"""A converted layer meeting a shape class it has no kernel for runs exactly
what the stock layer runs (the same ops below autograd, the same autograd
node, output strides and values); the per-shape-class choice of the plans:
decided per class, never taken from another (a tuned class's choice, a
decider asked once per new class, forward-only kernels not used where
autograd records). Uses the test build of the C++ extension
(-DDWC_TEST_CPU_AUTOGRAD: CPU tensors take the CUDA path's logic, the
kernels it is told of are never launched).

usage: fallback_check.py BUILD_DIR (the build of cpp_autograd_check.py)"""
import copy
import sys
import warnings

import torch
import torch.nn as nn
import torch.utils.cpp_extension as cpp
from torch.utils._python_dispatch import TorchDispatchMode

warnings.filterwarnings("ignore")
import dwc_torch  # noqa: E402
import dwc_torch.extension  # noqa: E402
from dwc_torch import modules as M  # noqa: E402

ext = cpp.load(name="dwc_torch_ext_cputest", sources=[dwc_torch.extension.extension_source()],
               build_directory=sys.argv[1], extra_cflags=["-O1", "-DDWC_TEST_CPU_AUTOGRAD"])
dwc_torch.extension._ext = ext
CL = torch.channels_last
HAVE = {(2, 8, 9, 9)}           # shapes with every kernel
FWD_ONLY = {(4, 8, 9, 9)}       # shapes with forward kernels only (an inference AOT)
FORWARD_OPS = {0, 3, 5}         # registry ops: depthwise, pool, global-pool forward


def resolver(key):
    shape = tuple(key[2:6])
    return 16 if shape in HAVE or (shape in FWD_ONLY and key[0] in FORWARD_OPS) else None


ext.set_resolver(resolver)
torch.manual_seed(0)


class Ops(TorchDispatchMode):
    """The ops below autograd, in call order."""

    def __init__(self):
        super().__init__()
        self.names = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.names.append(str(func.overloadpacket))
        return func(*args, **(kwargs or {}))


def run(layer, x, grad):
    """(output, grads, autograd node, ops run) of layer(x), with backward."""
    xi = x.detach().clone().requires_grad_(grad)
    for p in layer.parameters():
        p.grad = None
    with Ops() as ops, torch.set_grad_enabled(grad):
        y = layer(xi)
        if grad:
            y.backward(torch.ones_like(y))
    grads = [xi.grad] + [p.grad for p in layer.parameters()] if grad else []
    return y, grads, y.grad_fn.name() if y.grad_fn else None, ops.names


def compare(label, make, shape, fmt, grad=True):
    stock = make()
    conv = copy.deepcopy(stock)
    dwc_torch.convert(conv, verbose=False)
    x = torch.randn(shape).contiguous(memory_format=fmt)
    y, g, node, ops = run(conv, x, grad)
    ys, gs, nodes, opss = run(stock, x, grad)
    same = (node == nodes and ops == opss and torch.equal(y, ys) and y.stride() == ys.stride()
            and all(torch.equal(a, b) for a, b in zip(g, gs)))
    print("%-10s %-13s %-8s %s: %s%s" % (
        label, "x".join(map(str, shape)), "cl" if fmt == CL else "nchw",
        "train" if grad else "infer", "stock" if same else "dwc",
        "" if same else " (%s)" % node))
    return conv


dw = lambda: nn.Conv2d(8, 8, 3, padding=1, groups=8)  # noqa: E731
for shape in [(2, 8, 9, 9), (3, 8, 9, 9), (2, 8, 9, 10)]:
    for fmt in (torch.contiguous_format, CL):
        compare("depthwise", dw, shape, fmt)
compare("depthwise", dw, (4, 8, 9, 9), torch.contiguous_format, grad=False)
compare("depthwise", dw, (4, 8, 9, 9), torch.contiguous_format, grad=True)
compare("same-pad", lambda: nn.Conv2d(8, 8, 4, padding="same", groups=8), (3, 8, 9, 9), CL)
for label, make in [("maxpool", lambda: nn.MaxPool2d(3, 2, 1)),
                    ("avgpool", lambda: nn.AvgPool2d(3, 2, 1)),
                    ("gap", lambda: nn.AdaptiveAvgPool2d(1))]:
    for shape in [(2, 8, 9, 9), (3, 8, 9, 9)]:
        compare(label, make, shape, CL)
    compare(label, make, (4, 8, 9, 9), CL, grad=False)

# The choices a plan made, per class: [dtype, N, C, H, W, channels_last, grads].
conv = compare("depthwise", dw, (2, 8, 9, 9), CL)
run(conv, torch.randn(3, 8, 9, 9), True)
print("choices:", sorted(M.choices_of(conv).items()))
x = torch.randn(2, 8, 9, 9).contiguous(memory_format=CL).requires_grad_()
print("shape class C++ == Python:", tuple(conv._plan.shape_class(x, conv.weight, conv.bias)) ==
      M.shape_class(x, torch.float32, 3))

# A tuned layer: its timed class as tuned (here: stock), the decider asked
# once for each other class it meets, its answer kept.
asked = []


def decider(x, cls):
    asked.append(tuple(cls))
    return 0


conv = M.adopt(dw(), M.DepthwiseConv2d)
tuned = M.shape_class(torch.empty(2, 8, 9, 9), torch.float32, 2)
M.set_choices(conv, {tuned: M.STOCK})
conv(torch.randn(2, 8, 9, 9))  # makes the plan
conv._plan.decider = decider
for n, xgrad in ((2, False), (2, True), (2, True), (3, True)):
    y = conv(torch.randn(n, 8, 9, 9, requires_grad=xgrad))
    print("tuned layer at N=%d, dX %s:" % (n, xgrad), y.grad_fn.name())
print("decider asked for:", asked)
print("a decider answer out of range refused:", end=" ")
conv._plan.decider = lambda x, cls: 9
try:
    conv(torch.randn(2, 8, 9, 9).contiguous(memory_format=CL))
    print(False)
except RuntimeError as e:
    print("returns -1 (stock) or a route" in str(e))


def failing(x, cls):
    raise RuntimeError("no timer here")


conv._plan.decider = failing
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    y = conv(torch.randn(2, 8, 9, 9, requires_grad=True).contiguous(memory_format=CL))
print("a failed measurement:", y.grad_fn.name(),
      any("first-sight measurement failed" in str(w.message) for w in caught))
