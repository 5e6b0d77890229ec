#!/usr/bin/env python3
"""GPU-machine check of the PyTorch binding (python/dwc_torch), one process:

1. gradcheck  : torch.autograd.gradcheck of DwcDepthwiseConv2dFunction in
                float64 on the small odd specs of the manifest (tag 'gradcheck'),
                channels_last and NCHW-contiguous inputs;
2. grads      : forward, dX and dW of our kernels vs a float64 PyTorch
                reference on the benchmark shapes (tag 'grid'), relative
                error ||ours - ref|| / ||ref|| on a subset of channels (depthwise
                channels are independent, so the float64 reference only needs
                those channels; every batch entry and pixel is compared), with
                PyTorch's own error in the same precision beside it;
3. train      : a small ConvNeXt/RepLKNet-style network trained on synthetic
                data with DepthwiseConv2d and with nn.Conv2d(groups=C), same
                init, same data, same seed: losses per step, step times;
4. fallbacks  : shapes without kernels, CPU tensors, fallback='error',
                non-channels_last and misaligned inputs.

Writes OUT/LABEL.json and .md and prints a summary; bench/torch_plot.py
(a separate process: matplotlib does not import after torch there) draws
OUT/LABEL-train.png from the JSON.
"""

import argparse
import json
import math
import os
import platform
import statistics
import sys
import time
import traceback
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import dwc_torch  # noqa: E402
from dwc_torch import functional as DF  # noqa: E402
from dwc_torch.spec import LayerSpec  # noqa: E402

TOL = {"f32": 1e-5, "f16": 2e-3, "bf16": 4e-3, "f64": 1e-12}
T0 = time.time()


def log(*a):
    print("[%6.1f s]" % (time.time() - T0), *a, flush=True)


def rel(a, b):
    a = a.double()
    b = b.double()
    d = torch.linalg.vector_norm(a - b).item()
    n = torch.linalg.vector_norm(b).item()
    return d / n if n else d


def tag_of(spec_dict, tags):
    return tags.get(spec_dict["key"], "")


# ---------------------------------------------------------------------------
# 1. gradcheck
# ---------------------------------------------------------------------------
def run_gradcheck(lib, specs):
    rows = []
    for spec in specs:
        torch.manual_seed(0)
        KH, KW = spec.kernel
        for layout in ("channels_last", "nchw"):
            x = torch.randn(spec.N, spec.C, spec.H, spec.W, dtype=torch.float64, device="cuda")
            if layout == "channels_last":
                x = x.contiguous(memory_format=torch.channels_last)
            x.requires_grad_(True)
            w = torch.randn(spec.C, 1, KH, KW, dtype=torch.float64, device="cuda",
                            requires_grad=True)
            b = (torch.randn(spec.C, dtype=torch.float64, device="cuda", requires_grad=True)
                 if spec.bias else None)
            inputs = (x, w, b) if spec.bias else (x, w)

            def f(*a):
                bb = a[2] if spec.bias else None
                return DF.DwcDepthwiseConv2dFunction.apply(a[0], a[1], bb, lib, spec)

            t = time.time()
            try:
                ok = torch.autograd.gradcheck(f, inputs, eps=1e-6, atol=1e-7, rtol=1e-5,
                                              nondet_tol=0.0, fast_mode=False)
                err = None
            except Exception as e:  # gradcheck raises GradcheckError with details
                ok, err = False, str(e)[-1500:]
            # Exact-match check against PyTorch's float64 result as well.
            y = f(*inputs)
            gy = torch.randn_like(y)
            g = torch.autograd.grad(y, inputs, gy)
            yr = DF.torch_depthwise_conv2d(x, w, b, spec.stride, spec.padding, spec.dilation)
            gr = torch.autograd.grad(yr, inputs, gy)
            diffs = {"y": rel(y, yr), "dx": rel(g[0], gr[0]), "dw": rel(g[1], gr[1])}
            if spec.bias:
                diffs["db"] = rel(g[2], gr[2])
            rows.append({"spec": spec.key, "layout": layout, "gradcheck": bool(ok),
                         "error": err, "rel_err_vs_torch_f64": diffs,
                         "seconds": round(time.time() - t, 2)})
            log("gradcheck %-48s %-13s %s  vs torch f64: %s" % (
                spec.key, layout, "PASS" if ok else "FAIL",
                " ".join("%s=%.1e" % kv for kv in diffs.items())))
    return rows


