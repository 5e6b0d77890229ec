#!/bin/sh
# NOT RUN: no device machine could be started for it; call C (2026-12-07-s25-runC.sh)
# ran its first part and part of the second with these kernels.
# Call B (session 25): the timm half of issue 19's model matrix on current
# kernels through the user path (dwc_torch.convert with its per-layer and
# whole-model checks, eager steps and CUDA graphs, stock PyTorch with
# cudnn.benchmark and channels_last in the same process): all 24 inference
# rows first (batch 1 and 64; f32, f16 and bf16 AMP), then the training steps
# last measured slower or near the floors (EfficientNet-B0 f32, ConvNeXt-T
# AMP), then the others while the budget lasts; plus the 50-layer host
# overhead chain.
# Kernels (MLIR machine, main at this script's commit):
#   PYTHONPATH=python python3 bench/torch_e2e.py prepare --aot build/bin/dwc-aot \
#     --out .carry/s25/e2e/kernels -j 2 --sections correctness,overhead,models --configs part1
#   (254 (spec, ops) entries, 209 specs, 0 failed; carried as .carry/s25/e.tar.xz)
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s25/e.tar.xz -C /tmp/k || exit 1
export DWC_CACHE_DIR=/tmp/dwcc PYTHONUNBUFFERED=1
mkdir -p /tmp/e2e
C=""
for m in mobilenetv2_100 efficientnet_b0 convnext_tiny convnext_base; do
  for dt in f32 f16 bf16; do C="$C,$m:$dt:1:infer,$m:$dt:64:infer"; done
done
C="${C#,},efficientnet_b0:f32:64:train,convnext_tiny:bf16:64:train,convnext_tiny:f16:64:train"
C="$C,mobilenetv2_100:f32:64:train,mobilenetv2_100:bf16:64:train,efficientnet_b0:bf16:64:train"
PYTHONPATH=python timeout 560 python3 bench/torch_e2e.py run --kernels /tmp/k/e2e/kernels \
  --out /tmp/e2e --budget-s 480 --sections overhead,models --rounds 5 --configs "$C" \
  > /tmp/e2e/log.txt 2>&1
echo "e2e rc=$?"; grep -c '"section": "models"' /tmp/e2e/results.jsonl
cp /tmp/e2e/results.jsonl $OUT/2026-12-07-torch-e2e-s25b.jsonl; cp /tmp/e2e/log.txt $OUT/
