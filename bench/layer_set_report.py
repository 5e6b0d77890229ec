"""The issue-20 layer-set table: every depthwise layer of the real networks
(bench/stride_configs.py, set `net`) from one or more bench/stride_harness.py
result files, a later file's row replacing an earlier one's for the same
layer (a re-run of the layers whose kernels changed). No torch needed.

    python3 bench/layer_set_report.py RUN1.json [RUN2.json[:OPS[:KEYS]] ...] \
        --out DIR --label L [--plot]

RUN:OPS (OPS = comma-separated fwd, bwd_data, bwd_filter) takes only those
ops' times from the run into the rows already composed (a run that re-timed
one op family); :KEYS (a file of comma- or newline-separated layer keys)
limits the run to those layers.

Writes DIR/<label>.md (per-layer kernel times, ratios against PyTorch's best,
% of floor, the per-layer verdict, where each row was measured) and, with
--plot, DIR/<label>.png (speedup per layer, forward and training step).
"""

import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stride_configs import copy_bound, layer_from_dict  # noqa: E402

OPS = ("fwd", "bwd_data", "bwd_filter")
FLOOR_X, FLOOR_PCT = 1.5, 85.0
# What one kernel costs in a CUDA-graph replay even when it does nothing
# (bench/results/2026-12-02-s18-launch-floor.txt): no kernel time is below it.
LAUNCH_FLOOR_MS = 0.99e-3


def parse_run(spec):
    """'FILE[:OPS[:KEYS]]' -> (file, ops or None, keys or None); OPS 'check':
    only the correctness fields (merge_ops)."""
    path, ops, keys = (spec.split(":") + [None, None])[:3]
    ops = [o for o in ops.split(",") if o] if ops else None
    if ops and ops != ["check"] and any(o not in OPS for o in ops):
        raise SystemExit(f"{spec}: ops must be among {', '.join(OPS)}")
    if keys:
        with open(keys) as f:
            keys = {k.strip() for k in f.read().replace(",", "\n").split() if k.strip()}
    return path, ops, keys


CHECK_FIELDS = ("_status", "_rel_err", "_nan", "_rounding_floor")


def merge_ops(row, new, ops):
    """The row with the listed ops' times and statuses taken from `new`; ops
    ["check"]: only the correctness fields of every op (a correctness-only
    run of the same kernels)."""
    a, n = dict(row.get("after", {})), new.get("after", {})
    if ops == ["check"]:
        a.update({k: v for k, v in n.items() if k.endswith(CHECK_FIELDS)})
        return dict(row, after=a)
    for op in ops:
        for k in [k for k in a if k.startswith(op + "_")]:
            del a[k]
        a.update({k: v for k, v in n.items() if k.startswith(op + "_")})
    a.pop("step_ms", None)
    if all(a.get(op + "_ms") for op in OPS):
        a["step_ms"] = sum(a[op + "_ms"] for op in OPS)
    return dict(row, after=a)


def load_rows(specs):
    """{key: (row, source)}, later runs first to win (whole rows, or the ops
    a run names)."""
    rows = {}
    for spec in specs:
        path, ops, keys = parse_run(spec)
        with open(path) as f:
            d = json.load(f)
        for r in d["rows"]:
            if r.get("odd") or (keys is not None and r["key"] not in keys):
                continue
            # One floor for every run (older runs used the FP32 peak for 16-bit too).
            r["floor_ms"] = layer_from_dict(r).floor_ms()
            name = os.path.basename(path)
            if ops and r["key"] in rows:
                old, src = rows[r["key"]]
                rows[r["key"]] = (merge_ops(old, r, ops), f"{src} + {name} ({','.join(ops)})")
            elif not ops:
                rows[r["key"]] = (r, name)
    return rows


def ratios(r):
    """(fwd x, fwd % floor, step x, step % floor) or None where not timed."""
    a, t = r.get("after", {}), r.get("torch_best", {})
    fx = t["fwd"] / a["fwd_ms"] if t.get("fwd") and a.get("fwd_ms") else None
    fp = 100 * r["floor_ms"] / a["fwd_ms"] if a.get("fwd_ms") else None
    step = a.get("step_ms") or (sum(a[o + "_ms"] for o in OPS)
                                if all(a.get(o + "_ms") for o in OPS) else None)
    sx = t["step"] / step if t.get("step") and step else None
    sp = 100 * 3 * r["floor_ms"] / step if step else None
    return fx, fp, sx, sp, step


def correct(r):
    a = r.get("after", {})
    st = [v for k, v in a.items() if k.endswith("_status")]
    return bool(st) and all(v == "ok" for v in st)


def meets(x, pct):
    return x is not None and (x >= FLOOR_X or (pct or 0) >= FLOOR_PCT)


def geomean(v):
    return math.exp(sum(math.log(u) for u in v) / len(v)) if v else None


