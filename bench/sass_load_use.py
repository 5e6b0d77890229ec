"""Static load-latency cover of a dwc kernel, without a GPU: compiles an
MLIR file with dwc-opt (--dwc-to-nvvm, PTX), assembles it with ptxas and
disassembles it with cuobjdump, then prints per kernel its registers and
spills, the instruction and FFMA counts, and for every global load (LDG)
how many instructions lie between it and the first instruction that reads
its destination (min / median): the work a warp can issue while its load
is in flight.

    python3 bench/sass_load_use.py layer.mlir [--chip sm_90a]
        [--kernel '#dwc.row_tile<...>']   (written on the file's first op)

cuobjdump: $CUOBJDUMP, PATH, the CUDA toolkit, or the one Triton's wheel
carries (triton/backends/nvidia/bin).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptx_identity import ptx_of  # noqa: E402


def tool(name, env):
    found = os.environ.get(env) or shutil.which(name)
    if found:
        return found
    for d in (os.environ.get("CUDA_HOME", "/usr/local/cuda") + "/bin",):
        if os.path.exists(os.path.join(d, name)):
            return os.path.join(d, name)
    try:
        import triton
        p = os.path.join(os.path.dirname(triton.__file__), "backends/nvidia/bin", name)
        if os.path.exists(p):
            return p
    except ImportError:
        pass
    raise SystemExit(f"no {name} (set {env})")


def with_kernel(mlir, config):
    """The first dwc op of `mlir` with {dwc.kernel = config}."""
    return re.sub(r"(padding = \[[^\]]*\])", r"\1 {dwc.kernel = " + config + "}", mlir, count=1)


def load_use(sass_lines):
    ins = [re.sub(r"^\s+/\*[0-9a-f]{4}\*/\s+", "", l).split(";")[0] for l in sass_lines]
    dist = []
    for i, s in enumerate(ins):
        m = re.match(r"(@\S+\s+)?LDG\S*\s+(R\d+)", s)
        if not m:
            continue
        reg = re.compile(r"\b" + m.group(2) + r"\b")
        for j in range(i + 1, len(ins)):
            parts = ins[j].split(None, 1)
            if len(parts) < 2:
                continue
            srcs = parts[1].split(",") if parts[0].startswith("ST") else parts[1].split(",")[1:]
            if any(reg.search(x) for x in srcs):
                dist.append(j - i)
                break
    return ins, sorted(dist)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mlir")
    ap.add_argument("--chip", default="sm_90a")
    ap.add_argument("--kernel", default="")
    ap.add_argument("--dwc-opt", default="build/bin/dwc-opt")
    a = ap.parse_args()
    text = open(a.mlir).read()
    if a.kernel:
        text = with_kernel(text, a.kernel)
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "in.mlir")
        open(src, "w").write(text)
        r = subprocess.run([a.dwc_opt, src, f"--dwc-to-nvvm=chip={a.chip} format=isa"],
                           capture_output=True, text=True)
        if r.returncode:
            raise SystemExit(r.stderr.strip()[-2000:])
        for k, ptx in enumerate(ptx_of(r.stdout)):
            p, cub = os.path.join(d, f"k{k}.ptx"), os.path.join(d, f"k{k}.cubin")
            open(p, "w").write(ptx)
            v = subprocess.run([tool("ptxas", "PTXAS"), f"-arch={a.chip}", "-v", p, "-o", cub],
                               capture_output=True, text=True)
            info = " ".join(re.findall(r"\d+ bytes spill stores|Used \d+ registers", v.stderr))
            sass = subprocess.run([tool("cuobjdump", "CUOBJDUMP"), "-sass", cub],
                                  capture_output=True, text=True).stdout
            for name, body in re.findall(r"Function : (\S+)\n(.*?)(?=Function :|\Z)", sass, re.S):
                lines = [l for l in body.splitlines() if re.match(r"\s+/\*[0-9a-f]{4}\*/", l)]
                ins, dist = load_use(lines)
                ffma = sum(1 for s in ins if s.startswith("FFMA"))
                mid = dist[len(dist) // 2] if dist else "-"
                print(f"{name}: {info}; {len(ins)} instructions, {ffma} FFMA, {len(dist)} LDG, "
                      f"load -> first use min {dist[0] if dist else '-'} / median {mid}")


if __name__ == "__main__":
    main()
