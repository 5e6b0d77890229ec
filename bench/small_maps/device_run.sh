#!/usr/bin/env sh
# Device half of the small-map sweep (issue 20; docs/KernelSelection.md,
# "plane"): run from the checkout whose .carry/f20 holds the kernels of
# sweep_build.sh, plane_variants.sh and `plane_configs.py main`
# (run carry [".carry/f20"]). Writes $OUT/stride-f20-sweep.{md,json}.
set -u
sh runtime/build.sh /tmp/rt >/tmp/rtb.log 2>&1 || { tail /tmp/rtb.log; exit 1; }
V=""
for d in .carry/f20/stride_*; do
  case $d in */stride_after|*/stride_base) ;; *) V="$V --variant-dir $d" ;; esac
done
# shellcheck disable=SC2086
timeout 165 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so \
  --kernels-dir .carry/f20/stride_after --before-dir .carry/f20/stride_base $V \
  --work /tmp/w --out "$OUT" --label f20-sweep --graphs --time-budget 115 --target-s 0.03 \
  > "$OUT/log.txt" 2>&1
echo "rc=$?"
grep -iE "WRONG|error|Traceback" "$OUT/log.txt" | head
tail -c 3000 "$OUT/log.txt"
