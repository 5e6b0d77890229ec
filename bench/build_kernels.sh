#!/usr/bin/env bash
# Compiles the benchmark kernels with dwc-aot on the development machine:
# one .mlir per configuration (bench/configs.py), one object + header each,
# and manifest.json, under .carry/kernels (ignored; carried to the GPU
# machine by the device run with carry=[".carry"]).
#
#   bench/build_kernels.sh [--set smoke|odd|grid|all] [--only SUBSTR,...]
#                          [--aot PATH] [--aot-flags "FLAGS"] [--out DIR] [-j N]
#
# --aot-flags: extra dwc-aot flags for every kernel (variants, ablations),
# e.g. --aot-flags "--chip=sm_90a" (shell words: quote values with spaces);
# recorded in the manifest's dwc_aot field. Variants of the kernel families
# selected as IR (e.g. #dwc.mma_band<rows = 2>) are dwc.kernel attributes of
# the input ops instead (docs/KernelSelection.md).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SET=smoke
ONLY=""
AOT="$ROOT/build/bin/dwc-aot"
AOT_FLAGS=""
OUTDIR="$ROOT/.carry/kernels"
JOBS=2
while [ $# -gt 0 ]; do
  case "$1" in
    --set) SET="$2"; shift 2 ;;
    --only) ONLY="$2"; shift 2 ;;
    --aot) AOT="$2"; shift 2 ;;
    --aot-flags) AOT_FLAGS="$2"; shift 2 ;;
    --out) OUTDIR="$2"; shift 2 ;;
    -j) JOBS="$2"; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "build_kernels.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

AOT="$(cd "$(dirname "$AOT")" 2>/dev/null && pwd)/$(basename "$AOT")" || true
if [ ! -x "$AOT" ]; then
  echo "build_kernels.sh: dwc-aot not found at $AOT (pass --aot PATH)" >&2
  exit 2
fi

COMMIT="$(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)"
if [ "$COMMIT" != unknown ] && [ -n "$(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  COMMIT="$COMMIT-dirty"
fi

case "$OUTDIR" in
  */kernels) ;;
  *) echo "build_kernels.sh: --out must end in /kernels (it is wiped)" >&2; exit 2 ;;
esac
rm -rf "$OUTDIR"
mkdir -p "$OUTDIR"
python3 "$ROOT/bench/configs.py" --set "$SET" --only "$ONLY" --emit-mlir "$OUTDIR" >/dev/null
N=$(ls "$OUTDIR"/*.mlir | wc -l)
echo "build_kernels: $N configs of set '$SET' -> $OUTDIR with $AOT (-j$JOBS)"

T0=$(date +%s)
export AOT AOT_FLAGS
# Each job: dwc-aot x.mlir -o x.o --header x.h, log in x.log; a failure
# leaves no object and is recorded in the manifest (the others go on).
ls "$OUTDIR"/*.mlir | xargs -P "$JOBS" -I{} bash -c '
  f="{}"; b="${f%.mlir}"
  t0=$(date +%s.%N)
  if ! eval "\"\$AOT\" $AOT_FLAGS \"\$f\" -o \"\$b.o\" --header \"\$b.h\"" >"$b.log" 2>&1; then
    rm -f "$b.o"; echo "  FAILED $(basename "$b")"
  fi
  echo "$(basename "$b") $(echo "$(date +%s.%N) - $t0" | bc)" >"$b.time"'
echo "build_kernels: dwc-aot took $(( $(date +%s) - T0 )) s"
# Seconds per kernel (wall clock, -j$JOBS), for the compile-time report.
cat "$OUTDIR"/*.time > "$OUTDIR/compile-times.txt" 2>/dev/null && rm -f "$OUTDIR"/*.time

python3 "$ROOT/bench/configs.py" --set "$SET" --write-manifest "$OUTDIR" \
  --commit "$COMMIT" --aot "$AOT${AOT_FLAGS:+ $AOT_FLAGS}"
SIZE_KB=$(du -sk "$ROOT/.carry" | cut -f1)
echo "build_kernels: .carry is ${SIZE_KB} KiB (the device run carries at most 64 MiB with the tree)"
if [ "$SIZE_KB" -gt 57344 ]; then
  echo "build_kernels: WARNING: .carry is over 56 MiB; split the set with --only" >&2
fi
