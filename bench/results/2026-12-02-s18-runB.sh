#!/bin/sh
# Call B (session 18): the 16-bit strided 2 x 2 rule's 10 changed layers (all ops) vs main
# at the session start, then MobileNetV2 / EfficientNet-B0 16-bit rows on the new kernels.
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s18b/b.tar.xz -C /tmp/k
sh runtime/build.sh /tmp/rt > /tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }
timeout 120 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --work /tmp/w --out $OUT \
  --graphs --target-s 0.02 --iters 100 --kernels-dir /tmp/k/b/stride_after --before-dir /tmp/k/b/stride_base \
  --time-budget 90 --label 2026-12-02-s18-final > $OUT/final.log 2>&1
echo "final rc=$?"; tail -1 $OUT/final.log
export DWC_CACHE_DIR=/tmp/dwcc PYTHONUNBUFFERED=1
mkdir -p $OUT/e2e
PYTHONPATH=python timeout 230 python3 bench/torch_e2e.py run --kernels /tmp/k/e2eb/kernels \
  --out $OUT/e2e --budget-s 170 --sections models --rounds 6 --graphs-train \
  --configs mobilenetv2_100:f16:64:train,efficientnet_b0:bf16:64:train,efficientnet_b0:f16:64:infer \
  > $OUT/e2e/log.txt 2>&1
echo "e2e rc=$?"; grep -c '"section": "models"' $OUT/e2e/results.jsonl
