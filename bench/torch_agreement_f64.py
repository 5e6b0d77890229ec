"""Training-step agreement against a float64 reference (issue 19's logits /
gradient floors on deep networks): one training forward/backward of the
same weights and input in float64 (stock PyTorch, the reference), in f32
with TF32 off (stock, and dwc_torch.convert'ed), and optionally under f16 /
bf16 autocast; each side's logits (max-relative) and gradients (worst
parameter and all together, by norm) against the float64 step. Tells
whether a disagreement between stock and dwc is dwc's error or the
network's sensitivity (both sides equally far from float64).

    python3 bench/torch_agreement_f64.py --kernels DIR[,DIR] --models replknet31b \
        --batch 32 --amp f16 --out OUT
Writes OUT/agreement-f64.jsonl.
"""

import argparse
import copy
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_e2e as E  # noqa: E402


def step(m, x, target, amp):
    import torch
    m.train()
    m.zero_grad(set_to_none=True)
    with torch.autocast("cuda", dtype=amp or torch.float16, enabled=amp is not None):
        y = m(x)
    torch.nn.functional.cross_entropy(y.double(), target).backward()
    grads = {n: p.grad.double() for n, p in m.named_parameters() if p.grad is not None}
    return y.double().detach(), grads


def compare(side, ref):
    y, g = side
    ry, rg = ref
    worst, name, total = E.grad_errors(g, rg)
    return {"logits_rel_err": E.rel_err(y, ry), "grad_worst": worst, "grad_worst_param": name,
            "grad_all": total}


def run_model(name, batch, amps, out):
    import torch
    import dwc_torch
    torch.manual_seed(0)
    base = E.create_model(name).cuda().to(memory_format=torch.channels_last)
    x = torch.randn(batch, 3, 224, 224, device="cuda").contiguous(memory_format=torch.channels_last)
    target = torch.randint(0, 1000, (batch,), device="cuda")
    ref = step(copy.deepcopy(base).double(), x.double(), target, None)
    ours = dwc_torch.convert(copy.deepcopy(base), tune=False, verbose=False)
    rows = []
    for amp_name in ["f32"] + amps:
        amp = {"f32": None, "f16": torch.float16, "bf16": torch.bfloat16}[amp_name]
        row = {"model": name, "batch": batch, "dtype": amp_name}
        for side, m in (("stock", base), ("dwc", ours)):
            row[side] = compare(step(m, x, target, amp), ref)
        row["stats"] = dwc_torch.stats()
        rows.append(row)
        print(json.dumps(row), flush=True)
        with open(os.path.join(out, "agreement-f64.jsonl"), "a") as fh:
            fh.write(json.dumps(row) + "\n")
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernels", required=True)
    ap.add_argument("--models", default="replknet31b")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--amp", default="f16", help="comma-separated autocast dtypes besides f32")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    import torch
    import dwc_torch
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    os.makedirs(a.out, exist_ok=True)
    dwc_torch.load_extension()
    for k in a.kernels.split(","):
        dwc_torch.load_kernels(k)
    for name in a.models.split(","):
        run_model(name, a.batch, [d for d in a.amp.split(",") if d], a.out)


if __name__ == "__main__":
    main()
