#!/usr/bin/env bash
# One device call for kernel variants (tuning, ablations): runs bench/gpu.sh
# once per variant carried under .carry/variants/<name>/kernels (built here
# with bench/build_kernels.sh --aot-flags "..." --out
# .carry/variants/<name>/kernels), the first variant (or --ref NAME) with
# cuDNN timed for F <= 7, the others without cuDNN; writes every variant's
# report into $OUT/variants.tgz and a side-by-side table to
# $OUT/variants.md (bench/variants_table.py).
#
#   bench/gpu_variants.sh [--ref NAME] [--budget S] [harness flags...]
#
# Environment: OUT (default /tmp/dwc-variants-out), DWC_HARD_LIMIT (seconds
# for the whole script; 560).
set -uo pipefail
T_START=$(date +%s)
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
OUT="${OUT:-/tmp/dwc-variants-out}"
HARD=${DWC_HARD_LIMIT:-560}
REF=""; PASS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --ref) REF="$2"; shift 2 ;;
    *) PASS+=("$1"); shift ;;
  esac
done
mkdir -p "$OUT"
RES=/tmp/dwc-variants-res
rm -rf "$RES"; mkdir -p "$RES"
VARIANTS=$(ls -d .carry/variants/*/kernels 2>/dev/null | sed 's#.carry/variants/##; s#/kernels##')
[ -n "$VARIANTS" ] || { echo "gpu_variants.sh: nothing under .carry/variants/*/kernels" >&2; exit 2; }
[ -z "$REF" ] && REF=$(echo "$VARIANTS" | head -1)
# Time shares: the reference variant (cuDNN timed) counts twice.
W=$(( $(echo "$VARIANTS" | wc -w) + 1 ))
for v in $VARIANTS; do
  LEFT=$(( HARD - ($(date +%s) - T_START) - 20 ))
  WV=1; [ "$v" = "$REF" ] && WV=2
  SHARE=$(( LEFT * WV / W ))
  W=$(( W - WV ))
  [ "$SHARE" -gt 30 ] || { echo "gpu_variants.sh: no time left for $v" | tee -a "$OUT/variants.log"; continue; }
  REFF=1; [ "$v" = "$REF" ] && REFF=7
  echo "== $v ($SHARE s, --ref-max-f $REFF)" | tee -a "$OUT/variants.log"
  OUT="$RES/$v" DWC_KERNELS=".carry/variants/$v/kernels" DWC_WORK="/tmp/dwc-variants-work/$v" \
    DWC_HARD_LIMIT="$SHARE" bash bench/gpu.sh --label "$v" --time-budget $(( SHARE > 60 ? SHARE - 30 : SHARE - 12 )) \
    --ref-max-f "$REFF" "${PASS[@]}" > "$RES/$v.log" 2>&1
  echo "   rc $?; $(grep -h 'correct .*timed' "$RES/$v/harness.log" | tail -1)" | tee -a "$OUT/variants.log"
done
python3 bench/variants_table.py "$RES" $VARIANTS > "$OUT/variants.md" 2>>"$OUT/variants.log"
tar czf "$OUT/variants.tgz" -C "$RES" .
cat "$OUT/variants.md"
echo "gpu_variants.sh: done in $(( $(date +%s) - T_START )) s"
