#!/bin/sh
# Call D (session 22): after the fix of the autograd node's dW / dB helpers
# under tracing (dwc_ops.cpp `traced`): the correctness section (with the
# new compiled_autocast_train check) and ConvNeXt-T AMP training at batch 64
# with both sides also as torch.compile(model) (--compiled).
# Kernels (MLIR machine, main at f253c60 + this change):
#   PYTHONPATH=python python3 bench/torch_e2e.py prepare --aot build/bin/dwc-aot \
#     --out /tmp/s22/e2e/kernels -j 2 --sections models --configs \
#     convnext_tiny:bf16:64:train,convnext_tiny:f16:64:train,mobilenetv2_100:bf16:64:infer
#   (52 specs, 0 failed)
#   ... prepare --out /tmp/s22/e2e/kcorr --sections correctness   (29 specs, 0 failed)
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s22d/e.tar.xz -C /tmp/k
export DWC_CACHE_DIR=/tmp/dwcc PYTHONUNBUFFERED=1
mkdir -p /tmp/e2e /tmp/e2e/corr
PYTHONPATH=python timeout 150 python3 bench/torch_e2e.py run --kernels /tmp/k/e2e/kcorr \
  --out /tmp/e2e/corr --sections correctness > /tmp/e2e/corr/log.txt 2>&1
echo "correctness rc=$?"; grep -c '"ok": false' /tmp/e2e/corr/results.jsonl
grep compiled_autocast_train /tmp/e2e/corr/results.jsonl
PYTHONPATH=python timeout 400 python3 bench/torch_e2e.py run --kernels /tmp/k/e2e/kernels \
  --out /tmp/e2e --budget-s 150 --sections models --rounds 6 --compiled \
  --configs convnext_tiny:bf16:64:train,convnext_tiny:f16:64:train \
  > /tmp/e2e/log.txt 2>&1
echo "e2e rc=$?"; grep -c '"section": "models"' /tmp/e2e/results.jsonl
tar cJf $OUT/s22d.tar.xz -C /tmp/e2e .
