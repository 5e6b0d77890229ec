#!/bin/sh
# Call F (session 19): the 12 batch-1 16-bit 3x3 layers whose loads-first
# tile went from 1 x 1 to 2 x 1 outputs (call E's sweep) against the 1 x 1
# tile of main before the rule.
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s19f/f.tar.xz -C /tmp/k
sh runtime/build.sh /tmp/rt > /tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }
timeout 100 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --work /tmp/w --out $OUT \
  --graphs --target-s 0.02 --iters 100 --kernels-dir /tmp/k/i/stride_after --before-dir /tmp/k/i/stride_prev \
  --time-budget 80 --label 2026-12-02-s19-b1-3x3-16bit > $OUT/i.log 2>&1
echo "i rc=$?"
