#!/bin/sh
# Call C (session 24): EfficientNet-B0 f16 training again, with a profile of
# the compiled steps (--profile-steps 3: why 1.46x in call B), and MobileNetV2
# batch-1 bf16 inference again (paired 0.97x in call B); both sides
# compiled in mode="reduce-overhead"; compiled_logits_rel_err(_vs_compiled)
# compares the compiled dwc model with the eager stock one from the same
# weights before any compiled step (torch_e2e.py time_compiled).
# Kernels (MLIR machine, session 23, compiler unchanged since):
#   kernelsA, kernelsC as in 2026-12-03-s23-runA.sh / -runC.sh (carried as
#   .carry/s23c/e.tar.xz).
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s23c/e.tar.xz -C /tmp/k
export DWC_CACHE_DIR=/tmp/dwcc PYTHONUNBUFFERED=1
mkdir -p /tmp/e2e
TORCH_LOGS=graph_breaks,recompiles PYTHONPATH=python timeout 380 python3 bench/torch_e2e.py \
  run --kernels /tmp/k/e2e/kernelsA,/tmp/k/e2e/kernelsC --out /tmp/e2e --budget-s 200 \
  --sections models --rounds 5 --profile-steps 3 --compiled --compile-mode reduce-overhead --no-graphs \
  --configs efficientnet_b0:f16:64:train,mobilenetv2_100:bf16:1:infer \
  > /tmp/e2e/log.txt 2>&1
echo "e2e rc=$?"; grep -c '"section": "models"' /tmp/e2e/results.jsonl
tar cJf $OUT/s24c.tar.xz -C /tmp/e2e .
