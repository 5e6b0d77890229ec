#!/usr/bin/env python3
"""Key Nsight Compute metrics per kernel from `ncu --csv --page details`
files (bench/results/*-s20-runB.sh): duration, DRAM throughput, occupancy,
registers, grid, cache hit rates, issue latency; the last launch of each
kernel name, PyTorch's elementwise set-up kernels left out."""

import collections
import csv
import sys

WANT = ["Duration", "DRAM Throughput", "Achieved Occupancy", "Theoretical Occupancy",
        "Registers Per Thread", "Block Size", "Grid Size", "Waves Per SM",
        "Block Limit Registers", "Static Shared Memory Per Block", "L1/TEX Hit Rate",
        "L2 Hit Rate", "Warp Cycles Per Issued Instruction"]


def summary(path):
    rows = [r for r in csv.reader(open(path)) if r and not r[0].startswith("==")]
    h = {name: i for i, name in enumerate(rows[0])}
    per = collections.OrderedDict()
    for r in rows[1:]:
        name = r[h["Kernel Name"]]
        if "elementwise" in name or "distribution" in name:
            continue
        per.setdefault(name, {})[r[h["Metric Name"]]] = (
            r[h["Metric Value"]] + " " + r[h["Metric Unit"]]).strip()
    return per


def main():
    print("| file | kernel | " + " | ".join(WANT) + " |")
    print("|---|---|" + "---|" * len(WANT))
    for path in sys.argv[1:]:
        for name, m in summary(path).items():
            print(f"| {path.split('/')[-1]} | `{name[:60]}` | " +
                  " | ".join(m.get(w, "-") for w in WANT) + " |")


if __name__ == "__main__":
    main()
