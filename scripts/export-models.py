#!/usr/bin/env python3
"""Regenerates the exported IR of real CNNs from the PyPI front ends and
prints a census of what raise-linalg-to-dwc raises (not run by CI).

Needs `pip install torch timm torch-mlir` (CPU is enough). For each model and
front end it writes <out>/<model>.<frontend>.mlir (linalg on tensors) and
counts, from the exported PyTorch graph, the depthwise convolutions, dense
convolutions (groups = 1), max/avg pools and global average pools present,
and from `dwc-opt --raise-linalg-to-dwc` the dwc ops they became. Front ends:

  linalg    torch-mlir fx.export_and_import(output_type="linalg-on-tensors")
  tosa      torch-mlir TOSA, lowered with mlir-opt's named tosa-to-* passes
  stablehlo torch-mlir StableHLO, lowered with torch-mlir-opt
            --stablehlo-legalize-to-linalg
  onnx      torch.onnx.export (the default, torch.export-based exporter),
            torch-mlir-import-onnx, then torch-mlir-opt
            convert-torch-onnx-to-torch, torch-lower-to-backend-contract,
            torch-backend-to-linalg-on-tensors-backend-pipeline
  onnx-legacy  as onnx, with the TorchScript-based exporter
            (torch.onnx.export(model, (x,), f, dynamo=False, opset_version=17))
  iree      the same .onnx file (of the default exporter) through
            iree-import-onnx and
            `iree-compile --compile-to=input` (util.func, hal ABI ops),
            printed in generic form by iree-opt and raised by
            `dwc-opt --allow-unregistered-dialect`

The onnx and iree front ends also need `pip install onnx onnxscript
iree-base-compiler`.

Usage: scripts/export-models.py --dwc-opt build/bin/dwc-opt --out /tmp/exports
       [--models convnext_tiny,resnet50] [--frontends linalg,tosa] [--weights]
Without --weights, large constants are printed elided (census only).
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys

import torch

MODELS = ["convnext_tiny", "mobilenetv2_100", "efficientnet_b0", "resnet50",
          "inception_v3", "googlenet", "repvit_m1", "inception_next_tiny",
          "lk_block31", "lk_block51"]


class LargeKernelBlock(torch.nn.Module):
    """A RepLKNet/SLaK-style block: 1x1, large depthwise, 1x1, residual."""

    def __init__(self, c, k):
        super().__init__()
        self.pw1 = torch.nn.Conv2d(c, c, 1)
        self.dw = torch.nn.Conv2d(c, c, k, padding=k // 2, groups=c)
        self.bn = torch.nn.BatchNorm2d(c)
        self.pw2 = torch.nn.Conv2d(c, c, 1)
        self.pool = torch.nn.AdaptiveAvgPool2d(1)

    def forward(self, x):
        y = self.pw2(torch.nn.functional.gelu(self.bn(self.dw(self.pw1(x)))))
        return self.pool(x + y)


def build(name):
    """The model (random weights: nothing is downloaded) and an input."""
    if name.startswith("lk_block"):
        return LargeKernelBlock(64, int(name[8:])).eval(), torch.randn(1, 64, 56, 56)
    if name == "googlenet":
        import torchvision
        m = torchvision.models.googlenet(weights=None, aux_logits=False,
                                         init_weights=False)
        return m.eval(), torch.randn(1, 3, 224, 224)
    import timm
    size = 299 if name == "inception_v3" else 224
    return timm.create_model(name, pretrained=False).eval(), torch.randn(1, 3, size, size)


def census_torch(model, x):
    """Counts the conv/pool layers of the exported (ATen) graph."""
    ep = torch.export.export(model, (x,))
    c = collections.Counter()
    for node in ep.graph.nodes:
        t = str(node.target)
        if "aten.convolution" in t or "aten.conv2d" in t:
            w = node.args[1].meta["val"]
            groups = node.args[-1] if "convolution" in t else (node.args[6] if len(node.args) > 6 else 1)
            cin = node.args[0].meta["val"].shape[1]
            if groups == 1:
                c["dense"] += 1
            elif groups == cin and w.shape[1] == 1:
                c["depthwise"] += 1
            else:
                c["grouped"] += 1
        elif "max_pool2d" in t:
            c["maxpool"] += 1
        elif "adaptive_avg_pool2d" in t:
            out = node.meta["val"].shape
            c["gap" if tuple(out[-2:]) == (1, 1) else "avgpool"] += 1
        elif "avg_pool2d" in t:
            c["avgpool"] += 1
        elif "aten.mean" in t:
            dims = sorted(d % 4 for d in node.args[1])
            if dims == [2, 3]:
                c["gap"] += 1
    return ep, c


ONNX_TO_LINALG = ("--pass-pipeline=builtin.module(func.func(convert-torch-onnx-to-torch),"
                  "torch-lower-to-backend-contract,"
                  "torch-backend-to-linalg-on-tensors-backend-pipeline)")


def export_onnx(ep, path, legacy, model_and_input):
    """The .onnx file (made once per model, shared by onnx and iree)."""
    onnx_path = path.rsplit(".", 2)[0] + (".legacy.onnx" if legacy else ".onnx")
    if legacy:
        model, x = model_and_input
        torch.onnx.export(model, (x,), onnx_path, dynamo=False, opset_version=17)
    elif not os.path.exists(onnx_path):
        torch.onnx.export(ep, (), onnx_path, dynamo=True, external_data=False)
    return onnx_path


def export_via_onnx(ep, frontend, path, tools, model_and_input):
    onnx_path = export_onnx(ep, path, frontend == "onnx-legacy", model_and_input)
    torch_ir = path + ".torch"
    if frontend in ("onnx", "onnx-legacy"):
        subprocess.run([tools["torch-mlir-import-onnx"], onnx_path, "-o", torch_ir], check=True)
        subprocess.run([tools["torch-mlir-opt"], torch_ir, ONNX_TO_LINALG, "-o", path],
                       check=True)
    else:
        subprocess.run([tools["iree-import-onnx"], onnx_path, "-o", torch_ir], check=True)
        inp = path + ".input"
        subprocess.run([tools["iree-compile"], "--compile-to=input", torch_ir, "-o", inp],
                       check=True)
        # Generic form: dwc-opt does not know IREE's util/hal dialects.
        subprocess.run([tools["iree-opt"], "--mlir-print-op-generic", inp, "-o", path],
                       check=True)
        os.remove(inp)
    os.remove(torch_ir)
    shutil.rmtree(os.path.join(os.path.dirname(path), "onnx-importer-temp"), ignore_errors=True)


def export(ep, frontend, path, weights, tools, model_and_input):
    if frontend in ("onnx", "onnx-legacy", "iree"):
        return export_via_onnx(ep, frontend, path, tools, model_and_input)
    from torch_mlir import fx
    kind = {"linalg": "linalg-on-tensors", "tosa": "tosa",
            "stablehlo": "stablehlo"}[frontend]
    m = fx.export_and_import(ep, output_type=kind, func_name="forward")
    raw = path + ".raw"
    with open(raw, "w") as f:
        # Elide only resources (weights): attributes like padding must stay.
        f.write(m.operation.get_asm(large_resource_limit=None if weights else 64))
    if frontend == "linalg":
        os.replace(raw, path)
        return
    if frontend == "tosa":
        cmd = [tools["mlir-opt"], raw, "--pass-pipeline=builtin.module(func.func("
               "tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor))"]
    else:
        cmd = [tools["torch-mlir-opt"], raw, "--stablehlo-legalize-to-linalg"]
    subprocess.run(cmd + ["-o", path], check=True)
    os.remove(raw)


def census_raised(dwc_opt, path):
    out = subprocess.run([dwc_opt, path, "--allow-unregistered-dialect", "--raise-linalg-to-dwc",
                          "--mlir-elide-elementsattrs-if-larger=16",
                          "--mlir-elide-resource-strings-if-larger=16"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        return None, out.stderr[-400:]
    text = out.stdout
    c = collections.Counter()
    c["depthwise"] = len(re.findall(r"dwc\.depthwise_conv2d ", text))
    c["dense"] = len(re.findall(r"dwc\.conv2d ", text))
    c["maxpool"] = len(re.findall(r"dwc\.pool2d\s+max", text))
    c["avgpool"] = len(re.findall(r"dwc\.pool2d\s+avg", text))
    c["gap"] = len(re.findall(r"dwc\.global_avg_pool", text))
    # Transposes of activations (results of ops or arguments), not of weights.
    c["transpose"] = len(re.findall(r"linalg\.transpose ins\(%([0-9]+|arg[0-9]+) ", text))
    return c, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dwc-opt", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--frontends", default="linalg,tosa,stablehlo")
    ap.add_argument("--weights", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    tools = {"mlir-opt": shutil.which("mlir-opt-22") or "/usr/lib/llvm-22/bin/mlir-opt",
             "torch-mlir-opt": shutil.which("torch-mlir-opt") or "torch-mlir-opt"}
    for tool in ("torch-mlir-import-onnx", "iree-import-onnx", "iree-compile", "iree-opt"):
        tools[tool] = shutil.which(tool) or tool
    kinds = ["depthwise", "dense", "maxpool", "avgpool", "gap"]
    print("model frontend " + " ".join(f"{k}(raised/present)" for k in kinds)
          + " activation-transposes")
    total = collections.Counter()
    for name in args.models.split(","):
        model, x = build(name)
        ep, present = census_torch(model, x)
        for fe in args.frontends.split(","):
            path = os.path.join(args.out, f"{name}.{fe}.mlir")
            try:
                export(ep, fe, path, args.weights, tools, (model, x))
            except Exception as e:  # a front end that fails is reported
                print(f"{name} {fe} EXPORT-FAILED {str(e).splitlines()[0][:200]}")
                continue
            raised, err = census_raised(args.dwc_opt, path)
            if raised is None:
                print(f"{name} {fe} RAISE-FAILED {err}")
                continue
            cols = []
            for k in kinds:
                cols.append(f"{raised[k]}/{present[k]}")
                total[(fe, k, "r")] += raised[k]
                total[(fe, k, "p")] += present[k]
            extra = f" (grouped convs not raisable: {present['grouped']})" if present["grouped"] else ""
            print(f"{name} {fe} " + " ".join(cols) + f" {raised['transpose']}{extra}",
                  flush=True)
    for fe in args.frontends.split(","):
        print(f"TOTAL {fe} " + " ".join(
            f"{total[(fe, k, 'r')]}/{total[(fe, k, 'p')]}" for k in kinds))


if __name__ == "__main__":
    sys.exit(main())
