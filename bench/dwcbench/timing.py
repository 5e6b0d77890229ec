"""Kernel timing on one CUDA stream: a warm-up run, a timed run to size the
count, then CUDA events around every run and their median. Operand sets
rotate (launch(i) uses set i % nbuf) so that the working set exceeds L2 and
every run reads from HBM. Kernels under GRAPH_BELOW_MS can be timed from a
CUDA graph of back-to-back launches instead: per-launch events on a kernel
of a few microseconds measure the host's launch latency (~15-20 us)."""

import math
import statistics

import torch

from .machine import L2_BYTES

GRAPH_BELOW_MS = 0.25


def operand_sets(bytes_per_set, cap=64):
    """How many operand sets push the working set past 3x L2."""
    return int(min(cap, max(2, math.ceil(3 * L2_BYTES / max(bytes_per_set, 1)))))


def event_time(launch, nbuf, iters=500, target_s=0.75, min_runs=5):
    """Median per-run time in ms of enough runs for `target_s` seconds."""
    launch(0)
    torch.cuda.synchronize()
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    e0.record()
    launch(1 % nbuf)
    e1.record()
    torch.cuda.synchronize()
    t1 = max(e0.elapsed_time(e1) / 1e3, 1e-6)
    runs = max(min_runs, min(iters, int(target_s / t1)))
    st = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    en = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    for i in range(runs):
        st[i].record()
        launch(i % nbuf)
        en[i].record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in zip(st, en))


def graph_time(launch, nbuf, k=None, reps=7):
    """Kernel time (ms): K back-to-back launches captured in one CUDA graph
    on the current stream, replayed `reps` times; median replay / K.
    capture_begin/end directly: torch.cuda.graph() would also collect
    garbage and empty the allocator's cache."""
    k = k or min(max(nbuf, 32), 512)
    g = torch.cuda.CUDAGraph()
    torch.cuda.synchronize()
    g.capture_begin(capture_error_mode="relaxed")
    try:
        for i in range(k):
            launch(i % nbuf)
    finally:
        g.capture_end()
    g.replay()
    torch.cuda.synchronize()
    st = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    en = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for i in range(reps):
        st[i].record()
        g.replay()
        en[i].record()
    torch.cuda.synchronize()
    ms = statistics.median(s.elapsed_time(e) for s, e in zip(st, en)) / k
    del g
    return ms


def kernel_time(launch, nbuf, iters=500, target_s=0.75, graphs=True):
    """(kernel ms, per-call ms): from a CUDA graph when a call takes under
    GRAPH_BELOW_MS and graphs are on, else the per-call event time."""
    call = event_time(launch, nbuf, iters, target_s)
    if not graphs or call >= GRAPH_BELOW_MS:
        return call, call
    k = int(min(512, max(nbuf, 16, math.ceil(2.0 / call))))
    try:
        return graph_time(launch, nbuf, k), call
    except RuntimeError:  # a launch that cannot be captured: keep the event time
        return call, call
