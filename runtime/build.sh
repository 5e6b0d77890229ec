#!/bin/sh
# Standalone build of libdwc_runtime.so with a plain C++ compiler (no MLIR,
# no CUDA toolkit needed), e.g. on the GPU machine:
#   runtime/build.sh [OUTDIR]     (default: build-runtime/ at the repo root)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../build-runtime}
mkdir -p "$out"
${CXX:-g++} -std=c++17 -O2 -fPIC -shared -fvisibility=hidden \
  -I"$here/include" "$here/lib/Runtime.cpp" \
  -Wl,-soname,libdwc_runtime.so -o "$out/libdwc_runtime.so" -ldl -lpthread
echo "$out/libdwc_runtime.so"
