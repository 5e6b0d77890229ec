#!/usr/bin/env python3
"""ptxas audit of a built kernel set, without a GPU: every kernel of every
MLIR file in a bench/stride_configs.py (or aot_build) output directory,
lowered with dwc-opt to PTX for the chip the set was built for, assembled
with ptxas -v; prints per kernel its registers, stack frame and spill bytes,
and a summary. Exit status 1 when a kernel spills (or a file fails to
lower or assemble), so the selection's no-spill rule can be checked over a
whole layer set at once, not only on the lit tests' chosen shapes.

    python3 bench/ptxas_audit.py DIR [--chip sm_90] [--dwc-opt build/bin/dwc-opt]
        [-j 2] [--only SUBSTR] [--json OUT.json]
"""
import argparse
import concurrent.futures as cf
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptx_identity import ptx_of  # noqa: E402
from sass_load_use import tool  # noqa: E402

# ptxas -v, one kernel: "Compiling entry function 'K' for 'sm_90'", then
# "Function properties for K" / "N bytes stack frame, S bytes spill stores,
# L bytes spill loads", then "Used R registers, ...".
ENTRY = re.compile(r"Compiling entry function '([^']+)'")
FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
REGS = re.compile(r"Used (\d+) registers")


def parse_ptxas(text):
    """[{kernel, registers, stack, spill_stores, spill_loads}] from ptxas -v."""
    out, cur = [], None
    for line in text.splitlines():
        m = ENTRY.search(line)
        if m:
            cur = {"kernel": m.group(1), "registers": None, "stack": 0,
                   "spill_stores": 0, "spill_loads": 0}
            out.append(cur)
            continue
        if cur is None:
            continue
        m = FRAME.search(line)
        if m:
            cur["stack"], cur["spill_stores"], cur["spill_loads"] = map(int, m.groups())
        m = REGS.search(line)
        if m:
            cur["registers"] = int(m.group(1))
    return out


def audit_file(path, dwc_opt, ptxas, chip):
    """(file name, [kernel rows], error or None)."""
    name = os.path.basename(path)
    r = subprocess.run([dwc_opt, path, f"--dwc-to-nvvm=chip={chip} format=isa"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return name, [], "dwc-opt: " + r.stderr.strip()[-300:]
    rows = []
    with tempfile.TemporaryDirectory() as d:
        for i, ptx in enumerate(ptx_of(r.stdout)):
            p = os.path.join(d, f"k{i}.ptx")
            with open(p, "w") as f:
                f.write(ptx)
            v = subprocess.run([ptxas, f"-arch={chip}", "-v", p, "-o", p + ".cubin"],
                               capture_output=True, text=True)
            if v.returncode != 0:
                return name, rows, "ptxas: " + v.stderr.strip()[-300:]
            rows += parse_ptxas(v.stdout + v.stderr)
    return name, rows, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--chip", default="sm_90", help="what dwc-aot builds for by default")
    ap.add_argument("--dwc-opt", default="build/bin/dwc-opt")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--only", default="", help="only files whose name contains this")
    ap.add_argument("--json")
    a = ap.parse_args()
    files = sorted(f for f in glob.glob(os.path.join(a.dir, "*.mlir")) if a.only in f)
    if not files:
        raise SystemExit(f"ptxas_audit: no .mlir files in {a.dir}")
    ptxas = tool("ptxas", "PTXAS")
    with cf.ThreadPoolExecutor(a.j) as ex:
        results = list(ex.map(lambda f: audit_file(f, a.dwc_opt, ptxas, a.chip), files))
    bad, kernels = 0, 0
    for name, rows, err in results:
        if err:
            bad += 1
            print(f"FAIL {name}: {err}")
        for k in rows:
            kernels += 1
            spill = k["spill_stores"] + k["spill_loads"]
            bad += spill > 0
            print("%s %s %s: %s registers, %d bytes stack, %d / %d bytes spilled"
                  % ("SPILL" if spill else "ok", name, k["kernel"], k["registers"],
                     k["stack"], k["spill_stores"], k["spill_loads"]))
    regs = [k["registers"] for _, rows, _ in results for k in rows if k["registers"]]
    print(f"ptxas_audit: {len(files)} files, {kernels} kernels ({a.chip}), "
          f"registers {min(regs, default=0)}-{max(regs, default=0)}, {bad} failing")
    if a.json:
        with open(a.json, "w") as f:
            json.dump([{"file": n, "kernels": r, "error": e} for n, r, e in results], f, indent=1)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
