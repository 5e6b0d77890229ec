"""Reports (no torch): the table of one run (driver.write_run), and the
layer-set report composed from one or more runs of the network layer set
(per-layer verdicts, geomeans, the forward's ceiling and where its geomean
is lost), with an optional speedup plot."""

import json
import math
import os

from .machine import floor_ms

TRAIN = ("fwd", "bwd_data", "bwd_filter")
FLOOR_X, FLOOR_PCT = 1.5, 85.0
# What one kernel costs in a CUDA-graph replay even when it does nothing
# (measured on the H200): no kernel time is below it.
LAUNCH_FLOOR_MS = 0.99e-3
SHORT = {"fwd": "fwd", "bwd_data": "dX", "bwd_filter": "dW", "bwd_bias": "db",
         "pool_fwd": "pool", "pool_bwd": "pool bwd", "gap": "gap", "gap_bwd": "gap bwd",
         "conv_fwd": "conv", "step": "step"}


def fmt(v, p="%.3f"):
    return (p % v) if isinstance(v, (int, float)) else "-"


def geomean(v):
    return math.exp(sum(math.log(u) for u in v) / len(v)) if v else None


def correct(r, side="dwc"):
    st = [v for k, v in r.get(side, {}).items() if k.endswith("_status")]
    return bool(st) and all(v == "ok" for v in st)


def run_table(rows, sides):
    """Markdown of one run: per op, each side's ms, PyTorch's best, x and %
    of floor; odd rows list their errors."""
    ops = []
    for r in rows:
        ops += [o for o in r["ops"] if o not in ops]
    if set(TRAIN) <= set(ops):
        ops.append("step")
    head = ["layer", "net"]
    for op in ops:
        head += ["%s %s" % (SHORT[op], s) for s in sides] + [
            "%s PyTorch" % SHORT[op], "%s x" % SHORT[op], "%s %% floor" % SHORT[op]]
    lines = ["| " + " | ".join(head + ["correct"]) + " |", "|" + "---|" * (len(head) + 1)]
    geo = {}
    for r in rows:
        t, d = r.get("torch_best", {}), r.get("dwc", {})
        cells = [r["key"] + (" (odd)" if r.get("odd") else ""), r.get("net", "")]
        for op in ops:
            ms = d.get("step_ms" if op == "step" else op + "_ms")
            fl = (sum(r["floor_ms"].get(o, 0) for o in TRAIN) if op == "step"
                  else r["floor_ms"].get(op))
            x = t[op] / ms if t.get(op) and ms else None
            if x:
                geo.setdefault(op, []).append(x)
            cells += [fmt(r.get(s, {}).get("step_ms" if op == "step" else op + "_ms"), "%.4f")
                      for s in sides]
            cells += [fmt(t.get(op), "%.4f"), fmt(x, "%.2f"),
                      fmt(100 * fl / ms if fl and ms else None, "%.0f%%")]
        ok = "yes" if all(correct(r, s) for s in sides if r.get(s)) else "NO"
        if r.get("odd") or ok == "NO":
            ok += " (" + ", ".join("%s %s" % (SHORT[o], fmt(d.get(o + "_rel_err"), "%.1e"))
                                   for o in r["ops"]) + ")"
        lines.append("| " + " | ".join(cells + [ok + (" " + r["error"] if r.get("error") else "")])
                     + " |")
    summary = ["Geomean x (PyTorch best / dwc): " + ", ".join(
        "%s %.2f over %d" % (SHORT[op], geomean(v), len(v)) for op, v in geo.items())]
    return summary + [""] + lines


