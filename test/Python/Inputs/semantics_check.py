"""PyTorch's semantics for converted layers, on the CPU (no GPU, no C++
extension): outputs in the memory format stock PyTorch gives (the CIFAR
tutorial network's .view() after a pool), the ops registered by `import
dwc_torch`, a convert that fails leaving the model exactly as it was with
an error that says what to do, example_inputs as a tensor, tuple, list or
dict, the chip of a device (mocked capability) and kernel directories of
another chip reported by load_kernels and convert, the choices of a tuned
layer per shape class and the first-sight measurement (a fake timer).

usage: semantics_check.py"""
import os
import subprocess
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

import dwc_torch
from dwc_torch import converter, kernels, manifest
from dwc_torch import modules as M

torch.manual_seed(0)
CL = torch.channels_last

# --- registration on import (a fresh process) -----------------------------
r = subprocess.run([sys.executable, "-c", "import torch, dwc_torch; "
                    "print(torch.ops.dwc.depthwise_conv2d.default._schema.name, "
                    "torch.ops.dwc.global_avg_pool.default._schema.name)"],
                   capture_output=True, text=True)
print("registered on import:", r.stdout.strip() or r.stderr.strip()[-300:])


# --- memory format ---------------------------------------------------------
class CifarNet(nn.Module):
    """The PyTorch CIFAR-10 tutorial's network, with a depthwise layer."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.dw = nn.Conv2d(6, 6, 3, padding=1, groups=6)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.dw(self.conv1(x))))
        x = self.pool(F.relu(self.conv2(x)))
        return self.fc1(x.view(-1, 16 * 5 * 5))


net = CifarNet()
stock = CifarNet()
stock.load_state_dict(net.state_dict())
dwc_torch.convert(net, verbose=False)
x = torch.randn(4, 3, 32, 32)
print("tutorial net converted:", sorted(n for n, _ in net.dwc_report.converted),
      "view works, equal:", torch.equal(net(x), stock(x)))


def layer_formats(make, shape):
    """(converted output strides == stock's) for NCHW and channels_last inputs."""
    out = []
    for fmt in (torch.contiguous_format, CL):
        m, ref = make(), None
        ref = make()
        ref.load_state_dict(m.state_dict())
        dwc_torch.convert(m, verbose=False)
        xi = torch.randn(shape).contiguous(memory_format=fmt)
        out.append(m(xi).stride() == ref(xi).stride())
    return out


for label, make in [("depthwise", lambda: nn.Conv2d(8, 8, 3, padding=1, groups=8)),
                    ("maxpool", lambda: nn.MaxPool2d(3, 2, 1)),
                    ("avgpool", lambda: nn.AvgPool2d(2, ceil_mode=True)),
                    ("gap", lambda: nn.AdaptiveAvgPool2d(1))]:
    print("format as stock %-9s" % label, layer_formats(make, (2, 8, 9, 7)))

# The ops themselves (their CPU implementation and fake kernels, which
# torch.compile and torch.export see): the input's suggested format.
from torch._subclasses.fake_tensor import FakeTensorMode  # noqa: E402
d = torch.ops.dwc
w = torch.randn(8, 1, 3, 3)
calls = {"depthwise_conv2d": lambda t: d.depthwise_conv2d(t, w, None, [1, 1], [1, 1, 1, 1],
                                                          [1, 1]),
         "pool2d": lambda t: d.pool2d(t, "max", [3, 3], [2, 2], [1, 1, 1, 1], False, False),
         "global_avg_pool": lambda t: d.global_avg_pool(t)}
for name, call in calls.items():
    got = []
    for fmt in (torch.contiguous_format, CL):
        xi = torch.randn(2, 8, 9, 7).contiguous(memory_format=fmt)
        real = call(xi)
        with FakeTensorMode(allow_non_fake_inputs=True) as mode:
            fake = call(mode.from_tensor(xi))
        got.append(real.stride() == fake.stride() and
                   real.is_contiguous(memory_format=fmt))
    print("op %-17s real == fake, input's format:" % name, got)


# --- transactional convert -------------------------------------------------
def snapshot(model):
    return ([(type(m), dict(m.__dict__), m.training) for m in model.modules()],
            [b.clone() for b in model.buffers()], [p.grad for p in model.parameters()])


def unchanged(model, before):
    mods, bufs, grads = snapshot(model)
    return (mods == before[0] and all(torch.equal(a, b) for a, b in zip(bufs, before[1])) and
            all(a is b for a, b in zip(grads, before[2])))


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tiny_models import TinyNet  # noqa: E402
model = TinyNet().train()
model(torch.randn(2, 3, 17, 19)).sum().backward()  # grads and BN-free buffers
before = snapshot(model)


def fails_in_tuning(*a, **k):
    for m in model.modules():  # half converted, buffers and grads touched
        if type(m) is nn.MaxPool2d:
            M.adopt(m, M.MaxPool2d)
    model.zero_grad(set_to_none=True)
    raise RuntimeError("CUDA error: an illegal memory access was encountered")


saved = converter._tune_and_verify
converter._tune_and_verify = fails_in_tuning
try:
    dwc_torch.convert(model, example_inputs=torch.randn(2, 3, 17, 19), tune=True,
                      verbose=False)
    print("failed convert: no error")
except converter.ConvertError as e:
    print("failed convert:", str(e)[:60], "...", "What to do:" in str(e),
          "cause kept:", type(e.__cause__).__name__)
print("model unchanged:", unchanged(model, before), "no report:",
      "dwc_report" not in model.__dict__)


def extension_fails(*a, **k):
    raise OSError("Error building extension 'dwc_torch_ext': g++: not found")


converter._tune_and_verify = extension_fails
try:
    dwc_torch.convert(model, example_inputs=torch.randn(2, 3, 17, 19), tune=True,
                      verbose=False)
except converter.ConvertError as e:
    print("extension failure says:", "install a C++ compiler" in str(e),
          "DWC_TORCH_EXTENSION=0" in str(e))
converter._tune_and_verify = saved
print("model unchanged:", unchanged(model, before))

# --- example_inputs as a tensor, tuple, list or dict ------------------------


class Keyword(nn.Module):
    def __init__(self):
        super().__init__()
        self.dw = nn.Conv2d(4, 4, 3, padding=1, groups=4)
        self.pool = nn.MaxPool2d(2)

    def forward(self, image, scale=1.0):
        return self.pool(self.dw(image)) * scale


xk = torch.randn(2, 4, 8, 8)
for label, ex in [("tensor", xk), ("tuple", (xk, 2.0)), ("list", [xk]),
                  ("dict", {"image": xk, "scale": 0.5})]:
    m = Keyword().eval()
    dwc_torch.convert(m, example_inputs=ex, tune=True, margin=-1e6, verbose=False)
    print("example_inputs %-6s timed layers %d" % (label, len(m.dwc_report.timings)))
try:
    dwc_torch.convert(Keyword(), example_inputs=3.0, verbose=False)
except TypeError as e:
    print("bad example_inputs:", str(e)[:70])

# --- chips -----------------------------------------------------------------
print("device chips:", [kernels.device_chip(c) for c in [(8, 0), (8, 6), (8, 9), (9, 0),
                                                         (10, 0)]])
os.environ.pop("DWC_CHIP", None)
real = kernels._device_capability
kernels._device_capability = lambda: (9, 0)
print("current chip on a Hopper:", kernels.current_chip())
kernels._device_capability = lambda: None
print("current chip without a GPU:", kernels.current_chip())
kernels._device_capability = real
m2 = {"format": manifest.FORMAT, "chips": {"sm_90a": {"specs": []}, "sm_80": {"specs": []}}}
print("chip_for:", {c: manifest.chip_for(m2, c) for c in ("sm_90", "sm_90a", "sm_80", "sm_86")})
v1 = {"format": "dwc_torch-kernels-1", "chip": "sm_89", "specs": [{"key": "k", "ops": {}}]}
print("first format as chips:", manifest.chips(manifest.upgraded(v1)),
      manifest.specs(manifest.upgraded(v1))[0]["key"])

# A directory of another chip's kernels: load_kernels' answer and convert's report.
kdir = os.path.join(os.environ["DWC_TEST_WORK"], "k80")
os.makedirs(kdir, exist_ok=True)
manifest.write(kdir, "sm_80", {"specs": []}, "test")
got = dwc_torch.load_kernels(kdir, chip="sm_90a")
print("load_kernels of sm_80 on sm_90a:", int(got), got.chip, got.chips, got.skipped)
m = dwc_torch.convert(Keyword(), verbose=False)
print("report:", [n for n in m.dwc_report.notes if "not loaded" in n])

# --- choices per shape class -------------------------------------------------
xm = torch.empty(64, 32, 56, 56, device="meta").contiguous(memory_format=CL)
ch = converter.tuned_choices(xm, torch.float16, ("bwd_filter",), True, M.DepthwiseConv2d)
print("tuned training choices:", sorted(ch.items()))
ch = converter.tuned_choices(xm, torch.float16, ("fwd",), True, M.DepthwiseConv2d)
print("forward routed, no grad:", ch[(1, 64, 32, 56, 56, 1, 0)])
print("tuned inference choices:", converter.tuned_choices(
    torch.empty(8, 16, 7, 7, device="meta"), torch.float32, (), False, M.MaxPool2d))

# The first-sight measurement (its timer faked): dwc where faster by the
# margin, the parameters' gradients untouched.
conv = M.adopt(nn.Conv2d(4, 4, 3, padding=1, groups=4), M.DepthwiseConv2d)
xs = torch.randn(2, 4, 6, 6)
costs = iter([1.0, 2.0, 1.0, 1.01, 2.0, 1.0])
ran = []


def fake_timer(fn):
    fn()
    ran.append(conv.weight.grad)
    return next(costs)


print("first sight:", [converter.first_sight_choice(conv, xs, (0, 2, 4, 6, 6, 0, g),
                                                     timer=fake_timer) for g in (3, 0, 2)],
      "grads untouched:", all(g is None for g in ran))
M.set_choices(conv, ch, measure_others=True)
print("set_choices kept:", M.choices_of(conv) == ch, "reverted drops them:",
      M.choices_of(M.revert(conv)) == {})
