#!/bin/sh
# NOT RUN (session 27 had no device time left): issue 20's layer set on the
# current kernels, for a session that has an H200. It is v11's set (288
# depthwise layers of the six networks, forward, dX and dW, at the training
# batch and at batch 1), each against PyTorch's best in the same process and
# against float64. Run it in two calls (A: the timm nets and issue 20's own
# layers, 168 layers; B: the large-kernel nets, 120 layers) and compose with
# bench/layer_set_report.py.
# Kernels (MLIR machine, main at this script's commit; 576 kernels, 5 min):
#   python3 bench/stride_configs.py --set net --build --out .carry/s28/net/stride_after
#   keysA / keysB: the set's keys split by net (python, stride_configs.get_set('net'))
#   (carried as .carry/s28/net.tar.xz: net keysA.txt keysB.txt)
# Usage: sh bench/results/2026-12-07-s27-next-layerset.sh A|B
set -u
G=${1:-A}
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s28/net.tar.xz -C /tmp/k || exit 1
sh runtime/build.sh /tmp/rt > /tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv
timeout 560 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --work /tmp/w$G \
  --out $OUT --graphs --target-s 0.02 --iters 100 --only "$(cat /tmp/k/keys$G.txt)" \
  --kernels-dir /tmp/k/net/stride_after --time-budget 500 \
  --label 2026-12-xx-layer-set-$G > $OUT/$G.log 2>&1
echo "$G rc=$?"; tail -3 $OUT/$G.log
