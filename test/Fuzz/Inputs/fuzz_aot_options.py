#!/usr/bin/env python3
"""Seeded option sweep of dwc-aot: random combinations of its options with
hostile values (empty, negative, 2^62, wrong chips and PTX versions, bad
former options) on valid inputs. Passes when every run ends in success
or a diagnostic (exit 0 or 1) within the time limit: a signal, an
'LLVM ERROR', a crash report, a timeout or an exit status of 0 after an
error message is a failure."""
import argparse
import random
import subprocess
import sys

VALUES = ["0", "-1", "1", "3", "7", "2147483648", "4611686018427387904", "",
          "x", "sm_90", "sm_52", "sm_100", "sm90", "+ptx80", "+ptx70", "bogus",
          # PTX versions LLVM does not know, toolkit paths that are not one.
          "+ptx999", "+ptx79", "+ptx89", "+ptx100", "+ptx0", "/nonexistent",
          "/tmp", "/usr/local/cuda"]
PASS_OPTIONS = ["z=-1", "tm=99999", "rows=0", "row-tile=99",
                "stream-max-taps=1000", "bogus=1", "max-filter-width=0"]
OPTIONS = ["--chip", "--features", "--opt-level", "--format", "--toolkit",
           "--sm-count", "--alignment", "--target-cpu", "--target-triple",
           "--pipeline", "--emit", "--header",
           # Former kernel options: unknown now, must still be a clean error.
           "--gemv-options", "--fast-paths"]
CRASH_MARKS = ("LLVM ERROR", "PLEASE submit a bug report", "Stack dump")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dwc-aot", default="dwc-aot")
    ap.add_argument("--input", action="append", required=True)
    ap.add_argument("--out", required=True, help="object path to write")
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    failures = 0
    for _ in range(args.count):
        cmd = [args.dwc_aot, rng.choice(args.input), "-o", args.out]
        for _ in range(rng.randint(1, 3)):
            opt = rng.choice(OPTIONS)
            pool = VALUES + (PASS_OPTIONS if opt.endswith("-options") else [])
            cmd.append("%s=%s" % (opt, rng.choice(pool)))
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            why = ("exit %d" % p.returncode if p.returncode not in (0, 1) else
                   next((m for m in CRASH_MARKS if m in p.stderr), None))
            if not why and p.returncode == 0 and "error" in p.stderr:
                why = "exit 0 after an error"
        except subprocess.TimeoutExpired:
            why = "timeout"
        if why:
            failures += 1
            print("FAIL (%s): %s" % (why, " ".join(cmd[1:])))
    print("dwc-aot option sweep seed %d: %d runs, %d failures" %
          (args.seed, args.count, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
