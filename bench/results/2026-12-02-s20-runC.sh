#!/bin/sh
# Call C (session 20): threads per block on small grids.
#  a: the 48 stride-2 forward layers, main's strided tiles with
#     block_threads = 32 / 64 / 128 (bt32, bt64, bt128; main: 256):
#     bench/stride_configs.py --set net --only <keys> --ops fwd --build
#     --aot build/bin/dwc-aot --tag btN --kernel 'fwd=#dwc.strided_forward<block_threads = N>'
#  r: 19 batch-64 / 32 stride-1 row-tile layers under their floor, each with
#     its default row tile plus block_threads = 64 / 128 (rb64, rb128; built
#     per layer with the full default configuration, manifests merged)
#  c: the plane's smaller tiles on the 14 x 14 stride-2 layers (call B's
#     group c, whose results did not come back).
# Everything written to $OUT is packed into $OUT/s20c.tar.xz.
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s20c/c.tar.xz -C /tmp/k
sh runtime/build.sh /tmp/rt > /tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }
R=/tmp/res; mkdir -p $R
sweep() {  # group label budget variants...
  g=$1; l=$2; bud=$3; shift 3; V=""; for t in "$@"; do V="$V --variant-dir /tmp/k/h2/$g/stride_$t"; done
  timeout $((bud + 40)) python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --work /tmp/w$g --out $R \
    --graphs --target-s 0.02 --iters 100 --kernels-dir /tmp/k/h2/$g/stride_after $V \
    --time-budget $bud --label $l > $R/$g.log 2>&1
  echo "$g rc=$?"
}
sweep a 2026-12-02-s20-block-threads-strided 150 bt32 bt64 bt128
sweep r 2026-12-02-s20-block-threads-row-tile 100 rb64 rb128
sweep c 2026-12-02-s20-plane-small-tiles 80 pb pf pg ph pi pj pk
tar cJf $OUT/s20c.tar.xz -C $R .
