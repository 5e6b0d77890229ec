#!/bin/sh
# A stand-in for dwc-aot (tests of the AOT directory's bookkeeping, no
# compiler needed): `fake_dwc_aot.sh IN.mlir -o OUT.o --header=OUT.h
# --chip=CHIP` writes an object and a header that name the chip.
out=""; header=""; chip=""
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out="$2"; shift ;;
    --header=*) header="${1#--header=}" ;;
    --chip=*) chip="${1#--chip=}" ;;
  esac
  shift
done
echo "object for $chip" > "$out"
echo "/* header for $chip */" > "$header"
