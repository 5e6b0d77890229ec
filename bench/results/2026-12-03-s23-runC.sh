#!/bin/sh
# Call C (session 23): more model rows with both sides compiled in
# mode="reduce-overhead", after convert()'s per-op routes were made to hold
# under torch.compile (modules.py _RoutedBackward: ConvNeXt-T bf16 keeps
# PyTorch's dW on three stage-1 layers). compiled_logits_rel_err: the
# compiled dwc model against the eager stock one. First the correctness
# section (kcorr of runA.sh), with its new compiled_routed_autocast_train check.
# Kernels (MLIR machine): kernelsA as in 2026-12-03-s23-runA.sh, and
#   PYTHONPATH=python python3 bench/torch_e2e.py prepare --aot build/bin/dwc-aot \
#     --out /tmp/s23/e2e/kernelsC -j 2 --sections models --configs \
#     mobilenetv2_100:bf16:64:train,efficientnet_b0:f16:64:train,replknet31b:bf16:32:train,mobilenetv2_100:bf16:1:infer,convnext_tiny:f32:64:train,convnext_tiny:bf16:1:infer
#   (92 specs, 0 failed)
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s23c/e.tar.xz -C /tmp/k
export DWC_CACHE_DIR=/tmp/dwcc PYTHONUNBUFFERED=1
mkdir -p /tmp/e2e /tmp/e2e/corr
PYTHONPATH=python timeout 150 python3 bench/torch_e2e.py run --kernels /tmp/k/e2e/kcorr \
  --out /tmp/e2e/corr --sections correctness > /tmp/e2e/corr/log.txt 2>&1
echo "correctness rc=$?"; grep -c '"ok": false' /tmp/e2e/corr/results.jsonl
grep compiled_ /tmp/e2e/corr/results.jsonl
TORCH_LOGS=graph_breaks,recompiles PYTHONPATH=python timeout 430 python3 bench/torch_e2e.py \
  run --kernels /tmp/k/e2e/kernelsA,/tmp/k/e2e/kernelsC --out /tmp/e2e --budget-s 290 \
  --sections models --rounds 5 --compiled --compile-mode reduce-overhead --no-graphs \
  --configs convnext_tiny:bf16:64:train,mobilenetv2_100:bf16:64:train,replknet31b:bf16:32:train,mobilenetv2_100:bf16:1:infer,efficientnet_b0:f16:64:train,convnext_tiny:f32:64:train \
  > /tmp/e2e/log.txt 2>&1
echo "e2e rc=$?"; grep -c '"section": "models"' /tmp/e2e/results.jsonl
tar cJf $OUT/s23c.tar.xz -C /tmp/e2e .
