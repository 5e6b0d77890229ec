#!/usr/bin/env python3
"""The issue-7 floor table (depthwise backward data and filter, 40
configurations) assembled from measured result files: for each configuration
the latest run that measured the kernel dwc-to-nvvm selects today, and the
best cuDNN time known (the minimum of cuDNN in that run, in the other runs
given and the autotuned anchor). No GPU, no torch.

  python3 bench/backward_floor_summary.py --latest R1.json [--latest R2.json ...]
      [--older O.json ...] [--bwdf-summary S.json] > OUT.md

--latest files win over --older ones for "ours"; every file contributes its
cuDNN times to "best cuDNN"."""
import argparse
import json
import math

SHAPES = [(128, 64, 64, 256), (128, 32, 32, 1024)]
FS = [3, 7, 13, 31, 51]


def key(op, dtype, shape, f):
    return (op, dtype, shape, f)


def rows_of(path):
    d = json.load(open(path))
    out = []
    for r in d["rows"]:
        if "op" not in r or r.get("status") != "ok" or r.get("tag") or r.get("gemv_opts") or r.get("opts"):
            continue
        if r["F"][0] != r["F"][1] or r["stride"] != [1, 1] or r.get("dw_dtype") not in (None, "", r["dtype"]):
            continue
        out.append(r)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--latest", action="append", default=[])
    ap.add_argument("--older", action="append", default=[])
    ap.add_argument("--bwdf-summary")
    a = ap.parse_args()
    ours, src, cudnn, err, kern = {}, {}, {}, {}, {}

    def note_cudnn(k, ms):
        if ms:
            cudnn[k] = min(cudnn.get(k, math.inf), ms)

    for path in a.older + a.latest:  # later files override "ours"
        for r in rows_of(path):
            k = key(r["op"], r["dtype"], (r["N"], r["H"], r["W"], r["C"]), r["F"][0])
            ours[k], src[k], err[k], kern[k] = r["ours_ms"], path.split("/")[-1], r["rel_err"], r["kernel"]
            note_cudnn(k, r.get("cudnn_ms"))
            note_cudnn(k, r.get("anchor_ms"))
    if a.bwdf_summary:
        s = json.load(open(a.bwdf_summary))
        for r in s["rows"]:
            shape = tuple(int(x) for x in r["shape"].split("x"))
            k = key("bwd_filter", r["dtype"], shape, r["F"])
            note_cudnn(k, r.get("best_cudnn_ms"))
            if k not in ours or src[k] in [p.split("/")[-1] for p in a.older]:
                ours[k], src[k], err[k], kern[k] = (r["ours_ms"], a.bwdf_summary.split("/")[-1],
                                                    r["rel_err"], r["kernel"])
    print("| op | dtype | shape | F | kernel | rel err | dwc ms | best cuDNN ms | speedup | source of dwc ms |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    geo = {}
    for op in ("bwd_data", "bwd_filter"):
        for dt in ("f32", "f16"):
            for shape in SHAPES:
                for f in FS:
                    k = key(op, dt, shape, f)
                    if k not in ours:
                        print(f"| {op} | {dt} | {'x'.join(map(str, shape))} | {f} | - | - | missing | - | - | - |")
                        continue
                    sp = cudnn[k] / ours[k] if k in cudnn else None
                    geo.setdefault((op, dt), []).append((sp, f, shape))
                    print(f"| {op} | {dt} | {'x'.join(map(str, shape))} | {f} | {kern[k]} | {err[k]:.1e} | "
                          f"{ours[k]:.3f} | {cudnn.get(k, float('nan')):.3f} | "
                          f"{sp:.2f}x | {src[k]} |" if sp else "| - |")
    print()
    print("| op | dtype | configs | geomean vs best cuDNN | min | slower than cuDNN |")
    print("|---|---|---|---|---|---|")
    for (op, dt), v in geo.items():
        sps = [s for s, _, _ in v if s]
        g = math.exp(sum(math.log(s) for s in sps) / len(sps))
        slow = [f"F={f} {'x'.join(map(str, sh))}" for s, f, sh in v if s and s < 1.0]
        print(f"| {op} | {dt} | {len(sps)} | {g:.2f}x | {min(sps):.2f}x | {', '.join(slow) or 'none'} |")


if __name__ == "__main__":
    main()
