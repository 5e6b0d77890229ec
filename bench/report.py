"""Report writing for the dwc GPU harness: rows -> JSON, markdown, PNG.

No torch here, so everything but the measurements can be checked on a machine
without a GPU (`python3 bench/test_report.py`). matplotlib is imported only
when a plot is drawn.
"""

import json
import math
import os
from typing import Dict, List, Optional

from configs import COPY_BPS, FFMA_FLOPS, MMA_K8_FLOPS, TC_DENSITY, Config

_ANCHOR_DTYPE = {"f32": "float32", "f16": "float16", "bf16": "bfloat16"}


def load_anchors(path: str) -> Dict[tuple, float]:
    """(op, N, H, W, C, F, dtype) -> cuDNN ms measured with cudnn.benchmark=True."""
    if not path or not os.path.exists(path):
        return {}
    with open(path) as f:
        d = json.load(f)
    return {(r["op"], r["N"], r["H"], r["W"], r["C"], r["F"], r["dtype"]): r["ms"]
            for r in d.get("rows", []) if "F" in r and "ms" in r}


def anchor_ms(anchors: Dict[tuple, float], c: Config) -> Optional[float]:
    """Anchors exist only for square filters, stride 1, dilation 1, 'same'."""
    if (c.FH != c.FW or c.stride != [1, 1] or c.dilation != [1, 1]
            or not c.is_same_padding() or c.bias):
        return None
    return anchors.get((c.op, c.N, c.H, c.W, c.C, c.FH, _ANCHOR_DTYPE[c.dtype]))


def base_row(c: Config, anchors: Dict[tuple, float]) -> dict:
    """The fields of a row known before any measurement."""
    return {
        "op": c.op, "name": c.name, "symbol": c.symbol,
        "N": c.N, "H": c.H, "W": c.W, "C": c.C, "OH": c.OH, "OW": c.OW,
        "FH": c.FH, "FW": c.FW, "stride": list(c.stride),
        "dilation": list(c.dilation), "padding": list(c.padding),
        "dtype": c.dtype, "bias": c.bias, "note": c.note,
        "variant": None,
        "ours_ms": None, "ref": None, "ref_ms": None, "speedup": None,
        "floor_ms": c.floor_ms(),
        "anchor_cudnn_ms": anchor_ms(anchors, c),
        "bytes": c.bytes_moved(), "flops": c.flops(),
        "rel_err": None, "tol": c.tolerance(), "correct": False,
        "status": "pending", "timing": "pending",
    }


def finish_row(r: dict) -> dict:
    """Derived numbers: speedups, TFLOP/s, share of the floor."""
    ours, ref = r.get("ours_ms"), r.get("ref_ms")
    anc = r.get("anchor_cudnn_ms")
    fl = r["flops"]
    r["tflops_ours"] = fl / (ours * 1e9) if ours else None
    r["tflops_ref"] = fl / (ref * 1e9) if ref else None
    r["speedup"] = ref / ours if ours and ref else None
    r["speedup_vs_anchor"] = anc / ours if ours and anc else None
    best = min([t for t in (ref, anc) if t] or [0]) or None
    r["speedup_vs_best_cudnn"] = best / ours if ours and best else None
    r["pct_of_floor"] = 100.0 * r["floor_ms"] / ours if ours else None
    r["GBps_ours"] = r["bytes"] / (ours * 1e6) if ours else None
    return r


def document(rows: List[dict], meta: dict) -> dict:
    """The result file, in the format of shared/bench/RESULTS.md."""
    doc = {
        "date": meta.get("date"),
        "gpu": meta.get("gpu"),
        "commit": meta.get("commit"),
        "command": meta.get("command"),
        "torch": meta.get("torch"),
        "cudnn": meta.get("cudnn"),
        "ceilings": {"copy_TBps": COPY_BPS / 1e12, "ffma_TFLOPS": FFMA_FLOPS / 1e12,
                     "mma_k8_TFLOPS": MMA_K8_FLOPS / 1e12, "tc_density": TC_DENSITY},
    }
    for k, v in meta.items():
        doc.setdefault(k, v)
    doc["summary"] = summary(rows)
    doc["rows"] = [_finite(finish_row(dict(r))) for r in rows]
    return doc


def _finite(r: dict) -> dict:
    """NaN/inf are not JSON: such numbers become null (the row's status
    says why)."""
    return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in r.items()}


def _geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def summary(rows: List[dict]) -> dict:
    """Geomeans over the correct, timed rows only."""
    rows = [finish_row(dict(r)) for r in rows]
    ok = [r for r in rows if r.get("correct")]
    return {
        "configs": len(rows),
        "correct": len(ok),
        "incorrect": [r["name"] for r in rows if not r.get("correct")],
        "timed": sum(1 for r in rows if r.get("ours_ms")),
        "geomean_speedup": _geomean([r.get("speedup") for r in ok]),
        "geomean_speedup_vs_anchor": _geomean([r.get("speedup_vs_anchor") for r in ok]),
        "geomean_speedup_vs_best_cudnn": _geomean([r.get("speedup_vs_best_cudnn") for r in ok]),
    }


