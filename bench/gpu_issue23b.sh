#!/usr/bin/env bash
# One device call for issue 23's last two floors (run from the root of a
# tree holding bench/, runtime/ and the kernels under .carry/, built on the
# development machine with the compiler under test):
#   1. correctness against float64, in parallel: the 300 random forward
#      configurations (.carry/fuzz), the fuzzbug and fuzzbug2 sets, the
#      backward check, pool odd and conv2d odd sets; memcheck on fuzzbug;
#   2. GPU time of benchmark kernels before / after (the grid kernels of
#      .carry/variants/after/kernels.A = old compiler, kernels = new),
#      alternating A B A B, cuDNN not timed.
# PARTS (default "fwd fuzzbug others time") selects the stages; ROUNDS
# (default 2) the timing rounds.
# Everything lands in $OUT/issue23b.tgz plus $OUT/summary.txt.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
FINAL="${OUT:-/tmp/issue23b-out}"
W=/tmp/issue23b; R=$W/res
mkdir -p "$FINAL" "$R"
SUM=$R/summary.txt; : >"$SUM"
note() { echo "$*" | tee -a "$SUM"; }
T0=$(date +%s)
sh runtime/build.sh "$W/rt" >"$R/runtime.log" 2>&1 || { note "runtime build failed"; }
RT=$W/rt/libdwc_runtime.so
lib() {  # lib NAME DIR: links DIR/*.o into $W/libNAME.so
  g++ -shared -o "$W/lib$1.so" "$2"/*.o -L"$W/rt" -ldwc_runtime -Wl,-rpath,"$W/rt" >>"$R/link.log" 2>&1
}
lib fuzz .carry/fuzz/kernels; lib fuzzbug .carry/fuzzbug/kernels; lib fb2 .carry/fb2/kernels
lib conv .carry/conv_kernels
cp .carry/variants/after/kernels/manifest.json .carry/variants/after/kernels.A/ 2>/dev/null
lib after .carry/variants/after/kernels; lib before .carry/variants/after/kernels.A
fwd() {  # fwd LABEL KDIR LIB SET [flags]
  local label=$1 kd=$2 l=$3 set=$4; shift 4
  python3 bench/harness.py --manifest "$kd/manifest.json" --runtime-lib "$RT" --kernel-lib "$W/lib$l.so" \
    --set "$set" --no-timing --full-check --out "$R/$label" --label "$label" "$@" >"$R/$label.log" 2>&1
  echo "$label rc $?: $(grep -c 'ok rel_err' "$R/$label.log") ok, $(grep -c 'wrong result' "$R/$label.log") wrong" >>"$R/part1.txt"
}
# 1. Correctness, in parallel (no timing here).
PARTS="${PARTS:-fwd fuzzbug others time}"
has() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
: >"$R/part1.txt"
has fwd && fwd fuzz .carry/fuzz/kernels fuzz fuzz &
has fuzzbug && fwd fuzzbug .carry/fuzzbug/kernels fuzzbug fuzzbug &
has fuzzbug && fwd fuzzbug2 .carry/fb2/kernels fb2 fuzzbug2 &
has bwd || has others && ( python3 bench/backward_harness.py --runtime-lib "$RT" --kernels-dir .carry/backward_kernels --work "$W/bwd" \
    --no-timing --out "$R/bwd" --label check >"$R/bwd.log" 2>&1; echo "backward check rc $?" >>"$R/part1.txt" ) &
has others && ( python3 bench/pool_harness.py --runtime-lib "$RT" --kernels-dir .carry/pool_kernels --work "$W/pool" \
    --no-timing --out "$R/pool" --label pool-odd >"$R/pool.log" 2>&1; echo "pool odd rc $?" >>"$R/part1.txt" ) &
has others && ( mkdir -p "$R/conv"; python3 bench/conv_harness.py --manifest .carry/conv_kernels/manifest.json --runtime-lib "$RT" \
    --kernel-lib "$W/libconv.so" --no-timing --out "$R/conv" --label conv-odd >"$R/conv.log" 2>&1; echo "conv odd rc $?" >>"$R/part1.txt" ) &
has fuzzbug && ( timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 \
    python3 bench/harness.py --manifest .carry/fuzzbug/kernels/manifest.json --runtime-lib "$RT" \
    --kernel-lib "$W/libfuzzbug.so" --set fuzzbug --no-timing --out "$R/san" --label san >"$R/memcheck.log" 2>&1
  echo "memcheck fuzzbug rc $? ($(grep -m1 'ERROR SUMMARY' "$R/memcheck.log"))" >>"$R/part1.txt" ) &
wait
cat "$R/part1.txt" >>"$SUM"; cat "$R/part1.txt"
note "part 1 done at $(( $(date +%s) - T0 )) s"
# 2. Timing, A B A B (old, new compiler), the selected grid kernels.
ONLY="${ONLY:-n128h64w64c256_f3_s1_d1_f16,n128h64w64c256_f7_s1_d1_f16,n128h64w64c256_f31_s1_d1_f16,n128h64w64c256_f51_s1_d1_f16,n128h64w64c256_f3_s1_d1_f32,n128h64w64c256_f51_s1_d1_f32,n128h32w32c1024_f51_s1_d1_f16,n128h128w128c128_f7_s1_d1_f16}"
STOP=${STOP:-210}  # no new timing run after this many seconds
KA=.carry/variants/after/kernels.A; KB=.carry/variants/after/kernels
for round in $(has time && seq 1 "${ROUNDS:-2}"); do
  for v in before after; do
    [ $(( $(date +%s) - T0 )) -lt "$STOP" ] || { note "timing $v round $round skipped (time)"; continue; }
    kd=$KB; [ $v = before ] && kd=$KA
    timeout "${TLIMIT:-45}" python3 bench/harness.py --manifest "$kd/manifest.json" --runtime-lib "$RT" --kernel-lib "$W/lib$v.so" \
      --set grid --only "$ONLY" --ref-max-f 1 --target-s 0.4 --max-config-s 1.5 --time-budget "${TBUDGET:-30}" \
      --out "$R/time-$v-$round" --label "$v-$round" >"$R/time-$v-$round.log" 2>&1
    note "timing $v round $round rc $? at $(( $(date +%s) - T0 )) s"
  done
done
python3 - "$R" >>"$SUM" 2>&1 <<'PY'
import glob, json, os, sys, statistics
res = sys.argv[1]
def rows(v, r):
    fs = [f for f in glob.glob(os.path.join(res, f"time-{v}-{r}", "*.json")) if "state" not in os.path.basename(f)]
    if not fs: return {}
    return {x["name"]: x for x in json.load(open(sorted(fs)[-1])).get("rows", [])}
t = {(v, r): rows(v, r) for v in ("before", "after") for r in (1, 2)}
t = {k: d for k, d in t.items() if d}
names = sorted(set().union(*[set(d) for d in t.values()]))
print("| kernel | before ms (r1, r2) | after ms (r1, r2) | after / before (median of rounds) |")
print("|---|---|---|---|")
for n in names:
    def ms(v, r):
        x = t[(v, r)].get(n, {})
        return x.get("ours_ms") or x.get("ms") or x.get("ours")
    b = [ms("before", r) for r in (1, 2) if ("before", r) in t]
    a = [ms("after", r) for r in (1, 2) if ("after", r) in t]
    bb = [x for x in b if isinstance(x, (int, float))]; aa = [x for x in a if isinstance(x, (int, float))]
    ratio = statistics.median(aa) / statistics.median(bb) if aa and bb else float("nan")
    print(f"| {n} | {b} | {a} | {ratio:.3f} |")
PY
cat "$SUM"
tar czf "$FINAL/issue23b.tgz" -C "$R" .
cp "$SUM" "$FINAL/"
