#!/bin/sh
# Call B (session 21): the tensor-core kernels (and the plane kernel) on the
# 16-bit stride-1 layers of filters up to 7 x 7 at batch 32 / 64, against the
# selected CUDA-core row tiles / plane kernels.
#  A: 40 layers with 5 x 5 and 7 x 7 filters, B: 16 layers with 3 x 3 filters.
#  Kernels (MLIR machine, main at 60ff5e2; rebuilt in session 22 from the same commit), K = the 56 keys of kA + kB:
#    bench/stride_configs.py --set net --only $K --ops fwd,bwd_data --build --aot build/bin/dwc-aot --out h/stride_after
#    ... --tag band --kernel 'fwd=#dwc.mma_band<>' --kernel 'bwd_data=#dwc.mma_band<>'
#    ... --tag ring --kernel 'fwd=#dwc.mma_ring<>' --kernel 'bwd_data=#dwc.mma_ring<>'
#    ... --ops fwd --tag plane --kernel 'fwd=#dwc.plane<>'
# Everything is packed into $OUT/s21b.tar.xz.
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s21b/b.tar.xz -C /tmp/k
sh runtime/build.sh /tmp/rt > /tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }
R=/tmp/res; mkdir -p $R
sweep() {  # group label budget
  g=$1; l=$2; bud=$3
  timeout $((bud + 40)) python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --work /tmp/w$g --out $R \
    --graphs --target-s 0.02 --iters 100 --only "$(cat /tmp/k/k$g.txt)" --kernels-dir /tmp/k/h/stride_after \
    --variant-dir /tmp/k/h/stride_band --variant-dir /tmp/k/h/stride_ring --variant-dir /tmp/k/h/stride_plane \
    --time-budget $bud --label $l > $R/$g.log 2>&1
  echo "$g rc=$?"
}
sweep A 2026-12-02-s21-mma-16bit-5x5-7x7 250
sweep B 2026-12-02-s21-mma-16bit-3x3 140
tar cJf $OUT/s21b.tar.xz -C $R .
