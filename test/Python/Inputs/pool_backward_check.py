"""The pooling backward functions dwc_torch compiles, run on the CPU.

The binding's own MLIR (spec.PoolSpec.mlir, the text its cache hands to
dwc-aot) of padded, overlapping average-pool backward -- the cases once
reported wrong on the GPU -- is lowered two ways: the CPU reference
pipeline (--dwc-to-llvm-cpu) and the GPU pool kernels of
convert-dwc-to-gpu-pool with their launches run serially on the host
(check_ops.py --gpu-pool-emulate). Both must match the float64 loop oracle
of test/Integration/CPU/Inputs/check_ops.py, called as dwc_torch's C++
extension calls the entry point: (x, dy) -> dx, NHWC.

Then the references: the GPU check's float64 reference
(bench/dwcbench/networks.py pool_reference) and dwc_torch's PyTorch fallback
(ops.py) must agree with the same oracle, and must hand PyTorch's
avg_pool2d_backward contiguous tensors when the windows are padded (its
channels_last CUDA kernel ignores the padding, pytorch/pytorch#188344: the
channels_last float64 reference is what made these kernels look wrong).

    pool_backward_check.py --src DWC_SRC --dwc-opt dwc-opt --runner mlir-runner --libs L
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile


def parse():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", required=True, help="the dwc source tree")
    ap.add_argument("--dwc-opt", default="dwc-opt")
    ap.add_argument("--runner", default="mlir-runner")
    ap.add_argument("--libs", required=True)
    ap.add_argument("--inject-error", action="store_true",
                    help="perturb the oracle (the check must then fail)")
    return ap.parse_args()


ARGS = parse()
sys.path.insert(0, os.path.join(ARGS.src, "test", "Integration", "CPU", "Inputs"))
sys.path.insert(0, os.path.join(ARGS.src, "bench"))
sys.path.insert(0, os.path.join(ARGS.src, "python"))

import check_ops as C  # noqa: E402
from dwc_torch.spec import PoolSpec  # noqa: E402

# (N, C, H, W, kind, window, stride, padding, ceil_mode, count_include_pad, dtype)
SPECS = [PoolSpec.make(2, 35, 17, 19, "avg", 3, 2, 1, c, i, "f32")
         for c in (False, True) for i in (False, True)]
SPECS += [PoolSpec.make(2, 8, 16, 16, "avg", 3, 2, 1, True, False, "f32"),
          PoolSpec.make(2, 8, 16, 16, "avg", 3, 2, 1, True, True, "f16"),
          PoolSpec.make(1, 5, 9, 11, "avg", 3, 1, 1, False, False, "f32"),
          PoolSpec.make(2, 35, 17, 19, "max", 3, 2, 1, True, False, "f32")]


def case(rng, s):
    """A check_ops case whose body calls the binding's function."""
    x = C.random_tensor(rng, [s.N, s.H, s.W, s.C], s.dtype)
    dy = C.random_tensor(rng, [s.N, s.OH, s.OW, s.C], s.dtype)
    pad = list(s.padding)
    dx = C.ref_pool_bwd(x, dy, s.kind, s.window, s.stride, pad, s.ceil_mode,
                        s.count_include_pad)
    tx, ty = C.mlir_type(x.shape, s.dtype), C.mlir_type(dy.shape, s.dtype)
    body = "func.call @%s(%%x, %%dy) : (%s, %s) -> %s" % (s.func_name("pool_bwd"), tx, ty, tx)
    return C.Case(s.key, s.dtype, body, [("x", x), ("dy", dy)], dx.shape, s.dtype, dx)


def run_lowered(module, lower):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "in.mlir")
        with open(src, "w") as fh:
            fh.write(module)
        low = lower(src)
        if low.returncode != 0:
            return None, "dwc-opt failed: " + low.stderr[-2000:]
        run = subprocess.run([ARGS.runner, "-e", "main", "-entry-point-result=void",
                              "--shared-libs=" + ARGS.libs], input=low.stdout,
                             capture_output=True, text=True)
        if run.returncode != 0:
            return None, "mlir-runner failed: " + run.stderr[-2000:]
        return C.parse_outputs(run.stdout), None


