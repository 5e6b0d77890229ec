"""A picture of convert's measurements (a report of a run that timed on a
GPU): each tuned layer's dwc and PyTorch time, and the whole-model check's
rounds of both sides. matplotlib is optional: without it the caller gets an
ImportError saying how to install it, never a half-written file."""

import os


def require_matplotlib():
    """matplotlib's pyplot on a file-only backend, or a clear ImportError."""
    try:
        import matplotlib
        matplotlib.use("Agg")  # files only: no display needed on a GPU server
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise ImportError("plotting needs matplotlib (pip install matplotlib): %s" % e) from None
    return plt


def plot_report(report, path, title=None):
    """Writes a PNG/SVG/PDF (by `path`'s suffix) of a ConvertReport's
    per-layer times (report.timings) and whole-model rounds
    (report.model_check). A report without timings (convert on the CPU, or
    tune=False) has nothing to draw: ValueError."""
    if report is None or not (report.timings or report.model_check):
        raise ValueError("nothing to plot: the report has no timings (convert times layers "
                         "only with example_inputs on a GPU)")
    plt = require_matplotlib()
    rounds = [d for d in (report.model_check or []) if d.get("dwc_ms")]
    fig, axes = plt.subplots(1, 2 if rounds else 1, figsize=(13 if rounds else 8, 5),
                             squeeze=False)
    _layers(axes[0][0], report.timings)
    if rounds:
        _rounds(axes[0][1], rounds[-1])
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path


def _layers(ax, timings):
    names = list(timings)
    ours = [timings[n][0] * 1e3 for n in names]
    theirs = [timings[n][1] * 1e3 for n in names]
    pos = range(len(names))
    ax.barh([p - 0.2 for p in pos], ours, 0.4, label="dwc")
    ax.barh([p + 0.2 for p in pos], theirs, 0.4, label="PyTorch")
    ax.set_yticks(list(pos))
    ax.set_yticklabels(names, fontsize=6)
    ax.invert_yaxis()
    ax.set_xlabel("GPU time per call (us)")
    ax.set_title("layers (convert's tuning)")
    ax.legend()


def _rounds(ax, detail):
    for label, key in (("dwc", "dwc_ms"), ("PyTorch", "torch_ms")):
        ax.plot(range(1, len(detail[key]) + 1), detail[key], "o-", label=label)
    ax.set_xlabel("round (ABBA order)")
    ax.set_ylabel("ms per model step")
    ax.set_title("whole model%s: paired speedup %s" % (
        " (CUDA graphs)" if detail.get("graphs") else "", detail.get("paired_speedup")))
    ax.legend()
