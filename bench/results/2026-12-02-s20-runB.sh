#!/bin/sh
# Call B (session 20): Nsight Compute on five layers under their floor, our
# kernel next to PyTorch's (bench/ncu_stride_layer.py; sections
# SpeedOfLight, LaunchStats, Occupancy, MemoryWorkloadAnalysis,
# WarpStateStats; CSV per layer in $OUT/ncu-<key>.csv).
# Kernels: as call A (/work/s20/h/a) and bench/stride_configs.py --set net
# --only n32h56w56c128_f5_s1x1_p2x2x2x2_f16,n64h14w14c384_f3_s1x1_p1x1x1x1_f32
# --ops fwd --build --aot build/bin/dwc-aot --out /work/s20/h/n/stride_after.
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s20a/a.tar.xz -C /tmp/k
sh runtime/build.sh /tmp/rt > /tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }
# Then the plane's smaller tiles on the 14 x 14 stride-2 layers (and the
# 28 x 28 5x5 ones): bench/stride_configs.py ... --out /work/s20/h/c/stride_<tag>
# with pb rows = 1, pf rows = 1, columns = 4, pg rows = 1, columns = 2,
# ph rows = 1, columns = 1, pi rows = 1, columns = 4, block_channels = 16,
# pj channels = 1, rows = 1, columns = 4, pk rows = 1, columns = 2,
# block_channels = 16.
timeout 120 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --work /tmp/wc --out $OUT \
  --graphs --target-s 0.02 --iters 100 --kernels-dir /tmp/k/h/c/stride_after \
  $(for t in pb pf pg ph pi pj pk; do echo --variant-dir /tmp/k/h/c/stride_$t; done) \
  --time-budget 90 --label 2026-12-02-s20-plane-small-tiles > $OUT/c.log 2>&1
echo "c rc=$?"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
prof() {  # key kernels-dir [variant-dir tag]
  k=$1; shift
  extra=""; [ $# -ge 3 ] && extra="--kernels-dir $2 --tag $3"
  timeout 150 "$NCU" --section SpeedOfLight --section LaunchStats --section Occupancy \
    --section MemoryWorkloadAnalysis --section WarpStateStats --csv --page details \
    python3 bench/ncu_stride_layer.py --runtime-lib /tmp/rt/libdwc_runtime.so --work /tmp/wn \
    --only $k --kernels-dir $1 $extra > $OUT/ncu-$k.csv 2> $OUT/ncu-$k.err
  echo "$k rc=$? $(wc -l < $OUT/ncu-$k.csv) lines"
}
prof n64h14w14c576_f3_s2x2_p1x1x1x1_f32 /tmp/k/h/a/stride_after
prof n64h56w56c144_f3_s2x2_p1x1x1x1_f32 /tmp/k/h/a/stride_after
prof n64h14w14c672_f5_s2x2_p2x2x2x2_f16 /tmp/k/h/a/stride_after /tmp/k/h/a/stride_pb pb
prof n32h56w56c128_f5_s1x1_p2x2x2x2_f16 /tmp/k/h/n/stride_after
prof n64h14w14c384_f3_s1x1_p1x1x1x1_f32 /tmp/k/h/n/stride_after
