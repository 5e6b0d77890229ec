#!/bin/sh
# Session 28: the mma_stream kernel streamed along the columns
# (stream_columns) for 16-bit filters taller than wide, on the H200, one call.
#   T: the layer set's three tall 16-bit layers that took the GEMV kernel
#      (SLaK 32x56x56x96 51x5, 32x28x28x192 49x5, 1x56x56x96 51x5; f16 and
#      bf16, forward and dX), new default against GEMV (--before-dir);
#   O: the odd set (with three odd tall-filter shapes) against float64;
#   E: SLaK-T training steps (f16 / bf16 AMP, batch 32) through
#      dwc_torch.convert against stock PyTorch in the same process, with the
#      kernels of this commit (e1) and of main before stream_columns (e0,
#      025eaed), one after the other;
#   R: batch-1 mma_stream layers, rows 8 / 16 (default) against 4 and 2
#      (the grid: 84 / 64 blocks on 132 SMs).
# Kernels (MLIR machine, this script's commit):
#   K=n32h56w56c96_f51x5_s1x1_p25x25x2x2_{f16,bf16},n32h28w28c192_f49x5_s1x1_p24x24x2x2_{f16,bf16},
#     n1h56w56c96_f51x5_s1x1_p25x25x2x2_{f16,bf16} (comma-separated, spelled out)
#   python3 bench/stride_configs.py --set net --only $K --ops fwd,bwd_data --build \
#     --out .carry/s28/tall/stride_after
#   ... --tag gemv --kernel 'fwd=#dwc.gemv<channels = 8, outputs = 8, filter = "smem", rows = "loop">' \
#     --kernel 'bwd_data=#dwc.gemv<channels = 8, outputs = 8, filter = "smem", rows = "loop">' \
#     --out .carry/s28/tall/stride_gemv
#   V=$(cat .carry/s28/b1keys.txt): the f16 / bf16 batch-1 layers 56x56x96 51x5 and 5x51,
#     28x28x192 5x49, 56x56x128 31x31, 28x28x256 29x29
#   python3 bench/stride_configs.py --set net --only $V --ops fwd --build --out .carry/s28/b1/stride_after
#   ... --tag r$r --kernel "fwd=#dwc.mma_stream<rows = $r>" --out .carry/s28/b1/stride_r$r  (r = 4, 2)
#   python3 bench/stride_configs.py --set odd --build --out .carry/s28/odd/stride_after
#   C=slak_t:f16:32:train,slak_t:bf16:32:train,slak_t:f16:1:infer,slak_t:bf16:1:infer
#   PYTHONPATH=python python3 bench/torch_e2e.py prepare --aot build/bin/dwc-aot \
#     --out .carry/s28/e1/kernels -j 2 --sections models --configs $C   (83 specs, 0 failed)
#   the same with a build of 025eaed's dwc-aot into .carry/s28/e0/kernels
#   (carried as .carry/s28/cols.tar.xz: tar cJf cols.tar.xz tall b1 odd e0 e1)
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s28/cols.tar.xz -C /tmp/k || exit 1
sh runtime/build.sh /tmp/rt > /tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv
H="python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --out $OUT --graphs"
timeout 110 $H --target-s 0.02 --iters 100 --work /tmp/wT --kernels-dir /tmp/k/tall/stride_after \
  --before-dir /tmp/k/tall/stride_gemv --time-budget 80 --label 2026-12-07-s28-stream-columns \
  > $OUT/T.log 2>&1; echo "T rc=$?"; grep -A3 '^Per-layer' $OUT/stride-2026-12-07-s28-stream-columns.md
timeout 100 $H --target-s 0.01 --iters 30 --work /tmp/wO --kernels-dir /tmp/k/odd/stride_after \
  --time-budget 80 --label 2026-12-07-s28-odd > $OUT/O.log 2>&1; echo "O rc=$?"
grep -c '| yes |' $OUT/stride-2026-12-07-s28-odd.md; grep 'NO' $OUT/stride-2026-12-07-s28-odd.md | head -3
export PYTHONUNBUFFERED=1
for s in e1 e0; do
  DWC_CACHE_DIR=/tmp/dwcc_$s PYTHONPATH=python timeout 120 python3 bench/torch_e2e.py run \
    --kernels /tmp/k/$s/kernels --out $OUT/$s --budget-s 100 --sections models --rounds 5 \
    --graphs-train --configs slak_t:f16:32:train,slak_t:bf16:32:train > $OUT/$s.log 2>&1
  echo "$s rc=$?"; grep -c '"section": "models"' $OUT/$s/results.jsonl
done
timeout 70 $H --target-s 0.02 --iters 100 --work /tmp/wR --kernels-dir /tmp/k/b1/stride_after \
  --variant-dir /tmp/k/b1/stride_r4 --variant-dir /tmp/k/b1/stride_r2 --time-budget 50 \
  --label 2026-12-07-s28-b1-stream-rows > $OUT/R.log 2>&1; echo "R rc=$?"
