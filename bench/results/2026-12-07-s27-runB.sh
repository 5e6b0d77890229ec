#!/bin/sh
# Call B (session 27): issue 19's inference rows not measured on the current
# kernels and converter, through dwc_torch.convert, each against stock
# PyTorch (cudnn.benchmark, channels_last) in the same process and both
# against the model in float64: the large-kernel nets (RepLKNet-31B-,
# SLaK-T-style, bench/large_kernel_nets.py) at batch 64 and 1, ConvNeXt-B,
# then the batch-1 AMP rows of ConvNeXt-T, MobileNetV2, EfficientNet-B0.
# Kernels (MLIR machine, main at 85e6a1e): call A's (.carry/s27/e.tar.xz) and
#   PYTHONPATH=python python3 bench/torch_e2e.py prepare --aot build/bin/dwc-aot \
#     --out .carry/s27/e5/kernels -j 2 --sections models --configs \
#     convnext_tiny:f32:1:infer,convnext_tiny:f16:1:infer,convnext_tiny:bf16:1:infer,mobilenetv2_100:f16:1:infer,mobilenetv2_100:bf16:1:infer,efficientnet_b0:f16:1:infer,efficientnet_b0:bf16:1:infer
#     (85 specs, 0 failed; carried as .carry/s27/e5.tar.xz)
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s27/e.tar.xz -C /tmp/k && tar xJf .carry/s27/e5.tar.xz -C /tmp/k || exit 1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv
R=$OUT/res; mkdir -p $R
export DWC_CACHE_DIR=/tmp/dwcc PYTHONUNBUFFERED=1
K=/tmp/k/e1/kernels,/tmp/k/e2/kernels,/tmp/k/e3/kernels,/tmp/k/e4/kernels,/tmp/k/e5/kernels
C=replknet31b:f16:64:infer,slak_t:f16:64:infer,replknet31b:bf16:64:infer,slak_t:bf16:64:infer,replknet31b:f32:64:infer,slak_t:f32:64:infer,convnext_base:f16:64:infer,convnext_base:bf16:64:infer,convnext_base:f32:64:infer,replknet31b:f16:1:infer,slak_t:f16:1:infer,replknet31b:bf16:1:infer,slak_t:bf16:1:infer,replknet31b:f32:1:infer,slak_t:f32:1:infer,convnext_base:f16:1:infer,convnext_base:bf16:1:infer,convnext_base:f32:1:infer,convnext_tiny:f16:1:infer,convnext_tiny:bf16:1:infer,convnext_tiny:f32:1:infer,mobilenetv2_100:f16:1:infer,mobilenetv2_100:bf16:1:infer,efficientnet_b0:f16:1:infer,efficientnet_b0:bf16:1:infer
PYTHONPATH=python timeout 560 python3 bench/torch_e2e.py run --kernels $K \
  --out $R/infer --budget-s 500 --sections models --rounds 5 \
  --configs "$C" > $R/infer.log 2>&1
echo "infer rc=$?"; grep -c '"section": "models"' $R/infer/results.jsonl
python3 bench/torch_e2e_report.py $R/infer/results.jsonl | sed -n '/## Models/,$p' | cut -c1-400
