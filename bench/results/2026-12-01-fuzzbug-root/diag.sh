#!/usr/bin/env bash
# Device call 1 (issue 23a): is the wrong row-tile result ptxas's? Runs each
# PTX variant through the device's ptxas at -O0..-O3 (and the cubins built on
# the development machine) and checks it against float64; SASS of a few.
cd "$(dirname "$0")"
L=$OUT/diag; mkdir -p $L
{
ptxas --version | tail -2; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
declare -A SHAPE=(
  [k]="3 4 6 72 1,1,1,2 f16 1" [e1]="3 4 6 72 1,1,1,2 f16 1" [e2]="3 4 6 72 1,1,1,2 f16 1"
  [e3]="3 4 6 72 1,1,1,2 f16 1" [rt2]="3 4 6 72 1,1,1,2 f16 1" [c64]="3 4 6 64 1,1,1,2 f16 0"
  [bf16p4]="3 4 6 72 1,1,1,4 bf16 0")
for v in k e1 e2 e3 rt2 c64 bf16p4; do
  for o in 0 1 2 3; do
    ptxas -arch=sm_90 -O$o $v.ptx -o $L/$v.O$o.cubin && python3 cubin_check.py $L/$v.O$o.cubin ${SHAPE[$v]}
  done
  python3 cubin_check.py $v.local.cubin ${SHAPE[$v]}
done
for c in k.O3 k.O0 c64.O3 e1.O3 e3.O3; do cuobjdump -sass $L/$c.cubin > $L/$c.sass; done
} > $L/diag.log 2>&1
tar czf $OUT/diag.tar.gz -C $OUT diag
tail -80 $L/diag.log
