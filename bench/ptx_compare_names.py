#!/usr/bin/env python3
"""Compare two bench/ptx_identity.py snapshots modulo kernel names.

  bench/ptx_compare_names.py BEFORE AFTER

ptx_identity.py replaces the .entry names of a kernel's PTX by K0, K1, ...
(in order of appearance, which a renaming can permute: `f_kernel` /
`f_kernel_0` against `f_bwd_filter_stream_zero` / `f_bwd_filter_stream`),
but not the shared-memory symbols LLVM derives from the kernel name
(`__wg_<kernel>_<n>`). This script also maps those to `__wg_K_<n>` and every
K<i> to K, then compares the texts file by file: a difference left is a
difference in the code. Prints each differing or one-sided kernel and a
summary; exits 1 if any.
"""

import os
import re
import sys

_WG = re.compile(r"__wg_[A-Za-z0-9_$]+?_(\d+)\b")
_K = re.compile(r"\bK\d+(?=\b|_param_)")


def normalized(text):
    return _K.sub("K", _WG.sub(r"__wg_K_\1", text))


def ptx_files(root):
    out = {}
    for chip in sorted(os.listdir(root)):
        d = os.path.join(root, chip)
        if os.path.isdir(d):
            for f in os.listdir(d):
                if f.endswith(".ptx"):
                    out[f"{chip}/{f[:-4]}"] = os.path.join(d, f)
    return out


def main(argv):
    before, after = ptx_files(argv[1]), ptx_files(argv[2])
    differ = [k for k in sorted(before.keys() & after.keys())
              if normalized(open(before[k]).read()) != normalized(open(after[k]).read())]
    only_b = sorted(before.keys() - after.keys())
    only_a = sorted(after.keys() - before.keys())
    for k in differ:
        print(f"DIFFERS {k}")
    for k in only_b:
        print(f"ONLY-BEFORE {k}")
    for k in only_a:
        print(f"ONLY-AFTER {k}")
    same = len(before.keys() & after.keys()) - len(differ)
    print(f"{same} identical modulo kernel names, {len(differ)} differ, "
          f"{len(only_b)} only before, {len(only_a)} only after")
    return 1 if differ or only_b or only_a else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
