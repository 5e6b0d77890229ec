#!/bin/sh
# Call D (session 27): NOT RUN -- no device time was left. For a later session:
# the five matrix cells last measured on 2026-12-01 / 02 (H200, older kernels)
# re-timed on the current kernels through dwc_torch.convert: ConvNeXt-B
# training (bf16, f16, f32 at batch 64) and the f32 training steps of the
# large-kernel nets (batch 32), with the float64 agreement columns and the
# eager-noise control (--control: stock against an unconverted copy);
# 6 rounds (ABBA pairs).
# Kernels: call A's (.carry/s27/e.tar.xz; e1: ConvNeXt-B training, e2: the
# large-kernel nets), main at 85e6a1e (no kernel change since).
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s27/e.tar.xz -C /tmp/k || exit 1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv
R=$OUT/res; mkdir -p $R
export DWC_CACHE_DIR=/tmp/dwcc PYTHONUNBUFFERED=1
K=/tmp/k/e1/kernels,/tmp/k/e2/kernels
C=convnext_base:bf16:64:train,convnext_base:f16:64:train,convnext_base:f32:64:train,slak_t:f32:32:train,replknet31b:f32:32:train
PYTHONPATH=python timeout 560 python3 bench/torch_e2e.py run --kernels $K \
  --out $R/old --budget-s 470 --sections models --rounds 6 --graphs-train --control \
  --configs "$C" > $R/old.log 2>&1
echo "old rc=$?"; grep -c '"section": "models"' $R/old/results.jsonl
python3 bench/torch_e2e_report.py $R/old/results.jsonl | sed -n '/## Models/,$p' | cut -c1-400
