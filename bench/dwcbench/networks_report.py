#!/usr/bin/env python3
"""Markdown tables (and a speedup plot) from networks.py's
results.jsonl files (no torch needed).

    python3 bench/dwcbench networks report RESULTS.jsonl [...] [--plot OUT.png]
"""
import argparse
import json
import os


def load(paths):
    rows = []
    for p in paths:
        with open(p) as fh:
            rows += [dict(json.loads(line), _file=os.path.basename(p))
                     for line in fh if line.strip()]
    return rows


MATRIX_MODELS = ("convnext_tiny", "convnext_base", "mobilenetv2_100", "efficientnet_b0",
                 "replknet31b", "slak_t")
LARGE = ("replknet31b", "slak_t")


def matrix_cells(rows):
    """[(model, dtype, batch, mode, latest row or None)] over the model
    matrix, each cell from the last file given that measured it."""
    last = {}
    for r in rows:
        if r.get("section") == "models" and "speedup" in r:
            last[(r["model"], r["dtype"], r["batch"], r["mode"])] = r
    return [(m, dt, b, mode, last.get((m, dt, b, mode)))
            for m in MATRIX_MODELS for dt in ("f32", "f16", "bf16")
            for b, mode in ((1, "inference"), (64, "inference"),
                            (32 if m in LARGE else 64, "train"))]


def matrix(rows):
    """The model matrix (every model in f32 / AMP f16 / bf16, inference
    at batch 1 and 64, a training step at 64 or 32): speedup eager and in
    CUDA graphs, layers kept, the file and its device; cells never measured
    say so."""
    device = {r["_file"]: r.get("device", "").replace("NVIDIA ", "")
              for r in rows if r.get("section") == "setup"}
    lines = []
    for m, dt, b, mode, r in matrix_cells(rows):
        if r is None:
            lines.append((m, dt, mode, str(b), "not measured", "", "", ""))
            continue
        g = r.get("graph_speedup")
        sp = "%.3fx" % r["speedup"]
        if not r["layers_converted"]:  # stock against stock: the noise
            sp = "stock (%s between two stock copies)" % sp
        where = r.get("measured") or "%s (%s)" % (r["_file"], device.get(r["_file"], "?"))
        lines.append((m, dt, mode, str(b), sp, "-" if g is None else "%.3fx" % g,
                      "%d" % r["layers_converted"], where))
    return table(("model", "dtype", "mode", "batch", "speedup (eager)",
                  "CUDA graph", "layers kept", "measured in"), lines)


