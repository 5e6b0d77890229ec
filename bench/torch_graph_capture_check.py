"""Whole training steps of a converted model captured in one CUDA graph and
replayed (GPU only): each case runs in its own process, since an illegal
address poisons a process's CUDA context. A case converts every eligible
layer without tuning (all ops on dwc's kernels), captures forward + loss +
backward + SGD step as bench/torch_e2e.py's graph_step does (with a fixed
loss scale for f16, so its gradients do not underflow), and replays it
twice: at the weights W0 the capture left, and -- since the replay's
optimizer step changes the weights and a replay must read whatever the
parameters hold -- after the weights were set in place to W1 = W0 * (1 + 0.5
N(0,1)). Each replay's gradients are compared, parameter by parameter, with

- `eager`: the same step run eagerly, same dtype / autocast, from the same
  weights and inputs (what the replay must reproduce: pass/fail), and
- `f32`: the step in float32 without autocast and TF32 off (the reference
  of the AMP step itself; reported, and the AMP error floor `eager_vs_f32`
  beside it),

each as ||g - ref|| / ||ref|| (L2 over the parameter: relative to that
parameter's gradient norm, not to its largest element). A control shows the
comparison can fail: the second replay's gradients against the eager step
at the OLD weights W0 (`stale_control`; what a replay that kept reading a
filter re-laid out at capture time would give) must be far above the
tolerance. `--cases` picks the cases; `dwc0` is dwc without the runtime's
stream-ordered workspaces (DWC_STREAM_ORDERED_ALLOC=0: a workspace inside a
capture is then refused with a clear error, never a crash).

    PYTHONPATH=python python3 bench/torch_graph_capture_check.py --kernels K \\
        --out $OUT [--model convnext_tiny --dtype f16 --batch 64 --cases stock,dwc,dwc0]
"""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOL = {"f32": 1e-4, "f16": 1e-2, "bf16": 1e-2}
LOSS_SCALE = {"f32": 1.0, "f16": 1024.0, "bf16": 1.0}


def grads_of(model):
    return [None if p.grad is None else p.grad.detach().float().clone()
            for p in model.parameters()]


def norm_err(g, ref):
    """||g - ref|| / ||ref|| (0 where both are 0, inf where only ref is)."""
    import torch
    if g is None or ref is None:
        return None
    d = torch.linalg.vector_norm((g.double() - ref.double())).item()
    r = torch.linalg.vector_norm(ref.double()).item()
    return d / r if r > 0 else (0.0 if d == 0 else float("inf"))


def eager_grads(model, x, target, amp, scale, f32=False):
    """Gradients (unscaled) of one eager step at the model's current weights;
    f32: without autocast and with TF32 off (the float32 reference)."""
    import torch
    tf32 = (torch.backends.cudnn.allow_tf32, torch.backends.cuda.matmul.allow_tf32)
    if f32:
        torch.backends.cudnn.allow_tf32 = torch.backends.cuda.matmul.allow_tf32 = False
    try:
        for p in model.parameters():
            p.grad = None
        with torch.autocast("cuda", dtype=amp or torch.float16,
                            enabled=amp is not None and not f32, cache_enabled=False):
            loss = torch.nn.functional.cross_entropy(model(x), target)
        (loss * (1.0 if f32 else scale)).backward()
        torch.cuda.synchronize()
        return [None if g is None else g / (1.0 if f32 else scale) for g in grads_of(model)]
    finally:
        torch.backends.cudnn.allow_tf32, torch.backends.cuda.matmul.allow_tf32 = tf32
        for p in model.parameters():
            p.grad = None


def compare(names, got, refs):
    """{ref: worst per-parameter error, its parameter, the whole-model error}."""
    import torch
    out = {}
    for k, ref in refs.items():
        pairs = [(n, g, r) for n, g, r in zip(names, got, ref) if g is not None and r is not None]
        errs = [(norm_err(g, r), n) for n, g, r in pairs]
        worst = max(errs) if errs else (None, None)
        flat = lambda i: torch.cat([p[i].flatten() for p in pairs])
        out[k] = {"worst": worst[0], "worst_param": worst[1],
                  "model": norm_err(flat(1), flat(2)) if pairs else None,
                  "params": len(errs),
                  "missing": sum((g is None) != (r is None) for g, r in zip(got, ref))}
    return out


def set_weights(model, ws):
    import torch
    with torch.no_grad():
        for p, w in zip(model.parameters(), ws):
            p.copy_(w)


