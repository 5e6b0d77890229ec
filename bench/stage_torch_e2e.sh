#!/bin/sh
# Stages what bench/torch_e2e.py needs on the GPU machine (no MLIR there)
# into DEST (an ignored directory of the checkout the device copies):
# python/ (symlinks resolved), the bench scripts, and the kernels compiled
# by `torch_e2e.py prepare` (already in DEST/<dir>, or copied from KERNELS
# to DEST/kernels). In every kernel directory under DEST only the manifest
# and the objects are kept (load_kernels reads nothing else): the carry
# limit is 64 MiB.
#   bench/stage_torch_e2e.sh DEST [KERNELS]
set -eu
DEST=$1
SRC=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$DEST/bench"
rm -rf "$DEST/python"
cp -rL "$SRC/python" "$DEST/python"
rm -rf "$DEST/python/build" "$DEST/python"/*.egg-info
find "$DEST/python" -name __pycache__ -prune -exec rm -rf {} +
cp "$SRC"/bench/torch_e2e*.py "$SRC/bench/torch_graph_capture_check.py" "$SRC/bench/large_kernel_nets.py" \
  "$DEST/bench/"
if [ $# -ge 2 ] && [ "$2" != "$DEST/kernels" ]; then
  rm -rf "$DEST/kernels"
  cp -r "$2" "$DEST/kernels"
fi
for m in "$DEST"/*/manifest.json; do
  [ -f "$m" ] && find "$(dirname "$m")" -maxdepth 1 \( -name '*.mlir' -o -name '*.h' \) -delete
done
du -sh "$DEST" "$DEST"/*
