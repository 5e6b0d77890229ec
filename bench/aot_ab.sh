#!/usr/bin/env bash
# A/B compile-time wrapper for dwc-aot: pass it as --aot to
# bench/build_kernels.sh or a bench/*_configs.py --build. Each call compiles
# the same input with AOT_A (written to <out dir>.A/, e.g. kernels.A/) and
# then AOT_B (the requested output), one after the other, and appends
#   <name> <seconds A> <seconds B> <load average>
# to AB_LOG (wall clock of each compile alone; interleaving the two keeps
# the machine's load alike for both). Exits with B's status.
#
#   AOT_A=/tmp/dwc-aot.old AOT_B=build/bin/dwc-aot AB_LOG=/tmp/ab.txt \
#     bench/build_kernels.sh --set grid --aot bench/aot_ab.sh -j 1
set -u
: "${AOT_A:?}" "${AOT_B:?}" "${AB_LOG:?}"
args=("$@")
out=""; in=""
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[$i]}" in
    -o) out="${args[$((i + 1))]}"; i=$((i + 1)) ;;
    --header) i=$((i + 1)) ;;
    -*) ;;
    *) in="${args[$i]}" ;;
  esac
done
[ -n "$out" ] && [ -n "$in" ] || { echo "aot_ab.sh: need an input and -o" >&2; exit 2; }
adir="$(dirname "$out").A"
mkdir -p "$adir"
aargs=()
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[$i]}" in
    -o) aargs+=(-o "$adir/$(basename "$out")"); i=$((i + 1)) ;;
    --header) aargs+=(--header "$adir/$(basename "${args[$((i + 1))]}")"); i=$((i + 1)) ;;
    *) aargs+=("${args[$i]}") ;;
  esac
done
load=$(cut -d' ' -f1 /proc/loadavg)
t0=$(date +%s.%N); "$AOT_A" "${aargs[@]}" >/dev/null 2>&1; t1=$(date +%s.%N)
"$AOT_B" "$@"; rc=$?; t2=$(date +%s.%N)
printf '%s %.3f %.3f %s\n' "$(basename "$in" .mlir)" "$(echo "$t1 - $t0" | bc)" \
  "$(echo "$t2 - $t1" | bc)" "$load" >>"$AB_LOG"
exit $rc
