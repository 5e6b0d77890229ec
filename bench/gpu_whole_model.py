#!/usr/bin/env python3
"""Whole exported CNNs through the GPU pipeline vs PyTorch (not run by CI).

Two steps, because MLIR is not on the GPU machine:

  export (here: torch-mlir, dwc-opt, dwc-aot; no GPU):
    bench/gpu_whole_model.py export --dwc-opt build/bin/dwc-opt
        --dwc-aot build/bin/dwc-aot --out DIR [--models ...]
  Exports each timm model with torch-mlir (fx.export_and_import,
  linalg-on-tensors) with its parameters and buffers as function arguments
  (the input first, then the tensors in DIR/<model>.json order), so that the
  binary holds no weights; raises it (`dwc-opt --raise-linalg-to-dwc`) and
  compiles the whole function with `dwc-aot` (dwc-to-nvvm: dwc ops to dwc's
  kernels, the rest through the generic GPU lowering) into DIR/<model>.o.

  run (on the GPU machine: torch, timm, g++; no MLIR):
    bench/gpu_whole_model.py run --dir DIR --runtime-lib librt.so
  Builds each model with random weights (seeded; BN statistics randomised
  too), links DIR/<model>.o against the runtime, calls dwc_forward on
  device pointers (output poisoned with NaN first) and compares the logits
  with PyTorch on the GPU (float32, TF32 off) and on the CPU in float64:
  max|y - ref| / max|ref|. Also times both (CUDA events, median of 20).
"""
import argparse
import ctypes
import json
import os
import re
import subprocess
import sys
import time

import torch

MODELS = ["convnext_tiny", "mobilenetv2_100", "resnet50"]


def tensors_of(model):
    """The parameters and floating-point buffers, by name, in a fixed order."""
    named = list(model.named_parameters()) + [
        (n, b) for n, b in model.named_buffers() if b.is_floating_point()]
    return [n for n, _ in named], [t.detach() for _, t in named]


class WithTensorsAsArguments(torch.nn.Module):
    def __init__(self, model, names):
        super().__init__()
        self.model, self.names = model, names

    def forward(self, x, *tensors):
        return torch.func.functional_call(self.model, dict(zip(self.names, tensors)), (x,))


def build(name, seed=0):
    import timm
    torch.manual_seed(seed)
    model = timm.create_model(name, pretrained=False).eval()
    for mod in model.modules():  # non-trivial batch-norm statistics
        if isinstance(mod, torch.nn.BatchNorm2d):
            mod.running_mean.uniform_(-0.1, 0.1)
            mod.running_var.uniform_(0.5, 1.5)
    return model, torch.randn(1, 3, 224, 224)


def export(args):
    from torch_mlir import fx
    os.makedirs(args.out, exist_ok=True)
    for name in args.models.split(","):
        model, x = build(name)
        names, tensors = tensors_of(model)
        wrapped = WithTensorsAsArguments(model, names).eval()
        t0 = time.time()
        m = fx.export_and_import(wrapped, x, *tensors, output_type="linalg-on-tensors",
                                 func_name="forward")
        base = os.path.join(args.out, name)
        with open(base + ".linalg.mlir", "w") as f:
            f.write(m.operation.get_asm())
        subprocess.run([args.dwc_opt, base + ".linalg.mlir", "--raise-linalg-to-dwc",
                        "-o", base + ".raised.mlir"], check=True)
        with open(base + ".raised.mlir") as f:
            text = f.read()
        ndwc = len(re.findall(r"= dwc\.", text))
        t1 = time.time()
        subprocess.run([args.dwc_aot, base + ".raised.mlir", "-o", base + ".o",
                        "--header", base + ".h", "--chip", args.chip], check=True)
        t2 = time.time()
        with open(base + ".json", "w") as f:
            json.dump({"model": name, "tensors": names, "input": list(x.shape),
                       "dwc_ops": ndwc, "object_bytes": os.path.getsize(base + ".o")}, f)
        print(f"{name}: {ndwc} dwc ops, {len(names)} tensor arguments, export+raise "
              f"{t1 - t0:.1f} s, dwc-aot {t2 - t1:.1f} s, object "
              f"{os.path.getsize(base + '.o') / 1e6:.1f} MB", flush=True)
        for suffix in (".linalg.mlir", ".raised.mlir"):
            os.remove(base + suffix)