# ---------------------------------------------------------------------------
# 2. gradients on the benchmark shapes
# ---------------------------------------------------------------------------
def run_grads(lib, specs, n_channels, budget_s):
    rows = []
    torch.backends.cudnn.benchmark = False
    t_end = time.time() + budget_s
    for spec in specs:
        if time.time() > t_end:
            rows.append({"spec": spec.key, "status": "skipped (time budget)"})
            log("grads %s skipped (time budget)" % spec.key)
            continue
        dt = DF.DWC_TO_TORCH[spec.dtype]
        KH, KW = spec.kernel
        g = torch.Generator(device="cuda").manual_seed(1)
        shape = (spec.N, spec.C, spec.H, spec.W)
        x = (torch.rand(shape, device="cuda", generator=g, dtype=torch.float32) * 2 - 1).to(dt)
        x = x.contiguous(memory_format=torch.channels_last).requires_grad_(True)
        w = ((torch.rand((spec.C, 1, KH, KW), device="cuda", generator=g) * 2 - 1)
             / math.sqrt(KH * KW)).to(dt).requires_grad_(True)
        gy = (torch.rand((spec.N, spec.C, spec.OH, spec.OW), device="cuda", generator=g) * 2 - 1)
        gy = gy.to(dt).contiguous(memory_format=torch.channels_last)
        row = {"spec": spec.key, "dtype": spec.dtype, "N": spec.N, "C": spec.C, "H": spec.H,
               "W": spec.W, "F": KH, "channels_checked": n_channels}
        try:
            # Our kernels, through autograd; CUDA events around each stage
            # (one run each, after a warm-up run: indicative, not a benchmark).
            ev = [torch.cuda.Event(enable_timing=True) for _ in range(3)]
            for it in range(2):
                x.grad = None
                w.grad = None
                ev[0].record()
                y = DF.DwcDepthwiseConv2dFunction.apply(x, w, None, lib, spec)
                ev[1].record()
                y.backward(gy)
                ev[2].record()
                torch.cuda.synchronize()
            row["ours_fwd_ms"] = ev[0].elapsed_time(ev[1])
            row["ours_bwd_ms"] = ev[1].elapsed_time(ev[2])
            ch = torch.linspace(0, spec.C - 1, n_channels, device="cuda").round().long().unique()
            xs, ws, gys = x.detach()[:, ch], w.detach()[ch], gy[:, ch]
            ours = {"y": y.detach()[:, ch], "dx": x.grad[:, ch], "dw": w.grad[ch]}
            # float64 reference on those channels
            x64 = xs.double().requires_grad_(True)
            w64 = ws.double().requires_grad_(True)
            y64 = DF.torch_depthwise_conv2d(x64, w64, None, spec.stride, spec.padding,
                                            spec.dilation)
            dx64, dw64 = torch.autograd.grad(y64, (x64, w64), gys.double())
            ref = {"y": y64.detach(), "dx": dx64, "dw": dw64}
            # PyTorch in the same precision on those channels
            xt = xs.clone().requires_grad_(True)
            wt = ws.clone().requires_grad_(True)
            yt = DF.torch_depthwise_conv2d(xt, wt, None, spec.stride, spec.padding, spec.dilation)
            dxt, dwt = torch.autograd.grad(yt, (xt, wt), gys)
            theirs = {"y": yt.detach(), "dx": dxt, "dw": dwt}
            tol = TOL[spec.dtype]
            for k in ("y", "dx", "dw"):
                row["rel_err_" + k] = rel(ours[k], ref[k])
                row["torch_rel_err_" + k] = rel(theirs[k], ref[k])
                row["nan_" + k] = int(torch.isnan(ours[k]).sum().item())
            row["tolerance"] = tol
            row["pass"] = all(row["rel_err_" + k] <= tol and row["nan_" + k] == 0
                              for k in ("y", "dx", "dw"))
            row["status"] = "ok"
            del x64, w64, y64, dx64, dw64, xt, wt, yt, dxt, dwt, ref, theirs, ours, y
        except Exception as e:
            row["status"] = "error: %s" % e
            row["pass"] = False
            traceback.print_exc()
        rows.append(row)
        log("grads %-46s %s y=%.1e dx=%.1e dw=%.1e (torch %.1e %.1e %.1e) fwd %.2f ms bwd %.2f ms" % (
            spec.key, "PASS" if row.get("pass") else "FAIL",
            row.get("rel_err_y", float("nan")), row.get("rel_err_dx", float("nan")),
            row.get("rel_err_dw", float("nan")), row.get("torch_rel_err_y", float("nan")),
            row.get("torch_rel_err_dx", float("nan")), row.get("torch_rel_err_dw", float("nan")),
            row.get("ours_fwd_ms", float("nan")), row.get("ours_bwd_ms", float("nan"))))
        del x, w, gy
        torch.cuda.empty_cache()
    return rows


