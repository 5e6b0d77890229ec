#!/bin/sh
# Call A (session 26):
#  1. the f32 window-first strided forward default (main since 5747cf7)
#     against the tile before it, on the three batch-64 f32 3x3 stride-2
#     layers it was chosen for, on the GPU (session 25 timed only a variant
#     with identical PTX), and the odd set (now with two odd big-grid f32
#     stride-2 shapes that reach the new tile: C = 203 -> 32-bit, C = 202,
#     odd widths) against float64;
#  2. issue 19's timm rows not measured on the current kernels: the eleven
#     timm training steps at batch 64 (ConvNeXt-T f16 first: its floor is
#     1.1x), the f32 batch-64 inference of MobileNetV2 / EfficientNet-B0
#     (the new strided tile) and ConvNeXt-B inference, through
#     dwc_torch.convert with its checks, stock PyTorch (cudnn.benchmark,
#     channels_last) in the same process.
# Kernels (MLIR machine, main at this script's commit):
#   C=<the configurations of the e2e run below>
#   K3=n64h28w28c192_f3_s2x2_p1x1x1x1_f32,n64h14w14c576_f3_s2x2_p1x1x1x1_f32,n64h28w28c240_f3_s2x2_p1x1x1x1_f32
#   python3 bench/stride_configs.py --set layers --only $K3 --build --out .carry/s26/k1/stride_after
#   python3 bench/stride_configs.py --set layers --only $K3 --ops fwd --build --tag old \
#     --layer-kernels .carry/s26/old_tiles.json --out .carry/s26/k1/stride_old
#     (old_tiles.json: #dwc.strided_forward<channels = 4, rows = 2, columns = 8> and, on the
#      7-row output, block_threads = 128: the selection before 5747cf7)
#   python3 bench/stride_configs.py --set odd --build --out .carry/s26/k2/stride_after
#   PYTHONPATH=python python3 bench/torch_e2e.py prepare --aot build/bin/dwc-aot \
#     --out .carry/s26/e1/kernels -j 2 --sections models --configs "$C"
#   (carried as .carry/s26/a.tar.xz: tar cJf a.tar.xz k1 k2 e1)
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s26/a.tar.xz -C /tmp/k || exit 1
sh runtime/build.sh /tmp/rt > /tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv
R=/tmp/res; mkdir -p $R
timeout 60 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --out $R --graphs \
  --target-s 0.02 --iters 100 --work /tmp/w1 --kernels-dir /tmp/k/k1/stride_after \
  --before-dir /tmp/k/k1/stride_old --time-budget 45 --label 2026-12-07-s26-strided-f32 \
  > $R/strided.log 2>&1; echo "strided rc=$?"
grep -A2 '^Per-layer' $R/stride-2026-12-07-s26-strided-f32.md
timeout 90 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --out $R --graphs \
  --target-s 0.01 --iters 30 --work /tmp/w2 --kernels-dir /tmp/k/k2/stride_after \
  --time-budget 70 --label 2026-12-07-s26-odd > $R/odd.log 2>&1; echo "odd rc=$?"
grep -c '| yes |' $R/stride-2026-12-07-s26-odd.md
export DWC_CACHE_DIR=/tmp/dwcc PYTHONUNBUFFERED=1
C=convnext_tiny:f16:64:train,efficientnet_b0:f32:64:train,mobilenetv2_100:f32:64:train,mobilenetv2_100:f32:64:infer,efficientnet_b0:f32:64:infer,convnext_tiny:f32:64:train,mobilenetv2_100:f16:64:train,mobilenetv2_100:bf16:64:train,efficientnet_b0:f16:64:train,efficientnet_b0:bf16:64:train,convnext_base:f32:1:infer,convnext_base:f16:1:infer,convnext_base:bf16:1:infer,convnext_base:f32:64:infer,convnext_base:f16:64:infer,convnext_base:bf16:64:infer,convnext_base:f16:64:train,convnext_base:bf16:64:train,convnext_base:f32:64:train
PYTHONPATH=python timeout 400 python3 bench/torch_e2e.py run --kernels /tmp/k/e1/kernels \
  --out $R/e2e --budget-s 330 --sections models --rounds 5 --graphs-train \
  --configs "$C" > $R/e2e.log 2>&1
echo "e2e rc=$?"; grep -c '"section": "models"' $R/e2e/results.jsonl
tar cJf $OUT/s26a.tar.xz -C $R .
