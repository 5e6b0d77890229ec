#!/usr/bin/env python3
"""PTX of every benchmark kernel, to prove a compiler change leaves it alone.

  bench/ptx_identity.py snapshot DIR [--dwc-opt PATH] [--chips sm_90,sm_90a]
                                     [--only SUBSTR,...] [-j N]
  bench/ptx_identity.py compare BEFORE AFTER [--renamed]

`snapshot` compiles each configuration of the benchmark sets (forward grid,
odd and 16-bit sets; backward floor, check and odd sets; pooling grid and odd;
dense conv2d layers and odd shapes; strided layers and odd shapes, all three
ops) with `dwc-opt --dwc-to-nvvm="chip=C format=isa"` and writes
DIR/<chip>/<name>.ptx with the kernel names replaced by K0, K1, ... in order
of appearance, plus DIR/manifest.json (sha256 per kernel, failures, the
dwc-opt commit). `compare` prints every kernel whose PTX differs or that
exists on one side only, and exits 1 if any does.
"""

import argparse
import concurrent.futures as cf
import hashlib
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))


def benchmark_kernels():
    """(name, mlir text, extra dwc-opt pipeline options) of every kernel."""
    import backward_configs
    import configs
    import conv_configs
    import pool_configs
    import stride_configs

    out = []
    for s in ("grid", "odd", "fwd16"):
        out += [(c.name, c.mlir(), "") for c in configs.get_set(s)]
    for s in ("floor", "check", "bwdfodd"):
        out += [(c.name, c.mlir(), "") for c in backward_configs.get_set(s)]
    for s in ("grid", "odd"):
        out += [(c.name, c.mlir(), "") for c in pool_configs.get_set(s)]
    for c in conv_configs.layer_set() + conv_configs.odd_set():
        out += [(c.name, c.mlir(), "")]  # (variants: dwc.kernel in the MLIR)
    for layer in stride_configs.layers_set() + stride_configs.odd_set():
        for op in stride_configs.OPS:
            oc = stride_configs.OpConfig(layer, op, "")
            out += [(oc.name, oc.mlir(), "")]
    seen, unique = set(), []
    for k in out:
        if k[0] not in seen:
            seen.add(k[0])
            unique.append(k)
    return unique


_ESCAPE = re.compile(r"\\([0-9A-Fa-f]{2})")


def ptx_of(mlir_text):
    """The PTX strings of the gpu.binary ops of a dwc-to-nvvm result."""
    found = re.findall(r'assembly = "((?:[^"\\]|\\.)*)"', mlir_text)
    return [_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), s).replace("\\\\", "\\")
            for s in found]


def normalized(ptx_list):
    """Kernel names (.entry symbols) replaced by K0, K1, ... in order."""
    text = "\n".join(ptx_list)
    names = []
    for m in re.finditer(r"\.entry\s+([A-Za-z_$][\w$]*)", text):
        if m.group(1) not in names:
            names.append(m.group(1))
    for i, n in sorted(enumerate(names), key=lambda p: -len(p[1])):
        text = re.sub(r"\b" + re.escape(n) + r"(?=\b|_param_)", f"K{i}", text)
    return text, names


def compile_one(dwc_opt, chip, name, mlir, extra, outdir):
    path = os.path.join(outdir, chip, name + ".mlir")
    with open(path, "w") as f:
        f.write(mlir)
    pipeline = f"--dwc-to-nvvm=chip={chip} format=isa{extra}"
    r = subprocess.run([dwc_opt, path, pipeline], capture_output=True, text=True)
    os.remove(path)
    if r.returncode != 0:
        return name, chip, None, r.stderr.strip().splitlines()[-1:] or ["?"]
    text, names = normalized(ptx_of(r.stdout))
    with open(os.path.join(outdir, chip, name + ".ptx"), "w") as f:
        f.write(text)
    return name, chip, hashlib.sha256(text.encode()).hexdigest(), names


def snapshot(a):
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
    jobs = [(c, *k) for c in chips for k in kernels]
    with cf.ThreadPoolExecutor(a.j) as ex:
        futs = [ex.submit(compile_one, a.dwc_opt, c, n, m, e, a.dir)
                for (c, n, m, e) in jobs]
        for f in cf.as_completed(futs):
            name, chip, digest, info = f.result()
            key = f"{chip}/{name}"
            if digest is None:
                manifest["failed"][key] = info
            else:
                manifest["kernels"][key] = {"sha256": digest, "entries": info}
    with open(os.path.join(a.dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    print(f"{len(manifest['kernels'])} kernels, {len(manifest['failed'])} failed "
          f"-> {a.dir}")
    return 0


# Static shared buffers are named after their kernel (__wg_<kernel>_<i>);
# kernels that shared one name before are K0, K0, ... there and K0, K1, ...
# once renamed apart.
_WG_NAME = re.compile(r"__wg_[\w$]+_(\d+)\b")
_ENTRY_INDEX = re.compile(r"\bK\d+(?=\b|_param_)")


def same_apart_from_names(before_dir, after_dir, key):
    """Whether two kernels' PTX differ only in what their names decide: the
    names of static shared buffers and the entry indices (the rest of the
    PTX, in order, is compared)."""
    def read(d):
        text = open(os.path.join(d, key + ".ptx")).read()
        return _ENTRY_INDEX.sub("K", _WG_NAME.sub(r"__wg_K_\1", text))
    try:
        return read(before_dir) == read(after_dir)
    except OSError:
        return False


def compare(a):
    load = lambda d: json.load(open(os.path.join(d, "manifest.json")))
    before, after = load(a.before), load(a.after)
    kb, ka = before["kernels"], after["kernels"]
    differ = sorted(k for k in kb.keys() & ka.keys()
                    if kb[k]["sha256"] != ka[k]["sha256"])
    if a.renamed:
        renamed = [k for k in differ if same_apart_from_names(a.before, a.after, k)]
        differ = [k for k in differ if k not in renamed]
        print(f"{len(renamed)} differ only in kernel names (static shared buffer "
              f"names __wg_<kernel>_<i>, entry indices)")
    only_b = sorted(kb.keys() - ka.keys())
    only_a = sorted(ka.keys() - kb.keys())
    for k in differ:
        print(f"DIFFERS {k}")
    for k in only_b:
        print(f"ONLY-BEFORE {k}")
    for k in only_a:
        print(f"ONLY-AFTER {k}")
    same = len(kb.keys() & ka.keys()) - len(differ)
    print(f"{before['commit']} -> {after['commit']}: {same} identical, "
          f"{len(differ)} differ, {len(only_b)} only before, {len(only_a)} only after")
    return 1 if differ or only_b or only_a else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("snapshot")
    s.add_argument("dir")
    s.add_argument("--dwc-opt", default=os.path.join(ROOT, "build/bin/dwc-opt"))
    s.add_argument("--chips", default="sm_90,sm_90a")
    s.add_argument("--only", default="")
    s.add_argument("-j", type=int, default=2)
    c = sub.add_parser("compare")
    c.add_argument("before")
    c.add_argument("after")
    c.add_argument("--renamed", action="store_true",
                   help="count kernels whose PTX differs only in what kernel names decide "
                        "(__wg_<kernel>_<i> buffer names, entry indices) as identical")
    a = ap.parse_args(argv)
    return snapshot(a) if a.cmd == "snapshot" else compare(a)


if __name__ == "__main__":
    sys.exit(main())
