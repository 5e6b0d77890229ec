#!/bin/sh
# Call B (session 24): the rows call A had no time for (A: RepLKNet-31B only),
# both sides compiled in mode="reduce-overhead"; compiled_logits_rel_err now
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
TORCH_LOGS=graph_breaks,recompiles PYTHONPATH=python timeout 500 python3 bench/torch_e2e.py \
  run --kernels /tmp/k/e2e/kernelsA,/tmp/k/e2e/kernelsC --out /tmp/e2e --budget-s 330 \
  --sections models --rounds 5 --compiled --compile-mode reduce-overhead --no-graphs \
  --configs mobilenetv2_100:bf16:1:infer,convnext_tiny:bf16:1:infer,efficientnet_b0:f16:64:train \
  > /tmp/e2e/log.txt 2>&1
echo "e2e rc=$?"; grep -c '"section": "models"' /tmp/e2e/results.jsonl
tar cJf $OUT/s24b.tar.xz -C /tmp/e2e .