def write_run(out, label, meta, rows):
    os.makedirs(out, exist_ok=True)
    stem = os.path.join(out, label)
    with open(stem + ".json", "w") as f:
        json.dump({"meta": meta, "rows": rows}, f, indent=1)
    lines = ["# dwc %s kernels, set %s, vs PyTorch (%s, torch %s, cuDNN %s, %s)"
             % (meta["topic"], meta["set"], meta["gpu"], meta["torch"], meta["cudnn"],
                meta["date"]), "",
             "Command: `%s` (kernels of commit %s)" % (meta["command"], meta["commit"]), "",
             "Times in ms (%s; operand sets rotated past 3x L2). PyTorch = its best over "
             "NCHW / channels_last (x cudnn.benchmark on / off where cuDNN runs it), TF32 off; "
             "step = forward + the best of dX + dW or one call for both. x = PyTorch / dwc. "
             "%% floor = floor / dwc, the floor max(bytes / 4.24 TB/s, FLOPs / unit peak)."
             % meta["statistic"], ""]
    with open(stem + ".md", "w") as f:
        f.write("\n".join(lines + run_table(rows, meta["sides"])) + "\n")


# --- the layer-set report --------------------------------------------------
def copy_bound(r, torch_ms, copy_ms, ops):
    """Whether no kernel can meet the per-layer floor of `ops` ops (1:
    forward, 3: training step): the best copy of their bytes is under 85 %
    of the floor and PyTorch's best under 1.5x that copy. A strided forward
    reads stride^2 times what it writes, which HBM serves faster than a
    copy, so strided rows count only with a read-heavy copy and only for
    the forward."""
    if not torch_ms or not copy_ms:
        return False
    if list(r.get("stride", [1, 1])) != [1, 1] and (r.get("copy_kind") != "read-heavy"
                                                    or ops != 1):
        return False
    return 100 * ops * r["fwd_floor_ms"] / copy_ms < FLOOR_PCT and torch_ms / copy_ms < FLOOR_X


def parse_run(text):
    """'FILE[:OPS[:KEYS]]' -> (file, ops or None, keys or None); OPS 'check':
    only the correctness fields."""
    path, ops, keys = (text.split(":") + [None, None])[:3]
    ops = [o for o in ops.split(",") if o] if ops else None
    if ops and ops != ["check"] and any(o not in TRAIN for o in ops):
        raise SystemExit("%s: ops must be among %s" % (text, ", ".join(TRAIN)))
    if keys:
        with open(keys) as f:
            keys = {k.strip() for k in f.read().replace(",", "\n").split() if k.strip()}
    return path, ops, keys


CHECK_FIELDS = ("_status", "_rel_err", "_nan", "_rounding_floor")


def merge_ops(row, new, ops):
    """The row with the listed ops' times and statuses taken from `new`; ops
    ["check"]: only the correctness fields of every op."""
    a, n = dict(row.get("dwc", {})), new.get("dwc", {})
    if ops == ["check"]:
        a.update({k: v for k, v in n.items() if k.endswith(CHECK_FIELDS)})
        return dict(row, dwc=a)
    for op in ops:
        for k in [k for k in a if k.startswith(op + "_")]:
            del a[k]
        a.update({k: v for k, v in n.items() if k.startswith(op + "_")})
    a.pop("step_ms", None)
    if all(a.get(op + "_ms") for op in TRAIN):
        a["step_ms"] = sum(a[op + "_ms"] for op in TRAIN)
    return dict(row, dwc=a)


def load_rows(runs):
    """{key: (row, source)}, a later run's row replacing an earlier one's
    (whole rows, or the ops a run names)."""
    from dwc_torch.spec import spec_from_dict
    rows = {}
    for text in runs:
        path, ops, keys = parse_run(text)
        with open(path) as f:
            d = json.load(f)
        for r in d["rows"]:
            if r.get("odd") or (keys is not None and r["key"] not in keys):
                continue
            r["fwd_floor_ms"] = floor_ms(spec_from_dict(r), "fwd")
            name = os.path.basename(path)
            if ops and r["key"] in rows:
                old, src = rows[r["key"]]
                rows[r["key"]] = (merge_ops(old, r, ops), "%s + %s (%s)" % (src, name, ",".join(ops)))
            elif not ops:
                rows[r["key"]] = (r, name)
    return rows


