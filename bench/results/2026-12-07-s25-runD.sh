#!/bin/sh
# Call D (session 25): the new f32 stride-2 forward rule (1 x 4 tiles of 64
# bits loaded first on outputs of under 28 rows) against the tile before it
# (call C's kernels, the session's base compiler) on its three batch-64
# layers; the odd strided shapes on the new compiler (correctness); then
# MobileNetV2 / EfficientNet-B0 f32 batch 64 through dwc_torch.convert.
# Kernels (MLIR machine, main at the rule's commit):
#   python3 bench/stride_configs.py --set layers --only <the 3 keys> --ops fwd --build --out .carry/s25d/l/stride_after
#   python3 bench/stride_configs.py --set odd --build --out .carry/s25d/o/stride_after
#   PYTHONPATH=python python3 bench/torch_e2e.py prepare --aot build/bin/dwc-aot --out .carry/s25d/e2e/kernels \
#     -j 2 --sections models --configs mobilenetv2_100:f32:64:infer,efficientnet_b0:f32:64:infer,efficientnet_b0:f32:64:train
#   (carried as .carry/s25d/d.tar.xz; the base kernels as .carry/s25/a.tar.xz)
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p /tmp/k /tmp/d && tar xJf .carry/s25/a.tar.xz -C /tmp/k && tar xJf .carry/s25d/d.tar.xz -C /tmp/d || exit 1
sh runtime/build.sh /tmp/rt > /tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }
nvidia-smi --query-gpu=name --format=csv,noheader
R=/tmp/res; mkdir -p $R
timeout 60 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --out $R --graphs \
  --target-s 0.02 --iters 100 --work /tmp/wl --kernels-dir /tmp/d/l/stride_after --before-dir /tmp/k/stride_after \
  --time-budget 40 --label 2026-12-07-s25-s2f32 > $R/s2f32.log 2>&1; echo "s2f32 rc=$?"
grep 'f3_s2' $R/stride-2026-12-07-s25-s2f32.md | cut -d'|' -f2-8
timeout 60 python3 bench/stride_harness.py --runtime-lib /tmp/rt/libdwc_runtime.so --out $R \
  --work /tmp/wo --kernels-dir /tmp/d/o/stride_after --time-budget 60 --label 2026-12-07-s25-odd \
  > $R/odd.log 2>&1; echo "odd rc=$?"; grep -c '(odd) .* yes' $R/stride-2026-12-07-s25-odd.md
# (E2E=0: the kernels only, when little device time is left.)
export DWC_CACHE_DIR=/tmp/dwcc PYTHONUNBUFFERED=1
[ "${E2E:-1}" = 1 ] && PYTHONPATH=python timeout 100 python3 bench/torch_e2e.py run --kernels /tmp/d/e2e/kernels \
  --out $R/e2e --budget-s 70 --sections models --rounds 5 \
  --configs mobilenetv2_100:f32:64:infer,efficientnet_b0:f32:64:infer \
  > $R/e2e.log 2>&1; echo "e2e rc=$?"
tar cJf $OUT/s25d.tar.xz -C $R .