# ---------------------------------------------------------------------------
# 3. training
# ---------------------------------------------------------------------------
class Block(nn.Module):
    """ConvNeXt block: depthwise KxK, LayerNorm, pointwise MLP (4x, GELU),
    layer scale, residual. Channels-last throughout: the NHWC view of the
    channels_last activations feeds LayerNorm/Linear without copies."""

    def __init__(self, C, k, dw_factory):
        super().__init__()
        self.dw = dw_factory(C, k)
        self.norm = nn.LayerNorm(C)
        self.fc1 = nn.Linear(C, 4 * C)
        self.fc2 = nn.Linear(4 * C, C)
        self.gamma = nn.Parameter(torch.full((C,), 0.1))

    def forward(self, x):
        h = self.dw(x).permute(0, 2, 3, 1)          # NHWC view, no copy
        h = self.fc2(F.gelu(self.fc1(self.norm(h)))) * self.gamma
        return x + h.permute(0, 3, 1, 2)            # channels_last NCHW view


class Net(nn.Module):
    """Stem 3x3 conv -> 2 blocks (dw 7x7, C=64, 32x32) -> 2x2/2 downsample ->
    2 blocks (dw 13x13, C=128, 16x16, RepLKNet-style) -> pool -> linear."""

    def __init__(self, dw_factory, classes=10):
        super().__init__()
        self.stem = nn.Conv2d(3, 64, 3, padding=1)
        self.stage1 = nn.Sequential(Block(64, 7, dw_factory), Block(64, 7, dw_factory))
        self.down = nn.Conv2d(64, 128, 2, stride=2)
        self.stage2 = nn.Sequential(Block(128, 13, dw_factory), Block(128, 13, dw_factory))
        self.head = nn.Linear(128, classes)

    def forward(self, x):
        x = self.stage1(self.stem(x))
        x = self.stage2(self.down(x))
        return self.head(x.mean(dim=(2, 3)))


