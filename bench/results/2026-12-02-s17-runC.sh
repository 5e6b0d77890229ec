#!/bin/sh
# Call C (session 17): the merged selection's 72 changed layers, before (main
# at session start) / after, CUDA graphs, PyTorch side by side; odd shapes.
set -u
D=.carry/s17c
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf $D/c.tar.xz -C /tmp/k
sh runtime/build.sh /tmp/rt > /tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }
H="python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --work /tmp/w --out $OUT --graphs --target-s 0.02 --iters 100"
V=""; for v in r1c1 r1c2 n1f n1h m1f m1h direct; do V="$V --variant-dir /tmp/k/c/s2b1/stride_$v"; done
timeout 90 $H --kernels-dir /tmp/k/c/s2b1/stride_after $V --torch-ops fwd --time-budget 70 \
  --label 2026-12-02-s17-s2b1-sweep > $OUT/s2b1.log 2>&1; echo "s2b1 rc=$?"; tail -2 $OUT/s2b1.log
timeout 230 $H --kernels-dir /tmp/k/c/stride_after --before-dir /tmp/k/c/stride_base --time-budget 190 \
  --label 2026-12-02-s17-final > $OUT/final.log 2>&1; echo "final rc=$?"; tail -3 $OUT/final.log
timeout 60 $H --kernels-dir /tmp/k/c/odd/stride_after --variant-dir /tmp/k/c/odd/stride_r1c1 \
  --variant-dir /tmp/k/c/odd/stride_r1c2 --time-budget 1 \
  --label 2026-12-02-s17-final-odd > $OUT/odd.log 2>&1; echo "odd rc=$?"; tail -2 $OUT/odd.log
ls $OUT
