#!/usr/bin/env bash
# The strided-layer stage on the GPU machine, from the repository root:
# builds libdwc_runtime, links the kernels carried in .carry/stride_after
# (and .carry/stride_before, the baseline, when present; both made here by
# bench/stride_configs.py --build) and runs bench/stride_harness.py
# (correctness vs float64, forward / backward-data / backward-filter and
# training-step times vs PyTorch's best, same process); results under $OUT.
#
#   bench/gpu_stride.sh [--label NAME] [harness flags...]
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
OUT="${OUT:-/tmp/dwc-bench-out}"
WORK="${DWC_WORK:-/tmp/dwc-stride-bench}"
mkdir -p "$OUT" "$WORK"
BLOG="$OUT/stride-build.log"
die() { echo "gpu_stride.sh: $*" | tee -a "$BLOG" >&2; exit 2; }
[ -f .carry/stride_after/manifest.json ] || die "no .carry/stride_after/manifest.json (bench/stride_configs.py --build here first)"
{
  echo "== $(date -u +%FT%TZ) gpu_stride.sh $*"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv 2>&1
} >>"$BLOG"
sh runtime/build.sh "$WORK/rt" >>"$BLOG" 2>&1 || die "runtime/build.sh failed (see $BLOG)"
RT="$WORK/rt/libdwc_runtime.so"
BEFORE=()
[ -f .carry/stride_before/manifest.json ] && BEFORE=(--before-dir .carry/stride_before)
python3 bench/stride_harness.py --runtime-lib "$RT" --kernels-dir .carry/stride_after \
  "${BEFORE[@]}" --work "$WORK" --out "$OUT" "$@" 2>&1 | tee "$OUT/stride.log" | tail -90
RC=${PIPESTATUS[0]}
echo "gpu_stride.sh: harness rc $RC"; ls -la "$OUT"
exit "$RC"
