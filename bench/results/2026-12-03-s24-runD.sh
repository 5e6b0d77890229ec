#!/bin/sh
# Call D (session 24): the row tiles' new `prefetch_rows` (input row t + k
# loaded before row t's FMAs) on eight stride-1 forward layers of the set
# (16-bit 5x5 / 3x3, f32 3x3): main's selection (after) against the same
# tiles with prefetch_rows = 1 / 2 (16-bit 3x3 tiles also min_blocks_per_sm
# = 2, which keeps two blocks per SM at their higher register count).
# Kernels (MLIR machine):
#   K=<the 8 keys of bench/results/2026-12-03-s24-prefetch-p1.json>
#   python3 bench/stride_configs.py --set s1 --only $K --ops fwd --build --out .carry/s24p/stride_after
#   python3 bench/stride_configs.py --set s1 --layer-kernels bench/results/2026-12-03-s24-prefetch-pN.json \
#     --ops fwd --build --tag pN --out .carry/s24p/stride_pN      (N = 1, 2)
set -u
cd "$(dirname "$0")/../.." || exit 1
sh runtime/build.sh /tmp/rt > /tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }
R=/tmp/res; mkdir -p $R
timeout 120 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --out $R --graphs \
  --target-s 0.02 --iters 100 --work /tmp/wp --kernels-dir .carry/s24p/stride_after \
  --variant-dir .carry/s24p/stride_p1 --variant-dir .carry/s24p/stride_p2 --time-budget 80 \
  --label 2026-12-03-s24-prefetch > $R/p.log 2>&1; echo "p rc=$?"
tail -5 $R/p.log
cp $R/*.md $R/*.json $OUT/ 2>/dev/null; cp $R/p.log $OUT/
