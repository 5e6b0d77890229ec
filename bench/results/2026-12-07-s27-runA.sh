#!/bin/sh
# Call A (session 27): issue 19's model rows through dwc_torch.convert, with
# every row's logits and gradients now also against the model run in float64
# (torch_e2e `vs_f64`: is dwc as accurate as stock?), stock PyTorch
# (cudnn.benchmark, channels_last) in the same process.
#  1. batch-1 f32 inference of MobileNetV2 / EfficientNet-B0 converted with
#     convert(graphs="frozen") (--convert-graphs): the filter laid out once
#     inside the graph (dwc_torch.freeze), not re-laid out per replay;
#  2. training steps: ConvNeXt-T bf16 (floor 1.1x, not measured on the
#     current kernels), SLaK-T (never measured on the current kernels),
#     the AMP rows the stricter whole-model check changes, RepLKNet-31B f32,
#     then ConvNeXt-B.
# Kernels (MLIR machine, main at 85e6a1e, no kernel change since):
#   e1, e2, e3: session 26's (bench/results/2026-12-07-s26-runA.sh / -runB.sh)
#   PYTHONPATH=python python3 bench/torch_e2e.py prepare --aot build/bin/dwc-aot \
#     --out .carry/s27/e4/kernels -j 2 --sections models --configs convnext_tiny:bf16:64:train
#     (35 specs, 0 failed)
#   (carried as .carry/s27/e.tar.xz: e1 e2 e3 e4)
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s27/e.tar.xz -C /tmp/k || exit 1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv
R=$OUT/res; mkdir -p $R
export DWC_CACHE_DIR=/tmp/dwcc PYTHONUNBUFFERED=1
K=/tmp/k/e1/kernels,/tmp/k/e2/kernels,/tmp/k/e3/kernels,/tmp/k/e4/kernels
PYTHONPATH=python timeout 110 python3 bench/torch_e2e.py run --kernels $K \
  --out $R/frozen --budget-s 55 --sections models --rounds 5 --convert-graphs \
  --configs mobilenetv2_100:f32:1:infer,efficientnet_b0:f32:1:infer > $R/frozen.log 2>&1
echo "frozen rc=$?"; grep -c '"section": "models"' $R/frozen/results.jsonl
C=convnext_tiny:bf16:64:train,slak_t:bf16:32:train,slak_t:f16:32:train,efficientnet_b0:bf16:64:train,mobilenetv2_100:bf16:64:train,efficientnet_b0:f16:64:train,slak_t:f32:32:train,replknet31b:f32:32:train,convnext_base:bf16:64:train,convnext_base:f16:64:train,convnext_base:f32:64:train
PYTHONPATH=python timeout 440 python3 bench/torch_e2e.py run --kernels $K \
  --out $R/train --budget-s 380 --sections models --rounds 5 --graphs-train \
  --configs "$C" > $R/train.log 2>&1
echo "train rc=$?"; grep -c '"section": "models"' $R/train/results.jsonl
python3 bench/torch_e2e_report.py $R/frozen/results.jsonl $R/train/results.jsonl | sed -n '/## Models/,$p' | cut -c1-400
