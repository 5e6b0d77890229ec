"""Whole training steps of a converted model captured in one CUDA graph and
replayed (GPU only): each case runs in its own process, since an illegal
address poisons a process's CUDA context. A case converts every eligible
layer without tuning (all ops on dwc's kernels), captures forward + loss +
backward + SGD step as bench/torch_e2e.py's graph_step does, replays it,
and compares the replay's gradients with the same step run eagerly from
the same weights. `--alloc` toggles the runtime's stream-ordered
workspaces (DWC_STREAM_ORDERED_ALLOC), the one runtime path that allocates
inside a capture.

    PYTHONPATH=python python3 bench/torch_graph_capture_check.py --kernels K \\
        --out $OUT [--model convnext_tiny --dtype f16 --batch 64]
"""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def grads_of(model):
    return [None if p.grad is None else p.grad.detach().clone() for p in model.parameters()]


def rel(a, b):
    import torch
    d = (a.double() - b.double()).abs().max().item()
    return d / max(b.double().abs().max().item(), 1e-30)


def eager_grads(model, x, target, amp):
    """Gradients of one eager step at the model's current weights."""
    import torch
    for p in model.parameters():
        p.grad = None
    with torch.autocast("cuda", dtype=amp, enabled=amp is not None, cache_enabled=False):
        loss = torch.nn.functional.cross_entropy(model(x), target)
    loss.backward()
    return grads_of(model)


def one_case(a):
    """Runs in the child: returns the case's row."""
    import torch
    sys.path.insert(0, HERE)
    import torch_e2e
    import dwc_torch
    amp = {"f32": None, "f16": torch.float16, "bf16": torch.bfloat16}[a.dtype]
    torch.backends.cudnn.benchmark = True
    torch.manual_seed(0)
    m = torch_e2e.create_model(a.model).cuda().to(memory_format=torch.channels_last)
    x = torch.randn(a.batch, 3, 224, 224, device="cuda").contiguous(
        memory_format=torch.channels_last)
    target = torch.randint(0, 1000, (a.batch,), device="cuda")
    row = {"model": a.model, "dtype": a.dtype, "batch": a.batch, "side": a.side,
           "stream_ordered_alloc": os.environ.get("DWC_STREAM_ORDERED_ALLOC", "1")}
    if a.side == "dwc":
        for k in a.kernels.split(","):
            dwc_torch.load_kernels(k)
        dwc_torch.convert(m, tune=False, verify=False, verbose=False)
        row["layers_converted"] = len(m.dwc_report.converted)
    replay = torch_e2e.graph_step(m, x, target, amp, True)
    before = [p.detach().clone() for p in m.parameters()]
    replay()
    torch.cuda.synchronize()
    graph_grads = grads_of(m)
    with torch.no_grad():
        for p, b in zip(m.parameters(), before):
            p.copy_(b)
    ref = eager_grads(m, x, target, amp)
    torch.cuda.synchronize()
    errs = [rel(g, r) for g, r in zip(graph_grads, ref) if g is not None and r is not None]
    row.update(replayed=True, grads_finite=all(torch.isfinite(g).all().item()
                                                for g in graph_grads if g is not None),
               worst_grad_rel_err=max(errs) if errs else None)
    row["ok"] = row["grads_finite"] and (errs and max(errs) <= (1e-4 if amp is None else 2e-2))
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernels", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--model", default="convnext_tiny")
    ap.add_argument("--dtype", default="f16")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--side", default="")
    ap.add_argument("--timeout", type=float, default=120)
    a = ap.parse_args()
    if a.side:  # the child
        print("ROW " + json.dumps(one_case(a)), flush=True)
        return
    rows = []
    for side, alloc in (("stock", "1"), ("dwc", "1"), ("dwc", "0")):
        env = dict(os.environ, DWC_STREAM_ORDERED_ALLOC=alloc)
        cmd = [sys.executable, __file__, "--kernels", a.kernels, "--out", a.out, "--model",
               a.model, "--dtype", a.dtype, "--batch", str(a.batch), "--side", side]
        try:
            r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=a.timeout)
            found = [l[4:] for l in r.stdout.splitlines() if l.startswith("ROW ")]
            row = json.loads(found[0]) if found else {
                "side": side, "stream_ordered_alloc": alloc, "ok": False, "rc": r.returncode,
                "error": (r.stderr or r.stdout)[-1500:]}
        except subprocess.TimeoutExpired:
            row = {"side": side, "stream_ordered_alloc": alloc, "ok": False, "error": "timeout"}
        print(json.dumps(row), flush=True)
        rows.append(row)
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "graph-capture-check.jsonl"), "w") as f:
        f.writelines(json.dumps(r) + "\n" for r in rows)


if __name__ == "__main__":
    main()
