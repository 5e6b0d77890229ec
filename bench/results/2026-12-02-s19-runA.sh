#!/bin/sh
# Call A (session 19): the 79 batch-1 layers whose forward now loads every
# input before the first FMA (loads_first) against main at the session start
# (forward only: batch-1 layers are inference layers), the odd shapes with
# all ops, then EfficientNet-B0 / MobileNetV2 rows not measured on current
# kernels.
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s19a/a.tar.xz -C /tmp/k
sh runtime/build.sh /tmp/rt > /tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }
timeout 170 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --work /tmp/w --out $OUT \
  --graphs --target-s 0.02 --iters 100 --kernels-dir /tmp/k/c/stride_after --before-dir /tmp/k/c/stride_base \
  --time-budget 140 --label 2026-12-02-s19-b1 > $OUT/b1.log 2>&1
echo "b1 rc=$?"; tail -n 1 $OUT/b1.log
timeout 70 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --work /tmp/w2 --out $OUT \
  --graphs --target-s 0.01 --iters 20 --kernels-dir /tmp/k/odd/stride_after \
  --time-budget 50 --label 2026-12-02-s19-odd > $OUT/odd.log 2>&1
echo "odd rc=$?"; tail -n 1 $OUT/odd.log
export DWC_CACHE_DIR=/tmp/dwcc PYTHONUNBUFFERED=1
mkdir -p $OUT/e2e
PYTHONPATH=python timeout 270 python3 bench/torch_e2e.py run --kernels /tmp/k/e2e/kernels \
  --out $OUT/e2e --budget-s 215 --sections models --rounds 6 --graphs-train \
  --configs efficientnet_b0:f16:64:train,efficientnet_b0:f32:64:train,mobilenetv2_100:f16:1:infer,efficientnet_b0:f16:1:infer,mobilenetv2_100:bf16:64:infer \
  > $OUT/e2e/log.txt 2>&1
echo "e2e rc=$?"; grep -c '"section": "models"' $OUT/e2e/results.jsonl
