#!/usr/bin/env python3
"""Plot of the training comparison of bench/torch_check.py (no torch):
loss curves of nn.Conv2d(groups=C) and dwc_torch.DepthwiseConv2d, their
difference, step times.  usage: torch_plot.py RESULT.json OUT.png"""
import json
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def plot(train, path):
    fig, ax = plt.subplots(1, 3, figsize=(15, 4))
    steps = range(len(train["torch"]["loss"]))
    ax[0].plot(steps, train["torch"]["loss"], label="nn.Conv2d(groups=C) (PyTorch/cuDNN)", lw=1.5)
    ax[0].plot(steps, train["dwc"]["loss"], label="dwc_torch.DepthwiseConv2d", lw=1, ls="--")
    ax[0].set_xlabel("step")
    ax[0].set_ylabel("cross-entropy")
    ax[0].set_yscale("log")
    ax[0].set_title("training loss (same init, data, seed)")
    ax[0].legend()
    ax[1].semilogy(steps, [abs(a - b) + 1e-12 for a, b in
                           zip(train["torch"]["loss"], train["dwc"]["loss"])])
    ax[1].set_xlabel("step")
    ax[1].set_title("|loss(torch) - loss(dwc)|")
    ax[2].plot(steps, train["torch"]["step_ms"], label="torch", lw=0.8)
    ax[2].plot(steps, train["dwc"]["step_ms"], label="dwc", lw=0.8)
    ax[2].set_ylim(0, 1.5 * max(train["torch"]["median_step_ms"], train["dwc"]["median_step_ms"]))
    ax[2].set_xlabel("step")
    ax[2].set_ylabel("ms")
    ax[2].set_title("step time (median: torch %.2f ms, dwc %.2f ms)" % (
        train["torch"]["median_step_ms"], train["dwc"]["median_step_ms"]))
    ax[2].legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    res = json.load(open(sys.argv[1]))
    if "torch" not in res.get("train", {}):
        sys.exit("torch_plot: no training result in %s" % sys.argv[1])
    plot(res["train"], sys.argv[2])
    print("torch_plot: wrote", sys.argv[2])
