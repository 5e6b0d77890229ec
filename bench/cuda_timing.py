"""CUDA-graph kernel timing shared by the GPU harnesses."""

import statistics

import torch


def graph_time(launch, nbuf, k=None, reps=7):
    """Kernel time (ms): K back-to-back launches (operand sets rotated)
    captured in one CUDA graph on the current stream (the dwc runtime's
    too), replayed `reps` times; median replay time / K. Per-launch events
    on kernels of a few microseconds measure the host's launch latency
    (~15-20 us) instead. capture_begin/end directly: torch.cuda.graph()
    would also collect garbage and empty the cache."""
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
