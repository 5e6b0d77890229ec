#!/usr/bin/env python3
"""Whole exported CNNs through the GPU pipeline vs PyTorch (not run by CI).

Two steps, because MLIR is not on the GPU machine:

  export (here: torch-mlir, dwc-opt, dwc-aot; no GPU):
    python3 bench/dwcbench networks exported export --dwc-opt build/bin/dwc-opt
        --dwc-aot build/bin/dwc-aot --out DIR [--models ...]
  Exports each timm model with torch-mlir (fx.export_and_import,
  linalg-on-tensors) with its parameters and buffers as function arguments
  (the input first, then the tensors in DIR/<model>.json order), so that the
  binary holds no weights; raises it (`dwc-opt --raise-linalg-to-dwc`) and
  compiles the whole function with `dwc-aot` (dwc-to-nvvm: dwc ops to dwc's
  kernels, the rest through the generic GPU lowering) into DIR/<model>.o.

  fixtures (here): the reduced front-end models of
  test/Conversion/LinalgToDwc/Inputs/tiny-{linalg,tosa,stablehlo}.mlir,
  without their CPU @main, compiled raised and unraised (only the generic
  lowering) into DIR/tiny-<fe>.{dwc,plain}.o, with their input and the CPU
  pipeline's logits (dwc-to-llvm-cpu, mlir-runner) in DIR/tiny-<fe>.json.
    python3 bench/dwcbench networks exported fixtures --dwc-opt ... --dwc-aot ... --out DIR

  run (on the GPU machine: torch, timm, g++; no MLIR):
    python3 bench/dwcbench networks exported run --dir DIR --runtime-lib librt.so
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

from . import ROOT

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
                        "--header", base + ".h", "--chip=" + args.chip], check=True)
        t2 = time.time()
        if args.plain:  # unraised: every op through the generic lowering
            subprocess.run([args.dwc_aot, base + ".linalg.mlir", "-o", base + ".plain.o",
                            "--chip=" + args.chip], check=True)
        with open(base + ".json", "w") as f:
            json.dump({"model": name, "tensors": names, "input": list(x.shape),
                       "dwc_ops": ndwc, "object_bytes": os.path.getsize(base + ".o")}, f)
        print(f"{name}: {ndwc} dwc ops, {len(names)} tensor arguments, export+raise "
              f"{t1 - t0:.1f} s, dwc-aot {t2 - t1:.1f} s, object "
              f"{os.path.getsize(base + '.o') / 1e6:.1f} MB", flush=True)
        for suffix in (".linalg.mlir", ".raised.mlir"):
            os.remove(base + suffix)


def fixture_parts(path):
    """The fixture without its @main (and printMemrefF32) and its input."""
    text = open(path).read()
    start = text.index("  func.func private @printMemrefF32")
    end = text.index("  func.func @forward")
    main = text[start:end]
    hexdata = re.search(r'dense<"0x([0-9A-F]+)"> : tensor<([0-9x]+)xf32>', main)
    return text[:start] + text[end:], bytes.fromhex(hexdata.group(1)), hexdata.group(2)


def cpu_logits(dwc_opt, runner, path):
    run_cpu = os.path.join(ROOT, "test", "Conversion", "LinalgToDwc", "Inputs", "run-cpu.py")
    llvm = subprocess.run([dwc_opt, path, "--raise-linalg-to-dwc", "--dwc-to-llvm-cpu"],
                          capture_output=True, check=True).stdout
    out = subprocess.run([sys.executable, run_cpu, runner], input=llvm, capture_output=True,
                         check=True).stdout.decode()
    data = out[out.index("data =") + 6:]
    return [float(v) for v in re.findall(r"[-+0-9.eE]+|nan|inf", data)]


def fixtures(args):
    inputs = os.path.join(ROOT, "test", "Conversion", "LinalgToDwc", "Inputs")
    os.makedirs(args.out, exist_ok=True)
    for fe in ("linalg", "tosa", "stablehlo"):
        path = os.path.join(inputs, f"tiny-{fe}.mlir")
        module, x, shape = fixture_parts(path)
        base = os.path.join(args.out, f"tiny-{fe}")
        with open(base + ".mlir", "w") as f:
            f.write(module)
        with open(base + ".bin", "wb") as f:
            f.write(x)
        subprocess.run([args.dwc_opt, base + ".mlir", "--raise-linalg-to-dwc", "-o",
                        base + ".dwc.mlir"], check=True)
        for mode in ("dwc", "plain"):
            src = base + (".dwc.mlir" if mode == "dwc" else ".mlir")
            subprocess.run([args.dwc_aot, src, "-o", f"{base}.{mode}.o", "--chip=" + args.chip],
                           check=True)
        ref = cpu_logits(args.dwc_opt, args.runner, path)
        with open(base + ".json", "w") as f:
            json.dump({"input": [int(d) for d in shape.split("x")], "cpu_logits": ref}, f)
        for suffix in (".mlir", ".dwc.mlir"):
            os.remove(base + suffix)
        print(f"tiny-{fe}: compiled raised and unraised; CPU logits {ref}", flush=True)


def run_fixture(name, base, rtdir, work, worst):
    import numpy as np
    with open(base + ".json") as f:
        meta = json.load(f)
    x = torch.from_numpy(np.fromfile(base + ".bin", dtype="<f4").reshape(meta["input"])).cuda()
    ref = torch.tensor(meta["cpu_logits"], dtype=torch.float64)
    ok = True
    for mode in ("dwc", "plain"):
        so = os.path.join(work, f"lib{name}.{mode}.so")
        subprocess.run(["g++", "-shared", "-o", so, f"{base}.{mode}.o", "-L" + rtdir,
                        "-ldwc_runtime", "-Wl,-rpath," + rtdir], check=True)
        fn = ctypes.CDLL(so).dwc_forward
        fn.restype = ctypes.c_int
        out = torch.full((1, ref.numel()), float("nan"), device="cuda")
        status = fn(ctypes.c_void_p(x.data_ptr()), ctypes.c_void_p(out.data_ptr()))
        torch.cuda.synchronize()
        err = rel_err(out.flatten(), ref) if status == 0 else float("inf")
        good = status == 0 and err <= worst
        ok = ok and good
        print(f"{name} {mode}: {'PASS' if good else 'FAIL'} status {status}, rel.err vs the "
              f"CPU pipeline {err:.2e}", flush=True)
    return ok


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


def run_one(name, meta, variants, worst):
    """Runs each (label, shared library) of `variants` on one model."""
    model, x = build(name, seed=1)
    names, tensors = tensors_of(model)
    if names != meta["tensors"]:
        print(f"{name}: FAIL the model's tensors differ from the exported ones")
        return False
    dev = [t.cuda().contiguous() for t in tensors]
    xd = x.cuda()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    with torch.no_grad():
        ref64 = model.double()(x.double())
        model.float().cuda()
        ref32 = model(xd)
        torch.backends.cudnn.benchmark = True
        t_torch = median_ms(lambda: model(xd))
        torch.backends.cudnn.benchmark = False
    t32 = rel_err(ref32, ref64)
    print(f"{name}: PyTorch float32 (GPU, TF32 off) vs float64 {t32:.2e}, eager "
          f"{t_torch:.2f} ms (cudnn.benchmark on)", flush=True)
    ok = True
    for label, so in variants:
        fn = ctypes.CDLL(so).dwc_forward
        fn.restype = ctypes.c_int
        out = torch.full_like(ref32, float("nan"))
        ptrs = [ctypes.c_void_p(t.data_ptr()) for t in [xd] + dev + [out]]
        torch.cuda.synchronize()
        status = fn(*ptrs)
        torch.cuda.synchronize()
        if status != 0:
            print(f"{name} {label}: FAIL dwc_forward returned {status}: {last_error()}")
            ok = False
            continue
        e64, e32 = rel_err(out, ref64), rel_err(out, ref32)
        good = e64 <= worst and e32 <= worst and bool(torch.isfinite(out).all())
        ok = ok and good
        t_dwc = median_ms(lambda: fn(*ptrs))
        print(f"{name} {label}: {'PASS' if good else 'FAIL'} rel.err vs float64 {e64:.2e}, "
              f"vs PyTorch float32 {e32:.2e}; argmax {int(out.argmax())} vs "
              f"{int(ref64.argmax())}; {t_dwc:.2f} ms per call (user path: launches, "
              f"weight copies, synchronisation)", flush=True)
    return ok


RUNTIME = None


def last_error():
    RUNTIME.dwcGetLastErrorMessage.restype = ctypes.c_char_p
    return RUNTIME.dwcGetLastErrorMessage().decode(errors="replace")


def run(args):
    global RUNTIME
    rt = RUNTIME = ctypes.CDLL(args.runtime_lib, mode=ctypes.RTLD_GLOBAL)
    rtdir = os.path.dirname(os.path.abspath(args.runtime_lib))
    ok = True
    for fe in ("linalg", "tosa", "stablehlo"):
        base = os.path.join(args.dir, f"tiny-{fe}")
        if os.path.exists(base + ".json"):
            ok = run_fixture(f"tiny-{fe}", base, rtdir, args.work, 1e-4) and ok
    for name in args.models.split(","):
        base = os.path.join(args.dir, name)
        if not os.path.exists(base + ".o"):
            print(f"{name}: FAIL no object")
            ok = False
            continue
        with open(base + ".json") as f:
            meta = json.load(f)
        variants = []
        for label, obj in (("dwc", base + ".o"), ("plain", base + ".plain.o")):
            if not os.path.exists(obj):
                continue
            so = os.path.join(args.work, f"lib{name}.{label}.so")
            subprocess.run(["g++", "-shared", "-o", so, obj, "-L" + rtdir,
                            "-ldwc_runtime", "-Wl,-rpath," + rtdir], check=True)
            variants.append((label, so))
        ok = run_one(name, meta, variants, args.max_rel_err) and ok
    return 0 if ok else 1


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="step", required=True)
    e = sub.add_parser("export")
    e.add_argument("--dwc-opt", required=True)
    e.add_argument("--dwc-aot", required=True)
    e.add_argument("--out", required=True)
    e.add_argument("--chip", default="sm_90")
    e.add_argument("--models", default=",".join(MODELS))
    e.add_argument("--plain", action="store_true",
                   help="also compile the unraised export (DIR/<model>.plain.o)")
    fx = sub.add_parser("fixtures")
    fx.add_argument("--dwc-opt", required=True)
    fx.add_argument("--dwc-aot", required=True)
    fx.add_argument("--runner", default="mlir-runner-22")
    fx.add_argument("--out", required=True)
    fx.add_argument("--chip", default="sm_90")
    r = sub.add_parser("run")
    r.add_argument("--dir", required=True)
    r.add_argument("--runtime-lib", required=True)
    r.add_argument("--work", default="/tmp")
    r.add_argument("--models", default=",".join(MODELS))
    r.add_argument("--max-rel-err", type=float, default=1e-3)
    args = ap.parse_args(argv)
    return {"export": export, "fixtures": fixtures, "run": run}[args.step](args)
