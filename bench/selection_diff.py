"""Which layers of a bench/stride_configs.py set get a different kernel from
two compilers: runs dwc-select-kernels of each dwc-opt on every op of the set
and prints the layers whose chosen `dwc.kernel` differs (so that only those
are re-timed on the GPU), or writes them as an --only list.

    python3 bench/selection_diff.py --old OLD/dwc-opt --new build/bin/dwc-opt \
        [--set net] [--chip sm_90] [--only-list FILE]
"""

import argparse
import re
import subprocess
import sys
import os

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stride_configs import get_set  # noqa: E402



def selections(dwc_opt, mlir, chip):
    """{function name: chosen config text}."""
    r = subprocess.run([dwc_opt, f"--dwc-attach-target=chip={chip}", "--dwc-select-kernels",
                        "-"], input=mlir, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"{dwc_opt} failed: {r.stderr[:2000]}")
    out = {}
    for func in r.stdout.split("func.func @")[1:]:
        name = func.split("(", 1)[0]
        m = re.search(r"dwc\.kernel = (#dwc\.[a-z_0-9]+(?:<[^>]*>)?)", func)
        out[name] = m.group(1) if m else "(none)"
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--set", default="net")
    ap.add_argument("--chip", default="sm_90")
    ap.add_argument("--only-list", default="", help="write the changed layer keys, comma-separated")
    a = ap.parse_args()
    layers = get_set(a.set)
    names = {}
    parts = []
    for l in layers:
        for op in l.ops:
            names[l.name(op)] = (l.key, op)
            parts.append(l.mlir(op))
    mlir = "\n".join(parts)
    old, new = selections(a.old, mlir, a.chip), selections(a.new, mlir, a.chip)
    changed = {}
    for n, (key, op) in names.items():
        if old.get(n) != new.get(n):
            changed.setdefault(key, []).append(f"{op}: {old.get(n)} -> {new.get(n)}")
    for key, what in changed.items():
        print(key)
        for w in what:
            print("   ", w)
    print(f"{len(changed)} of {len(layers)} layers changed")
    if a.only_list:
        with open(a.only_list, "w") as f:
            f.write(",".join(changed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
