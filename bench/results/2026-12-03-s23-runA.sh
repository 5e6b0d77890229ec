#!/bin/sh
# Call A (session 23): torch.compile of converted models, after tracing the
# filter re-layout (modules.py) and keeping dW on dwc's op for autocast's
# master weight (dwc_ops.cpp dwBackwardFilterAs): the correctness section,
# then four model rows timed eager and compiled, with a torch.profiler
# breakdown of the compiled steps (--profile-steps) and inductor's generated
# code of the dwc side kept (TORCHINDUCTOR_CACHE_DIR).
# Kernels (MLIR machine):
#   PYTHONPATH=python python3 bench/torch_e2e.py prepare --aot build/bin/dwc-aot \
#     --out /tmp/s23/e2e/kernels -j 2 --sections models --configs \
#     mobilenetv2_100:bf16:64:infer,convnext_tiny:bf16:64:train,convnext_tiny:f16:64:train,efficientnet_b0:bf16:64:infer
#   (61 specs, 0 failed)
#   ... prepare --out /tmp/s23/e2e/kcorr --sections correctness   (29 specs, 0 failed)
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s23a/e.tar.xz -C /tmp/k
export DWC_CACHE_DIR=/tmp/dwcc PYTHONUNBUFFERED=1 TORCHINDUCTOR_CACHE_DIR=/tmp/ind
mkdir -p /tmp/e2e /tmp/e2e/corr
PYTHONPATH=python timeout 150 python3 bench/torch_e2e.py run --kernels /tmp/k/e2e/kcorr \
  --out /tmp/e2e/corr --sections correctness > /tmp/e2e/corr/log.txt 2>&1
echo "correctness rc=$?"; grep -c '"ok": false' /tmp/e2e/corr/results.jsonl
grep compiled_autocast_train /tmp/e2e/corr/results.jsonl
TORCH_LOGS=graph_breaks,recompiles PYTHONPATH=python timeout 400 python3 bench/torch_e2e.py \
  run --kernels /tmp/k/e2e/kernels --out /tmp/e2e --budget-s 250 --sections models \
  --rounds 5 --compiled --no-graphs --profile-steps 3 \
  --configs mobilenetv2_100:bf16:64:infer,convnext_tiny:bf16:64:train,efficientnet_b0:bf16:64:infer,convnext_tiny:f16:64:train \
  > /tmp/e2e/log.txt 2>&1
echo "e2e rc=$?"; grep -c '"section": "models"' /tmp/e2e/results.jsonl
mkdir -p /tmp/e2e/inductor
grep -rl "torch.ops.dwc" /tmp/ind --include=*.py | head -20 | while read f; do
  cp "$f" /tmp/e2e/inductor/; done
ls /tmp/e2e/inductor | head
tar cJf $OUT/s23a.tar.xz -C /tmp/e2e .
