#!/bin/sh
# Stages what bench/torch_e2e.py needs on the GPU machine (no MLIR there)
# into DEST (an ignored directory of the checkout the device copies):
# python/ (symlinks resolved), the two bench scripts, and the kernels
# compiled by `torch_e2e.py prepare` (already in DEST/kernels, or KERNELS).
#   bench/stage_torch_e2e.sh DEST [KERNELS]
set -eu
DEST=$1
SRC=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$DEST/bench"
rm -rf "$DEST/python"
cp -rL "$SRC/python" "$DEST/python"
rm -rf "$DEST/python/build" "$DEST/python"/*.egg-info
find "$DEST/python" -name __pycache__ -prune -exec rm -rf {} +
cp "$SRC/bench/torch_e2e.py" "$SRC/bench/large_kernel_nets.py" "$DEST/bench/"
if [ $# -ge 2 ] && [ "$2" != "$DEST/kernels" ]; then
  rm -rf "$DEST/kernels"
  cp -r "$2" "$DEST/kernels"
fi
du -sh "$DEST"