def _f(x, fmt="{:.3f}"):
    if x is None:
        return "—"
    if fmt == "{:.3f}" and abs(x) < 0.1:
        fmt = "{:.4f}"
    return fmt.format(x)


def markdown(doc: dict) -> str:
    s = doc["summary"]
    out = [
        f"# dwc benchmark: {doc.get('label', '')}",
        "",
        f"{doc.get('date')} · {doc.get('gpu')} · torch {doc.get('torch')} · cuDNN {doc.get('cudnn')}"
        f" · commit `{doc.get('commit')}`",
        "",
        f"Command: `{doc.get('command')}`",
        "",
        f"Correct: {s['correct']}/{s['configs']}; timed: {s['timed']}; geomean speedup vs "
        f"cuDNN (same run): {_f(s['geomean_speedup'], '{:.2f}×')}; vs cuDNN anchors "
        f"(autotuned, anchors-h200.json): {_f(s['geomean_speedup_vs_anchor'], '{:.2f}×')}; "
        f"vs the faster of the two: {_f(s['geomean_speedup_vs_best_cudnn'], '{:.2f}×')} "
        "(geomeans over correct rows).",
        "",
        "floor = max(bytes moved once / copy BW, useful FLOPs / unit peak); "
        "'% floor' = floor / ours; ref = cuDNN via torch conv2d(groups=C), channels_last, "
        "'autotuned' = cudnn.benchmark=True, 'heuristic' = False (for F ≥ 9 the heuristic choice "
        "can be far slower than the autotuned one: compare with the anchor column).",
        "",
        "| config | dtype | F | ours ms | ref | ref ms | speedup | anchor ms | vs anchor "
        "| floor ms | % floor | TFLOP/s ours | TFLOP/s ref | rel err | ok |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in doc["rows"]:
        f = f"{r['FH']}" if r["FH"] == r["FW"] else f"{r['FH']}×{r['FW']}"
        ok = "yes" if r.get("correct") else "**NO** " + str(r.get("status", ""))
        ref = (r.get("ref") or "").replace("cudnn-", "")
        if r.get("timing") not in (None, "done"):
            ref = (ref + " " if ref else "") + f"({r.get('timing')})"
        out.append(
            f"| {r['name']} | {r['dtype']} | {f} | {_f(r.get('ours_ms'))} | {ref} | "
            f"{_f(r.get('ref_ms'))} | {_f(r.get('speedup'), '{:.2f}×')} | "
            f"{_f(r.get('anchor_cudnn_ms'))} | {_f(r.get('speedup_vs_anchor'), '{:.2f}×')} | "
            f"{_f(r['floor_ms'])} | {_f(r.get('pct_of_floor'), '{:.0f}%')} | "
            f"{_f(r.get('tflops_ours'), '{:.2f}')} | {_f(r.get('tflops_ref'), '{:.2f}')} | "
            f"{_f(r.get('rel_err'), '{:.1e}')} | {ok} |")
    out.append("")
    return "\n".join(out)


def short_table(doc: dict) -> str:
    """A compact plain-text table for the end of the log."""
    lines = [f"{'config':52s} {'ours ms':>9s} {'ref ms':>9s} {'speedup':>8s} {'%floor':>7s} {'rel_err':>8s} ok"]
    for r in doc["rows"]:
        lines.append(
            f"{r['name']:52s} {_f(r.get('ours_ms'), '{:9.3f}'):>9s} {_f(r.get('ref_ms'), '{:9.3f}'):>9s} "
            f"{_f(r.get('speedup'), '{:7.2f}x'):>8s} {_f(r.get('pct_of_floor'), '{:6.0f}%'):>7s} "
            f"{_f(r.get('rel_err'), '{:8.1e}'):>8s} {'yes' if r.get('correct') else 'NO ' + str(r.get('status'))}")
    s = doc["summary"]
    lines.append(f"correct {s['correct']}/{s['configs']}, timed {s['timed']}, geomean speedup "
                 f"{_f(s['geomean_speedup'], '{:.2f}x')}, vs anchors {_f(s['geomean_speedup_vs_anchor'], '{:.2f}x')}")
    return "\n".join(lines)


def plot(doc: dict, path: str) -> bool:
    """TFLOP/s vs filter size, ours vs cuDNN, one panel per shape and dtype.
    Groups with a single filter size are drawn as bars of speedup instead."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError:
        return False
    groups: Dict[tuple, List[dict]] = {}
    for r in doc["rows"]:
        key = (r["N"], r["H"], r["W"], r["C"], r["dtype"], tuple(r["stride"]), tuple(r["dilation"]))
        groups.setdefault(key, []).append(r)
    curves = {k: v for k, v in groups.items()
              if len({(r["FH"], r["FW"]) for r in v}) >= 3 and all(r["FH"] == r["FW"] for r in v)}
    rest = [r for k, v in groups.items() if k not in curves for r in v]
    npanels = len(curves) + (1 if rest else 0)
    if npanels == 0:
        return False
    ncols = min(3, npanels)
    nrows = (npanels + ncols - 1) // ncols
    row_h = max(3.8, 0.16 * len(rest) + 1.2)
    fig, axes = plt.subplots(nrows, ncols, figsize=(max(5.2 * ncols, 7.5), row_h * nrows), squeeze=False)
    axl = [a for row in axes for a in row]
    dorder = {"f32": 0, "f16": 1, "bf16": 2}
    for ax, (key, rs) in zip(axl, sorted(curves.items(), key=lambda kv: (dorder[kv[0][4]], -kv[0][1], kv[0]))):
        rs = sorted(rs, key=lambda r: r["FH"])
        F = [r["FH"] for r in rs]
        def series(field):
            return [r.get(field) if r.get(field) is not None else float("nan") for r in rs]
        ax.plot(F, series("tflops_ours"), "o-", label="dwc (ours)")
        ax.plot(F, series("tflops_ref"), "s-", label="cuDNN, this run")
        anc = [r["flops"] / (r["anchor_cudnn_ms"] * 1e9) if r.get("anchor_cudnn_ms") else float("nan") for r in rs]
        if any(not math.isnan(a) for a in anc):
            ax.plot(F, anc, "x--", color="gray", label="cuDNN anchor (autotuned)")
        roof = [r["flops"] / (r["floor_ms"] * 1e9) for r in rs]
        ax.plot(F, roof, ":", color="black", label="roofline (floor)")
        for r in rs:
            if not r.get("correct"):
                ax.annotate("✗", (r["FH"], r.get("tflops_ours") or 0), color="red")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
        ax.set_xticks(F)
        ax.set_xticklabels([str(f) for f in F])
        n, h, w, c, dt = key[:5]
        ax.set_title(f"{n}×{h}×{w}×{c} {dt}")
        ax.set_xlabel("filter size F (F×F)")
        ax.set_ylabel("TFLOP/s")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    used = len(curves)
    if rest:
        ax = axl[used]
        used += 1
        names = [r["name"].replace("dwc_fwd_", "") for r in rest]
        sp = [(r.get("speedup_vs_best_cudnn") or 0.0) if r.get("correct") else 0.0 for r in rest]
        ax.barh(range(len(rest)), sp, color="tab:green")
        for i, r in enumerate(rest):
            if not r.get("correct"):
                ax.text(1.0, i, " incorrect: " + str(r.get("status", ""))[:40], color="red",
                        va="center", fontsize=6)
        ax.set_yticks(range(len(rest)))
        ax.set_yticklabels(names, fontsize=6)
        ax.axvline(1.0, color="black", lw=0.8)
        if any(sp):
            ax.set_xscale("log")
        ax.set_xlabel("speedup vs the faster cuDNN (this run / anchor)")
        ax.set_title("other configurations")
    for ax in axl[used:]:
        ax.axis("off")
    fig.suptitle(f"dwc vs cuDNN — {doc.get('gpu')} — {doc.get('label', '')}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def write_all(rows: List[dict], meta: dict, out_dir: str, stem: str) -> dict:
    """Writes <stem>.json, <stem>.md and <stem>.png; returns the document."""
    os.makedirs(out_dir, exist_ok=True)
    doc = document(rows, meta)
    with open(os.path.join(out_dir, stem + ".json"), "w") as f:
        json.dump(doc, f, indent=1)
    with open(os.path.join(out_dir, stem + ".md"), "w") as f:
        f.write(markdown(doc))
    # The plot runs in its own process: matplotlib next to torch in one
    # process failed once on the GPU machine, and a plot must never cost
    # the numbers.
    import subprocess
    import sys
    try:
        subprocess.run([sys.executable, os.path.abspath(__file__), "--plot",
                        os.path.join(out_dir, stem + ".json"), os.path.join(out_dir, stem + ".png")],
                       timeout=120, check=True)
    except Exception as e:
        print(f"[report] plot failed: {e}")
    return doc


if __name__ == "__main__":
    import sys
    if len(sys.argv) == 4 and sys.argv[1] == "--plot":
        with open(sys.argv[2]) as f:
            if not plot(json.load(f), sys.argv[3]):
                print("[report] no plot (matplotlib missing or nothing to draw)")
    else:
        print("usage: report.py --plot RESULTS.json OUT.png")
