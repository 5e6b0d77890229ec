#!/bin/sh
# Call D (session 25): the new f32 stride-2 forward default (1 x 4 tiles of 64
# bits loaded first on outputs of under 28 rows) against the tile before it
# (call C's kernels, the session's base compiler) on its three batch-64
# layers, and the odd strided shapes on the new compiler (correctness).
# Kernels (MLIR machine, main at the rule's commit; carried as .carry/s25d/d.tar.xz,
# the base kernels as .carry/s25/a.tar.xz):
#   python3 bench/stride_configs.py --set layers --only <the 3 keys> --ops fwd --build --out .carry/s25d/l/stride_after
#   python3 bench/stride_configs.py --set odd --build --out .carry/s25d/o/stride_after
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k /tmp/d && tar xJf .carry/s25/a.tar.xz -C /tmp/k && tar xJf .carry/s25d/d.tar.xz -C /tmp/d || exit 1
sh runtime/build.sh /tmp/rt > /tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }
nvidia-smi --query-gpu=name --format=csv,noheader
R=/tmp/res; mkdir -p $R
timeout 50 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --out $R --graphs \
  --target-s 0.02 --iters 100 --work /tmp/wl --kernels-dir /tmp/d/l/stride_after --before-dir /tmp/k/stride_after \
  --time-budget 35 --label 2026-12-07-s25-s2f32 > $R/s2f32.log 2>&1; echo "s2f32 rc=$?"
grep 'f3_s2' $R/stride-2026-12-07-s25-s2f32.md | cut -d'|' -f2-8
tar cJf $OUT/s25d.tar.xz -C $R .
timeout 45 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --out $R \
  --work /tmp/wo --kernels-dir /tmp/d/o/stride_after --time-budget 30 --label 2026-12-07-s25-odd \
  > $R/odd.log 2>&1; echo "odd rc=$?"; grep -c '(odd) .* yes' $R/stride-2026-12-07-s25-odd.md
tar cJf $OUT/s25d.tar.xz -C $R .