def rel_err(y, ref):
    y, ref = y.double().cpu(), ref.double().cpu()
    return ((y - ref).abs().max() / ref.abs().max()).item()


def median_ms(fn, reps=20):
    times = []
    for _ in range(3):
        fn()
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        torch.cuda.synchronize()
        times.append(a.elapsed_time(b))
    return sorted(times)[len(times) // 2]


def run_one(name, meta, so, rt, worst):
    model, x = build(name, seed=1)
    names, tensors = tensors_of(model)
    if names != meta["tensors"]:
        print(f"{name}: FAIL the model's tensors differ from the exported ones")
        return False
    lib = ctypes.CDLL(so)
    fn = lib.dwc_forward
    fn.restype = ctypes.c_int
    dev = [t.cuda().contiguous() for t in tensors]
    xd = x.cuda()
    with torch.no_grad():
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        ref32 = model.cuda()(xd)
        ref64 = model.double().cpu()(x.double())
        model.float()
    out = torch.full_like(ref32, float("nan"))
    ptrs = [ctypes.c_void_p(t.data_ptr()) for t in [xd] + dev + [out]]
    torch.cuda.synchronize()
    status = fn(*ptrs)
    torch.cuda.synchronize()
    if status != 0:
        rt.dwcGetLastErrorMessage.restype = ctypes.c_char_p
        print(f"{name}: FAIL dwc_forward returned {status}: "
              f"{rt.dwcGetLastErrorMessage().decode(errors='replace')}")
        return False
    e64, e32 = rel_err(out, ref64), rel_err(out, ref32)
    t32 = rel_err(ref32, ref64)
    ok = e64 <= worst and e32 <= worst and bool(torch.isfinite(out).all())
    with torch.no_grad():
        t_dwc = median_ms(lambda: fn(*ptrs))
        model.cuda()
        torch.backends.cudnn.benchmark = True
        t_torch = median_ms(lambda: model(xd))
    print(f"{name}: {'PASS' if ok else 'FAIL'} rel.err vs float64 {e64:.2e}, vs PyTorch "
          f"float32 (GPU) {e32:.2e} (PyTorch float32 vs float64 {t32:.2e}); argmax "
          f"{int(out.argmax())} vs {int(ref64.argmax())}; time dwc {t_dwc:.2f} ms "
          f"(user path, synchronising), PyTorch eager {t_torch:.2f} ms", flush=True)
    return ok


def run(args):
    rt = ctypes.CDLL(args.runtime_lib, mode=ctypes.RTLD_GLOBAL)
    rtdir = os.path.dirname(os.path.abspath(args.runtime_lib))
    ok = True
    for name in args.models.split(","):
        base = os.path.join(args.dir, name)
        if not os.path.exists(base + ".o"):
            print(f"{name}: FAIL no object")
            ok = False
            continue
        with open(base + ".json") as f:
            meta = json.load(f)
        so = os.path.join(args.work, f"lib{name}.so")
        subprocess.run(["g++", "-shared", "-o", so, base + ".o", "-L" + rtdir,
                        "-ldwc_runtime", "-Wl,-rpath," + rtdir], check=True)
        ok = run_one(name, meta, so, rt, args.max_rel_err) and ok
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="step", required=True)
    e = sub.add_parser("export")
    e.add_argument("--dwc-opt", required=True)
    e.add_argument("--dwc-aot", required=True)
    e.add_argument("--out", required=True)
    e.add_argument("--chip", default="sm_90")
    e.add_argument("--models", default=",".join(MODELS))
    r = sub.add_parser("run")
    r.add_argument("--dir", required=True)
    r.add_argument("--runtime-lib", required=True)
    r.add_argument("--work", default="/tmp")
    r.add_argument("--models", default=",".join(MODELS))
    r.add_argument("--max-rel-err", type=float, default=1e-3)
    args = ap.parse_args()
    return export(args) if args.step == "export" else run(args)


if __name__ == "__main__":
    sys.exit(main())
