#!/usr/bin/env python3
"""Before / after table of the layers whose forward / backward-data kernel
the full-row work changed, from the two device runs: the full-row rows
(kernel emitted output-column-major, as committed) from the sweep's `after`
side, the other rows (f32 batch-1 row tiles) from the final run's `after`;
`before` (main's selection) from the final run, PyTorch's best from the run
the row comes from.

    python3 bench/small_maps/full_row_summary.py SWEEP.json FINAL.json CHANGED.txt > OUT.md
"""
import json
import sys


def rows(path):
    return {r["key"]: r for r in json.load(open(path))["rows"] if not r.get("odd")}


def main():
    sweep, final = rows(sys.argv[1]), rows(sys.argv[2])
    changed = open(sys.argv[3]).read().strip().split(",")
    out = ["| layer | op | kernel now | before us | after us | PyTorch us | x before | x after | source |",
           "|---|---|---|---|---|---|---|---|---|"]
    ge1 = ge15 = n = 0
    for key in changed:
        f = final.get(key)
        if not f:
            continue
        larger = f["F"][0] > f["H"] or f["F"][1] > f["W"]
        covers = f["dtype"] != "f32" and f["F"][0] >= f["H"] and f["F"][1] >= f["W"]
        big = larger or covers
        # The sweep ran the committed full-row emission (forced as `fr` where
        # its first rule did not choose it yet); rows it lacks come from the
        # final run, whose full-row kernels multiplied filter-column-major.
        if big and key in sweep:
            src, r, side = "sweep", sweep[key], "after" if larger else "fr"
        else:
            src, r, side = ("final (taps-outer order)" if big else "final"), f, "after"
        for op in ("fwd", "bwd_data"):
            b = f.get("before", {}).get(op + "_ms")
            a = r.get(side, {}).get(op + "_ms")
            pt = r.get("torch_best", {}).get(op)
            if not (a and b and pt):
                continue
            n += 1
            ge1 += pt / a >= 1.0
            ge15 += pt / a >= 1.5
            out.append(f"| {key} | {op} | {'full_row' if big else 'row_tile 1x2x2'} | {b*1e3:.1f} | {a*1e3:.1f} | "
                       f"{pt*1e3:.1f} | {pt/b:.2f} | {pt/a:.2f} | {src} |")
    out.append("")
    out.append(f"{n} kernels: {ge1} at least as fast as PyTorch's best, {ge15} at 1.5x or more.")
    print("\n".join(out))


if __name__ == "__main__":
    main()
