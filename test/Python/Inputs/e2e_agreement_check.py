"""CPU check of the whole-network benchmark's model agreement
(bench/dwcbench/networks.py): dwc against stock, each against the model in
float64, and stock against itself with other cuDNN algorithms. A copy of the model stands in for the converted one (no
GPU here); --perturb scales one depthwise filter of that copy by 1 + 1e-3,
so its logits and gradients move further from float64 than stock's and the
check must say so."""
import argparse
import copy
import os
import sys

import torch

ap = argparse.ArgumentParser()
ap.add_argument("--src", required=True)
ap.add_argument("--perturb", action="store_true")
args = ap.parse_args()
sys.path.insert(0, os.path.join(args.src, "bench"))
from dwcbench import networks  # noqa: E402
from dwcbench import networks_report  # noqa: E402

torch.manual_seed(0)
stock = torch.nn.Sequential(
    torch.nn.Conv2d(3, 16, 3, padding=1), torch.nn.BatchNorm2d(16), torch.nn.ReLU(),
    torch.nn.Conv2d(16, 16, 5, padding=2, groups=16), torch.nn.BatchNorm2d(16), torch.nn.ReLU(),
    torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(16, 10))
ours = copy.deepcopy(stock)
if args.perturb:
    with torch.no_grad():
        ours[3].weight.mul_(1 + 1e-3)
x = torch.randn(8, 3, 13, 11)
target = torch.randint(0, 10, (8,))
rows = []
for train in (False, True):
    logit, gerr, worst, gall, vs = networks._agreement(stock, ours, x, target, None, train)
    ok = networks.as_accurate_as_stock(vs, 1e-6)
    mode = "train" if train else "inference"
    print("%s %s: dwc vs stock %.1e, stock vs f64 %.1e, dwc vs f64 %.1e, other algorithms %.1e"
          % ("PASS" if ok else "FAIL", mode, logit, vs["stock"]["logits"], vs["dwc"]["logits"],
             vs["stock_vs_stock_other_algorithms"]["logits"]))
    if train:
        print("grads: worst %s, all %.1e; keys %s" % (worst, gall, sorted(vs["dwc"])))
    rows.append(dict(section="models", model="tiny", dtype="f32", mode=mode, batch=8,
                     logits_rel_err=logit, grad_rel_err=gerr, grad_rel_err_all=gall,
                     vs_f64=vs, as_accurate_as_stock=ok))
print(networks_report.agreement(rows))
print("as accurate as float64 allows: %s" % all(r["as_accurate_as_stock"] for r in rows))

# The eager-noise control: stock against an unconverted copy, timed as a
# row's two sides are (here on the CPU clock).
ctl = networks.control_row(stock, [x], target, None, True, rounds=2)
print("control keys %s, positive %s" % (sorted(ctl), ctl["control_speedup"] > 0
                                        and ctl["control_paired"] > 0))
