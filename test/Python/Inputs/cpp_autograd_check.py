"""The C++ autograd kernel of dwc::depthwise_conv2d (registered for
AutogradCUDA), built with -DDWC_TEST_CPU_AUTOGRAD so it also serves CPU
tensors here: gradcheck (with and without the cached filter), opcheck,
gradients through torch.compile, no graph under no_grad.

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
cpp.load(name="dwc_torch_ext_cputest", sources=[dwc_torch.extension.extension_source()],
         build_directory=sys.argv[1], extra_cflags=["-O1", "-DDWC_TEST_CPU_AUTOGRAD"])
torch.manual_seed(0)
f64 = dict(dtype=torch.float64, requires_grad=True)
x, w, b = torch.randn(2, 5, 9, 8, **f64), torch.randn(5, 1, 3, 5, **f64), torch.randn(5, **f64)


def f(x, w, b):
    return torch.ops.dwc.depthwise_conv2d(x, w, b, [2, 1], [1, 2, 0, 3], [1, 2])


print("gradcheck", torch.autograd.gradcheck(f, (x, w, b)))
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
