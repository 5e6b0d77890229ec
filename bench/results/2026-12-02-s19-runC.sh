#!/bin/sh
# Call C (session 19): batch-1 tile variants with loads_first on the layers
# still below PyTorch (f32 on 7 x 7 maps, which take the GEMV kernel; 16-bit
# 5x5), then whether the AMP gradient disagreements are dwc's (stock f32 /
# stock AMP / dwc AMP on one batch of 32: EfficientNet-B0 f16 / bf16,
# SLaK bf16, RepLKNet f16).
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s19c/c.tar.xz -C /tmp/k
sh runtime/build.sh /tmp/rt > /tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }
V=""; for t in r22 r12 r11 r17 fr; do V="$V --variant-dir /tmp/k/e/stride_$t"; done
timeout 80 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --work /tmp/w --out $OUT \
  --graphs --target-s 0.02 --iters 100 --kernels-dir /tmp/k/e/stride_after $V \
  --time-budget 60 --label 2026-12-02-s19-b1map7-sweep > $OUT/e.log 2>&1
echo "e rc=$?"
V=""; for t in h12 h21 h4 h11n; do V="$V --variant-dir /tmp/k/f/stride_$t"; done
timeout 80 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --work /tmp/w2 --out $OUT \
  --graphs --target-s 0.02 --iters 100 --kernels-dir /tmp/k/f/stride_after $V \
  --time-budget 60 --label 2026-12-02-s19-b1f16-sweep > $OUT/f.log 2>&1
echo "f rc=$?"
export DWC_CACHE_DIR=/tmp/dwcc PYTHONUNBUFFERED=1
mkdir -p $OUT/amp
PYTHONPATH=python timeout 200 python3 bench/torch_e2e.py run --kernels /tmp/k/e2eb/kernels,/tmp/k/e2ec/kernels \
  --out $OUT/amp --budget-s 170 --sections amp_reference \
  --configs efficientnet_b0:f16:64:train,efficientnet_b0:bf16:64:train,slak_t:bf16:32:train,replknet31b:f16:32:train \
  > $OUT/amp/log.txt 2>&1
echo "amp rc=$?"; grep -c amp_reference $OUT/amp/results.jsonl