def replay_and_check(m, names, replay, static, x, target, amp, scale, weights):
    """Sets the weights in place, replays once; the replay's gradients (the
    graph's own gradient tensors `static`: the eager steps replace p.grad)
    vs the eager and float32 steps from those weights."""
    import torch
    set_weights(m, weights)
    replay()
    torch.cuda.synchronize()
    got = [None if g is None else g.detach().float() / scale for g in static]
    finite = all(torch.isfinite(g).all().item() for g in got if g is not None)
    set_weights(m, weights)
    eager = eager_grads(m, x, target, amp, scale)
    f32 = eager_grads(m, x, target, amp, scale, f32=True)
    res = compare(names, got, {"eager": eager, "f32": f32})
    res["eager_vs_f32"] = compare(names, eager, {"f32": f32})["f32"]
    res["finite"] = finite
    return res, got


def one_case(a):
    """Runs in the child: returns the case's row."""
    import torch
    sys.path.insert(0, HERE)
    import torch_e2e
    import dwc_torch
    amp = {"f32": None, "f16": torch.float16, "bf16": torch.bfloat16}[a.dtype]
    scale = LOSS_SCALE[a.dtype]
    torch.backends.cudnn.benchmark = True
    torch.manual_seed(0)
    m = torch_e2e.create_model(a.model).cuda().to(memory_format=torch.channels_last)
    x = torch.randn(a.batch, 3, 224, 224, device="cuda").contiguous(
        memory_format=torch.channels_last)
    target = torch.randint(0, 1000, (a.batch,), device="cuda")
    row = {"model": a.model, "dtype": a.dtype, "batch": a.batch, "side": a.side,
           "loss_scale": scale, "tol": TOL[a.dtype],
           "stream_ordered_alloc": os.environ.get("DWC_STREAM_ORDERED_ALLOC", "1")}
    if a.side == "dwc":
        for k in a.kernels.split(","):
            dwc_torch.load_kernels(k)
        dwc_torch.convert(m, tune=False, verify=False, verbose=False)
        row["layers_converted"] = len(m.dwc_report.converted)
    names = [n for n, _ in m.named_parameters()]
    before = dwc_torch.stats() or {}  # None: no extension loaded (stock)
    replay = torch_e2e.graph_step(m, x, target, amp, True, loss_scale=scale)
    static = [p.grad for p in m.parameters()]
    w0 = [p.detach().clone() for p in m.parameters()]
    gen = torch.Generator(device="cuda").manual_seed(1)
    w1 = [w * (1 + 0.5 * torch.randn(w.shape, generator=gen, device="cuda", dtype=w.dtype))
          for w in w0]
    r0, _ = replay_and_check(m, names, replay, static, x, target, amp, scale, w0)
    r1, got1 = replay_and_check(m, names, replay, static, x, target, amp, scale, w1)
    set_weights(m, w0)
    stale = eager_grads(m, x, target, amp, scale)
    after = dwc_torch.stats() or {}
    control = compare(names, got1, {"stale": stale})["stale"]
    tol = TOL[a.dtype]
    row.update(replayed=True, replay_w0=r0, replay_w1=r1, stale_control=control,
               calls={k: after.get(k, 0) - before.get(k, 0)
                      for k in ("calls", "fallbacks", "routed", "master_weight")})
    row["ok"] = bool(all(r["finite"] and r["eager"]["missing"] == 0 and r["eager"]["params"]
                         and r["eager"]["worst"] <= tol for r in (r0, r1)))
    row["control_can_fail"] = bool(control["worst"] > 10 * tol)
    return row


def run_cases(a):
    rows = []
    for case in a.cases.split(","):
        side, alloc = ("dwc", "0") if case == "dwc0" else (case, "1")
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
        row.setdefault("model", a.model)
        row.setdefault("dtype", a.dtype)
        print(json.dumps(row), flush=True)
        rows.append(row)
        os.makedirs(a.out, exist_ok=True)
        with open(os.path.join(a.out, "graph-capture-check.jsonl"), "a") as f:
            f.write(json.dumps(row) + "\n")
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernels", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--model", default="convnext_tiny")
    ap.add_argument("--dtype", default="f16", choices=sorted(TOL))
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--cases", default="stock,dwc,dwc0")
    ap.add_argument("--side", default="")
    ap.add_argument("--timeout", type=float, default=120)
    a = ap.parse_args()
    if a.side:  # the child
        print("ROW " + json.dumps(one_case(a)), flush=True)
        return
    run_cases(a)


if __name__ == "__main__":
    main()
