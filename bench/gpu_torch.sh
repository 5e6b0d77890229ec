#!/usr/bin/env bash
# One call on the GPU machine (no MLIR there): links the kernels that
# bench/torch_specs.py compiled here (.carry/torch_kernels) with
# libdwc_runtime (g++, runtime/build.sh) and runs bench/torch_check.py:
# float64 gradcheck, gradients vs float64 on the benchmark shapes, the
# training comparison, the fallback checks. Results under $OUT.
#
#   bash bench/gpu_torch.sh [--label NAME] [any bench/torch_check.py flag]
#
# From the lead's checkout with this worktree carried:
#   run(command="cd .wt/issue7-torch && bash bench/gpu_torch.sh", carry=[".wt/issue7-torch"])
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
OUT="${OUT:-/tmp/dwc-torch-out}"
KDIR="${DWC_TORCH_KERNELS:-$ROOT/.carry/torch_kernels}"
HARD=${DWC_HARD_LIMIT:-560}
mkdir -p "$OUT"
[ -f "$KDIR/manifest.json" ] || { echo "gpu_torch.sh: no $KDIR/manifest.json (run bench/torch_specs.py here first)" >&2; exit 2; }
{
  echo "== $(date -u +%FT%TZ) bench/gpu_torch.sh $*"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,memory.used --format=csv 2>&1
  python3 -c "import torch; print('torch', torch.__version__, 'cudnn', torch.backends.cudnn.version())" 2>&1
  g++ --version | head -1
} >"$OUT/env.log"
export DWC_TORCH_COMMAND="bash bench/gpu_torch.sh $*"
export PYTHONUNBUFFERED=1
timeout -k 5 "$HARD" python3 bench/torch_check.py --kernels "$KDIR" --out "$OUT" "$@" 2>&1 | tee "$OUT/torch_check.log"
RC=${PIPESTATUS[0]}
for j in "$OUT"/*.json; do
  python3 bench/torch_plot.py "$j" "${j%.json}-train.png" 2>&1 | tail -3
done
echo "gpu_torch.sh: rc $RC; files in $OUT:"; ls -la "$OUT"
exit "$RC"
