"""dwc_torch's fusion of depthwise layers with their BatchNorm/activation
neighbours, on the CPU (PyTorch's operators run the fused arithmetic):
patterns found on torchvision-style (Sequential) and timm-style
(BatchNormAct) blocks and refused where the dataflow forbids, outputs against
the unfused model and float64, eval-only behaviour, refolding after an
in-place update, state_dict unchanged, unconvert, and the fused kernels'
specs (keys, registry keys, MLIR)."""
import sys

import torch
import torch.nn as nn

import dwc_torch
from dwc_torch import fusion
from dwc_torch.spec import FusedSpec, LayerSpec, spec_from_dict, spec_from_key

torch.manual_seed(0)


class BatchNormAct2d(nn.BatchNorm2d):
    """timm's form: BatchNorm, then drop and act modules."""

    def __init__(self, c, act):
        super().__init__(c)
        self.drop, self.act = nn.Identity(), act

    def forward(self, x):
        return self.act(self.drop(super().forward(x)))


def cna(cin, cout, k, s=1, groups=1, act=nn.ReLU6):
    return nn.Sequential(nn.Conv2d(cin, cout, k, s, k // 2, groups=groups, bias=False),
                         nn.BatchNorm2d(cout), act())


class Inverted(nn.Module):  # torchvision MobileNetV2
    def __init__(self, c, e, s):
        super().__init__()
        self.expand = cna(c, c * e, 1)
        self.dw = cna(c * e, c * e, 3, s, groups=c * e)
        self.project = nn.Sequential(nn.Conv2d(c * e, c, 1, bias=False), nn.BatchNorm2d(c))
        self.res = s == 1

    def forward(self, x):
        y = self.project(self.dw(self.expand(x)))
        return x + y if self.res else y


class TimmBlock(nn.Module):  # timm InvertedResidual with SiLU / GELU
    def __init__(self, c, act):
        super().__init__()
        self.conv_pw = nn.Conv2d(c, 4 * c, 1, bias=True)
        self.bn1 = BatchNormAct2d(4 * c, act())
        self.conv_dw = nn.Conv2d(4 * c, 4 * c, 5, 1, 2, groups=4 * c, bias=False)
        self.bn2 = BatchNormAct2d(4 * c, act())
        self.conv_pwl = nn.Conv2d(4 * c, c, 1)

    def forward(self, x):
        return x + self.conv_pwl(self.bn2(self.conv_dw(self.bn1(self.conv_pw(x)))))


class Tapped(nn.Module):  # the dw output is also used elsewhere: no fusion
    def __init__(self, c):
        super().__init__()
        self.dw, self.bn, self.act = nn.Conv2d(c, c, 3, 1, 1, groups=c), nn.BatchNorm2d(c), \
            nn.Hardswish()

    def forward(self, x):
        y = self.dw(x)
        return self.act(self.bn(y)) + y


class Shared(nn.Module):  # one activation module called twice: not absorbed
    def __init__(self, c):
        super().__init__()
        self.dw, self.bn, self.act = nn.Conv2d(c, c, 3, 1, 1, groups=c), nn.BatchNorm2d(c), \
            nn.ReLU()

    def forward(self, x):
        return self.act(self.act(self.bn(self.dw(x))))


def net():
    return nn.Sequential(cna(3, 8, 3, 2), Inverted(8, 3, 1), Inverted(8, 2, 2),
                         TimmBlock(8, nn.SiLU), TimmBlock(8, lambda: nn.GELU("tanh")),
                         Tapped(8), Shared(8), nn.AdaptiveAvgPool2d(1))


def randomise(model):
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 2.0)
            m.weight.data.uniform_(0.5, 1.5)
            m.bias.data.uniform_(-0.5, 0.5)


def rel(a, b):
    return ((a.double() - b.double()).norm() / b.double().norm()).item()


model = net().eval()
randomise(model)
patterns = fusion.find_patterns(model)
print("patterns:", len(patterns))
for p in patterns:
    print("  %s: %s after, prologue %s %s" % (p.dw, p.act_name or "-", p.in_conv,
                                              p.in_act_name or "-"))
x = torch.randn(2, 3, 19, 17)
keys = list(model.state_dict())
with torch.no_grad():
    ref64 = net().double().eval()
    ref64.load_state_dict(model.state_dict())
    ref64 = ref64(x.double())
    stock = model(x)
    dwc_torch.convert(model, example_inputs=x, verbose=False)
    fused = model(x)
print("report fused:", len(model.dwc_report.fused))
print("fused vs stock %.1e, vs float64 %.1e (stock %.1e)" % (
    rel(fused, stock), rel(fused, ref64), rel(stock, ref64)))
print("fused within 1e-5 of stock:", rel(fused, stock) < 1e-5)
print("state_dict keys unchanged:", list(model.state_dict()) == keys)
model.train()
y_train = model(x)
unfused = net().train()
unfused.load_state_dict(model.state_dict())
print("train mode runs apart:", torch.allclose(y_train, unfused(x), atol=1e-6))
model.eval()
with torch.no_grad():
    model[1].dw[0].weight.mul_(2.0)  # in place: the fold follows
    again = model(x)
    check = net().eval()
    check.load_state_dict(model.state_dict())
    print("refolded after an in-place update:", rel(again, check(x)) < 1e-5)
dwc_torch.unconvert(model)
print("unconvert removes the fusion:",
      not any("_dwc_fused" in m.__dict__ or "forward" in m.__dict__ for m in model.modules()))

layer = LayerSpec.make(64, 144, 56, 56, 3, 1, 1, dtype="f16", bias=True)
spec = FusedSpec.make(layer, "relu6", "relu6", True)
print("key:", spec.key)
print("registry round trip:", spec_from_key(spec.registry_key("fused_fwd"))[1] == spec)
print("dict round trip:", spec_from_dict(spec.to_dict()) == spec)
try:
    FusedSpec.make(layer, "swish")
except ValueError as e:
    print("bad activation:", e)
with open(sys.argv[1], "w") as fh:
    fh.write(spec.mlir("fused_fwd"))