def lower_gpu_pool_emulated(src):
    """The GPU pool kernels as dwc-aot makes them (identity-layout function
    boundaries, as the GPU pipeline bufferizes), launches run serially on
    the host (check_ops.launches_to_loops; no packed 16-bit argmax there)."""
    k = subprocess.run([ARGS.dwc_opt, "--one-shot-bufferize=bufferize-function-boundaries "
                        "function-boundary-type-conversion=identity-layout-map",
                        "--dwc-select-kernels", src], capture_output=True, text=True)
    if k.returncode != 0:
        return k
    selected = k.stdout.replace('argmax = "packed"', 'argmax = "stored"')
    k = subprocess.run([ARGS.dwc_opt, "--convert-dwc-to-gpu-pool"], input=selected,
                       capture_output=True, text=True)
    if k.returncode != 0 or "dwc.pool2d" in k.stdout:
        k.returncode, k.stderr = 1, k.stderr or "ops left by convert-dwc-to-gpu-pool"
        return k
    return subprocess.run([ARGS.dwc_opt] + C.EMULATE_PIPELINE,
                          input=C.launches_to_loops(k.stdout), capture_output=True, text=True)


def check_kernels(cases):
    module = "\n".join(s.mlir("pool_bwd") for s in SPECS) + C.build_module(cases)
    lowerings = {
        "cpu": lambda src: subprocess.run([ARGS.dwc_opt, "--dwc-to-llvm-cpu", src],
                                          capture_output=True, text=True),
        "gpu-pool-emulated": lower_gpu_pool_emulated}
    failed = 0
    for name, lower in lowerings.items():
        outs, err = run_lowered(module, lower)
        if err or len(outs) != len(cases):
            print("FAIL %s: %s" % (name, err or "%d results" % len(outs)))
            failed += 1
            continue
        for c, got in zip(cases, outs):
            ok, msg = C.compare(c, C.decode(got, c.out_ty), ARGS.inject_error)
            print("%s %s %s (%s)" % ("PASS" if ok else "FAIL", name, c.name, msg))
            failed += not ok
    return failed


class AvgPoolBackwardLayouts:
    """Records whether aten.avg_pool2d_backward got contiguous tensors."""

    def __init__(self):
        from torch.utils._python_dispatch import TorchDispatchMode
        outer = self
        self.calls = []

        class Mode(TorchDispatchMode):
            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                if func is __import__("torch").ops.aten.avg_pool2d_backward.default:
                    outer.calls.append(all(a.is_contiguous() for a in args[:2]))
                return func(*args, **(kwargs or {}))
        self.mode = Mode()


def check_references(cases):
    """pool_reference (the GPU check's) and the PyTorch fallback of the
    dwc:: op on the same data, channels_last inputs as the models have."""
    import torch
    from dwcbench import networks
    import dwc_torch.ops  # noqa: F401  (registers torch.ops.dwc)
    failed = 0
    for s, c in zip(SPECS, cases):
        tdt = {"f32": torch.float32, "f16": torch.float16}[s.dtype]
        nhwc = lambda t: torch.tensor(t.data, dtype=torch.float64).reshape(t.shape)
        x = nhwc(c.consts[0][1]).permute(0, 3, 1, 2).to(tdt)   # channels_last views
        gy = nhwc(c.consts[1][1]).permute(0, 3, 1, 2).to(tdt)
        args = (s.kind, list(s.window), list(s.stride), list(s.padding), s.ceil_mode,
                s.count_include_pad)
        rec = AvgPoolBackwardLayouts()
        with rec.mode:  # (the mode sees aten calls of Python code only)
            _, dx_ref = networks.pool_reference(s, x, gy)
            dx_fb = dwc_torch.ops._pool_bwd(x, gy, *args)
        dx_op = torch.ops.dwc.pool2d_backward(x, gy, *args)
        padded = s.kind == "avg" and any(s.padding)
        layouts_ok = not padded or (len(rec.calls) == 2 and all(rec.calls))
        for what, got in (("pool_reference", dx_ref), ("fallback", dx_fb), ("op", dx_op)):
            vals = got.permute(0, 2, 3, 1).double().reshape(-1).tolist()
            ok, msg = C.compare(c, vals, ARGS.inject_error)
            ok = ok and layouts_ok
            print("%s %s %s (%s, contiguous: %s)" % ("PASS" if ok else "FAIL", what, c.name,
                                                      msg, layouts_ok))
            failed += not ok
    return failed


def main():
    rng = random.Random(19)
    cases = [case(rng, s) for s in SPECS]
    failed = check_kernels(cases) + check_references(cases)
    print("pool backward: %d failed" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
