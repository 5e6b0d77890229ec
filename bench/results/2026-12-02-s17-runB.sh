#!/bin/sh
# Call B (session 17): stride-2 layers re-timed on main with CUDA graphs; the
# batch-1 full_row column-part sweep; odd shapes of the split variants;
# helpers' final selections (extra.sh, if present).
set -u
D=.carry/s17b
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && for t in $D/*.tar.xz; do tar xJf "$t" -C /tmp/k; done
sh runtime/build.sh /tmp/rt > /tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }
H="python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --work /tmp/w --out $OUT --graphs --target-s 0.02 --iters 100"
timeout ${S2_S:-220} $H --kernels-dir /tmp/k/s2/stride_after --time-budget ${S2_B:-190} \
  --label 2026-12-02-s17-stride2 > $OUT/s2.log 2>&1; echo "s2 rc=$?"; tail -2 $OUT/s2.log
V=""; for v in c2 c4 c8; do V="$V --variant-dir /tmp/k/b1/stride_$v"; done
timeout ${B1_S:-160} $H --kernels-dir /tmp/k/b1/stride_after $V --torch-ops fwd --only $(cat $D/b1keys.txt) \
  --time-budget ${B1_B:-140} --label 2026-12-02-s17-b1-sweep > $OUT/b1.log 2>&1; echo "b1 rc=$?"; tail -2 $OUT/b1.log
V=""; for v in c2 c4; do V="$V --variant-dir /tmp/k/odd/stride_$v"; done
timeout 60 $H --kernels-dir /tmp/k/odd/stride_after $V --time-budget 1 \
  --label 2026-12-02-s17-odd > $OUT/odd.log 2>&1; echo "odd rc=$?"; tail -2 $OUT/odd.log
[ -f $D/extra.sh ] && . $D/extra.sh
ls $OUT
