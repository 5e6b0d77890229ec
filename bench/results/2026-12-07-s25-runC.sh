#!/bin/sh
# Call C (session 25; calls A and B could not get a machine, and the
# session's device time left allows one call): the 77 layers below the
# per-layer floor in layer set v12 against the best copy of their bytes
# (and the five f32 3x3 stride-2 loads_first variants of call A), then the
# model rows of call B while its budget lasts. Kernels: as in
# 2026-12-07-s25-runA.sh (.carry/s25/a.tar.xz) and -runB.sh (.carry/s25/e.tar.xz).
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k && tar xJf .carry/s25/a.tar.xz -C /tmp/k && tar xJf .carry/s25/e.tar.xz -C /tmp/k || exit 1
sh runtime/build.sh /tmp/rt > /tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv
R=/tmp/res; mkdir -p $R
# The device's copy bandwidth (2 x 1 GiB moved per copy, median of 20): the
# floors of the layer set assume the H200's 4.24 TB/s.
python3 -c "
import torch, statistics
a = torch.empty(2**28, device='cuda'); b = torch.empty_like(a); a.zero_()
for _ in range(3): b.copy_(a)
t = []
for _ in range(20):
    s, e = torch.cuda.Event(True), torch.cuda.Event(True)
    s.record(); b.copy_(a); e.record(); e.synchronize(); t.append(s.elapsed_time(e))
print('peak copy: %.3f TB/s' % (2 * a.numel() * 4 / statistics.median(t) / 1e9))
" 2>&1 | tee $R/peak_copy.txt
V=""; for t in a b c d e; do V="$V --variant-dir /tmp/k/stride_lf$t"; done
timeout 230 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --out $R --graphs \
  --target-s 0.02 --iters 100 --work /tmp/wf --kernels-dir /tmp/k/stride_after $V --time-budget 190 \
  --label 2026-12-07-s25-failing > $R/failing.log 2>&1; echo "failing rc=$?"
grep -A3 '^Per-layer' $R/stride-2026-12-07-s25-failing.md
export DWC_CACHE_DIR=/tmp/dwcc PYTHONUNBUFFERED=1
C=""
for m in mobilenetv2_100 efficientnet_b0 convnext_tiny; do
  for dt in f32 f16 bf16; do C="$C,$m:$dt:1:infer,$m:$dt:64:infer"; done
done
C="${C#,},efficientnet_b0:f32:64:train,convnext_tiny:bf16:64:train"
PYTHONPATH=python timeout 300 python3 bench/torch_e2e.py run --kernels /tmp/k/e2e/kernels \
  --out $R/e2e --budget-s 250 --sections overhead,models --rounds 5 --configs "$C" \
  > $R/e2e.log 2>&1
echo "e2e rc=$?"; grep -c '"section": "models"' $R/e2e/results.jsonl
tar cJf $OUT/s25c.tar.xz -C $R .
