#!/bin/sh
# Call A (session 21; kernels prepared in session 20): dwc_torch end to end on the models whose converted
# layers include the 14 x 14 stride-2 layers of the block_threads rule.
# Kernels (MLIR machine, main at the block_threads commit):
#   PYTHONPATH=python python3 bench/torch_e2e.py prepare --aot build/bin/dwc-aot \
#     --out /work/s20/e2e/kernels -j 2 --sections models --configs \
#     efficientnet_b0:f16:64:train,efficientnet_b0:bf16:64:infer,mobilenetv2_100:bf16:64:infer,mobilenetv2_100:f16:64:infer
#   (70 specs, 0 failed)
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s20e/e.tar.xz -C /tmp/k
export DWC_CACHE_DIR=/tmp/dwcc PYTHONUNBUFFERED=1
mkdir -p /tmp/e2e
PYTHONPATH=python timeout 300 python3 bench/torch_e2e.py run --kernels /tmp/k/e2e/kernels \
  --out /tmp/e2e --budget-s 240 --sections models --rounds 6 --graphs-train \
  --configs efficientnet_b0:f16:64:train,efficientnet_b0:bf16:64:infer,mobilenetv2_100:bf16:64:infer,mobilenetv2_100:f16:64:infer \
  > /tmp/e2e/log.txt 2>&1
echo "e2e rc=$?"; grep -c '"section": "models"' /tmp/e2e/results.jsonl
tar cJf $OUT/s20e.tar.xz -C /tmp/e2e .
