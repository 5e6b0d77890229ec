#!/usr/bin/env bash
# One call on the GPU machine, from the repository root: builds
# libdwc_runtime, links the kernel objects carried in .carry/kernels (made by
# bench/build_kernels.sh) into one shared library, runs bench/harness.py and
# writes results (JSON, markdown, PNG) and logs under $OUT.
#
#   bench/gpu.sh [--set grid|odd|smoke] [--iters N] [--label NAME]
#                [--time-budget S] [any other bench/harness.py flag]
#   bench/gpu.sh --pool-only [--label NAME]   (only the pooling harness)
#
# Environment: OUT (default /tmp/dwc-bench-out), DWC_COMMIT (overrides the
# manifest's commit), DWC_HARD_LIMIT (seconds this script may take; 570).
set -uo pipefail

T_START=$(date +%s)
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
OUT="${OUT:-/tmp/dwc-bench-out}"
KDIR="${DWC_KERNELS:-$ROOT/.carry/kernels}"
WORK="${DWC_WORK:-/tmp/dwc-bench}"
HARD=${DWC_HARD_LIMIT:-570}
mkdir -p "$OUT" "$WORK"
BLOG="$OUT/build.log"
HLOG="$OUT/harness.log"
: >"$BLOG"

SET=""; LABEL=""; BUDGET=""; PASS=(); POOL_ONLY=0
while [ $# -gt 0 ]; do
  case "$1" in
    --pool-only) POOL_ONLY=1; shift ;;
    --set) SET="$2"; shift 2 ;;
    --label) LABEL="$2"; shift 2 ;;
    --time-budget) BUDGET="$2"; shift 2 ;;
    *) PASS+=("$1"); shift ;;
  esac
done

die() { echo "gpu.sh: $*" | tee -a "$BLOG" >&2; exit 2; }
if [ "$POOL_ONLY" -eq 1 ]; then
  [ -f .carry/pool_kernels/manifest.json ] || die "--pool-only: no .carry/pool_kernels/manifest.json (bench/pool_configs.py --build)"
  SET=pool; [ -z "$LABEL" ] && LABEL="pool"
else
  [ -f "$KDIR/manifest.json" ] || die "no $KDIR/manifest.json: run bench/build_kernels.sh here first and carry .carry"
  MSET=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['set'])" "$KDIR/manifest.json")
  [ -z "$SET" ] && SET="$MSET"
  [ "$SET" = "$MSET" ] || die "asked for set '$SET' but the carried kernels are set '$MSET' (rebuild with bench/build_kernels.sh --set $SET)"
  [ -z "$LABEL" ] && LABEL="$SET"
fi

{
  echo "== $(date -u +%FT%TZ) gpu.sh --set $SET --label $LABEL ${PASS[*]:-}"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,memory.used --format=csv 2>&1
  python3 -c "import torch; print('torch', torch.__version__, 'cudnn', torch.backends.cudnn.version())" 2>&1
} >>"$BLOG"

# 1. Runtime.
echo "== runtime" >>"$BLOG"
if [ -x runtime/build.sh ] || [ -f runtime/build.sh ]; then
  sh runtime/build.sh "$WORK/rt" >>"$BLOG" 2>&1 || die "runtime/build.sh failed (see build.log)"
