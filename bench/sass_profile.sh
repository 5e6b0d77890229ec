#!/usr/bin/env bash
# Instruction-level profile of one carried kernel variant on the GPU machine:
# runs bench/harness.py --no-timing on one configuration under Nsight Compute
# (clocks left alone) with the source counters (warp stall samples per SASS
# instruction) and writes $OUT/sass-<variant>-<n>.csv.gz (the SASS with its
# samples) and $OUT/details-<variant>-<n>.txt (the section details) for the
# launch picked by --launch-skip (0: first kernel of the op).
#
#   bench/sass_profile.sh VARIANT CONFIG_SUBSTRING LAUNCH_SKIP [LABEL]
#
# Variants are .carry/variants/<name>/kernels (bench/build_kernels.sh --out).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
OUT="${OUT:-/tmp/dwc-bench-out}"
WORK="${DWC_WORK:-/tmp/dwc-profile}"
V="${1:?usage: bench/sass_profile.sh VARIANT CONFIG SKIP [LABEL]}"
ONLY="${2:?config substring}"
SKIP="${3:?launch skip}"
LABEL="${4:-$SKIP}"
mkdir -p "$OUT" "$WORK"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
[ -n "$NCU" ] || { echo "no ncu on this machine"; exit 0; }
[ -f "$WORK/rt/libdwc_runtime.so" ] || sh runtime/build.sh "$WORK/rt" >"$WORK/rt-build.log" 2>&1 \
  || { echo "runtime build failed"; exit 2; }
KDIR=.carry/variants/$V/kernels
LIB=$WORK/$V.so
[ -f "$LIB" ] || g++ -shared -o "$LIB" "$KDIR"/*.o -L"$WORK/rt" -ldwc_runtime -Wl,-rpath,"$WORK/rt" \
  || { echo "$V: link failed"; exit 2; }
REP="$WORK/$V-$LABEL"
rm -f "$REP.ncu-rep"
timeout "${DWC_PROFILE_TIMEOUT:-150}" "$NCU" --clock-control none --target-processes all \
  --kernel-name regex:dwc_ --launch-skip "$SKIP" --launch-count 1 \
  --section SourceCounters --section WarpStateStats --section SchedulerStats \
  --section LaunchStats --section Occupancy --section SpeedOfLight --section MemoryWorkloadAnalysis \
  --import-source no -o "$REP" \
  python3 bench/harness.py --manifest "$KDIR/manifest.json" --runtime-lib "$WORK/rt/libdwc_runtime.so" \
  --kernel-lib "$LIB" --only "$ONLY" --no-timing --out "$WORK/prof-$V" --label "sass-$V" \
  >"$WORK/$V-$LABEL.log" 2>&1
echo "ncu rc $?"
"$NCU" -i "$REP.ncu-rep" --page details >"$OUT/details-$V-$LABEL.txt" 2>&1
"$NCU" -i "$REP.ncu-rep" --page source --csv --print-source sass 2>&1 | gzip >"$OUT/sass-$V-$LABEL.csv.gz"
ls -la "$OUT"
