#!/usr/bin/env python3
"""Times each split of an .mlir file through a dwc-opt pipeline, one process
per split: prints one line per split (its last comment line, CPU and wall
seconds) and the slowest; exits 1 when a split fails or takes more than
--limit seconds of CPU time (the process's own: not inflated by other jobs
on a shared machine), or runs longer than 10 x --limit seconds (it is then
stopped)."""
import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("input")
    ap.add_argument("--dwc-opt", default="dwc-opt")
    ap.add_argument("--limit", type=float, default=10.0)
    ap.add_argument("--arg", action="append", default=[], dest="args",
                    help="a dwc-opt argument (repeatable), e.g. "
                         "--arg=--dwc-to-nvvm=format=isa")
    a = ap.parse_args()
    splits = open(a.input).read().split("\n// -----\n")
    worst, bad = 0.0, 0
    for i, text in enumerate(splits):
        # (The split's last comment line before its code names it.)
        head = text.split("func.func", 1)[0].strip().splitlines()
        name = head[-1][3:] if head and head[-1].startswith("// ") else "split %d" % i
        with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
            f.write(text)
        start = time.monotonic()
        cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        try:
            p = subprocess.run([a.dwc_opt, f.name, "-o", os.devnull] + a.args,
                               capture_output=True, text=True,
                               timeout=a.limit * 10)
            status = "ok" if p.returncode == 0 else "exit %d: %s" % (
                p.returncode, p.stderr.strip().splitlines()[-1:])
        except subprocess.TimeoutExpired:
            status = "timeout"
        finally:
            os.unlink(f.name)
        wall = time.monotonic() - start
        cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        took = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
        worst = max(worst, took)
        slow = took > a.limit
        bad += slow or status != "ok"
        print("%-70s %6.2f s CPU %6.2f s wall %s%s" % (
            name, took, wall, status,
            " SLOWER THAN %g s" % a.limit if slow else ""))
    print("%d splits, slowest %.2f s CPU, %d over %g s or failed" %
          (len(splits), worst, bad, a.limit))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
