#!/bin/sh
# Call D (session 20): main's new selection (strided forward block_threads
# = 128 on outputs of <= 7 rows outside the small grids) on the 48 stride-2
# forward layers against the session's base compiler (before), and the odd
# strided layers checked against float64 with the selection and with
# requested 32- / 128-thread blocks.
# Kernels: bench/stride_configs.py --set net --only <the 48 keys> --ops fwd
# --build --aot build/bin/dwc-aot --out /work/s20/h3/a/stride_after (before:
# the base dwc-aot, --tag base); odd: --set odd --only <10 strided keys>
# [--tag bt32 --kernel 'fwd=#dwc.strided_forward<block_threads = 32>'] ...
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s20d/d.tar.xz -C /tmp/k
sh runtime/build.sh /tmp/rt > /tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }
R=/tmp/res; mkdir -p $R
H="python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --out $R --graphs --target-s 0.02 --iters 100"
timeout 60 $H --work /tmp/wo --kernels-dir /tmp/k/h3/o/stride_after --variant-dir /tmp/k/h3/o/stride_bt32 \
  --variant-dir /tmp/k/h3/o/stride_bt128 --time-budget 30 --label 2026-12-02-s20-odd > $R/o.log 2>&1; echo "o rc=$?"
timeout 200 $H --work /tmp/wa --kernels-dir /tmp/k/h3/a/stride_after --before-dir /tmp/k/h3/a/stride_base \
  --time-budget 150 --label 2026-12-02-s20-final > $R/a.log 2>&1; echo "a rc=$?"
tar cJf $OUT/s20d.tar.xz -C $R .
