#!/bin/sh
# Prepared in session 27, run in session 28 (kernels rebuilt there with the
# commands below, same selection) as four calls on one warm H200:
#   sh $0 A; then sh $0 B; sh $0 F (one call); then sh $0 S.
# Issue 20's layer set on the current kernels. It is v11's set (288
# depthwise layers of the six networks, forward, dX and dW, at the training
# batch and at batch 1), each against PyTorch's best in the same process and
# against float64. Run it in two calls (A: the timm nets and issue 20's own
# layers, 168 layers; B: the large-kernel nets, 120 layers) and compose with
# bench/layer_set_report.py. F (a minute): session 27's
# f32 7x7 fitted strips (2 x 4 x 7) against the spilling 2 x 4 x 8 tile they
# replaced, forward and dX of ConvNeXt's two f32 28 x 28 layers. S (about
# two minutes): the kernels the ptxas audit still finds spilling without a
# measurement behind them, each against a no-spill variant (ptxas_audit):
# the 31x31 mma_stream (rows 16 -> 8, or 1 row block per chunk), the 7x7
# 16-bit image dW (32 -> 16 channels) and the 14 x 14 x 480 f32 taps dW
# (unroll 4 -> 3).
# Kernels (MLIR machine, main at this script's commit; 576 kernels, 5 min):
#   python3 bench/stride_configs.py --set net --build --out .carry/s28/net/stride_after
#   keysA / keysB: the set's keys split by net (python, stride_configs.get_set('net'))
#   F: K=n64h28w28c192_f7_s1x1_p3x3x3x3_f32,n64h28w28c256_f7_s1x1_p3x3x3x3_f32
#      python3 bench/stride_configs.py --set net --only $K --ops fwd,bwd_data --build \
#        --out .carry/s28/f32fit/stride_after
#      ... --tag old --kernel 'fwd=#dwc.row_tile<columns = 8>' \
#        --kernel 'bwd_data=#dwc.row_tile<columns = 8>' --out .carry/s28/f32fit/stride_old
#   S: b() { python3 bench/stride_configs.py --set net "$@" --build; }
#      M=n32h56w56c128_f31_s1x1_p15x15x15x15_f16,n32h56w56c128_f31_s1x1_p15x15x15x15_bf16
#      I=n64h28w28c192_f7_s1x1_p3x3x3x3_f16,n64h28w28c192_f7_s1x1_p3x3x3x3_bf16
#      T=n64h14w14c480_f3_s1x1_p1x1x1x1_f32
#      b --only $M --ops fwd,bwd_data --out .carry/s28/spill/m/stride_after
#      b --only $M --ops fwd,bwd_data --tag rbc1 --kernel 'fwd=#dwc.mma_stream<row_blocks_per_chunk = 1>' \
#        --kernel 'bwd_data=#dwc.mma_stream<row_blocks_per_chunk = 1>' --out .carry/s28/spill/m/stride_rbc1
#      b --only $M --ops fwd,bwd_data --tag r8 --kernel 'fwd=#dwc.mma_stream<rows = 8>' \
#        --kernel 'bwd_data=#dwc.mma_stream<rows = 8>' --out .carry/s28/spill/m/stride_r8
#      b --only $I --ops bwd_filter --out .carry/s28/spill/i/stride_after
#      b --only $I --ops bwd_filter --tag c16 --kernel 'bwd_filter=#dwc.bwd_filter_image<channels = 16>' \
#        --out .carry/s28/spill/i/stride_c16
#      b --only $T --ops bwd_filter --out .carry/s28/spill/t/stride_after
#      b --only $T --ops bwd_filter --tag u3 --kernel 'bwd_filter=#dwc.bwd_filter_taps<unroll = 3>' \
#        --out .carry/s28/spill/t/stride_u3
#   keysA = the keys of every net but slak_t and replknet31b (168), keysB theirs (120),
#      comma-separated (Layer.net of stride_configs.get_set('net'))
#   (carried as .carry/s28/net.tar.xz: net keysA.txt keysB.txt f32fit spill)
# Usage: sh bench/results/2026-12-07-s27-next-layerset.sh F|S|A|B
set -u
G=${1:-A}
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s28/net.tar.xz -C /tmp/k || exit 1
sh runtime/build.sh /tmp/rt > /tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv
if [ "$G" = F ]; then
  timeout 100 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --work /tmp/wF \
    --out $OUT --graphs --target-s 0.02 --iters 100 --kernels-dir /tmp/k/f32fit/stride_after \
    --before-dir /tmp/k/f32fit/stride_old --time-budget 60 \
    --label 2026-12-07-s28-f32-fitted-strips > $OUT/F.log 2>&1
  echo "F rc=$?"; tail -3 $OUT/F.log; exit 0
fi
if [ "$G" = S ]; then
  for g in "m rbc1 r8" "i c16" "t u3"; do
    set -- $g; d=$1; shift; V=""; for t in "$@"; do V="$V --variant-dir /tmp/k/spill/$d/stride_$t"; done
    timeout 90 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --work /tmp/wS$d \
      --out $OUT --graphs --target-s 0.02 --iters 100 --kernels-dir /tmp/k/spill/$d/stride_after $V \
      --time-budget 60 --label 2026-12-07-s28-spill-sweep-$d > $OUT/S$d.log 2>&1
    echo "S$d rc=$?"
  done
  exit 0
fi
timeout 560 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --work /tmp/w$G \
  --out $OUT --graphs --target-s 0.02 --iters 100 --only "$(cat /tmp/k/keys$G.txt)" \
  --kernels-dir /tmp/k/net/stride_after --time-budget 500 \
  --label 2026-12-07-s28-layer-set-$G > $OUT/$G.log 2>&1
echo "$G rc=$?"; tail -3 $OUT/$G.log
