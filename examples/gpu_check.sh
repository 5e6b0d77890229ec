#!/usr/bin/env bash
# GPU half of scripts/run-examples.sh for a GPU machine without MLIR: builds
# libdwc_runtime (runtime/build.sh), links the example objects carried in
# .carry/examples/ (made by `scripts/run-examples.sh --prepare-carry`) with
# generated host drivers, runs them and checks them against the carried CPU
# reference checksums. Any cwd; log also in $OUT/gpu_check.log when OUT is set.
#   examples/gpu_check.sh [run_gpu.py flags, e.g. --iters 200]
# Exit status: 0 all PASS, 1 a FAIL or error, 3 no usable GPU.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
C="${DWC_EXAMPLES_CARRY:-$ROOT/.carry/examples}"
WORK="${DWC_WORK:-/tmp/dwc-examples}"
LOG="${OUT:-$WORK}/gpu_check.log"
mkdir -p "$WORK" "$(dirname "$LOG")"
[ -f "$C/cpu-ref.json" ] || { echo "gpu_check.sh: no $C/cpu-ref.json: run scripts/run-examples.sh --prepare-carry and carry .carry/examples" >&2; exit 1; }
{
  echo "== $(date -u +%FT%TZ) gpu_check.sh; carried: $(cat "$C/manifest.json" 2>/dev/null)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo "(no nvidia-smi)"
  sh runtime/build.sh "$WORK/rt" || { echo "gpu_check.sh: runtime/build.sh failed"; exit 1; }
  python3 examples/run_gpu.py --objdir "$C" --workdir "$WORK" \
    --runtime-dir "$WORK/rt" --ref "$C/cpu-ref.json" "$@"
} 2>&1 | tee "$LOG"
exit "${PIPESTATUS[0]}"
