#!/usr/bin/env bash
# On the GPU machine (torch, g++, the CUDA driver; no MLIR), from anywhere:
# builds libdwc_runtime, then runs one topic's kernels carried from the
# machine that built them (`python3 bench/dwcbench TOPIC build`, into
# .carry/TOPIC) against PyTorch; results and logs go to $OUT.
#
#   bench/run_on_gpu.sh layers|pool|conv [run flags: --label, --only, --baseline DIR, ...]
#   bench/run_on_gpu.sh networks [networks run flags]   (kernels of `networks prepare`)
#   bench/run_on_gpu.sh fusion [fusion run flags]       (kernels of `fusion prepare`)
#   bench/run_on_gpu.sh fusion-sweep [flags]            (kernels of `fusion-sweep prepare`)
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
TOPIC="${1:?usage: bench/run_on_gpu.sh layers|pool|conv|networks [flags]}"
shift
OUT="${OUT:-/tmp/dwcbench-out}"
WORK="${DWC_WORK:-/tmp/dwcbench}"
mkdir -p "$OUT" "$WORK"
BLOG="$OUT/build.log"
{
  echo "== $(date -u +%FT%TZ) run_on_gpu.sh $TOPIC $*"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv 2>&1
} >>"$BLOG"
if [ "$TOPIC" = fusion ]; then
  python3 -c "import timm" 2>/dev/null || python3 -m pip install -q --no-deps .carry/wheels/timm-*.whl
  python3 bench/dwcbench fusion run --kernels .carry/fusion --out "$OUT/fusion.jsonl" "$@" 2>&1 |
    tee "$OUT/run.log" | tail -60
  exit "${PIPESTATUS[0]}"
fi
if [ "$TOPIC" = fusion-sweep ]; then
  sh runtime/build.sh "$WORK/rt" >>"$BLOG" 2>&1 ||
    { echo "run_on_gpu.sh: runtime/build.sh failed (see $BLOG)" >&2; exit 2; }
  python3 bench/dwcbench fusion-sweep run --runtime-lib "$WORK/rt/libdwc_runtime.so" \
    --work "$WORK" --out "$OUT/fusion-sweep.jsonl" "$@" 2>&1 | tee "$OUT/run.log" | tail -80
  exit "${PIPESTATUS[0]}"
fi
if [ "$TOPIC" = networks ]; then
  python3 bench/dwcbench networks run --kernels .carry/networks --out "$OUT" "$@" 2>&1 |
    tee "$OUT/run.log" | tail -60
  exit "${PIPESTATUS[0]}"
fi
[ -f ".carry/$TOPIC/manifest.json" ] ||
  { echo "run_on_gpu.sh: no .carry/$TOPIC/manifest.json (python3 bench/dwcbench $TOPIC build first)" >&2; exit 2; }
sh runtime/build.sh "$WORK/rt" >>"$BLOG" 2>&1 ||
  { echo "run_on_gpu.sh: runtime/build.sh failed (see $BLOG)" >&2; exit 2; }
python3 bench/dwcbench "$TOPIC" run --kernels ".carry/$TOPIC" --runtime-lib "$WORK/rt/libdwc_runtime.so" \
  --work "$WORK" --out "$OUT" "$@" 2>&1 | tee "$OUT/run.log" | tail -60
exit "${PIPESTATUS[0]}"
