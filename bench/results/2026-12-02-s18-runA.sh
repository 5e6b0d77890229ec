#!/bin/sh
# Call A (session 18): batch-64 stride-2 forward tile sweep (7 variants vs main),
# the per-kernel time floor of a CUDA-graph replay, then ConvNeXt rows on current kernels.
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s18a/a.tar.xz -C /tmp/k
sh runtime/build.sh /tmp/rt > /tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv > $OUT/smi.csv 2>&1
V=""; for t in r1c1 r1c2 r2c2 r1c4 r2c4 v2r1c2 v2r2c2; do V="$V --variant-dir /tmp/k/a/stride_$t"; done
timeout 150 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --work /tmp/w --out $OUT \
  --graphs --target-s 0.02 --iters 100 --kernels-dir /tmp/k/a/stride_after $V --time-budget 120 \
  --label 2026-12-02-s18-s2b64-sweep > $OUT/sweep.log 2>&1
echo "sweep rc=$?"; tail -2 $OUT/sweep.log
timeout 20 python3 - > $OUT/launch_floor.txt 2>&1 <<'PY'
import torch, statistics
x = torch.zeros(1, device="cuda"); s = torch.cuda.Stream()
for n in (1, 100):
    with torch.cuda.stream(s):
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            for _ in range(n): x.add_(1)
    ts = []
    for _ in range(30):
        a, b = torch.cuda.Event(True), torch.cuda.Event(True)
        a.record(); g.replay(); b.record(); b.synchronize(); ts.append(a.elapsed_time(b) * 1e3 / n)
    print(f"graph of {n} one-element add_ kernels: median {statistics.median(ts):.2f} us per kernel")
PY
cat $OUT/launch_floor.txt
export DWC_CACHE_DIR=/tmp/dwcc PYTHONUNBUFFERED=1
mkdir -p $OUT/e2e
PYTHONPATH=python timeout 300 python3 bench/torch_e2e.py run --kernels /tmp/k/e2e/kernels \
  --out $OUT/e2e --budget-s 240 --sections models --rounds 6 --graphs-train \
  --configs convnext_tiny:bf16:64:train,convnext_base:bf16:64:infer,convnext_tiny:f16:64:infer,convnext_tiny:bf16:1:infer,convnext_base:bf16:64:train,convnext_base:f16:1:infer \
  > $OUT/e2e/log.txt 2>&1
echo "e2e rc=$?"; grep -c '"section": "models"' $OUT/e2e/results.jsonl; tail -3 $OUT/e2e/log.txt | cut -c1-300
