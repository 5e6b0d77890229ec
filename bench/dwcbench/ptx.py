"""Checks of the PTX dwc-opt writes for the benchmark's kernels, without a
GPU (dwc-opt and ptxas only).

ptxas-audit DIR: every kernel of every .mlir file of DIR (a `build` output
directory, or any folder of layer MLIR), lowered to PTX and assembled with
ptxas -v; its registers, stack frame and spill bytes. Exit 1 when a kernel
spills or a file fails to lower or assemble, so the selection's no-spill
rule can be checked over a whole layer set at once.

ptx-identity snapshot DIR / compare BEFORE AFTER: the PTX of every kernel
of the benchmark's sets (sets.benchmark_kernels), kernel names replaced by
K0, K1, ... in order of appearance, with a manifest of sha256 per kernel;
`compare` lists every kernel whose PTX differs or exists on one side only
(exit 1 if any): the proof that a compiler change leaves the kernels alone.
"""

import concurrent.futures as cf
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile

from . import ROOT

_ESCAPE = re.compile(r"\\([0-9A-Fa-f]{2})")
# ptxas -v, one kernel: "Compiling entry function 'K' for 'sm_90'", then
# "N bytes stack frame, S bytes spill stores, L bytes spill loads", then
# "Used R registers, ...".
ENTRY = re.compile(r"Compiling entry function '([^']+)'")
FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
REGS = re.compile(r"Used (\d+) registers")


def ptx_of(mlir_text):
    """The PTX strings of the gpu.binary ops of a dwc-to-nvvm result."""
    found = re.findall(r'assembly = "((?:[^"\\]|\\.)*)"', mlir_text)
    return [_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), s).replace("\\\\", "\\")
            for s in found]


