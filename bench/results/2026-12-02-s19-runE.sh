#!/bin/sh
# Call E (session 19): batch-1 3x3 tile variants with loads_first on the
# layers still under 1.5x PyTorch: 16-bit stride 1 (now 1 x 1), f32 stride 1
# (now 1 x 2), stride 2 (now 1 x 1).
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s19e/e.tar.xz -C /tmp/k
sh runtime/build.sh /tmp/rt > /tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }
sweep() {  # group label variants...
  g=$1; l=$2; shift 2; V=""; for t in "$@"; do V="$V --variant-dir /tmp/k/h/$g/stride_$t"; done
  timeout 70 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --work /tmp/w$g --out $OUT \
    --graphs --target-s 0.02 --iters 100 --kernels-dir /tmp/k/h/$g/stride_after $V \
    --time-budget 55 --label $l > $OUT/$g.log 2>&1
  echo "$g rc=$?"
}
sweep b 2026-12-02-s19-b1-3x3-16bit-sweep t21 t12 t22
sweep c 2026-12-02-s19-b1-3x3-f32-sweep t22 t21 t14
sweep d 2026-12-02-s19-b1-3x3-s2-sweep s12 s21 s22
