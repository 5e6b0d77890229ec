#!/bin/sh
# Call B (session 19): the 35 batch-1 full-row forwards that now carry a
# register budget (max_registers = 255) against main at the session start;
# whether EfficientNet-B0's AMP gradient disagreement is dwc's (stock f32 /
# stock AMP / dwc AMP on one batch); inference rows not yet measured.
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s19b/b.tar.xz -C /tmp/k
sh runtime/build.sh /tmp/rt > /tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }
timeout 110 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --work /tmp/w --out $OUT \
  --graphs --target-s 0.02 --iters 100 --kernels-dir /tmp/k/d/stride_after --before-dir /tmp/k/d/stride_base \
  --time-budget 90 --label 2026-12-02-s19-fullrow > $OUT/fullrow.log 2>&1
echo "fullrow rc=$?"
export DWC_CACHE_DIR=/tmp/dwcc PYTHONUNBUFFERED=1
mkdir -p $OUT/amp $OUT/e2e
PYTHONPATH=python timeout 150 python3 bench/torch_e2e.py run --kernels /tmp/k/e2eb/kernels \
  --out $OUT/amp --budget-s 120 --sections amp_reference \
  --configs efficientnet_b0:f16:32:train,efficientnet_b0:bf16:32:train > $OUT/amp/log.txt 2>&1
echo "amp rc=$?"
PYTHONPATH=python timeout 250 python3 bench/torch_e2e.py run --kernels /tmp/k/e2eb/kernels \
  --out $OUT/e2e --budget-s 200 --sections models --rounds 6 \
  --configs efficientnet_b0:f16:1:infer,mobilenetv2_100:bf16:64:infer,replknet31b:f16:1:infer,slak_t:bf16:1:infer \
  > $OUT/e2e/log.txt 2>&1
echo "e2e rc=$?"; grep -c '"section": "models"' $OUT/e2e/results.jsonl