def plot_matrix(rows, path):
    """Eager and CUDA-graph speedups of every measured matrix cell, log
    scale; cells that kept no layer drawn at 1 (stock)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    cells = [c for c in matrix_cells(rows) if c[4] is not None]
    labels = ["%s %s %s b%d" % (m, dt, mode[:5], b) for m, dt, b, mode, _ in cells]
    eager = [r["speedup"] if r["layers_converted"] else 1.0 for *_, r in cells]
    graph = [(r.get("graph_speedup") or float("nan")) if r["layers_converted"] else 1.0
             for *_, r in cells]
    fig, ax = plt.subplots(figsize=(8, 0.2 * len(cells) + 1.5))
    y = range(len(cells))
    ax.barh([i - 0.2 for i in y], eager, height=0.4, label="eager", color="tab:green")
    ax.barh([i + 0.2 for i in y], graph, height=0.4, label="CUDA graph", color="tab:blue")
    ax.axvline(1.0, color="k", lw=0.8)
    ax.set_xscale("log")
    ax.set_yticks(list(y))
    ax.set_yticklabels(labels, fontsize=6)
    ax.invert_yaxis()
    ax.set_xlabel("speedup over stock PyTorch (cudnn.benchmark, channels_last), log scale")
    ax.set_title("dwc_torch.convert: the model matrix, latest measurement per cell")
    ax.legend(loc="lower right", fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def fmt(v, spec="%.2e"):
    if v is None:
        return ""
    if isinstance(v, float):
        return spec % v
    return str(v)


def table(header, lines):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(fmt(c) if not isinstance(c, str) else c for c in ln) + " |"
            for ln in lines]
    return "\n".join(out)


def correctness(rows):
    lines = [(r["op"], r.get("spec", r.get("dtype", "")), str(r.get("dwc_kernel", "-")),
              fmt(r.get("rel_err")), "yes" if r.get("ok") else "**no**",
              fmt(r.get("torch_channels_last_bwd_rel_err")))
             for r in rows if r.get("section") == "correctness" and "op" in r]
    return table(("op", "spec", "dwc kernel", "rel. err vs f64", "ok",
                  "PyTorch channels_last bwd vs f64"), lines)


def overhead(rows):
    lines = [(r["variant"], "%.2f" % r["host_us_per_call"], "%.3f" % r["gpu_ms_per_chain"])
             for r in rows if r.get("section") == "overhead" and "variant" in r]
    return table(("variant", "host us / call", "GPU ms / 50-layer chain"), lines)


def probe(rows):
    out = []
    for r in rows:
        if r.get("section") == "overhead_probe":
            out += ["| %s | %s |" % (k, v) for k, v in r.items()
                    if k.endswith("_ns")]
    return "| part (C++ loop, ns per call) | ns |\n|---|---|\n" + "\n".join(out)


def models(rows):
    lines = []
    for r in rows:
        if r.get("section") != "models":
            continue
        head = (r["model"], r["dtype"] + (" AMP" if r["dtype"] != "f32" else ""),
                r.get("mode", ""), str(r.get("batch", "")))
        if "skipped" in r or "error" in r:
            lines.append(head + ((r.get("skipped") or r.get("error", ""))[:120],) + ("",) * 11)
            continue
        check = r.get("convert_model_check_ms")
        lines.append(head + (
            "%d" % r["layers_converted"], "%.2f" % r["stock_ms"], "%.2f" % r["dwc_ms"],
            "**%.3fx**" % r["speedup"] if r["speedup"] < 0.98 else "%.3fx" % r["speedup"],
            fmt(r["logits_rel_err"], "%.1e"), fmt(r["grad_rel_err"], "%.1e"),
            "yes" if r["agree"] else "**no**",
            "%.2f / %.2f" % (r["converted_layers_ms_dwc"], r["converted_layers_ms_torch"]),
            "%.2f / %.2f" % tuple(check) if check else "-",
            _graph(r), "%.1f" % r["convert_s"] if "convert_s" in r else "-",
            "%.3fx" % r["control_speedup"] if "control_speedup" in r else "-"))
    return table(("model", "dtype", "mode", "batch", "layers converted", "stock ms", "dwc ms",
                  "speedup", "logits rel err", "grad rel err", "agree",
                  "in converted layers: dwc / PyTorch ms",
                  "convert's whole-model check: dwc / PyTorch ms",
                  "CUDA graph: stock / dwc ms (speedup)", "convert s",
                  "stock vs its copy, eager (noise)"), lines)


def _graph(r):
    """The CUDA-graph replay column (networks.time_graphs), if measured;
    with --graph-convert also that of the copy converted for graphs
    (graph_mode: its layers converted, its replays' speedup)."""
    g = r.get("graph_ms")
    if not g:
        return "-" if "graph_error" not in r else "error"
    out = "%.3f / %.3f (%.3fx)" % (g["stock"], g["dwc"], r["graph_speedup"])
    gm = r.get("graph_mode")
    if gm and gm.get("graph_ms"):
        out += "; converted for graphs: %d layers, %.3fx" % (gm["layers_converted"],
                                                            gm["graph_speedup"])
    return out


def agreement(rows):
    """dwc vs stock, and each against the model run in float64 (rows that
    have `vs_f64`): whether dwc is as accurate as stock, the question a
    relative error between two rounded computations cannot settle alone."""
    lines = []
    for r in rows:
        v = r.get("vs_f64")
        if r.get("section") not in ("models", "agreement") or not v:
            continue
        side = lambda s: "%s / %s / %s" % (fmt(v[s]["logits"], "%.1e"),
                                           fmt(v[s].get("grad_worst"), "%.1e") or "-",
                                           fmt(v[s].get("grad_all"), "%.1e") or "-") \
            if s in v else "-"
        ok = r.get("as_accurate_as_stock")
        lines.append((r["model"] + (" (all layers)" if r["section"] == "agreement" else ""),
                      r["dtype"], r["mode"], str(r["batch"]),
                      "%s / %s / %s" % (fmt(r["logits_rel_err"], "%.1e"),
                                        fmt(r["grad_rel_err"], "%.1e"),
                                        fmt(r.get("grad_rel_err_all"), "%.1e")),
                      side("stock_vs_stock_other_algorithms"),
                      side("stock"), side("dwc"), "yes" if ok else "**no**"))
    return table(("model", "dtype", "mode", "batch",
                  "dwc vs stock: logits / worst grad / all grads",
                  "stock vs stock with other cuDNN algorithms",
                  "stock vs f64", "dwc vs f64", "dwc as accurate as stock (1.25x)"), lines)


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    ms = [r for r in rows if r.get("section") == "models" and "speedup" in r]
    labels = ["%s %s %s b%d" % (r["model"], r["dtype"], r["mode"][:5], r["batch"]) for r in ms]
    fig, ax = plt.subplots(figsize=(8, 0.28 * len(ms) + 1.5))
    ax.barh(range(len(ms)), [r["speedup"] for r in ms],
            color=["tab:gray" if r["layers_converted"] == 0 else
                   "tab:green" if r["speedup"] >= 1.0 else "tab:red" for r in ms])
    ax.axvline(1.0, color="k", lw=0.8)
    ax.set_yticks(range(len(ms)))
    ax.set_yticklabels(labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("speedup over stock PyTorch (cudnn.benchmark, channels_last)")
    ax.set_title("dwc_torch.convert, H200 (gray: nothing converted, stock vs stock)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results", nargs="+")
    ap.add_argument("--plot")
    ap.add_argument("--matrix", action="store_true",
                    help="only the model matrix, each cell from the last file "
                         "given that measured it")
    a = ap.parse_args(argv)
    rows = load(a.results)
    if a.matrix:
        print(matrix(rows))
        if a.plot:
            plot_matrix(rows, a.plot)
        return
    print("## Correctness\n\n" + correctness(rows) + "\n")
    print("## Host overhead\n\n" + overhead(rows) + "\n\n" + probe(rows) + "\n")
    for sec in ("cuda_graph", "cuda_graph_train"):
        for r in rows:
            if r.get("section") == sec:
                print("- `%s`: %s" % (sec, json.dumps({k: v for k, v in r.items()
                                                        if k not in ("section", "t")})))
    print("\n## Models\n\n" + models(rows))
    if any(r.get("vs_f64") for r in rows):
        print("\n## Agreement against float64\n\n" + agreement(rows))
    if a.plot:
        plot(rows, a.plot)