def fmt(v, p="%.3f"):
    return (p % v) if isinstance(v, (int, float)) else "-"


def table(rows):
    head = ["| layer | net | fwd ours | fwd PT | fwd x | fwd % floor | dX ours | dX PT | "
            "dW ours | dW PT | step ours | step PT | step x | step % floor | floors | correct | run |",
            "|" + "---|" * 17]
    out = []
    for key, (r, src) in rows.items():
        a, t = r.get("after", {}), r.get("torch_best", {})
        fx, fp, sx, sp, step = ratios(r)
        verdict = [f"{k} {'ok' if meets(x, p) else 'NO'}"
                   for k, x, p in (("fwd", fx, fp), ("step", sx, sp)) if x is not None]
        out.append(
            f"| {key} | {r.get('net', '')} | {fmt(a.get('fwd_ms'))} | {fmt(t.get('fwd'))} | "
            f"{fmt(fx, '%.2f')} | {fmt(fp, '%.0f%%')} | {fmt(a.get('bwd_data_ms'))} | "
            f"{fmt(t.get('bwd_data'))} | {fmt(a.get('bwd_filter_ms'))} | {fmt(t.get('bwd_filter'))} | "
            f"{fmt(step)} | {fmt(t.get('step'))} | {fmt(sx, '%.2f')} | {fmt(sp, '%.0f%%')} | "
            f"{', '.join(verdict) or '-'} | {'yes' if correct(r) else 'NO'} | {src} |")
    return head + out


def summary(rows):
    groups, met = {}, {"fwd": [], "step": []}
    for r, _ in rows.values():
        fx, fp, sx, sp, _ = ratios(r)
        for k, x, p in (("fwd", fx, fp), ("step", sx, sp)):
            if x is None:
                continue
            met[k].append(meets(x, p))
            for g in ((k, "all", "all"), (k, r["dtype"], "all"), (k, r["dtype"], r["N"]),
                      (k, "net " + r.get("net", "").split(",")[0], "all")):
                groups.setdefault(g, []).append(x)
    lines = ["| what | group | N | layers | geomean x | min | max |", "|---|---|---|---|---|---|---|"]
    for (k, g, n), v in sorted(groups.items(), key=lambda kv: tuple(map(str, kv[0]))):
        lines.append(f"| {k} | {g} | {n} | {len(v)} | {geomean(v):.2f} | {min(v):.2f} | {max(v):.2f} |")
    wrong = [key for key, (r, _) in rows.items() if not correct(r)]
    lines += ["", "Per-layer floor (x >= 1.5 or >= 85 % of floor): " +
              "; ".join(f"{k} {sum(v)}/{len(v)}" for k, v in met.items()),
              f"Incorrect layers: {len(wrong)}" + (f" ({', '.join(wrong)})" if wrong else "")]
    return lines


def fwd_ceiling(r):
    """The best forward ratio the layer could reach: PyTorch's time over
    max(byte-or-FLOP floor, the graph launch floor, the best copy of the
    forward's bytes where the run timed one); None where PyTorch was not
    timed."""
    t = r.get("torch_best", {})
    if not t.get("fwd"):
        return None
    return t["fwd"] / max(r["floor_ms"], LAUNCH_FLOOR_MS, r.get("copy_ms") or 0)


def filter_class(r):
    fh, fw = r["F"]
    return "13+ taps a side" if max(fh, fw) >= 13 else f"{fh}x{fw}"


def gaps(rows):
    """Where the forward geomean is lost: per group (dtype, batch 1 or the
    training batch, filter class) the forward geomean, the geomean of its
    ceilings (fwd_ceiling), and the set's forward geomean if that group
    alone ran at its ceilings, largest first."""
    logs, groups = [], {}
    for r, _ in rows.values():
        fx, c = ratios(r)[0], fwd_ceiling(r)
        if fx is None or c is None:
            continue
        logs.append(math.log(fx))
        g = (r["dtype"], "N = 1" if r["N"] == 1 else "N > 1", filter_class(r))
        groups.setdefault(g, []).append((fx, max(c, fx)))
    if not logs:
        return []
    total, n = sum(logs), len(logs)
    out = ["Where the forward geomean is lost (ceiling: PyTorch best / max(floor, launch "
           "floor, copy of the bytes); last column: the set's forward geomean if only that "
           f"group ran at its ceilings; now {math.exp(total / n):.2f}x):", "",
           "| dtype | batch | filter | layers | fwd geomean x | ceiling geomean | set geomean, group at ceiling |",
           "|---|---|---|---|---|---|---|"]
    table_rows = []
    for (dt, b, f), v in groups.items():
        gain = sum(math.log(c) - math.log(x) for x, c in v)
        table_rows.append((math.exp((total + gain) / n), dt, b, f, v))
    for at_ceiling, dt, b, f, v in sorted(table_rows, key=lambda t: -t[0]):
        out.append(f"| {dt} | {b} | {f} | {len(v)} | {geomean([x for x, _ in v]):.2f} | "
                   f"{geomean([c for _, c in v]):.2f} | {at_ceiling:.2f} |")
    return out


