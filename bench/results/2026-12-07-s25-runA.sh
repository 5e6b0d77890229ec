#!/bin/sh
# NOT RUN: no device machine could be started for it; call C (2026-12-07-s25-runC.sh)
# ran its first part and part of the second with these kernels.
# Call A (session 25): the whole real-network layer set (bench/stride_configs.py
# --set net, 288 layers) on the current compiler in one device session, each
# layer also against the best copy of its forward's bytes (stride_harness
# copy_time): first the 77 layers below the per-layer floor in layer set v12
# (with five loads_first tiles of the batch-64 f32 3x3 stride-2 forwards as
# variants: a 2ch 1x4, b 1ch 1x4, c 4ch 1x2, d 2ch 2x4, e 4ch 1x4), then the
# other 211.
# Kernels (MLIR machine, main at this script's commit):
#   K=<the 77 keys of bench/results/2026-12-07-s25-failing-keys.txt>
#   python3 bench/stride_configs.py --set net --only $K --build --out .carry/s25/stride_after
#   python3 bench/stride_configs.py --set net --only <the other 211 keys> --build --out .carry/s25/rest/stride_after
#   python3 bench/stride_configs.py --set layers --only <the 3 f32 3x3 s2 b64 keys of K> --ops fwd \
#     --build --tag lfX --kernel 'fwd=#dwc.strided_forward<channels = C, rows = R, columns = Q, loads_first = 1>' \
#     --out .carry/s25/stride_lfX
#   (carried as .carry/s25/a.tar.xz: tar cJf a.tar.xz stride_after rest stride_lfa ... stride_lfe)
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s25/a.tar.xz -C /tmp/k || exit 1
sh runtime/build.sh /tmp/rt > /tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv
R=/tmp/res; mkdir -p $R
V=""; for t in a b c d e; do V="$V --variant-dir /tmp/k/stride_lf$t"; done
timeout 270 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --out $R --graphs \
  --target-s 0.02 --iters 100 --work /tmp/wf --kernels-dir /tmp/k/stride_after $V --time-budget 230 \
  --label 2026-12-07-s25-failing > $R/failing.log 2>&1; echo "failing rc=$?"
grep -A3 '^Per-layer' $R/stride-2026-12-07-s25-failing.md
timeout 290 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --out $R --graphs \
  --target-s 0.02 --iters 100 --work /tmp/wr --kernels-dir /tmp/k/rest/stride_after --time-budget 250 \
  --label 2026-12-07-s25-rest > $R/rest.log 2>&1; echo "rest rc=$?"
grep -A3 '^Per-layer' $R/stride-2026-12-07-s25-rest.md
tar cJf $OUT/s25a.tar.xz -C $R .
