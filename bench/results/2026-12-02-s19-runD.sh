#!/bin/sh
# Call D (session 19): the 29 batch-1 layers whose tile the call-C sweep
# changed (f32 3x3 / 5x5 on 7 x 7 maps of 768+ channels: the loads-first row
# tile instead of the GEMV kernel; 16-bit 5x5: 2 x 1 outputs instead of 1 x 1)
# against main before that rule (1a921c0).
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s19d/d.tar.xz -C /tmp/k
sh runtime/build.sh /tmp/rt > /tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }
timeout 150 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --work /tmp/w --out $OUT \
  --graphs --target-s 0.02 --iters 100 --kernels-dir /tmp/k/g/stride_after --before-dir /tmp/k/g/stride_head \
  --time-budget 120 --label 2026-12-02-s19-b1tiles > $OUT/g.log 2>&1
echo "g rc=$?"
