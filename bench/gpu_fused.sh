#!/usr/bin/env bash
# The GPU side of bench/fused_networks.py (kernels built here with its
# `prepare` into .carry/fused, carried with the timm wheel in .carry/wheels):
#   bash bench/gpu_fused.sh OUT SECTIONS DTYPES [MODELS]
set -euo pipefail
out=$1; sections=$2; dtypes=$3; models=${4:-mobilenetv2_100,efficientnet_b0,mobilenetv3_large_100,mnasnet_100}
python3 -c "import timm" 2>/dev/null || python3 -m pip install -q --no-deps .carry/wheels/timm-*.whl
export PYTHONPATH=python DWC_CACHE_DIR=${DWC_CACHE_DIR:-/tmp/dwc-cache}
python3 bench/fused_networks.py run --kernels .carry/fused --out "$out/fused.jsonl" \
  --sections "$sections" --dtypes "$dtypes" --models "$models" --batches 64
