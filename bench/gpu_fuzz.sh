#!/usr/bin/env bash
# GPU fuzzing in one device call, from the repository root: correctness of
# the seeded random forward set (bench/configs.py fuzz: 300 configurations)
# and of the backward and pooling check sets against float64 with NaN-
# poisoned outputs inside NaN guard regions, then compute-sanitizer memcheck
# and racecheck on a subset covering every kernel family. Kernels are built
# on the development machine first:
#
#   bench/build_kernels.sh --set fuzz --out .carry/fuzz/kernels
#   python3 bench/backward_configs.py --set check --build --aot build/bin/dwc-aot
#   python3 bench/pool_configs.py --set odd --build --aot build/bin/dwc-aot
#   python3 bench/conv_configs.py --set odd --build --aot build/bin/dwc-aot
#
# Results (summary.txt, reports, fuzz-logs.tar.gz) under $OUT. PARTS (default
# "check sanitize diag") selects the stages.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
FINAL="${OUT:-/tmp/dwc-fuzz-out}"
WORK=/tmp/dwc-fuzz
OUT="$WORK/out"  # everything here; $FINAL gets the summary, reports and a tarball
mkdir -p "$FINAL" "$WORK" "$OUT"
SUM="$OUT/summary.txt"
: >"$SUM"
note() { echo "$*" | tee -a "$SUM"; }

sh runtime/build.sh "$WORK/rt" >"$OUT/runtime-build.log" 2>&1 || { note "runtime build failed"; exit 2; }
RT="$WORK/rt/libdwc_runtime.so"
KF=.carry/fuzz/kernels
g++ -shared -o "$WORK/libfuzz.so" "$KF"/*.o -L"$WORK/rt" -ldwc_runtime \
  -Wl,-rpath,"$WORK/rt" -Wl,--no-undefined >"$OUT/link.log" 2>&1 || { note "link failed"; exit 2; }

fwd() {  # forward harness, correctness only (every batch index checked)
  python3 bench/harness.py --manifest "$KF/manifest.json" --runtime-lib "$RT" \
    --kernel-lib "$WORK/libfuzz.so" --set fuzz --no-timing --full-check "$@"
}
bwd() {
  python3 bench/backward_harness.py --runtime-lib "$RT" --kernels-dir .carry/backward_kernels \
    --work "$WORK/bwd" --no-timing "$@"
}
conv() {
  g++ -shared -o "$WORK/libconv.so" .carry/conv_kernels/*.o -L"$WORK/rt" -ldwc_runtime \
    -Wl,-rpath,"$WORK/rt" >>"$OUT/link.log" 2>&1
  python3 bench/conv_harness.py --manifest .carry/conv_kernels/manifest.json --runtime-lib "$RT" \
    --kernel-lib "$WORK/libconv.so" --no-timing "$@"
}
pool() {
  python3 bench/pool_harness.py --runtime-lib "$RT" --kernels-dir .carry/pool_kernels \
    --work "$WORK/pool" --no-timing "$@"
}

# (timeout and compute-sanitizer run the harnesses through bash -c.)
export -f fwd bwd pool conv
export KF RT WORK OUT
PARTS="${PARTS:-check sanitize diag}"
has() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
if has check; then
timeout 200 bash -c "fwd --out $OUT --label fuzz" >"$OUT/fwd.log" 2>&1
note "forward fuzz rc $?: $(grep -cE '^(ok|PASS)|correct' "$OUT/fwd.log") lines ok; $(grep -ciE 'incorrect|FAIL' "$OUT/fwd.log") failing lines"
timeout 90 bash -c "bwd --out $OUT --label check" >"$OUT/bwd.log" 2>&1
note "backward check rc $?"
timeout 90 bash -c "pool --out $OUT --label pool-odd" >"$OUT/pool.log" 2>&1
note "pool odd rc $?"
fi
if has check || has conv; then
timeout 90 bash -c "conv --out $OUT --label conv-odd" >"$OUT/conv.log" 2>&1
note "conv odd rc $?: $(grep -ciE 'wrong|incorrect' "$OUT/conv.log") wrong lines"
fi

# Sanitizers on a subset: one configuration per forward kernel family
# (direct, GEMV, row tile, tensor-core ring, tensor-core stream), the
# backward data/filter kernels (GEMV, row tile, tensor cores, streaming,
# split-z) and the pooling kernels.
FWD_ONLY=$(python3 - <<'PY'
import json, re
m = json.load(open(".carry/fuzz/kernels/manifest.json"))
names = [c["name"] for c in m["configs"]] if "configs" in m else list(m.get("kernels", {}))
pick, seen = [], set()
def family(n):
    m = re.search(r"c(\d+)_f(\d+)(?:x(\d+))?_s(\w+?)_d(\w+?)_", n)
    c, fw = int(m.group(1)), int(m.group(3) or m.group(2))
    fast = m.group(4) == "1" and m.group(5) == "1" and c % 8 == 0
    return (n.endswith("_f32"), fast, "tc" if fw >= 13 else "mma" if fw >= 9 else "short")
for n in names:
    k = family(n)
    if k not in seen:
        seen.add(k); pick.append(n)
print(",".join(pick[:10]))
PY
)
note "sanitizer forward subset: $FWD_ONLY"
# One harness call under one sanitizer tool; its summary line goes to $SUM.
sanitize() {  # tool name seconds command...
  local tool=$1 name=$2 secs=$3
  shift 3
  timeout "$secs" compute-sanitizer --tool "$tool" --error-exitcode 9 --print-limit 20 \
    bash -c "$*" >"$OUT/san-$name-$tool.log" 2>&1
  note "$tool $name rc $? ($(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san-$name-$tool.log"))"
}
for tool in $(has sanitize && echo memcheck racecheck); do
  sanitize $tool fwd 150 fwd --out $WORK/san --label san --only "'$FWD_ONLY'"
  sanitize $tool bwd 80 bwd --out $WORK/san --label san --no-cudnn --only bwd
  sanitize $tool pool 60 pool --out $WORK/san --label san --only c13,n1h112
  sanitize $tool conv 80 conv --out $WORK/san --label san
done
# The configuration found wrong by the first run (bench/configs.py
# fuzzbug), with the fast paths and with the direct kernels only.
for d in $(has diag && echo fuzzbug fuzzbug-direct); do
  [ -f ".carry/$d/kernels/manifest.json" ] || continue
  g++ -shared -o "$WORK/lib$d.so" .carry/$d/kernels/*.o -L"$WORK/rt" -ldwc_runtime \
    -Wl,-rpath,"$WORK/rt" >>"$OUT/link.log" 2>&1
  timeout 60 python3 bench/harness.py --manifest ".carry/$d/kernels/manifest.json" --runtime-lib "$RT" \
    --kernel-lib "$WORK/lib$d.so" --set fuzzbug --no-timing --full-check --out "$OUT" --label "$d" \
    >"$OUT/$d.log" 2>&1
  note "$d rc $?:"; grep -E "ok rel_err|wrong" "$OUT/$d.log" | sed 's/^/  /' | tee -a "$SUM"
done
cp "$SUM" "$OUT"/*.md "$FINAL"/ 2>/dev/null
tar czf "$FINAL/fuzz-logs.tar.gz" -C "$OUT" .
cat "$SUM"