def find_ptxas():
    found = os.environ.get("PTXAS") or shutil.which("ptxas")
    if found:
        return found
    cand = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "ptxas")
    if os.path.exists(cand):
        return cand
    raise SystemExit("ptxas not found (set PTXAS or CUDA_HOME)")


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
    r = subprocess.run([dwc_opt, path, "--dwc-to-nvvm=chip=%s format=isa" % chip],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return name, [], "dwc-opt: " + r.stderr.strip()[-300:]
    rows = []
    with tempfile.TemporaryDirectory() as d:
        for i, ptx in enumerate(ptx_of(r.stdout)):
            p = os.path.join(d, "k%d.ptx" % i)
            with open(p, "w") as f:
                f.write(ptx)
            v = subprocess.run([ptxas, "-arch=" + chip, "-v", p, "-o", p + ".cubin"],
                               capture_output=True, text=True)
            if v.returncode != 0:
                return name, rows, "ptxas: " + v.stderr.strip()[-300:]
            rows += parse_ptxas(v.stdout + v.stderr)
    return name, rows, None


def ptxas_audit(a):
    files = sorted(f for f in glob.glob(os.path.join(a.dir, "*.mlir")) if a.only in f)
    if not files:
        raise SystemExit("ptxas-audit: no .mlir files in %s" % a.dir)
    ptxas = find_ptxas()
    with cf.ThreadPoolExecutor(a.j) as ex:
        results = list(ex.map(lambda f: audit_file(f, a.dwc_opt, ptxas, a.chip), files))
    bad, kernels = 0, 0
    for name, rows, err in results:
        if err:
            bad += 1
            print("FAIL %s: %s" % (name, err))
        for k in rows:
            kernels += 1
            spill = k["spill_stores"] + k["spill_loads"]
            bad += spill > 0
            print("%s %s %s: %s registers, %d bytes stack, %d / %d bytes spilled"
                  % ("SPILL" if spill else "ok", name, k["kernel"], k["registers"],
                     k["stack"], k["spill_stores"], k["spill_loads"]))
    regs = [k["registers"] for _, rows, _ in results for k in rows if k["registers"]]
    print("ptxas-audit: %d files, %d kernels (%s), registers %d-%d, %d failing"
          % (len(files), kernels, a.chip, min(regs, default=0), max(regs, default=0), bad))
    if a.json:
        with open(a.json, "w") as f:
            json.dump([{"file": n, "kernels": r, "error": e} for n, r, e in results], f, indent=1)
    return 1 if bad else 0


def normalized(ptx_list):
    """Kernel names (.entry symbols) replaced by K0, K1, ... in order."""
    text = "\n".join(ptx_list)
    names = []
    for m in re.finditer(r"\.entry\s+([A-Za-z_$][\w$]*)", text):
        if m.group(1) not in names:
            names.append(m.group(1))
    for i, n in sorted(enumerate(names), key=lambda p: -len(p[1])):
        text = re.sub(r"\b" + re.escape(n) + r"(?=\b|_param_)", "K%d" % i, text)
    return text, names


def compile_one(dwc_opt, chip, name, mlir, outdir):
    path = os.path.join(outdir, chip, name + ".mlir")
    with open(path, "w") as f:
        f.write(mlir)
    r = subprocess.run([dwc_opt, path, "--dwc-to-nvvm=chip=%s format=isa" % chip],
                       capture_output=True, text=True)
    os.remove(path)
    if r.returncode != 0:
        return name, chip, None, r.stderr.strip().splitlines()[-1:] or ["?"]
    text, names = normalized(ptx_of(r.stdout))
    with open(os.path.join(outdir, chip, name + ".ptx"), "w") as f:
        f.write(text)
    return name, chip, hashlib.sha256(text.encode()).hexdigest(), names


def snapshot(a):
    from .sets import benchmark_kernels
    kernels = benchmark_kernels()
    keep = [s for s in a.only.split(",") if s]
    if keep:
        kernels = [k for k in kernels if any(s in k[0] for s in keep)]
    chips = a.chips.split(",")
    for c in chips:
        os.makedirs(os.path.join(a.dir, c), exist_ok=True)
    commit = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"],
                            capture_output=True, text=True).stdout.strip()
    manifest = {"commit": commit, "dwc_opt": a.dwc_opt, "kernels": {}, "failed": {}}
    with cf.ThreadPoolExecutor(a.j) as ex:
        futs = [ex.submit(compile_one, a.dwc_opt, c, n, m, a.dir)
                for c in chips for (n, m) in kernels]
        for f in cf.as_completed(futs):
            name, chip, digest, info = f.result()
            key = "%s/%s" % (chip, name)
            if digest is None:
                manifest["failed"][key] = info
            else:
                manifest["kernels"][key] = {"sha256": digest, "entries": info}
    with open(os.path.join(a.dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    print("%d kernels, %d failed -> %s" % (len(manifest["kernels"]), len(manifest["failed"]), a.dir))
    return 0


# Static shared buffers are named after their kernel (__wg_<kernel>_<i>):
# kernels that shared one name before are K0, K0, ... there and K0, K1, ...
# once renamed apart.
_WG_NAME = re.compile(r"__wg_[\w$]+_(\d+)\b")
_ENTRY_INDEX = re.compile(r"\bK\d+(?=\b|_param_)")


def same_apart_from_names(before_dir, after_dir, key):
    """Whether two kernels' PTX differ only in what their names decide."""
    def read(d):
        with open(os.path.join(d, key + ".ptx")) as f:
            return _ENTRY_INDEX.sub("K", _WG_NAME.sub(r"__wg_K_\1", f.read()))
    try:
        return read(before_dir) == read(after_dir)
    except OSError:
        return False


def compare(a):
    def load(d):
        with open(os.path.join(d, "manifest.json")) as f:
            return json.load(f)
    before, after = load(a.before), load(a.after)
    kb, ka = before["kernels"], after["kernels"]
    differ = sorted(k for k in kb.keys() & ka.keys() if kb[k]["sha256"] != ka[k]["sha256"])
    if a.renamed:
        renamed = [k for k in differ if same_apart_from_names(a.before, a.after, k)]
        differ = [k for k in differ if k not in renamed]
        print("%d differ only in kernel names (static shared buffer names "
              "__wg_<kernel>_<i>, entry indices)" % len(renamed))
    only_b, only_a = sorted(kb.keys() - ka.keys()), sorted(ka.keys() - kb.keys())
    for tag, keys in (("DIFFERS", differ), ("ONLY-BEFORE", only_b), ("ONLY-AFTER", only_a)):
        for k in keys:
            print(tag, k)
    same = len(kb.keys() & ka.keys()) - len(differ)
    print("%s -> %s: %d identical, %d differ, %d only before, %d only after"
          % (before["commit"], after["commit"], same, len(differ), len(only_b), len(only_a)))
    return 1 if differ or only_b or only_a else 0
