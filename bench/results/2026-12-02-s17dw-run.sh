#!/bin/sh
# s17dw sweep: unpack the kernels, build main's runtime, time every variant
# (dW only, CUDA graphs) against main's selection (after) and PyTorch's dW.
set -u
K=/tmp/s17k; mkdir -p $K
tar xJf .carry/s17dw/k.tar.xz -C $K || exit 2
sh runtime/build.sh /tmp/rt > $OUT/rt.log 2>&1 || { tail -20 $OUT/rt.log; exit 3; }
V=""
for d in $K/stride_*; do [ "$d" = "$K/stride_after" ] || V="$V --variant-dir $d"; done
echo "variants: $V"
PYTHONUNBUFFERED=1 timeout ${HARNESS_S:-165} python3 bench/stride_harness.py \
  --runtime-lib /tmp/rt/libdwc_runtime.so --kernels-dir $K/stride_after $V \
  --work /tmp/w --out $OUT --label ${LABEL:-2026-12-02-s17dw-sweep} --graphs \
  --target-s 0.02 --iters 100 --time-budget ${BUDGET_S:-100} --torch-ops bwd_filter \
  > $OUT/harness.log 2>&1
rc=$?
grep -v '^|' $OUT/harness.log | tail -60
echo "harness rc=$rc"