else
  mkdir -p "$WORK/rt"
  g++ -std=c++17 -O2 -fPIC -shared -Iruntime/include runtime/lib/*.cpp \
    -Wl,-soname,libdwc_runtime.so -o "$WORK/rt/libdwc_runtime.so" -ldl -lpthread >>"$BLOG" 2>&1 \
    || die "runtime build failed (see build.log)"
fi
RT="$WORK/rt/libdwc_runtime.so"
[ -f "$RT" ] || die "no $RT after the runtime build"

RC=0
if [ "$POOL_ONLY" -eq 0 ]; then
# 2. Kernels: one shared library; if the objects clash, one per object.
echo "== kernels" >>"$BLOG"
OBJS=$(ls "$KDIR"/*.o 2>/dev/null)
[ -n "$OBJS" ] || die "no kernel objects in $KDIR (all failed to build? see manifest.json)"
LIBARGS=()
if g++ -shared -o "$WORK/libdwc_bench_kernels.so" $OBJS -L"$WORK/rt" -ldwc_runtime \
     -Wl,-rpath,"$WORK/rt" -Wl,--no-undefined >>"$BLOG" 2>&1; then
  LIBARGS+=(--kernel-lib "$WORK/libdwc_bench_kernels.so")
  echo "linked $(echo $OBJS | wc -w) objects into one library" >>"$BLOG"
else
  echo "one-library link failed; linking one library per object" >>"$BLOG"
  mkdir -p "$WORK/per"
  for o in $OBJS; do
    so="$WORK/per/$(basename "${o%.o}").so"
    if g++ -shared -o "$so" "$o" -L"$WORK/rt" -ldwc_runtime -Wl,-rpath,"$WORK/rt" >>"$BLOG" 2>&1; then
      LIBARGS+=(--kernel-lib "$so")
    fi
  done
  [ ${#LIBARGS[@]} -gt 0 ] || die "no kernel object links into a shared library (PIC? see build.log)"
fi

# 3. Harness; restarted with --resume when a kernel kills the CUDA context.
ELAPSED=$(( $(date +%s) - T_START ))
[ -z "$BUDGET" ] && BUDGET=$(( HARD - ELAPSED - 60 ))
export DWC_BENCH_COMMAND="bench/gpu.sh --set $SET --label $LABEL --time-budget $BUDGET ${PASS[*]:-}"
export DWC_CHECKOUT_COMMIT="$(git rev-parse --verify -q HEAD 2>/dev/null || true)"
export PYTHONUNBUFFERED=1
STATE="$WORK/state-$LABEL.json"
rm -f "$STATE"
COMMON=(--manifest "$KDIR/manifest.json" --runtime-lib "$RT" "${LIBARGS[@]}" --out "$OUT"
        --label "$LABEL" --set "$SET" --state "$STATE" --time-budget "$BUDGET" "${PASS[@]}")
: >"$HLOG"
RC=0
in_progress() {  # the config the harness was on when it stopped, if any
  python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get('in_progress') or '')" "$STATE" 2>/dev/null
}
for attempt in 1 2 3 4 5 6 7 8; do
  LEFT=$(( HARD - ($(date +%s) - T_START) - 40 ))
  [ "$LEFT" -gt 20 ] || { RC=124; break; }
  RESUME=(); [ "$attempt" -gt 1 ] && RESUME=(--resume)
  timeout -k 5 "$LEFT" python3 bench/harness.py "${COMMON[@]}" "${RESUME[@]}" 2>&1 | tee -a "$HLOG"
  RC=${PIPESTATUS[0]}
  export DWC_LAST_RC=$RC
  # 3: CUDA context lost; other failures (a segfault in a kernel's host
  # code...) while on a config: mark it crashed and go on with the rest.
  case "$RC" in 0|10|124|137) break ;; esac
  [ "$RC" -eq 3 ] || [ -n "$(in_progress)" ] || break
  echo "gpu.sh: harness stopped (rc $RC) on $(in_progress); resuming (attempt $((attempt + 1)))" | tee -a "$HLOG"
done
# 0: all correct, 10: report written but some config incorrect; anything
# else (time limit, lost context, harness error): report from the state.
if [ "$RC" -ne 0 ] && [ "$RC" -ne 10 ]; then
  echo "gpu.sh: harness stopped (rc $RC); writing the report from its saved state" | tee -a "$HLOG"
  timeout 35 python3 bench/harness.py "${COMMON[@]}" --report-only 2>&1 | tee -a "$HLOG"
fi
fi  # POOL_ONLY
[ -z "$BUDGET" ] && BUDGET=$(( HARD - ($(date +%s) - T_START) - 40 ))
# Pooling: when pooling kernels were carried (bench/pool_configs.py --build),
# run their harness with the time that is left.
if [ -f .carry/pool_kernels/manifest.json ]; then
  PLEFT=$(( BUDGET - ($(date +%s) - T_START) ))
  if [ "$PLEFT" -gt 30 ]; then
    PSET=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get('set','grid').replace('+','_'))" .carry/pool_kernels/manifest.json)
    timeout -k 5 "$PLEFT" python3 bench/pool_harness.py --runtime-lib "$RT" \
      --kernels-dir .carry/pool_kernels --out "$OUT" --label "pool-$PSET-$LABEL" \
      --time-budget $(( PLEFT - 15 )) 2>&1 | tee "$OUT/pool.log" | tail -60
    echo "gpu.sh: pool harness rc ${PIPESTATUS[0]}" | tee -a "$HLOG"
  else
    echo "gpu.sh: no time left for the pooling harness" | tee -a "$HLOG"
  fi
fi
echo "gpu.sh: done in $(( $(date +%s) - T_START )) s, harness rc $RC; files in $OUT:" | tee -a "$HLOG"
ls -la "$OUT" | tee -a "$HLOG"
exit "$RC"
