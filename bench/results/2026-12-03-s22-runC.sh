#!/bin/sh
# Call C (session 22): dwc_torch end to end with both sides also run as
# torch.compile(model) (inductor, default mode; --compiled), ConvNeXt-T AMP
# training at batch 64 (bf16, f16) and MobileNetV2 bf16 inference.
# Kernels (MLIR machine, main at f253c60):
#   PYTHONPATH=python python3 bench/torch_e2e.py prepare --aot build/bin/dwc-aot \
#     --out /tmp/s22/e2e/kernels -j 2 --sections models --configs \
#     convnext_tiny:bf16:64:train,convnext_tiny:f16:64:train,mobilenetv2_100:bf16:64:infer
#   (52 specs, 0 failed)
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s22c/e.tar.xz -C /tmp/k
export DWC_CACHE_DIR=/tmp/dwcc PYTHONUNBUFFERED=1
mkdir -p /tmp/e2e
PYTHONPATH=python timeout 540 python3 bench/torch_e2e.py run --kernels /tmp/k/e2e/kernels \
  --out /tmp/e2e --budget-s 330 --sections models --rounds 6 --compiled \
  --configs convnext_tiny:bf16:64:train,convnext_tiny:f16:64:train,mobilenetv2_100:bf16:64:infer \
  > /tmp/e2e/log.txt 2>&1
echo "e2e rc=$?"; grep -c '"section": "models"' /tmp/e2e/results.jsonl
tar cJf $OUT/s22c.tar.xz -C /tmp/e2e .
