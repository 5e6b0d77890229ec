#!/bin/sh
# s16-tc device call 1 (bench/results/2026-12-02-torch-e2e-v7.md). From the checkout root.
export DWC_CACHE_DIR=/tmp/dwcc PYTHONUNBUFFERED=1
cd .carry/s16tc
[ "$(python3 -c 'import sys; print(sys.version_info[:2] == (3, 11))')" = True ] && \
  export DWC_TORCH_EXT=$PWD/ext/dwc_torch_ext.so
(nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,utilization.gpu \
  --format=csv -lms 1000 > $OUT/smi.csv &)
T0=$(date +%s)
PYTHONPATH=python timeout 170 python3 bench/torch_e2e.py run --kernels kernels --out $OUT \
  --budget-s 100 --sections correctness,models --rounds 6 --profile-steps 2 --no-graphs \
  --configs convnext_tiny:f16:64:train,convnext_tiny:bf16:64:train > $OUT/e2e-a.log 2>&1
rc=$?; echo "A $(( $(date +%s) - T0 )) s rc=$rc"
PYTHONPATH=python timeout 95 python3 bench/torch_graph_capture_check.py --kernels kernels \
  --out $OUT --cases stock,dwc --timeout 46 > $OUT/graph.log 2>&1
rc=$?; echo "B $(( $(date +%s) - T0 )) s rc=$rc"
LEFT=$(( ${S16_LIMIT:-278} - ($(date +%s) - T0) ))
[ $LEFT -gt 50 ] && PYTHONPATH=python timeout $LEFT python3 bench/torch_e2e.py run --kernels kernels --out $OUT \
  --budget-s $(( LEFT - 55 )) --sections models --rounds 6 --profile-steps 2 --configs \
mobilenetv2_100:f16:64:train,efficientnet_b0:f16:64:train,convnext_base:f16:64:train,\
replknet31b:f16:32:train,slak_t:bf16:32:train,convnext_base:bf16:64:train,\
mobilenetv2_100:f32:64:train,efficientnet_b0:f32:64:train,slak_t:f32:32:train \
  > $OUT/e2e-c.log 2>&1
rc=$?; echo "C $(( $(date +%s) - T0 )) s rc=$rc"
grep -h '"section": "models"' $OUT/results.jsonl | cut -c1-300
tail -3 $OUT/graph.log | cut -c1-600
