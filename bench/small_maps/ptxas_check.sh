#!/usr/bin/env bash
# Registers and spills (ptxas -v, sm_90) of every kernel in the given
# bench/stride_configs.py output directories (their .mlir files), one line
# per kernel: bench/small_maps/ptxas_check.sh .carry/f20/stride_v1 ...
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
for d in "$@"; do
  for m in "$d"/*.mlir; do
    n=$(basename "$m" .mlir)
    "$root/build/bin/dwc-opt" "$m" --dwc-to-nvvm=format=isa 2>/dev/null |
      python3 "$root/test/Pipelines/Inputs/extract_ptx.py" --out-dir "$tmp/$n" >/dev/null
    for p in "$tmp/$n"/*.ptx; do
      r=$(/usr/local/cuda/bin/ptxas -arch=sm_90 -v "$p" -o /dev/null 2>&1 |
          grep -E "spill|registers" | sed 's/ptxas info    ://' | tr '\n' ' ')
      echo "$n: $r"
    done
  done
done
rm -rf "$tmp"
