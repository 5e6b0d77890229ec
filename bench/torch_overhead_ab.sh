#!/bin/bash
# Host overhead, main vs a branch on one GPU host in one device call (v4 of
# bench/results/2026-12-01-torch-overhead-v4.md): run from a stage directory
# holding base/ and new/ (bench/stage_torch_e2e.sh of each tree; new/kernels
# from torch_e2e.py prepare --sections overhead,correctness); $OUT gets the logs.
set -u
cd "$(dirname "$0")"
export PYTHONUNBUFFERED=1
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt 2>&1
lscpu | grep -E "Model name|^CPU\(s\)" >> $OUT/gpu.txt
build() { (cd $1 && DWC_CACHE_DIR=/tmp/c$1 PYTHONPATH=python timeout 120 python3 -c \
  "import time,dwc_torch;t=time.time();dwc_torch.load_extension();print('built',time.time()-t)") > $OUT/build_$1.log 2>&1; }
build base & build new & wait
echo "builds done $(( $(date +%s) - t0 )) s" >> $OUT/steps.txt
run() { # side tag script sections timeout kernels
  (cd $1 && DWC_CACHE_DIR=/tmp/c$1 PYTHONPATH=python timeout $5 python3 bench/$3 run \
    --kernels $6 --out $OUT/$2 --sections $4) > $OUT/$2.log 2>&1
  echo "$2 rc $? at $(( $(date +%s) - t0 )) s" >> $OUT/steps.txt
}
run new new1 torch_e2e.py correctness,overhead 70 kernels
run base base1 torch_e2e.py overhead 60 ../new/kernels
run new new2 torch_e2e.py overhead_host 30 kernels
run base base2 torch_e2e_nograph.py overhead 30 ../new/kernels
run new new3 torch_e2e.py overhead_host 30 kernels
cat $OUT/steps.txt