def ratios(r):
    """(fwd x, fwd % floor, step x, step % floor, step ms), None where not timed."""
    a, t, fl = r.get("dwc", {}), r.get("torch_best", {}), r["fwd_floor_ms"]
    fx = t["fwd"] / a["fwd_ms"] if t.get("fwd") and a.get("fwd_ms") else None
    fp = 100 * fl / a["fwd_ms"] if a.get("fwd_ms") else None
    step = a.get("step_ms") or (sum(a[o + "_ms"] for o in TRAIN)
                                if all(a.get(o + "_ms") for o in TRAIN) else None)
    sx = t["step"] / step if t.get("step") and step else None
    sp = 100 * 3 * fl / step if step else None
    return fx, fp, sx, sp, step


def meets(x, pct):
    return x is not None and (x >= FLOOR_X or (pct or 0) >= FLOOR_PCT)


def layer_table(rows):
    head = ["| layer | net | fwd ours | fwd PT | fwd x | fwd % floor | dX ours | dX PT | "
            "dW ours | dW PT | step ours | step PT | step x | step % floor | floors | correct | run |",
            "|" + "---|" * 17]
    out = []
    for key, (r, src) in rows.items():
        a, t = r.get("dwc", {}), r.get("torch_best", {})
        fx, fp, sx, sp, step = ratios(r)
        verdict = ["%s %s" % (k, "ok" if meets(x, p) else "NO")
                   for k, x, p in (("fwd", fx, fp), ("step", sx, sp)) if x is not None]
        out.append(
            "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                key, r.get("net", ""), fmt(a.get("fwd_ms")), fmt(t.get("fwd")), fmt(fx, "%.2f"),
                fmt(fp, "%.0f%%"), fmt(a.get("bwd_data_ms")), fmt(t.get("bwd_data")),
                fmt(a.get("bwd_filter_ms")), fmt(t.get("bwd_filter")), fmt(step),
                fmt(t.get("step")), fmt(sx, "%.2f"), fmt(sp, "%.0f%%"),
                ", ".join(verdict) or "-", "yes" if correct(r) else "NO", src))
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
    lines = ["| what | group | N | layers | geomean x | min | max |",
             "|---|---|---|---|---|---|---|"]
    for (k, g, n), v in sorted(groups.items(), key=lambda kv: tuple(map(str, kv[0]))):
        lines.append("| %s | %s | %s | %d | %.2f | %.2f | %.2f |"
                     % (k, g, n, len(v), geomean(v), min(v), max(v)))
    wrong = [key for key, (r, _) in rows.items() if not correct(r)]
    lines += ["", "Per-layer floor (x >= 1.5 or >= 85 % of floor): " +
              "; ".join("%s %d/%d" % (k, sum(v), len(v)) for k, v in met.items()),
              "Incorrect layers: %d" % len(wrong) + (" (%s)" % ", ".join(wrong) if wrong else "")]
    return lines


def fwd_ceiling(r):
    """PyTorch's forward time over max(floor, launch floor, the best copy of
    the forward's bytes where the run timed one): the best ratio the layer
    could reach; None where PyTorch was not timed."""
    t = r.get("torch_best", {})
    if not t.get("fwd"):
        return None
    return t["fwd"] / max(r["fwd_floor_ms"], LAUNCH_FLOOR_MS, r.get("copy_ms") or 0)


def filter_class(r):
    fh, fw = r["kernel"]
    return "13+ taps a side" if max(fh, fw) >= 13 else "%dx%d" % (fh, fw)


