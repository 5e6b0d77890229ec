#!/bin/sh
# NOT RUN (session 28's device time ran out: every start after the layer-set
# calls was refused). The mma_stream kernel streamed along the columns
# (#dwc.mma_stream<stream_columns = true>, requested; the selector does not
# choose it until this runs) against the defaults, on an H200, one call:
#   T: the layer set's tall 16-bit layers that take the GEMV kernel (SLaK
#      32x56x56x96 51x5, 32x28x28x192 49x5, 1x56x56x96 51x5; f16 and bf16,
#      forward and dX), columns against GEMV (--before-dir), and float64;
#   C: three odd tall shapes (odd N / H / W, a filter taller than the map,
#      asymmetric padding, a height past one 128-output tile), columns
#      against the defaults, both against float64;
#   O: the odd set on the defaults against float64;
#   R: batch-1 mma_stream layers, rows 8 / 16 (default) against 4 and 2
#      (the grid: 84 / 64 blocks on 132 SMs).
# If T and C are correct and faster, make the selector ask for it on 16-bit
# FW < 10 <= FH <= 64 (the rule the selection test's @columns records) and
# time SLaK-T training through dwc_torch.
# Kernels (MLIR machine, this script's commit), COL='#dwc.mma_stream<stream_columns = true>':
#   K=n32h56w56c96_f51x5_s1x1_p25x25x2x2_{f16,bf16},n32h28w28c192_f49x5_s1x1_p24x24x2x2_{f16,bf16},
#     n1h56w56c96_f51x5_s1x1_p25x25x2x2_{f16,bf16} (comma-separated, spelled out)
#   python3 bench/stride_configs.py --set net --only $K --ops fwd,bwd_data --build \
#     --kernel "fwd=$COL" --kernel "bwd_data=$COL" --out .carry/s28/tall/stride_after
#   ... --tag gemv --kernel 'fwd=#dwc.gemv<channels = 8, outputs = 8, filter = "smem", rows = "loop">' \
#     --kernel 'bwd_data=#dwc.gemv<channels = 8, outputs = 8, filter = "smem", rows = "loop">' \
#     --out .carry/s28/tall/stride_gemv
#   O3=n3h37w23c24_f21x5,n1h9w31c16_f15x3,n2h150w6c8_f13x3
#   python3 bench/stride_configs.py --set odd --only $O3 --ops fwd,bwd_data --build \
#     --kernel "fwd=$COL" --kernel "bwd_data=$COL" --out .carry/s28/oddcols/stride_after
#   python3 bench/stride_configs.py --set odd --only $O3 --ops fwd,bwd_data --build --tag def \
#     --out .carry/s28/oddcols/stride_def
#   python3 bench/stride_configs.py --set odd --build --out .carry/s28/odd/stride_after
#   V=$(cat .carry/s28/b1keys.txt): the f16 / bf16 batch-1 layers 56x56x96 51x5 and 5x51,
#     28x28x192 5x49, 56x56x128 31x31, 28x28x256 29x29
#   python3 bench/stride_configs.py --set net --only $V --ops fwd --build --out .carry/s28/b1/stride_after
#   ... --tag r$r --kernel "fwd=#dwc.mma_stream<rows = $r>" --out .carry/s28/b1/stride_r$r  (r = 4, 2)
#   (carried as .carry/s28/cols.tar.xz: tar cJf cols.tar.xz tall b1 odd oddcols)
# Usage: sh $0 [SECONDS]: O and R start only while they fit in SECONDS
# (default 420) of the call.
set -u
B=${1:-420}
fits() { [ $((SECONDS + $1)) -le "$B" ]; }
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s28/cols.tar.xz -C /tmp/k || exit 1
sh runtime/build.sh /tmp/rt > /tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv
H="python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --out $OUT --graphs"
timeout 110 $H --target-s 0.02 --iters 100 --work /tmp/wT --kernels-dir /tmp/k/tall/stride_after \
  --before-dir /tmp/k/tall/stride_gemv --time-budget 70 --label 2026-12-07-s28-stream-columns \
  > $OUT/T.log 2>&1; echo "T rc=$?"; grep -A3 '^Per-layer' $OUT/stride-2026-12-07-s28-stream-columns.md
timeout 60 $H --target-s 0.01 --iters 30 --work /tmp/wC --kernels-dir /tmp/k/oddcols/stride_after \
  --before-dir /tmp/k/oddcols/stride_def --time-budget 40 --label 2026-12-07-s28-stream-columns-odd \
  > $OUT/C.log 2>&1; echo "C rc=$?"
fits 90 || { echo "O skipped (time)"; exit 0; }
timeout 90 $H --target-s 0.01 --iters 30 --work /tmp/wO --kernels-dir /tmp/k/odd/stride_after \
  --time-budget 70 --label 2026-12-07-s28-odd > $OUT/O.log 2>&1; echo "O rc=$?"
fits 60 || { echo "R skipped (time)"; exit 0; }
timeout 60 $H --target-s 0.02 --iters 100 --work /tmp/wR --kernels-dir /tmp/k/b1/stride_after \
  --variant-dir /tmp/k/b1/stride_r4 --variant-dir /tmp/k/b1/stride_r2 --time-budget 40 \
  --label 2026-12-07-s28-b1-stream-rows > $OUT/R.log 2>&1; echo "R rc=$?"
