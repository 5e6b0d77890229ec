#!/usr/bin/env python3
"""Issue-5 table of the 24 f16 grid configurations from one harness run
(bench/gpu.sh --set fwd16 results json): ours, cuDNN in the same run
(F <= 7, where it was timed) or its autotuned anchor (F >= 9; the better of
the two when both exist), our FP32 kernel's time from an FP32 result file,
useful TFLOP/s and % of the density-adjusted mma.sync ceiling, both ways
it is read: 0.5625 x 620 TFLOP/s (m16n8k16, the instruction the kernels
issue) and 0.5625 x 460 TFLOP/s (m16n8k8, the split-GEMM instruction of the
technique; the floor of ../shared/bench/anchors-h200.md); then the floors
of the issue.

    python3 bench/fwd16_summary.py RUN.json --fp32 FP32.json > SUMMARY.md
"""
import argparse
import json
import math


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("run")
    ap.add_argument("--fp32", required=True, help="harness json with the FP32 grid rows")
    a = ap.parse_args()
    run = json.load(open(a.run))
    fp32 = {(r["N"], r["H"], r["W"], r["C"], r["FH"]): r["ours_ms"]
            for r in json.load(open(a.fp32))["rows"]
            if r.get("dtype") == "f32" and r.get("op", "dwc_fwd") == "dwc_fwd" and r.get("ours_ms")}
    ceiling = 0.5625 * 620e12
    ceiling_k8 = 0.5625 * 460e12
    rows = [r for r in run["rows"] if r["N"] == 128 and r["dtype"] == "f16" and r["FH"] == r["FW"]]
    print(f"# Issue 5: the 24 f16 grid configurations, run {run['label']}\n")
    print(f"{run['gpu']}, torch {run['torch']}, cuDNN {run['cudnn']}, commit {run['commit']}; "
          f"command `{run['command']}`. Table: `python3 bench/fwd16_summary.py {a.run} --fp32 {a.fp32}`.\n")
    print("| shape | F | ours ms | cuDNN same run ms | cuDNN anchor ms | vs best cuDNN | ours FP32 ms | vs FP32 "
          "| useful TFLOP/s | % of 0.5625x620 | % of 0.5625x460 | rel err |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    sp, sf, big, big8 = [], [], [], []
    for r in rows:
        same = r.get("ref_ms") if r.get("ref") else None
        anc = r.get("anchor_cudnn_ms")
        best = min(x for x in (same, anc) if x) if (same or anc) else None
        f32 = fp32.get((r["N"], r["H"], r["W"], r["C"], r["FH"]))
        tf = r["flops"] / (r["ours_ms"] * 1e-3) / 1e12
        pct = 100 * tf * 1e12 / ceiling
        pct8 = 100 * tf * 1e12 / ceiling_k8
        s = best / r["ours_ms"] if best else None
        v = f32 / r["ours_ms"] if f32 else None
        if s:
            sp.append(s)
        if v:
            sf.append(v)
        if r["FH"] >= 17:
            big.append(pct)
            big8.append(pct8)
        fmt = lambda x, d=3: f"{x:.{d}f}" if x else "—"
        print(f"| n{r['N']}h{r['H']}w{r['W']}c{r['C']} | {r['FH']} | {r['ours_ms']:.3f} | {fmt(same)} | {fmt(anc)} "
              f"| {fmt(s, 2)}x | {fmt(f32)} | {fmt(v, 2)}x | {tf:.1f} | {pct:.0f}% | {pct8:.0f}% "
              f"| {r['rel_err']:.1e} |")
    g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
    print(f"\nOver the {len(rows)}: geomean vs best cuDNN {g(sp):.2f}x (min {min(sp):.2f}x), vs our FP32 "
          f"kernel {g(sf):.2f}x; F >= 17: {min(big):.0f}-{max(big):.0f}% of 0.5625 x 620 TFLOP/s, "
          f"{min(big8):.0f}-{max(big8):.0f}% of 0.5625 x 460 TFLOP/s.")
    ok = sum(1 for r in run["rows"] if r.get("correct"))
    print(f"Correct: {ok}/{len(run['rows'])} configurations of the run (odd shapes included).")


if __name__ == "__main__":
    main()
