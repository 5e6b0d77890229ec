"""Compares the numbers two run-cpu.py outputs print (the logits of the
raised and the unraised program) and optionally a reference list: fails
when max|a - b| / max|b| exceeds --rtol. Prints PASS/FAIL lines."""
import argparse
import re
import sys


def numbers(path):
    text = open(path).read()
    data = text[text.index("data =") + 6:]
    return [float(v) for v in re.findall(r"[-+]?[0-9][0-9.eE+-]*|nan|inf", data)]


ap = argparse.ArgumentParser()
ap.add_argument("a")
ap.add_argument("b")
ap.add_argument("--rtol", type=float, default=1e-5)
ap.add_argument("--reference", help="comma-separated expected values")
args = ap.parse_args()
ok = True
pairs = [("raised vs unraised", numbers(args.a), numbers(args.b))]
if args.reference:
    ref = [float(v) for v in args.reference.split(",")]
    pairs.append(("raised vs reference", numbers(args.a), ref))
for name, x, y in pairs:
    if len(x) != len(y) or not x:
        print(f"FAIL {name}: {len(x)} vs {len(y)} values")
        ok = False
        continue
    scale = max(abs(v) for v in y) or 1.0
    err = max(abs(p - q) for p, q in zip(x, y)) / scale
    good = err <= args.rtol
    ok &= good
    print(f"{'PASS' if good else 'FAIL'} {name}: rel err {err:.2e} (rtol {args.rtol:g})")
sys.exit(0 if ok else 1)
