#!/bin/bash
# GPU machine side of bench/gpu_whole_model.py (no MLIR there): builds
# libdwc_runtime, then runs the objects made here by
# `bench/gpu_whole_model.py export` and `... fixtures` (carried in DIR) and
# writes the log to $OUT (or /tmp). RUNTIME_SRC: the runtime sources
# (default: runtime).
#   bench/gpu_whole_model.sh DIR [SCRIPT]
# SCRIPT: the gpu_whole_model.py to use (default: the one beside this file).
set -u
DIR=$1
SCRIPT=${2:-$(dirname "$0")/gpu_whole_model.py}
OUTDIR=${OUT:-/tmp}
WORK=$(mktemp -d)
LOG="$OUTDIR/gpu-whole-model.log"
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  python -c "import torch, timm; print('torch', torch.__version__, 'timm', timm.__version__)"
  mkdir -p "$WORK/rt"
  RT_SRC=${RUNTIME_SRC:-runtime}
  g++ -std=c++17 -O2 -fPIC -shared -I"$RT_SRC/include" "$RT_SRC"/lib/*.cpp \
    -Wl,-soname,libdwc_runtime.so -o "$WORK/rt/libdwc_runtime.so" -ldl -lpthread || exit 2
  python "$SCRIPT" run --dir "$DIR" --runtime-lib "$WORK/rt/libdwc_runtime.so" --work "$WORK"
  echo "rc=$?"
} >"$LOG" 2>&1
cat "$LOG"
