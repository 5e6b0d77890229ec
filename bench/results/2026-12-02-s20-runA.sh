#!/bin/sh
# Call A (session 20): the plane kernel on the strided forward layers of the
# set (48 stride-2 layers, batch 64 and 1): the strided forward kernel
# (stride_after, main's selection) against six #dwc.plane variants
# (pa: #dwc.plane<>, pb: rows = 1, pc: rows = 4, pd: columns = 4,
# pe: channels = 4, pf: rows = 1, columns = 4); the odd strided layers
# checked against float64 under pa / pb / pe.
# Kernels: bench/stride_configs.py --set net --only <the 48 keys> --ops fwd
# --build --aot build/bin/dwc-aot [--tag T --kernel 'fwd=<config>']
# --out /work/s20/h/a/stride_<after|T> (odd: --set odd, /work/s20/h/o).
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s20a/a.tar.xz -C /tmp/k
sh runtime/build.sh /tmp/rt > /tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }
sweep() {  # group label budget variants...
  g=$1; l=$2; bud=$3; shift 3; V=""; for t in "$@"; do V="$V --variant-dir /tmp/k/h/$g/stride_$t"; done
  timeout $((bud + 40)) python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --work /tmp/w$g --out $OUT \
    --graphs --target-s 0.02 --iters 100 --kernels-dir /tmp/k/h/$g/stride_after $V \
    --time-budget $bud --label $l > $OUT/$g.log 2>&1
  echo "$g rc=$?"
}
sweep o 2026-12-02-s20-plane-odd 30 pa pb pe
sweep a 2026-12-02-s20-plane-s2-sweep 200 pa pb pc pd pe pf
