"""How far stock PyTorch's own f32 training gradients of a timm model are
from float64 (on the CPU, no dwc): the scale against which a per-parameter
gradient floor of converted-vs-stock agreement can be read. A parameter
whose f32 gradient is 1e-3 off the exact one cannot agree with stock's to
1e-4 unless both sum in the same order.

    python3 bench/grad_conditioning.py --model mobilenetv2_100 --batch 64

Prints the parameters whose f32 gradient is furthest from float64 (relative
error by norm; parameters with a float64 gradient under 1e-6 of the largest
norm left out, as bench/torch_e2e.py's grad_errors does), the named
--param's error, and all gradients' together.
"""
import argparse
import copy
import time

import torch


def gradients(model, x, target, dtype):
    m = copy.deepcopy(model).to(dtype)
    m.zero_grad(set_to_none=True)
    torch.nn.functional.cross_entropy(m(x.to(dtype)), target).backward()
    return {n: p.grad.double() for n, p in m.named_parameters() if p.grad is not None}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default="mobilenetv2_100")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--size", type=int, default=224)
    ap.add_argument("--param", action="append", default=[])
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    import timm
    torch.manual_seed(a.seed)
    model = timm.create_model(a.model).train()
    x = torch.randn(a.batch, 3, a.size, a.size)
    target = torch.randint(0, 1000, (a.batch,))
    t0 = time.time()
    exact, f32 = (gradients(model, x, target, dt) for dt in (torch.float64, torch.float32))
    top = max(g.norm().item() for g in exact.values())
    err = {n: (f32[n] - g).norm().item() / g.norm().item() for n, g in exact.items()
           if g.norm().item() > 1e-6 * top}
    num = sum((f32[n] - g).norm().item() ** 2 for n, g in exact.items())
    den = sum(g.norm().item() ** 2 for g in exact.values())
    print("%s, batch %d, %dx%d, seed %d, torch %s (%.0f s): stock f32 vs float64 gradients"
          % (a.model, a.batch, a.size, a.size, a.seed, torch.__version__, time.time() - t0))
    for n, e in sorted(err.items(), key=lambda kv: -kv[1])[:8]:
        print("  %-32s %.2e" % (n, e))
    for n in a.param:
        print("  --param %-24s %s" % (n, "%.2e" % err[n] if n in err else "(not compared)"))
    print("  all gradients together           %.2e" % ((num / den) ** 0.5))


if __name__ == "__main__":
    main()
