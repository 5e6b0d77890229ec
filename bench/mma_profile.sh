#!/usr/bin/env bash
# Per-kernel profile of carried depthwise-conv kernel variants on the GPU
# machine (after bench/gpu_variants.sh, whose libraries it reuses, or
# standalone): runs bench/harness.py once per variant with --no-timing on the
# selected configurations under Nsight Compute (clocks left alone) and writes
# the metrics of every dwc kernel launch (time, shared-memory pipe and L2
# throughput, issue activity, occupancy, registers, stall reasons) to
# $OUT/profile-<variant>.csv and a readable summary to $OUT/profile.txt.
#
#   bench/mma_profile.sh VARIANT[,VARIANT...] CONFIG_SUBSTRING[,CONFIG_SUBSTRING...]
#
# Variants are .carry/variants/<name>/kernels (bench/build_kernels.sh --out).
# Environment: OUT, DWC_WORK, DWC_PROFILE_TIMEOUT (seconds per ncu call; 100).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
OUT="${OUT:-/tmp/dwc-bench-out}"
WORK="${DWC_WORK:-/tmp/dwc-profile}"
VARIANTS="${1:?usage: bench/mma_profile.sh VARIANT[,...] CONFIG[,...]}"
ONLY="${2:?usage: bench/mma_profile.sh VARIANT[,...] CONFIG[,...]}"
mkdir -p "$OUT" "$WORK"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
[ -n "$NCU" ] || { echo "no ncu on this machine" | tee "$OUT/profile.txt"; exit 0; }
sh runtime/build.sh "$WORK/rt" >"$OUT/profile-build.log" 2>&1 || { echo "runtime build failed"; exit 2; }
RT="$WORK/rt/libdwc_runtime.so"
METRICS=gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,\
l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,\
lts__t_throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,\
sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,\
smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,\
launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,\
smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_tex_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_drain_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_imc_miss_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_selected_per_issue_active.ratio,\
smsp__inst_executed.sum
BASIC=gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,\
smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,\
launch__registers_per_thread,lts__t_bytes.sum
: >"$OUT/profile.txt"
for v in ${VARIANTS//,/ }; do
  KDIR=.carry/variants/$v/kernels
  LIB=$WORK/$v.so
  g++ -shared -o "$LIB" "$KDIR"/*.o -L"$WORK/rt" -ldwc_runtime -Wl,-rpath,"$WORK/rt" \
    >>"$OUT/profile-build.log" 2>&1 || { echo "$v: link failed" | tee -a "$OUT/profile.txt"; continue; }
  timeout "${DWC_PROFILE_TIMEOUT:-100}" "$NCU" --clock-control none --target-processes all --kernel-name regex:dwc_ \
    --metrics "$METRICS" --csv \
    python3 bench/harness.py --manifest "$KDIR/manifest.json" --runtime-lib "$RT" --kernel-lib "$LIB" \
    --only "$ONLY" --no-timing --out "$WORK/prof-$v" --label "profile-$v" \
    >"$OUT/profile-$v.csv" 2>"$OUT/profile-$v.err"
  RC=$?
  if ! grep -q '"Metric Name"' "$OUT/profile-$v.csv"; then
    # A metric this ncu does not know fails the whole call: the basic set.
    timeout "${DWC_PROFILE_TIMEOUT:-100}" "$NCU" --clock-control none --target-processes all --kernel-name regex:dwc_ \
      --metrics "$BASIC" --csv \
      python3 bench/harness.py --manifest "$KDIR/manifest.json" --runtime-lib "$RT" --kernel-lib "$LIB" \
      --only "$ONLY" --no-timing --out "$WORK/prof-$v" --label "profile-$v" \
      >"$OUT/profile-$v.csv" 2>>"$OUT/profile-$v.err"
    RC="$RC, basic metrics $?"
  fi
  echo "== $v (ncu rc $RC)" >>"$OUT/profile.txt"
  python3 - "$OUT/profile-$v.csv" >>"$OUT/profile.txt" <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows:
    print("no ncu rows (see the .err file)"); raise SystemExit
hdr = rows[0]; ki = hdr.index("Kernel Name"); mi = hdr.index("Metric Name"); vi = hdr.index("Metric Value"); ii = hdr.index("ID")
per = collections.OrderedDict()
for r in rows[1:]:
    per.setdefault((r[ii], r[ki]), {})[r[mi]] = r[vi]
for (i, k), m in per.items():
    print(i, k[:90]); [print("   ", n, v) for n, v in sorted(m.items())]
PY
done
cat "$OUT/profile.txt"
