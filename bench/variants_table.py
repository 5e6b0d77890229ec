"""Side-by-side table of the reports of bench/gpu_variants.sh: one row per
config, ours ms per variant, the best variant, cuDNN (same run, from the
reference variant) and the autotuned anchor, speedups and % of the floor.

    python3 bench/variants_table.py RESULTS_DIR VARIANT [VARIANT ...]
"""
import glob
import json
import os
import sys


def load(res, v):
    files = sorted(glob.glob(os.path.join(res, v, "*.json")))
    files = [f for f in files if not os.path.basename(f).startswith("state")]
    if not files:
        return {}
    with open(files[-1]) as f:
        rep = json.load(f)
    return {r["name"]: r for r in rep.get("rows", [])}


def main():
    res, variants = sys.argv[1], sys.argv[2:]
    reps = {v: load(res, v) for v in variants}
    names = []
    for v in variants:
        for n in reps[v]:
            if n not in names:
                names.append(n)
    f = lambda x, fmt="{:.3f}": "—" if x is None else fmt.format(x)
    print("| config | " + " | ".join(f"{v} ms" for v in variants)
          + " | best | cuDNN ms | anchor ms | best vs cuDNN | best vs anchor | % floor | correct |")
    print("|---" * (len(variants) + 8) + "|")
    for n in names:
        rows = [reps[v].get(n, {}) for v in variants]
        ms = [r.get("ours_ms") for r in rows]
        # Rows a variant did not get to (time budget) do not count.
        ok = all(r.get("correct") for r in rows if r and r.get("rel_err") is not None)
        errs = [r.get("rel_err") for r in rows if r and r.get("rel_err") is not None]
        cand = [(m, v) for m, v in zip(ms, variants) if m]
        best = min(cand) if cand else (None, None)
        ref = next((r.get("ref_ms") for r in rows if r.get("ref_ms")), None)
        anc = next((r.get("anchor_cudnn_ms") for r in rows if r.get("anchor_cudnn_ms")), None)
        floor = next((r.get("floor_ms") for r in rows if r.get("floor_ms")), None)
        print(f"| {n} | " + " | ".join(f(m) for m in ms)
              + f" | {best[1] or '—'} | {f(ref)} | {f(anc)} | "
              + f"{f(ref / best[0] if ref and best[0] else None, '{:.2f}×')} | "
              + f"{f(anc / best[0] if anc and best[0] else None, '{:.2f}×')} | "
              + f"{f(100 * floor / best[0] if floor and best[0] else None, '{:.0f}%')} | "
              + f"{'yes' if ok else 'NO'} (max err {f(max(errs) if errs else None, '{:.1e}')}) |")


if __name__ == "__main__":
    main()
