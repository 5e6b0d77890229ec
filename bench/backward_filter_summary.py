"""Summary of the backward-filter runs of 2026-11-30 (issue 7 floor): the
final run against the earlier split-z kernels and the best cuDNN time known
for each configuration (same run, earlier runs on the same GPU, anchors).
Writes OUT.json and prints the markdown tables (pasted into OUT.md).

    python3 bench/backward_filter_summary.py --final bench/results/2026-11-30-bwdf-final2.json \
        --before bench/results/2026-11-30-backward-h200-v4-filter.json \
        --cudnn bench/results/2026-11-30-bwdf-final.json bench/results/2026-11-30-backward-h200-v1.json \
        --out bench/results/2026-11-30-bwdf-summary
"""

import argparse
import json
import math

COPY_BPS = 4.24e12


def rows(path):
    with open(path) as f:
        return {r["name"]: r for r in json.load(f)["rows"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--final", required=True)
    ap.add_argument("--before", required=True)
    ap.add_argument("--cudnn", nargs="*", default=[])
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    final, before = rows(a.final), rows(a.before)
    others = [rows(p) for p in a.cudnn]
    out, lines = [], []
    for name, r in final.items():
        if r["N"] != 128 or r["op"] != "bwd_filter":
            continue
        cands = [x for x in [r.get("cudnn_ms"), r.get("anchor_ms")]
                 + [o.get(name, {}).get("cudnn_ms") for o in others] if x]
        best = min(cands) if cands else None
        e = {"name": name, "dtype": r["dtype"], "F": r["F"][0],
             "shape": f"{r['N']}x{r['H']}x{r['W']}x{r['C']}", "kernel": r["kernel"],
             "rel_err": r.get("rel_err"), "ours_ms": r.get("ours_ms"),
             "before_ms": before.get(name, {}).get("ours_ms"),
             "cudnn_same_run_ms": r.get("cudnn_ms"), "best_cudnn_ms": best,
             "TBps": r["bytes"] / (r["ours_ms"] * 1e-3) / 1e12 if r.get("ours_ms") else None,
             "TFLOPS": r.get("ours_TFLOPS")}
        e["pct_copy_bw"] = 100 * e["TBps"] * 1e12 / COPY_BPS if e["TBps"] else None
        e["vs_same_run"] = e["cudnn_same_run_ms"] / e["ours_ms"] if e["cudnn_same_run_ms"] else None
        e["vs_best"] = best / e["ours_ms"] if best else None
        out.append(e)
    f = lambda v, p="%.3f": p % v if isinstance(v, (int, float)) else "-"
    lines += ["| dtype | shape | F | kernel | rel err | before ms | dwc ms | TB/s (% of 4.24 copy) | TFLOP/s "
              "| cuDNN same run ms | best cuDNN ms | vs same run | vs best |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for e in out:
        lines.append(f"| {e['dtype']} | {e['shape']} | {e['F']} | {e['kernel']} | {f(e['rel_err'], '%.1e')} | "
                     f"{f(e['before_ms'])} | {f(e['ours_ms'])} | {f(e['TBps'], '%.2f')} ({f(e['pct_copy_bw'], '%.0f')}%) | "
                     f"{f(e['TFLOPS'], '%.1f')} | {f(e['cudnn_same_run_ms'])} | {f(e['best_cudnn_ms'])} | "
                     f"{f(e['vs_same_run'], '%.2fx')} | {f(e['vs_best'], '%.2fx')} |")
    lines += ["", "| dtype | geomean vs best cuDNN | min | slower than best cuDNN |", "|---|---|---|---|"]
    summary = {}
    for dt in ("f32", "f16"):
        v = [e for e in out if e["dtype"] == dt and e["vs_best"]]
        g = math.exp(sum(math.log(e["vs_best"]) for e in v) / len(v))
        slow = [f"F={e['F']} {e['shape']}" for e in v if e["vs_best"] < 1]
        summary[dt] = {"geomean_vs_best": g, "min_vs_best": min(e["vs_best"] for e in v),
                       "slower": slow, "configs": len(v)}
        lines.append(f"| {dt} | {g:.2f}x | {summary[dt]['min_vs_best']:.2f}x | {', '.join(slow) or 'none'} |")
    with open(a.out + ".json", "w") as fh:
        json.dump({"sources": vars(a), "rows": out, "summary": summary}, fh, indent=1)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
