#!/usr/bin/env bash
# Nsight Compute profile of the carried dense-conv kernels and of cuDNN's
# kernel on the same layers (GPU machine, clocks left alone): our kernels
# from one correctness run of the conv harness, cuDNN's from one call after
# autotuning (channels_last, cudnn.benchmark). Writes profile.csv (raw) and
# profile.txt (the throughput, pipe, stall and launch metrics per kernel)
# under $OUT.
#
#   bench/conv_profile.sh LAYER_NAME_SUBSTRING[,...]
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
OUT="${OUT:-/tmp/dwc-conv-profile}"
WORK="${DWC_WORK:-/tmp/dwc-conv}"
KDIR="${DWC_CONV_KERNELS:-$ROOT/.carry/conv_kernels}"
mkdir -p "$OUT" "$WORK"
ONLY="${1:?usage: bench/conv_profile.sh NAME_SUBSTRING[,...]}"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
[ -n "$NCU" ] || { echo "no ncu on this machine" | tee "$OUT/profile.txt"; exit 0; }
sh runtime/build.sh "$WORK/rt" >"$OUT/profile-build.log" 2>&1 || { echo "runtime build failed"; exit 2; }
g++ -shared -o "$WORK/libdwc_conv_kernels.so" "$KDIR"/*.o -L"$WORK/rt" -ldwc_runtime \
  -Wl,-rpath,"$WORK/rt" -Wl,--no-undefined >>"$OUT/profile-build.log" 2>&1 || { echo "link failed"; exit 2; }
METRICS=gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,\
dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,\
l1tex__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,dram__bytes.sum,\
sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,\
sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,\
smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,\
launch__registers_per_thread,launch__block_size,launch__grid_size,launch__shared_mem_per_block_dynamic,\
launch__shared_mem_per_block_static,launch__occupancy_limit_shared_mem,launch__occupancy_limit_registers,\
smsp__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,\
smsp__average_warp_latency_issue_stalled_barrier.ratio,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,\
smsp__average_warp_latency_issue_stalled_wait.ratio,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio,\
smsp__average_warp_latency_issue_stalled_math_pipe_throttle.ratio,smsp__average_warp_latency_issue_stalled_short_scoreboard.ratio,\
smsp__average_warp_latency_issue_stalled_mio_throttle.ratio,smsp__average_warp_latency_issue_stalled_membar.ratio,\
smsp__average_warp_latency_issue_stalled_sleeping.ratio,smsp__average_warp_latency_issue_stalled_selected.ratio,\
smsp__average_warp_latency_issue_stalled_dispatch_stall.ratio,smsp__average_warp_latency_issue_stalled_no_instruction.ratio
"$NCU" --clock-control none --target-processes all --kernel-name regex:'^conv_' --launch-count 8 \
  --metrics "$METRICS" --csv python3 bench/conv_harness.py --manifest "$KDIR/manifest.json" \
  --runtime-lib "$WORK/rt/libdwc_runtime.so" --kernel-lib "$WORK/libdwc_conv_kernels.so" \
  --out "$WORK/prof" --label profile --only "$ONLY" --no-timing >"$OUT/profile-ours.csv" 2>"$OUT/profile-ours.err"
echo "ncu (ours) rc $?"
cat >"$WORK/cudnn_call.py" <<'PY'
import sys, torch
sys.path.insert(0, "bench")
from conv_configs import get_set
torch.backends.cudnn.benchmark = True
for c in get_set("layers"):
    if not any(k in c.name for k in sys.argv[1].split(",")) or c.dtype == "f32":
        continue
    dt = {"f16": torch.float16, "bf16": torch.bfloat16}[c.dtype]
    x = torch.randn(c.N, c.C, c.H, c.W, device="cuda", dtype=dt).to(memory_format=torch.channels_last)
    w = torch.randn(c.OC, c.C, c.FH, c.FW, device="cuda", dtype=dt).to(memory_format=torch.channels_last)
    f = lambda: torch.nn.functional.conv2d(x, w, stride=tuple(c.stride), dilation=tuple(c.dilation))
    for _ in range(3):
        f()
    torch.cuda.synchronize()
    torch.cuda.profiler.start(); f(); torch.cuda.synchronize(); torch.cuda.profiler.stop()
PY
"$NCU" --clock-control none --target-processes all --profile-from-start off --metrics "$METRICS" --csv \
  python3 "$WORK/cudnn_call.py" "$ONLY" >"$OUT/profile-cudnn.csv" 2>"$OUT/profile-cudnn.err"
echo "ncu (cudnn) rc $?"
python3 - "$OUT/profile-ours.csv" "$OUT/profile-cudnn.csv" <<'PY' | tee "$OUT/profile.txt"
import csv, sys, collections
for path in sys.argv[1:]:
    rows = [r for r in csv.reader(open(path)) if len(r) > 10]
    if not rows:
        print(path, ": no ncu rows"); continue
    hdr = rows[0]; ki = hdr.index("Kernel Name"); mi = hdr.index("Metric Name"); vi = hdr.index("Metric Value"); ii = hdr.index("ID")
    per = collections.OrderedDict()
    for r in rows[1:]:
        per.setdefault((r[ii], r[ki]), {})[r[mi]] = r[vi]
    for (i, k), m in per.items():
        print(i, k[:90]); [print("   ", n, v) for n, v in sorted(m.items())]
PY
