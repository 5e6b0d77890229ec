#!/usr/bin/env bash
# Single-kernel compile times of dwc-aot, one compile at a time: for each
# line of CMDS (a dwc-aot command line without the program: input.mlir
# [flags]; -o/--header are replaced), appends
#   <name> <wall s> <cpu s (user + sys, with ptxas)> <load average>
# to OUTFILE. CPU time is what the compile costs on an idle core; wall time
# is what it took under the machine's load at the time (both reported).
#
#   bench/compile_times.sh DWC_AOT CMDS OUTFILE
set -u
AOT=$1; CMDS=$2; OUTF=$3
tmp=$(mktemp -d)
while read -r line; do
  set -- $line
  in=$1; shift; args=()
  while [ $# -gt 0 ]; do
    case "$1" in
      -o|--header) shift 2 ;;
      *) args+=("$1"); shift ;;
    esac
  done
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f "%e %U %S" -o "$tmp/t" "$AOT" "$in" "${args[@]}" -o "$tmp/x.o" >/dev/null 2>&1
  read -r wall user sys <"$tmp/t"
  printf '%s %s %.2f %s\n' "$(basename "$in" .mlir)" "$wall" "$(echo "$user + $sys" | bc)" "$load" >>"$OUTF"
done <"$CMDS"
rm -rf "$tmp"
