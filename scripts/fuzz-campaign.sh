#!/usr/bin/env bash
# A local fuzz campaign over the tools of a build directory (default
# ./build; ./build-sanitize for the sanitizer build): seeded malformed IR
# through verification, the CPU and the GPU pipelines and random pipeline
# options (test/Fuzz/Inputs/fuzz_ir.py), dwc-aot option sweeps and runtime
# call sequences. Prints each part's counts and the totals.
# Usage: scripts/fuzz-campaign.sh [BUILD_DIR] [SCALE]  (SCALE 1: 20,300 generated inputs)
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
case $build in /*) ;; *) build=$PWD/$build ;; esac
scale=${2:-1}
fuzz=test/Fuzz/Inputs
log=$(mktemp)
run() { echo "+ $*" >&2; "$@" | tee -a "$log" | tail -1; }
for seed in 101 102; do
  run python3 $fuzz/fuzz_ir.py --dwc-opt "$build/bin/dwc-opt" --mode verify --count $((4500 * scale)) --seed $seed
  run python3 $fuzz/fuzz_ir.py --dwc-opt "$build/bin/dwc-opt" --mode cpu --count $((1500 * scale)) --seed $((seed + 10))
  run python3 $fuzz/fuzz_ir.py --dwc-opt "$build/bin/dwc-opt" --mode gpu --count $((2000 * scale)) --seed $((seed + 20))
  run python3 $fuzz/fuzz_ir.py --dwc-opt "$build/bin/dwc-opt" --mode options --count $((2000 * scale)) --batch 20 --seed $((seed + 30))
done
tmp=$(mktemp -d)
cc -shared -fPIC test/Runtime/Inputs/fake-driver.c -o "$tmp/driver.so"
sanitize=$(grep -q 'DWC_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null &&
           echo "-fsanitize=address,undefined")
cc $sanitize $fuzz/fuzz_runtime.c -Iruntime/include -L"$build/lib" -ldwc_runtime \
   -Wl,-rpath,"$(cd "$build/lib" && pwd)" -o "$tmp/runtime"
for seed in 1 2 3 4 5; do
  run env DWC_CUDA_DRIVER="$tmp/driver.so" "$tmp/runtime" "$tmp/driver.so" $seed 20000
done
if [ -x /usr/local/cuda/bin/ptxas ]; then
  # (In the scratch folder: --header=<hostile value> writes where it runs.)
  root=$PWD
  (cd "$tmp" && run python3 "$root/$fuzz/fuzz_aot_options.py" --dwc-aot "$build/bin/dwc-aot" \
    --input "$root/test/AOT/Inputs/dwc.mlir" --input "$root/test/Pipelines/Inputs/dw3x3-f16.mlir" \
    --out "$tmp/x.o" --count $((300 * scale)) --seed 7)
fi
rm -rf "$tmp"
awk '/^fuzz /{n+=$5; c+=$7; h+=$9; s+=$11}
     /option sweep/{n+=$6; f+=$8}
     END{printf "total: %d generated inputs (+ runtime call sequences), %d crashes, %d hangs, %d exit-0-after-error, %d dwc-aot failures\n", n, c, h, s, f}' "$log"
grep -q "FAIL" "$log" && { grep -A3 FAIL "$log" | head -40; rm -f "$log"; exit 1; }
rm -f "$log"
