#!/usr/bin/env bash
# Per-kernel profile of carried pooling kernels on the GPU machine: runs the
# pooling harness once per selected configuration (correctness check only,
# one launch) under Nsight Compute with the clocks left alone, and writes a
# CSV of kernel time, DRAM throughput, SM throughput, issue activity and
# achieved occupancy under $OUT. Falls back to a note when ncu cannot read
# the counters.
#
#   bench/pool_profile.sh CONFIG_SUBSTRING[,CONFIG_SUBSTRING...]
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
OUT="${OUT:-/tmp/dwc-bench-out}"
WORK="${DWC_WORK:-/tmp/dwc-bench}"
mkdir -p "$OUT" "$WORK"
ONLY="${1:?usage: bench/pool_profile.sh CONFIG_SUBSTRING[,...]}"
sh runtime/build.sh "$WORK/rt" >"$OUT/profile-build.log" 2>&1 || { echo "runtime build failed"; exit 2; }
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -n "$NCU" ] || { echo "no ncu on this machine" | tee "$OUT/profile.txt"; exit 0; }
METRICS=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,l1tex__t_sector_hit_rate.pct,smsp__average_warp_latency_issue_stalled_long_scoreboard,smsp__average_warp_latency_issue_stalled_lg_throttle
"$NCU" --clock-control none --target-processes all --kernel-name regex:pool --metrics "$METRICS" --csv \
  python3 bench/pool_harness.py --runtime-lib "$WORK/rt/libdwc_runtime.so" --kernels-dir .carry/pool_kernels \
  --only "$ONLY" --no-timing --out "$WORK/prof" --label profile >"$OUT/profile.csv" 2>"$OUT/profile.err"
echo "ncu rc $?"
python3 - "$OUT/profile.csv" <<'PY' | tee "$OUT/profile.txt"
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows:
    print("no ncu rows (see profile.err)"); raise SystemExit
hdr = rows[0]; ki = hdr.index("Kernel Name"); mi = hdr.index("Metric Name"); vi = hdr.index("Metric Value"); ii = hdr.index("ID")
per = collections.OrderedDict()
for r in rows[1:]:
    per.setdefault((r[ii], r[ki]), {})[r[mi]] = r[vi]
for (i, k), m in per.items():
    print(i, k[:70]); [print("   ", n, v) for n, v in sorted(m.items())]
PY
