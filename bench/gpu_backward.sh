#!/usr/bin/env bash
# The depthwise backward stage on the GPU machine, from the repository root:
# builds libdwc_runtime, links the kernels carried in .carry/backward_kernels
# (made here by `python3 bench/backward_configs.py --set floor --build --aot
# BUILD/bin/dwc-aot`) and runs bench/backward_harness.py (correctness vs a
# float64 reference, timing vs cuDNN in the same process); results under $OUT.
#
#   bench/gpu_backward.sh [--label NAME] [--time-budget S] [harness flags...]
#
# Environment: OUT (default /tmp/dwc-bench-out), DWC_ANCHORS (anchor file,
# default ../shared/bench/anchors-h200.json or bench/anchors-h200.json).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
OUT="${OUT:-/tmp/dwc-bench-out}"
KDIR="${DWC_BACKWARD_KERNELS:-$ROOT/.carry/backward_kernels}"
WORK="${DWC_WORK:-/tmp/dwc-backward-bench}"
mkdir -p "$OUT" "$WORK"
BLOG="$OUT/backward-build.log"
LABEL=""; BUDGET=400; PASS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --label) LABEL="$2"; shift 2 ;;
    --time-budget) BUDGET="$2"; shift 2 ;;
    *) PASS+=("$1"); shift ;;
  esac
done
die() { echo "gpu_backward.sh: $*" | tee -a "$BLOG" >&2; exit 2; }
[ -f "$KDIR/manifest.json" ] || die "no $KDIR/manifest.json: run bench/backward_configs.py --build here first"
[ -z "$LABEL" ] && LABEL=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['set'])" "$KDIR/manifest.json")
{
  echo "== $(date -u +%FT%TZ) gpu_backward.sh --label $LABEL ${PASS[*]:-}"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv 2>&1
} >>"$BLOG"
sh runtime/build.sh "$WORK/rt" >>"$BLOG" 2>&1 || die "runtime/build.sh failed (see $BLOG)"
RT="$WORK/rt/libdwc_runtime.so"
[ -f "$RT" ] || die "no $RT after the runtime build"
ANCH="${DWC_ANCHORS:-}"
for a in "$ROOT/../shared/bench/anchors-h200.json" "$ROOT/../../../shared/bench/anchors-h200.json" "$ROOT/bench/anchors-h200.json"; do
  [ -z "$ANCH" ] && [ -f "$a" ] && ANCH="$a"
done
python3 bench/backward_harness.py --runtime-lib "$RT" --kernels-dir "$KDIR" --work "$WORK" \
  --out "$OUT" --label "$LABEL" --anchors "$ANCH" --time-budget "$BUDGET" "${PASS[@]}" 2>&1 \
  | tee "$OUT/backward.log" | tail -80
RC=${PIPESTATUS[0]}
echo "gpu_backward.sh: harness rc $RC; files in $OUT:"; ls -la "$OUT"
exit "$RC"