def ceiling(rows):
    """The best ratio each forward could reach: PyTorch's time over
    max(byte-or-FLOP floor, the graph launch floor, the best copy of the
    forward's bytes where the run timed one). Layers whose ceiling is under
    1.5x can meet the per-layer floor only by 85 % of the byte floor, which
    the launch floor rules out where it is above 1 / 0.85 of it; and the
    rows below the floor that are copy-bound (stride_configs.copy_bound),
    forward and training step."""
    ceil, blocked, bound = [], [], {"fwd": [], "step": []}
    for key, (r, _) in rows.items():
        t = r.get("torch_best", {})
        c = fwd_ceiling(r)
        if c is None:
            continue
        copy = r.get("copy_ms")
        ceil.append(c)
        if c < FLOOR_X and r["floor_ms"] < FLOOR_PCT / 100 * LAUNCH_FLOOR_MS:
            blocked.append(key)
        fx, fp, sx, sp, _ = ratios(r)
        for k, x, p, ops in (("fwd", fx, fp, 1), ("step", sx, sp, 3)):
            if x is not None and not meets(x, p) and copy and copy_bound(
                    r, t.get(k), ops * copy, ops):
                bound[k].append(key)
    copies = sum(1 for r, _ in rows.values() if r.get("copy_ms"))
    return [f"Forward ceiling (PyTorch best / max(floor, {LAUNCH_FLOOR_MS * 1e3:.2f} us graph "
            f"launch floor, the best copy of the bytes where timed: {copies} layers)): geomean "
            f"{geomean(ceil):.2f}x over {len(ceil)} layers; "
            f"{len(blocked)} layers cannot meet the per-layer floor (ceiling under "
            f"{FLOOR_X}x and a byte floor under {FLOOR_PCT:.0f} % of one launch)"
            + (f": {', '.join(blocked)}" if blocked else ""), "",
            "Below the per-layer floor and copy-bound (the best copy of the bytes under "
            f"{FLOOR_PCT:.0f} % of the floor and PyTorch's best under {FLOOR_X}x the copy: no "
            "kernel can meet the floor): " + "; ".join(
                f"{k} {len(v)}" + (f" ({', '.join(v)})" if v else "") for k, v in bound.items())]


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    items = [(k, r) for k, (r, _) in rows.items()]
    fig, axes = plt.subplots(2, 1, figsize=(max(12, 0.12 * len(items)), 9))
    colors = {"f32": "tab:blue", "f16": "tab:orange", "bf16": "tab:green"}
    for ax, (what, idx) in zip(axes, (("forward", 0), ("training step", 2))):
        xs = [(k, r["dtype"], ratios(r)[idx]) for k, r in items if ratios(r)[idx]]
        ax.bar(range(len(xs)), [v for _, _, v in xs], color=[colors[d] for _, d, _ in xs])
        ax.axhline(1.0, color="k", lw=0.8)
        ax.axhline(FLOOR_X, color="r", lw=0.8, ls="--")
        ax.set_yscale("log")
        ax.set_ylabel(f"{what}: PyTorch best / dwc")
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels([k for k, _, _ in xs], rotation=90, fontsize=4)
    axes[0].set_title("dwc depthwise kernels on the layers of real networks (H200; red: 1.5x)")
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in colors.values()]
    axes[0].legend(handles, list(colors), loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=150)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--out", default="bench/results")
    ap.add_argument("--label", required=True)
    ap.add_argument("--plot", action="store_true")
    ap.add_argument("--command", default="", help="the command line to record")
    a = ap.parse_args()
    rows = load_rows(a.runs)
    lines = [f"# dwc depthwise kernels on the layers of real networks ({a.label})", "",
             "Composed by `python3 bench/layer_set_report.py " + " ".join(a.runs) +
             f" --out {a.out} --label {a.label}{' --plot' if a.plot else ''}`"
             + (f"; runs: {a.command}" if a.command else ""), "",
             "Kernel ms (the `run` column names the harness result each row comes from; its "
             "statistic and command are in that file). x = PyTorch best / ours; floor per op = "
             "max(bytes / 4.24 TB/s, FLOPs / unit peak), step = the three ops.", ""]
    lines += summary(rows) + [""] + ceiling(rows) + [""] + gaps(rows) + [""] + table(rows)
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, a.label + ".md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    if a.plot:
        plot(rows, os.path.join(a.out, a.label + ".png"))
    print("\n".join(summary(rows)))


if __name__ == "__main__":
    main()
