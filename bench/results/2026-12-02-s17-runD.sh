#!/bin/sh
# Call D (session 17): correctness of the merged selection's 72 changed layers
# with 128 checked channels for 16-bit outputs (and the outputs' own rounding).
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s17d/c.tar.xz -C /tmp/k
sh runtime/build.sh /tmp/rt > /tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }
timeout 100 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --work /tmp/w --out $OUT \
  --graphs --kernels-dir /tmp/k/c/stride_after --time-budget 0 --label 2026-12-02-s17-check16 > $OUT/check.log 2>&1
echo "check rc=$?"; tail -3 $OUT/check.log