def torch_dw(C, k):
    return nn.Conv2d(C, C, k, padding=k // 2, groups=C)


def dwc_dw(C, k):
    return dwc_torch.DepthwiseConv2d(C, C, k, padding=k // 2, fallback="error")


def run_train(steps, batch, seed):
    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    # Same init: both nets built from the same seed (DepthwiseConv2d has
    # nn.Conv2d's parameters and reset_parameters), checked equal below.
    torch.manual_seed(seed)
    ref_net = Net(torch_dw).cuda().to(memory_format=torch.channels_last)
    torch.manual_seed(seed)
    our_net = Net(dwc_dw).cuda().to(memory_format=torch.channels_last)
    same_init = all(torch.equal(a, b) for a, b in
                    zip(ref_net.state_dict().values(), our_net.state_dict().values()))
    # state_dict round trip both ways
    sd_ok = True
    try:
        Net(torch_dw).load_state_dict(our_net.state_dict())
        Net(dwc_dw).load_state_dict(ref_net.state_dict())
    except Exception:
        sd_ok = False
    # Synthetic data: 8 fixed batches; labels from a fixed random teacher
    # on 4x4-pooled inputs (learnable, not memorisation only).
    g = torch.Generator(device="cuda").manual_seed(seed + 1)
    xs = [torch.randn(batch, 3, 32, 32, device="cuda", generator=g)
          .contiguous(memory_format=torch.channels_last) for _ in range(8)]
    teacher = torch.randn(3 * 8 * 8, 10, device="cuda", generator=g)
    ys = [(F.avg_pool2d(x, 4).flatten(1) @ teacher).argmax(1) for x in xs]
    # Step-0 gradients of every parameter, both nets, same batch.
    grads = {}
    for name, net in (("torch", ref_net), ("dwc", our_net)):
        net.zero_grad(set_to_none=True)
        F.cross_entropy(net(xs[0]), ys[0]).backward()
        grads[name] = {k: p.grad.detach().clone() for k, p in net.named_parameters()}
        net.zero_grad(set_to_none=True)
    step0 = {k: rel(grads["dwc"][k], grads["torch"][k]) for k in grads["torch"]}
    worst = max(step0, key=step0.get)
    log("train step-0 parameter gradients: max rel. diff dwc vs torch %.1e (%s)" % (
        step0[worst], worst))
    result = {"step0_grad_rel_diff": step0, "step0_grad_max_rel_diff": step0[worst],
              "same_init": same_init, "state_dict_both_ways": sd_ok, "steps": steps,
              "batch": batch, "seed": seed, "optimizer": "AdamW(lr=2e-3, wd=0.05)",
              "tf32": False, "cudnn_benchmark": True}
    for name, net in (("torch", ref_net), ("dwc", our_net)):
        opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=0.05)
        losses, times = [], []
        c0 = dict(DF.stats)
        for step in range(steps):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            out = net(xs[step % 8])
            loss = F.cross_entropy(out, ys[step % 8])
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            e.record()
            losses.append(loss)
            times.append((s, e))
        torch.cuda.synchronize()
        losses = [l.item() for l in losses]
        ms = [s.elapsed_time(e) for s, e in times]
        warm = ms[10:] if len(ms) > 20 else ms
        result[name] = {"loss": losses, "step_ms": ms,
                        "median_step_ms": statistics.median(warm),
                        "min_step_ms": min(warm),
                        "calls": {k: DF.stats[k] - c0[k] for k in DF.stats}}
        log("train %-5s loss %.4f -> %.4f, median step %.2f ms, calls %s" % (
            name, losses[0], losses[-1], statistics.median(warm), result[name]["calls"]))
    a, b = result["torch"]["loss"], result["dwc"]["loss"]
    diffs = [abs(x - y) for x, y in zip(a, b)]
    result["max_abs_loss_diff"] = max(diffs)
    result["max_abs_loss_diff_first_50"] = max(diffs[:50])
    result["final_loss"] = {"torch": a[-1], "dwc": b[-1]}
    result["step_time_ratio_torch_over_dwc"] = (result["torch"]["median_step_ms"] /
                                                result["dwc"]["median_step_ms"])
    return result


# ---------------------------------------------------------------------------
# 4. fallbacks and input handling
# ---------------------------------------------------------------------------
def run_fallbacks(train_spec):
    out = {}
    C, k = train_spec.C, train_spec.kernel[0]
    torch.manual_seed(3)
    m = dwc_torch.DepthwiseConv2d(C, C, k, padding=k // 2).cuda()
    ref = nn.Conv2d(C, C, k, padding=k // 2, groups=C).cuda()
    ref.load_state_dict(m.state_dict())

    def check(name, x, expect_fallback, module=m):
        before = dict(DF.stats)
        with warnings.catch_warnings(record=True) as wl:
            warnings.simplefilter("always")
            y = module(x)
        yr = ref.to(x.device)(x) if x.is_cuda else ref.cpu()(x)
        ref.cuda()
        d = {k2: DF.stats[k2] - before[k2] for k2 in DF.stats}
        ok = (d["fallback"] == 1) == expect_fallback and rel(y, yr) < 1e-5
        out[name] = {"ok": ok, "rel_err": rel(y, yr), "calls": d,
                     "warnings": [str(w.message)[:200] for w in wl]}
        log("fallback %-28s %s %s %s" % (name, "ok" if ok else "WRONG", d,
                                         out[name]["warnings"][:1]))

    N, H, W = train_spec.N, train_spec.H, train_spec.W
    x = torch.randn(N, C, H, W, device="cuda").contiguous(memory_format=torch.channels_last)
    check("compiled_channels_last", x, False)
    check("nchw_input_copied", x.contiguous(), False)
    buf = torch.randn(N * C * H * W + 1, device="cuda")
    mis = buf[1:].view(N, H, W, C).permute(0, 3, 1, 2)   # channels_last, 4-byte offset
    check("misaligned_input_copied", mis, False)
    check("uncompiled_batch_3", x[:3], True)
    import copy
    check("cpu_tensor", x.cpu(), True, module=copy.deepcopy(m).cpu())
    strict = dwc_torch.DepthwiseConv2d(C, C, k, padding=k // 2, fallback="error").cuda()
    try:
        strict(x[:3])
        out["strict_error"] = {"ok": False}
    except RuntimeError as e:
        out["strict_error"] = {"ok": "no compiled kernel" in str(e), "message": str(e)[:300]}
    try:
        m(x.half())
        out["dtype_mismatch"] = {"ok": False}
    except TypeError as e:
        out["dtype_mismatch"] = {"ok": True, "message": str(e)[:200]}
    log("fallback strict_error %s, dtype_mismatch %s" % (out["strict_error"]["ok"],
                                                         out["dtype_mismatch"]["ok"]))
    return out


# ---------------------------------------------------------------------------
def markdown(res):
    L = ["# dwc_torch GPU check (%s)" % res["date"], "",
         "Command: `%s`  " % res["command"],
         "Device: %s, torch %s, cuDNN %s; kernels from commit %s" % (
             res["device"], res["torch"], res["cudnn"], res["kernels_commit"]), ""]
    if res.get("gradcheck"):
        L += ["## gradcheck (float64, our kernels through autograd)", "",
              "| spec | input layout | gradcheck | rel. err. vs torch f64 (y, dx, dw, db) |",
              "|---|---|---|---|"]
        for r in res["gradcheck"]:
            L.append("| %s | %s | %s | %s |" % (r["spec"], r["layout"],
                                                "PASS" if r["gradcheck"] else "FAIL",
                                                ", ".join("%.1e" % v for v in r["rel_err_vs_torch_f64"].values())))
        L.append("")
    if res.get("grads"):
        L += ["## Gradients vs a float64 reference (benchmark shapes)", "",
              "Relative error ||ours - ref|| / ||ref|| over all batch entries and pixels of "
              "%d channels spread over C (channels are independent in a depthwise conv); "
              "`torch` = PyTorch in the same precision on the same data. Times: one run "
              "after one warm-up, indicative only (the kernels the pipeline selected at "
              "this commit)." % res["grads"][0].get("channels_checked", 0), "",
              "| shape NxHxWxC | F | dtype | y | dX | dW | torch y | torch dX | torch dW | tol | pass | fwd ms | bwd ms |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in res["grads"]:
            if r.get("status") != "ok":
                L.append("| %s | | | %s |" % (r["spec"], r.get("status")))
                continue
            L.append("| %dx%dx%dx%d | %d | %s | %.1e | %.1e | %.1e | %.1e | %.1e | %.1e | %.0e | %s | %.2f | %.2f |" % (
                r["N"], r["H"], r["W"], r["C"], r["F"], r["dtype"], r["rel_err_y"],
                r["rel_err_dx"], r["rel_err_dw"], r["torch_rel_err_y"], r["torch_rel_err_dx"],
                r["torch_rel_err_dw"], r["tolerance"], "yes" if r["pass"] else "**no**",
                r["ours_fwd_ms"], r["ours_bwd_ms"]))
        L.append("")
    t = res.get("train")
    if t and "torch" in t:
        L += ["## Training (ConvNeXt/RepLKNet-style net, synthetic data)", "",
              "%d steps, batch %d, 32x32 inputs, %s, seed %d, TF32 off; same init: %s; "
              "state_dict loads both ways: %s." % (t["steps"], t["batch"], t["optimizer"],
                                                    t["seed"], t["same_init"],
                                                    t["state_dict_both_ways"]), "",
              "| | first loss | loss at 100 | final loss | median step ms | min step ms |",
              "|---|---|---|---|---|---|"]
        for n in ("torch", "dwc"):
            l = t[n]["loss"]
            L.append("| %s | %.4f | %.4f | %.4f | %.2f | %.2f |" % (
                n, l[0], l[min(100, len(l) - 1)], l[-1], t[n]["median_step_ms"],
                t[n]["min_step_ms"]))
        L += ["", "Max |loss difference|: %.2e over all steps, %.2e over the first 50. "
              "Step time torch/dwc: %.2f. Step-0 gradients of all parameters, dwc vs "
              "torch: max relative difference %.1e." % (
                  t["max_abs_loss_diff"], t["max_abs_loss_diff_first_50"],
                  t["step_time_ratio_torch_over_dwc"], t["step0_grad_max_rel_diff"]), ""]
    if res.get("fallbacks"):
        L += ["## Fallbacks and input handling", ""]
        for k, v in res["fallbacks"].items():
            L.append("- %s: %s %s" % (k, "ok" if v.get("ok") else "WRONG",
                                      v.get("warnings", [v.get("message", "")])[:1]))
        L.append("")
    return "\n".join(L)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernels", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--work", default="/tmp/dwc_torch")
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--channels", type=int, default=16)
    ap.add_argument("--grads-budget", type=float, default=240)
    ap.add_argument("--grads-only", default="",
                    help="comma list of substrings: grads rows to run (default all)")
    ap.add_argument("--skip", default="", help="comma list of gradcheck,grads,train,fallbacks")
    ap.add_argument("--label", default="torch-check")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    skip = set(args.skip.split(","))
    tags = json.load(open(os.path.join(args.kernels, "tags.json")))
    t = time.time()
    lib = dwc_torch.load_kernels(args.kernels, args.work,
                                 log_path=os.path.join(args.out, "link.log"))
    link_s = time.time() - t
    log("linked %d specs in %.1f s" % (len(lib.manifest["specs"]), link_s))
    specs = {s.key: s for s in lib.specs()}
    by_tag = lambda tag: [specs[k] for k, v in tags.items() if v == tag and k in specs]
    res = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
           "command": os.environ.get("DWC_TORCH_COMMAND", " ".join(sys.argv)),
           "device": torch.cuda.get_device_name(0), "torch": torch.__version__,
           "cudnn": torch.backends.cudnn.version(), "python": platform.python_version(),
           "kernels_commit": lib.manifest.get("commit"), "link_s": round(link_s, 1),
           "aot_build_s": lib.manifest.get("build_s")}

    def save():
        with open(os.path.join(args.out, args.label + ".json"), "w") as fh:
            json.dump(res, fh, indent=1)
        with open(os.path.join(args.out, args.label + ".md"), "w") as fh:
            fh.write(markdown(res))

    if "gradcheck" not in skip:
        res["gradcheck"] = run_gradcheck(lib, by_tag("gradcheck"))
        save()
    if "fallbacks" not in skip and by_tag("train"):
        res["fallbacks"] = run_fallbacks(by_tag("train")[0])
        save()
    if "train" not in skip and by_tag("train"):
        try:
            res["train"] = run_train(args.steps, args.batch, args.seed)
        except Exception as e:
            traceback.print_exc()
            res["train"] = {"error": str(e)}
        save()
    if "grads" not in skip:
        grid = by_tag("grid")
        if args.grads_only:
            grid = [s for s in grid if any(k in s.key for k in args.grads_only.split(","))]
        res["grads"] = run_grads(lib, grid, args.channels, args.grads_budget)
        save()
    save()
    gc_ok = all(r["gradcheck"] for r in res.get("gradcheck", []))
    gr_ok = all(r.get("pass") for r in res.get("grads", []))
    fb_ok = all(v.get("ok") for v in res.get("fallbacks", {}).values())
    log("SUMMARY gradcheck %s, grads %d/%d pass, fallbacks %s, train %s" % (
        gc_ok, sum(bool(r.get("pass")) for r in res.get("grads", [])),
        len(res.get("grads", [])), fb_ok,
        "%.2e max loss diff, step ms torch %.2f dwc %.2f" % (
            res["train"]["max_abs_loss_diff"], res["train"]["torch"]["median_step_ms"],
            res["train"]["dwc"]["median_step_ms"]) if "torch" in res.get("train", {}) else "-"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
