#!/bin/sh
# Call B (session 23): the same four model rows as call A (kernels
# .carry/s23a, prepared as in 2026-12-03-s23-runA.sh), both sides compiled
# with torch.compile(mode="reduce-overhead") (inductor's CUDA graphs): the
# compiled steps of call A were host-bound (GPU busy 13-16 ms of a 22-28 ms
# ConvNeXt-T step), so the graphs show what the kernels change.
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s23a/e.tar.xz -C /tmp/k
export DWC_CACHE_DIR=/tmp/dwcc PYTHONUNBUFFERED=1
mkdir -p /tmp/e2e
TORCH_LOGS=graph_breaks,recompiles PYTHONPATH=python timeout 500 python3 bench/torch_e2e.py \
  run --kernels /tmp/k/e2e/kernels --out /tmp/e2e --budget-s 330 --sections models \
  --rounds 6 --compiled --compile-mode reduce-overhead --no-graphs \
  --configs mobilenetv2_100:bf16:64:infer,convnext_tiny:bf16:64:train,efficientnet_b0:bf16:64:infer,convnext_tiny:f16:64:train \
  > /tmp/e2e/log.txt 2>&1
echo "e2e rc=$?"; grep -c '"section": "models"' /tmp/e2e/results.jsonl
grep -i "skipping cudagraphs\|cudagraph" /tmp/e2e/log.txt | sort | uniq -c | head
tar cJf $OUT/s23b.tar.xz -C /tmp/e2e .
