"""The changed layers of the s17 selection, before / after / PyTorch, from
the sweep's result file: every changed kernel's configuration is matched to
the sweep side (main's selection 'after', or a variant tag) that built the
same completed configuration, so each row's new time is a measured one.

    python3 bench/fw_s17/summary.py --sweep bench/results/stride-2026-12-02-s17fw-sweep.json \
        --kernels /work/s17fw-kernels --old /work/ptx-s17fw/dwc-opt --new build/bin/dwc-opt \
        --changed bench/results/2026-12-02-s17fw-selection-diff-net.txt
"""

import argparse
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from selection_diff import selections  # noqa: E402
from stride_configs import get_set  # noqa: E402

OPS = ("fwd", "bwd_data")


def variant_configs(kernels, old):
    """{(function name without tag, tag): completed configuration}."""
    out = {}
    for d in sorted(glob.glob(os.path.join(kernels, "stride_t*"))):
        tag = d.rsplit("_", 1)[1]
        text = "\n".join(open(f).read() for f in glob.glob(os.path.join(d, "*.mlir")))
        for n, c in selections(old, text, "sm_90").items():
            out[(n[:-(len(tag) + 1)], tag)] = c
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sweep", required=True)
    ap.add_argument("--kernels", required=True)
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--changed", required=True)
    a = ap.parse_args()
    rows = {r["key"]: r for r in json.load(open(a.sweep))["rows"]}
    net = {l.key: l for l in get_set("net")}
    keys = [k for k in open(a.changed).read().strip().split(",") if k]
    var = variant_configs(a.kernels, a.old)
    text = "\n".join(net[k].mlir(op) for k in keys for op in OPS)
    new = selections(a.new, text, "sm_90")
    print("| layer | op | new configuration | sweep side | before us | after us | PyTorch us "
          "| x before -> after | % floor after | floor rule (x >= 1.5 or >= 85 %) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    worse = 0
    for k in keys:
        r = rows[k]
        for op in OPS:
            n = net[k].name(op)
            tags = [t for (m, t), c in var.items() if m == n and c == new[n]]
            tag = tags[0] if tags else None
            b = r["after"][op + "_ms"] * 1e3
            v = r[tag][op + "_ms"] * 1e3 if tag else float("nan")
            pt = r["torch_best"][op] * 1e3
            fl = r["floor_ms"] * 1e3
            worse += not (v < b)
            ok = lambda t: pt / t >= 1.5 or fl / t >= 0.85
            cfg = new[n].replace('filter = "registers", ', "").replace('filter = "registers"', "")
            print(f"| {k} | {op} | `{cfg}` | {tag or 'NOT MEASURED'} | {b:.1f} | {v:.1f} | "
                  f"{pt:.1f} | {pt / b:.2f} -> {pt / v:.2f} | {100 * fl / v:.0f} % | "
                  f"{'ok' if ok(b) else 'NO'} -> {'ok' if ok(v) else 'NO'} |")
    print(f"\n{len(keys)} layers, {2 * len(keys)} kernels; not faster than before: {worse}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
