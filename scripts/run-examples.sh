#!/usr/bin/env bash
# Sets up and builds dwc (scripts/setup.sh), runs each example (examples/*.mlir)
# through the CPU reference, compiles it with dwc-aot to a GPU binary, links a
# generated host driver (examples/run_gpu.py) and, when a GPU answers, runs it
# there and checks it against the CPU reference (PASS/FAIL). Idempotent, any cwd.
#
#   scripts/run-examples.sh [--prepare-carry]
#
# --prepare-carry: also copy the objects, headers and CPU checksums to
#   .carry/examples/ for examples/gpu_check.sh on a GPU machine without MLIR.
# Environment: BUILD_DIR (default build, built by setup.sh; another dir is
#   configured and built here, packages assumed installed), CUDA_HOME
#   (/usr/local/cuda), DWC_CHIP (sm_90), DWC_FEATURES (+ptx80), DWC_AOT
#   (dwc-aot to use; default $BUILD_DIR/bin/dwc-aot).
# Exit status: 0 passed (or no GPU), 1 a build, compile or check failed.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

CARRY=0
for a in "$@"; do
  case "$a" in
    --prepare-carry) CARRY=1 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "run-examples.sh: unknown argument '$a'" >&2; exit 2 ;;
  esac
done
BUILD_DIR="${BUILD_DIR:-build}"
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR="$ROOT/$BUILD_DIR" ;; esac
CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
CHIP="${DWC_CHIP:-sm_90}"
FEATURES="${DWC_FEATURES:-+ptx80}"
AOT="${DWC_AOT:-$BUILD_DIR/bin/dwc-aot}"
EXAMPLES=(convnext_block replknet_dw31)
W="$BUILD_DIR/examples"
die() { echo "run-examples.sh: $*" >&2; exit 1; }

# 1. Set up and build.
echo "== build ($BUILD_DIR)"
if [ "$BUILD_DIR" = "$ROOT/build" ]; then
  ./scripts/setup.sh || die "scripts/setup.sh failed"
else
  if [ ! -f "$BUILD_DIR/build.ninja" ]; then
    launcher=()
    command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    cmake -G Ninja -S . -B "$BUILD_DIR" -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
      -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit -DCMAKE_BUILD_TYPE=Release \
      "${launcher[@]}" >/dev/null || die "cmake configure of $BUILD_DIR failed"
  fi
  cmake --build "$BUILD_DIR" --target dwc-opt dwc-aot dwc_runtime || die "build failed"
fi
rm -rf "$W" && mkdir -p "$W"
STATUS=0

# 2. CPU reference: checksums and time (also the oracle of the GPU run).
echo "== CPU reference (dwc-opt --dwc-to-llvm-cpu + mlir-runner)"
python3 examples/run_cpu.py "$BUILD_DIR" --json "$W/cpu-ref.json" || STATUS=1

# 3. GPU binaries: dwc-aot object (embedded fatbin) + header per example.
echo "== GPU compile (dwc-aot, $CHIP)"
if [ ! -x "$CUDA_HOME/bin/ptxas" ]; then
  echo "no CUDA toolkit (no $CUDA_HOME/bin/ptxas; set CUDA_HOME): skipped the GPU compile"
  [ "$CARRY" = 1 ] && die "--prepare-carry needs the CUDA toolkit"
  exit "$STATUS"
fi
for n in "${EXAMPLES[@]}"; do
  if "$AOT" "examples/$n.mlir" -o "$W/$n.o" --header "$W/$n.h" \
       --toolkit "$CUDA_HOME" --chip "$CHIP" --features "$FEATURES"; then
    echo "$n: compiled $W/$n.o ($(stat -c %s "$W/$n.o") bytes) and $n.h"
  else
    echo "FAIL $n: dwc-aot failed (see above)"; STATUS=1
  fi
done

# 4. Link the host drivers; run and check them when a GPU answers.
echo "== GPU run (checked against the CPU reference)"
python3 examples/run_gpu.py --objdir "$W" --runtime-dir "$BUILD_DIR/lib" \
  --ref "$W/cpu-ref.json" --cpu-ref-ran
rc=$?
case "$rc" in
  0) ;;
  3) echo "(the GPU binaries were compiled and linked; they ran up to dwcInit)" ;;
  *) STATUS=1 ;;
esac

if [ "$CARRY" = 1 ]; then
  C="$ROOT/.carry/examples"
  rm -rf "$C"
  [ "$STATUS" = 0 ] || die "not preparing $C: an earlier step failed"
  mkdir -p "$C"
  for n in "${EXAMPLES[@]}"; do cp "$W/$n.o" "$W/$n.h" "$C/" || STATUS=1; done
  cp "$W/cpu-ref.json" "$C/" || STATUS=1
  dirty=false; [ -n "$(git status --porcelain -- lib include tools 2>/dev/null)" ] && dirty=true
  printf '{"commit": "%s", "dirty": %s, "chip": "%s", "features": "%s", "dwc_aot": "%s"}\n' \
    "$(git rev-parse HEAD 2>/dev/null)" "$dirty" "$CHIP" "$FEATURES" "$AOT" >"$C/manifest.json"
  echo "== carry: $C ($(du -sh "$C" | cut -f1)); on the GPU machine: examples/gpu_check.sh"
fi
[ "$STATUS" = 0 ] && echo "run-examples: OK" || echo "run-examples: FAILED"
exit "$STATUS"
