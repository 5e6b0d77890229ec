#!/bin/sh
# Call B (session 26): issue 19's large-kernel rows (RepLKNet-31B- and
# SLaK-T-style networks, bench/large_kernel_nets.py) on the current kernels
# through dwc_torch.convert: the training steps at batch 32 (floor 1.5x)
# first, then inference at batch 1 and 64; stock PyTorch (cudnn.benchmark,
# channels_last) in the same process.
# Kernels (MLIR machine, main at this script's commit):
#   PYTHONPATH=python python3 bench/torch_e2e.py prepare --aot build/bin/dwc-aot \
#     --out .carry/s26/e2/kernels -j 2 --sections models --configs "$C"
#   (289 (spec, ops) entries, 272 specs, 0 failed)
#   PYTHONPATH=python python3 bench/torch_e2e.py prepare --aot build/bin/dwc-aot \
#     --out .carry/s26/e3/kernels -j 2 --sections models \
#     --configs mobilenetv2_100:f32:1:infer,efficientnet_b0:f32:1:infer     (49 specs, 0 failed)
#   (carried as .carry/s26/b.tar.xz: tar cJf b.tar.xz e2 e3)
# First: the two batch-1 f32 inference rows whose CUDA-graph replays were
# 0.991x / 0.996x stock in session 25, converted with convert(graphs=True)
# (the whole-model check timed as graph replays) -- 60 s.
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s26/b.tar.xz -C /tmp/k || exit 1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv
R=/tmp/res; mkdir -p $R
export DWC_CACHE_DIR=/tmp/dwcc PYTHONUNBUFFERED=1
PYTHONPATH=python timeout 100 python3 bench/torch_e2e.py run --kernels /tmp/k/e3/kernels \
  --out $R/e2e-graphs --budget-s 50 --sections models --rounds 5 --convert-graphs \
  --configs mobilenetv2_100:f32:1:infer,efficientnet_b0:f32:1:infer > $R/e2e-graphs.log 2>&1
echo "e2e graphs rc=$?"; grep -c '"section": "models"' $R/e2e-graphs/results.jsonl
C=replknet31b:f16:32:train,replknet31b:bf16:32:train,replknet31b:f32:32:train,slak_t:f16:32:train,slak_t:bf16:32:train,slak_t:f32:32:train,replknet31b:f16:1:infer,replknet31b:bf16:1:infer,replknet31b:f32:1:infer,slak_t:f16:1:infer,slak_t:bf16:1:infer,slak_t:f32:1:infer,replknet31b:f16:64:infer,replknet31b:bf16:64:infer,replknet31b:f32:64:infer,slak_t:f16:64:infer,slak_t:bf16:64:infer,slak_t:f32:64:infer
PYTHONPATH=python timeout 430 python3 bench/torch_e2e.py run --kernels /tmp/k/e2/kernels \
  --out $R/e2e --budget-s 340 --sections models --rounds 5 --graphs-train \
  --configs "$C" > $R/e2e.log 2>&1
echo "e2e rc=$?"; grep -c '"section": "models"' $R/e2e/results.jsonl
tar cJf $OUT/s26b.tar.xz -C $R .
