#!/bin/sh
# Call A (session 17): host-time probe + issue-19 training rows not measured yet.
export DWC_CACHE_DIR=/tmp/dwcc PYTHONUNBUFFERED=1
mkdir -p $OUT/probe $OUT/e2e
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv > $OUT/smi.csv 2>&1
PYTHONPATH=python timeout 200 python3 bench/torch_host_probe.py --kernels .carry/s17/kernels \
  --out $OUT/probe > $OUT/probe/log.txt 2>&1
echo "probe rc=$?"; tail -5 $OUT/probe/log.txt
PYTHONPATH=python timeout ${E2E_S:-330} python3 bench/torch_e2e.py run --kernels .carry/s17/kernels \
  --out $OUT/e2e --budget-s ${BUDGET_S:-260} --sections models --rounds 6 --profile-steps 2 \
  --graphs-train --configs convnext_base:f16:64:train,slak_t:bf16:32:train,mobilenetv2_100:f32:64:train,efficientnet_b0:f32:64:train,convnext_base:bf16:64:train \
  > $OUT/e2e/log.txt 2>&1
echo "e2e rc=$?"; grep -c '"section": "models"' $OUT/e2e/results.jsonl; tail -3 $OUT/e2e/log.txt | cut -c1-400