def gaps(rows):
    """Where the forward geomean is lost: per (dtype, batch 1 or training
    batch, filter class) the forward geomean, its ceilings' geomean, and the
    set's forward geomean if that group alone ran at its ceilings."""
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
           "group ran at its ceilings; now %.2fx):" % math.exp(total / n), "",
           "| dtype | batch | filter | layers | fwd geomean x | ceiling geomean | "
           "set geomean, group at ceiling |", "|---|---|---|---|---|---|---|"]
    table_rows = []
    for (dt, b, f), v in groups.items():
        gain = sum(math.log(c) - math.log(x) for x, c in v)
        table_rows.append((math.exp((total + gain) / n), dt, b, f, v))
    for at_ceiling, dt, b, f, v in sorted(table_rows, key=lambda t: -t[0]):
        out.append("| %s | %s | %s | %d | %.2f | %.2f | %.2f |" % (
            dt, b, f, len(v), geomean([x for x, _ in v]), geomean([c for _, c in v]), at_ceiling))
    return out


def ceiling(rows):
    """The forward ceilings' geomean, the layers whose ceiling rules out the
    per-layer floor, and the rows below the floor that are copy-bound."""
    ceil, blocked, bound = [], [], {"fwd": [], "step": []}
    for key, (r, _) in rows.items():
        t, c = r.get("torch_best", {}), fwd_ceiling(r)
        if c is None:
            continue
        copy = r.get("copy_ms")
        ceil.append(c)
        if c < FLOOR_X and r["fwd_floor_ms"] < FLOOR_PCT / 100 * LAUNCH_FLOOR_MS:
            blocked.append(key)
        fx, fp, sx, sp, _ = ratios(r)
        for k, x, p, ops in (("fwd", fx, fp, 1), ("step", sx, sp, 3)):
            if x is not None and not meets(x, p) and copy and copy_bound(
                    r, t.get(k), ops * copy, ops):
                bound[k].append(key)
    copies = sum(1 for r, _ in rows.values() if r.get("copy_ms"))
    return ["Forward ceiling (PyTorch best / max(floor, %.2f us graph launch floor, the best "
            "copy of the bytes where timed: %d layers)): geomean %.2fx over %d layers; %d layers "
            "cannot meet the per-layer floor (ceiling under %sx and a byte floor under %.0f %% of "
            "one launch)%s" % (LAUNCH_FLOOR_MS * 1e3, copies, geomean(ceil), len(ceil),
                              len(blocked), FLOOR_X, FLOOR_PCT,
                              (": " + ", ".join(blocked)) if blocked else ""), "",
            "Below the per-layer floor and copy-bound (the best copy of the bytes under %.0f %% "
            "of the floor and PyTorch's best under %sx the copy: no kernel can meet the floor): "
            % (FLOOR_PCT, FLOOR_X) + "; ".join(
                "%s %d" % (k, len(v)) + (" (%s)" % ", ".join(v) if v else "")
                for k, v in bound.items())]


def plot_layers(rows, path, title):
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
        ax.set_ylabel("%s: PyTorch best / dwc" % what)
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels([k for k, _, _ in xs], rotation=90, fontsize=4)
    axes[0].set_title(title + " (red: 1.5x)")
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in colors.values()]
    axes[0].legend(handles, list(colors), loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=80)


def layer_report(a):
    rows = load_rows(a.runs)
    lines = ["# dwc depthwise kernels on the layers of real networks (%s)" % a.label, "",
             "Composed by `python3 bench/dwcbench layers report %s --out %s --label %s%s`"
             % (" ".join(a.runs), a.out, a.label, " --plot" if a.plot else "")
             + ("; runs: %s" % a.command if a.command else ""), "",
             "Kernel ms (the `run` column names the result file each row comes from; its "
             "statistic and command are in that file). x = PyTorch best / ours; floor per op = "
             "max(bytes / 4.24 TB/s, FLOPs / unit peak), step = the three ops.", ""]
    lines += summary(rows) + [""] + ceiling(rows) + [""] + gaps(rows) + [""] + layer_table(rows)
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, a.label + ".md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    if a.plot:
        plot_layers(rows, os.path.join(a.out, a.label + ".png"),
                    "dwc depthwise kernels on the layers of real networks")
    print("\n".join(summary(rows)))
    return 0
