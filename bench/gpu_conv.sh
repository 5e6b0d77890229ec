#!/usr/bin/env bash
# One call on the GPU machine, from the repository root: builds
# libdwc_runtime, links the dense-conv kernel objects carried in
# .carry/conv_kernels (made by bench/conv_configs.py --build) into one shared
# library and runs bench/conv_harness.py; results and logs go to $OUT.
#
#   bench/gpu_conv.sh [--label NAME] [--time-budget S] [--only SUBSTR,...]
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
OUT="${OUT:-/tmp/dwc-conv-out}"
KDIR="${DWC_CONV_KERNELS:-$ROOT/.carry/conv_kernels}"
WORK="${DWC_WORK:-/tmp/dwc-conv}"
mkdir -p "$OUT" "$WORK"
LABEL=conv
PASS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --label) LABEL="$2"; shift 2 ;;
    *) PASS+=("$1"); shift ;;
  esac
done
[ -f "$KDIR/manifest.json" ] || { echo "gpu_conv.sh: no $KDIR/manifest.json (run bench/conv_configs.py --build)" >&2; exit 2; }
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,memory.used --format=csv
  python3 -c "import torch; print('torch', torch.__version__, 'cudnn', torch.backends.cudnn.version())"
} >"$OUT/conv-build.log" 2>&1
sh runtime/build.sh "$WORK/rt" >>"$OUT/conv-build.log" 2>&1 || { echo "runtime build failed" >&2; exit 2; }
g++ -shared -o "$WORK/libdwc_conv_kernels.so" "$KDIR"/*.o -L"$WORK/rt" -ldwc_runtime \
  -Wl,-rpath,"$WORK/rt" -Wl,--no-undefined >>"$OUT/conv-build.log" 2>&1 \
  || { echo "kernel link failed (see conv-build.log)" >&2; tail -20 "$OUT/conv-build.log"; exit 2; }
export DWC_BENCH_COMMAND="bench/gpu_conv.sh --label $LABEL ${PASS[*]:-}"
export PYTHONUNBUFFERED=1
python3 bench/conv_harness.py --manifest "$KDIR/manifest.json" --runtime-lib "$WORK/rt/libdwc_runtime.so" \
  --kernel-lib "$WORK/libdwc_conv_kernels.so" --out "$OUT" --label "$LABEL" "${PASS[@]}" 2>&1 | tee "$OUT/conv-harness.log"
exit "${PIPESTATUS[0]}"
