"""dwc_torch.explain(model, example_inputs) on the CPU: the converter's own
decisions and reasons per layer, the kernel family dwc-opt selects, the
fused neighbours in eval mode, what a GPU decides; the model is left as it
was; measure=True without a GPU is refused; without dwc-opt the family is
unknown, and says why."""
import os
import sys
import warnings

warnings.filterwarnings("ignore")
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402

import dwc_torch  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from tiny_models import tiny  # noqa: E402


class Block(nn.Module):
    """conv_pw -> BN -> ReLU6 -> depthwise -> BN -> ReLU6: one fusion."""

    def __init__(self, c=8):
        super().__init__()
        self.pw = nn.Conv2d(c, c, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.act1 = nn.ReLU6()
        self.dw = nn.Conv2d(c, c, 3, 1, 1, groups=c, bias=False)
        self.bn2 = nn.BatchNorm2d(c)
        self.act2 = nn.ReLU6()
        self.pool = nn.AdaptiveAvgPool2d(1)

    def forward(self, x):
        return self.pool(self.act2(self.bn2(self.dw(self.act1(self.bn1(self.pw(x)))))))


def show(e):
    for r in e.rows:
        fams = ",".join("%s=%s" % (op, f.family or "?") for op, f in r.families.items())
        print("  %s | %s | %s | %s | %s | %s" % (r.name, r.decision, fams or "-", r.gpu or "-",
                                                 r.reason or "-", r.fused or "-"))


m = Block().eval()
before = {n: type(x).__name__ for n, x in m.named_modules()}
e = dwc_torch.explain(m, torch.randn(2, 8, 10, 12), chip="sm_90a")
print(e.header)
show(e)
print("model unchanged:", before == {n: type(x).__name__ for n, x in m.named_modules()},
      not hasattr(m, "dwc_report"))
print("dict rows:", [r["name"] for r in e.to_dict()["layers"]])

t = tiny().train()
e = dwc_torch.explain(t, torch.randn(2, 3, 17, 19), chip="sm_90a")
print(e.header)
show(e)
print(str(e).splitlines()[-3:])

try:
    dwc_torch.explain(t, torch.randn(2, 3, 17, 19), measure=True)
except ValueError as err:
    print("measure on the CPU:", err)

os.environ["DWC_OPT"] = "/nonexistent/dwc-opt"
e = dwc_torch.explain(Block().eval(), torch.randn(1, 8, 6, 6))
print("without dwc-opt:", [str(f) for r in e.rows for f in r.families.values()][:1])
