"""Whole exported CNN through the CPU pipeline vs PyTorch (not run by CI).

Exports a timm model (random weights, seed 0; nothing is downloaded) with
torch-mlir (fx.export_and_import, linalg-on-tensors, weights included), adds
a @main that calls it on a fixed random input and prints the logits, compiles
it with `dwc-opt [--raise-linalg-to-dwc] --dwc-to-llvm-cpu`, runs it with
mlir-runner and compares with PyTorch's float32 and float64 logits.

Usage: python3 bench/dwcbench networks exported-cpu --dwc-opt build/bin/dwc-opt
       --runner mlir-runner-22 --models mobilenetv2_100,resnet50,convnext_tiny [--work /tmp/wm]
Prints per model and mode (raised / unraised): the dwc op count, the compile
and run times, and max|y - ref| / max|ref| against float32 and float64.
"""
import argparse
import os
import re
import shutil
import subprocess
import time

import numpy as np
import torch

from . import ROOT


def export_with_main(model, x, path):
    """The model exported by torch-mlir with the @main of the front-end
    fixtures (scripts/export-fixtures.py): @forward on x, logits printed."""
    import importlib.util
    from torch_mlir import fx
    spec = importlib.util.spec_from_file_location(
        "export_fixtures", os.path.join(ROOT, "scripts", "export-fixtures.py"))
    fixtures = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fixtures)
    m = fx.export_and_import(model, x, output_type="linalg-on-tensors",
                             func_name="forward")
    with open(path, "w") as f:
        f.write(fixtures.with_main(m.operation.get_asm(), x, model(x).shape[1]))


def run(dwc_opt, runner, path, raise_first):
    libdir = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(
        shutil.which(runner) or runner))), "lib")
    libs = ",".join(os.path.join(libdir, n) for n in
                    ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))
    passes = (["--raise-linalg-to-dwc"] if raise_first else []) + ["--dwc-to-llvm-cpu"]
    t0 = time.time()
    llvm = path + (".raised" if raise_first else ".plain") + ".ll.mlir"
    subprocess.run([dwc_opt, path, *passes, "-o", llvm], check=True)
    ndwc = 0
    if raise_first:
        r = subprocess.run([dwc_opt, path, "--raise-linalg-to-dwc"],
                           capture_output=True, text=True, check=True)
        ndwc = len(re.findall(r"= dwc\.", r.stdout))
    t1 = time.time()
    out = subprocess.run([runner, llvm, "-e", "main", "-entry-point-result=void",
                          "-O3", "--shared-libs=" + libs],
                         capture_output=True, text=True, check=True).stdout
    t2 = time.time()
    os.remove(llvm)
    data = out[out.index("data =") + 6:]
    vals = np.array([float(v) for v in re.findall(r"[-+0-9.eE]+|nan|inf", data)])
    return vals, ndwc, t1 - t0, t2 - t1


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dwc-opt", required=True)
    ap.add_argument("--runner", default="mlir-runner-22")
    ap.add_argument("--models", default="mobilenetv2_100,resnet50,convnext_tiny")
    ap.add_argument("--work", default="/tmp/dwc-whole-model")
    ap.add_argument("--modes", default="raised,unraised")
    args = ap.parse_args(argv)
    import timm
    os.makedirs(args.work, exist_ok=True)
    worst = 0.0
    for name in args.models.split(","):
        torch.manual_seed(0)
        model = timm.create_model(name, pretrained=False).eval()
        x = torch.randn(1, 3, 224, 224)
        with torch.no_grad():
            ref32 = model(x).numpy().ravel()
            ref64 = model.double()(x.double()).numpy().ravel()
            model.float()
        path = os.path.join(args.work, name + ".mlir")
        with torch.no_grad():
            export_with_main(model, x, path)
        for mode in args.modes.split(","):
            y, ndwc, tc, tr = run(args.dwc_opt, args.runner, path, mode == "raised")
            scale = np.abs(ref64).max()
            e32 = np.abs(y - ref32).max() / scale
            e64 = np.abs(y - ref64).max() / scale
            t32 = np.abs(ref32 - ref64).max() / scale
            worst = max(worst, e64)
            print(f"{name} {mode}: dwc ops {ndwc}, compile {tc:.1f} s, run {tr:.1f} s, "
                  f"rel err vs torch f32 {e32:.2e}, vs f64 {e64:.2e} "
                  f"(torch f32 vs f64 {t32:.2e}) {'PASS' if e32 <= 1e-4 else 'FAIL'}",
                  flush=True)
    return 0 if worst <= 1e-4 else 1
